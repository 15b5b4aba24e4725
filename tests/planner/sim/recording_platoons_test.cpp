// Recordings of platoon runs: every recorded step keeps the platoons exactly as the live
// run had them (through the file, scrubbed in any order, taken up again), the decision log
// tells the platoons' orders, waits, arrivals and private paths in the order they
// happened, a recording of the format before platoons were recorded still loads (with no
// platoons), and damaged platoon bytes are refused, never read past.

#include "planner/sim/recording.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <fstream>
#include <iterator>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "planner/scenario/scenario_io.hpp"
#include "planner/sim/formation_cases.hpp"
#include "planner/sim/platoon_drive.hpp"
#include "planner/sim/recording_check.hpp"
#include "planner/sim/simulation.hpp"

namespace pathscope::sim {

namespace recording_platoons_test {

Scenario shipped_map(const char* name) {
  const auto s = load_scenario(std::string(PATHSCOPE_SOURCE_DIR) + "/maps/" + name);
  REQUIRE_MESSAGE(s.ok(), (s.ok() ? std::string() : s.error().to_string()));
  return *s;
}

bool same_bits(double a, double b) {
  return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}
bool same_point(Vec2 a, Vec2 b) { return same_bits(a.x, b.x) && same_bits(a.y, b.y); }
bool same_points(std::span<const Vec2> a, std::span<const Vec2> b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), same_point);
}

// The first field in which two platoons differ ("" when none), every field compared, doubles
// bit for bit. Written field by field from platoon_drive.hpp, apart from the codec it checks.
std::string first_difference(const PlatoonRun& a, const PlatoonRun& b) {
  if (a.group != b.group) return "group";
  if (a.slots != b.slots) return "slots";
  if (a.path_class != b.path_class) return "path_class";
  if (a.from.shape != b.from.shape || !same_points(a.from.offsets, b.from.offsets)) return "from";
  if (a.to.shape != b.to.shape || !same_points(a.to.offsets, b.to.offsets)) return "to";
  if (!same_bits(a.spacing, b.spacing)) return "spacing";
  const double pa[] = {a.params.max_speed,
                       a.params.acceleration,
                       a.params.turn_rate,
                       a.params.corner_lookahead,
                       a.params.slack,
                       a.params.wait_factor,
                       a.params.resume_factor,
                       a.params.obstacle_slowdown,
                       a.params.formation_change_seconds,
                       a.params.final_heading_tolerance,
                       a.params.wait_patience,
                       a.params.press_on_factor};
  const double pb[] = {b.params.max_speed,
                       b.params.acceleration,
                       b.params.turn_rate,
                       b.params.corner_lookahead,
                       b.params.slack,
                       b.params.wait_factor,
                       b.params.resume_factor,
                       b.params.obstacle_slowdown,
                       b.params.formation_change_seconds,
                       b.params.final_heading_tolerance,
                       b.params.wait_patience,
                       b.params.press_on_factor};
  for (std::size_t k = 0; k < std::size(pa); ++k) {
    if (!same_bits(pa[k], pb[k])) return "params[" + std::to_string(k) + "]";
  }
  if (a.order != b.order) return "order";
  if (!same_point(a.goal, b.goal)) return "goal";
  if (!same_points(a.legs, b.legs)) return "legs";
  if (a.final_heading.has_value() != b.final_heading.has_value() ||
      (a.final_heading && !same_bits(*a.final_heading, *b.final_heading)))
    return "final_heading";
  if (!(a.requester == b.requester)) return "requester";
  if (!same_points(a.path, b.path)) return "path";
  if (!same_points(a.walk.points(), b.walk.points())) return "walk.points";
  if (!same_bits(a.walk.path_start(), b.walk.path_start())) return "walk.path_start";
  if (!same_bits(a.walk.length(), b.walk.length())) return "walk.length";
  const PlatoonMotion& ma = a.motion;
  const PlatoonMotion& mb = b.motion;
  if (!same_point(ma.position, mb.position)) return "motion.position";
  if (!same_bits(ma.heading, mb.heading)) return "motion.heading";
  if (!same_bits(ma.speed, mb.speed)) return "motion.speed";
  if (!same_bits(ma.along, mb.along)) return "motion.along";
  if (ma.phase != mb.phase) return "motion.phase";
  if (!same_bits(ma.final_heading, mb.final_heading)) return "motion.final_heading";
  if (!same_bits(ma.formation_blend, mb.formation_blend)) return "motion.formation_blend";
  if (!same_bits(ma.wait_best, mb.wait_best)) return "motion.wait_best";
  if (!same_bits(ma.wait_stalled, mb.wait_stalled)) return "motion.wait_stalled";
  if (ma.pressing_on != mb.pressing_on) return "motion.pressing_on";
  if (a.morph.size() != b.morph.size() ||
      !std::equal(a.morph.begin(), a.morph.end(), b.morph.begin(), same_bits))
    return "morph";
  if (a.targets.size() != b.targets.size()) return "targets";
  for (std::size_t k = 0; k < a.targets.size(); ++k) {
    const SlotTarget& ta = a.targets[k];
    const SlotTarget& tb = b.targets[k];
    if (!same_point(ta.formation, tb.formation) || !same_point(ta.column, tb.column) ||
        !same_point(ta.drive_to, tb.drive_to) || !same_bits(ta.morph, tb.morph))
      return "targets[" + std::to_string(k) + "]";
  }
  if (a.crews.size() != b.crews.size()) return "crews";
  for (std::size_t k = 0; k < a.crews.size(); ++k) {
    const CrewState& ca = a.crews[k];
    const CrewState& cb = b.crews[k];
    const std::string at = "crews[" + std::to_string(k) + "].";
    if (ca.direction != cb.direction || ca.backing_turn != cb.backing_turn || ca.turn_side != cb.turn_side)
      return at + "direction";
    if (ca.heading_case != cb.heading_case) return at + "heading_case";
    if (!same_point(ca.steering, cb.steering)) return at + "steering";
    if (!(ca.avoided == cb.avoided) || ca.stopped != cb.stopped) return at + "avoided";
    if (!same_points(ca.private_path.points(), cb.private_path.points()) ||
        ca.private_path.index() != cb.private_path.index() ||
        !same_bits(ca.private_path.release_distance(), cb.private_path.release_distance()))
      return at + "private_path";
    if (ca.private_path_pending != cb.private_path_pending) return at + "private_path_pending";
    if (!same_bits(ca.last_check, cb.last_check)) return at + "last_check";
    if (ca.private_paths != cb.private_paths || ca.three_point_turns != cb.three_point_turns)
      return at + "counts";
  }
  if (!same_bits(a.arrived_time, b.arrived_time)) return "arrived_time";
  return {};
}

std::string first_difference(std::span<const PlatoonRun> a, std::span<const PlatoonRun> b) {
  if (a.size() != b.size()) return "count " + std::to_string(a.size()) + " vs " + std::to_string(b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::string d = first_difference(a[i], b[i]); !d.empty())
      return "platoons[" + std::to_string(i) + "]." + d;
  }
  return {};
}

// A run recorded step by step, with each step's live platoons and state hash.
struct PlatoonRecord {
  Recording recording;
  std::vector<std::vector<PlatoonRun>> live;
  std::vector<std::uint64_t> hashes;
};

PlatoonRecord record_run(const Scenario& s, int steps, RecordingLimits limits) {
  PlatoonRecord r{Recording(s, limits), {}, {}};
  Simulation sim(s);
  REQUIRE(r.recording.capture(sim));
  r.live.emplace_back(sim.platoons().begin(), sim.platoons().end());
  r.hashes.push_back(sim.state_hash());
  for (int i = 0; i < steps; ++i) {
    sim.step();
    REQUIRE(r.recording.capture(sim));
    r.live.emplace_back(sim.platoons().begin(), sim.platoons().end());
    r.hashes.push_back(sim.state_hash());
  }
  return r;
}

// The platoon decisions of a recording, in order.
bool platoon_kind(DecisionKind k) { return k >= DecisionKind::PlatoonPathRequested; }

// Each vehicle's private paths in the log: asked for, then found or not, in turn; each found
// is the path its crew then drives (length, points, end) and there are as many as its crew
// counted. Returns the paths found.
std::size_t check_private_path_log(const PlatoonRecord& r) {
  const auto decisions = r.recording.decisions();
  std::size_t found_all = 0;
  for (std::size_t i = 0; i < r.live.back().size(); ++i) {
    const PlatoonRun& p = r.live.back()[i];
    for (std::size_t k = 0; k < p.slots.size(); ++k) {
      CAPTURE(i);
      CAPTURE(k);
      std::vector<const Decision*> own;
      for (const std::size_t e : r.recording.decisions_of(p.slots[k])) {
        if (decisions[e].kind >= DecisionKind::VehiclePathRequested) own.push_back(&decisions[e]);
      }
      std::uint32_t found = 0;
      for (std::size_t e = 0; e < own.size(); ++e) {
        const Decision& d = *own[e];
        if (e % 2 == 0) {
          CHECK(d.kind == DecisionKind::VehiclePathRequested);
          CHECK(r.live[d.step][i].crews[k].private_path_pending);
          continue;
        }
        CHECK(d.kind != DecisionKind::VehiclePathRequested);
        if (d.kind != DecisionKind::VehiclePathFound) continue;
        ++found;
        const PrivatePath& path = r.live[d.step][i].crews[k].private_path;
        REQUIRE(path.points().size() >= 2);
        CHECK(d.count == path.points().size());
        CHECK(d.point == path.points().back());
        double length = 0;
        for (std::size_t q = 1; q < path.points().size(); ++q)
          length += std::hypot(path.points()[q].x - path.points()[q - 1].x,
                               path.points()[q].y - path.points()[q - 1].y);
        CHECK(d.value == doctest::Approx(length));
      }
      std::uint32_t counted = 0;
      for (const auto& step : r.live) {
        if (k < step[i].crews.size()) counted = std::max(counted, step[i].crews[k].private_paths);
      }
      CHECK(found == counted);
      found_all += found;
    }
  }
  return found_all;
}

}  // namespace recording_platoons_test

using recording_platoons_test::first_difference;

TEST_CASE("recording platoons: the comparison finds a platoon changed in any one field") {
  // The checks below rest on first_difference: it must see a one-bit change.
  using recording_platoons_test::shipped_map;
  Simulation sim(shipped_map("platoon_turn.json"));
  for (int i = 0; i < 120; ++i) sim.step();
  const PlatoonRun truth = sim.platoons()[0];
  REQUIRE(truth.order == PlatoonOrderState::Driving);
  REQUIRE_FALSE(truth.crews.empty());
  CHECK(first_difference(truth, truth) == "");
  auto nudged = [](double v) { return std::nextafter(v, 1e300); };
  PlatoonRun p = truth;
  p.motion.along = nudged(p.motion.along);
  CHECK(first_difference(truth, p) == "motion.along");
  p = truth;
  p.targets.back().drive_to.y = nudged(p.targets.back().drive_to.y);
  CHECK(first_difference(truth, p) == "targets[3]");
  p = truth;
  p.crews[1].steering.x = nudged(p.crews[1].steering.x);
  CHECK(first_difference(truth, p) == "crews[1].steering");
  p = truth;
  p.params.slack = nudged(p.params.slack);
  CHECK(first_difference(truth, p) == "params[4]");
}

TEST_CASE(
    "recording platoons: every recorded step's platoons are the live ones, bit for bit, through the file") {
  using namespace recording_platoons_test;
  struct Run {
    const char* map;
    int steps;
  };
  // platoon_formations: four platoons from start to done; platoon_turn: a wedge's turn round
  // an obstacle, with waits and private paths.
  for (const Run run : {Run{"platoon_formations.json", 1850}, Run{"platoon_turn.json", 2800}}) {
    CAPTURE(run.map);
    const Scenario s = shipped_map(run.map);
    PlatoonRecord r =
        record_run(s, run.steps, RecordingLimits{.keyframe_interval = 16, .snapshot_seconds = 5});
    // The run has platoons under way, then done.
    std::size_t driving = 0, done = 0;
    for (const auto& step : r.live) {
      for (const PlatoonRun& p : step) {
        driving += p.order == PlatoonOrderState::Driving && !p.crews.empty();
        done += p.order == PlatoonOrderState::None && p.motion.phase == PlatoonPhase::Arrived;
      }
    }
    CHECK(driving > 500);
    CHECK(done > 0);

    const std::string bytes = r.recording.to_bytes();
    CHECK(nlohmann::json::from_cbor(bytes)["version"] == 3);
    const auto back = Recording::from_bytes(bytes, "platoons.psrec");
    REQUIRE_MESSAGE(back.ok(), (back.ok() ? std::string() : back.error().to_string()));
    REQUIRE(back->last_step() == std::uint64_t(run.steps));
    // In order, each frame from the one before.
    std::uint64_t seen = 0;
    const Status all = back->for_each_frame([&](const Frame& f) {
      CAPTURE(f.step);
      CHECK(first_difference(f.platoons, r.live[f.step]) == "");
      CHECK(state_hash(f.step, f.units) == r.hashes[f.step]);
      ++seen;
      return true;
    });
    REQUIRE(all.ok());
    CHECK(seen == std::uint64_t(run.steps) + 1);
    // Scrubbed at random, each from its keyframe, in the recording made here and the one read back.
    std::vector<std::uint64_t> order(std::size_t(run.steps) + 1);
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::shuffle(order.begin(), order.end(), std::mt19937_64(11));
    order.resize(150);
    for (const std::uint64_t step : order) {
      CAPTURE(step);
      for (const Recording* rec : {static_cast<const Recording*>(&r.recording), &*back}) {
        const auto f = rec->frame(step);
        REQUIRE(f.ok());
        CHECK(first_difference(f->platoons, r.live[step]) == "");
        CHECK(state_hash(step, f->units) == r.hashes[step]);
      }
    }
    // Taken up again at recorded steps, the run has the recorded state and platoons.
    for (const std::uint64_t step : {0ull, 151ull, 400ull, 1000ull, 1801ull}) {
      CAPTURE(step);
      auto resumed = back->resume(step);
      REQUIRE_MESSAGE(resumed.ok(), (resumed.ok() ? std::string() : resumed.error().to_string()));
      CHECK((*resumed)->state_hash() == r.hashes[step]);
      CHECK(first_difference((*resumed)->platoons(), r.live[step]) == "");
    }
    // The checker of `pathscope check-recording` passes it too.
    const auto report = check_recording(*back, RecordingCheckParams{{400}, 20});
    REQUIRE(report.ok());
    CHECK(report->passed());
  }
}

TEST_CASE(
    "recording platoons: the log tells a platoon's order, waits, private paths, arrival and end in order") {
  using namespace recording_platoons_test;
  const Scenario s = shipped_map("platoon_turn.json");
  PlatoonRecord r = record_run(s, 2800, RecordingLimits{});
  const Recording& rec = r.recording;
  const auto decisions = rec.decisions();
  // Every platoon decision is of the requester: the first vehicle of group 1's four.
  const PlatoonRun& p = r.live.back()[0];
  const UnitId requester = p.requester;
  CHECK(requester == p.slots[0]);
  std::vector<DecisionKind> platoon;
  std::vector<std::uint64_t> at;
  for (const Decision& d : decisions) {
    if (!platoon_kind(d.kind) || d.kind >= DecisionKind::VehiclePathRequested) continue;
    CHECK(d.unit == requester);
    platoon.push_back(d.kind);
    at.push_back(d.step);
  }
  // Ordered from the start: asked at the first capture, answered by the first step; then it
  // waits for stragglers and goes on, in pairs; then its last turn ends, and it is done.
  REQUIRE(platoon.size() >= 4);
  CHECK(platoon[0] == DecisionKind::PlatoonPathRequested);
  CHECK(at[0] == 0);
  CHECK(platoon[1] == DecisionKind::PlatoonPathFound);
  CHECK(at[1] == 1);
  CHECK(platoon[platoon.size() - 2] == DecisionKind::PlatoonArrived);
  CHECK(platoon.back() == DecisionKind::PlatoonDone);
  std::size_t waits = 0;
  for (std::size_t i = 2; i + 2 < platoon.size(); ++i) {
    CAPTURE(i);
    REQUIRE(platoon[i] == DecisionKind::PlatoonWait);
    const Decision& d = *std::find_if(decisions.begin(), decisions.end(), [&](const Decision& e) {
      return e.kind == DecisionKind::PlatoonWait && e.step == at[i];
    });
    CHECK(d.to == ((i - 2) % 2 == 0 ? 1 : 0));  // begins, then goes on
    if (d.to == 1) {
      ++waits;
      // The straggler is one of its vehicles, as far from its point as the live platoon shows.
      CHECK(d.has_other);
      CHECK(std::find(p.slots.begin(), p.slots.end(), d.other) != p.slots.end());
      CHECK(r.live[d.step][0].motion.phase == PlatoonPhase::Waiting);
      CHECK(d.value > 0);
    } else {
      CHECK(r.live[d.step][0].motion.phase != PlatoonPhase::Waiting);
    }
  }
  MESSAGE("platoon_turn: " << waits << " waits, " << platoon.size() << " platoon decisions");
  // The steps the live run says: arrival when its phase became Arrived, done when its order ended.
  std::uint64_t arrived = 0, finished = 0;
  for (std::size_t k = 1; k < r.live.size(); ++k) {
    const PlatoonRun& now = r.live[k][0];
    const PlatoonRun& was = r.live[k - 1][0];
    if (now.motion.phase == PlatoonPhase::Arrived && was.motion.phase != PlatoonPhase::Arrived) arrived = k;
    if (now.order == PlatoonOrderState::None && was.order == PlatoonOrderState::Driving) finished = k;
  }
  CHECK(at[at.size() - 2] == arrived);
  CHECK(at.back() == finished);
  // Each private path in the log is the one its crew drove, as many as it counted.
  MESSAGE("platoon_turn: " << check_private_path_log(r) << " private paths");
  // Every kind reads as a sentence and has its own snake_case name.
  std::set<std::string> names;
  for (int k = 0; k <= static_cast<int>(DecisionKind::VehiclePathFailed); ++k) {
    const std::string name = to_string(static_cast<DecisionKind>(k));
    CHECK(name.find_first_not_of("abcdefghijklmnopqrstuvwxyz_") == std::string::npos);
    names.insert(name);
  }
  CHECK(names.size() == std::size_t(static_cast<int>(DecisionKind::VehiclePathFailed) + 1));
  for (const Decision& d : decisions) CHECK_FALSE(describe(d).empty());
  // Through the file, the log is the same.
  const auto back = Recording::from_bytes(rec.to_bytes(), "log.psrec");
  REQUIRE(back.ok());
  CHECK(std::equal(back->decisions().begin(), back->decisions().end(), decisions.begin(), decisions.end()));
}

TEST_CASE("recording platoons: orders given while it runs are logged as asked for, then found or not") {
  using namespace recording_platoons_test;
  // platoon_turn.json's building covers (100, 100) to (240, 240): no path leads into it.
  const Scenario s = shipped_map("platoon_turn.json");
  Recording rec(s);
  Simulation sim(s);
  REQUIRE(rec.capture(sim));
  const auto run = [&](int steps) {
    for (int i = 0; i < steps; ++i) {
      sim.step();
      REQUIRE(rec.capture(sim));
    }
  };
  run(300);
  const std::size_t before = rec.decisions().size();
  const auto move_to = [](Vec2 p) { return Order{OrderKind::Move, {p}, PatrolMode::Loop}; };
  REQUIRE(sim.order_platoon(1, move_to({200, 200}), std::nullopt).ok());
  run(30);
  CHECK(sim.platoons()[0].order != PlatoonOrderState::Driving);
  for (const UnitId id : sim.platoons()[0].slots) CHECK(sim.unit(id)->route.state == MoveState::Failed);
  REQUIRE(sim.order_platoon(1, move_to({60, 200}), std::nullopt).ok());
  run(30);
  CHECK(sim.platoons()[0].order == PlatoonOrderState::Driving);
  std::vector<const Decision*> log;
  for (std::size_t i = before; i < rec.decisions().size(); ++i) {
    const Decision& d = rec.decisions()[i];
    if (platoon_kind(d.kind) && d.kind < DecisionKind::PlatoonWait) log.push_back(&d);
  }
  REQUIRE(log.size() == 4);
  CHECK(log[0]->kind == DecisionKind::PlatoonPathRequested);
  CHECK(log[0]->step == 301);
  CHECK(log[0]->point == Vec2{200, 200});
  CHECK(log[1]->kind == DecisionKind::PlatoonPathFailed);
  CHECK(log[1]->point == Vec2{200, 200});
  CHECK(log[2]->kind == DecisionKind::PlatoonPathRequested);
  CHECK(log[2]->step == 331);
  CHECK(log[2]->point == Vec2{60, 200});
  CHECK(log[3]->kind == DecisionKind::PlatoonPathFound);
  CHECK(log[3]->point == sim.platoons()[0].path.back());
  CHECK(log[3]->count == sim.platoons()[0].path.size());
  for (const Decision* d : log) CHECK(d->unit == sim.platoons()[0].requester);
}

TEST_CASE("recording platoons: a vehicle cut off from its point logs its private path asked for and found") {
  using namespace recording_platoons_test;
  // The shipped platoon_turn: once in the run, a vehicle is cut off from its drive-to
  // point by the wall it turns round (seed 004's bad-position check) and asks for a path
  // of its own.
  PlatoonRecord r = record_run(shipped_map("platoon_turn.json"), 2800, RecordingLimits{});
  CHECK(check_private_path_log(r) >= 1);
  // Through the file, and the frames show the crew driving it.
  const auto back = Recording::from_bytes(r.recording.to_bytes(), "bridge.psrec");
  REQUIRE(back.ok());
  for (const Decision& d : back->decisions()) {
    if (d.kind != DecisionKind::VehiclePathFound) continue;
    const auto f = back->frame(d.step);
    REQUIRE(f.ok());
    CHECK(first_difference(f->platoons, r.live[d.step]) == "");
    bool driven = false;
    for (const PlatoonRun& p : f->platoons) {
      for (std::size_t k = 0; k < p.slots.size() && k < p.crews.size(); ++k)
        driven = driven || (p.slots[k] == d.unit && p.crews[k].private_path.active());
    }
    CHECK(driven);
  }
}

TEST_CASE(
    "recording platoons: a recording of the format before platoons loads, its frames without platoons") {
  using namespace recording_platoons_test;
  // tests/data/recording_v2_platoon_turn.psrec: `pathscope simulate maps/platoon_turn.json
  // --steps 90 --record ...` by the version before frames carried platoons (version 2).
  const std::string path = std::string(PATHSCOPE_SOURCE_DIR) + "/tests/data/recording_v2_platoon_turn.psrec";
  std::ifstream in(path, std::ios::binary);
  const std::string file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  REQUIRE(nlohmann::json::from_cbor(file)["version"] == 2);
  const auto old = Recording::load(path);
  REQUIRE_MESSAGE(old.ok(), (old.ok() ? std::string() : old.error().to_string()));
  REQUIRE(old->last_step() == 90);
  const auto report = check_recording(*old, {});
  REQUIRE(report.ok());
  CHECK(report->hash_mismatches == 0);
  CHECK(report->passed());
  // Every frame decodes to the units whose hash it recorded, with no platoons (the
  // vehicles' own moves have changed since: today's run of the map is not that one).
  for (std::uint64_t step = 0; step <= 90; ++step) {
    CAPTURE(step);
    const auto f = old->frame(step);
    REQUIRE(f.ok());
    CHECK(f->platoons.empty());
    CHECK(state_hash(step, f->units) == old->hash(step));
  }
  // Saved again, it is of today's version, and still reads with no platoons.
  const auto again = Recording::from_bytes(old->to_bytes(), "again.psrec");
  REQUIRE(again.ok());
  CHECK(nlohmann::json::from_cbor(again->to_bytes())["version"] == 3);
  CHECK(again->frame(90)->platoons.empty());
  CHECK(check_recording(*again, {})->passed());
}

TEST_CASE(
    "recording platoons: a frame writes the bytes of the format before, then the platoons when there are "
    "any") {
  using recording_platoons_test::PlatoonRecord;
  using recording_platoons_test::record_run;
  const auto frames_of = [](const Recording& rec) {
    const nlohmann::json j = nlohmann::json::from_cbor(rec.to_bytes());
    const auto& bytes = j["frames"].get_binary();
    std::vector<std::string> out;
    const auto& offsets = j["offsets"];
    for (std::size_t i = 0; i < offsets.size(); ++i) {
      const std::size_t begin = offsets[i].get<std::size_t>();
      const std::size_t end = i + 1 < offsets.size() ? offsets[i + 1].get<std::size_t>() : bytes.size();
      out.emplace_back(bytes.begin() + std::ptrdiff_t(begin), bytes.begin() + std::ptrdiff_t(end));
    }
    return out;
  };
  const std::string data = std::string(PATHSCOPE_SOURCE_DIR) + "/tests/data/";
  SUBCASE("a run without platoons: the same bytes") {
    // recording_v2_no_platoons.psrec: maps/platoon_turn.json with its group's platoon
    // taken out (four units under a group order), 90 steps, recorded by version 2.
    const auto old = Recording::load(data + "recording_v2_no_platoons.psrec");
    REQUIRE(old.ok());
    PlatoonRecord now = record_run(old->start(), 90, old->limits());
    REQUIRE(now.live.back().empty());
    CHECK(now.recording.frame_bytes() == old->frame_bytes());
    CHECK(frames_of(now.recording) == frames_of(*old));
    CHECK(now.hashes.back() == old->hash(90));
  }
  SUBCASE("a platoon run: the bytes of version 2, then the platoons") {
    const auto old = Recording::load(data + "recording_v2_platoon_turn.psrec");
    REQUIRE(old.ok());
    PlatoonRecord now = record_run(old->start(), 90, old->limits());
    const std::vector<std::string> was = frames_of(*old), is = frames_of(now.recording);
    REQUIRE(was.size() == is.size());
    // Over the steps where today's run is still the recorded one (its vehicles' moves
    // have changed since), each frame is the old bytes, then the platoons.
    std::size_t same = 0;
    while (same <= 90 && now.hashes[same] == old->hash(same)) ++same;
    REQUIRE(same >= 10);
    for (std::size_t i = 0; i < same && i < was.size(); ++i) {
      CAPTURE(i);
      CHECK(is[i].size() > was[i].size());
      CHECK(is[i].compare(0, was[i].size(), was[i]) == 0);
    }
    MESSAGE("platoon_turn, 90 steps: frames of " << old->frame_bytes() << " bytes without the platoon, "
                                                 << now.recording.frame_bytes() << " with it");
  }
}

TEST_CASE("recording platoons: damaged platoon bytes are refused naming the frame, never read past") {
  using namespace recording_platoons_test;
  PlatoonRecord r = record_run(shipped_map("platoon_turn.json"), 200,
                               RecordingLimits{.keyframe_interval = 8, .snapshot_seconds = 100});
  const nlohmann::json good = nlohmann::json::from_cbor(r.recording.to_bytes());
  const auto& frames = good["frames"].get_binary();
  const auto& offsets = good["offsets"];
  std::mt19937_64 rng(5);
  std::size_t refused = 0, read = 0;
  for (int trial = 0; trial < 300; ++trial) {
    nlohmann::json j = good;
    auto& bytes = j["frames"].get_binary();
    // Damage the last bytes of a frame: its platoons' part.
    const std::size_t frame = 1 + rng() % (offsets.size() - 2);
    const std::size_t end = offsets[frame + 1].get<std::size_t>();
    const std::size_t begin = offsets[frame].get<std::size_t>();
    const std::size_t at = end - 1 - rng() % std::min<std::size_t>(end - begin, 200);
    bytes[at] = static_cast<std::uint8_t>(trial % 3 == 0 ? 0xff : bytes[at] ^ (1u << (rng() % 8)));
    const std::vector<std::uint8_t> cbor = nlohmann::json::to_cbor(j);
    const auto back = Recording::from_bytes(std::string(cbor.begin(), cbor.end()), "hurt.psrec");
    REQUIRE(back.ok());  // frames are checked when read
    const auto f = back->frame(r.recording.first_step() + frame);
    if (f.ok()) {
      ++read;
    } else {
      ++refused;
      CHECK(f.error().where.rfind("hurt.psrec: frames, bytes ", 0) == 0);
    }
  }
  CHECK(refused > 0);
  CHECK(frames.size() > 0);
  MESSAGE("damaged platoon bytes: " << refused << " refused, " << read << " read as other values");
}

}  // namespace pathscope::sim
