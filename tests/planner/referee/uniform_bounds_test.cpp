// The conformance suite's radius-0 uniform-cost bounds (planner/referee/uniform_bounds.hpp):
// every registered planner on generated worlds of one cost, its radius 0, against grid A*
// on the same cells; the worlds themselves; and planted faults, each found.

#include <doctest/doctest.h>

#include <cmath>
#include <memory>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "planner/core/planner_registry.hpp"
#include "planner/referee/uniform_bounds.hpp"
#include "planner/scenario/scenario_io.hpp"
#include "planner/scenario/scenario_validate.hpp"
#include "planner/world/planning_world.hpp"

namespace pathscope {
namespace uniform_bounds_test {

const referee::PlannerUniformBound& row(const std::vector<referee::PlannerUniformBound>& report,
                                        const std::string& name) {
  for (const auto& r : report) {
    if (r.planner == name) return r;
  }
  FAIL("no row for " << name);
  return report.front();
}

std::string describe(const referee::PlannerUniformBound& t) {
  std::string text = t.planner + ": ";
  if (!t.skipped.empty()) return text + "skipped: " + t.skipped;
  text += std::to_string(t.queries) + " queries, " + std::to_string(t.found) + " found, " +
          std::to_string(t.refused_solvable) + " refused where grid A* finds a path, " +
          std::to_string(t.illegal) + " illegal, " + std::to_string(t.cost_disagree) + " costs disagree, " +
          std::to_string(t.over_bound) + " of " + std::to_string(t.bound_checked) + " above the bound " +
          std::to_string(t.bound) + " (worst ratio to grid A* " + std::to_string(t.worst_ratio) + ", mean " +
          std::to_string(t.bound_checked > 0 ? t.sum_ratio / t.bound_checked : 0.0) + ")";
  for (const std::string& e : t.examples) text += "\n    " + e;
  return text;
}

// Every registered planner passes its radius-0 uniform bound on worlds first..first+count-1;
// only planners whose entry says why are skipped. Returns the report.
std::vector<referee::PlannerUniformBound> check_uniform(std::uint64_t first, int count, int queries) {
  const auto report = referee::run_uniform_bounds(planner_registry(), {first, count, queries, 4});
  REQUIRE(report.size() == planner_registry().size());
  for (std::size_t i = 0; i < report.size(); ++i) {
    const referee::PlannerUniformBound& t = report[i];
    CAPTURE(t.planner);
    MESSAGE(describe(t));
    if (!t.skipped.empty()) {
      // Skipped only where its entry declares why.
      CHECK(t.skipped == planner_registry()[i].referee.uniform_skip);
      continue;
    }
    CHECK(t.bound > 0);
    CHECK(t.bound_checked > 0);
    CHECK(t.violations() == 0);
    CHECK(t.worst_ratio <= t.bound * (1 + 1e-6));
  }
  return report;
}

// A planner's figures on a set of worlds, measured when its bound was declared: a mean
// ratio that moves by more than 0.005, or a worst ratio that rises by more than 0.005,
// fails (planner/referee/README.md, docs/benchmarks/conformance.md).
struct Pinned {
  const char* planner;
  double mean;
  double worst;
};

void check_pinned(const std::vector<referee::PlannerUniformBound>& report, std::span<const Pinned> pinned) {
  for (const Pinned& p : pinned) {
    CAPTURE(p.planner);
    const referee::PlannerUniformBound& t = row(report, p.planner);
    REQUIRE(t.bound_checked > 0);
    const double mean = t.sum_ratio / t.bound_checked;
    CAPTURE(mean);
    CHECK(std::abs(mean - p.mean) <= 0.005);
    CHECK(t.worst_ratio <= p.worst + 0.005);
  }
}

// How a planted planner is wrong.
enum class Fault {
  Detour,         // goes to the goal, back to the start and to the goal again: legal, 3 x the cost
  RefusesHalf,    // no path for every other query
  Undeclared,     // declares no uniform bound
  KeepsClearance  // keeps 0.5 m from obstacles whatever its parameters
};

// Grid A*'s answers, altered by a fault.
class Planted final : public Planner {
 public:
  Planted(std::unique_ptr<Planner> inner, Fault fault) : inner_(std::move(inner)), fault_(fault) {}
  std::string_view name() const override { return "planted"; }
  SearchStatus start(const PathQuery& query) override { return finish(inner_->start(query)); }
  SearchStatus step(std::uint64_t max_expansions) override { return finish(inner_->step(max_expansions)); }
  const PathResult& result() const override { return result_; }
  std::size_t node_count() const override { return inner_->node_count(); }
  Vec2 node_position(NodeId node) const override { return inner_->node_position(node); }
  NodeGeometry node_geometry(NodeId node) const override { return inner_->node_geometry(node); }
  NodeId node_at(Vec2 point, double tolerance) const override { return inner_->node_at(point, tolerance); }
  void visit_nodes(const std::function<void(const NodeView&)>& fn) const override { inner_->visit_nodes(fn); }
  void set_observer(SearchObserver* observer) override { inner_->set_observer(observer); }

 private:
  SearchStatus finish(SearchStatus status) {
    result_ = inner_->result();
    if (!is_finished(status) || result_.status != SearchStatus::Found) return status;
    if (fault_ == Fault::Detour) {
      std::vector<Vec2> there = result_.points;
      result_.points.insert(result_.points.end(), there.rbegin() + 1, there.rend());
      result_.points.insert(result_.points.end(), there.begin() + 1, there.end());
      result_.cost *= 3;
    } else if (fault_ == Fault::RefusesHalf && (answered_++ % 2 == 1)) {
      result_.status = SearchStatus::NoPath;
      result_.points.clear();
      result_.message = "planted refusal";
      return SearchStatus::NoPath;
    }
    return status;
  }

  std::unique_ptr<Planner> inner_;
  Fault fault_;
  int answered_ = 0;
  PathResult result_;
};

PlannerInfo planted(const std::string& name, Fault fault) {
  PlannerInfo info = *find_planner("astar");
  info.name = name;
  info.family = "planted";
  info.referee.uniform_bound = fault == Fault::Undeclared ? 0 : 1.05;
  if (fault == Fault::KeepsClearance) info.clearance = [](const QueryContext&) { return 0.5; };
  info.create = [fault](const QueryContext& c) -> std::unique_ptr<Planner> {
    return std::make_unique<Planted>(find_planner("astar")->create(c), fault);
  };
  return info;
}

}  // namespace uniform_bounds_test

TEST_CASE("uniform worlds: valid, of every kind, one multiplier on every passable cell, deterministic") {
  std::set<referee::UniformWorldKind> kinds;
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    CAPTURE(seed);
    const Scenario s = referee::uniform_world(seed);
    const Status valid = validate_scenario(s);
    REQUIRE_MESSAGE(valid.ok(), (valid.ok() ? "" : valid.error().to_string()));
    CHECK(scenario_to_json(s) == scenario_to_json(referee::uniform_world(seed)));
    kinds.insert(referee::uniform_world_kind(seed));
    const PlanningWorld world(s);
    const CostGrid& g = world.grid(0);
    std::set<double> multipliers;
    std::size_t blocked = 0;
    for (std::uint32_t c = 0; c < g.cell_count(); ++c) {
      if (g.passable(c))
        multipliers.insert(g.multiplier(c));
      else
        ++blocked;
    }
    CHECK(multipliers.size() == 1);
    CHECK(blocked > 0);
    CHECK(blocked < g.cell_count());
    CHECK(s.roads.empty());
    CHECK(s.bridges.empty());
  }
  CHECK(kinds.size() == 5);
}

TEST_CASE("uniform bounds: every registered planner with radius 0 against grid A*, worlds 0-14") {
  const auto report = uniform_bounds_test::check_uniform(0, 15, 4);
  // Grid A* against itself, and the any-angle planners are checked (none skipped).
  CHECK(uniform_bounds_test::row(report, "astar").worst_ratio == doctest::Approx(1.0).epsilon(1e-9));
  for (const char* name : {"quadtree", "visgraph", "navmesh", "hybrid"}) {
    CAPTURE(name);
    CHECK(uniform_bounds_test::row(report, name).skipped.empty());
  }
  CHECK(!uniform_bounds_test::row(report, "tactical").skipped.empty());
  // The any-angle planners' figures on these worlds (60 queries each).
  constexpr uniform_bounds_test::Pinned kPinned[] = {{"quadtree", 0.9040, 1.0000},
                                                     {"visgraph", 0.8968, 1.0000},
                                                     {"hybrid", 1.0009, 1.0406},
                                                     {"navmesh", 0.9017, 1.0000}};
  uniform_bounds_test::check_pinned(report, kPinned);
}

TEST_CASE("uniform bounds: every registered planner with radius 0, 300 worlds" *
          doctest::test_suite("slow")) {
  const auto report = uniform_bounds_test::check_uniform(1000, 300, 6);
  // The any-angle planners' figures on these worlds (1,800 queries each).
  constexpr uniform_bounds_test::Pinned kPinned[] = {{"quadtree", 0.9036, 1.0134},
                                                     {"visgraph", 0.8983, 1.0000},
                                                     {"hybrid", 1.0017, 1.0836},
                                                     {"navmesh", 0.9040, 1.2434}};
  uniform_bounds_test::check_pinned(report, kPinned);
}

TEST_CASE("uniform bounds: planted faults are each found, and grid A* alone passes") {
  using namespace uniform_bounds_test;
  const std::vector<PlannerInfo> registry = {
      *find_planner("astar"),
      planted("detour", Fault::Detour),
      planted("refuses", Fault::RefusesHalf),
      planted("undeclared", Fault::Undeclared),
      planted("clearance", Fault::KeepsClearance),
  };
  const auto report = referee::run_uniform_bounds(registry, {0, 5, 4, 2});
  REQUIRE(report.size() == registry.size());
  const auto& astar = row(report, "astar");
  CHECK(astar.skipped.empty());
  CHECK(astar.bound_checked > 10);
  CHECK(astar.violations() == 0);
  // A legal path three times as dear breaks a bound of 1.05 on every query, and its cost
  // agrees with the referee's.
  const auto& detour = row(report, "detour");
  CHECK(detour.illegal == 0);
  CHECK(detour.cost_disagree == 0);
  CHECK(detour.over_bound == detour.bound_checked);
  CHECK(detour.bound_checked == astar.bound_checked);
  CHECK(detour.worst_ratio == doctest::Approx(3.0).epsilon(1e-9));
  REQUIRE(detour.worst.has_value());
  CHECK(detour.worst->cost == doctest::Approx(3 * detour.worst->reference).epsilon(1e-9));
  // Refusals where grid A* finds a path are violations.
  const auto& refuses = row(report, "refuses");
  CHECK(refuses.refused_solvable > 0);
  CHECK(refuses.refused_solvable == refuses.refused);
  CHECK(refuses.violations() == refuses.refused_solvable);
  // A planner declaring no bound, or keeping a clearance at radius 0, is skipped and says why.
  CHECK(row(report, "undeclared").skipped == "its entry declares no radius-0 uniform bound");
  CHECK(row(report, "undeclared").queries == 0);
  CHECK(row(report, "clearance").skipped.find("keeps 0.500 m") == 0);
  // Without grid A* nothing is compared.
  const std::vector<PlannerInfo> alone = {planted("detour", Fault::Detour)};
  CHECK(referee::run_uniform_bounds(alone, {0, 2, 2, 2}).front().skipped ==
        "no grid A* in the registry to compare with");
}

}  // namespace pathscope
