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

/// One weighted region: a rectangle of cells (as a ring) and the factor travel inside it
/// costs, relative to the ground (terrain 0).
struct WeightedRegion {
  std::vector<Vec2> ring;
  double factor = 1;
  Box2 box;
};

/// The weighted regions of a world for one class (disjoint), with their corners linked
/// into the visibility graph.
class WeightedRegions {
 public:
  /// Most rectangles weighed: their corners are linked pair by pair, so a world with more
  /// (a large tile map of many terrains) is not weighed in the search (dropped()).
  static constexpr std::size_t kMaxRegions = 512;

  WeightedRegions() = default;
  /// The cells of `world`'s raster whose terrain multiplier for the class differs from the
  /// ground's (tiles, containers and features as the raster paints them; a bridge deck is
  /// ground), as rectangles: runs of a row of one multiplier, continued by equal runs in the
  /// rows below. Their corners (taken into the free box, those outside every inflated
  /// obstacle) are linked to each other in sight and to the graph's corners that see them
  /// along a tangent. `max_error` is unused (regions are cells).
  WeightedRegions(const PlanningWorld& world, std::size_t movement_class, const VisibilityGraph& graph,
                  double max_error);

  bool empty() const { return regions_.empty(); }
  /// Rectangles found but not weighed, more than kMaxRegions (0: none dropped).
  std::size_t dropped() const { return dropped_; }
  const std::vector<WeightedRegion>& regions() const { return regions_; }
  /// The smallest factor (at most 1): the heuristic's scale.
  double min_factor() const { return min_factor_; }
  /// Cost of travel along [a, b]: each piece's length times the factor of the region
  /// holding it (1 outside every region); a piece along a region's edge costs the cheaper
  /// passable side (a side in a blocked cell or beyond the world's edge is no way), as the
  /// world's model. Exact up to rounding. The world must outlive the regions.
  double cost(Vec2 a, Vec2 b) const;
  /// The factor at a point: of the region whose inside holds it, else 1.
  double factor_at(Vec2 p) const;

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
  // The class's cost grid, borrowed from the world: a side in a blocked cell or beyond the
  // world's edge is no way.
  const CostGrid* grid_ = nullptr;
  double cell_size_ = 0;
  // Each raster cell's factor (1: in no region), row by row: factor_at's lookup away from
  // the cells' sides.
  int width_ = 0, height_ = 0;
  std::vector<double> cell_factor_;
  std::size_t dropped_ = 0;
  double min_factor_ = 1;
  std::vector<Vec2> corners_;
  std::vector<std::uint32_t> link_start_;
  std::vector<Link> links_;
  std::vector<std::uint32_t> graph_start_;
  std::vector<Link> graph_links_;
};

}  // namespace pathscope::visgraph
