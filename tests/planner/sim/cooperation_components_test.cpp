// Collision detection and cooperation called directly, as components (cooperation.hpp), on
// hand-built units. Expected collisions come from a brute-force scan of the predicted
// lists written here; expected decisions from the seed's cases worked out by hand.

#include <cmath>
#include <numbers>
#include <optional>
#include <vector>

#include <doctest/doctest.h>
#include <glm/geometric.hpp>

#include "planner/sim/cooperation.hpp"
#include "planner/sim/simulation_impl.hpp"
#include "planner/world/planning_world.hpp"
#include "tests/planner/sim/sim_test_support.hpp"
#include "tests/test_maps.hpp"

namespace pathscope::sim {

namespace cooperation_components_test {

constexpr double kDt = 1.0 / 30.0;

// A unit of slot `index` at `at`, heading `heading` at `speed`, its next `steps` positions
// predicted along the heading at that speed.
SimUnit walker(std::uint32_t index, Vec2 at, double heading, double speed, int steps) {
  SimUnit u;
  u.id = UnitId{index, 0};
  u.alive = true;
  u.body.position = u.body.previous = at;
  u.body.heading = heading;
  u.body.speed = speed;
  u.route.state = speed > 0 ? MoveState::Moving : MoveState::Idle;
  const Vec2 dir{std::cos(heading), -std::sin(heading)};
  for (int k = 0; k < steps; ++k) {
    PredictedPoint p;
    p.position = at + dir * (speed * kDt * (k + 1));
    p.heading = heading;
    p.speed = speed;
    p.time = kDt * (k + 1);
    u.route.predicted.push_back(p);
  }
  if (speed > 0) {
    u.route.path = {at, at + dir * 20.0};
    u.route.waypoint = 1;
  }
  return u;
}

// The first predicted step at which the two are closer than `within` (a list that ends
// stands at its last point), by checking every step; nullopt if none within `steps`.
std::optional<std::size_t> first_within(const SimUnit& a, const SimUnit& b, double within,
                                        std::size_t steps) {
  const auto at = [](const SimUnit& u, std::size_t k) {
    return u.route.predicted.empty() ? u.body.position
                                     : u.route.predicted[std::min(k, u.route.predicted.size() - 1)].position;
  };
  for (std::size_t k = 0; k < steps; ++k) {
    if (glm::length(at(a, k) - at(b, k)) < within) return k;
  }
  return std::nullopt;
}

struct Detected {
  std::vector<Collision> collisions;
  std::vector<Memory> memory;
};

Detected detect(const std::vector<SimUnit>& units, std::vector<Memory> memory, double now = 0) {
  PlanningWorld world(test::ascii_scenario(test_support::open_rows(60, 30)));
  const CostGrid* grids[1] = {&world.grid(0)};
  const Motion motions[1] = {Motion{}};
  SimSettings set;
  set.dt = kDt;
  UnitHash hashed;
  DetectionScratch scratch;
  Detected out;
  detect_collisions(units, motions, grids, DetectionLimits{.max_soft = 0.75, .max_speed = 1}, set, now,
                    memory, hashed, scratch, out.collisions);
  out.memory = std::move(memory);
  return out;
}

}  // namespace cooperation_components_test

using cooperation_components_test::detect;
using cooperation_components_test::first_within;
using cooperation_components_test::kDt;
using cooperation_components_test::walker;

TEST_SUITE("components") {
  TEST_CASE("detection: a head-on pair is found at the first predicted soft contact, then the hard one") {
    // 3 m apart closing at 2 m/s: soft contact (1.5 m) after 0.75 s, hard (1.02 m) at 1 s.
    const std::vector<SimUnit> units = {walker(0, {10, 10}, 0, 1, 30),
                                        walker(1, {13, 10}, std::numbers::pi, 1, 30)};
    const auto soft = first_within(units[0], units[1], 1.5, 30);
    const auto hard = first_within(units[0], units[1], 1.02, 30);
    REQUIRE(soft);
    REQUIRE(hard);
    const auto found = detect(units, {});
    REQUIRE(found.collisions.size() == 1);
    const Collision& c = found.collisions[0];
    CHECK_FALSE(c.immediate);
    CHECK(c.hard);
    CHECK(c.time == doctest::Approx(kDt * double(*hard + 1)));
    CHECK(c.point.x == doctest::Approx(11.5).epsilon(1e-3));
    // Started 0.4 m farther apart, the hard contact falls past the one-second horizon:
    // only the soft one is found.
    const std::vector<SimUnit> farther = {walker(0, {10, 10}, 0, 1, 30),
                                          walker(1, {13.4, 10}, std::numbers::pi, 1, 30)};
    const auto soft2 = first_within(farther[0], farther[1], 1.5, 30);
    REQUIRE(soft2);
    const auto found2 = detect(farther, {});
    REQUIRE(found2.collisions.size() == 1);
    CHECK_FALSE(found2.collisions[0].hard);
    CHECK(found2.collisions[0].time == doctest::Approx(kDt * double(*soft2 + 1)));
  }

  TEST_CASE("detection: side by side the same way is no collision, and a remembered pair is not checked") {
    // 1.2 m apart (soft shapes overlap, hard ones do not), same heading and speed.
    const std::vector<SimUnit> column = {walker(0, {10, 10}, 0, 1, 30), walker(1, {10, 11.2}, 0, 1, 30)};
    CHECK(detect(column, {}).collisions.empty());
    // Overlapping now, hard: found, immediate, unless the pair's plan stands.
    const std::vector<SimUnit> touching = {walker(0, {10, 10}, 0, 0, 0), walker(1, {10.8, 10}, 0, 0, 0)};
    const auto now = detect(touching, {});
    REQUIRE(now.collisions.size() == 1);
    CHECK(now.collisions[0].immediate);
    CHECK(now.collisions[0].hard);
    const Memory standing{UnitId{0, 0}, UnitId{1, 0}, 5.0, CooperationRule::MoveAside};
    const auto remembered = detect(touching, {standing});
    CHECK(remembered.collisions.empty());
    CHECK(remembered.memory.size() == 1);
    // A slow-down's pair is still checked; a memory past its time, or of a unit gone, is dropped.
    const Memory slowing{UnitId{0, 0}, UnitId{1, 0}, 5.0, CooperationRule::SlowDown};
    CHECK(detect(touching, {slowing}).collisions.size() == 1);
    CHECK(detect(touching, {standing}, 6.0).memory.empty());
    const Memory gone{UnitId{0, 0}, UnitId{1, 7}, 5.0, CooperationRule::MoveAside};
    CHECK(detect(touching, {gone}).memory.empty());
  }

  TEST_CASE(
      "cooperation: case 4.2 (pause) and 4.3 (slow down) are told apart by when the hard collision comes") {
    PlanningWorld world(test::ascii_scenario(test_support::open_rows(60, 30)));
    const CostGrid* grids[1] = {&world.grid(0)};
    const Motion motions[1] = {Motion{}};
    SimSettings set;
    set.dt = kDt;
    // Crossing at right angles: slot 0 (higher) going east, slot 1 going north.
    const auto run = [&](double collision_in) {
      std::vector<SimUnit> units = {walker(0, {10, 10}, 0, 1, 30),
                                    walker(1, {12, 12}, std::numbers::pi / 2, 1, 30)};
      std::vector<UnitPrivate> extra(2);
      std::vector<Collision> collisions(1);
      Collision& c = collisions[0];
      c.a = units[0].id;
      c.b = units[1].id;
      c.hard = true;
      c.time = collision_in;
      c.point = {12, 10};
      std::vector<Memory> memory;
      CooperationScratch scratch;
      CooperationOutcome outcome;
      cooperate(units, extra, motions, grids, Vec2{60, 30}, set, 0.0, collisions, memory, scratch, outcome);
      return std::tuple{units, collisions[0], memory};
    };
    // b, at 1 m/s with 4 m/s^2 of braking, needs 0.25 s and a step to stop.
    const auto [paused, c42, m42] = run(0.2);
    CHECK(c42.rule == CooperationRule::Pause);
    CHECK(paused[1].coop.yield == Yield::Wait);
    CHECK(paused[1].coop.yield_to == paused[0].id);
    CHECK(paused[0].coop.yield == Yield::None);
    CHECK(m42.empty());  // decided again every step
    const auto [slowed, c43, m43] = run(0.9);
    CHECK(c43.rule == CooperationRule::SlowDown);
    CHECK(slowed[1].coop.yield == Yield::SlowDown);
    CHECK(slowed[1].coop.speed_factor >= 0.1);
    CHECK(slowed[1].coop.speed_factor <= 0.8);
    CHECK(slowed[0].coop.yield == Yield::None);
    REQUIRE(m43.size() == 1);  // remembered while it runs
    CHECK(m43[0].rule == CooperationRule::SlowDown);
  }

  TEST_CASE("cooperation: case 3.1, a still lower unit on the mover's path steps off it and is remembered") {
    PlanningWorld world(test::ascii_scenario(test_support::open_rows(60, 30)));
    const CostGrid* grids[1] = {&world.grid(0)};
    const Motion motions[1] = {Motion{}};
    SimSettings set;
    set.dt = kDt;
    std::vector<SimUnit> units = {walker(0, {10, 10}, 0, 1, 30), walker(1, {11.5, 10.1}, 0, 0, 0)};
    std::vector<UnitPrivate> extra(2);
    for (UnitPrivate& x : extra) x.move_key = world.grid(0).move_key(world.grid(0).index(10, 10));
    std::vector<Collision> collisions(1);
    collisions[0].a = units[1].id;  // listed either way round: the mover decides
    collisions[0].b = units[0].id;
    collisions[0].hard = true;
    collisions[0].time = 0.2;
    collisions[0].point = {10.75, 10.05};
    std::vector<Memory> memory;
    CooperationScratch scratch;
    CooperationOutcome outcome;
    cooperate(units, extra, motions, grids, Vec2{60, 30}, set, 0.0, collisions, memory, scratch, outcome);
    CHECK(collisions[0].rule == CooperationRule::MoveAside);
    CHECK(collisions[0].a == units[0].id);
    CHECK(units[1].coop.yield == Yield::MoveAside);
    REQUIRE_FALSE(extra[1].yield_path.empty());
    // Off the mover's way (the line y = 10) by more than the two hard radii, on its own side.
    const Vec2 aside = extra[1].yield_path.back();
    CHECK(aside.y - 10 > 1.0);
    CHECK(units[0].coop.yield == Yield::SlowDown);
    REQUIRE(memory.size() == 1);
    CHECK(memory[0].rule == CooperationRule::MoveAside);
    CHECK(outcome.restart.empty());
  }
}

}  // namespace pathscope::sim
