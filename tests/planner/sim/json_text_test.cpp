#include "planner/sim/json_text.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace pathscope::sim {

TEST_CASE("parse_json_text: a document, or where nlohmann's own parser stops") {
  const ParsedJson good = parse_json_text(R"({"a": [1, 2.5, "x"], "b": null})");
  REQUIRE(good.ok);
  CHECK(good.value["a"][1] == 2.5);
  CHECK(good.value["b"].is_null());

  // The byte each bad text is refused at, as the throwing parser reports it.
  const std::vector<std::string> bad = {"",         "{",         "[1, 2", "{\"a\": tru}",           "[1] x",
                                        "\"\xff\"", "{\"a\" 1}", "[01]",  std::string(5, ' ') + "]"};
  for (const std::string& text : bad) {
    CAPTURE(text);
    const ParsedJson parsed = parse_json_text(text);
    CHECK_FALSE(parsed.ok);
    CHECK(parsed.value.is_null());
    std::size_t byte = 0;
    std::string what;
    try {
      [[maybe_unused]] const nlohmann::json accepted = nlohmann::json::parse(text);
      FAIL("nlohmann accepted it");
    } catch (const nlohmann::json::parse_error& e) {
      byte = e.byte;
      what = e.what();
    }
    CHECK(parsed.error_byte == byte);
    CHECK(parsed.error == what);
  }
}

}  // namespace pathscope::sim
