#pragma once

// What every grid planner does around its search: map a world-space query onto cells,
// reject impossible queries before searching, and turn a cell path into a PathResult.

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "planner/core/search.hpp"
#include "planner/world/planning_world.hpp"

namespace pathscope {

/// Start and goal cells of a query.
struct GridEndpoints {
  NodeId start = kNoNode;
  NodeId goal = kNoNode;
};

/// Maps the query onto cells of `world.grid(movement_class)`. When the query cannot be
/// searched, sets result.status (Invalid: outside the map or inside a blocked cell;
/// NoPath: different connected regions, decided without searching) and result.message,
/// and returns nullopt.
std::optional<GridEndpoints> resolve_grid_query(const PlanningWorld& world, std::size_t movement_class,
                                                const PathQuery& query, PathResult& result);

/// Fills result.nodes/points/cost/length from a cell path (start cell to goal cell) and
/// sets status Found. Points run from the exact query start through interior cell centres
/// to the exact query goal. Cost (metres) is summed along the path from the start, so
/// every grid planner reports the same cost for the same path, bit for bit. `dirs`, when
/// not empty, holds each move's direction (kDirDx order; dirs[i - 1] leads from nodes[i - 1]
/// to nodes[i]) as the planner that built the path knows them; when empty they are found
/// from the cells. When `cumulative` is not null it receives the cost (metres) from the
/// start at each node.
void finish_grid_path(const CostGrid& grid, const PathQuery& query, std::vector<NodeId> nodes,
                      std::span<const std::uint8_t> dirs, PathResult& result,
                      std::vector<double>* cumulative);

/// Octile distance in cells between cell coordinates.
inline double octile_cells(int ax, int ay, int bx, int by) {
  const int dx = ax > bx ? ax - bx : bx - ax;
  const int dy = ay > by ? ay - by : by - ay;
  const int lo = dx < dy ? dx : dy, hi = dx < dy ? dy : dx;
  return double(hi - lo) + kSqrt2 * double(lo);
}

/// Octile distance in cells between two cells.
inline double octile_cells(const CostGrid& grid, NodeId a, NodeId b) {
  const glm::ivec2 ca = grid.cell(a), cb = grid.cell(b);
  const int dx = ca.x > cb.x ? ca.x - cb.x : cb.x - ca.x;
  const int dy = ca.y > cb.y ? ca.y - cb.y : cb.y - ca.y;
  const int lo = dx < dy ? dx : dy, hi = dx < dy ? dy : dx;
  return double(hi - lo) + kSqrt2 * double(lo);
}

}  // namespace pathscope
