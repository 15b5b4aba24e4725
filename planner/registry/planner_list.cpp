// The one list of planners: every family folder declares its own entries (its
// `*_registry.cpp`) and its place in the list (its `*_registry.hpp`); the build finds the
// families (planner/registry/families.cmake) and this file lists them, in the order the
// CLI and the window show them, then makes every planner able to plan with a faction's
// knowledge. To add a planner: write it behind the Planner interface in its family's
// folder and declare its entry there; a new family is a new folder, nothing else.

#include "planner/core/planner_registry.hpp"
#include "planner/registry/registered_families.hpp"
#include "planner/world/belief.hpp"

namespace pathscope {
namespace {

// A planner planning with a faction's knowledge (fog of war): the planner itself, made
// for the faction's believed world. Its answers are voided by any change of the
// faction's memory or sight, on top of what the planner's own dependency says.
class FactionDependency final : public ResultDependency {
 public:
  FactionDependency(std::unique_ptr<ResultDependency> inner, std::size_t faction)
      : inner_(std::move(inner)), faction_(faction) {}
  bool still_valid(const WorldChange& change) const override {
    for (const ItemRef& r : change.items) {
      if (r.kind == ItemKind::Faction && r.id == faction_) return false;
    }
    return inner_->still_valid(change);
  }

 private:
  std::unique_ptr<ResultDependency> inner_;
  std::size_t faction_;
};

class FactionPlanner final : public Planner {
 public:
  FactionPlanner(std::unique_ptr<Planner> inner, std::size_t faction)
      : inner_(std::move(inner)), faction_(faction) {}
  std::string_view name() const override { return inner_->name(); }
  SearchStatus start(const PathQuery& query) override { return inner_->start(query); }
  SearchStatus step(std::uint64_t max_expansions) override { return inner_->step(max_expansions); }
  const PathResult& result() const override { return inner_->result(); }
  std::size_t node_count() const override { return inner_->node_count(); }
  Vec2 node_position(NodeId node) const override { return inner_->node_position(node); }
  NodeGeometry node_geometry(NodeId node) const override { return inner_->node_geometry(node); }
  std::optional<NodeLattice> node_lattice() const override { return inner_->node_lattice(); }
  NodeId node_at(Vec2 point, double tolerance) const override { return inner_->node_at(point, tolerance); }
  void visit_structure(const Box2& bounds, StructureVisitor& visitor) const override {
    inner_->visit_structure(bounds, visitor);
  }
  void visit_path_structure(StructureVisitor& visitor) const override {
    inner_->visit_path_structure(visitor);
  }
  std::unique_ptr<ResultDependency> result_dependency() const override {
    std::unique_ptr<ResultDependency> d = inner_->result_dependency();
    return d ? std::make_unique<FactionDependency>(std::move(d), faction_) : nullptr;
  }
  void visit_nodes(const std::function<void(const NodeView&)>& fn) const override { inner_->visit_nodes(fn); }
  void set_observer(SearchObserver* observer) override { inner_->set_observer(observer); }

 private:
  std::unique_ptr<Planner> inner_;
  std::size_t faction_;
};

// Every planner plans with a faction's knowledge when the context names one.
void plan_with_knowledge(std::vector<PlannerInfo>& registry) {
  for (PlannerInfo& info : registry) {
    info.create = [make = std::move(info.create)](const QueryContext& c) -> std::unique_ptr<Planner> {
      if (!c.faction || *c.faction >= c.world.scenario().factions.size()) return make(c);
      const PlanningWorld& belief = believed_world(c.world, *c.faction);
      return std::make_unique<FactionPlanner>(
          make(QueryContext{belief, c.movement_class, std::nullopt, c.params}), *c.faction);
    };
  }
}

std::vector<PlannerInfo> make_registry() {
  std::vector<PlannerInfo> r;
  append_registered_families(r);
  plan_with_knowledge(r);
  return r;
}

}  // namespace

std::span<const PlannerInfo> planner_registry() {
  static const std::vector<PlannerInfo> registry = make_registry();
  return registry;
}

}  // namespace pathscope
