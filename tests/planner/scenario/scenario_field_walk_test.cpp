// Every field of shipped maps, broken in turn: each field removed, and each given a value
// of the wrong type. A removed field is either optional (the map still reads) or refused
// naming it; a wrong type is always refused, at the field's own path. Unlike the seeded
// fuzzer (scenario_fuzz_test.cpp) this walks every field of every map, so a reader that
// skips a check, or reports it at another field, fails here.

#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "planner/scenario/scenario_io.hpp"
#include "tests/test_files.hpp"

namespace pathscope {
namespace scenario_field_walk_test {

using Json = nlohmann::json;

constexpr const char* kSource = "walk.json";

// A field of the document: its JSON pointer, its path as errors write it
// ("features[3].points"), and its key.
struct FieldAt {
  Json::json_pointer pointer;
  std::string path;
  std::string key;
};

// Every object member under `j` (not inside a saved game's sim_state, which the scenario
// reader keeps as text), in document order.
void collect_fields(const Json& j, const Json::json_pointer& at, const std::string& path,
                    std::vector<FieldAt>& out) {
  if (j.is_array()) {
    for (std::size_t k = 0; k < j.size(); ++k)
      collect_fields(j[k], at / k, path + "[" + std::to_string(k) + "]", out);
  } else if (j.is_object()) {
    for (const auto& [key, value] : j.items()) {
      if (path.empty() && key == "sim_state") continue;
      const std::string field_path = path.empty() ? key : path + "." + key;
      out.push_back(FieldAt{at / key, field_path, key});
      collect_fields(value, at / key, field_path, out);
    }
  }
}

// A value no field of this type accepts in place of `v`: a string for numbers and
// booleans, a boolean for strings (a string "impassable" may stand for a number), a number
// for lists and objects (`expect` takes either).
Json wrong_type(const Json& v) {
  if (v.is_number() || v.is_boolean()) return "x";
  if (v.is_string()) return true;
  return 7;
}

// A top-level section that other fields refer to, removed, is refused where they do: the
// text that error holds.
std::string referred_to(const std::string& path) {
  if (path == "factions") return "unknown faction";  // units, threats and allies name them
  if (path == "groups")
    return "no unit has a move or waypoints order";  // expectations' units move by group orders
  if (path == "movement_classes")
    return "(known: infantry, tracked, wheeled, hover, rotary)";  // the defaults
  return "";
}

// The error's location without the source name.
std::string field_of(const Error& e) {
  const std::string prefix = std::string(kSource) + ": ";
  return e.where.rfind(prefix, 0) == 0 ? e.where.substr(prefix.size()) : e.where;
}

// True when `where` is `path` or a part of it ("features[3].points[0]" is in
// "features[3].points").
bool within(const std::string& where, const std::string& path) {
  return where == path || where.rfind(path + ".", 0) == 0 || where.rfind(path + "[", 0) == 0;
}

struct Walked {
  std::size_t fields = 0;
  std::size_t removed_refused = 0;
  std::size_t removed_read = 0;
};

Walked walk(const std::string& map) {
  const std::string text = test::read_file(std::string(PATHSCOPE_SOURCE_DIR) + "/maps/" + map);
  REQUIRE_FALSE(text.empty());
  const Json doc = Json::parse(text);
  REQUIRE(parse_scenario(text, kSource).ok());
  std::vector<FieldAt> fields;
  collect_fields(doc, Json::json_pointer(), "", fields);
  Walked w;
  w.fields = fields.size();
  for (const FieldAt& f : fields) {
    CAPTURE(map);
    CAPTURE(f.path);
    // Removed: read (an optional field), or refused naming the field.
    Json removed = doc;
    removed[f.pointer.parent_pointer()].erase(f.key);
    const Result<Scenario> without = parse_scenario(removed.dump(), kSource);
    if (without.ok()) {
      ++w.removed_read;
    } else {
      ++w.removed_refused;
      const Error& e = without.error();
      CAPTURE(e.to_string());
      CHECK(e.where.rfind(kSource, 0) == 0);
      const std::string referrer = referred_to(f.path);
      CHECK((test::contains(e.to_string(), f.key) ||
             (!referrer.empty() && test::contains(e.to_string(), referrer))));
    }
    // Of the wrong type: refused, at the field.
    Json broken = doc;
    broken[f.pointer] = wrong_type(doc[f.pointer]);
    const Result<Scenario> wrong = parse_scenario(broken.dump(), kSource);
    REQUIRE_FALSE(wrong.ok());
    const Error& e = wrong.error();
    CAPTURE(e.to_string());
    CHECK(e.where.rfind(kSource, 0) == 0);
    CHECK(within(field_of(e), f.path));
    CHECK((e.code == ErrorCode::Schema || e.code == ErrorCode::Value));
  }
  return w;
}

}  // namespace scenario_field_walk_test

using namespace scenario_field_walk_test;

TEST_CASE("scenario field walk: every field of shipped maps removed, or of the wrong type, is named") {
  for (const char* map : {"default.json", "fog_of_war.json", "platoon_formations.json", "sim_bridge.json"}) {
    const Walked w = walk(map);
    CAPTURE(map);
    CHECK(w.fields > 100);
    // Both kinds are met: required fields refused, optional ones read without.
    CHECK(w.removed_refused > 10);
    CHECK(w.removed_read > 10);
  }
}

}  // namespace pathscope
