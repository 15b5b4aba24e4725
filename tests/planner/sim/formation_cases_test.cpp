#include "planner/sim/formation_cases.hpp"

#include <string>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

namespace pathscope::sim {

namespace formation_cases_test {

/// The radius of the generated cases' class `name` (metres).
double class_radius(const char* name) {
  const Scenario s = formation_case(FormationCase::Bridge, name, 1);
  for (const MovementClass& c : s.classes) {
    if (c.name == name) return c.radius;
  }
  return 0;
}

/// Checks the targets of `bench formations` (issue and docs/benchmarks/formations.md) on
/// every case and class with platoons of `vehicles` (head-on: two of them).
void check_all_runs(int vehicles) {
  for (const FormationCase c : kFormationCases) {
    for (const char* cls : {"tracked", "wheeled", "rotary"}) {
      CAPTURE(formation_case_name(c));
      CAPTURE(cls);
      const FormationFigures f = run_formation_case(formation_case(c, cls, vehicles), 400);
      const bool two = c == FormationCase::HeadOn || c == FormationCase::BridgeBothWays;
      CHECK(f.vehicles == static_cast<std::size_t>(two ? 2 * vehicles : vehicles));
      CHECK(f.arrived_pct == 100);
      CHECK(f.seconds_to_arrive > 0);
      CHECK(f.referee_violations == 0);
      CHECK(f.stuck == 0);
      // Each vehicle ends within its arrival radius of its slot, pushes included.
      CHECK(f.max_slot_error_end_m <= f.arrival_radius_m);
      // Morphing keeps every drive-to point out of the buildings, the forest and the river.
      CHECK(f.drive_to_in_walls == 0);
      // The bridge's column keeps every vehicle within one vehicle width of its path.
      if (c == FormationCase::Bridge) CHECK(f.max_column_offset_m <= 2 * class_radius(cls));
      // One platoon at a time on the bridge (helicopters fly over the river).
      CHECK(f.bridge_conflicts == 0);
    }
  }
}

}  // namespace formation_cases_test

TEST_CASE(
    "bench formations: platoons of four arrive in every case, no violation, no stuck vehicle, in their "
    "slots") {
  formation_cases_test::check_all_runs(4);
}

TEST_CASE(
    "bench formations: platoons of eight arrive in every case, no violation, no stuck vehicle, in their "
    "slots") {
  formation_cases_test::check_all_runs(8);
}

TEST_CASE(
    "bench formations: platoons of sixteen arrive in every case, no violation, no stuck vehicle, in their "
    "slots" *
    doctest::test_suite("sim-long")) {
  formation_cases_test::check_all_runs(16);
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

}  // namespace pathscope::sim
