#pragma once

// Slow ground on a visibility graph (seed 004, "Swamps"): features a class may cross at a
// cost multiplier other than the ground's are weighted regions. Their corners join the
// graph; every link then costs its length inside each region times the region's factor.

#include <cstdint>
#include <span>
#include <vector>

#include "planner/core/types.hpp"
#include "planner/visgraph/visibility_graph.hpp"
#include "planner/world/planning_world.hpp"

namespace pathscope::visgraph {

/// One weighted region: a simple polygon (circles within max_error, or 2% of the radius
/// if that is coarser, outside the circle)
/// and the factor travel inside it costs, relative to the ground (terrain 0).
struct WeightedRegion {
  std::vector<Vec2> ring;
  double factor = 1;
  Box2 box;
};

/// The weighted regions of a world for one class, in paint order (a later region wins
/// where two overlap), with their corners linked into the visibility graph.
class WeightedRegions {
 public:
  WeightedRegions() = default;
  /// The passable features of `world` whose multiplier for the class differs from the
  /// ground's, their corners (those outside every inflated obstacle) and the links of
  /// those corners: to each other in sight, and to the graph's corners that see them
  /// along a tangent.
  WeightedRegions(const PlanningWorld& world, std::size_t movement_class, const VisibilityGraph& graph,
                  double max_error);

  bool empty() const { return regions_.empty(); }
  const std::vector<WeightedRegion>& regions() const { return regions_; }
  /// The smallest factor (at most 1): the heuristic's scale.
  double min_factor() const { return min_factor_; }
  /// Cost of travel along [a, b]: each piece's length times the factor of the last
  /// region holding it (1 outside every region). Exact up to rounding.
  double cost(Vec2 a, Vec2 b) const;

  /// Region corners joined to the graph (positions).
  const std::vector<Vec2>& corners() const { return corners_; }
  /// A link of a region corner: to another region corner (index into corners()) or to a
  /// node of the visibility graph, with its cost.
  struct Link {
    std::uint32_t to = 0;
    bool graph_node = false;  ///< `to` is a node of the visibility graph, else a region corner.
    double cost = 0;
  };
  std::span<const Link> links(std::uint32_t corner) const {
    return {links_.data() + link_start_[corner], links_.data() + link_start_[corner + 1]};
  }
  /// The region corners linked with graph node `node` (index into corners()), with costs.
  std::span<const Link> graph_links(std::uint32_t node) const {
    return {graph_links_.data() + graph_start_[node], graph_links_.data() + graph_start_[node + 1]};
  }

 private:
  std::vector<WeightedRegion> regions_;
  double min_factor_ = 1;
  std::vector<Vec2> corners_;
  std::vector<std::uint32_t> link_start_;
  std::vector<Link> links_;
  std::vector<std::uint32_t> graph_start_;
  std::vector<Link> graph_links_;
};

}  // namespace pathscope::visgraph
