// Claiming the way out of a held passage (Simulation::claim_ways): the work of a step is
// bounded by the grid, not by the class's hard radius.

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "planner/scenario/scenario_validate.hpp"
#include "planner/sim/simulation.hpp"
#include "tests/test_maps.hpp"

namespace pathscope::sim {

TEST_CASE("passage claims: a class of the largest hard radius on a fine grid steps quickly") {
  // 24 m square of 0.125 m cells. With a 64 m hard radius the whole world is one narrow
  // passage, the unit inside holds it, and each point of its way claims every cell within
  // 2 x 64 m: about a thousand cells either side, the grid being 192 cells a side.
  constexpr int kCells = 192;
  Scenario s = test::ascii_scenario(std::vector<std::string>(kCells, std::string(kCells, '.')), 0.125);
  s.classes[0].hard_radius = 64;
  Faction blue;
  blue.name = "blue";
  s.factions.push_back(blue);
  s.units = {test::unit_at(1, {2, 2}, test::move_to({22, 21}))};
  s.units[0].faction = "blue";
  const Status valid = validate_scenario(s);
  REQUIRE_MESSAGE(valid.ok(), (valid ? std::string() : valid.error().to_string()));

  // No timed assertion: the unit tier's timeout (120 s) bounds the case. Walking the whole
  // square per point took about 1.75 s a step here (175 s for these 100 steps); clipped
  // to the grid, a step takes milliseconds.
  Simulation sim(s);
  const auto begin = std::chrono::steady_clock::now();
  bool claimed = false;
  for (int i = 0; i < 100; ++i) {
    sim.step();
    const auto cells = sim.claimed_cells(0);
    claimed = claimed || std::any_of(cells.begin(), cells.end(), [](std::uint8_t c) { return c != 0; });
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  CHECK(claimed);  // the way was claimed: the loop this case is about ran
  // Every cell lies within the reach of the way, so all are claimed.
  const auto cells = sim.claimed_cells(0);
  CHECK(std::all_of(cells.begin(), cells.end(), [](std::uint8_t c) { return c != 0; }));
  MESSAGE("100 steps took " << seconds << " s");
}

}  // namespace pathscope::sim
