#pragma once

// What the scenario format tests share: parsing a JSON document and checking a refusal.

#include <doctest/doctest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "planner/scenario/scenario_io.hpp"

namespace pathscope::test {

/// `doc` parsed as a scenario file named t.json.
inline Result<Scenario> parse_doc(const nlohmann::json& doc) { return parse_scenario(doc.dump(), "t.json"); }

/// Parses `doc`, expects failure, and checks the location and a part of the message.
inline void expect_doc_error(const nlohmann::json& doc, const std::string& where,
                             const std::string& message_part) {
  const Result<Scenario> r = parse_doc(doc);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().where == where);
  INFO("message: " << r.error().message);
  CHECK(r.error().message.find(message_part) != std::string::npos);
}

}  // namespace pathscope::test
