#include "planner/scenario/scenario_json_detail.hpp"

// Error, path and message helpers shared by the scenario file code.

#include <nlohmann/json.hpp>

#include <array>
#include <charconv>
#include <cmath>
#include <utility>

namespace pathscope::scenario_detail {

std::string field(const std::string& base, std::string_view key) {
  return base.empty() ? std::string(key) : base + "." + std::string(key);
}

std::string item(const std::string& base, std::size_t index) {
  return base + "[" + std::to_string(index) + "]";
}

std::string locate(const std::string& source, const std::string& path) {
  if (source.empty()) return path;
  if (path.empty()) return source;
  return source + ": " + path;
}

std::string format_number(double v) {
  if (v == 0) return "0";
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  std::array<char, 32> buf{};
  const auto r = std::to_chars(buf.data(), buf.data() + buf.size(), v);
  return std::string(buf.data(), r.ptr);
}

std::string format_point(Vec2 p) { return "(" + format_number(p.x) + ", " + format_number(p.y) + ")"; }

std::string quote_text(const std::string& s) {
  return Json(s).dump(-1, ' ', false, Json::error_handler_t::replace);
}

std::string join(const std::vector<std::string>& names, bool quote_each) {
  std::string out;
  for (const std::string& n : names) {
    if (!out.empty()) out += ", ";
    out += quote_each ? quote_text(n) : n;
  }
  return out.empty() ? "none" : out;
}

std::string describe(const Json& j) {
  const std::string type = j.is_number() ? "number" : j.type_name();
  const bool vowel = type[0] == 'a' || type[0] == 'o';
  std::string out = std::string(vowel ? "an " : "a ") + type;
  if (j.is_number()) out += " " + format_number(j.get<double>());
  if (j.is_string()) out += " " + quote_text(j.get<std::string>());
  return out;
}

std::string describe_symbol(char c) {
  const auto u = static_cast<unsigned char>(c);
  if (u >= 0x20 && u < 0x7f) return "'" + std::string(1, c) + "'";
  static constexpr char kHex[] = "0123456789abcdef";
  return std::string("byte 0x") + kHex[u >> 4] + kHex[u & 15];
}

Error unknown_name(const std::string& where, std::string_view what, const std::string& name,
                   const std::vector<std::string>& known) {
  return make_error(
      ErrorCode::Value, where,
      "unknown " + std::string(what) + " " + quote_text(name) + " (known: " + join(known, true) + ")");
}

Status check_count(std::size_t count, std::size_t limit, const std::string& where, std::string_view what) {
  if (count > limit) {
    return make_error(ErrorCode::Limit, where,
                      "too many " + std::string(what) + ": " + std::to_string(count) + " (limit " +
                          std::to_string(limit) + ")");
  }
  return Ok{};
}

}  // namespace pathscope::scenario_detail
