#include "planner/sim/passages.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <glm/geometric.hpp>

#include "planner/sim/sim_cases.hpp"
#include "planner/sim/simulation.hpp"
#include "planner/sim/simulation_impl.hpp"
#include "planner/sim/unit_motion.hpp"
#include "planner/world/planning_world.hpp"
#include "tests/planner/sim/sim_test_support.hpp"
#include "tests/test_maps.hpp"

namespace pathscope::sim {

namespace {

using test_support::open_rows;
using test_support::step_checked;

// The width of every cell from its free runs, found by walking from it both ways along
// each of the four lines (brute force; the map finds them with one pass per line).
std::vector<float> brute_widths(const CostGrid& grid) {
  std::vector<float> out(grid.cell_count(), 0.0f);
  const glm::ivec2 dirs[4] = {{1, 0}, {0, 1}, {1, 1}, {1, -1}};
  auto same = [&](int x, int y, std::uint16_t key) {
    if (!grid.in_bounds(x, y)) return false;
    const std::uint32_t c = grid.index(x, y);
    return grid.passable(c) && grid.move_key(c) == key;
  };
  for (std::uint32_t i = 0; i < grid.cell_count(); ++i) {
    if (!grid.passable(i)) continue;
    const glm::ivec2 p = grid.cell(i);
    const std::uint16_t key = grid.move_key(i);
    float straight = INFINITY, diagonal = INFINITY;
    for (const glm::ivec2 d : dirs) {
      int n = 1;
      for (int sign : {1, -1}) {
        glm::ivec2 q = p;
        while (true) {
          const glm::ivec2 r = q + d * sign;
          const bool ok =
              same(r.x, r.y, key) && (d.x == 0 || d.y == 0 || (same(r.x, q.y, key) && same(q.x, r.y, key)));
          if (!ok) break;
          q = r;
          ++n;
        }
      }
      const double step = grid.cell_size() * std::sqrt(double(d.x * d.x + d.y * d.y));
      float& run = d.x != 0 && d.y != 0 ? diagonal : straight;
      run = std::min(run, static_cast<float>(n * step));
    }
    out[i] = std::min(straight, std::max(diagonal, straight * static_cast<float>(std::sqrt(0.5))));
  }
  return out;
}

}  // namespace

TEST_CASE("passages: every cell's width equals a brute-force walk, on random maps") {
  std::mt19937_64 rng(2026);
  for (int round = 0; round < 20; ++round) {
    const Scenario s = test::ascii_scenario(
        test::random_rows(rng, 23 + round, 17 + round % 5, 0.1 + 0.02 * round, round % 2 == 1));
    const PlanningWorld world(s);
    const CostGrid& grid = world.grid(0);
    const PassageMap map(grid, PassageRules{});
    const std::vector<float> expected = brute_widths(grid);
    REQUIRE(map.widths().size() == expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
      CHECK(map.widths()[i] == doctest::Approx(expected[i]).epsilon(1e-6));
    }
    // Every narrow cell of a short enough group is in a passage; no other cell is.
    for (std::uint32_t i = 0; i < grid.cell_count(); ++i) {
      if (map.passage_of(i)) CHECK(static_cast<double>(map.widths()[i]) <= PassageRules{}.max_width + 1e-9);
    }
  }
}

TEST_CASE("passages: a gap in a wall is one passage, open ground and long corridors are none") {
  SUBCASE("the crossing's gap") {
    const Scenario s = crossing_case(10);
    const PlanningWorld world(s);
    const PassageMap map(world.grid(0), PassageRules{});
    REQUIRE(map.passages().size() == 1);
    const Passage& p = map.passages()[0];
    // The wall is two cells thick with a four-metre gap: eight cells.
    CHECK(p.cells.size() == 8);
    CHECK(p.bounds.hi.x - p.bounds.lo.x == doctest::Approx(2));
    CHECK(p.bounds.hi.y - p.bounds.lo.y == doctest::Approx(4));
  }
  SUBCASE("open ground") {
    const Scenario s = test::ascii_scenario(open_rows(30, 20));
    const PlanningWorld world(s);
    CHECK(PassageMap(world.grid(0), PassageRules{}).passages().empty());
  }
  SUBCASE("a corridor longer than max_length is left out, a shorter one kept") {
    std::vector<std::string> rows = open_rows(80, 9);
    for (int x = 10; x < 70; ++x) {
      for (int y : {0, 1, 2, 6, 7, 8}) rows[std::size_t(y)][std::size_t(x)] = '#';
    }
    const Scenario s = test::ascii_scenario(rows);
    const PlanningWorld world(s);
    PassageRules rules;
    rules.max_length = 48;
    CHECK(PassageMap(world.grid(0), rules).passages().empty());  // 60 m long
    rules.max_length = 64;
    const PassageMap kept(world.grid(0), rules);
    REQUIRE(kept.passages().size() == 1);
    CHECK(kept.passages()[0].cells.size() == 60 * 3);
  }
}

TEST_CASE("passages: two groups crossing through a gap take turns, and all arrive") {
  Scenario s = crossing_case(10);
  Simulation sim(s);
  SimReferee referee;
  int both_ways_inside = 0;
  bool waited = false, held = false;
  for (int i = 0; i < 180 * 30 && sim.arrived_count() < sim.ordered_count(); ++i) {
    step_checked(sim, referee);
    const auto passages = sim.passages(0);
    REQUIRE(passages.size() == 1);
    held = held || passages[0].held;
    const CostGrid& grid = sim.world().grid(0);
    bool east = false, west = false;
    for (const SimUnit& u : sim.slots()) {
      waited = waited || u.waits.passage;
      const auto cell = grid.cell_at(u.body.position);
      if (!cell || !std::binary_search(passages[0].cells.begin(), passages[0].cells.end(), *cell)) continue;
      if (u.body.speed < 0.2) continue;
      (direction(u.body.heading).x > 0 ? east : west) = true;
    }
    both_ways_inside += east && west ? 1 : 0;
  }
  CHECK(waited);
  CHECK(held);
  CHECK(sim.arrived_count() == sim.ordered_count());
  CHECK(referee.counts().hard_overlaps == 0);
  CHECK(both_ways_inside == 0);
}

TEST_CASE("passages: a crowd stepping aside to wait keeps its place in the queue, and the turn passes" *
          doctest::test_suite("sim-long")) {
  // 40 a side: the waiting side's units all step clear of the way out at times. Its turn
  // must still come (the queue used to start again then, and the first side kept the
  // passage for minutes).
  Scenario s = crossing_case(40);
  Simulation sim(s);
  SimReferee referee;
  int turns = 0;
  double first_turn = -1;
  Vec2 last{0, 0};
  for (int i = 0; i < 300 * 30 && sim.arrived_count() < sim.ordered_count(); ++i) {
    step_checked(sim, referee);
    const Passage& p = sim.passages(0)[0];
    if (!p.held) continue;
    if (last != Vec2{0, 0} && glm::dot(p.flow, last) < 0) {
      ++turns;
      if (first_turn < 0) first_turn = sim.time();
    }
    last = p.flow;
  }
  CHECK(turns >= 2);
  CHECK(first_turn > 0);
  CHECK(first_turn < 120);                            // at 144 s without the fix (about 64 s now)
  CHECK(sim.arrived_count() == sim.ordered_count());  // by 300 s (about 190)
  CHECK(referee.counts().hard_overlaps == 0);
}

TEST_CASE("passages: a crowd going through keeps its turn longer than a trickle" *
          doctest::test_suite("sim-long")) {
  // 40 a side: while more than PassageRules::trickle units are inside, the holding side
  // is still granted the passage after the other side has waited turn_seconds (until
  // crowd_turn_seconds); a trickle would have been stopped at turn_seconds.
  const PassageRules rules;
  REQUIRE(rules.crowd_turn_seconds > rules.turn_seconds);
  Simulation sim(crossing_case(40));
  SimReferee referee;
  bool entered_late = false;  // a unit of the holding side went in after turn_seconds
  std::uint32_t inside_before = 0;
  Vec2 flow_before{0, 0};
  for (int i = 0; i < 300 * 30 && sim.arrived_count() < sim.ordered_count(); ++i) {
    step_checked(sim, referee);
    const Passage& p = sim.passages(0)[0];
    const double waited = sim.time() - p.queued_since;
    if (p.held && p.queued && p.flow == flow_before && p.inside > inside_before &&
        inside_before > rules.trickle && waited > rules.turn_seconds + 0.5) {
      entered_late = true;
      CHECK(waited <= rules.crowd_turn_seconds + 0.5);
    }
    inside_before = p.held ? p.inside : 0;
    flow_before = p.flow;
  }
  CHECK(entered_late);
  CHECK(sim.arrived_count() == sim.ordered_count());
  CHECK(referee.counts().hard_overlaps == 0);
}

TEST_CASE("passages: waiting units step off the ways out, so 50 a side swap through one gap" *
          doctest::test_suite("sim-long")) {
  // Each side's goals lie where the other side waits: the waiting side steps off the
  // paths of those coming through (and 6 m round the held passage), or both lock.
  Simulation sim(crossing_case(50));
  SimReferee referee;
  bool stepped_off = false;
  for (int i = 0; i < 600 * 30 && sim.arrived_count() < sim.ordered_count(); ++i) {
    step_checked(sim, referee);
    const Passage& p = sim.passages(0)[0];
    for (const SimUnit& u : sim.slots()) {
      // Waiting, and sent to a spot farther than the line rule's (half the gap's width
      // and a radius off the line through it): off a claimed way or out of the mouth.
      if (!p.held || !u.waits.passage || u.coop.yield != Yield::MoveAside) continue;
      const Vec2 nearest = glm::clamp(u.coop.aside, p.bounds.lo, p.bounds.hi);
      stepped_off = stepped_off || glm::length(u.coop.aside - nearest) >= 6.0;
    }
  }
  CHECK(stepped_off);
  // All of them, by 600 s (202 s; 99 of 100 before cooperation's case 3 was the
  // mover's in either slot, 46 before the ways were claimed).
  CHECK(sim.arrived_count() == sim.ordered_count());
  CHECK(referee.counts().hard_overlaps == 0);
}

TEST_CASE(
    "passages: out of a passage a path runs straight on before it turns, unless its goal is by the mouth") {
  // One unit through the gap to a goal up and to the right: its path leaves the gap and
  // runs 8 m (kExitRun) along the way it came out before it turns, past where units
  // waiting for the gap stand; a goal within those 8 m gets no run; off with passages.
  const auto path_of = [](Vec2 goal, bool passages) {
    Scenario s = crossing_case(1);
    s.units.resize(1);
    s.units[0].order.points = {goal};
    s.sim.passages = passages;
    Simulation sim(s);
    for (int i = 0; i < 3 && sim.slots()[0].route.path.empty(); ++i) sim.step();
    return std::pair{sim.slots()[0].route.path, sim.world().scenario().world};
  };
  const auto [base, world] = path_of({0, 0}, true);
  REQUIRE_FALSE(base.empty());
  const double gap_x = std::floor(world.width / 2) + 1;  // the wall's east face
  const auto run_in = [&](const std::vector<Vec2>& path) {
    for (std::size_t i = 1; i < path.size(); ++i) {
      const Vec2 d = path[i] - path[i - 1];
      if (path[i - 1].x >= gap_x - 0.5 && std::abs(glm::length(d) - kExitRun) < 1e-9)
        return d / glm::length(d);
    }
    return Vec2{0, 0};
  };
  const Vec2 far_goal{world.width - 3, 3};
  const auto [with_run, w1] = path_of(far_goal, true);
  const Vec2 dir = run_in(with_run);
  CHECK(dir.x > 0.99);  // straight on, east, as it left the gap
  CHECK(with_run.back() == far_goal);
  const auto [without, w2] = path_of(far_goal, false);
  CHECK(run_in(without) == Vec2{0, 0});
  const auto [near_goal, w3] = path_of({gap_x + 4, world.height / 2 + 5}, true);
  CHECK(run_in(near_goal) == Vec2{0, 0});
}

TEST_CASE("passages: closing a gap units came through a moment ago leaves no stale passage behind") {
  // Passages are numbered again after a world change: a unit's last passage must not
  // name one of the old map's.
  Simulation sim(crossing_case(10));
  SimReferee referee;
  bool through = false;
  for (int i = 0; i < 60 * 30 && !through; ++i) {
    step_checked(sim, referee);
    const Passage& p = sim.passages(0)[0];
    through = p.held && p.inside > 0;
  }
  REQUIRE(through);
  for (int i = 0; i < 30; ++i) step_checked(sim, referee);  // some are out, still holding it for their side
  Scenario closed = sim.scenario();
  closed.features[0].shape.max.y = closed.world.height;  // the wall across the gap
  REQUIRE(sim.update_world(closed));
  for (int i = 0; i < 300; ++i) step_checked(sim, referee);
  CHECK(sim.passages(0).empty());
  CHECK(referee.counts().hard_overlaps == 0);
}

TEST_CASE("passages: off in the settings, nobody waits, a world change finds them again") {
  Scenario s = crossing_case(5);
  s.sim.passages = false;
  {
    Simulation sim(s);
    for (int i = 0; i < 300; ++i) {
      sim.step();
      for (const SimUnit& u : sim.slots()) REQUIRE_FALSE(u.waits.passage);
    }
    CHECK(sim.passages(0).empty());
  }
  s.sim.passages = true;
  Simulation sim(s);
  sim.step();
  CHECK(sim.passages(0).size() == 1);
  // Close the gap: the next step finds no passage.
  Scenario closed = sim.scenario();
  for (Feature& f : closed.features) f.shape.max.y = std::max(f.shape.max.y, f.shape.min.y);
  closed.features[0].shape.max.y = closed.world.height;
  REQUIRE(sim.update_world(closed));
  sim.step();
  CHECK(sim.passages(0).empty());
}

TEST_CASE("passages: the funnel case sends one group through the gap, nobody waits for a turn, all arrive") {
  const Scenario s = funnel_case(30);
  REQUIRE(s.units.size() == 30);
  for (const Unit& u : s.units) {
    CHECK(u.faction == "blue");
    CHECK(u.position.x < s.world.width / 2 - 1);            // left of the wall
    CHECK(u.order.points.at(0).x > s.world.width / 2 + 1);  // ordered to its right
  }
  Simulation sim(s);
  SimReferee referee;
  bool waited = false, held_east = false;
  for (int i = 0; i < 300 * 30 && sim.arrived_count() < sim.ordered_count(); ++i) {
    step_checked(sim, referee);
    const Passage& p = sim.passages(0)[0];
    held_east = held_east || (p.held && p.flow.x > 0);
    for (const SimUnit& u : sim.slots()) waited = waited || u.waits.passage;
  }
  CHECK(held_east);
  CHECK_FALSE(waited);
  CHECK(sim.arrived_count() == 30);
  CHECK(referee.counts().hard_overlaps == 0);
}

}  // namespace pathscope::sim
