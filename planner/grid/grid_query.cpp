#include "planner/grid/grid_query.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace pathscope {
namespace {

std::string describe_point(const char* what, Vec2 p) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "%s (%.6g, %.6g)", what, p.x, p.y);
  return buf;
}

std::string describe_cell(const CostGrid& grid, NodeId cell) {
  const glm::ivec2 c = grid.cell(cell);
  return "cell (" + std::to_string(c.x) + ", " + std::to_string(c.y) + ")";
}

}  // namespace

std::optional<GridEndpoints> resolve_grid_query(const PlanningWorld& world, std::size_t movement_class,
                                                const PathQuery& query, PathResult& result) {
  const CostGrid& grid = world.grid(movement_class);
  const std::string& class_name = world.scenario().classes[movement_class].name;
  GridEndpoints ends;
  const Vec2 points[2] = {query.start, query.goal};
  const char* names[2] = {"start", "goal"};
  NodeId* cells[2] = {&ends.start, &ends.goal};
  for (int k = 0; k < 2; ++k) {
    const auto cell = grid.cell_at(points[k]);
    if (!cell) {
      result.status = SearchStatus::Invalid;
      result.message = describe_point(names[k], points[k]) + " is outside the map";
      return std::nullopt;
    }
    if (!grid.passable(*cell)) {
      const TerrainType& t = world.scenario().terrains[world.raster().terrain(*cell)];
      result.status = SearchStatus::Invalid;
      result.message = describe_point(names[k], points[k]) + " is inside " + describe_cell(grid, *cell) +
                       " (terrain \"" + t.name + "\"), which class \"" + class_name + "\" cannot enter";
      return std::nullopt;
    }
    *cells[k] = *cell;
  }
  const RegionMap& regions = world.regions(movement_class);
  if (!regions.connected(ends.start, ends.goal)) {
    result.status = SearchStatus::NoPath;
    result.message = "start and goal are in different connected regions (" +
                     std::to_string(regions.region(ends.start)) + " and " +
                     std::to_string(regions.region(ends.goal)) + ") for class \"" + class_name + "\"";
    return std::nullopt;
  }
  return ends;
}

void finish_grid_path(const CostGrid& grid, const PathQuery& query, std::vector<NodeId> nodes,
                      std::span<const std::uint8_t> dirs, PathResult& result,
                      std::vector<double>* cumulative) {
  const std::size_t n = nodes.size();
  if (cumulative) cumulative->assign(n, 0.0);
  double cost_cells = 0;
  // Start, the interior cells' centres, goal: n points, and at least the two ends.
  std::vector<Vec2>& points = result.points;
  points.resize(std::max<std::size_t>(n, 2));
  points.front() = query.start;
  points.back() = query.goal;
  // Each move's direction as given, or from the index difference (distinct for the 8
  // directions on grids 3 or more cells wide), the cell followed by its coordinates: no
  // division per cell. Interior points are the cell centres, computed as CostGrid::center()
  // does.
  const auto& offsets = grid.offsets();
  const bool given = !dirs.empty();
  const bool by_offset = grid.width() >= 3;
  const double s = grid.cell_size();
  // On a grid of one multiplier m every move costs its length times 0.5 (m + m), which
  // is what move_cost() computes, without reading the two cells' multipliers.
  const bool uniform = grid.uniform_cost();
  const double mean = 0.5 * (grid.min_multiplier() + grid.min_multiplier());
  // With cells a power of two wide, centres are exact multiples of s / 2, so the leg
  // between two interior points is exactly s or s sqrt 2 (sqrt(2 s^2) rounds as sqrt 2
  // does, times the power of two): the length is summed here, leg by leg in order, to the
  // same bits as polyline_length(), without a square root per cell.
  int exponent = 0;
  const bool exact_legs = std::frexp(s, &exponent) == 0.5;
  const auto leg = [](Vec2 from, Vec2 to) {
    const Vec2 d = to - from;
    return std::sqrt(d.x * d.x + d.y * d.y);
  };
  double length = 0;
  glm::ivec2 a = n == 0 ? glm::ivec2{0, 0} : grid.cell(nodes[0]);
  for (std::size_t i = 1; i < n; ++i) {
    int dir = 0;
    if (given) {
      dir = dirs[i - 1];
    } else if (by_offset) {
      const std::int64_t step = std::int64_t(nodes[i]) - std::int64_t(nodes[i - 1]);
      while (offsets[std::size_t(dir)] != step) ++dir;
    } else {
      const glm::ivec2 b = grid.cell(nodes[i]);
      while (kDirDx[std::size_t(dir)] != b.x - a.x || kDirDy[std::size_t(dir)] != b.y - a.y) ++dir;
    }
    a += glm::ivec2{kDirDx[std::size_t(dir)], kDirDy[std::size_t(dir)]};
    cost_cells += uniform ? kDirLength[std::size_t(dir)] * mean : grid.move_cost(nodes[i - 1], dir);
    if (cumulative) (*cumulative)[i] = cost_cells * s;
    if (i + 1 < n) {
      const Vec2 p{(a.x + 0.5) * s, (a.y + 0.5) * s};
      if (exact_legs) length += i == 1 ? leg(query.start, p) : kDirLength[std::size_t(dir)] * s;
      points[i] = p;
    }
  }
  if (exact_legs) length += leg(points[points.size() - 2], query.goal);
  result.nodes = std::move(nodes);
  result.cost = cost_cells * grid.cell_size();
  result.length = exact_legs ? length : polyline_length(result.points);
  result.status = SearchStatus::Found;
}

}  // namespace pathscope
