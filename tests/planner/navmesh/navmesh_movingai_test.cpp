// The navmesh planner on the shared Moving AI maps (../shared/benchmarks/movingai), radius
// 0: every problem is found, its path is legal (every leg clear of blocked cells, checked
// by the test's own segment-cell test), never shorter than the straight line, and at most
// kRatio times the stored optimum of grid A* (octile lengths; the navmesh's any-angle
// paths are usually shorter). Small maps in the unit tier, a sample of every map in slow.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "planner/core/planner_registry.hpp"
#include "planner/scenario/movingai.hpp"
#include "planner/world/planning_world.hpp"
#include "tests/benchmark_files.hpp"
#include "tests/planner/navmesh/navmesh_test_support.hpp"

using namespace pathscope;

namespace {

// The longest path allowed, as a multiple of grid A*'s optimal length (README).
constexpr double kRatio = 1.10;

struct Figures {
  std::size_t problems = 0;
  double worst_ratio = 0;
};

// Every `every`-th problem of one .scen file (and its last).
Figures check_file(const std::string& name, std::size_t every) {
  Figures f;
  const std::filesystem::path scen = std::filesystem::path(PATHSCOPE_BENCHMARKS_DIR) / name;
  auto problems = load_movingai_scen(scen);
  REQUIRE(problems.ok());
  auto map = load_movingai_map(scen_map_path(scen, problems->front()));
  REQUIRE(map.ok());
  const Scenario s = movingai_to_scenario(*map);
  const PlanningWorld world(s);
  auto planner = test::make_planner(world, "navmesh", {{"radius", 0}});
  REQUIRE(planner != nullptr);
  for (std::size_t i = 0; i < problems->size(); i += (i + 1 == problems->size() ? 1 : every)) {
    const MovingAiProblem& p = (*problems)[i];
    const PathQuery q{(Vec2(p.start) + 0.5) * s.world.cell_size, (Vec2(p.goal) + 0.5) * s.world.cell_size};
    const PathResult& r = find_path(*planner, q);
    CAPTURE(name);
    CAPTURE(p.line);
    CAPTURE(r.message);
    REQUIRE(r.status == SearchStatus::Found);
    for (std::size_t k = 0; k + 1 < r.points.size(); ++k) {
      const auto cell = test::blocked_cell_on_segment(s, r.points[k], r.points[k + 1]);
      CAPTURE(k);
      CHECK(cell.first == -1);
    }
    const double straight = std::hypot(q.goal.x - q.start.x, q.goal.y - q.start.y);
    CHECK(r.length >= straight - 1e-6);
    CHECK(r.length <= kRatio * p.optimal_length + p.tolerance);
    if (p.optimal_length > 0) f.worst_ratio = std::max(f.worst_ratio, r.length / p.optimal_length);
    ++f.problems;
    if (i + 1 == problems->size()) break;
  }
  MESSAGE(name << ": " << f.problems << " problems, longest path " << f.worst_ratio << " x the optimum");
  return f;
}

}  // namespace

TEST_SUITE("navmesh") {
  TEST_CASE("Moving AI, two small maps: legal, found, between the straight line and the optimum's ratio") {
    PATHSCOPE_SKIP_WITHOUT_BENCHMARKS();
    CHECK(check_file("den312d.map.scen", 8).problems >= 40);
    CHECK(check_file("random-32-32-20-random-1.scen", 10).problems >= 40);
  }

  TEST_CASE("Moving AI, a sample of every map: legal, found, within the ratio" *
            doctest::test_suite("slow")) {
    PATHSCOPE_SKIP_WITHOUT_BENCHMARKS();
    auto files = collect_scen_files({PATHSCOPE_BENCHMARKS_DIR});
    REQUIRE(files.ok());
    // Every 40th problem of every map but the maze: the 512 x 512 maze alone takes 88 s
    // in release (its corridors one cell wide make a polygon of nearly every cell).
    std::size_t checked = 0;
    for (const auto& scen : *files) {
      if (scen.filename().string().starts_with("maze")) continue;
      checked += check_file(scen.filename().string(), 40).problems;
    }
    CHECK(checked > 300);
  }
}  // TEST_SUITE
