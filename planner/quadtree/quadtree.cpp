// Quadtree decomposition of a cost grid (seed 000, "The Quadtree", steps 1 and 2).
//
// The seed starts from one empty cell and adds each region of higher cost, splitting a
// cell in four wherever the region covers it only in part, down to the minimum cell
// size, then merges every divided cell whose four children ended up with equal cost.
// The cost grid is already that coverage at the resolution (rasterize.hpp applies the
// documented coverage rule to tiles, polygons and circles), so the same tree is built
// here bottom-up from it in one pass: a square is a leaf exactly when all its cells have
// equal cost and it is not part of a larger uniform aligned square. The merge of the
// seed's step 2 is therefore built in: no inner node ends with four equal leaves.
//
// "Equal cost" means equal multiplier and equal move key (CostGrid::move_key): two
// terrains of one speed in different groups (land, water) stay apart, as the grid keeps
// them apart. The root is the smallest power of two covering the map; squares outside
// the map are no leaf, and a square that straddles the map's edge is always divided.
//
// Incremental update (Quadtree::update): the same recursion runs over the
// old tree alongside the grid. A square that misses the changed cells is the old
// subtree, copied as it is; one that meets them is built again from its quarters, down
// to the changed cells themselves, and merged upwards where its quarters became equal.
// So only the changed cells are read from the grid; the copy keeps the build's order of
// leaves and nodes, and the updated tree is the fresh tree, ids included (the planner's
// ties by leaf id break the same way after an update as after a rebuild).

#include "planner/quadtree/quadtree.hpp"

#include <cassert>
#include <cmath>

namespace pathscope {
namespace {

// A cost class: multiplier and move key. Few per map.
constexpr std::uint16_t kAbsentKind = 0xFFFF;

struct Kinds {
  std::vector<double> multiplier;
  std::vector<std::uint16_t> key;
  std::vector<std::uint16_t> of_surface;  // per surface id, 0xFFFF = not seen yet

  std::uint16_t intern(double m, std::uint16_t k) {
    for (std::size_t i = 0; i < multiplier.size(); ++i) {
      if (multiplier[i] == m && key[i] == k) return std::uint16_t(i);
    }
    multiplier.push_back(m);
    key.push_back(k);
    assert(multiplier.size() < kAbsentKind);
    return std::uint16_t(multiplier.size() - 1);
  }
};

// What a square turned out to be: one kind throughout (possibly absent), or divided.
struct Built {
  bool uniform = true;
  std::uint16_t kind = kAbsentKind;
  Quadtree::Ref ref = Quadtree::kNoLeaf;       // the inner node, when divided
  std::uint32_t old_leaf = Quadtree::kNoLeaf;  // when uniform: the old tree's leaf of exactly this square
};

// Builds the tree bottom-up from the grid; when given the old tree and the changed cells
// (rebuild()), squares that miss the changed cells are copied from the old tree instead.
// Both emit leaves and nodes in the same order (children first, then the node's own
// leaf quarters NW, NE, SW, SE, then the node), so an updated tree equals a fresh one.
class Builder {
 public:
  Builder(const CostGrid& grid, std::vector<QuadLeaf>& leaves, std::vector<Quadtree::Inner>& nodes)
      : grid_(grid), view_(grid.view()), leaves_(leaves), nodes_(nodes) {}
  Builder(const CostGrid& grid, std::vector<QuadLeaf>& leaves, std::vector<Quadtree::Inner>& nodes,
          const Quadtree& old, const CellRect& changed, std::vector<std::uint32_t>& old_of_new)
      : Builder(grid, leaves, nodes) {
    old_ = &old;
    changed_ = changed;
    old_of_new_ = &old_of_new;
  }

  Built build(int x, int y, int size) {
    if (x >= grid_.width() || y >= grid_.height()) return {};
    if (size == 1) return {true, kind_of(x, y)};
    const int h = size / 2;
    const Built c[4] = {build(x, y, h), build(x + h, y, h), build(x, y + h, h), build(x + h, y + h, h)};
    return combine(c, x, y, h);
  }

  // The square (x, y, size), whose node in the old tree is `old` (or the old leaf that
  // covers it, or kNoLeaf).
  Built rebuild(Quadtree::Ref old, int x, int y, int size) {
    if (x >= grid_.width() || y >= grid_.height()) return {};
    if (CellRect{x, y, x + size, y + size}.intersected(changed_).empty()) {
      if (old == Quadtree::kNoLeaf) return {};
      if (old & Quadtree::kLeafBit) {
        const std::uint32_t id = old & ~Quadtree::kLeafBit;
        const QuadLeaf& l = old_->leaf(id);
        const bool same = l.x == x && l.y == y && l.size == size;
        return {true, kinds_.intern(l.multiplier, l.key), Quadtree::kNoLeaf, same ? id : Quadtree::kNoLeaf};
      }
      return {false, 0, copy(old)};
    }
    if (size == 1) return {true, kind_of(x, y)};
    const int h = size / 2;
    std::array<Quadtree::Ref, 4> sub{old, old, old, old};  // an old leaf covers all quarters
    if (old != Quadtree::kNoLeaf && !(old & Quadtree::kLeafBit)) sub = old_->nodes()[old].child;
    const Built c[4] = {rebuild(sub[0], x, y, h), rebuild(sub[1], x + h, y, h), rebuild(sub[2], x, y + h, h),
                        rebuild(sub[3], x + h, y + h, h)};
    return combine(c, x, y, h);
  }

  Quadtree::Ref leaf(int x, int y, int size, std::uint16_t kind, std::uint32_t old_leaf = Quadtree::kNoLeaf) {
    if (kind == kAbsentKind) return Quadtree::kNoLeaf;
    leaves_.push_back(QuadLeaf{x, y, size, kinds_.multiplier[kind], kinds_.key[kind]});
    if (old_of_new_) old_of_new_->push_back(old_leaf != Quadtree::kNoLeaf ? old_leaf : same_in_old(leaves_.back()));
    return Quadtree::kLeafBit | Quadtree::Ref(leaves_.size() - 1);
  }

 private:
  // The seed's step 2: four uniform quarters of one kind are one square.
  Built combine(const Built (&c)[4], int x, int y, int h) {
    if (c[0].uniform && c[1].uniform && c[2].uniform && c[3].uniform && c[0].kind == c[1].kind &&
        c[0].kind == c[2].kind && c[0].kind == c[3].kind) {
      return {true, c[0].kind};
    }
    Quadtree::Inner inner;
    const int cx[4] = {x, x + h, x, x + h}, cy[4] = {y, y, y + h, y + h};
    for (int k = 0; k < 4; ++k) {
      inner.child[k] = c[k].uniform ? leaf(cx[k], cy[k], h, c[k].kind, c[k].old_leaf) : c[k].ref;
    }
    nodes_.push_back(inner);
    return {false, 0, Quadtree::Ref(nodes_.size() - 1)};
  }

  // Copies an untouched inner node of the old tree with its subtree, in build order.
  Quadtree::Ref copy(Quadtree::Ref old) {
    const Quadtree::Inner& n = old_->nodes()[old];
    Quadtree::Inner inner;
    for (int k = 0; k < 4; ++k) {
      const Quadtree::Ref c = n.child[k];
      inner.child[k] = c != Quadtree::kNoLeaf && !(c & Quadtree::kLeafBit) ? copy(c) : Quadtree::kNoLeaf;
    }
    for (int k = 0; k < 4; ++k) {
      const Quadtree::Ref c = n.child[k];
      if (c == Quadtree::kNoLeaf || !(c & Quadtree::kLeafBit)) continue;
      const std::uint32_t id = c & ~Quadtree::kLeafBit;
      leaves_.push_back(old_->leaf(id));
      old_of_new_->push_back(id);
      inner.child[k] = Quadtree::kLeafBit | Quadtree::Ref(leaves_.size() - 1);
    }
    nodes_.push_back(inner);
    return Quadtree::Ref(nodes_.size() - 1);
  }

  // The old tree's leaf with the same square and cost as `l`, or kNoLeaf.
  std::uint32_t same_in_old(const QuadLeaf& l) const {
    const std::uint32_t id = old_->leaf_at_cell(l.x, l.y);
    if (id == Quadtree::kNoLeaf) return id;
    const QuadLeaf& o = old_->leaf(id);
    const bool same = o.x == l.x && o.y == l.y && o.size == l.size && o.multiplier == l.multiplier && o.key == l.key;
    return same ? id : Quadtree::kNoLeaf;
  }

  std::uint16_t kind_of(int x, int y) {
    const std::uint32_t i = grid_.index(x, y);
    const SurfaceId s = view_.surface[i];
    if (s >= kinds_.of_surface.size()) kinds_.of_surface.resize(std::size_t(s) + 1, kAbsentKind);
    std::uint16_t& k = kinds_.of_surface[s];
    if (k == kAbsentKind) k = kinds_.intern(grid_.multiplier(i), grid_.move_key(i));
    return k;
  }

  const CostGrid& grid_;
  CostGrid::View view_;
  Kinds kinds_;
  std::vector<QuadLeaf>& leaves_;
  std::vector<Quadtree::Inner>& nodes_;
  const Quadtree* old_ = nullptr;                     // rebuild() only
  CellRect changed_;                                  // rebuild() only
  std::vector<std::uint32_t>* old_of_new_ = nullptr;  // rebuild() only
};

}  // namespace

Quadtree::Quadtree(const CostGrid& grid)
    : width_(grid.width()), height_(grid.height()), cell_size_(grid.cell_size()) {
  while (root_size_ < width_ || root_size_ < height_) root_size_ *= 2;
  Builder builder(grid, leaves_, nodes_);
  const Built root = builder.build(0, 0, root_size_);
  root_ = root.uniform ? builder.leaf(0, 0, root_size_, root.kind) : root.ref;
}

QuadtreeEdit Quadtree::update(const CostGrid& grid, const CellRect& changed) {
  assert(grid.width() == width_ && grid.height() == height_);
  QuadtreeEdit edit;
  Quadtree next;
  next.width_ = width_;
  next.height_ = height_;
  next.root_size_ = root_size_;
  next.cell_size_ = grid.cell_size();
  next.leaves_.reserve(leaves_.size());
  next.nodes_.reserve(nodes_.size());
  edit.old_of_new.reserve(leaves_.size());
  const CellRect clipped = changed.intersected(CellRect{0, 0, width_, height_});
  Builder builder(grid, next.leaves_, next.nodes_, *this, clipped, edit.old_of_new);
  const Built root = builder.rebuild(root_, 0, 0, root_size_);
  next.root_ = root.uniform ? builder.leaf(0, 0, root_size_, root.kind, root.old_leaf) : root.ref;
  edit.new_of_old.assign(leaves_.size(), kNoLeaf);
  for (std::uint32_t id = 0; id < edit.old_of_new.size(); ++id) {
    if (edit.old_of_new[id] == kNoLeaf) {
      ++edit.new_leaves;
    } else {
      edit.new_of_old[edit.old_of_new[id]] = id;
    }
  }
  *this = std::move(next);
  return edit;
}

Box2 Quadtree::leaf_box(std::uint32_t id) const {
  const QuadLeaf& l = leaves_[id];
  const double s = cell_size_;
  return Box2{{l.x * s, l.y * s}, {(l.x + l.size) * s, (l.y + l.size) * s}};
}

Vec2 Quadtree::leaf_center(std::uint32_t id) const {
  const QuadLeaf& l = leaves_[id];
  return Vec2{(l.x + 0.5 * l.size) * cell_size_, (l.y + 0.5 * l.size) * cell_size_};
}

std::uint32_t Quadtree::leaf_at_cell(int x, int y) const {
  if (x < 0 || y < 0 || x >= width_ || y >= height_) return kNoLeaf;
  Ref ref = root_;
  int x0 = 0, y0 = 0, size = root_size_;
  while (ref != kNoLeaf && !(ref & kLeafBit)) {
    size /= 2;
    const int east = x >= x0 + size, south = y >= y0 + size;
    x0 += east * size;
    y0 += south * size;
    ref = nodes_[ref].child[east + 2 * south];
  }
  return ref == kNoLeaf ? kNoLeaf : ref & ~kLeafBit;
}

std::uint32_t Quadtree::leaf_at(Vec2 world) const {
  if (!std::isfinite(world.x) || !std::isfinite(world.y)) return kNoLeaf;
  const double fx = std::floor(world.x / cell_size_), fy = std::floor(world.y / cell_size_);
  if (fx < 0 || fy < 0 || fx >= width_ || fy >= height_) return kNoLeaf;
  return leaf_at_cell(int(fx), int(fy));
}

std::size_t Quadtree::memory_bytes() const {
  return leaves_.capacity() * sizeof(QuadLeaf) + nodes_.capacity() * sizeof(Inner);
}

}  // namespace pathscope
