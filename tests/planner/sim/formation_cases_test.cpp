#include "planner/sim/formation_cases.hpp"

#include <string>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

namespace pathscope::sim {

namespace formation_cases_test {

/// The runs of four vehicles (eight head-on) whose targets hold today; the others are
/// known not to (planner/sim/README.md, "Platoons"; docs/benchmarks/formations.md).
const std::vector<std::pair<FormationCase, std::string>>& arriving_runs() {
  static const std::vector<std::pair<FormationCase, std::string>> runs{
      {FormationCase::Town, "tracked"},      {FormationCase::Town, "wheeled"},
      {FormationCase::Town, "rotary"},       {FormationCase::ForestGap, "tracked"},
      {FormationCase::ForestGap, "wheeled"}, {FormationCase::ForestGap, "rotary"},
      {FormationCase::Bridge, "tracked"},    {FormationCase::Bridge, "wheeled"},
      {FormationCase::Bridge, "rotary"},     {FormationCase::SharpTurn, "wheeled"},
      {FormationCase::HeadOn, "tracked"},    {FormationCase::HeadOn, "wheeled"},
      {FormationCase::HeadOn, "rotary"},
  };
  return runs;
}

}  // namespace formation_cases_test

TEST_CASE(
    "bench formations: platoons of four arrive with no referee violation, no stuck vehicle, slots within the "
    "arrival radius") {
  for (const auto& [c, cls] : formation_cases_test::arriving_runs()) {
    CAPTURE(formation_case_name(c));
    CAPTURE(cls);
    const Scenario s = formation_case(c, cls, 4);
    const FormationFigures f = run_formation_case(s, 300);
    CHECK(f.vehicles == (c == FormationCase::HeadOn ? 8u : 4u));
    CHECK(f.arrived_pct == 100);
    CHECK(f.seconds_to_arrive > 0);
    CHECK(f.referee_violations == 0);
    CHECK(f.stuck == 0);
    CHECK(f.max_slot_error_end_m <= f.arrival_radius_m);
    // Morphing keeps every drive-to point out of the buildings and the forest.
    CHECK(f.drive_to_in_walls == 0);
  }
}

TEST_CASE("bench formations: the same case twice gives the same states, and the cases differ") {
  const Scenario town = formation_case(FormationCase::Town, "tracked", 4);
  const FormationFigures a = run_formation_case(town, 30);
  const FormationFigures b = run_formation_case(town, 30);
  CHECK(a.state_hash == b.state_hash);
  CHECK(a.steps == b.steps);
  const FormationFigures gap = run_formation_case(formation_case(FormationCase::ForestGap, "tracked", 4), 30);
  CHECK(gap.state_hash != a.state_hash);
}

TEST_CASE("bench formations: platoons of eight arrive where they do today") {
  const std::vector<std::pair<FormationCase, std::string>> runs{{FormationCase::Town, "wheeled"},
                                                                {FormationCase::Town, "rotary"},
                                                                {FormationCase::ForestGap, "tracked"},
                                                                {FormationCase::Bridge, "wheeled"},
                                                                {FormationCase::Bridge, "rotary"}};
  for (const auto& [c, cls] : runs) {
    CAPTURE(formation_case_name(c));
    CAPTURE(cls);
    const FormationFigures f = run_formation_case(formation_case(c, cls, 8), 300);
    CHECK(f.arrived_pct == 100);
    CHECK(f.referee_violations == 0);
    CHECK(f.drive_to_in_walls == 0);
  }
}

}  // namespace pathscope::sim
