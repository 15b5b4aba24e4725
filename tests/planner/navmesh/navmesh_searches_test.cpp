// The navmesh planner's further searches on weighted ground (NavmeshPlannerParams::searches):
// Detour's one search found corridors through slow polygons the cheapest path goes round,
// on conformance worlds 206 (1.8144 x the cheapest cell-centre moves keeping the radius)
// and 401 (2.1156), above the bound the planner declares (1.65). With the further searches,
// whose corridors are costed with the slow areas dearer, the cheapest path by the world's
// cost is kept and both worlds meet the bound; with one search they do not.

#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "planner/core/planner_registry.hpp"
#include "planner/referee/conformance.hpp"

namespace pathscope {
namespace navmesh_searches_test {

// Grid A* (the suite's reference), the registered navmesh, and the navmesh limited to
// Detour's query alone (one search, Detour's string pulling), registered under another name.
std::vector<PlannerInfo> registry() {
  const PlannerInfo* astar = find_planner("astar");
  const PlannerInfo* navmesh = find_planner("navmesh");
  REQUIRE(astar != nullptr);
  REQUIRE(navmesh != nullptr);
  PlannerInfo one = *navmesh;
  one.name = "navmesh_one_search";
  int found = 0;
  for (ParamSpec& p : one.params) {
    if (p.name != "searches" && p.name != "weighted_pull") continue;
    p.default_value = p.name == "searches" ? 1 : 0;
    ++found;
  }
  REQUIRE(found == 2);
  return {*astar, *navmesh, one};
}

// The suite's run on world `seed` (6 queries, as `pathscope bench conformance`): the worst
// ratio of the navmesh's cost to the reference is `worst`, and with Detour's query alone
// `worst_alone` (planner/referee/README.md), each within 0.5%.
void check_world(std::uint64_t seed, double worst, double worst_alone) {
  const std::vector<PlannerInfo> r = registry();
  const auto report = referee::run_conformance(r, {seed, 1, 6, 4});
  REQUIRE(report.size() == 3);
  const referee::PlannerConformance& navmesh = report[1];
  const referee::PlannerConformance& one = report[2];
  for (const std::string& e : navmesh.examples) MESSAGE(e);
  CHECK(navmesh.bound == 1.65);
  CHECK(navmesh.bound_checked > 0);
  CHECK(navmesh.over_bound == 0);
  CHECK(navmesh.worst_ratio <= navmesh.bound);
  CHECK(navmesh.worst_ratio == doctest::Approx(worst).epsilon(0.005));
  CHECK(navmesh.violations() == 0);
  // Detour's query alone: above the bound.
  CHECK(one.over_bound == 1);
  CHECK(one.worst_ratio == doctest::Approx(worst_alone).epsilon(0.005));
}

}  // namespace navmesh_searches_test

TEST_CASE("navmesh: further searches go round slow ground Detour's corridor crossed (world 206)") {
  // Query 0, (5.5, 13.5) -> (5.5, 18.5), starts in a slow block: 1.8144 before, now 1.0510
  // (another query of the world is its worst).
  navmesh_searches_test::check_world(206, 1.1264, 1.8144);
}

TEST_CASE("navmesh: further searches go round slow ground Detour's corridor crossed (world 401)") {
  // Query 3, (1.5, 10.5) -> (9.5, 5.5), ends in a slow polygon touching the start's.
  navmesh_searches_test::check_world(401, 1.2955, 2.1156);
}

}  // namespace pathscope
