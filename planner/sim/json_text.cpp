#include "planner/sim/json_text.hpp"

namespace pathscope::sim {

namespace {

using Json = nlohmann::json;

// Reads through a text only to find where its syntax fails (run after a failed parse,
// which does not say where).
class SyntaxErrorFinder : public nlohmann::json_sax<Json> {
 public:
  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool string(string_t&) override { return true; }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override { return true; }
  bool key(string_t&) override { return true; }
  bool end_object() override { return true; }
  bool start_array(std::size_t) override { return true; }
  bool end_array() override { return true; }
  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& ex) override {
    byte = position;
    message = ex.what();
    return false;
  }

  std::size_t byte = 0;
  std::string message;
};

}  // namespace

ParsedJson parse_json_text(std::string_view text) {
  ParsedJson out;
  out.value = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  out.ok = !out.value.is_discarded();
  if (out.ok) return out;
  out.value = nullptr;
  SyntaxErrorFinder finder;
  (void)Json::sax_parse(text, &finder);
  out.error_byte = finder.byte;
  out.error = std::move(finder.message);
  return out;
}

}  // namespace pathscope::sim
