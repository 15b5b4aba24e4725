#pragma once

// Roads on a visibility-graph path (seed 004, "Roads"): a graph of the roads alone, whose
// links cost less than their length, searched together with the path the visibility
// graph found; the cheaper of the two is kept.

#include <cstdint>
#include <functional>
#include <vector>

#include "planner/core/types.hpp"
#include "planner/scenario/scenario.hpp"
#include "planner/visgraph/segment_index.hpp"

namespace pathscope::visgraph {

/// A link of the road graph: along a road (cost = length / the road's speed factor) or a
/// junction between two roads (cost = length).
struct RoadLink {
  std::uint32_t a = 0;
  std::uint32_t b = 0;
  double cost = 0;
  bool junction = false;
};

/// The roads of a scenario as a graph: each road's polyline cut into pieces of at most
/// `step` metres (points outside every obstacle kept, pieces in sight linked), and
/// junctions between points of different roads no farther apart than half the sum of
/// their widths, in sight.
struct RoadGraph {
  std::vector<Vec2> points;
  std::vector<RoadLink> links;
  bool empty() const { return links.empty(); }
};

RoadGraph build_road_graph(const std::vector<Road>& roads, const SegmentIndex& index, double step);

/// The road pass over a path: `path` is cut into pieces of at most `step` metres; every
/// point of it is linked to the road points within `reach` metres in sight of it; the
/// cheapest way from the path's first point to its last over path pieces and those links
/// (priced by `leg`) and the road graph is returned, collinear points removed. `cost`
/// equals the path's own cost when no road helps (the path is then returned unchanged).
struct RoadPass {
  std::vector<Vec2> points;
  double cost = 0;
  bool on_road = false;     ///< The result uses a road link.
  std::vector<Vec2> joins;  ///< Pairs of points: the path-to-road links searched (for display).
};

/// `leg` prices a straight leg off the roads (default: its length; the planner passes
/// its weighted cost through slow ground).
RoadPass road_pass(const std::vector<Vec2>& path, const RoadGraph& roads, const SegmentIndex& index,
                   double reach, double step, const std::function<double(Vec2, Vec2)>& leg = {});

}  // namespace pathscope::visgraph
