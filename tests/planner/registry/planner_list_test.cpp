// The registry's entries, every one of them (a new planner is covered with no test
// code): a value list of the wrong length is refused naming the planner and the
// parameter, tactical's c1 + c2 = 1 is refused when resolved, and the clearance each
// entry declares is the one its planner keeps: a gap narrower than twice the declared
// radius is closed to it, a wider one open, and the path through it is legal at that
// clearance by the referee.

#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "planner/core/planner_registry.hpp"
#include "planner/referee/path_referee.hpp"
#include "planner/world/planning_world.hpp"
#include "tests/test_maps.hpp"

using namespace pathscope;

namespace {

ParamValues defaults(const PlannerInfo& info) {
  ParamValues v;
  for (const ParamSpec& spec : info.params) v.push_back(spec.default_value);
  return v;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// A 21 x 15 map cut by a wall at column 10, open only by a gap of `gap` cells (odd)
// centred on row 7, so the middle of the gap is a cell centre.
Scenario gap_map(int gap, double class_radius) {
  std::vector<std::string> rows(15, std::string(21, '.'));
  for (int y = 0; y < 15; ++y) {
    if (std::abs(y - 7) > gap / 2) rows[std::size_t(y)][10] = '#';
  }
  Scenario s = test::ascii_scenario(rows);
  s.classes[0].radius = class_radius;
  return s;
}

}  // namespace

TEST_CASE("planner registry: a value list of the wrong length is refused, naming the planner") {
  for (const PlannerInfo& info : planner_registry()) {
    INFO(info.name);
    const ParamValues full = defaults(info);
    CHECK(check_params(info, full).ok());
    ParamValues long_list = full;
    long_list.push_back(0);
    const Status too_long = check_params(info, long_list, "queries[0].params");
    REQUIRE_FALSE(too_long.ok());
    CHECK(too_long.error().where == "queries[0].params");
    CHECK(contains(too_long.error().message, "planner \"" + info.name + "\""));
    if (full.empty()) continue;
    const ParamValues short_list(full.begin(), full.end() - 1);
    const Status too_short = check_params(info, short_list, "queries[0].params");
    REQUIRE_FALSE(too_short.ok());
    CHECK(contains(too_short.error().message, "planner \"" + info.name + "\""));
    CHECK(contains(too_short.error().message, "\"" + info.params.back().name + "\""));
    // The planner is refused, not built from a list it would read past.
    const PlanningWorld world(test::ascii_scenario({"...", "..."}));
    const auto made = make_planner(info, QueryContext{world, 0, std::nullopt, short_list});
    REQUIRE_FALSE(made.ok());
    CHECK(made.error().message == too_short.error().message);
    // A value out of its range is refused by name.
    ParamValues out = full;
    out.front() = info.params.front().max_value + 1;
    const Status bad = check_params(info, out, "p");
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.error().where == "p." + info.params.front().name);
  }
}

TEST_CASE("planner registry: tactical's c1 + c2 = 1 is refused when its parameters are resolved") {
  const PlannerInfo* info = find_planner("tactical");
  REQUIRE(info != nullptr);
  CHECK(resolve_params(*info, std::vector<PlannerParam>{{"c1", 0.4}, {"c2", 0.6}}).ok());
  const auto from_file = resolve_params(*info, std::vector<PlannerParam>{{"c1", 0.5}}, "queries[3]");
  REQUIRE_FALSE(from_file.ok());
  CHECK(from_file.error().where == "queries[3].params");
  const std::string& m = from_file.error().message;
  CHECK(contains(m, "planner \"tactical\""));
  CHECK(contains(m, "c1"));
  CHECK(contains(m, "c2"));
  const auto from_option = resolve_params(*info, std::vector<PlannerParam>{{"c2", 0.1}}, "--param");
  REQUIRE_FALSE(from_option.ok());
  CHECK(from_option.error().where == "--param");
  // A full list breaking the rule is refused too (its defaults keep it).
  ParamValues v = defaults(*info);
  CHECK(check_params(*info, v).ok());
  v[0] = 0.9;
  CHECK_FALSE(check_params(*info, v).ok());
}

TEST_CASE("planner registry: each entry's declared clearance is the one its planner keeps") {
  int closed_checked = 0, open_checked = 0;
  for (const double class_radius : {0.4, 0.9}) {
    for (const int gap : {1, 3}) {
      const PlanningWorld world(gap_map(gap, class_radius));
      const PathQuery query{{3.5, 7.5}, {17.5, 7.5}};
      for (const PlannerInfo& info : planner_registry()) {
        const ParamValues values = defaults(info);
        const double r = declared_clearance(info, QueryContext{world, 0, std::nullopt, values});
        INFO(info.name << ": class radius " << class_radius << ", declared clearance " << r << ", gap "
                       << gap);
        // A gap exactly twice the radius wide is open or closed by rounding: not asked.
        if (std::abs(2 * r - gap) < 1e-6) continue;
        auto planner = make_planner(info, QueryContext{world, 0, std::nullopt, values});
        REQUIRE(planner.ok());
        const PathResult& result = find_path(**planner, query);
        if (2 * r > gap) {
          ++closed_checked;
          CHECK_MESSAGE(result.status != SearchStatus::Found, "passed a gap narrower than its clearance");
          continue;
        }
        ++open_checked;
        REQUIRE_MESSAGE(result.status == SearchStatus::Found, result.message);
        const auto verdict =
            referee::referee_path(world, 0, result.points, referee::params_for(info, values, world, 0));
        REQUIRE(verdict.ok());
        CHECK_MESSAGE(verdict->legal,
                      (verdict->violations.empty() ? "" : verdict->violations.front().message));
      }
    }
  }
  CHECK(closed_checked > 0);
  CHECK(open_checked > 0);
}
