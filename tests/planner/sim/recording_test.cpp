#include "planner/sim/recording.hpp"

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "planner/scenario/scenario_io.hpp"
#include "planner/sim/recording_check.hpp"
#include "planner/sim/sim_cases.hpp"
#include "planner/sim/sim_fields.hpp"
#include "planner/sim/simulation.hpp"
#include "tests/test_maps.hpp"

namespace pathscope::sim {

namespace {

Scenario bridge_map() {
  const auto s = load_scenario(std::string(PATHSCOPE_SOURCE_DIR) + "/maps/sim_bridge.json");
  REQUIRE(s.ok());
  return *s;
}

// A run of `steps` recorded, and the hashes and units of a separate unrecorded run.
struct Recorded {
  Recording recording;
  std::vector<std::uint64_t> fresh_hashes;
  std::vector<std::vector<SimUnit>> fresh_units;
};

Recorded record(const Scenario& s, int steps, RecordingLimits limits = {}) {
  Recorded r{Recording(s, limits), {}, {}};
  Simulation recorded(s);
  REQUIRE(r.recording.capture(recorded));
  for (int i = 0; i < steps; ++i) {
    recorded.step();
    REQUIRE(r.recording.capture(recorded));
  }
  Simulation fresh(s);
  for (int i = 0; i <= steps; ++i) {
    if (i > 0) fresh.step();
    r.fresh_hashes.push_back(fresh.state_hash());
    r.fresh_units.emplace_back(fresh.slots().begin(), fresh.slots().end());
  }
  return r;
}

// The fields a frame keeps equal the simulation's.
void check_units(const std::vector<SimUnit>& frame, const std::vector<SimUnit>& truth) {
  REQUIRE(frame.size() == truth.size());
  for (std::size_t i = 0; i < truth.size(); ++i) {
    const SimUnit& a = frame[i];
    const SimUnit& b = truth[i];
    CAPTURE(i);
    CHECK(a.alive == b.alive);
    if (!b.alive) continue;
    CHECK(a.id == b.id);
    CHECK(a.scenario_id == b.scenario_id);
    CHECK(a.body.position == b.body.position);
    CHECK(a.body.heading == b.body.heading);
    CHECK(a.body.speed == b.body.speed);
    CHECK(a.route.state == b.route.state);
    CHECK(a.coop.yield == b.coop.yield);
    CHECK(a.coop.yield_to == b.coop.yield_to);
    CHECK(a.route.path == b.route.path);
    CHECK(a.route.waypoint == b.route.waypoint);
    CHECK(a.route.order_point == b.route.order_point);
    CHECK(a.goal.arrived == b.goal.arrived);
    CHECK(a.waits.passage == b.waits.passage);
    CHECK(a.waits.bridge == b.waits.bridge);
    CHECK(a.coop.aside == b.coop.aside);
    CHECK(a.coop.get_to == b.coop.get_to);
    // Every field the field list says a frame keeps (sim_fields.hpp), bit for bit.
    CHECK(fields::first_difference(a, b, fields::kFramed) == "");
  }
}

}  // namespace

TEST_CASE("recording: scrubbing to any step gives the state a fresh run has at that step") {
  for (const Scenario& s : {crossing_case(10), bridge_map()}) {
    CAPTURE(s.name);
    const int steps = 500;
    Recorded r = record(s, steps);
    REQUIRE(r.recording.first_step() == 0);
    REQUIRE(r.recording.last_step() == steps);
    // Every step, in an order that jumps back and forth across keyframes.
    std::vector<int> order(steps + 1);
    for (int i = 0; i <= steps; ++i) order[std::size_t(i)] = i;
    std::shuffle(order.begin(), order.end(), std::mt19937_64(7));
    for (int step : order) {
      CAPTURE(step);
      const auto frame = r.recording.frame(std::uint64_t(step));
      REQUIRE(frame.ok());
      CHECK(frame->step == std::uint64_t(step));
      CHECK(r.recording.hash(std::uint64_t(step)) == r.fresh_hashes[std::size_t(step)]);
      CHECK(state_hash(std::uint64_t(step), frame->units) == r.fresh_hashes[std::size_t(step)]);
      if (step % 37 == 0) check_units(frame->units, r.fresh_units[std::size_t(step)]);
    }
    CHECK_FALSE(r.recording.frame(steps + 1).ok());
  }
}

TEST_CASE("recording: collisions of a recorded step are the simulation's") {
  const Scenario s = crossing_case(10);
  Recording rec(s);
  Simulation sim(s);
  REQUIRE(rec.capture(sim));
  std::size_t seen = 0;
  for (int i = 0; i < 400; ++i) {
    sim.step();
    REQUIRE(rec.capture(sim));
    const auto frame = rec.frame(sim.step_count());
    REQUIRE(frame.ok());
    const auto truth = sim.collisions();
    REQUIRE(frame->collisions.size() == truth.size());
    for (std::size_t k = 0; k < truth.size(); ++k) {
      CHECK(frame->collisions[k].a == truth[k].a);
      CHECK(frame->collisions[k].b == truth[k].b);
      CHECK(frame->collisions[k].rule == truth[k].rule);
      CHECK(frame->collisions[k].state == truth[k].state);
      CHECK(frame->collisions[k].hard == truth[k].hard);
      CHECK(frame->collisions[k].immediate == truth[k].immediate);
      CHECK(frame->collisions[k].point == truth[k].point);
      CHECK(frame->collisions[k].time == truth[k].time);
    }
    seen += truth.size();
  }
  CHECK(seen > 0);
}

TEST_CASE("recording: keyframes plus deltas are compact and any keyframe interval decodes the same" *
          doctest::test_suite("sim-long")) {
  const Scenario s = circle_case(100);
  Recorded every = record(s, 300, RecordingLimits{.keyframe_interval = 1});
  Recorded sparse = record(s, 300, RecordingLimits{.keyframe_interval = 64});
  for (std::uint64_t step = 0; step <= 300; step += 7) {
    CHECK(state_hash(step, every.recording.frame(step)->units) ==
          state_hash(step, sparse.recording.frame(step)->units));
  }
  // Keyframes alone (every step a full frame, paths and all) against keyframes plus deltas.
  const double full = double(every.recording.frame_bytes()) / (100.0 * 301.0);
  const double delta = double(sparse.recording.frame_bytes()) / (100.0 * 301.0);
  MESSAGE("bytes per unit-step: keyframes only " << full << ", keyframes plus deltas " << delta);
  CHECK(delta * 4 < full);
  CHECK(sparse.recording.bytes() < every.recording.bytes());
}

TEST_CASE("recording: through the file and back, every frame, hash, decision and stuck flag is the same") {
  Scenario s = crossing_case(10);
  s.sim.stuck_seconds = 2;  // some units get flagged in the crush at the gap
  Recorded r = record(s, 600);
  const std::string bytes = r.recording.to_bytes();
  const auto back = Recording::from_bytes(bytes, "run.psrec");
  REQUIRE(back.ok());
  CHECK(back->first_step() == r.recording.first_step());
  CHECK(back->last_step() == r.recording.last_step());
  CHECK(back->start() == r.recording.start());
  for (std::uint64_t step = 0; step <= 600; step += 13) {
    CAPTURE(step);
    CHECK(back->hash(step) == r.recording.hash(step));
    CHECK(state_hash(step, back->frame(step)->units) == r.recording.hash(step));
  }
  REQUIRE(back->decisions().size() == r.recording.decisions().size());
  CHECK(std::equal(back->decisions().begin(), back->decisions().end(), r.recording.decisions().begin()));
  CHECK(r.recording.stuck().size() > 0);
  REQUIRE(back->stuck().size() == r.recording.stuck().size());
  CHECK(std::equal(back->stuck().begin(), back->stuck().end(), r.recording.stuck().begin()));
  CHECK(back->snapshots().size() == r.recording.snapshots().size());
}

TEST_CASE("recording: a file of version 1 is checked with the hash it was made with, and saved as it came") {
  // tests/data/recording_v1.psrec: 60 steps of maps/sim_bridge.json recorded by the
  // version that hashed only identity, position, heading, speed, state, yield, order point,
  // waypoint and path.
  const std::string path = std::string(PATHSCOPE_SOURCE_DIR) + "/tests/data/recording_v1.psrec";
  const auto old = Recording::load(path);
  REQUIRE_MESSAGE(old.ok(), (old.ok() ? std::string() : old.error().to_string()));
  REQUIRE(old->last_step() == 60);
  const auto report = check_recording(*old, {});
  REQUIRE(report.ok());
  CHECK(report->hash_mismatches == 0);
  CHECK(report->passed());
  // Its frames are today's run's, and its hashes are the first version's of them.
  const auto loaded = load_scenario(std::string(PATHSCOPE_SOURCE_DIR) + "/maps/sim_bridge.json");
  REQUIRE(loaded.ok());
  Simulation sim(*loaded);
  for (std::uint64_t step = 1; step <= 60; ++step) {
    sim.step();
    const auto frame = old->frame(step);
    REQUIRE(frame.ok());
    CHECK(old->hash(step) == state_hash_v1(step, sim.slots(), {}));
    CHECK(old->hash_of(step, frame->units) == old->hash(step));
    CHECK(old->matches(sim));
  }
  // Today's hash covers more of the frame: another value, and any framed field moves it.
  CHECK(state_hash(60, sim.slots()) != old->hash(60));
  std::vector<SimUnit> units(sim.slots().begin(), sim.slots().end());
  const std::uint64_t before = state_hash(60, units);
  units[3].goal.arrived_time += 1;  // not in the first version's hash
  CHECK(state_hash(60, units) != before);
  CHECK(state_hash_v1(60, units, {}) == state_hash_v1(60, sim.slots(), {}));
  // Saved again, it is still a version 1 file that checks.
  const auto again = Recording::from_bytes(old->to_bytes(), "again.psrec");
  REQUIRE(again.ok());
  CHECK(nlohmann::json::from_cbor(again->to_bytes())["version"] == 1);
  CHECK(check_recording(*again, {})->passed());
  // A new recording is version 3 (frames with platoons).
  Recording fresh(*loaded);
  Simulation run(*loaded);
  fresh.capture(run);
  CHECK(nlohmann::json::from_cbor(fresh.to_bytes())["version"] == 3);
}

TEST_CASE("recording: a damaged or foreign file is refused with a message naming the file and the field") {
  const Scenario s = crossing_case(3);
  Recorded r = record(s, 30);
  const std::string bytes = r.recording.to_bytes();
  SUBCASE("not CBOR at all") {
    const auto back = Recording::from_bytes("{\"format\": \"pathscope-scenario\"}", "x.psrec");
    REQUIRE_FALSE(back.ok());
    CHECK(back.error().to_string().find("x.psrec") != std::string::npos);
  }
  SUBCASE("a text file renamed .psrec") {
    // "a" then a newline reads as CBOR: a one-character string.
    for (const char* text : {"a\n", "1"}) {
      const auto back = Recording::from_bytes(text, "notes.psrec");
      REQUIRE_FALSE(back.ok());
      CHECK(back.error().to_string().find("notes.psrec") != std::string::npos);
      CHECK(back.error().to_string().find("not a Pathscope recording") != std::string::npos);
    }
    // Most text is not CBOR at all.
    const auto back = Recording::from_bytes("hello, this is a text file\n", "notes.psrec");
    REQUIRE_FALSE(back.ok());
    CHECK(back.error().to_string().find("not a recording") != std::string::npos);
  }
  SUBCASE("cut short") {
    const auto back = Recording::from_bytes(std::string_view(bytes).substr(0, bytes.size() / 2), "cut.psrec");
    REQUIRE_FALSE(back.ok());
    CHECK(back.error().code == ErrorCode::Parse);
    CHECK(back.error().where == "cut.psrec");
  }
  SUBCASE("another format") {
    nlohmann::json j = nlohmann::json::from_cbor(bytes);
    j["format"] = "pathscope-scenario";
    const std::vector<std::uint8_t> cbor = nlohmann::json::to_cbor(j);
    const auto back = Recording::from_bytes(std::string(cbor.begin(), cbor.end()), "f.psrec");
    REQUIRE_FALSE(back.ok());
    CHECK(back.error().where == "f.psrec: format");
  }
  SUBCASE("offsets past the frames") {
    nlohmann::json j = nlohmann::json::from_cbor(bytes);
    j["offsets"][3] = 1u << 30;
    const std::vector<std::uint8_t> cbor = nlohmann::json::to_cbor(j);
    const auto back = Recording::from_bytes(std::string(cbor.begin(), cbor.end()), "o.psrec");
    REQUIRE_FALSE(back.ok());
    CHECK(back.error().where.find("o.psrec: offsets[") == 0);
  }
  SUBCASE("a damaged frame is reported when read, not a crash") {
    nlohmann::json j = nlohmann::json::from_cbor(bytes);
    auto& frames = j["frames"].get_binary();
    for (std::size_t i = frames.size() / 3; i < frames.size(); ++i) frames[i] = 0xff;
    const std::vector<std::uint8_t> cbor = nlohmann::json::to_cbor(j);
    const auto back = Recording::from_bytes(std::string(cbor.begin(), cbor.end()), "d.psrec");
    REQUIRE(back.ok());
    const auto frame = back->frame(back->last_step());
    REQUIRE_FALSE(frame.ok());
    CHECK(frame.error().where.rfind("d.psrec: frames, bytes ", 0) == 0);
    CHECK(frame.error().message.find(" is damaged: its bytes do not decode") != std::string::npos);
  }
}

TEST_CASE("recording: the memory cap stops recording with a message and keeps what was recorded") {
  const Scenario s = circle_case(100);
  Recording rec(s, RecordingLimits{.max_bytes = 60'000});
  Simulation sim(s);
  bool capturing = rec.capture(sim);
  int steps = 0;
  while (capturing && steps < 1000) {
    sim.step();
    ++steps;
    capturing = rec.capture(sim);
  }
  REQUIRE(rec.stopped());
  CHECK(rec.stop_message().find("memory cap") != std::string::npos);
  CHECK(steps < 1000);
  const std::uint64_t last = rec.last_step();
  sim.step();
  CHECK_FALSE(rec.capture(sim));
  CHECK(rec.last_step() == last);
  CHECK(state_hash(last, rec.frame(last)->units) == rec.hash(last));
}

TEST_CASE("recording: the run is taken up again at any step and goes on exactly as it went") {
  const Scenario s = bridge_map();
  Recorded r = record(s, 700, RecordingLimits{.snapshot_seconds = 5});
  CHECK(r.recording.snapshots().size() >= 4);
  for (std::uint64_t at : {0ull, 1ull, 149ull, 150ull, 151ull, 433ull, 700ull}) {
    CAPTURE(at);
    auto resumed = r.recording.resume(at);
    REQUIRE(resumed.ok());
    CHECK((*resumed)->state_hash() == r.fresh_hashes[at]);
  }
  // Take it up at step 300 and record on: the steps recorded again equal the first run's.
  Recording rec = std::move(r.recording);
  rec.truncate_after(300);
  CHECK(rec.last_step() == 300);
  auto sim = rec.resume(300);
  REQUIRE(sim.ok());
  for (int i = 0; i < 200; ++i) {
    (*sim)->step();
    REQUIRE(rec.capture(**sim));
  }
  for (std::uint64_t step = 290; step <= 500; step += 3) {
    CAPTURE(step);
    CHECK(rec.hash(step) == r.fresh_hashes[step]);
    CHECK(state_hash(step, rec.frame(step)->units) == r.fresh_hashes[step]);
  }
}

TEST_CASE("recording: stuck flags hold from the step flagged until the unit makes progress again") {
  // The bridge's queues: flagged after 10 s of waiting, they cross in turn.
  const Scenario s = bridge_map();
  Recording rec(s);
  Simulation sim(s);
  StuckDetector detector(stuck_params(s.sim));
  REQUIRE(rec.capture(sim));
  std::size_t checked = 0;
  for (int i = 0; i < 1500; ++i) {
    sim.step();
    detector.observe(sim);
    REQUIRE(rec.capture(sim));
    // At every step the recording holds stuck exactly the units a detector watching the
    // same run holds stuck.
    for (const SimUnit& u : sim.slots()) {
      if (!u.alive) continue;
      const auto now = rec.stuck_at(sim.step_count());
      const bool listed = std::find(now.begin(), now.end(), u.id) != now.end();
      CHECK(listed == detector.is_stuck(u.id));
      ++checked;
    }
  }
  CHECK(checked > 0);
  REQUIRE(rec.stuck().size() == detector.events().size());
  std::size_t ended = 0;
  for (const RecordedStuck& r : rec.stuck()) {
    if (r.until == RecordedStuck::kStillStuck) continue;
    ++ended;
    CHECK(r.until > r.step);
    CHECK(std::any_of(rec.decisions().begin(), rec.decisions().end(), [&](const Decision& d) {
      return d.kind == DecisionKind::Unstuck && d.unit == r.unit && d.step == r.until;
    }));
  }
  CHECK(ended >= 5);
}

TEST_CASE("recording: a saved game with the detector's tracks flags units when the run it came from did") {
  const Scenario s = bridge_map();
  Simulation original(s);
  StuckDetector detector(stuck_params(s.sim));
  Scenario saved;
  for (int i = 0; i < 1200; ++i) {
    original.step();
    detector.observe(original);
    if (i + 1 == 200) saved = saved_game(original, detector);
  }
  Recording rec(saved);
  Simulation loaded(saved);
  StuckDetector unused(stuck_params(s.sim));
  REQUIRE(restore_saved_game(loaded, unused, saved.sim_state).ok());
  REQUIRE(rec.capture(loaded));
  while (loaded.step_count() < 1200) {
    loaded.step();
    REQUIRE(rec.capture(loaded));
  }
  std::vector<std::pair<std::uint32_t, double>> want, got;
  for (const StuckEvent& e : detector.events()) {
    if (e.time > 200 * s.sim.dt + 1e-9) want.emplace_back(e.unit, e.time);
  }
  for (const RecordedStuck& r : rec.stuck()) got.emplace_back(r.who, r.time);
  CHECK(want.size() >= 5);
  CHECK(got == want);
}

TEST_CASE("recording: a capture that is not the next step stops the recording") {
  const Scenario s = crossing_case(3);
  Recording rec(s);
  Simulation sim(s);
  REQUIRE(rec.capture(sim));
  sim.step();
  sim.step();
  CHECK_FALSE(rec.capture(sim));
  CHECK(rec.stop_message().find("not the next one") != std::string::npos);
}

TEST_CASE("recording: each unit's log tells its path requests, collisions and the rules that handled them") {
  // Two units head-on in a corridor wide enough for one to step aside.
  Scenario s = test::ascii_scenario({
      "..............",
      "..............",
      "..............",
  });
  s.units = {test::unit_at(1, {1.5, 1.5}), test::unit_at(2, {12.5, 1.5})};
  s.units[0].order = test::move_to({12.5, 1.5});
  s.units[1].order = test::move_to({1.5, 1.5});
  Recording rec(s);
  Simulation sim(s);
  REQUIRE(rec.capture(sim));
  for (int i = 0; i < 900 && sim.arrived_count() < 2; ++i) {
    sim.step();
    REQUIRE(rec.capture(sim));
  }
  REQUIRE(sim.arrived_count() == 2);
  for (const SimUnit& u : sim.slots()) {
    CAPTURE(u.scenario_id);
    std::vector<DecisionKind> kinds;
    bool collided_with_other = false;
    for (std::size_t i : rec.decisions_of(u.id)) {
      const Decision& d = rec.decisions()[i];
      CHECK(d.who == u.scenario_id);
      kinds.push_back(d.kind);
      if (d.kind == DecisionKind::Collision) {
        CHECK(d.has_other);
        CHECK(d.whom != u.scenario_id);
        CHECK(static_cast<CooperationRule>(d.to) != CooperationRule::None);
        collided_with_other = true;
        CHECK(describe(d).find("collision with unit") != std::string::npos);
      }
    }
    REQUIRE(kinds.size() >= 4);
    CHECK(kinds.front() == DecisionKind::Appeared);
    // Ordered from the start, it appears waiting for its path; the path comes next.
    const Decision& appeared = rec.decisions()[rec.decisions_of(u.id).front()];
    CHECK(static_cast<MoveState>(appeared.to) == MoveState::WaitingForPath);
    CHECK(kinds[1] == DecisionKind::PathFound);
    CHECK(kinds.back() == DecisionKind::Arrived);
    CHECK(collided_with_other);
  }
  // Decisions come in order of step.
  CHECK(std::is_sorted(rec.decisions().begin(), rec.decisions().end(),
                       [](const Decision& a, const Decision& b) { return a.step < b.step; }));
}

TEST_CASE("recording: an unreachable order is logged as a failed path") {
  Scenario s = test::ascii_scenario({
      "....#...",
      "....#...",
      "....#...",
  });
  s.units = {test::unit_at(1, {1.5, 1.5})};
  s.units[0].order = test::move_to({6.5, 1.5});
  Recording rec(s);
  Simulation sim(s);
  REQUIRE(rec.capture(sim));
  for (int i = 0; i < 30; ++i) {
    sim.step();
    REQUIRE(rec.capture(sim));
  }
  const auto log = rec.decisions_of(sim.slots()[0].id);
  const bool failed = std::any_of(log.begin(), log.end(), [&](std::size_t i) {
    return rec.decisions()[i].kind == DecisionKind::PathFailed;
  });
  CHECK(failed);
}

TEST_CASE("recording: prevention and avoidance corrections are logged") {
  const auto count = [](Scenario s, DecisionKind kind) {
    Recording rec(s);
    Simulation sim(s);
    REQUIRE(rec.capture(sim));
    for (int i = 0; i < 600; ++i) {
      sim.step();
      REQUIRE(rec.capture(sim));
    }
    std::size_t n = 0;
    for (const Decision& d : rec.decisions()) {
      if (d.kind != kind) continue;
      ++n;
      CHECK(d.value != 0);
    }
    return n;
  };
  Scenario circle = circle_case(40);
  circle.sim.avoidance = AvoidanceMode::PotentialField;
  CHECK(count(circle, DecisionKind::Avoided) > 0);
  // Units placed overlapping are pushed apart.
  Scenario heap = test::ascii_scenario({"......", "......", "......"});
  heap.units = {test::unit_at(1, {2.5, 1.5}), test::unit_at(2, {2.7, 1.5}), test::unit_at(3, {2.6, 1.7})};
  CHECK(count(heap, DecisionKind::Pushed) == 3);
}

}  // namespace pathscope::sim
