#pragma once

// Internal to the scenario file code (scenario_io, scenario_json_read, scenario_json_write,
// scenario_validate): JSON paths, message formatting and the checks reading shares with
// validation. Not part of the public API; nothing here is included outside planner/.
//
// Reading and validation stop at the first problem: each check returns a Status (or a
// Result) and its caller returns the error on, up to the public functions.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "planner/core/result.hpp"
#include "planner/scenario/scenario.hpp"

namespace pathscope::scenario_detail {

using Json = nlohmann::json;
using OrderedJson = nlohmann::ordered_json;
using Limits = ScenarioLimits;

/// "a.b" paths: field(base, key) is "base.key" (or "key" at the top level).
std::string field(const std::string& base, std::string_view key);

/// "a[3]" paths: item(base, index) is "base[index]".
std::string item(const std::string& base, std::size_t index);

/// "source: path", or whichever of the two is not empty.
std::string locate(const std::string& source, const std::string& path);

/// Shortest text that reads back as the same double; "0" for both zeros.
std::string format_number(double v);

/// "(x, y)" with format_number coordinates, for messages.
std::string format_point(Vec2 p);

/// A JSON string literal; invalid UTF-8 is replaced rather than thrown on.
std::string quote_text(const std::string& s);

/// The names separated by ", " (each quoted if asked), or "none" for an empty list.
std::string join(const std::vector<std::string>& names, bool quote_each);

/// "a string \"x\"", "an object", "a number 3", ... for "expected X, found Y" messages.
std::string describe(const Json& j);

/// "'c'" for printable ASCII, else "byte 0xNN".
std::string describe_symbol(char c);

/// The `name` member of every entry, in order (classes, terrains, factions, planners).
template <typename Range>
std::vector<std::string> names_of(const Range& items) {
  std::vector<std::string> names;
  for (const auto& x : items) names.emplace_back(x.name);
  return names;
}

/// The error of a reference to an unknown name: "unknown <what> \"name\" (known: ...)".
Error unknown_name(const std::string& where, std::string_view what, const std::string& name,
                   const std::vector<std::string>& known);

/// A Limit error when `count` exceeds `limit`: "too many <what>: N (limit L)".
Status check_count(std::size_t count, std::size_t limit, const std::string& where, std::string_view what);

// Validation stages that reading runs early, because later decoding relies on them
// (tiles are decoded through the terrain symbols). Defined in scenario_validate.cpp.

/// Checks world size, cell size and the resulting grid size.
Status check_world(const Scenario& s);

/// Checks the movement classes (count, names, radius, speed).
Status check_classes(const Scenario& s);

/// Checks the terrain types (count, names, symbols, groups, costs).
Status check_terrains(const Scenario& s);

}  // namespace pathscope::scenario_detail
