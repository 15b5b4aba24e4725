// Rasterisation of a scenario into a surface per cell (terrain, road factor, bridge).
// The coverage rule is stated in rasterize.hpp and the README; every test of a cell
// against a shape is exact in double precision, so the result does not depend on the
// order in which cells are visited.
//
// Painting costs what a shape covers, not its bounding box times its vertices: a shape
// is painted row by row, and in each row only the cells where its coverage can change
// are tested with the exact per-cell predicate; the runs between them are filled.
// - Rectangles: the predicate is a product of one test per column and one per row.
// - Circles: in a row, the covered cells form one run around the centre (the predicate
//   grows monotonically with the distance from the centre column, also after rounding),
//   found by walking out from the centre with the exact test.
// - Polygons, centre rule: the even-odd crossings of the row's centre line, computed
//   with the same expression as point_in_polygon(), bound runs [x_2i, x_2i+1) of
//   centres; a cell is inside exactly when point_in_polygon() says so.
// - Polygons, obstacle rule: polygon_overlaps_open_box() is "an edge crosses the open
//   cell, or the centre is inside"; centre runs as above, plus every cell along each
//   edge (its x-range in each row, one cell of margin) tested with the exact crossing test.
// - Roads and bridges: in each row, the cells near the segment's x-range in that row
//   (one cell of margin) tested with the exact distance.

#include "planner/world/rasterize.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>

#include <glm/common.hpp>

#include "planner/core/geometry.hpp"

namespace pathscope {
namespace {

// The grid a scenario rasterises to: size and cell size only.
struct GridFrame {
  int width = 0;
  int height = 0;
  double cell_size = 1;
};

// Cells whose squares can touch the world-space box [lo, hi], clamped to the grid (one
// cell of margin against rounding).
CellRect cells_touching(Vec2 lo, Vec2 hi, const GridFrame& r) {
  const double s = r.cell_size;
  // Clamp in double first: a huge coordinate must not overflow the int conversion.
  const auto cell = [&](double v, int limit) {
    return int(std::clamp(std::floor(v / s), -2.0, double(limit) + 2));
  };
  return CellRect{std::max(0, cell(lo.x, r.width) - 1), std::max(0, cell(lo.y, r.height) - 1),
                  std::min(r.width, cell(hi.x, r.width) + 2), std::min(r.height, cell(hi.y, r.height) + 2)};
}

void shape_bounds(const Shape& shape, Vec2& lo, Vec2& hi) {
  switch (shape.kind) {
    case ShapeKind::Polygon:
      lo = hi = shape.points.front();
      for (const Vec2& p : shape.points) {
        lo = glm::min(lo, p);
        hi = glm::max(hi, p);
      }
      break;
    case ShapeKind::Rect:
      lo = shape.min;
      hi = shape.max;
      break;
    case ShapeKind::Circle:
      lo = shape.center - Vec2(shape.radius);
      hi = shape.center + Vec2(shape.radius);
      break;
  }
}

bool blocks_every_class(const TerrainType& t) {
  return std::none_of(t.cost.begin(), t.cost.end(), [](const auto& c) { return c.has_value(); });
}

// Cells that a polyline of `half_width` can reach.
CellRect polyline_cells(const std::vector<Vec2>& points, double half_width, const GridFrame& r) {
  CellRect c;
  for (std::size_t k = 0; k + 1 < points.size(); ++k) {
    const Vec2 a = points[k], b = points[k + 1];
    c = c.united(cells_touching(glm::min(a, b) - Vec2(half_width), glm::max(a, b) + Vec2(half_width), r));
  }
  return c;
}

// The x-range of segment [a, b] where its y lies in [y0, y1] (y0 <= y1), widened by
// `pad`; false when the segment does not reach that band. Conservative: callers add a
// cell of margin and test cells exactly.
bool segment_x_range(Vec2 a, Vec2 b, double y0, double y1, double pad, double& x0, double& x1) {
  if (std::max(a.y, b.y) < y0 || std::min(a.y, b.y) > y1) return false;
  double t0 = 0, t1 = 1;
  if (a.y != b.y) {
    t0 = (y0 - a.y) / (b.y - a.y);
    t1 = (y1 - a.y) / (b.y - a.y);
    if (t0 > t1) std::swap(t0, t1);
    t0 = std::clamp(t0, 0.0, 1.0);
    t1 = std::clamp(t1, 0.0, 1.0);
  }
  const double xa = a.x + (b.x - a.x) * t0, xb = a.x + (b.x - a.x) * t1;
  x0 = std::min(xa, xb) - pad;
  x1 = std::max(xa, xb) + pad;
  return true;
}

// Paints surface ids into the cells of one rasterisation call. Cell geometry is computed
// exactly as the per-cell predicates of the coverage rule define it: the square
// [x s, (x+1) s] and its centre (x s + (x+1) s) / 2.
class Painter {
 public:
  Painter(const TerrainRaster& r, CellRect clip, SurfaceId* ids)
      : s_(r.cell_size),
        frame_{r.width, r.height, r.cell_size},
        clip_(clip),
        ids_(ids),
        width_(std::size_t(r.width)) {}

  const GridFrame& frame() const { return frame_; }
  double lo(int i) const { return i * s_; }
  double hi(int i) const { return (i + 1) * s_; }
  double centre(int i) const { return (i * s_ + (i + 1) * s_) * 0.5; }
  Vec2 cell_lo(int x, int y) const { return {lo(x), lo(y)}; }
  Vec2 cell_hi(int x, int y) const { return {hi(x), hi(y)}; }

  // The cells of the clip rectangle a world box can touch.
  CellRect touching(Vec2 lo, Vec2 hi) const { return cells_touching(lo, hi, frame_).intersected(clip_); }

  void fill(int y, int x0, int x1, SurfaceId id) {
    if (x0 >= x1) return;
    SurfaceId* row = ids_ + std::size_t(y) * width_;
    std::fill(row + x0, row + x1, id);
  }
  void set(int x, int y, SurfaceId id) { ids_[std::size_t(y) * width_ + std::size_t(x)] = id; }
  SurfaceId& at(int x, int y) { return ids_[std::size_t(y) * width_ + std::size_t(x)]; }

  // Smallest column x in [x0, x1] whose centre is >= v (x1 if none); centres increase with x.
  int first_centre_at_or_after(double v, int x0, int x1) const {
    const double guess = std::floor(v / s_ - 0.5);
    int x = int(std::clamp(guess, double(x0), double(x1)));
    while (x > x0 && centre(x - 1) >= v) --x;
    while (x < x1 && centre(x) < v) ++x;
    return x;
  }

  void paint_feature(const Shape& shape, bool obstacle, SurfaceId id) {
    Vec2 lo, hi;
    shape_bounds(shape, lo, hi);
    const CellRect c = touching(lo, hi);
    if (c.empty()) return;
    switch (shape.kind) {
      case ShapeKind::Rect: return paint_rect(shape, obstacle, c, id);
      case ShapeKind::Circle: return paint_circle(shape, obstacle, c, id);
      case ShapeKind::Polygon: return paint_polygon(shape.points, obstacle, c, id);
    }
  }

  // Calls fn(cell id reference) for the cells of the clip rectangle whose centre (x + 0.5) s
  // is within `half_width` of the polyline.
  template <typename Fn>
  void for_cells_near_polyline(const std::vector<Vec2>& points, double half_width, Fn fn) {
    const double hw2 = half_width * half_width;
    for (std::size_t k = 0; k + 1 < points.size(); ++k) {
      const Vec2 a = points[k], b = points[k + 1];
      const CellRect c = touching(glm::min(a, b) - Vec2(half_width), glm::max(a, b) + Vec2(half_width));
      for (int y = c.y0; y < c.y1; ++y) {
        const double cy = (y + 0.5) * s_;
        double xa = 0, xb = 0;
        if (!segment_x_range(a, b, cy - half_width - s_, cy + half_width + s_, half_width, xa, xb)) continue;
        const int x0 = std::max(c.x0, int(std::clamp(std::floor(xa / s_), -2.0, double(frame_.width))) - 1);
        const int x1 = std::min(c.x1, int(std::clamp(std::floor(xb / s_), -2.0, double(frame_.width))) + 2);
        for (int x = x0; x < x1; ++x) {
          const Vec2 centre_point{(x + 0.5) * s_, cy};
          if (distance_sq_to_segment(centre_point, a, b) <= hw2) fn(at(x, y));
        }
      }
    }
  }

 private:
  void paint_rect(const Shape& shape, bool obstacle, CellRect c, SurfaceId id) {
    // Covered columns and rows are each one run (the tests are monotone along an axis).
    const auto covers = [&](int i, double min, double max) {
      if (obstacle) return min < hi(i) && lo(i) < max;  // the open square overlaps
      const double m = centre(i);
      return min <= m && m < max;
    };
    int x0 = c.x0, x1 = c.x1, y0 = c.y0, y1 = c.y1;
    while (x0 < x1 && !covers(x0, shape.min.x, shape.max.x)) ++x0;
    while (x1 > x0 && !covers(x1 - 1, shape.min.x, shape.max.x)) --x1;
    while (y0 < y1 && !covers(y0, shape.min.y, shape.max.y)) ++y0;
    while (y1 > y0 && !covers(y1 - 1, shape.min.y, shape.max.y)) --y1;
    for (int y = y0; y < y1; ++y) fill(y, x0, x1, id);
  }

  void paint_circle(const Shape& shape, bool obstacle, CellRect c, SurfaceId id) {
    const Vec2 o = shape.center;
    const double r = shape.radius;
    for (int y = c.y0; y < c.y1; ++y) {
      const auto covers = [&](int x) {
        if (obstacle) return disc_overlaps_open_box(o, r, cell_lo(x, y), cell_hi(x, y));
        const Vec2 d = Vec2{centre(x), centre(y)} - o;
        return d.x * d.x + d.y * d.y < r * r;
      };
      // The covered run, if any, holds the column nearest the centre: one of these three.
      const int mid = int(std::clamp(std::floor(o.x / s_), double(c.x0), double(c.x1 - 1)));
      int seed = -1;
      for (int x = std::max(c.x0, mid - 1); x <= std::min(c.x1 - 1, mid + 1) && seed < 0; ++x) {
        if (covers(x)) seed = x;
      }
      if (seed < 0) continue;
      int x0 = seed, x1 = seed + 1;
      while (x0 > c.x0 && covers(x0 - 1)) --x0;
      while (x1 < c.x1 && covers(x1)) ++x1;
      fill(y, x0, x1, id);
    }
  }

  void paint_polygon(const std::vector<Vec2>& poly, bool obstacle, CellRect c, SurfaceId id) {
    // Centres inside, row by row: the same crossings as point_in_polygon().
    const std::size_t n = poly.size();
    std::vector<double> xs;
    for (int y = c.y0; y < c.y1; ++y) {
      const double py = centre(y);
      xs.clear();
      for (std::size_t i = 0, j = n - 1; i < n; j = i++) {
        const Vec2 a = poly[i], b = poly[j];
        if ((a.y > py) != (b.y > py)) xs.push_back(a.x + (py - a.y) * (b.x - a.x) / (b.y - a.y));
      }
      std::sort(xs.begin(), xs.end());
      // p.x < x_at toggles: inside where an odd number of crossings lie right of p.x,
      // i.e. for centres in [xs[2k], xs[2k+1]) (a row crosses the boundary an even number of times).
      for (std::size_t k = 0; k + 1 < xs.size(); k += 2) {
        const int x0 = first_centre_at_or_after(xs[k], c.x0, c.x1);
        const int x1 = first_centre_at_or_after(xs[k + 1], c.x0, c.x1);
        fill(y, x0, x1, id);
      }
    }
    if (!obstacle) return;
    // Cells whose open square an edge crosses, in the order polygon_overlaps_open_box() tests.
    for (std::size_t i = 0; i < n; ++i) {
      const Vec2 a = poly[i], b = poly[(i + 1) % n];
      const CellRect e = touching(glm::min(a, b), glm::max(a, b)).intersected(c);
      for (int y = e.y0; y < e.y1; ++y) {
        double xa = 0, xb = 0;
        if (!segment_x_range(a, b, lo(y) - s_, hi(y) + s_, 0.0, xa, xb)) continue;
        const int x0 = std::max(e.x0, int(std::clamp(std::floor(xa / s_), -2.0, double(frame_.width))) - 1);
        const int x1 = std::min(e.x1, int(std::clamp(std::floor(xb / s_), -2.0, double(frame_.width))) + 2);
        for (int x = x0; x < x1; ++x) {
          if (segment_crosses_open_box(a, b, cell_lo(x, y), cell_hi(x, y))) set(x, y, id);
        }
      }
    }
  }

  double s_;
  GridFrame frame_;
  CellRect clip_;
  SurfaceId* ids_;
  std::size_t width_;
};

// Surface ids with one change applied (a road factor, a bridge deck), made once per id.
// Once the surface table is full, ids are left as they are and full() says so.
class SurfaceMap {
 public:
  template <typename Change>
  SurfaceId operator()(TerrainRaster& r, SurfaceId id, Change change) {
    if (full_) return id;
    if (id >= to_.size()) to_.resize(r.surface_count(), kUnset);
    if (to_[id] == kUnset) {
      const std::optional<SurfaceId> to = r.intern(change(r.surface(id)));
      if (!to) {
        full_ = true;
        return id;
      }
      to_[id] = std::int32_t(*to);
    }
    return SurfaceId(to_[id]);
  }
  bool full() const { return full_; }

 private:
  static constexpr std::int32_t kUnset = -1;
  std::vector<std::int32_t> to_;
  bool full_ = false;
};

// A valid scenario's surfaces without an overlay: every terrain, under no road or one of
// the distinct road speed factors, with a bridge deck or without.
static_assert(ScenarioLimits::kMaxTerrainTypes * (ScenarioLimits::kMaxRoadSpeedFactors + 1) * 2 <=
                  TerrainRaster::kMaxSurfaces,
              "a valid scenario must fit a raster's surface table without a cost overlay");

// The Limit error of a cost overlay that would add a surface to a full table.
Error overlay_limit_error() {
  return make_error(ErrorCode::Limit, "cost overlay",
                    "more than 65,536 distinct surfaces (combinations of terrain, road speed factor, bridge "
                    "deck and cost factor): use fewer distinct cost factors");
}

// Sets the cost factors of the cells of `rect` inside a begin_cells() bracket; false when
// the surface table is full (cells already written keep their new ids).
bool overlay_cells(TerrainRaster& r, CellRect rect, std::span<const float> factors) {
  SurfaceId* ids = r.cells();
  for (int y = rect.y0; y < rect.y1; ++y) {
    for (int x = rect.x0; x < rect.x1; ++x) {
      const std::size_t k = std::size_t(y) * std::size_t(r.width) + std::size_t(x);
      const float factor = factors.empty() ? 1.0f : factors[k];
      const Surface& now = r.surface(ids[k]);
      if (now.cost_factor == factor) continue;
      Surface s = now;
      s.cost_factor = factor;
      const std::optional<SurfaceId> id = r.intern(s);
      if (!id) return false;
      ids[k] = *id;
    }
  }
  return true;
}

}  // namespace

Containers::Containers(const Scenario& scenario) {
  for (const Feature& f : scenario.features) {
    if (!f.container) continue;
    if (shapes_.empty()) {
      terrain_ = f.terrain;
      obstacle_ = blocks_every_class(scenario.terrains[f.terrain]);
    }
    shapes_.push_back(&f.shape);
  }
  if (obstacle_) union_ = ShapeUnion(shapes_);
}

bool Containers::outside(Vec2 lo, Vec2 hi, Vec2 c) const {
  // Obstacle terrain: the closed square must lie inside the union (the seams between
  // touching or overlapping containers included), as in the visibility graph.
  if (obstacle_) return !union_.covers_box(lo, hi);
  for (const Shape* s : shapes_) {
    bool in = false;
    switch (s->kind) {
      case ShapeKind::Rect:
        in = s->min.x <= c.x && c.x < s->max.x && s->min.y <= c.y && c.y < s->max.y;
        break;
      case ShapeKind::Circle: {
        const Vec2 d = c - s->center;
        in = d.x * d.x + d.y * d.y < s->radius * s->radius;
        break;
      }
      case ShapeKind::Polygon: in = point_in_polygon(c, s->points); break;
    }
    if (in) return false;
  }
  return true;
}

Status rasterize_cells(const Scenario& scenario, CellRect rect, TerrainRaster& r,
                       std::span<const float> cost_factors) {
  rect = rect.intersected(CellRect{0, 0, r.width, r.height});
  if (rect.empty()) return Ok{};
  // Keep room for the surfaces this update can add (ids no cell holds are dropped).
  r.compact(TerrainRaster::kMaxSurfaces / 2);
  r.begin_cells(rect);
  // The cells as they were, put back if the surface table fills up (intern() only adds
  // ids). Only a cost overlay can fill it (roads and bridges meet a full table when the
  // cells outside `rect` hold overlaid surfaces); without one the table holds at most
  // the 32,768 surfaces of a valid scenario, so nothing is kept.
  std::vector<SurfaceId> saved;
  if (!cost_factors.empty()) saved = r.copy_cells(rect);
  const auto fail = [&]() -> Status {
    assert(!cost_factors.empty() && "a valid scenario fits the surface table (the static_assert above)");
    r.restore_cells(rect, saved);
    r.end_cells(rect);
    return overlay_limit_error();
  };
  Painter paint(r, rect, r.cells());

  // Rule 1: the tile grid, or terrain 0 (plain terrain ids equal terrain indices).
  const TileGrid* tiles = scenario.tiles ? &*scenario.tiles : nullptr;
  for (int y = rect.y0; y < rect.y1; ++y) {
    int x = rect.x0;
    if (tiles && y < tiles->height) {
      const std::uint8_t* row = tiles->terrain.data() + std::size_t(y) * std::size_t(tiles->width);
      for (; x < std::min(rect.x1, tiles->width); ++x) paint.set(x, y, SurfaceId(row[x]));
    }
    paint.fill(y, x, rect.x1, 0);
  }

  // Rule 1b: outside every container, the containers' terrain (cell by cell).
  if (const Containers containers(scenario); !containers.empty()) {
    const double cs = scenario.world.cell_size;
    for (int y = rect.y0; y < rect.y1; ++y) {
      for (int x = rect.x0; x < rect.x1; ++x) {
        const Vec2 lo{x * cs, y * cs}, hi{(x + 1) * cs, (y + 1) * cs};
        const Vec2 c{(x * cs + (x + 1) * cs) * 0.5, (y * cs + (y + 1) * cs) * 0.5};
        if (containers.outside(lo, hi, c)) paint.set(x, y, SurfaceId(containers.terrain()));
      }
    }
  }

  // Rule 2: features in file order (containers done above).
  for (const Feature& f : scenario.features) {
    if (f.container) continue;
    paint.paint_feature(f.shape, blocks_every_class(scenario.terrains[f.terrain]), SurfaceId(f.terrain));
  }

  // Rules 3 and 4: roads and intact bridges.
  for (const Road& road : scenario.roads) {
    const float factor = float(road.speed_factor);
    SurfaceMap with_road;
    paint.for_cells_near_polyline(road.points, road.width * 0.5, [&](SurfaceId& id) {
      id = with_road(r, id, [&](Surface s) {
        s.road_factor = std::max(s.road_factor, factor);
        return s;
      });
    });
    if (with_road.full()) return fail();
  }
  for (const Bridge& bridge : scenario.bridges) {
    if (!bridge.intact) continue;
    SurfaceMap with_deck;
    paint.for_cells_near_polyline({bridge.a, bridge.b}, bridge.width * 0.5, [&](SurfaceId& id) {
      id = with_deck(r, id, [](Surface s) {
        s.bridge = true;
        return s;
      });
    });
    if (with_deck.full()) return fail();
  }
  if (!cost_factors.empty() && !overlay_cells(r, rect, cost_factors)) return fail();
  r.end_cells(rect);
  return Ok{};
}

Status apply_cost_overlay(TerrainRaster& r, CellRect rect, std::span<const float> cost_factors) {
  if (rect.empty()) return Ok{};
  r.compact(TerrainRaster::kMaxSurfaces / 2);
  r.begin_cells(rect);
  const std::vector<SurfaceId> saved = r.copy_cells(rect);
  if (!overlay_cells(r, rect, cost_factors)) {
    r.restore_cells(rect, saved);
    r.end_cells(rect);
    return overlay_limit_error();
  }
  r.end_cells(rect);
  return Ok{};
}

TerrainRaster rasterize(const Scenario& scenario) {
  const glm::ivec2 size = scenario.grid_size();
  TerrainRaster r(size.x, size.y, scenario.world.cell_size, scenario.terrains.size());
  const Status painted = rasterize_cells(scenario, CellRect{0, 0, r.width, r.height}, r);
  assert(painted.ok() && "a valid scenario fits the surface table (the static_assert above)");
  (void)painted;
  return r;
}

std::optional<CellRect> raster_changes(const Scenario& before, const Scenario& after) {
  if (before.grid_size() != after.grid_size() || before.world.cell_size != after.world.cell_size ||
      before.terrains != after.terrains) {
    return std::nullopt;
  }
  const GridFrame frame{after.grid_size().x, after.grid_size().y, after.world.cell_size};
  const CellRect all{0, 0, frame.width, frame.height};
  CellRect changed;

  // Tiles: the bounding box of the differing cells.
  const TileGrid* a = before.tiles ? &*before.tiles : nullptr;
  const TileGrid* b = after.tiles ? &*after.tiles : nullptr;
  if (a && b && a->width == b->width && a->height == b->height) {
    const std::size_t w = std::size_t(a->width);
    for (int y = 0; y < a->height; ++y) {
      const std::uint8_t* ra = a->terrain.data() + std::size_t(y) * w;
      const std::uint8_t* rb = b->terrain.data() + std::size_t(y) * w;
      if (std::equal(ra, ra + w, rb)) continue;
      int x0 = 0, x1 = int(w);
      while (ra[x0] == rb[x0]) ++x0;
      while (ra[x1 - 1] == rb[x1 - 1]) --x1;
      changed = changed.united(CellRect{x0, y, x1, y + 1});
    }
  } else if (a || b) {
    const TileGrid& t = a ? *a : *b;
    changed = changed.united(CellRect{0, 0, t.width, t.height});
    if (a && b) changed = changed.united(CellRect{0, 0, b->width, b->height});
  }

  // Features, roads and bridges: a cell outside every feature that differs sees the same
  // sequence of covering features, so only the differing middle of each list (after the
  // common prefix and suffix) can change cells.
  const auto differing = [&](const auto& xs, const auto& ys, auto bounds_of) {
    std::size_t prefix = 0;
    while (prefix < xs.size() && prefix < ys.size() && xs[prefix] == ys[prefix]) ++prefix;
    std::size_t suffix = 0;
    while (suffix < xs.size() - prefix && suffix < ys.size() - prefix &&
           xs[xs.size() - 1 - suffix] == ys[ys.size() - 1 - suffix]) {
      ++suffix;
    }
    for (std::size_t i = prefix; i < xs.size() - suffix; ++i) changed = changed.united(bounds_of(xs[i]));
    for (std::size_t i = prefix; i < ys.size() - suffix; ++i) changed = changed.united(bounds_of(ys[i]));
  };
  differing(before.features, after.features, [&](const Feature& f) {
    if (f.container) return all;  // it paints everything outside it
    Vec2 lo, hi;
    shape_bounds(f.shape, lo, hi);
    return cells_touching(lo, hi, frame);
  });
  differing(before.roads, after.roads,
            [&](const Road& road) { return polyline_cells(road.points, road.width * 0.5, frame); });
  differing(before.bridges, after.bridges, [&](const Bridge& bridge) {
    return polyline_cells({bridge.a, bridge.b}, bridge.width * 0.5, frame);
  });
  return changed.intersected(all);
}

}  // namespace pathscope
