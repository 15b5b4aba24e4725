#include "planner/quadtree/quadtree_map.hpp"

#include <memory>

namespace pathscope {

const QuadtreeMap& QuadtreeMap::of(const PlanningWorld& world, std::size_t movement_class) {
  return world.derived<QuadtreeMap>(kKey, movement_class, [](const PlanningWorld& w, std::size_t c) {
    return std::make_unique<QuadtreeMap>(w, c);
  });
}

bool QuadtreeMap::update(const PlanningWorld& world, const WorldChange& change) {
  if (change.cells.empty()) return true;
  const QuadtreeEdit edit = tree_.update(world.grid(class_), change.cells);
  links_.update(tree_, edit);
  return true;
}

}  // namespace pathscope
