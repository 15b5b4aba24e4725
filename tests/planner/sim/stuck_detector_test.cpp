#include "planner/sim/stuck_detector.hpp"

#include <bit>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <glm/geometric.hpp>
#include <nlohmann/json.hpp>

#include "planner/sim/sim_cases.hpp"
#include "planner/sim/simulation.hpp"
#include "tests/test_maps.hpp"

namespace pathscope::sim {

namespace {

using test::move_to;
using test::unit_at;

// Runs `seconds` of simulated time, the detector watching every step.
void run(Simulation& sim, StuckDetector& detector, double seconds) {
  const auto steps = static_cast<int>(std::lround(seconds / sim.scenario().sim.dt));
  for (int i = 0; i < steps; ++i) {
    sim.step();
    detector.observe(sim);
  }
}

// A room of walls with a one-cell gap in its floor, leading to a second room below.
std::vector<std::string> two_rooms() {
  return {
      "###########", "#.........#", "#.........#", "#####.#####", "#.........#", "#.........#", "###########",
  };
}

// The detector as first written, walking every unit's path from its waypoint to the end
// each step: the reference the cached lengths must match bit for bit.
class WalkingDetector {
 public:
  explicit WalkingDetector(StuckParams params) : params_(params) {}

  struct Track {
    UnitId id;
    bool active = false;
    Vec2 target{0, 0};
    double best_direct = 0;
    double best_route = -1;
    double progress_time = 0;
    bool stuck = false;
  };
  struct Flag {
    std::uint32_t unit = 0;
    double time = 0;
    double since = 0;
  };

  void observe(const Simulation& simulation) {
    const double now = simulation.time();
    const double start = std::max(0.0, now - simulation.scenario().sim.dt);
    const auto slots = simulation.slots();
    if (tracks.size() < slots.size()) tracks.resize(slots.size());
    for (std::size_t i = 0; i < slots.size(); ++i) {
      const SimUnit& u = slots[i];
      Track& t = tracks[i];
      const bool open =
          u.alive && !u.goal.arrived && !u.route.order.points.empty() &&
          (u.route.order.kind == OrderKind::Move || u.route.order.kind == OrderKind::Waypoints ||
           u.route.order.kind == OrderKind::Patrol);
      if (!open) {
        t.active = false;
        t.stuck = false;
        continue;
      }
      const Vec2 target =
          u.route.order.points[std::min(u.route.order_point, u.route.order.points.size() - 1)];
      const double direct = glm::length(target - u.body.position);
      double route = -1;
      if (!u.route.path.empty() && u.route.waypoint < u.route.path.size()) {
        route = glm::length(u.route.path[u.route.waypoint] - u.body.position);
        for (std::size_t k = u.route.waypoint + 1; k < u.route.path.size(); ++k)
          route += glm::length(u.route.path[k] - u.route.path[k - 1]);
      }
      if (!t.active || !(t.id == u.id) || t.target != target) {
        t = Track{.id = u.id,
                  .active = true,
                  .target = target,
                  .best_direct = direct,
                  .best_route = route,
                  .progress_time = start,
                  .stuck = false};
      }
      bool progressed = false;
      if (direct < t.best_direct - params_.progress) {
        t.best_direct = direct;
        progressed = true;
      }
      if (route >= 0 && t.best_route < 0) {
        t.best_route = route;
      } else if (route >= 0 && route < t.best_route - params_.progress) {
        t.best_route = route;
        progressed = true;
      }
      if (progressed) {
        t.progress_time = now;
        t.stuck = false;
        continue;
      }
      if (t.stuck || now - t.progress_time < params_.seconds - 1e-9) continue;
      t.stuck = true;
      flags.push_back(Flag{u.scenario_id, now, t.progress_time});
    }
  }

  std::vector<Track> tracks;
  std::vector<Flag> flags;

 private:
  StuckParams params_;
};

// Runs `steps` steps of `scenario` under the detector and the walking one, checking after
// each that they flag the same units at the same times and keep the same tracks, bit for
// bit. With `told`, the detector is told which paths changed (as a Recording tells it).
// Returns the path segments the walking detector measured.
// With `rewind`, the simulation is put back to its state of step steps / 4 at step
// steps / 2 (restore_state: its units' paths read back, their revisions started again).
std::uint64_t compare_with_walk(const Scenario& scenario, StuckParams params, int steps, bool told,
                                std::uint64_t* measured = nullptr, bool rewind = false) {
  Simulation sim(scenario);
  StuckDetector detector(params);
  WalkingDetector walking(params);
  std::uint64_t walked = 0;
  std::vector<std::vector<Vec2>> paths;
  std::vector<std::uint8_t> changed;
  std::string earlier;
  for (int step = 0; step < steps; ++step) {
    if (rewind && step == steps / 4) earlier = sim.state_json();
    if (rewind && step == steps / 2) REQUIRE(sim.restore_state(earlier).ok());
    sim.step();
    if (told) {
      const auto slots = sim.slots();
      paths.resize(slots.size());
      changed.assign(slots.size(), 0);
      for (std::size_t k = 0; k < slots.size(); ++k) {
        if (slots[k].route.path == paths[k]) continue;
        changed[k] = 1;
        paths[k] = slots[k].route.path;
      }
      detector.observe(sim, changed);
    } else {
      detector.observe(sim);
    }
    walking.observe(sim);
    for (const SimUnit& u : sim.slots()) {
      if (u.alive && !u.goal.arrived && u.route.waypoint < u.route.path.size())
        walked += u.route.path.size() - 1 - u.route.waypoint;
    }
    REQUIRE(detector.events().size() == walking.flags.size());
    for (std::size_t k = 0; k < walking.flags.size(); ++k) {
      CHECK(detector.events()[k].unit == walking.flags[k].unit);
      CHECK(detector.events()[k].time == walking.flags[k].time);
      CHECK(detector.events()[k].since == walking.flags[k].since);
    }
    if (step % 7 != 0 && step != steps - 1) continue;
    const nlohmann::json state = nlohmann::json::parse(detector.state_json());
    const auto& tracks = state.at("tracks");
    REQUIRE(tracks.size() == walking.tracks.size());
    for (std::size_t k = 0; k < tracks.size(); ++k) {
      const WalkingDetector::Track& t = walking.tracks[k];
      INFO("step " << step << ", slot " << k);
      CHECK(tracks[k][1].get<int>() == (t.active ? 1 : 0));
      CHECK(std::bit_cast<std::uint64_t>(tracks[k][4].get<double>()) ==
            std::bit_cast<std::uint64_t>(t.best_direct));
      CHECK(std::bit_cast<std::uint64_t>(tracks[k][5].get<double>()) ==
            std::bit_cast<std::uint64_t>(t.best_route));
      CHECK(std::bit_cast<std::uint64_t>(tracks[k][6].get<double>()) ==
            std::bit_cast<std::uint64_t>(t.progress_time));
      CHECK(tracks[k][7].get<int>() == (t.stuck ? 1 : 0));
    }
  }
  if (measured) *measured = detector.segments_measured();
  return walked;
}
}  // namespace

TEST_CASE("stuck: a unit boxed in by walls is flagged at exactly the set time, with what it was doing") {
  Scenario s = test::ascii_scenario({
      "..........",
      ".####.....",
      ".#..#.....",
      ".####.....",
      "..........",
  });
  s.sim.stuck_seconds = 4;
  s.units = {unit_at(7, {2.5, 2.5}, move_to({8.5, 2.5}))};
  Simulation sim(s);
  StuckDetector detector(stuck_params(s.sim));
  run(sim, detector, 3.9);
  CHECK(detector.events().empty());
  CHECK(detector.stuck_now() == 0);
  run(sim, detector, 0.1);
  REQUIRE(detector.events().size() == 1);
  const StuckEvent& e = detector.events()[0];
  CHECK(e.unit == 7);
  CHECK(e.time == doctest::Approx(4.0));
  CHECK(e.since == 0);
  CHECK(e.position == Vec2{2.5, 2.5});
  CHECK(e.target == Vec2{8.5, 2.5});
  CHECK(e.distance == doctest::Approx(6.0));
  CHECK(e.state == MoveState::Failed);  // no path out of the box
  CHECK(e.contacts.empty());
  CHECK(detector.stuck_now() == 1);
  const std::string text = describe(e);
  CHECK(text ==
        "unit 7 stuck at 4.00 s at (2.50, 2.50), 6.00 m from its order point (8.50, 2.50), no progress "
        "since 0.00 s: failed, no collisions");
  // Flagged once while it stays stuck.
  run(sim, detector, 10);
  CHECK(detector.events().size() == 1);
}

TEST_CASE("stuck: a unit whose way through a one-cell gap is held by a stronger unit is flagged, naming it") {
  Scenario s = test::ascii_scenario(two_rooms());
  s.classes.push_back(s.classes[0]);
  s.classes[1].name = "guard";
  s.classes[1].priority = 5;
  for (TerrainType& t : s.terrains) t.cost.push_back(t.cost[0]);
  s.sim.stuck_seconds = 5;
  Unit guard = unit_at(2, {5.5, 3.5}, Order{OrderKind::Stop, {}, PatrolMode::Loop});
  guard.movement_class = 1;
  s.units = {unit_at(1, {5.5, 1.5}, move_to({5.5, 5.5})), guard};
  Simulation sim(s);
  StuckDetector detector(stuck_params(s.sim));
  run(sim, detector, 12);
  REQUIRE_FALSE(detector.events().empty());
  const StuckEvent& e = detector.events()[0];
  INFO(describe(e));
  CHECK(e.unit == 1);
  CHECK(e.time >= 5);
  CHECK(e.time <= 8);
  CHECK(e.position.y < 3);  // still in the upper room
  CHECK(e.distance > 2);
  // What it was doing: giving way to, colliding with, or remembering a rule about the guard.
  const bool names_guard = (e.yield != Yield::None && e.yield_to == 2) || e.rule != CooperationRule::None ||
                           (!e.contacts.empty() && e.contacts[0].other == 2);
  CHECK(names_guard);
  CHECK(sim.slots()[1].body.position == Vec2{5.5, 3.5});  // the guard held the gap
}

TEST_CASE("stuck: a long detour round a wall is progress, though the goal gets farther as the crow flies") {
  Scenario s = test::ascii_scenario({
      "........................................",
      "........................................",
      "........................................",
      "..####################################..",
      "........................................",
      "........................................",
  });
  s.sim.stuck_seconds = 3;
  s.units = {unit_at(1, {20.5, 1.5}, move_to({20.5, 5.5}))};
  Simulation sim(s);
  StuckDetector detector(stuck_params(s.sim));
  run(sim, detector, 60);
  CHECK(sim.slots()[0].goal.arrived);
  CHECK(detector.events().empty());
}

TEST_CASE("stuck: the detector only observes: the run's hashes are the same with and without it") {
  Scenario s = test::ascii_scenario(two_rooms());
  s.units = {unit_at(1, {2.5, 1.5}, move_to({8.5, 5.5})), unit_at(2, {8.5, 5.5}, move_to({2.5, 1.5})),
             unit_at(3, {5.5, 2.5})};
  s.sim.stuck_seconds = 1;
  Simulation watched(s);
  Simulation plain(s);
  StuckDetector detector(stuck_params(s.sim));
  for (int i = 0; i < 600; ++i) {
    watched.step();
    detector.observe(watched);
    plain.step();
    REQUIRE(watched.state_hash() == plain.state_hash());
  }
  // And it is deterministic: a second watched run flags the same units at the same times.
  Simulation again(s);
  StuckDetector second(stuck_params(s.sim));
  for (int i = 0; i < 600; ++i) {
    again.step();
    second.observe(again);
  }
  REQUIRE(second.events().size() == detector.events().size());
  for (std::size_t i = 0; i < detector.events().size(); ++i) {
    CHECK(describe(second.events()[i]) == describe(detector.events()[i]));
  }
}

TEST_CASE("stuck: lengths left from cached path sums flag and keep exactly what walking every path does") {
  // Progress of half a metre (the default) and of 1e-12 m, which puts most comparisons
  // within the last bits of the threshold, where the sums' order would show.
  // Both ways of noticing a new path: comparing it here, or being told.
  for (const double progress : {0.5, 1e-12}) {
    for (const bool told : {false, true}) {
      CAPTURE(progress);
      CAPTURE(told);
      compare_with_walk(circle_case(40), StuckParams{.seconds = 1, .progress = progress}, 500, told);
      compare_with_walk(crossing_case(8), StuckParams{.seconds = 1, .progress = progress}, 500, told);
      Scenario rooms = test::ascii_scenario(two_rooms());
      rooms.units = {unit_at(1, {2.5, 1.5}, move_to({8.5, 5.5})), unit_at(2, {8.5, 5.5}, move_to({2.5, 1.5})),
                     unit_at(3, {5.5, 2.5})};
      compare_with_walk(rooms, StuckParams{.seconds = 1, .progress = progress}, 600, told);
    }
  }
}

TEST_CASE("stuck: each path is measured once, not walked every step") {
  for (const bool told : {false, true}) {
    std::uint64_t measured = 0;
    const std::uint64_t walked = compare_with_walk(circle_case(100), StuckParams{}, 300, told, &measured);
    MESSAGE("segments: walked every step " << walked << ", measured once per path " << measured);
    CHECK(measured > 0);
    CHECK(measured * 10 < walked);
  }
}

TEST_CASE("stuck: a simulation put back to an earlier state is measured as walking every path does") {
  // Paths read back by restore_state start their revisions again, so a revision equal to
  // one seen before the restore may belong to another path: the detector must not trust it.
  for (const bool told : {false, true}) {
    CAPTURE(told);
    compare_with_walk(circle_case(40), StuckParams{.seconds = 1, .progress = 1e-12}, 400, told, nullptr,
                      true);
    compare_with_walk(crossing_case(8), StuckParams{.seconds = 1, .progress = 1e-12}, 400, told, nullptr,
                      true);
  }
}

TEST_CASE(
    "stuck: a path read back under a revision seen before is measured again, not taken from the cache") {
  // The unit's path goes round the wall through the gap; read back, it is at revision 1
  // (read once). Read back again from an edited state, the same unit has a straight path,
  // also at revision 1: the length left is then its straight distance, progress by metres.
  Scenario rooms = test::ascii_scenario(two_rooms());
  rooms.units = {unit_at(1, {2.5, 1.5}, move_to({8.5, 5.5}))};
  Simulation sim(rooms);
  StuckDetector detector(StuckParams{.seconds = 5, .progress = 0.5});
  WalkingDetector walking(StuckParams{.seconds = 5, .progress = 0.5});
  const auto step = [&] {
    sim.step();
    detector.observe(sim);
    walking.observe(sim);
  };
  for (int k = 0; k < 3; ++k) step();
  REQUIRE(sim.slots()[0].route.path.size() > 2);
  const std::string saved = sim.state_json();
  REQUIRE(sim.restore_state(saved).ok());
  REQUIRE(sim.slots()[0].route.path.revision() == 1);
  step();
  nlohmann::json edited = nlohmann::json::parse(saved);
  edited["units"][0]["route"]["path"] =
      nlohmann::json::array({edited["units"][0]["body"]["position"], nlohmann::json::array({8.5, 5.5})});
  edited["units"][0]["route"]["waypoint"] = 1;
  REQUIRE(sim.restore_state(edited.dump()).ok());
  REQUIRE(sim.slots()[0].route.path.revision() == 1);
  step();
  const nlohmann::json tracks = nlohmann::json::parse(detector.state_json()).at("tracks");
  REQUIRE(tracks.size() == 1);
  CHECK(std::bit_cast<std::uint64_t>(tracks[0][5].get<double>()) ==
        std::bit_cast<std::uint64_t>(walking.tracks[0].best_route));
  CHECK(walking.tracks[0].best_route < 7.2);  // straight on: sqrt(36 + 16) = 7.21 m from the start
}

}  // namespace pathscope::sim

namespace pathscope::sim {

TEST_CASE("stuck detector as a component: hand-built units in a view, one held, one walking, no Simulation") {
  // Two units ordered 20 m east: slot 0 stands still (held by slot 1's hard contact),
  // slot 1 walks 1 m/s. Views every 0.5 s for 12 s; StuckParams: 10 s, 0.5 m.
  std::vector<SimUnit> units(2);
  for (std::uint32_t i = 0; i < 2; ++i) {
    SimUnit& u = units[i];
    u.id = UnitId{i, 0};
    u.alive = true;
    u.scenario_id = 10 + i;
    u.body.position = {0, 5.0 * i};
    u.route.state = MoveState::Moving;
    u.route.order = Order{OrderKind::Move, {{20, 5.0 * i}}, PatrolMode::Loop};
    u.route.path = std::vector<Vec2>{{0, 5.0 * i}, {20, 5.0 * i}};
    u.route.waypoint = 1;
  }
  units[0].coop.yield = Yield::Wait;
  units[0].coop.yield_to = UnitId{1, 0};
  const std::vector<Collision> collisions{Collision{.a = UnitId{0, 0}, .b = UnitId{1, 0}, .hard = true}};
  StuckDetector detector(StuckParams{10, 0.5});
  for (int k = 1; k <= 24; ++k) {
    const double now = 0.5 * k;
    units[1].body.position = {now, 5};
    detector.observe(StuckView{now, 0.5, units, 0, collisions, {}});
  }
  REQUIRE(detector.events().size() == 1);
  const StuckEvent& e = detector.events()[0];
  CHECK(e.unit == 10);
  CHECK(e.time >= 10);
  CHECK(e.yield == Yield::Wait);
  CHECK(e.yield_to == std::optional<std::uint32_t>{11});
  REQUIRE(e.contacts.size() == 1);
  CHECK(e.contacts[0].other == 11);
  CHECK(e.contacts[0].hard);
  CHECK(detector.is_stuck(UnitId{0, 0}));
  CHECK_FALSE(detector.is_stuck(UnitId{1, 0}));
  // A dead slot's unit is nobody's yield target: the event names none.
  units[1].alive = false;
  StuckDetector again(StuckParams{10, 0.5});
  for (int k = 1; k <= 24; ++k) again.observe(StuckView{0.5 * k, 0.5, units, 0, collisions, {}});
  REQUIRE(again.events().size() == 1);
  CHECK_FALSE(again.events()[0].yield_to.has_value());
  CHECK(again.events()[0].contacts[0].other == 0);
}

}  // namespace pathscope::sim
