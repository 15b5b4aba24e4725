#pragma once

// Rubber-banding a path of cells (seed 000, "Rubber Banding, Step 1" and "Step 2"): the
// corridor of convex cells an A* over cells found, the portals between them, and the
// three polylines through it: the cell centres, the best portal corners (step 1) and the
// string-pulled path (step 2), pulled within runs of one cost where the cost changes.
// Pure geometry: no world, no search state.

#include <array>
#include <vector>

#include "planner/core/types.hpp"

namespace pathscope {

/// A corridor: convex cells in path order, each sharing an edge (a portal) with the next.
struct Corridor {
  Vec2 start{0, 0};                          ///< World point in cells.front().
  Vec2 goal{0, 0};                           ///< World point in cells.back().
  std::vector<Box2> cells;                   ///< World boxes, the start's cell first.
  std::vector<double> multipliers;           ///< Per cell: cost per metre inside it (> 0).
  std::vector<std::array<Vec2, 2>> portals;  ///< portals[i]: cells[i] | cells[i + 1], the two ends.
};

/// A polyline through a corridor, each point tagged with where it lies: slot 2i inside
/// cell i (or on its boundary, reached from inside), slot 2i + 1 on portal i. Slots
/// never decrease along the path, and every segment stays inside the cells between its
/// ends' slots.
struct CorridorPath {
  std::vector<Vec2> points;
  std::vector<int> slots;

  void add(Vec2 p, int slot) {
    points.push_back(p);
    slots.push_back(slot);
  }
};

/// The path through the cells' centres: start, the centre of every cell, goal. A segment
/// between the centres of two adjacent quadtree leaves crosses their shared edge.
CorridorPath centre_path(const Corridor& corridor);

/// Where `path` crosses each portal: one point per portal, in order.
std::vector<Vec2> portal_crossings(const Corridor& corridor, const CorridorPath& path);

/// Terrain-weighted cost of `path` (metres times each cell's multiplier).
double corridor_cost(const Corridor& corridor, const CorridorPath& path);

/// Step 1: the cheapest path over the secondary graph of the start, the goal and, for
/// each portal, its two ends and the point `through[i]` (where a previous stage crossed
/// it, so that this stage is never worse than that one), each linked forwards only to
/// the nodes of the next portal. Linear in the corridor's length.
CorridorPath portal_path(const Corridor& corridor, const std::vector<Vec2>& through);

/// The secondary graph of step 1, for drawing: its nodes and its forward links.
struct PortalGraph {
  std::vector<Vec2> corners;    ///< The start, both ends of every portal in order, the goal.
  std::vector<Vec2> crossings;  ///< The extra node of each portal (portal_path's `through`).
  std::vector<Vec2> links;      ///< Pairs of points: a link from links[2i] to links[2i + 1].
};

/// The graph portal_path() searches: the start linked to the nodes of portal 0, each node
/// of portal k to each node of portal k + 1, those of the last portal to the goal.
PortalGraph portal_graph(const Corridor& corridor, const std::vector<Vec2>& through);

/// One step of string pulling (step 2), for drawing: a portal (or the goal) tested
/// against the visibility region from the last visible point.
struct PullStep {
  std::size_t portal = 0;  ///< The portal tested; corridor.portals.size() is the goal.
  Vec2 apex{0, 0};         ///< The last visible point the region is seen from.
  Vec2 left{0, 0};         ///< The region lies between the rays from the apex through
  Vec2 right{0, 0};        ///< `left` and `right` (after this portal narrowed it).
  Vec2 tested[2];          ///< The ends of the portal tested (the goal twice).
  bool corner = false;     ///< The portal left the region: a new last visible point (not the goal).
  std::vector<Vec2> path;  ///< The path found so far, ending at the last visible point.
};

/// Step 2: string pulling from the last visible point. The visibility region from the
/// current last visible point is the wedge through the portals crossed since; it only
/// shrinks, and when a portal's end falls outside it on one side, the wedge's corner on
/// the other side becomes the new last visible point (a path point). The result is the
/// shortest path inside the corridor. `corners`, if given, receives the path after each
/// new last visible point (the part found so far, then a straight line to the goal);
/// `steps`, if given, every portal tested, in order.
CorridorPath pulled_path(const Corridor& corridor, std::vector<std::vector<Vec2>>* corners = nullptr,
                         std::vector<PullStep>* steps = nullptr);

/// Step 2 on ground of several costs: string pulling that never trades cost for length.
/// The portals where the multiplier changes cut the corridor into runs of one cost; each
/// run is string-pulled (pulled_path's walk) between the points where the path crosses
/// the cuts (pins), and each pin slides along its portal to the cheapest point for the
/// two runs it joins, sweep after sweep while the cost falls. The pins start where the
/// cheaper of `step1` and pulled_path() crosses the cuts, so the result costs no more
/// than either (corridor_cost). With one multiplier throughout, it is pulled_path().
/// `steps`, if given, receives the walk of each run at the final pins, in order.
CorridorPath weighted_pulled_path(const Corridor& corridor, const CorridorPath& step1,
                                  std::vector<PullStep>* steps = nullptr);

}  // namespace pathscope
