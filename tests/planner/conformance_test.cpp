// The conformance suite (planner/referee/conformance.hpp) over every planner the registry
// lists (its list, so a new planner is covered with no test code): legality, cost against
// the path referee, stepping against one shot, node_at() round trips, refusals where a
// path keeping the radius exists, each planner's declared bound against grid A*, trace
// replay against the live run, kept answers after random edits against fresh searches,
// and structure views against their budget.
// Defects the referee found that are not fixed yet are listed in kKnownDefects (and in
// planner/referee/README.md): their counts are printed, not asserted.
// tests/planner/referee/conformance_faults_test.cpp shows the suite finds planted faults.

#include <doctest/doctest.h>

#include <string>

#include "planner/core/planner_registry.hpp"
#include "planner/referee/conformance.hpp"
#include "planner/scenario/scenario_validate.hpp"

namespace pathscope {
namespace {

// A known defect: the planner, the check it fails, and why (issue 32).
struct KnownDefect {
  const char* planner;
  // "legal", "cost", "node_at", "solvable", "steps", "bound", "replay", "stale" or "budget"
  const char* check;
  const char* why;
};
// None open.
constexpr KnownDefect kKnownDefects[] = {
    {"", "", ""},
};

const KnownDefect* known_defect(const std::string& planner, const char* check) {
  for (const KnownDefect& d : kKnownDefects) {
    if (planner == d.planner && std::string(check) == d.check) return &d;
  }
  return nullptr;
}

void check_conformance(std::uint64_t first, int count, int queries_per_world) {
  for (int k = 0; k < count; ++k) {
    const Status valid = validate_scenario(referee::conformance_world(first + k, (first + k) % 3 != 0));
    REQUIRE_MESSAGE(valid.ok(), (valid.ok() ? "" : valid.error().to_string()));
  }
  const auto report = referee::run_conformance(planner_registry(), {first, count, queries_per_world, 4});
  REQUIRE(report.size() == planner_registry().size());
  for (const referee::PlannerConformance& t : report) {
    CAPTURE(t.planner);
    std::string text =
        t.planner + ": " + std::to_string(t.queries) + " queries, " + std::to_string(t.found) + " found, " +
        std::to_string(t.refused) + " refused, " + std::to_string(t.illegal) + " illegal, " +
        std::to_string(t.cost_disagree) + " costs disagree, " + std::to_string(t.no_path_solvable) +
        " refused where a path keeping the radius exists, " + std::to_string(t.over_bound) + " of " +
        std::to_string(t.bound_checked) + " above the bound " + std::to_string(t.bound) +
        " (worst ratio to grid A* " + std::to_string(t.worst_ratio) + "), " +
        std::to_string(t.replay_differs) + " of " + std::to_string(t.replays) + " replays differ, " +
        std::to_string(t.kept) + " answers kept after edits and " + std::to_string(t.invalidated) +
        " voided, " + std::to_string(t.stale_kept) + " kept but stale, " + std::to_string(t.over_budget) +
        " of " + std::to_string(t.budgets_checked) + " structure views over budget";
    for (const std::string& e : t.examples) text += "\n    " + e;
    MESSAGE(text);
    CHECK(t.queries > 0);
    const auto allowed = [&](const char* check, int count) {
      return count == 0 || known_defect(t.planner, check);
    };
    CHECK(allowed("legal", t.illegal));
    CHECK(allowed("cost", t.cost_disagree));
    CHECK(allowed("steps", t.stepping_differs));
    CHECK(allowed("node_at", t.node_at_fails));
    CHECK(allowed("solvable", t.no_path_solvable));
    CHECK(allowed("bound", t.over_bound));
    CHECK(allowed("replay", t.replay_differs));
    CHECK(allowed("stale", t.stale_kept));
    CHECK(allowed("budget", t.over_budget));
    // The checks ran: every planner replayed, its answers asked about after edits, its
    // structure walked with budgets.
    CHECK(t.replays > 0);
    CHECK(t.kept + t.invalidated > 0);
    CHECK(t.budgets_checked > 0);
    // Every planner comparable with grid A* declares a bound.
    if (t.cost_skipped < t.found) CHECK(t.bound > 0);
  }
}

}  // namespace

TEST_CASE("conformance: every registered planner, worlds 0-5") { check_conformance(0, 6, 4); }
TEST_CASE("conformance: every registered planner, worlds 6-11") { check_conformance(6, 6, 4); }
TEST_CASE("conformance: every registered planner, worlds 12-17") { check_conformance(12, 6, 4); }
TEST_CASE("conformance: every registered planner, worlds 18-23") { check_conformance(18, 6, 4); }

TEST_CASE("conformance: an edit that closes a query's start is no stale answer (world 566)") {
  // World 566's second edit walls in the start of its query (16.5, 15.5) -> (23.5, 24.5).
  // The quadtree leads a unit out of an impassable leaf, so its kept answer and a fresh
  // search both leave through the wall; the kept answer equals the fresh one.
  const std::vector<PlannerInfo> registry = {*find_planner("astar"), *find_planner("quadtree")};
  const auto report = referee::run_conformance(registry, {566, 1, 6, 4});
  REQUIRE(report.size() == 2);
  const referee::PlannerConformance& quadtree = report[1];
  for (const std::string& e : quadtree.examples) MESSAGE(e);
  CHECK(quadtree.kept > 0);
  CHECK(quadtree.stale_kept == 0);
}

TEST_CASE("conformance: every registered planner, 300 worlds" * doctest::test_suite("slow")) {
  check_conformance(1000, 300, 6);
}

}  // namespace pathscope
