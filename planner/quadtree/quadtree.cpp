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
// Incremental update (Quadtree::update), in place: the same recursion runs over the old
// tree alongside the grid. A square that misses the changed cells keeps its subtree as
// it is (not even visited); one that meets them is built again from its quarters, down
// to the changed cells themselves, and merged upwards where its quarters became equal.
// So only the changed cells are read from the grid. A leaf built again with the square
// and cost of the old leaf there is that leaf, id unchanged; the other old leaves and
// inner nodes of the squares built again are freed (at the end of the update, so that
// one update never gives a slot both a removed and an added leaf), and new ones take
// free slots first. A table from each leaf's top-left cell to its id (at_corner_) names
// leaves by position for whatever must not depend on ids (quadtree_planner.cpp).

#include "planner/quadtree/quadtree.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <functional>

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

}  // namespace

// Builds the tree bottom-up from the grid (build()), or, given the changed cells, brings
// it up to date in place (rebuild()). A fresh build emits leaves and nodes in a fixed
// order: children first, then the node's own leaf quarters NW, NE, SW, SE, then the node.
class QuadtreeBuilder {
 public:
  QuadtreeBuilder(const CostGrid& grid, Quadtree& tree) : grid_(grid), view_(grid.view()), t_(tree) {}

  Built build(int x, int y, int size) {
    if (stopped_ || x >= grid_.width() || y >= grid_.height()) return {};
    if (size == 1) return {true, kind_of(x, y)};
    const int h = size / 2;
    const Built c[4] = {build(x, y, h), build(x + h, y, h), build(x, y + h, h), build(x + h, y + h, h)};
    return combine(c, x, y, h, Quadtree::kNoLeaf);
  }

  // The square (x, y, size), whose node in the old tree is `old` (or the old leaf that
  // covers it, or kNoLeaf), brought up to date after the cells of `changed` changed.
  Built rebuild(Quadtree::Ref old, int x, int y, int size, const CellRect& changed) {
    if (x >= grid_.width() || y >= grid_.height()) return {};
    const bool is_leaf = old != Quadtree::kNoLeaf && (old & Quadtree::kLeafBit);
    const std::uint32_t old_leaf = is_leaf ? old & ~Quadtree::kLeafBit : Quadtree::kNoLeaf;
    // The old leaf of exactly this square, if any: this level decides whether it stays.
    const bool own = is_leaf && t_.leaves_[old_leaf].x == x && t_.leaves_[old_leaf].y == y &&
                     t_.leaves_[old_leaf].size == size;
    if (CellRect{x, y, x + size, y + size}.intersected(changed).empty()) {
      if (old == Quadtree::kNoLeaf) return {};
      if (is_leaf) {
        const QuadLeaf& l = t_.leaves_[old_leaf];
        return {true, kinds_.intern(l.multiplier, l.key), Quadtree::kNoLeaf,
                own ? old_leaf : Quadtree::kNoLeaf};
      }
      return {false, 0, old};  // untouched subtree, kept as it is
    }
    Built r;
    if (size == 1) {
      r = {true, kind_of(x, y)};
    } else {
      const int h = size / 2;
      std::array<Quadtree::Ref, 4> sub{old, old, old, old};  // an old leaf covers all quarters
      const bool inner = old != Quadtree::kNoLeaf && !is_leaf;
      if (inner) sub = t_.nodes_[old].child;
      const Built c[4] = {rebuild(sub[0], x, y, h, changed), rebuild(sub[1], x + h, y, h, changed),
                          rebuild(sub[2], x, y + h, h, changed), rebuild(sub[3], x + h, y + h, h, changed)};
      r = combine(c, x, y, h, inner ? old : Quadtree::kNoLeaf);
    }
    if (own) {
      const QuadLeaf& l = t_.leaves_[old_leaf];
      if (r.uniform && r.kind != kAbsentKind && kinds_.multiplier[r.kind] == l.multiplier &&
          kinds_.key[r.kind] == l.key) {
        r.old_leaf = old_leaf;  // built again as it was
      } else {
        freed_leaves_.push_back(old_leaf);
      }
    }
    return r;
  }

  // The leaf of a uniform square: `old_leaf` when it is that square's old leaf, else a
  // new one. kNoLeaf for a square outside the map.
  Quadtree::Ref leaf(int x, int y, int size, std::uint16_t kind, std::uint32_t old_leaf = Quadtree::kNoLeaf) {
    if (kind == kAbsentKind) return Quadtree::kNoLeaf;
    if (old_leaf != Quadtree::kNoLeaf) return Quadtree::kLeafBit | old_leaf;
    std::uint32_t id;
    if (t_.free_leaves_.empty()) {
      id = std::uint32_t(t_.leaves_.size());
      t_.leaves_.emplace_back();
      stopped_ = stopped_ || t_.leaves_.size() > max_leaves_;
    } else {
      id = t_.free_leaves_.back();
      t_.free_leaves_.pop_back();
    }
    t_.leaves_[id] = QuadLeaf{x, y, size, kinds_.multiplier[kind], kinds_.key[kind]};
    t_.at_corner_[std::size_t(y) * std::size_t(t_.width_) + std::size_t(x)] = id;
    if (edit_) {
      edit_->added.push_back(id);
      edit_->area = edit_->area.united(t_.leaves_[id].rect());
    }
    return Quadtree::kLeafBit | id;
  }

  // Frees the slots of the leaves and nodes rebuild() replaced; lists the leaves.
  void release() {
    for (const std::uint32_t id : freed_leaves_) {
      QuadLeaf& l = t_.leaves_[id];
      edit_->area = edit_->area.united(l.rect());
      std::uint32_t& at = t_.at_corner_[std::size_t(l.y) * std::size_t(t_.width_) + std::size_t(l.x)];
      if (at == id) at = Quadtree::kNoLeaf;  // unless a new leaf has the same corner
      l = QuadLeaf{0, 0, 0, 0, 0};
      edit_->removed.push_back(id);
    }
    // Reused last-freed first: the lowest slot comes out first.
    std::sort(freed_leaves_.begin(), freed_leaves_.end(), std::greater<>());
    t_.free_leaves_.insert(t_.free_leaves_.end(), freed_leaves_.begin(), freed_leaves_.end());
    for (const std::uint32_t n : freed_nodes_) t_.nodes_[n] = Quadtree::Inner{};
    std::sort(freed_nodes_.begin(), freed_nodes_.end(), std::greater<>());
    t_.free_nodes_.insert(t_.free_nodes_.end(), freed_nodes_.begin(), freed_nodes_.end());
  }

  // Where rebuild() lists what it adds and removes.
  void record(QuadtreeEdit* edit) { edit_ = edit; }
  // build() stops once it has made more than `max` leaves (the squares it has not reached
  // yet are left out); stopped() says so.
  void limit_leaves(std::size_t max) { max_leaves_ = max; }
  bool stopped() const { return stopped_; }

 private:
  // The seed's step 2: four uniform quarters of one kind are one square. `old_node` is
  // the old tree's inner node of this square, reused when it stays divided.
  Built combine(const Built (&c)[4], int x, int y, int h, Quadtree::Ref old_node) {
    if (c[0].uniform && c[1].uniform && c[2].uniform && c[3].uniform && c[0].kind == c[1].kind &&
        c[0].kind == c[2].kind && c[0].kind == c[3].kind) {
      for (const Built& b : c) {
        if (b.old_leaf != Quadtree::kNoLeaf) freed_leaves_.push_back(b.old_leaf);
      }
      if (old_node != Quadtree::kNoLeaf) freed_nodes_.push_back(old_node);
      return {true, c[0].kind};
    }
    Quadtree::Inner inner;
    const int cx[4] = {x, x + h, x, x + h}, cy[4] = {y, y, y + h, y + h};
    for (int k = 0; k < 4; ++k) {
      inner.child[k] = c[k].uniform ? leaf(cx[k], cy[k], h, c[k].kind, c[k].old_leaf) : c[k].ref;
    }
    Quadtree::Ref ref = old_node;
    if (ref == Quadtree::kNoLeaf) {
      if (t_.free_nodes_.empty()) {
        ref = Quadtree::Ref(t_.nodes_.size());
        t_.nodes_.emplace_back();
      } else {
        ref = t_.free_nodes_.back();
        t_.free_nodes_.pop_back();
      }
    }
    t_.nodes_[ref] = inner;
    return {false, 0, ref};
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
  Quadtree& t_;
  std::vector<std::uint32_t> freed_leaves_;   // rebuild(): old leaves replaced
  std::vector<Quadtree::Ref> freed_nodes_;    // rebuild(): old inner nodes merged away
  QuadtreeEdit* edit_ = nullptr;              // rebuild(): what it changed
  std::size_t max_leaves_ = ~std::size_t{0};  // build(): stop past this many leaves
  bool stopped_ = false;
};

Quadtree::Quadtree(const CostGrid& grid, std::size_t max_leaves)
    : width_(grid.width()), height_(grid.height()), cell_size_(grid.cell_size()) {
  while (root_size_ < width_ || root_size_ < height_) root_size_ *= 2;
  at_corner_.assign(grid.cell_count(), kNoLeaf);
  QuadtreeBuilder builder(grid, *this);
  builder.limit_leaves(max_leaves);
  const Built root = builder.build(0, 0, root_size_);
  root_ = root.uniform ? builder.leaf(0, 0, root_size_, root.kind) : root.ref;
  if (builder.stopped()) {
    // Over the budget: nothing is kept (a part of a tree would answer wrongly).
    leaves_ = {};
    nodes_ = {};
    at_corner_ = {};
    root_ = kNoLeaf;
    over_budget_ = true;
  }
}

QuadtreeEdit Quadtree::update(const CostGrid& grid, const CellRect& changed) {
  assert(grid.width() == width_ && grid.height() == height_);
  QuadtreeEdit edit;
  cell_size_ = grid.cell_size();
  const CellRect clipped = changed.intersected(CellRect{0, 0, width_, height_});
  if (clipped.empty()) return edit;
  QuadtreeBuilder builder(grid, *this);
  builder.record(&edit);
  const Built root = builder.rebuild(root_, 0, 0, root_size_, clipped);
  root_ = root.uniform ? builder.leaf(0, 0, root_size_, root.kind, root.old_leaf) : root.ref;
  builder.release();
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
  return leaves_.capacity() * sizeof(QuadLeaf) + nodes_.capacity() * sizeof(Inner) +
         (free_leaves_.capacity() + free_nodes_.capacity() + at_corner_.capacity()) * sizeof(std::uint32_t);
}

}  // namespace pathscope
