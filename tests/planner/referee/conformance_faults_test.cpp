// The conformance suite finds planted faults: planners registered only here (a registry
// of their own beside grid A*), each wrong in one way the suite checks.

#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

#include "planner/core/planner_registry.hpp"
#include "planner/referee/conformance.hpp"

namespace pathscope {
namespace conformance_faults {

// How a planted planner is wrong.
enum class Fault { CostTimesOnePercent, StraightLine, SteppingLosesPath };

// Grid A*'s answers, altered by a fault.
class FaultyPlanner final : public Planner {
 public:
  FaultyPlanner(std::unique_ptr<Planner> inner, Fault fault) : inner_(std::move(inner)), fault_(fault) {}
  std::string_view name() const override { return "faulty"; }
  SearchStatus start(const PathQuery& query) override {
    query_ = query;
    stepped_ = false;
    return finish(inner_->start(query));
  }
  SearchStatus step(std::uint64_t max_expansions) override {
    stepped_ = stepped_ || max_expansions < 100;  // stepped a few at a time, not in one shot
    return finish(inner_->step(max_expansions));
  }
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
    if (result_.status != SearchStatus::Found) return status;
    switch (fault_) {
      case Fault::CostTimesOnePercent: result_.cost *= 1.01; break;
      case Fault::StraightLine: result_.points = {query_.start, query_.goal}; break;
      case Fault::SteppingLosesPath:
        if (stepped_) result_.points.pop_back();
        break;
    }
    return status;
  }

  std::unique_ptr<Planner> inner_;
  Fault fault_;
  PathQuery query_{};
  bool stepped_ = false;
  PathResult result_;
};

PlannerInfo faulty(const std::string& name, Fault fault, double bound) {
  PlannerInfo info = *find_planner("astar");
  info.name = name;
  info.family = "faults";
  info.referee.bound = bound;
  info.create = [fault](const QueryContext& c) -> std::unique_ptr<Planner> {
    QueryContext astar = c;
    return std::make_unique<FaultyPlanner>(find_planner("astar")->create(astar), fault);
  };
  return info;
}

const referee::PlannerConformance& row(const std::vector<referee::PlannerConformance>& report,
                                       const std::string& name) {
  for (const auto& r : report) {
    if (r.planner == name) return r;
  }
  FAIL("no row for " << name);
  return report.front();
}

}  // namespace conformance_faults

TEST_CASE("conformance: planted faults are each found, and grid A* alone passes") {
  using namespace conformance_faults;
  const std::vector<PlannerInfo> registry = {
      *find_planner("astar"),
      faulty("dearer", Fault::CostTimesOnePercent, 2.0),
      faulty("straight", Fault::StraightLine, 2.0),
      faulty("stepped", Fault::SteppingLosesPath, 2.0),
      faulty("tight", Fault::CostTimesOnePercent, 0.5),
  };
  const auto report = referee::run_conformance(registry, {0, 9, 4, 2});
  REQUIRE(report.size() == registry.size());

  const auto& astar = row(report, "astar");
  CHECK(astar.found > 20);
  CHECK(astar.violations() == 0);
  CHECK(astar.worst_ratio == doctest::Approx(1.0).epsilon(1e-6));

  // A cost 1% dear disagrees with the referee on every path.
  const auto& dearer = row(report, "dearer");
  CHECK(dearer.cost_disagree == dearer.found);
  CHECK(dearer.over_bound == 0);
  // A straight line through the world crosses walls: illegal somewhere.
  const auto& straight = row(report, "straight");
  CHECK(straight.illegal > 0);
  CHECK(straight.illegal < straight.found);
  // Stepping that loses the last point differs from one shot every time.
  const auto& stepped = row(report, "stepped");
  CHECK(stepped.stepping_differs == stepped.queries);
  // A bound of half grid A*'s cost is broken by every path compared.
  const auto& tight = row(report, "tight");
  CHECK(tight.bound_checked > 0);
  CHECK(tight.over_bound == tight.bound_checked);
  CHECK(tight.worst_ratio == doctest::Approx(1.0).epsilon(1e-6));  // the referee's cost of the path
}

}  // namespace pathscope
