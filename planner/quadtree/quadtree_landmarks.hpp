#pragma once

// Landmarks for the quadtree planner's heuristic (a differential heuristic, as ALT's
// landmarks): the travel cost from a few far-apart leaves to every leaf, so that the cost
// between two leaves is at least about the difference of their costs from any landmark.

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "planner/core/memory_budget.hpp"
#include "planner/core/result.hpp"

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
/// zigzag of entries taken greedily: a leaf entered at the point of the portal nearest to
/// its parent's entry is mostly reached by axis-aligned legs, so among small leaves a
/// cost runs up to the Manhattan distance); bound() therefore takes off a share of them.
///
/// The same landmarks are also costed over the *corner graph* (corner_costs()): the side
/// points of the passable leaves (their corners and their portals' ends), each linked to
/// the other side points of its leaf by a straight segment times the leaf's multiplier,
/// and shared by two leaves where it lies on their portal. Its shortest paths bend only
/// at those points, so its costs stay near the true travel costs (at most the octile
/// excess among unit cells, less in larger leaves); a leaf's corner cost is that of its
/// cheapest side point, which corner_entry() gives.
///
/// Cached by the world beside the class's QuadtreeMap, one per count: kept while no cell
/// changes, made again at the first use after a change of cells (the costs depend on the
/// whole map).
class QuadLandmarks final : public DerivedStructure {
 public:
  QuadLandmarks() = default;
  /// Up to `count` landmarks (fewer if the region has fewer passable leaves).
  QuadLandmarks(const Quadtree& tree, const QuadLinks& links, int count);

  /// The landmarks of `movement_class` in `world` (its QuadtreeMap's within `budget`),
  /// made on first use, or refused (ok() false) when the map was, or when the map and
  /// estimate_bytes() together would not fit the budget. The reference stays valid until
  /// the world's next update().
  static const QuadLandmarks& of(const PlanningWorld& world, std::size_t movement_class, int count,
                                 MemoryBudget budget = {});

  /// Bytes the landmarks of a tree of `slots` leaf slots take at most while they are
  /// costed: per slot and landmark, a double while searching and two floats and an
  /// entry point kept (24); per slot, the corner graph and a search's scratch (160).
  static std::uint64_t estimate_bytes(std::size_t slots, int count) {
    return std::uint64_t(slots) * (std::uint64_t(count > 0 ? count : 0) * 24 + 160);
  }

  /// False when refused by the memory budget (then it has no landmark).
  bool ok() const { return !error_.has_value(); }
  /// Why it was refused: the map's error, or a Limit error naming memory_mib and landmarks.
  const Error& error() const { return *error_; }

  /// Kept when no cell changed, else dropped.
  bool update(const PlanningWorld&, const WorldChange& change) override { return change.cells.empty(); }
  std::size_t memory_bytes() const override {
    return (cost_.capacity() + corner_cost_.capacity()) * sizeof(float) +
           corner_entry_.capacity() * sizeof(EntryPoint) + landmarks_.capacity() * sizeof(std::uint32_t);
  }

  /// A point of a leaf's side, world, in single precision.
  struct EntryPoint {
    float x, y;
  };

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

  /// The costs of one leaf from every landmark over the corner graph: those of its
  /// cheapest side point (0 at a landmark's own leaf), infinity outside its region.
  std::span<const float> corner_costs(std::uint32_t leaf) const {
    return {corner_cost_.data() + std::size_t(leaf) * count_, std::size_t(count_)};
  }
  /// Per landmark, the cheapest side point of a leaf (world; a landmark's own leaf: its
  /// centre). Read for the goal's leaf, once per query.
  std::span<const EntryPoint> corner_entries(std::uint32_t leaf) const {
    return {corner_entry_.data() + std::size_t(leaf) * count_, std::size_t(count_)};
  }

  /// An estimate of the travel cost from a point of a leaf with corner costs `a` to a goal
  /// point in a leaf with corner costs `goal`, where `goal_excess[k]` is the goal's
  /// distance from that leaf's entry for landmark k times its multiplier and `slack` the
  /// leaf's diagonal times its multiplier. Per landmark: when the leaf is the farther,
  /// a - goal - goal_excess (any point of the leaf costs at least a, the goal at most
  /// goal + goal_excess); when the goal is, goal - a - slack. The largest, or 0 if no
  /// landmark reaches both. With no margin: the corner costs are near the true ones.
  static double corner_bound(std::span<const float> a, double slack, std::span<const float> goal,
                             std::span<const double> goal_excess);

 private:
  int count_ = 0;
  std::optional<Error> error_;
  std::vector<std::uint32_t> landmarks_;
  std::vector<float> cost_;               // per leaf slot, count_ costs in a row
  std::vector<float> corner_cost_;        // the same over the corner graph
  std::vector<EntryPoint> corner_entry_;  // per leaf slot, count_ cheapest side points
};

}  // namespace pathscope
