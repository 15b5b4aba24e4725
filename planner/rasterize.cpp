// Rasterisation of a scenario into per-cell terrain, then per-class cost grids.
// The coverage rule is stated in rasterize.hpp and the README; every test of a cell
// against a shape is exact in double precision, so the result does not depend on the
// order in which cells are visited.

#include "planner/rasterize.hpp"

#include <algorithm>
#include <cmath>

#include <glm/common.hpp>

#include "planner/geometry.hpp"

namespace pathscope {
namespace {

struct CellRange {
  int x0, y0, x1, y1;  // inclusive
};

// Cells whose squares can touch the world-space box [lo, hi], clamped to the grid.
CellRange cells_touching(Vec2 lo, Vec2 hi, const TerrainRaster& r) {
  const double s = r.cell_size;
  CellRange c;
  c.x0 = std::max(0, int(std::floor(lo.x / s)) - 1);
  c.y0 = std::max(0, int(std::floor(lo.y / s)) - 1);
  c.x1 = std::min(r.width - 1, int(std::floor(hi.x / s)) + 1);
  c.y1 = std::min(r.height - 1, int(std::floor(hi.y / s)) + 1);
  return c;
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

// Cells whose centre is within `half_width` of the polyline; calls fn(index).
template <typename Fn>
void for_cells_near_polyline(const std::vector<Vec2>& points, double half_width, const TerrainRaster& r, Fn fn) {
  const double s = r.cell_size;
  const double hw2 = half_width * half_width;
  for (std::size_t k = 0; k + 1 < points.size(); ++k) {
    const Vec2 a = points[k], b = points[k + 1];
    const CellRange c = cells_touching(glm::min(a, b) - Vec2(half_width), glm::max(a, b) + Vec2(half_width), r);
    for (int y = c.y0; y <= c.y1; ++y) {
      for (int x = c.x0; x <= c.x1; ++x) {
        const Vec2 centre{(x + 0.5) * s, (y + 0.5) * s};
        if (distance_sq_to_segment(centre, a, b) <= hw2) fn(std::size_t(y) * std::size_t(r.width) + std::size_t(x));
      }
    }
  }
}

}  // namespace

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

  if (scenario.tiles) {
    const TileGrid& t = *scenario.tiles;
    const int w = std::min(t.width, r.width), h = std::min(t.height, r.height);
    for (int y = 0; y < h; ++y) {
      std::copy_n(t.terrain.begin() + std::ptrdiff_t(y) * t.width, w, r.terrain.begin() + std::ptrdiff_t(y) * r.width);
    }
  }

  const double s = r.cell_size;
  for (const Feature& f : scenario.features) {
    Vec2 lo, hi;
    shape_bounds(f.shape, lo, hi);
    const bool obstacle = blocks_every_class(scenario.terrains[f.terrain]);
    const CellRange c = cells_touching(lo, hi, r);
    for (int y = c.y0; y <= c.y1; ++y) {
      for (int x = c.x0; x <= c.x1; ++x) {
        const Vec2 cell_lo{x * s, y * s};
        const Vec2 cell_hi{(x + 1) * s, (y + 1) * s};
        const bool covered = obstacle ? overlaps_cell(f.shape, cell_lo, cell_hi)
                                      : contains_center(f.shape, (cell_lo + cell_hi) * 0.5);
        if (covered) r.terrain[std::size_t(y) * std::size_t(r.width) + std::size_t(x)] = std::uint8_t(f.terrain);
      }
    }
  }

  for (const Road& road : scenario.roads) {
    const float factor = float(road.speed_factor);
    for_cells_near_polyline(road.points, road.width * 0.5, r, [&](std::size_t i) {
      r.road_factor[i] = std::max(r.road_factor[i], factor);
    });
  }
  for (const Bridge& bridge : scenario.bridges) {
    if (!bridge.intact) continue;
    for_cells_near_polyline({bridge.a, bridge.b}, bridge.width * 0.5, r, [&](std::size_t i) { r.bridge[i] = 1; });
  }
  return r;
}

CostGrid build_cost_grid(const Scenario& scenario, const TerrainRaster& r, std::size_t movement_class) {
  const std::size_t n = r.terrain.size();
  std::vector<double> multiplier(n);
  std::vector<std::uint8_t> group(n);
  // Terrain groups become small integers in order of first appearance in the table.
  std::vector<std::uint8_t> group_of(scenario.terrains.size(), 0);
  std::vector<std::string> names{""};
  for (std::size_t t = 0; t < scenario.terrains.size(); ++t) {
    const std::string& g = scenario.terrains[t].group;
    auto it = std::find(names.begin(), names.end(), g);
    if (it == names.end()) it = names.insert(names.end(), g);
    group_of[t] = std::uint8_t(it - names.begin());
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (r.bridge[i]) {
      multiplier[i] = 1.0 / double(r.road_factor[i]);
      group[i] = 0;
      continue;
    }
    const TerrainType& t = scenario.terrains[r.terrain[i]];
    const std::optional<double>& cost = t.cost[movement_class];
    multiplier[i] = cost ? *cost / double(r.road_factor[i]) : 0.0;
    group[i] = group_of[r.terrain[i]];
  }
  return CostGrid(r.width, r.height, r.cell_size, std::move(multiplier), group,
                  scenario.classes[movement_class].amphibious);
}

}  // namespace pathscope
