// The conformance suite finds planted faults: planners registered only here (a registry
// of their own beside grid A*), each wrong in one way the suite checks.

#include <doctest/doctest.h>

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "planner/core/planner_registry.hpp"
#include "planner/referee/conformance.hpp"

namespace pathscope {
namespace conformance_faults {

// How a planted planner is wrong.
enum class Fault {
  CostTimesOnePercent,
  StraightLine,
  SteppingLosesPath,
  TraceOffByHalf,          // the trace's pushes carry g + 0.5: its replay differs from the live nodes
  KeepsEveryAnswer,        // its dependency holds through any edit: stale answers are kept
  IgnoresStructureBudget,  // its structure view never asks the visitor whether it is full
};

// Relays events to an observer, every push's g half a metre more.
class OffByHalf final : public SearchObserver {
 public:
  explicit OffByHalf(SearchObserver& inner) : inner_(inner) {}
  void on_start(const PathQuery& query) override { inner_.on_start(query); }
  void on_event(const SearchEvent& event) override {
    SearchEvent e = event;
    if (e.kind == SearchEventKind::Push) e.g += 0.5;
    inner_.on_event(e);
  }
  void on_refine(std::string_view stage, std::span<const Vec2> polyline,
                 std::span<const StructureShape> shapes) override {
    inner_.on_refine(stage, polyline, shapes);
  }

 private:
  SearchObserver& inner_;
};

// A dependency that says every answer holds.
class AlwaysValid final : public ResultDependency {
 public:
  bool still_valid(const WorldChange&) const override { return true; }
};

// Relays a structure view, never full.
class NeverFull final : public StructureVisitor {
 public:
  explicit NeverFull(StructureVisitor& inner) : inner_(inner) {}
  void cell(const StructureCell& c) override { inner_.cell(c); }
  void edge(const StructureEdge& e) override { inner_.edge(e); }
  void shape(const StructureShape& s) override { inner_.shape(s); }

 private:
  StructureVisitor& inner_;
};

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
  void set_observer(SearchObserver* observer) override {
    if (fault_ == Fault::TraceOffByHalf && observer != nullptr) {
      relay_ = std::make_unique<OffByHalf>(*observer);
      observer = relay_.get();
    }
    inner_->set_observer(observer);
  }
  void visit_structure(const Box2& bounds, StructureVisitor& visitor) const override {
    if (fault_ != Fault::IgnoresStructureBudget) return inner_->visit_structure(bounds, visitor);
    NeverFull relay(visitor);
    inner_->visit_structure(bounds, relay);
  }
  void visit_path_structure(StructureVisitor& visitor) const override {
    inner_->visit_path_structure(visitor);
  }
  std::unique_ptr<ResultDependency> result_dependency() const override {
    if (fault_ == Fault::KeepsEveryAnswer) return std::make_unique<AlwaysValid>();
    return inner_->result_dependency();
  }

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
      case Fault::TraceOffByHalf:
      case Fault::KeepsEveryAnswer:
      case Fault::IgnoresStructureBudget: break;
    }
    return status;
  }

  std::unique_ptr<Planner> inner_;
  Fault fault_;
  PathQuery query_{};
  bool stepped_ = false;
  PathResult result_;
  std::unique_ptr<OffByHalf> relay_;
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
      faulty("replay", Fault::TraceOffByHalf, 2.0),
      faulty("stale", Fault::KeepsEveryAnswer, 2.0),
      faulty("budget", Fault::IgnoresStructureBudget, 2.0),
  };
  const auto report = referee::run_conformance(registry, {0, 9, 4, 2});
  REQUIRE(report.size() == registry.size());

  const auto& astar = row(report, "astar");
  CHECK(astar.found > 20);
  CHECK(astar.violations() == 0);
  CHECK(astar.worst_ratio == doctest::Approx(1.0).epsilon(1e-6));
  // The new checks ran on grid A* too: replays, answers kept and voided, budgets.
  CHECK(astar.replays == 9);
  CHECK(astar.kept > 0);
  CHECK(astar.invalidated > 0);
  CHECK(astar.budgets_checked > 0);

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
  // A trace whose pushes say g + 0.5 replays to nodes the live planner never showed, every time.
  const auto& replay = row(report, "replay");
  CHECK(replay.replay_differs == replay.replays);
  CHECK(replay.violations() == replay.replay_differs);
  // An answer kept through every edit is, after some edits, not what a fresh search finds.
  const auto& stale = row(report, "stale");
  CHECK(stale.invalidated == 0);
  CHECK(stale.kept == astar.kept + astar.invalidated);
  CHECK(stale.stale_kept > 0);
  CHECK(stale.violations() == stale.stale_kept);
  // A structure view that never asks whether the visitor is full hands out every cell.
  const auto& budget = row(report, "budget");
  CHECK(budget.over_budget == budget.replays);  // once per query checked (one example each)
  CHECK(budget.violations() == budget.over_budget);
}

}  // namespace pathscope
