// Listing 1's state loop and the moves called directly, as components (state_loop.hpp,
// moves.hpp), on hand-built units: path requests handed back to the step, predictions,
// patrol turns, yields ending; moves that stop at a unit or a wall.
// Expectations are worked out here from the seed's rules, not by the code under test.

#include <cmath>
#include <numbers>
#include <string>
#include <utility>
#include <vector>

#include <doctest/doctest.h>
#include <glm/geometric.hpp>

#include "planner/sim/moves.hpp"
#include "planner/sim/simulation_impl.hpp"
#include "planner/sim/state_loop.hpp"
#include "planner/world/planning_world.hpp"
#include "tests/planner/sim/sim_test_support.hpp"
#include "tests/test_maps.hpp"

namespace pathscope::sim {

namespace state_loop_component_test {

// An open 40 x 20 m world, one class, and everything run_state_loops reads.
struct Bench {
  PlanningWorld world{test::ascii_scenario(test_support::open_rows(40, 20))};
  const CostGrid* grids[1] = {&world.grid(0)};
  Motion motions[1] = {Motion{}};
  SimSettings set;
  std::vector<SimUnit> units;
  std::vector<UnitPrivate> extra;
  StateLoopOutcome out;

  SimUnit& add(Vec2 at, double heading) {
    SimUnit u;
    u.id = UnitId{static_cast<std::uint32_t>(units.size()), 0};
    u.alive = true;
    u.body.position = u.body.previous = at;
    u.body.heading = heading;
    units.push_back(u);
    UnitPrivate x;
    x.move_key = world.grid(0).move_key(world.grid(0).index(0, 0));
    extra.push_back(x);
    return units.back();
  }
  void run(double now = 0) { run_state_loops(units, extra, motions, grids, set, now, out); }
};

}  // namespace state_loop_component_test

using state_loop_component_test::Bench;

TEST_SUITE("components") {
  TEST_CASE("state loop: a unit waiting for a path is handed to the step to ask, once, and brakes") {
    Bench b;
    SimUnit& u = b.add({5, 5}, 0);
    u.route.order = Order{OrderKind::Move, {{30, 5}}};
    u.route.state = MoveState::WaitingForPath;
    u.body.speed = 0.5;
    b.run();
    REQUIRE(b.out.path_requests.size() == 1);
    CHECK(b.out.path_requests[0] == 0);
    CHECK(b.extra[0].next.speed ==
          doctest::Approx(std::max(0.0, 0.5 - b.motions[0].deceleration * b.set.dt)));
    b.extra[0].path_pending = true;  // the step asked
    b.run();
    CHECK(b.out.path_requests.empty());
  }

  TEST_CASE("state loop: a unit under way predicts the horizon ahead along its path and takes the first") {
    Bench b;
    SimUnit& u = b.add({5, 5}, 0);  // heading east (+x), towards its path's point
    u.route.order = Order{OrderKind::Move, {{30, 5}}};
    u.route.state = MoveState::Moving;
    u.route.path = {{5, 5}, {30, 5}};
    u.route.waypoint = 1;
    b.run();
    const auto& p = b.units[0].route.predicted;
    const auto want = static_cast<std::size_t>(std::lround(b.set.prediction_seconds / b.set.dt));
    REQUIRE(p.size() == want);
    const double vmax = b.motions[0].speed;
    Vec2 before = u.body.position;
    for (std::size_t k = 0; k < p.size(); ++k) {
      CAPTURE(k);
      CHECK(p[k].position.x > before.x);                                      // on towards the point
      CHECK(std::abs(p[k].position.y - 5) < 1e-9);                            // along the path
      CHECK(glm::length(p[k].position - before) <= vmax * b.set.dt + 1e-12);  // no faster than it can
      CHECK(p[k].time == doctest::Approx(b.set.dt * double(k + 1)));
      before = p[k].position;
    }
    CHECK(b.extra[0].next.position == p[0].position);
    CHECK(b.extra[0].next_from_prediction);
    CHECK(b.out.path_requests.empty());
  }

  TEST_CASE("state loop: a back-and-forth patrol turns at both ends, a loop goes round") {
    Bench b;
    SimUnit& u = b.add({5, 5}, 0);
    u.route.order = Order{OrderKind::Patrol, {{5, 5}, {15, 5}, {25, 5}}, PatrolMode::BackForth};
    std::vector<std::size_t> seen;
    for (int k = 0; k < 6; ++k) {
      b.units[0].route.state = MoveState::IncrementWaypoint;
      b.extra[0].path_pending = true;  // no request: only the turn is looked at
      b.run();
      CHECK(b.units[0].route.state == MoveState::WaitingForPath);
      seen.push_back(b.units[0].route.order_point);
    }
    CHECK(seen == std::vector<std::size_t>{1, 2, 1, 0, 1, 2});
    b.units[0].route.order.patrol = PatrolMode::Loop;
    b.units[0].route.order_point = 0;
    b.units[0].route.patrol_step = 1;
    seen.clear();
    for (int k = 0; k < 4; ++k) {
      b.units[0].route.state = MoveState::IncrementWaypoint;
      b.run();
      seen.push_back(b.units[0].route.order_point);
    }
    CHECK(seen == std::vector<std::size_t>{1, 2, 0, 1});
  }

  TEST_CASE("state loop: a move aside whose asker is gone ends with the way back home") {
    Bench b;
    SimUnit& u = b.add({10, 8}, std::numbers::pi / 2);
    u.route.state = MoveState::Idle;
    u.coop.yield = Yield::MoveAside;
    u.coop.yield_to = UnitId{7, 0};  // no such unit
    u.coop.home = {10, 5};
    u.coop.aside = {10, 8};
    u.coop.until = 100;
    b.run(1.0);
    CHECK(b.units[0].coop.yield == Yield::Return);
    REQUIRE(b.extra[0].yield_path.size() == 1);
    CHECK(b.extra[0].yield_path[0] == Vec2{10, 5});
    CHECK(b.units[0].coop.until == doctest::Approx(1.0 + kYieldSeconds));
    // Back home, the yield is over.
    b.units[0].body.position = {10, 5};
    b.run(2.0);
    CHECK(b.units[0].coop.yield == Yield::None);
  }

  TEST_CASE(
      "moves: two units meeting head-on stop at contact, never through each other; a wall stops a move") {
    std::vector<std::string> rows = test_support::open_rows(40, 20);
    rows[5][20] = '#';  // one closed cell, (20, 5) to (21, 6)
    PlanningWorld world(test::ascii_scenario(rows));
    const CostGrid* grids[1] = {&world.grid(0)};
    const Motion motions[1] = {Motion{}};
    SimSettings set;
    const std::uint16_t key = world.grid(0).move_key(world.grid(0).index(0, 0));
    const auto unit = [&](std::uint32_t index, Vec2 at, Vec2 to) {
      SimUnit u;
      u.id = UnitId{index, 0};
      u.alive = true;
      u.body.position = u.body.previous = at;
      u.route.state = MoveState::Moving;
      UnitPrivate x;
      x.move_key = key;
      x.next = MotionState{to, 0, glm::length(to - at) / set.dt};
      return std::pair{u, x};
    };
    // 1.2 m apart, each moving 0.5 m at the other: whole moves would leave them 0.2 m
    // apart, through each other's hard shapes (radius 0.5).
    auto [a, xa] = unit(0, {10, 10}, {10.5, 10});
    auto [b, xb] = unit(1, {11.2, 10}, {10.7, 10});
    // Moving 0.8 m into the closed cell from 0.3 m before it.
    auto [c, xc] = unit(2, {19.7, 5.5}, {20.5, 5.5});
    std::vector<SimUnit> units = {a, b, c};
    std::vector<UnitPrivate> extra = {xa, xb, xc};
    UnitHash hashed;
    MoveScratch scratch;
    std::uint64_t repaths = 0;
    move_units(units, extra, motions, grids, 0.5, set, 0.0, hashed, scratch, repaths);
    CHECK(glm::length(units[0].body.position - units[1].body.position) >= 1.0 - 1e-9);
    CHECK(units[0].body.position.x > 10);  // each moved some of the way
    CHECK(units[1].body.position.x < 11.2);
    CHECK(units[2].body.position == Vec2{19.7, 5.5});  // stopped before the wall
    CHECK(units[2].route.state == MoveState::WaitingForPath);
    CHECK(repaths == 1);
  }
}

}  // namespace pathscope::sim
