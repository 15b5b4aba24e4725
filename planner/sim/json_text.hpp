#pragma once

// JSON text read without exceptions, for the simulation's own files (saved states, the
// stuck detector's tracks): the document, or where its syntax fails.

#include <cstddef>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace pathscope::sim {

/// A parsed JSON text: `value` when `ok`, else the byte at which the syntax fails (as
/// nlohmann counts: bytes read up to and including the bad one) and its message.
struct ParsedJson {
  nlohmann::json value;
  bool ok = false;
  std::size_t error_byte = 0;
  std::string error;
};

/// Parses `text` (nlohmann's syntax: RFC 8259, UTF-8). Never throws.
ParsedJson parse_json_text(std::string_view text);

}  // namespace pathscope::sim
