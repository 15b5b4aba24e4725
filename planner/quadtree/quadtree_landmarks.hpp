#pragma once

// Landmarks for the quadtree planner's heuristic (a differential heuristic, as ALT's
// landmarks): the travel cost from a few far-apart leaves to every leaf, so that the cost
// between two leaves is at least about the difference of their costs from any landmark.

#include <cstdint>
#include <span>
#include <vector>

#include "planner/quadtree/quadtree.hpp"
#include "planner/quadtree/quadtree_links.hpp"
#include "planner/world/planning_world.hpp"

namespace pathscope {

/// Travel costs from `count` landmark leaves to every leaf of a tree, in the planner's own
/// cost model: a Dijkstra over the neighbour links, each leaf entered at the point of the
/// portal nearest to where its parent was entered, an edge costing the distance between
/// the two entry points times the multiplier of the leaf it crosses (a leaf's cost is
/// that of its entry point).
///
/// Landmarks are chosen farthest first: the first is the leaf farthest from the first
/// passable leaf (by corner) of the largest region, each next one the leaf whose cost
/// from the landmarks already chosen is largest. Ties and pops break on corners, never
/// on leaf ids, so a tree kept up to date gives the same costs as a fresh one. Leaves of
/// other regions have no cost (infinity) and get no bound.
///
/// The costs are those of real paths, so they may exceed the shortest ones (by the
/// zigzag of entries taken greedily); bound() therefore takes off a share of them.
///
/// Cached by the world beside the class's QuadtreeMap, one per count: kept while no cell
/// changes, made again at the first use after a change of cells (the costs depend on the
/// whole map).
class QuadLandmarks final : public DerivedStructure {
 public:
  QuadLandmarks() = default;
  /// Up to `count` landmarks (fewer if the region has fewer passable leaves).
  QuadLandmarks(const Quadtree& tree, const QuadLinks& links, int count);

  /// The landmarks of `movement_class` in `world` (its QuadtreeMap's), made on first use.
  /// The reference stays valid until the world's next update().
  static const QuadLandmarks& of(const PlanningWorld& world, std::size_t movement_class, int count);

  /// Kept when no cell changed, else dropped.
  bool update(const PlanningWorld&, const WorldChange& change) override { return change.cells.empty(); }
  std::size_t memory_bytes() const override {
    return cost_.capacity() * sizeof(float) + landmarks_.capacity() * sizeof(std::uint32_t);
  }

  int count() const { return count_; }
  /// The landmarks' leaf ids.
  std::span<const std::uint32_t> landmarks() const { return landmarks_; }
  /// The cost from landmark k to `leaf` (infinity if unreachable).
  float cost(int k, std::uint32_t leaf) const { return cost_[std::size_t(leaf) * count_ + k]; }

  /// The costs of one leaf from every landmark, for bound().
  std::span<const float> costs(std::uint32_t leaf) const {
    return {cost_.data() + std::size_t(leaf) * count_, std::size_t(count_)};
  }

  /// An estimate of the travel cost between any point of a leaf and any point of
  /// another, from their costs `a` and `b` (costs()) and their slack (the half-diagonal of
  /// each times its multiplier, summed): the largest over the landmarks of
  /// |a - b| - slack - margin * max(a, b); 0 if no landmark reaches both.
  static double bound(std::span<const float> a, std::span<const float> b, double slack, double margin);

 private:
  int count_ = 0;
  std::vector<std::uint32_t> landmarks_;
  std::vector<float> cost_;  // per leaf slot, count_ costs in a row
};

}  // namespace pathscope
