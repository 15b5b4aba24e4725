// The planner registry's parameter declarations: an enumeration names each of its whole
// values (the window offers the names as a list), and a value between two of them is
// refused, naming the choices.

#include "planner/core/planner_registry.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

using namespace pathscope;

TEST_CASE("planner registry: an enumeration names each whole value of its range") {
  for (const PlannerInfo& p : planner_registry()) {
    for (const ParamSpec& spec : p.params) {
      if (spec.choices.empty()) continue;
      INFO(p.name << "." << spec.name);
      CHECK(spec.min_value == std::floor(spec.min_value));
      CHECK(spec.max_value == std::floor(spec.max_value));
      CHECK(spec.choices.size() == std::size_t(spec.max_value - spec.min_value) + 1);
      CHECK(spec.default_value == std::floor(spec.default_value));
      for (const std::string& name : spec.choices) CHECK_FALSE(name.empty());
    }
  }
}

TEST_CASE("planner registry: tactical's mode is a list of its five heuristics") {
  const PlannerInfo* info = find_planner("tactical");
  REQUIRE(info != nullptr);
  const ParamSpec* mode = nullptr;
  for (const ParamSpec& spec : info->params) mode = spec.name == "mode" ? &spec : mode;
  REQUIRE(mode != nullptr);
  CHECK(mode->choices == std::vector<std::string>{"bsts", "admissible", "exact", "waypoint", "coarse"});
  // A whole value is one of them; a value between two is refused, naming them all.
  CHECK(resolve_params(*info, std::vector<PlannerParam>{{"mode", 2}}).ok());
  const auto between = resolve_params(*info, std::vector<PlannerParam>{{"mode", 2.5}}, "queries[0]");
  REQUIRE_FALSE(between.ok());
  CHECK(between.error().where == "queries[0].params.mode");
  CHECK(between.error().message.find("0 bsts, 1 admissible, 2 exact, 3 waypoint, 4 coarse") !=
        std::string::npos);
}
