// Ground truth: Moving AI optimal lengths (../shared/benchmarks/movingai). This test runs
// a deterministic sample of every file through the library, so it also runs in the
// sanitizer build; the full 25,587 problems run through `pathscope movingai` in CTest.

#include <doctest/doctest.h>

#include <cmath>

#include "planner/core/planner_registry.hpp"
#include "planner/scenario/movingai.hpp"
#include "planner/world/planning_world.hpp"
#include "tests/benchmark_files.hpp"

using namespace pathscope;

TEST_SUITE("ground_truth") {
  TEST_CASE("exact planners match the Moving AI optimal lengths on a sample of every map" *
            doctest::test_suite("slow")) {
    PATHSCOPE_SKIP_WITHOUT_BENCHMARKS();
    auto files = collect_scen_files({PATHSCOPE_BENCHMARKS_DIR});
    REQUIRE(files.ok());
    REQUIRE(files->size() == 12);
    std::size_t checked = 0;
    for (const auto& scen : *files) {
      auto problems = load_movingai_scen(scen);
      REQUIRE(problems.ok());
      auto map = load_movingai_map(scen_map_path(scen, problems->front()));
      REQUIRE(map.ok());
      const PlanningWorld world(movingai_to_scenario(*map));
      for (const char* name : {"astar", "bidirectional", "dijkstra", "jps"}) {
        auto planner = find_planner(name)->create(QueryContext{world, 0, std::nullopt, {}});
        // Every 40th problem, plus the last (usually among the longest).
        for (std::size_t i = 0; i < problems->size(); i += (i + 1 == problems->size() ? 1 : 40)) {
          const MovingAiProblem& p = (*problems)[i];
          const PathResult& r = find_path(*planner, {Vec2(p.start) + 0.5, Vec2(p.goal) + 0.5});
          CAPTURE(scen.filename().string());
          CAPTURE(p.line);
          CAPTURE(std::string(name));
          REQUIRE(r.status == SearchStatus::Found);
          CHECK(std::abs(r.length - p.optimal_length) <= p.tolerance);
          ++checked;
          if (i + 1 == problems->size()) break;
        }
      }
    }
    CHECK(checked > 1500);
  }

}  // TEST_SUITE
