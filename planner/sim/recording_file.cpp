// Recordings' file: CBOR holding the start scenario, the frames' bytes, the state hashes,
// the snapshots, the decision log and the stuck flags. Nothing read is trusted: every
// size is bounded and every field checked, and a refusal names the file and the field.

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <limits>
#include <optional>

#include <nlohmann/json.hpp>

#include "planner/core/atomic_write.hpp"
#include "planner/scenario/scenario_io.hpp"
#include "planner/sim/recording.hpp"
#include "planner/sim/recording_codec.hpp"

namespace pathscope::sim {

using namespace recording_detail;

namespace {

using Json = nlohmann::json;

constexpr const char* kFormat = "pathscope-recording";
// Version 3 frames carry the platoons (a frame of version 1 or 2 has none); version 2
// and 3 hash every field a frame keeps (state_hash); version 1 files are read and checked
// with the hash they were made with (state_hash_v1), and saved as version 1 again.
constexpr int kVersion = 3;
/// Largest recording file read (bytes).
constexpr std::uintmax_t kMaxFileBytes = std::uintmax_t{4} << 30;
/// Most unit slots a frame may hold (twice the scenario's limit of units: room for units
/// Deepest nesting of lists and maps read from a recording's CBOR (a recording has 2).
constexpr std::size_t kMaxCborDepth = 16;
/// Most steps between two full frames.
constexpr std::uint64_t kMaxKeyframeInterval = 1'000'000;
/// Last step a recording may hold (as a saved game's step count, 2^53).
constexpr std::uint64_t kMaxRecordedStep = std::uint64_t{1} << 53;

// nlohmann's CBOR reader recurses once per level of nesting: a file of nested one-item
// lists would overflow the stack. This reader builds the same value and stops at
// kMaxCborDepth. It never throws: a syntax error, or a list or map declaring more items
// than a container can hold, stops the reading and is kept to be told.
class DepthLimitedReader : public nlohmann::detail::json_sax_dom_parser<nlohmann::json> {
 public:
  using Base = nlohmann::detail::json_sax_dom_parser<nlohmann::json>;
  explicit DepthLimitedReader(nlohmann::json& root) : Base(root, /*allow_exceptions=*/false) {}
  bool start_object(std::size_t n) { return enter() && fits(n, Json::object()) && Base::start_object(n); }
  bool start_array(std::size_t n) { return enter() && fits(n, Json::array()) && Base::start_array(n); }
  bool end_object() {
    --depth_;
    return Base::end_object();
  }
  bool end_array() {
    --depth_;
    return Base::end_array();
  }
  template <class Exception>
  bool parse_error(std::size_t position, const std::string&, const Exception&) {
    error_byte_ = position;
    return false;
  }
  bool too_deep() const { return too_deep_; }
  bool too_large() const { return too_large_; }
  /// Where the syntax fails (bytes read, as nlohmann counts), if it does.
  std::optional<std::size_t> error_byte() const { return error_byte_; }

 private:
  bool enter() {
    too_deep_ = too_deep_ || ++depth_ > kMaxCborDepth;
    return !too_deep_;
  }
  // (n is -1 for a list or map of unstated length.)
  bool fits(std::size_t n, const Json& empty) {
    too_large_ = too_large_ || (n != static_cast<std::size_t>(-1) && n > empty.max_size());
    return !too_large_;
  }
  std::size_t depth_ = 0;
  bool too_deep_ = false;
  bool too_large_ = false;
  std::optional<std::size_t> error_byte_;
};

}  // namespace

std::string Recording::to_bytes() const {
  Json j;
  j["format"] = kFormat;
  j["version"] = hash_version_ == 1 ? 1 : kVersion;
  j["scenario"] = scenario_to_json(start_);
  j["first_step"] = first_step_;
  j["keyframe_interval"] = limits_.keyframe_interval;
  j["snapshot_seconds"] = limits_.snapshot_seconds;
  j["max_bytes"] = limits_.max_bytes;
  j["frames"] = Json::binary(std::vector<std::uint8_t>(data_.begin(), data_.end()));
  j["offsets"] = offsets_;
  j["hashes"] = hashes_;
  j["worlds"] = worlds_;
  Json snaps = Json::array();
  for (const Snapshot& s : snapshots_)
    snaps.push_back({{"step", s.step}, {"world", s.world}, {"state", s.state}});
  j["snapshots"] = std::move(snaps);
  std::string log;
  write_decisions(decisions_, log);
  j["decisions"] = Json::binary(std::vector<std::uint8_t>(log.begin(), log.end()));
  Json stuck = Json::array();
  for (const RecordedStuck& s : stuck_) {
    stuck.push_back({{"step", s.step},
                     {"slot", s.unit.index},
                     {"generation", s.unit.generation},
                     {"unit", s.who},
                     {"time", s.time},
                     {"since", s.since},
                     {"until", s.until},
                     {"text", s.text}});
  }
  j["stuck"] = std::move(stuck);
  j["stopped"] = stop_message_;
  const std::vector<std::uint8_t> cbor = Json::to_cbor(j);
  return std::string(cbor.begin(), cbor.end());
}

Result<Recording> Recording::from_bytes(std::string_view bytes, const std::string& source_name) {
  Json j;
  {
    DepthLimitedReader reader(j);
    const bool read =
        Json::sax_parse(bytes.begin(), bytes.end(), &reader, nlohmann::json::input_format_t::cbor);
    if (const std::optional<std::size_t> byte = reader.error_byte()) {
      return make_error(ErrorCode::Parse, source_name,
                        "not a recording: its bytes are not well-formed CBOR (at byte " +
                            std::to_string(*byte > 0 ? *byte - 1 : 0) + ")");
    }
    if (reader.too_large())
      return make_error(ErrorCode::Parse, source_name, "not a recording: its bytes are not well-formed CBOR");
    if (reader.too_deep()) {
      return make_error(
          ErrorCode::Parse, source_name,
          "not a recording: lists and maps nested more than " + std::to_string(kMaxCborDepth) + " deep");
    }
    if (!read) return make_error(ErrorCode::Parse, source_name, "not a recording: its CBOR ends early");
  }
  const auto bad = [&](const std::string& field, const std::string& message) {
    return make_error(ErrorCode::Schema, source_name + ": " + field, message);
  };
  // A file of another kind (a text file renamed .psrec) may still read as CBOR: one
  // number or string. A recording is always a map.
  if (!j.is_object())
    return bad("(top)", std::string("not a Pathscope recording (it holds a CBOR ") + j.type_name() +
                            ", not a recording's map)");
  if (!j.contains("format") || j["format"] != kFormat)
    return bad("format", std::string("expected \"") + kFormat + "\": not a Pathscope recording");
  if (!j.contains("version") || !j["version"].is_number_integer() || j["version"] < 1 ||
      j["version"] > kVersion)
    return bad("version", "expected 1 to " + std::to_string(kVersion));
  for (const char* f : {"scenario", "first_step", "keyframe_interval", "frames", "offsets", "hashes",
                        "worlds", "snapshots", "decisions", "stuck"}) {
    if (!j.contains(f)) return bad(f, "missing");
  }
  // A whole number from 0 to `max`, or nullopt.
  const auto whole = [](const Json& v, std::uint64_t max) -> std::optional<std::uint64_t> {
    if (!v.is_number_unsigned() || v.get<std::uint64_t>() > max) return std::nullopt;
    return v.get<std::uint64_t>();
  };
  const auto whole_text = [](std::uint64_t max) {
    return "expected a whole number from 0 to " + std::to_string(max);
  };
  constexpr std::uint64_t kU32 = 0xffffffffu;
  if (!j["scenario"].is_string()) return bad("scenario", "expected the scenario's JSON text");
  auto start = parse_scenario(j["scenario"].get<std::string>(), source_name + ": scenario");
  if (!start) return start.error();
  RecordingLimits limits;
  const auto interval = whole(j["keyframe_interval"], kMaxKeyframeInterval);
  if (!interval || *interval < 1)
    return bad("keyframe_interval",
               "expected a whole number from 1 to " + std::to_string(kMaxKeyframeInterval));
  limits.keyframe_interval = static_cast<std::uint32_t>(*interval);
  if (j.contains("snapshot_seconds")) {
    const Json& v = j["snapshot_seconds"];
    if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() <= 0)
      return bad("snapshot_seconds", "expected a number of seconds above 0");
    limits.snapshot_seconds = v.get<double>();
  }
  if (j.contains("max_bytes")) {
    const auto cap = whole(j["max_bytes"], std::numeric_limits<std::uint64_t>::max());
    if (!cap) return bad("max_bytes", "expected a whole number of bytes");
    limits.max_bytes = static_cast<std::size_t>(*cap);
  }
  Recording rec(std::move(*start), limits);
  rec.source_ = source_name;
  rec.hash_version_ = j["version"].get<int>() == 1 ? 1 : 2;
  const auto first = whole(j["first_step"], kMaxRecordedStep);
  if (!first) return bad("first_step", whole_text(kMaxRecordedStep));
  rec.first_step_ = *first;
  if (!j["frames"].is_binary()) return bad("frames", "expected bytes");
  const auto& frames = j["frames"].get_binary();
  rec.data_.assign(frames.begin(), frames.end());
  const Json& offsets = j["offsets"];
  const Json& hashes = j["hashes"];
  if (!offsets.is_array()) return bad("offsets", "expected a list of whole numbers");
  if (!hashes.is_array()) return bad("hashes", "expected a list of whole numbers");
  if (offsets.size() != hashes.size())
    return bad("offsets", "expected one offset per hash (" + std::to_string(hashes.size()) + "), found " +
                              std::to_string(offsets.size()));
  // A frame takes at least 4 bytes; and no step past the last a state may have.
  if (offsets.size() > rec.data_.size() || offsets.size() > kMaxRecordedStep - rec.first_step_)
    return bad("offsets", "more frames (" + std::to_string(offsets.size()) + ") than the frames' " +
                              std::to_string(rec.data_.size()) + " bytes or the steps allow");
  rec.offsets_.reserve(offsets.size());
  rec.hashes_.reserve(hashes.size());
  for (std::size_t i = 0; i < offsets.size(); ++i) {
    const auto offset = whole(offsets[i], rec.data_.size());
    if (!offset) return bad("offsets[" + std::to_string(i) + "]", whole_text(rec.data_.size()));
    if ((i == 0 && *offset != 0) || (i > 0 && *offset < rec.offsets_.back()))
      return bad("offsets[" + std::to_string(i) + "]", "out of order (the first must be 0)");
    rec.offsets_.push_back(*offset);
    if (!hashes[i].is_number_unsigned())
      return bad("hashes[" + std::to_string(i) + "]", "expected a whole number (a state hash)");
    rec.hashes_.push_back(hashes[i].get<std::uint64_t>());
  }
  const Json& worlds = j["worlds"];
  if (!worlds.is_array()) return bad("worlds", "expected a list of scenario JSON texts");
  for (std::size_t i = 0; i < worlds.size(); ++i) {
    if (!worlds[i].is_string())
      return bad("worlds[" + std::to_string(i) + "]", "expected a scenario's JSON text");
    rec.worlds_.push_back(worlds[i].get<std::string>());
  }
  if (!j["snapshots"].is_array()) return bad("snapshots", "expected a list");
  for (std::size_t i = 0; i < j["snapshots"].size(); ++i) {
    const Json& s = j["snapshots"][i];
    const std::string where = "snapshots[" + std::to_string(i) + "]";
    if (!s.is_object() || !s.contains("step") || !s.contains("world") || !s.contains("state"))
      return bad(where, "expected {step, world, state}");
    const auto step = whole(s["step"], kMaxRecordedStep);
    if (!step) return bad(where + ".step", whole_text(kMaxRecordedStep));
    const auto world = whole(s["world"], rec.worlds_.size());
    if (!world || *world >= rec.worlds_.size()) return bad(where + ".world", "names no world");
    if (!s["state"].is_string()) return bad(where + ".state", "expected the state's JSON text");
    if (!rec.has(*step)) return bad(where + ".step", "outside the recorded steps");
    if (!rec.snapshots_.empty() && *step <= rec.snapshots_.back().step)
      return bad(where + ".step", "not after the step of the snapshot before");
    rec.snapshots_.push_back(
        Snapshot{*step, static_cast<std::size_t>(*world), s["state"].get<std::string>()});
  }
  if (!j["decisions"].is_binary()) return bad("decisions", "expected bytes");
  const auto& log = j["decisions"].get_binary();
  if (const std::size_t damaged = read_decisions(
          std::string_view(reinterpret_cast<const char*>(log.data()), log.size()), rec.decisions_);
      damaged != kDecisionsRead)
    return bad("decisions", "damaged at byte " + std::to_string(damaged) + " of the log");
  if (!j["stuck"].is_array()) return bad("stuck", "expected a list");
  for (std::size_t i = 0; i < j["stuck"].size(); ++i) {
    const Json& s = j["stuck"][i];
    const std::string where = "stuck[" + std::to_string(i) + "]";
    if (!s.is_object())
      return bad(where, "expected {step, slot, generation, unit, time, since, until, text}");
    const auto field = [&](const char* name) -> const Json* {
      const auto it = s.find(name);
      return it == s.end() ? nullptr : &*it;
    };
    RecordedStuck r;
    const std::pair<const char*, std::uint64_t> wholes[] = {
        {"step", std::numeric_limits<std::uint64_t>::max()},
        {"slot", kU32},
        {"generation", kU32},
        {"unit", kU32},
        {"until", std::numeric_limits<std::uint64_t>::max()}};
    std::uint64_t values[5] = {};
    for (std::size_t k = 0; k < 5; ++k) {
      const Json* v = field(wholes[k].first);
      const auto value = v ? whole(*v, wholes[k].second) : std::nullopt;
      if (!value) return bad(where + "." + wholes[k].first, whole_text(wholes[k].second));
      values[k] = *value;
    }
    r.step = values[0];
    r.unit.index = static_cast<std::uint32_t>(values[1]);
    r.unit.generation = static_cast<std::uint32_t>(values[2]);
    r.who = static_cast<std::uint32_t>(values[3]);
    r.until = values[4];
    for (const char* name : {"time", "since"}) {
      const Json* v = field(name);
      if (!v || !v->is_number() || !std::isfinite(v->get<double>()))
        return bad(where + "." + name, "expected a finite number of seconds");
      (std::string_view(name) == "time" ? r.time : r.since) = v->get<double>();
    }
    const Json* text = field("text");
    if (!text || !text->is_string()) return bad(where + ".text", "expected a text");
    r.text = text->get<std::string>();
    rec.stuck_.push_back(std::move(r));
  }
  if (j.contains("stopped")) {
    if (!j["stopped"].is_string()) return bad("stopped", "expected a text");
    rec.stop_message_ = j["stopped"].get<std::string>();
  }
  return rec;
}

Status Recording::save(const std::filesystem::path& path) const {
  return write_file_atomically(path, to_bytes());
}

Result<Recording> Recording::load(const std::filesystem::path& path) {
  namespace fs = std::filesystem;
  const std::string where = path.string();
  std::error_code ec;
  if (!fs::exists(path, ec) || ec)
    return make_error(ErrorCode::Io, where, "cannot read the file: it does not exist");
  if (fs::is_directory(path, ec))
    return make_error(ErrorCode::Io, where, "cannot read the file: it is a directory");
  if (const std::uintmax_t size = fs::file_size(path, ec); !ec && size > kMaxFileBytes)
    return make_error(
        ErrorCode::Limit, where,
        "the file is " + std::to_string(size) + " bytes; the limit is " + std::to_string(kMaxFileBytes));
  std::ifstream in(path, std::ios::binary);
  if (!in) return make_error(ErrorCode::Io, where, "cannot open the file for reading");
  std::string bytes;
  try {
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  } catch (const std::bad_alloc&) {
    return make_error(ErrorCode::Limit, where, "out of memory while reading the file");
  }
  if (in.bad()) return make_error(ErrorCode::Io, where, "read error");
  return from_bytes(bytes, where);
}

}  // namespace pathscope::sim
