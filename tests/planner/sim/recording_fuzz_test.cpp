// A seeded mutation fuzzer for recordings (issue 33), driving the code of `pathscope
// check-recording` (planner/sim/recording_check): a real recording of a shipped scenario,
// damaged as a cut download, a bad disk or a hand edit would (the file cut short, bits
// flipped, stretches of it copied over others; and inside a well-formed file, the bytes
// of its frames and its log damaged, its fields given other numbers or types, the saved
// states of its snapshots edited). Each is refused naming the file and never showing raw
// json.exception text, or read, checked frame by frame, taken up again and saved again.
// Run under the sanitizers in CI (the unit tier), where a read out of bounds fails.
//
// Also the findings it made, each a test that failed before: a path whose kept prefix and
// suffix wrap around (a read far past the path), a snapshot whose state is at another
// step (a resume that runs for 2^40 steps), CBOR nested a million deep (the stack), and
// fields of another type (raw json.exception text).

#include <cstdint>
#include <iterator>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "planner/scenario/scenario_io.hpp"
#include "planner/sim/recording.hpp"
#include "planner/sim/recording_check.hpp"
#include "planner/sim/simulation.hpp"
#include "tests/json_mutation.hpp"
#include "tests/sanitizer_share.hpp"

namespace pathscope::sim {

namespace {

using test::Json;
using test::pick;
using test::Rng;

constexpr const char* kName = "fuzz.psrec";

// A recording of the bridge scenario: 240 steps, a keyframe every 16, a snapshot every second.
const std::string& recorded_bytes() {
  static const std::string bytes = [] {
    const auto s = load_scenario(std::string(PATHSCOPE_SOURCE_DIR) + "/maps/sim_bridge.json");
    REQUIRE(s.ok());
    Recording rec(
        *s,
        RecordingLimits{.max_bytes = std::size_t{64} << 20, .keyframe_interval = 16, .snapshot_seconds = 1});
    Simulation simulation(*s);
    REQUIRE(rec.capture(simulation));
    for (int i = 0; i < 240; ++i) {
      simulation.step();
      REQUIRE(rec.capture(simulation));
    }
    return rec.to_bytes();
  }();
  return bytes;
}

Json recorded_json() { return Json::from_cbor(recorded_bytes()); }

std::string to_bytes(const Json& j) {
  const std::vector<std::uint8_t> cbor = Json::to_cbor(j);
  return std::string(cbor.begin(), cbor.end());
}

// A refusal names the file and shows no parser's text.
void check_refusal(const Error& e) {
  const std::string message = e.to_string();
  CHECK_MESSAGE(message.find(kName) != std::string::npos, message);
  CHECK_MESSAGE(message.find("json.exception") == std::string::npos, message);
}

// Damage to raw bytes.
void damage_bytes(Rng& rng, std::string& bytes) {
  if (bytes.empty()) return;
  switch (pick(rng, 4)) {
    case 0:  // cut short
      bytes.resize(pick(rng, bytes.size()));
      break;
    case 1: {  // bits flipped
      const std::size_t flips = 1 + pick(rng, 8);
      for (std::size_t k = 0; k < flips; ++k) bytes[pick(rng, bytes.size())] ^= char(1 << pick(rng, 8));
      break;
    }
    case 2: {  // a stretch copied over another
      const std::size_t len = 1 + pick(rng, std::min<std::size_t>(64, bytes.size()));
      const std::size_t from = pick(rng, bytes.size() - len + 1), to = pick(rng, bytes.size() - len + 1);
      bytes.replace(to, len, bytes.substr(from, len));
      break;
    }
    default: {  // a stretch of one byte
      const std::size_t len = 1 + pick(rng, std::min<std::size_t>(16, bytes.size()));
      const std::size_t at = pick(rng, bytes.size() - len + 1);
      const char v = "\x00\xff\x7f\x80\x01"[pick(rng, 5)];
      for (std::size_t k = 0; k < len; ++k) bytes[at + k] = v;
      break;
    }
  }
}

// Damage to a binary field of a well-formed file: the frames or the log.
void damage_binary(Rng& rng, Json& j, const char* field) {
  auto& bin = j[field].get_binary();
  std::string bytes(bin.begin(), bin.end());
  damage_bytes(rng, bytes);
  bin.assign(bytes.begin(), bytes.end());
}

// Another value for a number or a list: as a hand edit or another program might write.
Json other_value(Rng& rng, const Json& v) {
  switch (pick(rng, 12)) {
    case 0: return -1;
    case 1: return 0;
    case 2: return std::numeric_limits<std::uint64_t>::max();
    case 3: return std::uint64_t{1} << 40;
    case 4: return v.is_number_unsigned() ? Json(v.get<std::uint64_t>() + 1) : Json(1);
    case 5:
      return v.is_number_unsigned() && v.get<std::uint64_t>() > 0 ? Json(v.get<std::uint64_t>() - 1)
                                                                  : Json(2);
    case 6: return 1.5;
    case 7: return "x";
    case 8: return Json::array();
    case 9: return Json::object();
    case 10: return nullptr;
    default: return std::numeric_limits<double>::quiet_NaN();
  }
}

// One edit of a field of a well-formed file.
void edit_field(Rng& rng, Json& j) {
  static const char* kFields[] = {"first_step", "keyframe_interval", "snapshot_seconds",
                                  "max_bytes",  "offsets",           "hashes",
                                  "worlds",     "snapshots",         "stuck",
                                  "stopped",    "version",           "scenario",
                                  "frames",     "decisions"};
  const char* field = kFields[pick(rng, std::size(kFields))];
  Json& v = j[field];
  if (v.is_array() && !v.empty() && pick(rng, 4) != 0) {
    switch (pick(rng, 4)) {
      case 0: v.erase(pick(rng, v.size())); return;
      case 1: v.push_back(v[pick(rng, v.size())]); return;
      case 2: {
        Json& item = v[pick(rng, v.size())];
        if (item.is_object() && !item.empty()) {
          auto it = item.begin();
          std::advance(it, static_cast<std::ptrdiff_t>(pick(rng, item.size())));
          if (pick(rng, 3) == 0) {
            item.erase(it);
          } else {
            it.value() = other_value(rng, it.value());
          }
        } else {
          item = other_value(rng, item);
        }
        return;
      }
      default: std::swap(v[pick(rng, v.size())], v[pick(rng, v.size())]); return;
    }
  }
  if (pick(rng, 8) == 0) {
    j.erase(field);
  } else {
    v = other_value(rng, v);
  }
}

// One number of a snapshot's saved state edited (its text stays JSON).
void edit_snapshot_state(Rng& rng, Json& j) {
  Json& snapshots = j["snapshots"];
  if (snapshots.empty()) return;
  Json& snap = snapshots[pick(rng, snapshots.size())];
  Json state = Json::parse(snap["state"].get<std::string>());
  std::vector<Json*> numbers;
  std::vector<Json*> stack{&state};
  while (!stack.empty()) {
    Json* v = stack.back();
    stack.pop_back();
    if (v->is_number()) numbers.push_back(v);
    if (v->is_structured()) {
      for (Json& child : *v) stack.push_back(&child);
    }
  }
  if (numbers.empty()) return;
  Json& n = *numbers[pick(rng, numbers.size())];
  static const double kValues[] = {-1, 0, 1e300, -1e300, 1e6, 0.5, 4294967296.0};
  n = pick(rng, 4) == 0 ? Json(n.get<double>() + 1) : Json(kValues[pick(rng, std::size(kValues))]);
  snap["state"] = state.dump();
}

struct RecordingTally {
  int refused = 0;      // refused when read
  int damaged = 0;      // read, but a frame refused when checked
  int checked = 0;      // read and checked
  int resumed = 0;      // runs taken up again that matched the recording
  int not_resumed = 0;  // runs that could not be, or left the recording (named in the report)
};

// Reads `bytes` as the check command does, then saves what was read and reads it again.
void read_and_check(Rng& rng, const std::string& bytes, RecordingTally& tally) {
  const auto rec = Recording::from_bytes(bytes, kName);
  if (!rec) {
    ++tally.refused;
    check_refusal(rec.error());
    return;
  }
  RecordingCheckParams params;
  params.run_on = 5;
  if (!rec->empty()) {
    const std::uint64_t span = rec->last_step() - rec->first_step() + 1;
    params.resume_at = {rec->first_step() +
                        pick(rng, static_cast<std::size_t>(std::min<std::uint64_t>(span, 1000)))};
  }
  params.resume_at.push_back(rec->last_step() + 7);  // not recorded: refused, naming the file
  const auto report = check_recording(*rec, params);
  if (!report) {
    ++tally.damaged;
    check_refusal(report.error());
    CHECK(report.error().where.find(": frames, bytes ") != std::string::npos);
  } else {
    ++tally.checked;
    CHECK(report->frames == rec->last_step() - rec->first_step() + 1);
    for (const ResumeCheck& r : report->resumes) {
      if (r.error.empty()) {
        ++tally.resumed;
      } else {
        ++tally.not_resumed;
        CHECK_MESSAGE(r.error.find(kName) != std::string::npos, r.error);
        CHECK_MESSAGE(r.error.find("json.exception") == std::string::npos, r.error);
      }
    }
  }
  // What was read is saved as it was and reads again.
  const auto again = Recording::from_bytes(rec->to_bytes(), kName);
  REQUIRE_MESSAGE(again.ok(), (again.ok() ? std::string() : again.error().to_string()));
  CHECK(again->last_step() == rec->last_step());
}

}  // namespace

TEST_CASE(
    "recordings: damaged files are refused naming the file, or read, checked, taken up again and saved") {
  const std::string good = recorded_bytes();
  {
    // The undamaged recording passes: every frame as recorded, every snapshot taken up again.
    const auto rec = Recording::from_bytes(good, kName);
    REQUIRE(rec.ok());
    const auto report = check_recording(*rec, {});
    REQUIRE(report.ok());
    CHECK(report->frames == 241);
    CHECK(report->snapshots >= 4);
    CHECK(report->resumes.size() == report->snapshots);
    CHECK(report->passed());
  }
  Rng rng(33);
  RecordingTally tally;
  // Under the sanitizers a third of the inputs (tests/sanitizer_share.hpp).
  for (int input = 0; input < test::sanitized_share(300, 3); ++input) {
    CAPTURE(input);
    std::string bytes;
    const std::size_t kind = pick(rng, 10);
    if (kind < 3) {  // the file's bytes
      bytes = good;
      const std::size_t times = 1 + pick(rng, 2);
      for (std::size_t k = 0; k < times; ++k) damage_bytes(rng, bytes);
    } else {
      Json j = recorded_json();
      if (kind < 6) {
        damage_binary(rng, j, "frames");
      } else if (kind < 7) {
        damage_binary(rng, j, "decisions");
      } else if (kind < 9) {
        const std::size_t times = 1 + pick(rng, 2);
        for (std::size_t k = 0; k < times; ++k) edit_field(rng, j);
      } else {
        edit_snapshot_state(rng, j);
      }
      bytes = to_bytes(j);
    }
    read_and_check(rng, bytes, tally);
  }
  MESSAGE("recordings: " << tally.refused << " refused, " << tally.damaged << " with a damaged frame, "
                         << tally.checked << " checked; " << tally.resumed
                         << " runs taken up again as recorded, " << tally.not_resumed
                         << " refused or left the recording");
  CHECK(tally.refused > 0);
  CHECK(tally.damaged > 0);
  CHECK(tally.checked > 0);
  CHECK(tally.resumed > 0);
}

TEST_CASE(
    "recordings: a path whose kept prefix and suffix wrap around is a damaged frame, not a read past it") {
  Json j = recorded_json();
  // One keyframe of one unit slot whose path keeps 2^64 - 2 points of the path before at
  // its start and 2 at its end: their sum wraps to 0, the length of the empty path before.
  const std::vector<std::uint8_t> frame = {1,    1,    1,    16,   0xfe, 0xff, 0xff, 0xff, 0xff,
                                           0xff, 0xff, 0xff, 0xff, 0x01, 2,    0,    0,    0};
  j["frames"] = Json::binary(frame);
  j["offsets"] = Json::array({0});
  j["hashes"] = Json::array({j["hashes"][0]});
  j["snapshots"] = Json::array({j["snapshots"][0]});
  j["stuck"] = Json::array();
  const auto rec = Recording::from_bytes(to_bytes(j), kName);
  REQUIRE(rec.ok());
  const auto f = rec->frame(rec->first_step());
  REQUIRE_FALSE(f.ok());
  CHECK(f.error().where == std::string(kName) + ": frames, bytes 0 to 18");
  CHECK(f.error().message == "the frame of step 0 is damaged: its bytes do not decode");
}

TEST_CASE("recordings: a snapshot whose state is at another step is refused, not run on from there") {
  Json j = recorded_json();
  // The steps moved on by 2^40 (as an edit of first_step and the snapshots' steps), the
  // states not: the first resume would run 2^40 steps.
  const std::uint64_t shift = std::uint64_t{1} << 40;
  j["first_step"] = shift;
  for (Json& s : j["snapshots"]) s["step"] = s["step"].get<std::uint64_t>() + shift;
  const auto rec = Recording::from_bytes(to_bytes(j), kName);
  REQUIRE(rec.ok());
  const auto resumed = rec->resume(shift);
  REQUIRE_FALSE(resumed.ok());
  CHECK(resumed.error().to_string() ==
        std::string(kName) +
            ": snapshots[0] (step 1099511627776).state: the state is at step 0, not at the "
            "snapshot's step");
}

TEST_CASE("recordings: CBOR nested a million deep is refused, not read into the stack") {
  std::string bytes(1'000'000, '\x81');  // a list of one list of one list ...
  bytes.push_back('\x00');
  const auto rec = Recording::from_bytes(bytes, kName);
  REQUIRE_FALSE(rec.ok());
  CHECK(rec.error().to_string() ==
        std::string(kName) + ": not a recording: lists and maps nested more than 16 deep");
}

TEST_CASE(
    "recordings: a map or list declaring more items than memory holds, or bytes cut short, is refused") {
  // A map of 2^64 - 16 pairs: more than any map can hold, refused before any is read.
  const std::string huge_map("\xbb\xff\xff\xff\xff\xff\xff\xff\xf0", 9);
  const auto map = Recording::from_bytes(huge_map, kName);
  REQUIRE_FALSE(map.ok());
  CHECK(map.error().to_string() ==
        std::string(kName) + ": not a recording: its bytes are not well-formed CBOR");
  // A map of two pairs cut after its first key ("format", 6 bytes): the value, at byte 8
  // (counted from 0), is missing.
  const std::string cut(
      "\xa2\x66"
      "format",
      8);
  const auto short_bytes = Recording::from_bytes(cut, kName);
  REQUIRE_FALSE(short_bytes.ok());
  CHECK(short_bytes.error().to_string() ==
        std::string(kName) + ": not a recording: its bytes are not well-formed CBOR (at byte 8)");
}

TEST_CASE("recordings: fields of another type are refused naming the field, without the parser's text") {
  struct Case {
    const char* field;
    Json value;
    const char* where;
  };
  const Case cases[] = {
      {"offsets", "x", "offsets"},
      {"hashes", Json::array({"x"}), "offsets"},  // one offset per hash
      {"worlds", Json::array({1}), "worlds[0]"},
      {"stuck", Json::array({Json::object({{"step", "x"}})}), "stuck[0].step"},
      {"snapshot_seconds", -1, "snapshot_seconds"},
      {"stopped", 3, "stopped"},
  };
  for (const Case& c : cases) {
    Json j = recorded_json();
    j[c.field] = c.value;
    const auto rec = Recording::from_bytes(to_bytes(j), kName);
    CAPTURE(c.field);
    REQUIRE_FALSE(rec.ok());
    CHECK(rec.error().where == std::string(kName) + ": " + c.where);
    check_refusal(rec.error());
  }
  // A hash of another type, with its offsets.
  Json j = recorded_json();
  j["hashes"][2] = "x";
  const auto rec = Recording::from_bytes(to_bytes(j), kName);
  REQUIRE_FALSE(rec.ok());
  CHECK(rec.error().where == std::string(kName) + ": hashes[2]");
}

}  // namespace pathscope::sim
