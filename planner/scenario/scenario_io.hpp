#pragma once

// Reading, writing and validating scenario files (JSON, format "pathscope-scenario",
// version 2; version 1 files, which lack the unit simulation's fields, still load). The
// format is described field by field in docs/formats.md.

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "planner/core/result.hpp"
#include "planner/scenario/scenario.hpp"
#include "planner/scenario/scenario_validate.hpp"  // validate_scenario, also part of this API

namespace pathscope {

/// The newest scenario format version this library reads and the one it writes. Version
/// 2 added the movement classes' simulation limits, unit orders, groups and "sim";
/// version 3 the classes' vehicle models, platoons (a group's "platoon") and "formations".
inline constexpr int kScenarioFormatVersion = 3;

/// The value of the top-level "format" field.
inline constexpr std::string_view kScenarioFormatName = "pathscope-scenario";

/// Largest scenario file load_scenario reads, in bytes.
inline constexpr std::uintmax_t kMaxScenarioFileBytes = std::uintmax_t{512} << 20;

/// Deepest nesting of JSON arrays and objects accepted (the format itself needs 5).
inline constexpr int kMaxJsonDepth = 32;

/// Parses and validates scenario JSON text. Errors name `source_name` and the JSON path
/// ("a.json: features[3].points[2]"), or "source:line:col" for malformed JSON.
Result<Scenario> parse_scenario(std::string_view json_text, const std::string& source_name);

/// Reads a file and parses it with parse_scenario; the path as given names the source.
Result<Scenario> load_scenario(const std::filesystem::path& path);

/// The scenario as JSON text in the canonical layout (2-space indent, number arrays and
/// point lists on one line, numbers in shortest round-trip form, trailing newline).
/// Deterministic: save -> load -> save gives the same bytes. Empty optional sections are
/// omitted. The scenario should be valid; out-of-range indices are written as "".
std::string scenario_to_json(const Scenario& scenario);

/// Validates, then writes scenario_to_json atomically and durably with
/// write_file_atomically (planner/core/atomic_write.hpp): a temporary file in the same
/// directory is written, flushed to disk and closed, renamed over `path`, and the
/// directory is flushed. On failure the temporary is removed, an existing file at `path`
/// is left as it was, and an Io error names the path (or the validation error is
/// returned and nothing is written).
Status save_scenario(const Scenario& scenario, const std::filesystem::path& path);

}  // namespace pathscope
