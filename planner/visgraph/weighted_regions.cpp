// Weighted regions (seed 004's swamps), from the world's raster: the cells of one
// terrain multiplier other than the ground's, as rectangles. A link's cost splits the
// segment at every crossing with a region's boundary and prices each piece by the region
// holding its midpoint, a piece along a boundary by the cheaper side (the world's model,
// planner/world/README.md): exact for straight segments.

#include "planner/visgraph/weighted_regions.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <span>

#include "planner/core/geometry.hpp"
#include "planner/visgraph/obstacle_set.hpp"

namespace pathscope::visgraph {
namespace {

double distance(Vec2 a, Vec2 b) {
  const Vec2 d = b - a;
  return std::sqrt(d.x * d.x + d.y * d.y);
}

// Parameters in (0, 1) where [a, b] crosses the ring's edges.
void crossings(Vec2 a, Vec2 b, const std::vector<Vec2>& ring, std::vector<double>& ts) {
  const Vec2 d = b - a;
  for (std::size_t i = 0; i < ring.size(); ++i) {
    const Vec2 p = ring[i], q = ring[(i + 1) % ring.size()];
    const Vec2 e = q - p;
    const double den = d.x * e.y - d.y * e.x;
    if (den == 0) continue;  // parallel: pieces along the edge take their midpoint's region
    const Vec2 w = p - a;
    const double t = (w.x * e.y - w.y * e.x) / den;
    const double u = (w.x * d.y - w.y * d.x) / den;
    if (t > 0 && t < 1 && u >= 0 && u <= 1) ts.push_back(t);
  }
}

// Inside and not on the boundary: a leg along a region's edge runs beside it.
bool inside_strictly(Vec2 p, const std::vector<Vec2>& ring) {
  for (std::size_t i = 0; i < ring.size(); ++i) {
    if (distance_sq_to_segment(p, ring[i], ring[(i + 1) % ring.size()]) < 1e-18) return false;
  }
  return point_in_polygon(p, ring);
}

}  // namespace

WeightedRegions::WeightedRegions(const PlanningWorld& world, std::size_t movement_class,
                                 const VisibilityGraph& graph, double max_error) {
  (void)max_error;
  const Scenario& s = world.scenario();
  const TerrainRaster& raster = world.raster();
  const std::optional<double> ground = terrain_cost(s, 0, movement_class);
  const double base = ground ? *ground : 1.0;
  // The world's one model (planner/world/README.md): each cell's terrain multiplier (tiles,
  // containers and features as the raster paints them), an intact bridge deck 1, relative
  // to the ground; blocked cells are the obstacles'. Roads are the road network's (their
  // legs are divided by the road's factor); the cost overlay is not terrain.
  std::vector<double> factor_of_surface(raster.surface_count(), 1.0);
  for (std::size_t id = 0; id < factor_of_surface.size(); ++id) {
    const Surface& surface = raster.surface(SurfaceId(id));
    const std::optional<double> cost = terrain_cost(s, surface.terrain, movement_class);
    if (surface.bridge)
      factor_of_surface[id] = 1.0 / base;
    else if (cost && !blocks_class(s, surface.terrain, movement_class))
      factor_of_surface[id] = *cost / base;
  }
  // Cells of one factor other than the ground's as rectangles: the runs of a row, a run
  // continued by the same run (same cells, same factor) in the row below.
  struct Run {
    int x0, x1, y0;
    double factor;
  };
  const int w = raster.width, h = raster.height;
  const double cs = raster.cell_size;
  const std::span<const SurfaceId> ids = raster.surface_ids();
  const auto factor_at = [&](int x, int y) {
    return factor_of_surface[ids[std::size_t(y) * std::size_t(w) + std::size_t(x)]];
  };
  std::vector<Run> open, next;
  for (int y = 0; y <= h; ++y) {
    next.clear();
    for (int x = 0; y < h && x < w;) {
      const double f = factor_at(x, y);
      int e = x + 1;
      while (e < w && factor_at(e, y) == f) ++e;
      if (f != 1.0) next.push_back(Run{x, e, y, f});
      x = e;
    }
    std::size_t k = 0;
    for (const Run& r : open) {
      while (k < next.size() && next[k].x0 < r.x0) ++k;
      if (k < next.size() && next[k].x0 == r.x0 && next[k].x1 == r.x1 && next[k].factor == r.factor) {
        next[k].y0 = r.y0;  // continued below
        continue;
      }
      WeightedRegion region;
      const Vec2 lo{r.x0 * cs, r.y0 * cs}, hi{r.x1 * cs, y * cs};
      region.ring = {lo, {hi.x, lo.y}, hi, {lo.x, hi.y}};
      region.factor = r.factor;
      region.box = Box2{lo, hi};
      regions_.push_back(std::move(region));
    }
    open.swap(next);
  }
  // Too many to link every corner with every other (the linking is quadratic): the world's
  // terrain is not weighed in the search (the reported cost is still the world's).
  if (regions_.size() > kMaxRegions) {
    dropped_ = regions_.size();
    regions_.clear();
    return;
  }
  // Without a region that changes a cost there is nothing to weigh.
  bool any = false;
  for (const WeightedRegion& r : regions_) any = any || r.factor != 1;
  if (!any) {
    regions_.clear();
    return;
  }
  for (const WeightedRegion& r : regions_) min_factor_ = std::min(min_factor_, r.factor);

  const SegmentIndex& index = graph.index();
  grid_ = &world.grid(movement_class);
  cell_size_ = world.raster().cell_size;
  width_ = w;
  height_ = h;
  cell_factor_.resize(std::size_t(w) * std::size_t(h));
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x)
      cell_factor_[std::size_t(y) * std::size_t(w) + std::size_t(x)] = factor_at(x, y);
  }
  const Box2 free_box = graph.obstacles().free_box;
  for (const WeightedRegion& r : regions_) {
    for (const Vec2& corner : r.ring) {
      // A corner on the world's edge is taken to the edge of the free box (the radius
      // in), where it still lies on the region's side: the way along the region's edge
      // to the world's edge is often the cheapest (a slow region's corner on the edge).
      const Vec2 p{std::clamp(corner.x, free_box.lo.x, free_box.hi.x),
                   std::clamp(corner.y, free_box.lo.y, free_box.hi.y)};
      if (!index.inside(p)) corners_.push_back(p);
    }
  }
  std::sort(corners_.begin(), corners_.end(),
            [](Vec2 a, Vec2 b) { return a.x < b.x || (a.x == b.x && a.y < b.y); });
  corners_.erase(std::unique(corners_.begin(), corners_.end()), corners_.end());

  const std::uint32_t n = std::uint32_t(corners_.size());
  std::vector<std::vector<Link>> adj(n);
  std::vector<std::vector<Link>> by_node(graph.node_count());
  std::vector<std::uint32_t> seen;
  for (std::uint32_t i = 0; i < n; ++i) {
    for (std::uint32_t j = i + 1; j < n; ++j) {
      if (!index.visible(corners_[i], corners_[j])) continue;
      const double c = cost(corners_[i], corners_[j]);
      adj[i].push_back(Link{j, false, c});
      adj[j].push_back(Link{i, false, c});
    }
    graph.nodes_linked_to(corners_[i], seen);
    for (const std::uint32_t node : seen) {
      const double c = cost(graph.position(node), corners_[i]);
      adj[i].push_back(Link{node, true, c});
      by_node[node].push_back(Link{i, false, c});
    }
  }
  link_start_.assign(std::size_t(n) + 1, 0);
  for (std::uint32_t i = 0; i < n; ++i) {
    link_start_[i + 1] = link_start_[i] + std::uint32_t(adj[i].size());
    links_.insert(links_.end(), adj[i].begin(), adj[i].end());
  }
  graph_start_.assign(graph.node_count() + 1, 0);
  for (std::size_t k = 0; k < by_node.size(); ++k) {
    graph_start_[k + 1] = graph_start_[k] + std::uint32_t(by_node[k].size());
    graph_links_.insert(graph_links_.end(), by_node[k].begin(), by_node[k].end());
  }
}

double WeightedRegions::factor_at(Vec2 p) const {
  // Regions are whole cells: a point well inside a cell (farther than inside_strictly's
  // tolerance from its sides, as the regions' rings place them) takes the cell's factor.
  // Points on or beside a side are judged by the rings.
  if (!cell_factor_.empty()) {
    const double cs = cell_size_;
    const int cx = int(std::floor(p.x / cs)), cy = int(std::floor(p.y / cs));
    constexpr double kMargin = 1e-8;  // > inside_strictly's 1e-9
    if (cx >= 0 && cy >= 0 && cx < width_ && cy < height_ && p.x - cx * cs > kMargin &&
        (cx + 1) * cs - p.x > kMargin && p.y - cy * cs > kMargin && (cy + 1) * cs - p.y > kMargin)
      return cell_factor_[std::size_t(cy) * std::size_t(width_) + std::size_t(cx)];
  }
  double factor = 1;
  for (const WeightedRegion& r : regions_) {
    if (r.box.contains(p) && inside_strictly(p, r.ring)) factor = r.factor;
  }
  return factor;
}

double WeightedRegions::cost(Vec2 a, Vec2 b) const {
  const double len = distance(a, b);
  if (regions_.empty() || len == 0) return len;
  const Box2 seg = Box2::spanning(a, b);
  std::vector<double> ts = {0.0, 1.0};
  bool touched = false;
  for (const WeightedRegion& r : regions_) {
    if (!r.box.overlaps(seg)) continue;
    touched = true;
    crossings(a, b, r.ring, ts);
  }
  if (!touched) return len;
  const Vec2 d = b - a;
  // Along a cell line a leg runs between two rows (or columns) of cells, and the side it
  // may take changes at every cell: cut there too.
  const double cs = cell_size_;
  if (grid_ != nullptr && (d.x == 0 || d.y == 0) && cs > 0) {
    const double across = d.y == 0 ? a.y : a.x;
    if (std::floor(across / cs) * cs == across) {
      const double from = d.y == 0 ? a.x : a.y, span = d.y == 0 ? d.x : d.y;
      const double lo = std::min(from, from + span), hi = std::max(from, from + span);
      for (double k = std::ceil(lo / cs); k * cs < hi; ++k) {
        const double t = (k * cs - from) / span;
        if (t > 0 && t < 1) ts.push_back(t);
      }
    }
  }
  std::sort(ts.begin(), ts.end());
  const double nudge = 1e-9 * (1 + std::max({std::abs(a.x), std::abs(a.y), std::abs(b.x), std::abs(b.y)}));
  const Vec2 side = Vec2{-d.y, d.x} * (nudge / len);
  double total = 0;
  for (std::size_t k = 1; k < ts.size(); ++k) {
    const double piece = ts[k] - ts[k - 1];
    if (piece <= 0) continue;
    const Vec2 mid = a + (b - a) * (0.5 * (ts[k] + ts[k - 1]));
    // A piece along a region's edge runs between two cells: it costs the cheaper passable
    // side, as in the world's model (planner/world/README.md), so both sides are looked
    // at; a side in a blocked cell or beyond the world's edge is no way.
    const double f0 = factor_at(mid + side), f1 = factor_at(mid - side);
    double f = f0;
    if (f0 != f1) {
      const Vec2 cheaper = f0 < f1 ? mid + side : mid - side;
      std::optional<std::uint32_t> cell;
      if (grid_ != nullptr) cell = grid_->cell_at(cheaper);
      const bool closed = grid_ != nullptr && (!cell || !grid_->passable(*cell));
      f = closed ? std::max(f0, f1) : std::min(f0, f1);
    }
    total += piece * len * f;
  }
  return total;
}

}  // namespace pathscope::visgraph
