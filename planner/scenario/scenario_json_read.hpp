#pragma once

// Scenario JSON text -> Scenario: syntax, types, required and unknown fields, and
// names resolved to indices (format "pathscope-scenario", described in docs/formats.md).

#include <string>
#include <string_view>

#include "planner/core/result.hpp"
#include "planner/scenario/scenario.hpp"

namespace pathscope {

/// Decodes scenario JSON text. Checks the format and version, field types, required and
/// unknown fields, and the world, classes and terrains that decoding relies on; the full
/// semantic check is validate_scenario's (parse_scenario runs both). Errors name
/// `source_name` and the JSON path, or "source:line:col" for malformed JSON.
Result<Scenario> read_scenario_json(std::string_view json_text, const std::string& source_name);

}  // namespace pathscope
