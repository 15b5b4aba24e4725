// Region insertion (region_insertion.hpp; seed 000, "The Quadtree").
//
// The tree holds surfaces (terrain, road factor, bridge), as the raster does, in the
// order the coverage rule paints them: the tile grid (the base layer), features in file
// order (later over earlier), roads (the largest factor wins), intact bridges. Each is
// inserted from the root: a square is classified against the region as inside, outside
// or partial. The tests are conservative by a margin far above rounding error (a square
// within the margin of the region's boundary counts as partial), so "inside" and
// "outside" never contradict the per-cell rule; partial squares are split, and one grid
// cell is decided by the very predicate the rasteriser uses for that cell. Only then do
// surfaces become the class's multipliers and move keys, and equal quarters merge.

#include "planner/quadtree/region_insertion.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "planner/core/geometry.hpp"
#include "planner/world/rasterize.hpp"

namespace pathscope {
namespace {

enum class Cover { Outside, Partial, Inside };

// A node of the insertion tree: a leaf holding a surface, a cell split in four (the
// quarters at `child`..`child + 3`, NW, NE, SW, SE), or outside the map.
struct Node {
  Surface surface;
  std::int32_t child = -1;
  bool outside = false;
  bool clipped = false;  // split because it reaches past the map's edge: never collapsed
};

double dist_sq_point_box(Vec2 p, Vec2 lo, Vec2 hi) {
  const double dx = std::max({lo.x - p.x, 0.0, p.x - hi.x});
  const double dy = std::max({lo.y - p.y, 0.0, p.y - hi.y});
  return dx * dx + dy * dy;
}

// Squared distance between the segment [a, b] and the closed box [lo, hi].
double dist_sq_segment_box(Vec2 a, Vec2 b, Vec2 lo, Vec2 hi) {
  if (segment_crosses_open_box(a, b, lo, hi)) return 0;
  double d = std::min(dist_sq_point_box(a, lo, hi), dist_sq_point_box(b, lo, hi));
  for (const Vec2 c : {lo, hi, Vec2{lo.x, hi.y}, Vec2{hi.x, lo.y}})
    d = std::min(d, distance_sq_to_segment(c, a, b));
  return d;
}

// A region to insert: a feature's shape under one of the two coverage rules, or a
// polyline of a half width (roads, bridges), with what it does to a surface.
struct Region {
  const Shape* shape = nullptr;             // a feature
  const Containers* containers = nullptr;   // or: everything outside the containers
  bool obstacle = false;                    // the feature's rule: any overlap (true) or centre inside
  const std::vector<Vec2>* line = nullptr;  // a road or a bridge
  Vec2 bridge_a{0, 0}, bridge_b{0, 0};
  bool is_bridge = false;
  double half_width = 0;
  // What it paints.
  std::uint8_t terrain = 0;
  float road_factor = 1;
};

class Builder {
 public:
  Builder(const Scenario& s, RegionInsertionStats& stats)
      : s_(s.world.cell_size), stats_(stats), width_(s.grid_size().x), height_(s.grid_size().y) {
    root_size_ = 1;
    while (root_size_ < std::max(width_, height_)) root_size_ *= 2;
    nodes_.push_back(Node{});
    // The map's own edge is the first region: squares reaching past it are split until
    // each is inside or outside.
    clip_to_map(0, 0, 0, root_size_);
    margin_ = 1e-9 * std::max(1.0, root_size_ * s_);
  }

  void insert_tiles(const TileGrid& tiles) {
    ++stats_.regions;
    insert_tiles(0, 0, 0, root_size_, tiles);
  }

  void insert(const Region& r) {
    ++stats_.regions;
    insert(0, 0, 0, root_size_, r);
  }

  std::vector<QuadLeaf> leaves(const CostGrid& grid) {
    std::vector<QuadLeaf> out;
    Cost root{};
    collect(0, 0, 0, root_size_, grid, root, out);
    return out;
  }

 private:
  struct Cost {
    double multiplier = 0;
    std::uint16_t key = 0;
    bool leaf = false;  // a uniform square inside the map
  };

  // World box of a square of cells, with the same expressions the rasteriser uses per cell.
  Vec2 lo(int x, int y) const { return {x * s_, y * s_}; }
  Vec2 hi(int x, int y, int size) const { return {(x + size) * s_, (y + size) * s_}; }

  void split(std::size_t node) {
    ++stats_.splits;
    const std::int32_t child = std::int32_t(nodes_.size());
    const Node parent = nodes_[node];
    for (int q = 0; q < 4; ++q) nodes_.push_back(Node{parent.surface, -1, parent.outside});
    nodes_[node].child = child;
  }

  template <class Fn>
  void for_quarters(std::size_t node, int x, int y, int size, Fn&& fn) {
    const int h = size / 2;
    const std::size_t c = std::size_t(nodes_[node].child);
    fn(c, x, y, h);
    fn(c + 1, x + h, y, h);
    fn(c + 2, x, y + h, h);
    fn(c + 3, x + h, y + h, h);
  }

  void clip_to_map(std::size_t node, int x, int y, int size) {
    if (x >= width_ || y >= height_) {
      nodes_[node].outside = true;
      return;
    }
    if (x + size <= width_ && y + size <= height_) return;
    split(node);
    nodes_[node].clipped = true;
    for_quarters(node, x, y, size, [&](std::size_t c, int qx, int qy, int h) { clip_to_map(c, qx, qy, h); });
  }

  // Base layer: a square whose tiles (or lack of tiles: terrain 0) are all one terrain
  // takes it; others are split.
  void insert_tiles(std::size_t node, int x, int y, int size, const TileGrid& t) {
    if (nodes_[node].outside) return;
    if (nodes_[node].child < 0) {
      const auto terrain_at = [&](int cx, int cy) -> std::uint8_t {
        return cx < t.width && cy < t.height
                   ? t.terrain[std::size_t(cy) * std::size_t(t.width) + std::size_t(cx)]
                   : 0;
      };
      const std::uint8_t first = terrain_at(x, y);
      bool uniform = true;
      for (int cy = y; cy < y + size && uniform; ++cy) {
        for (int cx = x; cx < x + size && uniform; ++cx) uniform = terrain_at(cx, cy) == first;
      }
      if (uniform) {
        nodes_[node].surface.terrain = first;
        return;
      }
      split(node);
    }
    for_quarters(node, x, y, size,
                 [&](std::size_t c, int qx, int qy, int h) { insert_tiles(c, qx, qy, h, t); });
  }

  void insert(std::size_t node, int x, int y, int size, const Region& r) {
    if (nodes_[node].outside) return;
    if (size == 1) {
      ++stats_.cell_decisions;
      if (covers_cell(r, x, y)) paint(node, r);
      return;
    }
    switch (classify(r, lo(x, y), hi(x, y, size))) {
      case Cover::Outside: return;
      case Cover::Inside: paint(node, r); return;
      case Cover::Partial: break;
    }
    if (nodes_[node].child < 0) split(node);
    for_quarters(node, x, y, size, [&](std::size_t c, int qx, int qy, int h) { insert(c, qx, qy, h, r); });
  }

  // Applies a region to every leaf under `node`. A feature replaces the terrain, so the
  // square becomes one leaf; roads and bridges change each leaf's surface in place.
  void paint(std::size_t node, const Region& r) {
    Node& n = nodes_[node];
    if (n.outside) return;
    const bool terrain = r.shape || r.containers;
    if (terrain && !n.clipped) {
      n.child = -1;  // features come before roads and bridges: the quarters held plain terrains
      n.surface = Surface{r.terrain, false, 1.0f};
      return;
    }
    if (n.child >= 0) {
      const std::size_t c = std::size_t(n.child);
      for (int q = 0; q < 4; ++q) paint(c + std::size_t(q), r);
      return;
    }
    if (terrain) {
      n.surface = Surface{r.terrain, false, 1.0f};
    } else if (r.is_bridge) {
      n.surface.bridge = true;
    } else {
      n.surface.road_factor = std::max(n.surface.road_factor, r.road_factor);
    }
  }

  // The rasteriser's per-cell predicate (rasterize.cpp), for cell (x, y).
  bool covers_cell(const Region& r, int x, int y) const {
    const Vec2 l = lo(x, y), h = hi(x, y, 1);
    const Vec2 c{(x * s_ + (x + 1) * s_) * 0.5, (y * s_ + (y + 1) * s_) * 0.5};
    if (r.containers) return r.containers->outside(l, h, c);
    if (r.shape) {
      const Shape& sh = *r.shape;
      switch (sh.kind) {
        case ShapeKind::Rect:
          if (r.obstacle) return sh.min.x < h.x && l.x < sh.max.x && sh.min.y < h.y && l.y < sh.max.y;
          return sh.min.x <= c.x && c.x < sh.max.x && sh.min.y <= c.y && c.y < sh.max.y;
        case ShapeKind::Circle: {
          if (r.obstacle) return disc_overlaps_open_box(sh.center, sh.radius, l, h);
          const Vec2 d = c - sh.center;
          return d.x * d.x + d.y * d.y < sh.radius * sh.radius;
        }
        case ShapeKind::Polygon:
          return r.obstacle ? polygon_overlaps_open_box(sh.points, l, h) : point_in_polygon(c, sh.points);
      }
      return false;
    }
    const double hw2 = r.half_width * r.half_width;
    if (r.is_bridge) return distance_sq_to_segment(c, r.bridge_a, r.bridge_b) <= hw2;
    const std::vector<Vec2>& p = *r.line;
    for (std::size_t k = 0; k + 1 < p.size(); ++k) {
      if (distance_sq_to_segment(c, p[k], p[k + 1]) <= hw2) return true;
    }
    return false;
  }

  // Conservative: Inside only if the region covers the square grown by the margin,
  // Outside only if it misses the grown square; anything near the boundary is Partial.
  Cover classify(const Region& r, Vec2 l, Vec2 h) const {
    if (r.containers) {
      // Everything outside the containers: none of the square when one container holds
      // it, all of it when it misses every container.
      bool misses_all = true;
      for (const Shape* sh : r.containers->shapes()) {
        Region one;
        one.shape = sh;
        const Cover c = classify(one, l, h);
        if (c == Cover::Inside) return Cover::Outside;
        misses_all = misses_all && c == Cover::Outside;
      }
      return misses_all ? Cover::Inside : Cover::Partial;
    }
    const Vec2 gl = l - Vec2(margin_), gh = h + Vec2(margin_);
    if (r.shape) {
      const Shape& sh = *r.shape;
      switch (sh.kind) {
        case ShapeKind::Rect:
          if (sh.max.x <= gl.x || gh.x <= sh.min.x || sh.max.y <= gl.y || gh.y <= sh.min.y)
            return Cover::Outside;
          if (sh.min.x <= gl.x && gh.x <= sh.max.x && sh.min.y <= gl.y && gh.y <= sh.max.y)
            return Cover::Inside;
          return Cover::Partial;
        case ShapeKind::Circle: {
          const double r2 = sh.radius * sh.radius;
          if (dist_sq_point_box(sh.center, gl, gh) > r2) return Cover::Outside;
          double far = 0;
          for (const Vec2 corner : {gl, gh, Vec2{gl.x, gh.y}, Vec2{gh.x, gl.y}}) {
            const Vec2 d = corner - sh.center;
            far = std::max(far, d.x * d.x + d.y * d.y);
          }
          return far < r2 ? Cover::Inside : Cover::Partial;
        }
        case ShapeKind::Polygon: {
          const std::vector<Vec2>& p = sh.points;
          for (std::size_t k = 0; k < p.size(); ++k) {
            if (segment_crosses_open_box(p[k], p[(k + 1) % p.size()], gl, gh)) return Cover::Partial;
          }
          // No edge reaches the grown square: it is wholly inside or wholly outside.
          return point_in_polygon((l + h) * 0.5, p) ? Cover::Inside : Cover::Outside;
        }
      }
      return Cover::Partial;
    }
    const double hw = r.half_width;
    const auto segment_cover = [&](Vec2 a, Vec2 b, bool& inside) {
      double far = 0;
      for (const Vec2 corner : {gl, gh, Vec2{gl.x, gh.y}, Vec2{gh.x, gl.y}})
        far = std::max(far, distance_sq_to_segment(corner, a, b));
      inside = inside || far < hw * hw;  // the capsule is convex: it holds the square
      return dist_sq_segment_box(a, b, gl, gh) <= hw * hw;
    };
    bool inside = false, near = false;
    if (r.is_bridge) {
      near = segment_cover(r.bridge_a, r.bridge_b, inside);
    } else {
      const std::vector<Vec2>& p = *r.line;
      for (std::size_t k = 0; k + 1 < p.size(); ++k) near = segment_cover(p[k], p[k + 1], inside) || near;
    }
    return inside ? Cover::Inside : near ? Cover::Partial : Cover::Outside;
  }

  // Emits the leaves of the class's costs, merging equal quarters on the way up.
  void collect(std::size_t node, int x, int y, int size, const CostGrid& grid, Cost& out_cost,
               std::vector<QuadLeaf>& out) {
    const Node& n = nodes_[node];
    if (n.outside) {
      out_cost = Cost{};
      return;
    }
    if (n.child < 0) {
      const auto [m, key] = grid.cost_of(n.surface);
      out_cost = Cost{m, key, true};
      out.push_back(QuadLeaf{x, y, size, m, key});
      return;
    }
    const std::size_t first = out.size();
    Cost q[4];
    const int h = size / 2;
    const std::size_t c = std::size_t(n.child);
    collect(c, x, y, h, grid, q[0], out);
    collect(c + 1, x + h, y, h, grid, q[1], out);
    collect(c + 2, x, y + h, h, grid, q[2], out);
    collect(c + 3, x + h, y + h, h, grid, q[3], out);
    bool equal = true;
    for (int k = 0; k < 4 && equal; ++k) {
      equal = q[k].leaf && q[k].multiplier == q[0].multiplier && q[k].key == q[0].key;
    }
    if (!equal) {
      out_cost = Cost{};
      return;
    }
    ++stats_.merges;
    out.resize(first);
    out_cost = q[0];
    out.push_back(QuadLeaf{x, y, size, q[0].multiplier, q[0].key});
  }

  double s_;
  RegionInsertionStats& stats_;
  int width_, height_;
  int root_size_ = 1;
  double margin_ = 0;
  std::vector<Node> nodes_;
};

bool blocks_every_class(const TerrainType& t) {
  return std::none_of(t.cost.begin(), t.cost.end(),
                      [](const std::optional<double>& c) { return c.has_value(); });
}

}  // namespace

std::vector<QuadLeaf> build_by_region_insertion(const Scenario& scenario, const CostGrid& grid,
                                                RegionInsertionStats* stats) {
  RegionInsertionStats local;
  RegionInsertionStats& st = stats ? *stats : local;
  st = {};
  Builder b(scenario, st);
  if (scenario.tiles) b.insert_tiles(*scenario.tiles);
  const Containers containers(scenario);
  if (!containers.empty()) {
    Region r;
    r.containers = &containers;
    r.terrain = std::uint8_t(containers.terrain());
    b.insert(r);
  }
  for (const Feature& f : scenario.features) {
    if (f.container) continue;  // painted above, after the tiles
    Region r;
    r.shape = &f.shape;
    r.obstacle = blocks_every_class(scenario.terrains[f.terrain]);
    r.terrain = std::uint8_t(f.terrain);
    b.insert(r);
  }
  for (const Road& road : scenario.roads) {
    Region r;
    r.line = &road.points;
    r.half_width = road.width * 0.5;
    r.road_factor = float(road.speed_factor);
    b.insert(r);
  }
  for (const Bridge& bridge : scenario.bridges) {
    if (!bridge.intact) continue;
    Region r;
    r.is_bridge = true;
    r.bridge_a = bridge.a;
    r.bridge_b = bridge.b;
    r.half_width = bridge.width * 0.5;
    b.insert(r);
  }
  return b.leaves(grid);
}

}  // namespace pathscope
