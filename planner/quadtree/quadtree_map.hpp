#pragma once

// What the quadtree family derives from a planning world for one movement class: the
// tree, its neighbour links and their regions, cached by the world (derived<T>).

#include <cstddef>
#include <string_view>

#include "planner/quadtree/quadtree.hpp"
#include "planner/quadtree/quadtree_links.hpp"
#include "planner/world/planning_world.hpp"

namespace pathscope {

/// A movement class's quadtree and neighbour graph. Built from the class's cost grid; a
/// world change that alters cells updates it in place: the squares of the changed cells
/// and the links around them are made again, regions are brought up to date around them
/// (leaves left in place keep their ids; see Quadtree for what ids may be used for).
class QuadtreeMap final : public DerivedStructure {
 public:
  /// Key of the family's structures in PlanningWorld::derived.
  static constexpr std::string_view kKey = "quadtree";

  /// Builds the map of `movement_class` in `world`.
  QuadtreeMap(const PlanningWorld& world, std::size_t movement_class)
      : class_(movement_class), tree_(world.grid(movement_class)), links_(tree_) {}

  /// The map of `movement_class` in `world`, made on first use. The reference stays
  /// valid until the world's next update().
  static const QuadtreeMap& of(const PlanningWorld& world, std::size_t movement_class);

  const Quadtree& tree() const { return tree_; }
  const QuadLinks& links() const { return links_; }

  /// Kept as it is when no cell changed (threats, units, queries); otherwise updated in
  /// the changed cells (Quadtree::update, QuadLinks::update). Never dropped.
  bool update(const PlanningWorld& world, const WorldChange& change) override;
  std::size_t memory_bytes() const override { return tree_.memory_bytes() + links_.memory_bytes(); }

 private:
  std::size_t class_;
  Quadtree tree_;
  QuadLinks links_;
};

}  // namespace pathscope
