#pragma once

// JSON text -> DOM for scenario files, with positions and paths in the errors.

#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "planner/core/result.hpp"

namespace pathscope {

/// Parses JSON text into a DOM. Rejects duplicate keys (Schema), nesting deeper than
/// kMaxJsonDepth (Limit) and number literals that are no finite double (Value), each at
/// "source: json.path"; malformed JSON is a Parse error at "source:line:col".
Result<nlohmann::json> parse_json_dom(std::string_view json_text, const std::string& source_name);

}  // namespace pathscope
