// Block-based jump point search on a uniform-cost grid with no corner cutting.
//
// Source: D. Harabor and A. Grastien, "Improving Jump Point Search" (ICAPS 2014), section
// 4 (block-based symmetry breaking: jumps read many cells per machine word) and its
// JPS2 variant, where a diagonal jump does not stop at the cells from which a straight
// jump found something: the jump points found there are successors of the node being
// expanded, and the diagonal goes on. The rules for this movement model (no corner
// cutting) are those of grid_jps.cpp ("Online Graph Pruning for Pathfinding on Grid
// Maps", AAAI 2011, sections 3 and 4, re-derived):
//
// Pruning (successor_dirs in grid_jump_search.hpp). A node x reached from p:
//   - Straight arrival, moving east into x: (x+1, y) is natural; (x, y-1) is FORCED when
//     (x-1, y-1) is blocked and (x, y-1) passable (else p reaches it by a diagonal for
//     sqrt 2 < 2), and with it (x+1, y-1) when that diagonal is legal; row y+1 alike.
//     Every other neighbour is pruned.
//   - Diagonal arrival (dx, dy): the move needed (x-dx, y) and (x, y-dy) passable, so
//     every neighbour but (x+dx, y), (x, y+dy) and (x+dx, y+dy) is reached as cheaply
//     another way: no forced neighbours without corner cutting. Only the start and the
//     goal are ever nodes reached diagonally here.
// Straight jumps (JpsBitGrid::jump): stop on the goal, on a cell with a forced
// neighbour (bit x of the row above or below set while bit x-1 is not) or before a
// blocked cell; one unaligned 64-bit load per row tests 56 cells, std::countr_zero finds
// the first stop, and the four orientations of the bits make every direction a scan east.
// Diagonal jumps: step while the diagonal move is legal; at each step t (after k
// diagonal moves) run both straight block scans along the component directions. A
// jump point they find at s further cells is a successor at cost k sqrt 2 + s, its
// last move straight (so the pruning above applies to it). This is exactly what
// expanding t would generate (its natural successors under a diagonal arrival are those
// two scans and the next diagonal step), at the g t has through this jump; if t has a
// cheaper way in, that way reaches the same jump points for less and A* keeps the
// cheaper. The goal on the diagonal ends the jump. Every jump has the shape k diagonal
// moves then s straight ones, its cost is its octile length, so the octile heuristic is
// consistent on the jump graph and no node is reopened.
//
// Trace: PassOver events for the diagonal (origin to last cell) and for every straight scan
// with at least one cell (from its turning point to the last cell read).

#include "planner/grid/grid_jps_block.hpp"

namespace pathscope {

// ---------------------------------------------------------------------------------------
// GridJpsBlock

GridJpsBlock::GridJpsBlock(const PlanningWorld& world, std::size_t movement_class, std::string name)
    : JumpPointSearch<GridJpsBlock>(world, movement_class, std::move(name)) {}

bool GridJpsBlock::prepare() {
  // The bits are made again at the first query after a world update.
  if (world_.revision() != bits_revision_) {
    grids_.clear();
    bits_revision_ = world_.revision();
  }
  std::unique_ptr<JpsBitGrid>& bits = grids_[key_];
  if (!bits) bits = std::make_unique<JpsBitGrid>(grid_, key_);
  bits_ = bits.get();
  return true;
}

namespace {

// The pruning rules of grid_jump_search.hpp for every 3 x 3 neighbourhood and last move:
// entry [dir][m] for the passable bits m of JpsBitGrid::around() (bit (dy + 1) * 3 +
// (dx + 1) for the cell at (dx, dy)) and the move into the cell (kNoDir at the start).
// 4.5 KB, built at compile time.
struct PruneTable {
  std::uint8_t dirs[GridCellState<1>::kNoDir + 1][512];
};

constexpr PruneTable make_prune_table() {
  PruneTable t{};
  for (std::uint32_t m = 0; m < 512; ++m) {
    const auto p = [m](int dx, int dy) { return (m >> ((dy + 1) * 3 + dx + 1)) & 1u; };
    std::uint8_t moves = 0;
    for (int d = 0; d < 4; ++d) moves = std::uint8_t(moves | (p(kDirDx[d], kDirDy[d]) << d));
    for (int d = 4; d < 8; ++d) {
      const int dx = kDirDx[d], dy = kDirDy[d];
      moves = std::uint8_t(moves | ((p(dx, dy) & p(dx, 0) & p(0, dy)) << d));
    }
    for (int dir = 0; dir <= GridCellState<1>::kNoDir; ++dir)
      t.dirs[dir][m] = jump_successor_dirs(moves, std::uint8_t(dir), p);
  }
  return t;
}

constexpr PruneTable kPruneTable = make_prune_table();

}  // namespace

// The pruning rules from the 3 x 3 passable bits around the cell (three short loads from
// the bit rows) looked up in kPruneTable.
std::uint8_t GridJpsBlock::pruned_dirs(glm::ivec2 c, std::uint8_t dir) const {
  return kPruneTable.dirs[dir][bits_->around(c.x, c.y)];
}

// Each direction is its own instantiation, so the scans' orientations and the steps are
// constants.
template <class Push, class Scan>
void GridJpsBlock::jumps(glm::ivec2 c, int dir, Push&& push, Scan&& scan) const {
  switch (dir) {
    case 0: straight_jump<0>(c, push, scan); return;
    case 1: straight_jump<1>(c, push, scan); return;
    case 2: straight_jump<2>(c, push, scan); return;
    case 3: straight_jump<3>(c, push, scan); return;
    case 4: diagonal_jump<kDirDx[4], kDirDy[4]>(c, push, scan); return;
    case 5: diagonal_jump<kDirDx[5], kDirDy[5]>(c, push, scan); return;
    case 6: diagonal_jump<kDirDx[6], kDirDy[6]>(c, push, scan); return;
    default: diagonal_jump<kDirDx[7], kDirDy[7]>(c, push, scan); return;
  }
}

template <int kDir, class Push, class Scan>
void GridJpsBlock::straight_jump(glm::ivec2 c, Push&& push, Scan&& scan) const {
  constexpr int dx = kDirDx[kDir], dy = kDirDy[kDir];
  const JpsBitGrid::Jump j = bits_->jump<kDir>(c.x, c.y, ends_xy_[1].x, ends_xy_[1].y);
  const glm::ivec2 end{c.x + dx * j.steps, c.y + dy * j.steps};
  if (j.steps > 0) scan(c, end);
  if (j.found) push(JumpSuccessor{end, double(j.steps), std::uint8_t(kDir)});
}

// The two straight lines move with the diagonal one cell per step (JpsBitGrid::Line), so
// a step finds no rows again: it scans both lines, and the east-west scan's first words
// say whether the next diagonal move is legal.
template <int kDx, int kDy, class Push, class Scan>
void GridJpsBlock::diagonal_jump(glm::ivec2 c, Push&& push, Scan&& scan) const {
  constexpr int kDir = kJumpDirOf[kDy + 1][kDx + 1];
  constexpr int kH = kJumpDirOf[1][kDx + 1], kV = kJumpDirOf[kDy + 1][1];
  const int gx = ends_xy_[1].x, gy = ends_xy_[1].y;
  const JpsBitGrid& b = *bits_;
  JpsBitGrid::Line h = b.line<kH>(c.x, c.y), v = b.line<kV>(c.x, c.y);
  // The goal's positions along the lines, for the steps where a line holds it.
  const int h_goal = b.position<kH>(gx, gy), v_goal = b.position<kV>(gx, gy);
  int x = c.x, y = c.y, k = 0;
  // Whether the next diagonal move is legal: read from the bits, then from each step's
  // scan along the east-west line (its first words hold the cells the move needs).
  bool open = JpsBitGrid::diagonal_open(h, kDy);
  while (open) {
    x += kDx;
    y += kDy;
    ++k;
    h.advance(kDy);
    v.advance(kDx);
    if (x == gx && y == gy) {
      scan(c, glm::ivec2{x, y});
      push(JumpSuccessor{{x, y}, kSqrt2 * double(k), std::uint8_t(kDir)});
      return;
    }
    const int hs = JpsBitGrid::scan<kDy>(h, y == gy ? h_goal : -1, &open);
    const int hn = hs > 0 ? hs : -hs;
    if (hn > 0) scan(glm::ivec2{x, y}, glm::ivec2{x + kDx * hn, y});
    if (hs > 0) push(JumpSuccessor{{x + kDx * hs, y}, kSqrt2 * double(k) + double(hs), std::uint8_t(kH)});
    const int vs = JpsBitGrid::scan(v, x == gx ? v_goal : -1);
    const int vn = vs > 0 ? vs : -vs;
    if (vn > 0) scan(glm::ivec2{x, y}, glm::ivec2{x, y + kDy * vn});
    if (vs > 0) push(JumpSuccessor{{x, y + kDy * vs}, kSqrt2 * double(k) + double(vs), std::uint8_t(kV)});
  }
  if (k > 0) scan(c, glm::ivec2{x, y});
}

GridJpsBlock::~GridJpsBlock() = default;

template class JumpPointSearch<GridJpsBlock>;

}  // namespace pathscope
