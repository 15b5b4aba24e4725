#include "planner/grid/grid_query.hpp"

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

std::vector<double> finish_grid_path(const CostGrid& grid, const PathQuery& query, std::vector<NodeId> nodes,
                                     PathResult& result) {
  std::vector<double> cumulative(nodes.size(), 0.0);
  double cost_cells = 0;
  for (std::size_t i = 1; i < nodes.size(); ++i) {
    const glm::ivec2 a = grid.cell(nodes[i - 1]), b = grid.cell(nodes[i]);
    int dir = 0;
    while (kDirDx[dir] != b.x - a.x || kDirDy[dir] != b.y - a.y) ++dir;
    cost_cells += grid.move_cost(nodes[i - 1], dir);
    cumulative[i] = cost_cells * grid.cell_size();
  }
  result.points.clear();
  result.points.reserve(nodes.size() + 1);
  result.points.push_back(query.start);
  for (std::size_t i = 1; i + 1 < nodes.size(); ++i) result.points.push_back(grid.center(nodes[i]));
  result.points.push_back(query.goal);
  result.nodes = std::move(nodes);
  result.cost = cost_cells * grid.cell_size();
  result.length = polyline_length(result.points);
  result.status = SearchStatus::Found;
  return cumulative;
}

}  // namespace pathscope
