#pragma once

// What the jump point search tests share: a registered planner by name, and one query
// checked against grid A* (same status, message, cost and length; the path a chain of
// legal moves from the start cell to the goal cell whose move costs add up to its cost).

#include <doctest/doctest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "planner/core/planner_registry.hpp"
#include "planner/world/planning_world.hpp"
#include "tests/test_maps.hpp"

namespace pathscope::test {

inline std::unique_ptr<Planner> make_planner(const PlanningWorld& world, const std::string& name) {
  const PlannerInfo* info = find_planner(name);
  REQUIRE(info != nullptr);
  return info->create(QueryContext{world, 0, std::nullopt, {}});
}

/// Runs one query on `jump` and on `astar` and checks that they agree.
inline void check_same_as_astar(const PlanningWorld& world, Planner& jump, Planner& astar, glm::ivec2 s,
                                glm::ivec2 g) {
  const PathQuery q{cell_center(world.scenario(), s.x, s.y), cell_center(world.scenario(), g.x, g.y)};
  const PathResult& a = find_path(astar, q);
  const PathResult& j = find_path(jump, q);
  INFO(std::string(jump.name()) << " from (" << s.x << ", " << s.y << ") to (" << g.x << ", " << g.y << ")");
  REQUIRE(j.status == a.status);
  CHECK(j.message == a.message);
  if (a.status != SearchStatus::Found) return;
  CHECK(std::abs(j.cost - a.cost) <= 1e-9);
  CHECK(std::abs(j.length - a.length) <= 1e-9);
  const CostGrid& grid = world.grid(0);
  REQUIRE(!j.nodes.empty());
  CHECK(j.nodes.front() == grid.index(s.x, s.y));
  CHECK(j.nodes.back() == grid.index(g.x, g.y));
  double cells = 0;
  for (std::size_t i = 1; i < j.nodes.size(); ++i) {
    const glm::ivec2 p = grid.cell(j.nodes[i - 1]), c = grid.cell(j.nodes[i]);
    int d = 0;
    while (d < 8 && (kDirDx[d] != c.x - p.x || kDirDy[d] != c.y - p.y)) ++d;
    REQUIRE(d < 8);
    CHECK((grid.moves(j.nodes[i - 1]) >> d & 1u) == 1u);
    cells += grid.move_cost(j.nodes[i - 1], d);
  }
  CHECK(std::abs(cells * grid.cell_size() - j.cost) <= 1e-9);
}

/// Every pair of cells of a small map (walls included: both refuse alike), for each of
/// `planners` against grid A*.
inline void check_all_pairs(const std::vector<std::string>& rows, const std::vector<std::string>& planners) {
  const PlanningWorld world(ascii_scenario(rows));
  auto astar = make_planner(world, "astar");
  const int w = int(rows.front().size()), h = int(rows.size());
  for (const std::string& name : planners) {
    auto jump = make_planner(world, name);
    for (int sy = 0; sy < h; ++sy) {
      for (int sx = 0; sx < w; ++sx) {
        for (int gy = 0; gy < h; ++gy) {
          for (int gx = 0; gx < w; ++gx) check_same_as_astar(world, *jump, *astar, {sx, sy}, {gx, gy});
        }
      }
    }
  }
}

}  // namespace pathscope::test
