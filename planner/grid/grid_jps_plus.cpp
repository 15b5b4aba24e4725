// Preprocessed jump point search (JPS+) on a uniform-cost grid with no corner cutting.
//
// Source: S. Rabin and F. Silva, "JPS+: An Extreme A* Speed Optimization for Static
// Uniform Cost Grids" (Game AI Pro 2, chapter 20): per cell and direction, the distance
// to the next jump point or to the wall, precomputed; and D. Harabor and A. Grastien,
// "Improving Jump Point Search" (ICAPS 2014), section 5 (preprocessed jump points). The
// jump points are those of grid_jps_block.cpp for this movement model (no corner
// cutting, so no forced neighbours after diagonal moves), and, as there, a diagonal jump
// hands on the straight jump points of its turning cells instead of stopping on them.
//
// Table (JpsPlusTable). Straight, east from (x, y), with n = (x+1, y):
//   n blocked: 0 (no move);
//   n has a forced neighbour ((x+1, y±1) passable, (x, y±1) blocked): 1;
//   else E(n) + 1 when E(n) > 0, E(n) - 1 otherwise.
// Diagonal (dx, dy) from c, with n = c + (dx, dy):
//   the move illegal (n, (x+dx, y) or (x, y+dy) blocked): 0;
//   a straight distance of n along dx or dy positive: 1;
//   else D(n) + 1 when D(n) > 0, D(n) - 1 otherwise.
// So a row (column) is one pass against its direction, and the diagonals one pass over
// the rows against their vertical component.
//
// Queries test the goal on the way, as Rabin's "target jump points": a straight jump
// whose line holds the goal within its reach ends there; a diagonal jump that crosses
// the goal's row or column within its reach runs the straight jump from that crossing
// (which reaches the goal or nothing), and ends on the goal when the goal lies on it.
//
// Edits (update). A straight distance reads only its own line and the two lines beside
// it; a change to cells [x0, x1] x [y0, y1] (the world's change, which already holds one
// ring of neighbours) re-reads its passability, recomputes rows y0-1..y1+1 east and
// west and columns x0-1..x1+1 south and north, then the diagonals: every cell whose
// successor cell lies in those rows or columns, or whose successor's distance changed,
// in dependency order, so a change follows each diagonal back exactly as far as it
// reaches.
//
// Trace and dependency: with an observer (or when the dependency replays the jumps) the
// diagonal is walked cell by cell and each turning cell's two straight reaches are
// reported as PassOver segments, so the cells a table entry summarises are the cells the
// answer depends on.

#include "planner/grid/grid_jps_plus.hpp"

#include <bit>
#include <climits>
#include <cstring>
#include <type_traits>

namespace pathscope {

namespace {
constexpr int kMaxSide = 32767;
std::string table_key(std::uint16_t key) { return "jps_plus/" + std::to_string(key); }
}  // namespace

// ---------------------------------------------------------------------------------------
// JpsPlusTable

JpsPlusTable::JpsPlusTable(const CostGrid& grid, std::uint16_t key, std::size_t movement_class)
    : class_(movement_class), key_(key), w_(grid.width()), h_(grid.height()), pw_(grid.width() + 2) {
  too_large_ = w_ > kMaxSide || h_ > kMaxSide;
  if (too_large_) return;
  pass_.assign(std::size_t(pw_) * std::size_t(h_ + 2), 0);
  for (int y = 0; y < h_; ++y) {
    for (int x = 0; x < w_; ++x) {
      pass_[std::size_t(y + 1) * std::size_t(pw_) + std::size_t(x + 1)] =
          grid.move_key(grid.index(x, y)) == key ? 1 : 0;
    }
  }
  dist_.assign(std::size_t(w_) * std::size_t(h_) * 8, 0);
  for (int y = 0; y < h_; ++y) {
    straight_line(0, y);
    straight_line(2, y);
  }
  for (int x = 0; x < w_; ++x) {
    straight_line(1, x);
    straight_line(3, x);
  }
  diagonals(0, 0, -1, -1, true);
  last_update_cells_ = 0;
}

const JpsPlusTable& JpsPlusTable::of(const PlanningWorld& world, std::size_t movement_class,
                                     std::uint16_t key) {
  return world.derived<JpsPlusTable>(table_key(key), movement_class,
                                     [key](const PlanningWorld& w, std::size_t c) {
                                       return std::make_unique<JpsPlusTable>(w.grid(c), key, c);
                                     });
}

int JpsPlusTable::straight_value(int x, int y, int dir) const {
  const int dx = kDirDx[std::size_t(dir)], dy = kDirDy[std::size_t(dir)];
  const int nx = x + dx, ny = y + dy;
  if (!passable(nx, ny)) return 0;
  // A forced neighbour of n: beside n passable, beside the cell behind it (x, y) blocked.
  const int px = dy, py = dx;  // a perpendicular step
  if ((passable(nx + px, ny + py) && !passable(x + px, y + py)) ||
      (passable(nx - px, ny - py) && !passable(x - px, y - py)))
    return 1;
  if (nx < 0 || ny < 0 || nx >= w_ || ny >= h_) return 0;
  const int d = distance(nx, ny, dir);
  return d > 0 ? d + 1 : d - 1;
}

int JpsPlusTable::diagonal_value(int x, int y, int dir) const {
  const int dx = kDirDx[std::size_t(dir)], dy = kDirDy[std::size_t(dir)];
  const int nx = x + dx, ny = y + dy;
  if (!passable(nx, ny) || !passable(nx, y) || !passable(x, ny)) return 0;
  const int h_dir = dx > 0 ? 0 : 2, v_dir = dy > 0 ? 1 : 3;
  if (distance(nx, ny, h_dir) > 0 || distance(nx, ny, v_dir) > 0) return 1;
  const int d = distance(nx, ny, dir);
  return d > 0 ? d + 1 : d - 1;
}

void JpsPlusTable::straight_line(int dir, int line) {
  const int dx = kDirDx[std::size_t(dir)], dy = kDirDy[std::size_t(dir)];
  if (line < 0 || line >= (dx != 0 ? h_ : w_)) return;
  const int n = dx != 0 ? w_ : h_;
  // Against the direction: from the far end back.
  for (int i = 0; i < n; ++i) {
    const int t = (dx + dy) > 0 ? n - 1 - i : i;
    const int x = dx != 0 ? t : line, y = dx != 0 ? line : t;
    at(x, y, dir) = passable(x, y) ? std::int16_t(straight_value(x, y, dir)) : std::int16_t(0);
  }
}

// Recomputes the diagonal distances: everything when `all`, else the cells whose
// successor lies in rows y0..y1 or columns x0..x1 and the cells whose successor's
// distance changed, row by row against each direction's vertical component.
void JpsPlusTable::diagonals(int x0, int y0, int x1, int y1, bool all) {
  std::vector<int> prev, cur;
  std::vector<std::uint32_t> stamp(std::size_t(w_), 0);
  std::uint32_t row_stamp = 0;
  for (int dir = 4; dir < 8; ++dir) {
    const int dx = kDirDx[std::size_t(dir)], dy = kDirDy[std::size_t(dir)];
    prev.clear();
    for (int i = 0; i < h_; ++i) {
      const int y = dy > 0 ? h_ - 1 - i : i;
      cur.clear();
      ++row_stamp;
      const auto visit = [&](int x) {
        if (x < 0 || x >= w_ || stamp[std::size_t(x)] == row_stamp) return;
        stamp[std::size_t(x)] = row_stamp;
        const std::int16_t v = passable(x, y) ? std::int16_t(diagonal_value(x, y, dir)) : std::int16_t(0);
        ++last_update_cells_;
        if (v != at(x, y, dir) || all) cur.push_back(x);
        at(x, y, dir) = v;
      };
      if (all || (y + dy >= y0 && y + dy <= y1)) {
        for (int x = 0; x < w_; ++x) visit(x);
      } else {
        for (int x = x0 - dx; x <= x1 - dx; ++x) visit(x);
        for (const int px : prev) visit(px - dx);
      }
      std::swap(prev, cur);
    }
  }
}

bool JpsPlusTable::update(const PlanningWorld& world, const WorldChange& change) {
  if (too_large_ || change.rebuilt) return false;
  last_update_cells_ = 0;
  const CostGrid& grid = world.grid(class_);
  if (grid.width() != w_ || grid.height() != h_) return false;
  const CellRect r = change.cells.intersected(CellRect{0, 0, w_, h_});
  if (r.empty()) return true;
  for (int y = r.y0; y < r.y1; ++y) {
    for (int x = r.x0; x < r.x1; ++x) {
      pass_[std::size_t(y + 1) * std::size_t(pw_) + std::size_t(x + 1)] =
          grid.move_key(grid.index(x, y)) == key_ ? 1 : 0;
    }
  }
  // Straight distances read their line and the lines beside it.
  for (int y = r.y0 - 1; y <= r.y1; ++y) {
    straight_line(0, y);
    straight_line(2, y);
    last_update_cells_ += std::uint64_t(w_);
  }
  for (int x = r.x0 - 1; x <= r.x1; ++x) {
    straight_line(1, x);
    straight_line(3, x);
    last_update_cells_ += std::uint64_t(h_);
  }
  // Diagonals whose successor's passability or straight distances may have changed.
  diagonals(r.x0 - 1, r.y0 - 1, r.x1, r.y1, false);
  return true;
}

// ---------------------------------------------------------------------------------------
// GridJpsPlus

GridJpsPlus::GridJpsPlus(const PlanningWorld& world, std::size_t movement_class, std::string name)
    : JumpPointSearch<GridJpsPlus>(world, movement_class, std::move(name)) {}

bool GridJpsPlus::prepare() {
  // The world replaces or drops a derived structure only in an update, which counts a
  // revision: until the next one the table found last stays valid.
  if (table_ == nullptr || table_revision_ != world_.revision() || table_key_ != key_) {
    table_ = &JpsPlusTable::of(world_, class_, key_);
    table_revision_ = world_.revision();
    table_key_ = key_;
  }
  if (table_->too_large()) {
    result_.status = SearchStatus::Invalid;
    result_.message = name_ + " keeps jump distances in 16 bits: the map is " +
                      std::to_string(grid_.width()) + " x " + std::to_string(grid_.height()) +
                      " cells, over 32767 a side: use jps_block";
    return false;
  }
  return true;
}

namespace {

// The pruning rules of grid_jump_search.hpp for every set of legal moves and last move:
// entry [dir][moves] (bit d of moves: the move in direction d is legal; dir kNoDir at the
// start). After a straight arrival east the row above is forced exactly when the move
// north-west is illegal (the cell west is passable: the move came from there, so that
// move fails on (x-1, y-1) or on (x, y-1), and in the second case the forced moves north
// and north-east are illegal anyway), so the moves alone decide. 2.3 KB, built at
// compile time.
struct PruneTable {
  std::uint8_t dirs[GridCellState<1>::kNoDir + 1][256];
};

constexpr PruneTable make_prune_table() {
  PruneTable t{};
  for (std::uint32_t moves = 0; moves < 256; ++moves) {
    const auto legal = [moves](int dx, int dy) { return (moves >> jump_dir_of(dx, dy)) & 1u; };
    for (int dir = 0; dir <= GridCellState<1>::kNoDir; ++dir)
      t.dirs[dir][moves] = jump_successor_dirs(std::uint8_t(moves), std::uint8_t(dir), legal);
  }
  return t;
}

constexpr PruneTable kPruneTable = make_prune_table();

// Bit i set when 16-bit lane i of `v` (bits 16 i to 16 i + 15) is not zero.
constexpr std::uint32_t nonzero_lanes(std::uint64_t v) {
  constexpr std::uint64_t kLow = 0x7FFF7FFF7FFF7FFFull, kHigh = 0x8000800080008000ull;
  const std::uint64_t t = ((((v & kLow) + kLow) | v) & kHigh) >> 15;  // bit 16 i: lane i != 0
  // One product moves bit 16 i to bit 48 + i; its other partial products land on bits
  // below 48 or above 63, all distinct, so nothing carries into 48 to 51.
  constexpr std::uint64_t kGather = (1ull << 48) | (1ull << 33) | (1ull << 18) | (1ull << 3);
  return std::uint32_t((t * kGather) >> 48) & 0xFu;
}

static_assert(std::endian::native == std::endian::little,
              "a row's distances are read as lanes of 64-bit words");
static_assert(nonzero_lanes(0) == 0 && nonzero_lanes(0x0001000000000000ull) == 8 &&
              nonzero_lanes(0x8000000100000000ull) == 0xC && nonzero_lanes(0x00000000FFFF0001ull) == 3 &&
              nonzero_lanes(0x0100010001000100ull) == 0xF);

}  // namespace

// The cell's own row of distances (one cache line instead of the passability of its
// neighbours and the grid's moves): a distance is 0 exactly when its move is illegal;
// the moves then index kPruneTable.
std::uint8_t GridJpsPlus::pruned_dirs(glm::ivec2 c, std::uint8_t dir) const {
  const std::int16_t* row = table_->row(c.x, c.y);
  std::uint64_t lo, hi;
  std::memcpy(&lo, row, sizeof lo);
  std::memcpy(&hi, row + 4, sizeof hi);
  const std::uint32_t moves = nonzero_lanes(lo) | (nonzero_lanes(hi) << 4);
  return kPruneTable.dirs[dir][moves];
}

template <class Push, class Scan>
void GridJpsPlus::straight(glm::ivec2 p, int dir, double base, Push&& push, Scan&& scan) const {
  const int dx = kDirDx[std::size_t(dir)], dy = kDirDy[std::size_t(dir)];
  const int d = table_->distance(p.x, p.y, dir);
  const int reach = d > 0 ? d : -d;
  const glm::ivec2 g = ends_xy_[1];
  // The goal ahead on this line within reach ends the jump there.
  const int ahead = dx != 0 ? (g.y == p.y ? (g.x - p.x) * dx : 0) : (g.x == p.x ? (g.y - p.y) * dy : 0);
  if (ahead > 0 && ahead <= reach) {
    scan(p, glm::ivec2{g.x, g.y});
    push(JumpSuccessor{g, base + double(ahead), std::uint8_t(dir)});
    return;
  }
  if (reach > 0) scan(p, glm::ivec2{p.x + dx * reach, p.y + dy * reach});
  if (d > 0) push(JumpSuccessor{{p.x + dx * d, p.y + dy * d}, base + double(d), std::uint8_t(dir)});
}

template <class Push, class Scan>
void GridJpsPlus::jumps(glm::ivec2 c, int dir, Push&& push, Scan&& scan) const {
  const int dx = kDirDx[std::size_t(dir)], dy = kDirDy[std::size_t(dir)];
  if (dx == 0 || dy == 0) {
    straight(c, dir, 0.0, push, scan);
    return;
  }
  constexpr bool kTraced = !std::is_same_v<std::decay_t<Scan>, JumpPointSearch<GridJpsPlus>::NoScan>;
  const int h_dir = dx > 0 ? 0 : 2, v_dir = dy > 0 ? 1 : 3;
  const glm::ivec2 g = ends_xy_[1];
  glm::ivec2 p = c;
  int k = 0;
  for (;;) {
    const int d = table_->distance(p.x, p.y, dir);
    const int reach = d > 0 ? d : -d;
    if (reach == 0) break;
    // Steps to the goal's row and column, when ahead; the first crossing within reach
    // that comes before the jump point is a turning cell toward the goal.
    const int ty = (g.y - p.y) * dy, tx = (g.x - p.x) * dx;
    int t = INT_MAX;
    if (ty > 0 && ty <= reach) t = ty;
    if (tx > 0 && tx <= reach && tx < t) t = tx;
    const int run = (t != INT_MAX && (d <= 0 || t < d)) ? t : reach;
    if constexpr (kTraced) {
      // The turning cells before the end of this run read their straight reaches.
      for (int i = 1; i < run; ++i) {
        const glm::ivec2 q{p.x + dx * i, p.y + dy * i};
        for (const int sd : {h_dir, v_dir}) {
          const int r = -table_->distance(q.x, q.y, sd);  // no jump point: d <= 0
          if (r > 0)
            scan(q, glm::ivec2{q.x + kDirDx[std::size_t(sd)] * r, q.y + kDirDy[std::size_t(sd)] * r});
        }
      }
    }
    p = {p.x + dx * run, p.y + dy * run};
    k += run;
    const double diagonal = kSqrt2 * double(k);
    if (p == g) {
      scan(c, p);
      push(JumpSuccessor{p, diagonal, std::uint8_t(dir)});
      return;
    }
    if (run == reach && d <= 0) {
      // The last cell before the wall: its straights reach the goal when it crosses the
      // goal's row or column, nothing otherwise.
      if (t == run) {
        straight(p, h_dir, diagonal, push, scan);
        straight(p, v_dir, diagonal, push, scan);
      } else if constexpr (kTraced) {
        for (const int sd : {h_dir, v_dir}) {
          const int r = -table_->distance(p.x, p.y, sd);
          if (r > 0)
            scan(p, glm::ivec2{p.x + kDirDx[std::size_t(sd)] * r, p.y + kDirDy[std::size_t(sd)] * r});
        }
      }
      break;
    }
    // A turning cell: a jump point of the table (run == d) or a crossing of the goal's
    // row or column; its straight jumps (with the goal test) give the successors.
    straight(p, h_dir, diagonal, push, scan);
    straight(p, v_dir, diagonal, push, scan);
  }
  if (k > 0) scan(c, p);
}

GridJpsPlus::~GridJpsPlus() = default;

template class JumpPointSearch<GridJpsPlus>;

}  // namespace pathscope
