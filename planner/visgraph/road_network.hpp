#pragma once

// Roads planned exactly in the visibility graph (seed 004, "Roads"): road points become
// nodes of the same graph as the obstacle corners, linked along the roads at their
// length divided by the road's speed factor and to the corners that see them.

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "planner/core/types.hpp"
#include "planner/scenario/scenario.hpp"
#include "planner/visgraph/visibility_graph.hpp"

namespace pathscope::visgraph {

/// What a road link leads to: a corner of the visibility graph, a weighted region's
/// corner (WeightedRegions::corners()), or another road point.
enum class RoadEnd : std::uint8_t { Corner, RegionCorner, RoadPoint };

/// A link of the road network, seen from one end.
struct RoadNetLink {
  std::uint32_t to = 0;  ///< Index in the kind's own numbering.
  RoadEnd kind = RoadEnd::RoadPoint;
  double cost = 0;     ///< Metres of ground travel: off the road its leg cost, along it leg / factor.
  bool along = false;  ///< Along a road (else a straight entry or exit leg).
};

/// A stretch of one road segment outside every obstacle, between two road points (road
/// vertices, crossings of two roads, or the points where the road meets an obstacle).
struct RoadPiece {
  Vec2 a, b;               ///< Ends, world metres.
  std::uint32_t road = 0;  ///< Index into Scenario::roads.
  double factor = 1;       ///< The road's speed factor (> 1).
  double length = 0;       ///< Metres from a to b.
  Vec2 dir{1, 0};          ///< Unit vector from a to b.
};

/// Where a point q joins a piece best (the angle rule): travelling towards the piece's
/// end b, the cost sqrt(d^2 + (x - s)^2) + (L - x) / f of joining at x is least where
/// the approach meets the road at the angle whose cosine is 1 / f, x = s + d / sqrt(f^2 - 1)
/// (s: q's projection along the piece, d: its distance from the road's line); towards a,
/// x = s - d / sqrt(f^2 - 1). The same points are the best exits towards q. Returns how
/// many of the two lie strictly inside the piece (0 to 2, equal ones once), as metres
/// from a in `out`.
int joining_points(const RoadPiece& piece, Vec2 q, double out[2]);

/// The roads of a scenario as part of a visibility graph. Road points: the ends of the
/// pieces, then the joining points (angle rule) seen from every corner (along a tangent),
/// region corner and piece end, each piece's points linked in order along it. Every
/// corner, region corner and piece end is also linked to the piece ends it sees.
class RoadNetwork {
 public:
  RoadNetwork() = default;
  /// Roads with a speed factor above 1 (a road of factor 1 saves nothing). `leg` prices a
  /// straight leg off the road (length, or its weighted cost through slow ground); a leg
  /// along a road costs leg / factor. `region_corners` join as corners do (no tangency).
  RoadNetwork(const std::vector<Road>& roads, const VisibilityGraph& graph,
              std::span<const Vec2> region_corners, const std::function<double(Vec2, Vec2)>& leg);

  bool empty() const { return pieces_.empty(); }
  const std::vector<RoadPiece>& pieces() const { return pieces_; }
  /// Road points, world metres: the first end_count() are piece ends.
  const std::vector<Vec2>& points() const { return points_; }
  std::size_t end_count() const { return ends_; }
  /// The largest speed factor of a piece (1 with none): the heuristic divides by it.
  double max_factor() const { return max_factor_; }
  /// The links of road point k.
  std::span<const RoadNetLink> links(std::uint32_t k) const { return span(point_start_, point_links_, k); }
  /// The road points linked with corner `node` of the visibility graph.
  std::span<const RoadNetLink> corner_links(std::uint32_t node) const {
    return span(corner_start_, corner_links_, node);
  }
  /// The road points linked with region corner k.
  std::span<const RoadNetLink> region_links(std::uint32_t k) const {
    return span(region_start_, region_links_, k);
  }
  /// The pieces road point k lies on (an end: one or more; a joining point: one).
  std::span<const std::uint32_t> point_pieces(std::uint32_t k) const {
    return {on_piece_.data() + on_start_[k], on_piece_.data() + on_start_[k + 1]};
  }
  /// The road points of a piece, in order from its end a, and their metres from a.
  std::span<const std::uint32_t> piece_points(std::uint32_t piece) const {
    return {piece_point_.data() + piece_start_[piece], piece_point_.data() + piece_start_[piece + 1]};
  }
  std::span<const double> piece_offsets(std::uint32_t piece) const {
    return {piece_offset_.data() + piece_start_[piece], piece_offset_.data() + piece_start_[piece + 1]};
  }
  /// Undirected links: along the roads, and entry or exit legs.
  std::size_t along_count() const { return along_; }
  std::size_t entry_count() const { return entries_; }

 private:
  static std::span<const RoadNetLink> span(const std::vector<std::uint32_t>& start,
                                           const std::vector<RoadNetLink>& l, std::uint32_t k) {
    return {l.data() + start[k], l.data() + start[k + 1]};
  }

  std::vector<RoadPiece> pieces_;
  std::vector<Vec2> points_;
  std::size_t ends_ = 0;
  double max_factor_ = 1;
  std::vector<std::uint32_t> point_start_, corner_start_, region_start_;
  std::vector<RoadNetLink> point_links_, corner_links_, region_links_;
  std::vector<std::uint32_t> on_start_, on_piece_;
  std::vector<std::uint32_t> piece_start_, piece_point_;
  std::vector<double> piece_offset_;
  std::size_t along_ = 0, entries_ = 0;
};

}  // namespace pathscope::visgraph
