// Collision density as planning cost (SimSettings::density_cost): later paths go round
// the places where collisions keep happening; off, nothing changes. The density decays
// with SimSettings::density_half_life, so old jams stop costing.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "planner/scenario/scenario_io.hpp"
#include "planner/sim/sim_cases.hpp"
#include "planner/sim/simulation.hpp"
#include "planner/world/planning_world.hpp"
#include "tests/test_maps.hpp"

namespace pathscope::sim {

namespace {

using test::move_to;
using test::unit_at;

// A block with two ways round it: the short one above (a corridor two cells wide, y 0 to
// 2) and a long one below. Two files of units meet head-on in the upper corridor and
// keep colliding there.
Scenario two_routes(double density_cost) {
  std::vector<std::string> rows(20, std::string(40, '.'));
  for (int y = 2; y < 16; ++y) {
    for (int x = 8; x < 32; ++x) rows[std::size_t(y)][std::size_t(x)] = '#';
  }
  Scenario s = test::ascii_scenario(rows);
  s.sim.passages = false;  // no taking turns: they meet in the corridor
  s.sim.density_cost = density_cost;
  s.sim.density_refresh = 0.5;
  for (std::uint32_t k = 0; k < 6; ++k) {
    const double dx = 1.0 * k;
    s.units.push_back(unit_at(1 + k, {10.5 + dx, 0.5 + (k % 2)}, move_to({30.5, 1.0})));
    s.units.push_back(unit_at(101 + k, {29.5 - dx, 0.5 + (k % 2)}, move_to({9.5, 1.0})));
  }
  return s;
}

// The path a unit newly placed at the left asks for now, to the right.
std::vector<Vec2> path_across(Simulation& sim) {
  const UnitId id = sim.add_unit(unit_at(500, {2.5, 5.5}, move_to({37.5, 5.5})));
  for (int i = 0; i < 10; ++i) {
    sim.step();
    if (!sim.unit(id)->route.path.empty()) break;
  }
  return sim.unit(id)->route.path;
}

// The path a unit newly placed at the left asks for after `seconds`, to the right.
std::vector<Vec2> later_path(double density_cost, double seconds) {
  Simulation sim(two_routes(density_cost));
  const int steps = int(seconds / sim.scenario().sim.dt);
  for (int i = 0; i < steps; ++i) sim.step();
  return path_across(sim);
}

// Removes every unit: no collision adds to the density from here on.
void remove_all(Simulation& sim) {
  std::vector<UnitId> ids;
  for (const SimUnit& u : sim.slots()) {
    if (u.alive) ids.push_back(u.id);
  }
  for (const UnitId id : ids) REQUIRE(sim.remove_unit(id));
}

double lowest_y(const std::vector<Vec2>& path) {
  double y = 1e9;
  for (const Vec2 p : path) y = std::min(y, p.y);
  return y;
}

double highest_y(const std::vector<Vec2>& path) {
  double y = 0;
  for (const Vec2 p : path) y = std::max(y, p.y);
  return y;
}

}  // namespace

TEST_CASE("density cost: a later path goes round where collisions keep happening, and not without it") {
  const std::vector<Vec2> plain = later_path(0, 20);
  const std::vector<Vec2> costed = later_path(8, 20);
  REQUIRE_FALSE(plain.empty());
  REQUIRE_FALSE(costed.empty());
  CHECK(lowest_y(plain) < 2);  // over the block, through the corridor
  CHECK(highest_y(plain) < 6);
  CHECK(highest_y(costed) > 16);  // under it
  CHECK(lowest_y(costed) > 2);
}

TEST_CASE("density cost: the hot corridor carries the cost, units keep their speed there") {
  Simulation sim(two_routes(8));
  for (int i = 0; i < 600; ++i) sim.step();
  const PlanningWorld& world = sim.world();
  REQUIRE_FALSE(world.cost_overlay().empty());
  CHECK(world.cost_overlay() == density_cost_factors(sim.density(), 8));
  const CostGrid& grid = world.grid(0);
  bool costly = false;
  for (std::uint32_t i = 0; i < grid.cell_count(); ++i) {
    const double f = world.cost_overlay()[i];
    CHECK(f >= 1);
    CHECK(f <= 9);
    if (!grid.passable(i)) continue;
    CHECK(grid.ground_multiplier(i) == 1);
    CHECK(grid.multiplier(i) == f);
    if (f > 1) {
      costly = true;
      CHECK(grid.center(i).y < 2);  // only the corridor sees collisions
    }
  }
  CHECK(costly);
}

TEST_CASE("density cost: off, nothing changes (the same hashes whatever the refresh)") {
  Scenario a = crossing_case(10);
  Scenario b = a;
  b.sim.density_refresh = 0.1;
  Simulation x(a);
  Simulation y(b);
  for (int i = 0; i < 900; ++i) {
    x.step();
    y.step();
    REQUIRE(x.state_hash() == y.state_hash());
  }
  CHECK(x.world().cost_overlay().empty());
  CHECK(x.density().max_value > 0);
}

TEST_CASE("density cost: the same run twice gives the same hashes, and the cost changes the run") {
  // A unit ordered across after 20 s: with the cost it goes the long way round.
  auto run = [](double weight, std::vector<std::uint64_t>& hashes) {
    Simulation sim(two_routes(weight));
    for (int i = 0; i < 1200; ++i) {
      if (i == 600) (void)sim.add_unit(unit_at(500, {2.5, 5.5}, move_to({37.5, 5.5})));
      sim.step();
      hashes.push_back(sim.state_hash());
    }
    return sim.world().cost_overlay();
  };
  std::vector<std::uint64_t> a, b, off;
  const std::vector<float> overlay_a = run(8, a);
  const std::vector<float> overlay_b = run(8, b);
  const std::vector<float> overlay_off = run(0, off);
  CHECK(a == b);
  CHECK(overlay_a == overlay_b);
  CHECK_FALSE(overlay_a.empty());
  CHECK(overlay_off.empty());
  CHECK(a != off);
}

TEST_CASE("density cost: the cost stays on the world through an edit, and is refreshed after it") {
  Simulation sim(two_routes(8));
  for (int i = 0; i < 300; ++i) sim.step();
  const std::vector<float> before = sim.world().cost_overlay();
  REQUIRE_FALSE(before.empty());
  // A swamp over part of the corridor and a wall elsewhere: both rasterise cells again.
  Scenario next = sim.scenario();
  Feature swamp;
  swamp.id = 1;
  swamp.terrain = 3;
  swamp.shape.kind = ShapeKind::Rect;
  swamp.shape.min = {12, 0};
  swamp.shape.max = {20, 2};
  next.features.push_back(swamp);
  Feature wall;
  wall.id = 2;
  wall.terrain = 1;
  wall.shape.kind = ShapeKind::Rect;
  wall.shape.min = {36, 16};
  wall.shape.max = {38, 18};
  next.features.push_back(wall);
  REQUIRE(sim.update_world(next));
  CHECK(sim.world().cost_overlay() == before);
  PlanningWorld fresh(sim.world().scenario());
  (void)fresh.set_cost_overlay(before).value();
  const CostGrid& a = sim.world().grid(0);
  const CostGrid& b = fresh.grid(0);
  for (std::uint32_t i = 0; i < b.cell_count(); ++i) {
    REQUIRE(a.multiplier(i) == b.multiplier(i));
    REQUIRE(a.ground_multiplier(i) == b.ground_multiplier(i));
  }
  // The swamp's cells carry both: 3 x the density factor.
  const std::uint32_t in_swamp = b.index(15, 1);
  CHECK(a.ground_multiplier(in_swamp) == 3);
  if (before[in_swamp] > 1) CHECK(a.multiplier(in_swamp) == 3 * double(before[in_swamp]));
  // Running on refreshes it from the density as usual.
  for (int i = 0; i < 30; ++i) sim.step();
  CHECK(sim.world().cost_overlay() == density_cost_factors(sim.density(), 8));
}

TEST_CASE("density cost: factors are the density around a cell relative to the densest cell, in eighths") {
  DensityMap d;
  d.width = 5;
  d.height = 1;
  d.value = {0.0f, 1.0f, 4.0f, 8.0f, 0.0f};
  d.max_value = 8;
  // Each cell takes the densest of itself and its neighbours: 1, 4, 8, 8, 8.
  CHECK(density_cost_factors(d, 2) == std::vector<float>{1.25f, 2.0f, 3.0f, 3.0f, 3.0f});
  CHECK(density_cost_factors(d, 0).empty());
  d.value = {0.0f, 0.5f, 0.0f, 0.0f, 0.0f};  // under an eighth of the densest: nothing
  CHECK(density_cost_factors(d, 2).empty());
  // Two rows: the neighbours below and on the diagonals count too.
  d.width = 3;
  d.height = 2;
  d.value = {0.0f, 0.0f, 0.0f, 8.0f, 0.0f, 0.0f};
  CHECK(density_cost_factors(d, 1) == std::vector<float>{2.0f, 2.0f, 1.0f, 2.0f, 2.0f, 1.0f});
  SimSettings set;
  set.dt = 0.1;
  set.density_refresh = 1;
  CHECK(density_refresh_steps(set) == 10);
  set.density_refresh = 0.01;
  CHECK(density_refresh_steps(set) == 1);
}

TEST_CASE("density decay: the density halves in one half-life, the same in every run") {
  Scenario s = two_routes(8);
  s.sim.density_half_life = 2;
  Simulation sim(s), again(s);
  for (int i = 0; i < 300; ++i) {  // 10 s: the files jam in the corridor
    sim.step();
    again.step();
  }
  remove_all(sim);
  remove_all(again);
  sim.step();
  again.step();
  const DensityMap before = sim.density();
  REQUIRE(before.max_value > 8 * kDensityFloor);
  for (int i = 0; i < 60; ++i) {  // one half-life: 2 s of 1/30 s steps
    sim.step();
    again.step();
  }
  const DensityMap& after = sim.density();
  CHECK(after.max_value == doctest::Approx(before.max_value / 2).epsilon(1e-4));
  int halved = 0;
  for (std::size_t k = 0; k < before.value.size(); ++k) {
    const double half = before.value[k] / 2.0;
    if (half > 1.01 * kDensityFloor) {
      CHECK(after.value[k] == doctest::Approx(half).epsilon(1e-4));
      ++halved;
    } else if (half < 0.99 * kDensityFloor) {
      CHECK(after.value[k] == 0.0f);  // forgotten below the floor
    }
  }
  CHECK(halved > 0);
  CHECK(again.density().value == after.value);
  CHECK(again.density().max_value == after.max_value);
  // A half-life of 0 keeps the density for ever.
  CHECK(density_decay_factor(s.sim) == doctest::Approx(std::exp2(-1.0 / 60)));
  s.sim.density_half_life = 0;
  CHECK(density_decay_factor(s.sim) == 1);
}

TEST_CASE("density decay: an old jam stops costing, and a later path takes the short way again") {
  for (const double half_life : {2.0, 0.0}) {
    CAPTURE(half_life);
    Scenario s = two_routes(8);
    s.sim.density_half_life = half_life;
    Simulation sim(s);
    for (int i = 0; i < 600; ++i) sim.step();  // 20 s of jam
    REQUIRE_FALSE(sim.world().cost_overlay().empty());
    remove_all(sim);
    for (int i = 0; i < 1200; ++i) sim.step();  // 40 s, nobody about
    const std::vector<Vec2> path = path_across(sim);
    REQUIRE_FALSE(path.empty());
    if (half_life > 0) {
      // 20 half-lives: the jam's density is below the floor, forgotten, and costs nothing.
      CHECK(sim.density().max_value == 0);
      CHECK(sim.world().cost_overlay().empty());
      CHECK(lowest_y(path) < 2);  // over the block, through the corridor
    } else {
      CHECK(sim.density().max_value > 0);  // never decays: the old jam still costs
      CHECK_FALSE(sim.world().cost_overlay().empty());
      CHECK(highest_y(path) > 16);  // under the block
    }
  }
}

TEST_CASE("density decay: density_half_life is read, written when not the default, and checked") {
  const std::string head = R"({"format": "pathscope-scenario", "version": 2, "name": "t",
    "world": {"width": 10, "height": 10, "cell_size": 1})";
  const auto parse = [&](const std::string& sim) {
    return parse_scenario(head + (sim.empty() ? "" : ", \"sim\": " + sim) + "}", "t.json");
  };
  const Result<Scenario> plain = parse("");
  REQUIRE(plain.ok());
  CHECK(plain->sim.density_half_life == 30);
  CHECK(scenario_to_json(*plain).find("density_half_life") == std::string::npos);
  const Result<Scenario> set = parse(R"({"density_half_life": 12.5})");
  REQUIRE(set.ok());
  CHECK(set->sim.density_half_life == 12.5);
  const std::string text = scenario_to_json(*set);
  CHECK(text.find(R"("density_half_life": 12.5)") != std::string::npos);
  const Result<Scenario> again = parse_scenario(text, "again.json");
  REQUIRE(again.ok());
  CHECK(again->sim == set->sim);
  CHECK(parse(R"({"density_half_life": 0})").ok());  // never decays
  for (const char* bad : {R"({"density_half_life": -1})", R"({"density_half_life": 3601})"}) {
    const Result<Scenario> r = parse(bad);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().where == "t.json: sim.density_half_life");
    CHECK(r.error().message.find("expected a number in [0, 3600] seconds") != std::string::npos);
  }
}

TEST_CASE("density cost: a saved game whose cost needs more surfaces than a raster holds is refused") {
  using Json = nlohmann::json;
  // One terrain on 256 x 257 cells; a saved density cost with a factor of its own on every
  // cell but the first needs 65,792 surfaces, more than the raster's 65,536.
  Scenario s = test::ascii_scenario(std::vector<std::string>(257, std::string(256, '.')));
  s.terrains.resize(1);
  s.sim.density_cost = 1;
  Simulation sim(s);
  Json state = Json::parse(sim.state_json());
  Json cost = Json::array();
  for (std::size_t k = 1; k < 256 * 257; ++k) {
    cost.push_back(k);
    cost.push_back(1.0 + double(k) / 131072.0);  // exact in float, within 1 + density_cost
  }
  state["density_cost"] = cost;
  const Status restored = sim.restore_state(state.dump());
  REQUIRE_FALSE(restored.ok());
  CHECK(restored.error().code == ErrorCode::Limit);
  CHECK(restored.error().to_string() ==
        "sim_state.density_cost: more than 65,536 distinct surfaces (combinations of terrain, road speed "
        "factor, bridge deck and cost factor): use fewer distinct cost factors");
  CHECK(sim.world().cost_overlay().empty());
  CHECK(sim.restores() == 0);
  // Half as many factors (every other cell's) are taken.
  Json half = Json::array();
  for (std::size_t i = 0; i < cost.size(); i += 4) {
    half.push_back(cost[i]);
    half.push_back(cost[i + 1]);
  }
  state["density_cost"] = half;
  REQUIRE(sim.restore_state(state.dump()).ok());
  CHECK_FALSE(sim.world().cost_overlay().empty());
}

}  // namespace pathscope::sim
