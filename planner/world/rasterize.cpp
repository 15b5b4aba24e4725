// Rasterisation of a scenario into per-cell terrain, then per-class cost grids.
// The coverage rule is stated in rasterize.hpp and the README; every test of a cell
// against a shape is exact in double precision, so the result does not depend on the
// order in which cells are visited.

#include "planner/world/rasterize.hpp"

#include <algorithm>
#include <cmath>

#include <glm/common.hpp>

#include "planner/core/geometry.hpp"

namespace pathscope {
namespace {

// Cells whose squares can touch the world-space box [lo, hi], clamped to the grid (one
// cell of margin against rounding).
CellRect cells_touching(Vec2 lo, Vec2 hi, const TerrainRaster& r) {
  const double s = r.cell_size;
  // Clamp in double first: a huge coordinate must not overflow the int conversion.
  const auto cell = [&](double v, int limit) { return int(std::clamp(std::floor(v / s), -2.0, double(limit) + 2)); };
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

// Obstacle rule: the cell's open square overlaps the shape's interior.
bool overlaps_cell(const Shape& shape, Vec2 lo, Vec2 hi) {
  switch (shape.kind) {
    case ShapeKind::Polygon: return polygon_overlaps_open_box(shape.points, lo, hi);
    case ShapeKind::Rect:
      return shape.min.x < hi.x && lo.x < shape.max.x && shape.min.y < hi.y && lo.y < shape.max.y;
    case ShapeKind::Circle: return disc_overlaps_open_box(shape.center, shape.radius, lo, hi);
  }
  return false;
}

// Region rule: the cell's centre lies inside the shape.
bool contains_center(const Shape& shape, Vec2 c) {
  switch (shape.kind) {
    case ShapeKind::Polygon: return point_in_polygon(c, shape.points);
    case ShapeKind::Rect: return shape.min.x <= c.x && c.x < shape.max.x && shape.min.y <= c.y && c.y < shape.max.y;
    case ShapeKind::Circle: {
      const Vec2 d = c - shape.center;
      return d.x * d.x + d.y * d.y < shape.radius * shape.radius;
    }
  }
  return false;
}

bool blocks_every_class(const TerrainType& t) {
  return std::none_of(t.cost.begin(), t.cost.end(), [](const auto& c) { return c.has_value(); });
}

// Cells that a polyline of `half_width` can reach.
CellRect polyline_cells(const std::vector<Vec2>& points, double half_width, const TerrainRaster& r) {
  CellRect c;
  for (std::size_t k = 0; k + 1 < points.size(); ++k) {
    const Vec2 a = points[k], b = points[k + 1];
    c = c.united(cells_touching(glm::min(a, b) - Vec2(half_width), glm::max(a, b) + Vec2(half_width), r));
  }
  return c;
}

// Cells of `rect` whose centre is within `half_width` of the polyline; calls fn(index).
template <typename Fn>
void for_cells_near_polyline(const std::vector<Vec2>& points, double half_width, CellRect rect,
                             const TerrainRaster& r, Fn fn) {
  const double s = r.cell_size;
  const double hw2 = half_width * half_width;
  for (std::size_t k = 0; k + 1 < points.size(); ++k) {
    const Vec2 a = points[k], b = points[k + 1];
    const CellRect c =
        cells_touching(glm::min(a, b) - Vec2(half_width), glm::max(a, b) + Vec2(half_width), r).intersected(rect);
    for (int y = c.y0; y < c.y1; ++y) {
      for (int x = c.x0; x < c.x1; ++x) {
        const Vec2 centre{(x + 0.5) * s, (y + 0.5) * s};
        if (distance_sq_to_segment(centre, a, b) <= hw2) fn(std::size_t(y) * std::size_t(r.width) + std::size_t(x));
      }
    }
  }
}

}  // namespace

void rasterize_cells(const Scenario& scenario, CellRect rect, TerrainRaster& r) {
  rect = rect.intersected(CellRect{0, 0, r.width, r.height});
  if (rect.empty()) return;
  const auto at = [&](int x, int y) { return std::size_t(y) * std::size_t(r.width) + std::size_t(x); };
  // Rule 1: the tile grid, or terrain 0.
  const TileGrid* tiles = scenario.tiles ? &*scenario.tiles : nullptr;
  for (int y = rect.y0; y < rect.y1; ++y) {
    for (int x = rect.x0; x < rect.x1; ++x) {
      const bool tiled = tiles && x < tiles->width && y < tiles->height;
      r.terrain[at(x, y)] = tiled ? tiles->terrain[std::size_t(y) * std::size_t(tiles->width) + std::size_t(x)] : 0;
      r.road_factor[at(x, y)] = 1.0f;
      r.bridge[at(x, y)] = 0;
    }
  }

  // Rule 2: features in file order.
  const double s = r.cell_size;
  for (const Feature& f : scenario.features) {
    Vec2 lo, hi;
    shape_bounds(f.shape, lo, hi);
    const bool obstacle = blocks_every_class(scenario.terrains[f.terrain]);
    const CellRect c = cells_touching(lo, hi, r).intersected(rect);
    for (int y = c.y0; y < c.y1; ++y) {
      for (int x = c.x0; x < c.x1; ++x) {
        const Vec2 cell_lo{x * s, y * s};
        const Vec2 cell_hi{(x + 1) * s, (y + 1) * s};
        const bool covered = obstacle ? overlaps_cell(f.shape, cell_lo, cell_hi)
                                      : contains_center(f.shape, (cell_lo + cell_hi) * 0.5);
        if (covered) r.terrain[at(x, y)] = std::uint8_t(f.terrain);
      }
    }
  }

  // Rules 3 and 4: roads and intact bridges.
  for (const Road& road : scenario.roads) {
    const float factor = float(road.speed_factor);
    for_cells_near_polyline(road.points, road.width * 0.5, rect, r, [&](std::size_t i) {
      r.road_factor[i] = std::max(r.road_factor[i], factor);
    });
  }
  for (const Bridge& bridge : scenario.bridges) {
    if (!bridge.intact) continue;
    for_cells_near_polyline({bridge.a, bridge.b}, bridge.width * 0.5, rect, r, [&](std::size_t i) { r.bridge[i] = 1; });
  }
}

TerrainRaster rasterize(const Scenario& scenario) {
  TerrainRaster r;
  const glm::ivec2 size = scenario.grid_size();
  r.width = size.x;
  r.height = size.y;
  r.cell_size = scenario.world.cell_size;
  const std::size_t n = std::size_t(r.width) * std::size_t(r.height);
  r.terrain.assign(n, 0);
  r.road_factor.assign(n, 1.0f);
  r.bridge.assign(n, 0);
  rasterize_cells(scenario, CellRect{0, 0, r.width, r.height}, r);
  return r;
}

std::optional<CellRect> raster_changes(const Scenario& before, const Scenario& after) {
  if (before.grid_size() != after.grid_size() || before.world.cell_size != after.world.cell_size ||
      before.terrains != after.terrains) {
    return std::nullopt;
  }
  TerrainRaster frame;  // only its size and cell size are used
  frame.width = after.grid_size().x;
  frame.height = after.grid_size().y;
  frame.cell_size = after.world.cell_size;
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
    Vec2 lo, hi;
    shape_bounds(f.shape, lo, hi);
    return cells_touching(lo, hi, frame);
  });
  differing(before.roads, after.roads, [&](const Road& road) {
    return polyline_cells(road.points, road.width * 0.5, frame);
  });
  differing(before.bridges, after.bridges, [&](const Bridge& bridge) {
    return polyline_cells({bridge.a, bridge.b}, bridge.width * 0.5, frame);
  });
  return changed.intersected(all);
}

namespace {

// Multiplier and terrain group of every cell for one movement class.
class ClassCosts {
 public:
  ClassCosts(const Scenario& scenario, const TerrainRaster& r, std::size_t movement_class)
      : scenario_(scenario), r_(r), class_(movement_class), group_of_(scenario.terrains.size(), 0) {
    // Terrain groups become small integers in order of first appearance in the table.
    std::vector<std::string> names{""};
    for (std::size_t t = 0; t < scenario.terrains.size(); ++t) {
      const std::string& g = scenario.terrains[t].group;
      auto it = std::find(names.begin(), names.end(), g);
      if (it == names.end()) it = names.insert(names.end(), g);
      group_of_[t] = std::uint8_t(it - names.begin());
    }
  }

  void cell(std::size_t i, double& multiplier, std::uint8_t& group) const {
    if (r_.bridge[i]) {
      multiplier = 1.0 / double(r_.road_factor[i]);
      group = 0;
      return;
    }
    const TerrainType& t = scenario_.terrains[r_.terrain[i]];
    const std::optional<double>& cost = t.cost[class_];
    multiplier = cost ? *cost / double(r_.road_factor[i]) : 0.0;
    group = group_of_[r_.terrain[i]];
  }

 private:
  const Scenario& scenario_;
  const TerrainRaster& r_;
  std::size_t class_;
  std::vector<std::uint8_t> group_of_;
};

}  // namespace

CostGrid build_cost_grid(const Scenario& scenario, const TerrainRaster& r, std::size_t movement_class) {
  const std::size_t n = r.terrain.size();
  std::vector<double> multiplier(n);
  std::vector<std::uint8_t> group(n);
  const ClassCosts costs(scenario, r, movement_class);
  for (std::size_t i = 0; i < n; ++i) costs.cell(i, multiplier[i], group[i]);
  return CostGrid(r.width, r.height, r.cell_size, std::move(multiplier), std::move(group),
                  scenario.classes[movement_class].amphibious);
}

void update_cost_grid(const Scenario& scenario, const TerrainRaster& r, std::size_t movement_class, CellRect rect,
                      CostGrid& grid) {
  rect = rect.intersected(CellRect{0, 0, r.width, r.height});
  if (rect.empty()) return;
  std::vector<double> multiplier(std::size_t(rect.width()) * std::size_t(rect.height()));
  std::vector<std::uint8_t> group(multiplier.size());
  const ClassCosts costs(scenario, r, movement_class);
  std::size_t k = 0;
  for (int y = rect.y0; y < rect.y1; ++y) {
    for (int x = rect.x0; x < rect.x1; ++x, ++k) {
      costs.cell(std::size_t(y) * std::size_t(r.width) + std::size_t(x), multiplier[k], group[k]);
    }
  }
  grid.update_cells(rect, multiplier, group);
}

}  // namespace pathscope
