#include "planner/visgraph/visgraph_dependency.hpp"

#include <utility>

#include "planner/visgraph/obstacle_set.hpp"
#include "planner/visgraph/visibility_graph.hpp"

namespace pathscope {

VisGraphDependency::VisGraphDependency(std::vector<Vec2> path, double pad, bool line,
                                       const PlanningWorld& world, std::size_t movement_class)
    : path_(std::move(path)), pad_(pad), line_(line), world_(world), class_(movement_class) {}

bool VisGraphDependency::still_valid(const WorldChange& change) const {
  if (change.rebuilt) return false;
  bool obstacles = false;
  for (const ItemRef& r : change.items) {
    if (r.kind == ItemKind::Tiles || r.kind == ItemKind::Bridge || r.kind == ItemKind::Road) return false;
    if (r.kind != ItemKind::Feature) continue;
    if (r.change != ItemChange::Added) return false;
    // An added feature of passable terrain may open what it is painted over.
    const Scenario& s = world_.scenario();
    bool blocking = false;
    for (const Feature& f : s.features) {
      if (f.id == r.id) blocking = visgraph::blocks_class(s, f.terrain, class_);
    }
    if (!blocking) return false;
    obstacles = true;
  }
  if (!obstacles) return true;
  // Only features were added: the answer holds while none comes near the path.
  const Box2 area = change.area.expanded(pad_);
  for (std::size_t i = 0; i + 1 < path_.size(); ++i) {
    if (visgraph::segment_meets_box(path_[i], path_[i + 1], area)) return false;
  }
  return !(line_ && path_.size() >= 2 && visgraph::segment_meets_box(path_.front(), path_.back(), area));
}

}  // namespace pathscope
