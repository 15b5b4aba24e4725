#pragma once

// The simulation referee's own geometry (sim_referee.hpp): exact tests of units' hard
// shapes (circles, or ellipses along the heading) against each other and of move lines
// against grid cells. Written for the referee alone: it shares no code with the
// simulation's step, so that a mistake there is not repeated here. World coordinates in
// metres, y down; headings in radians, direction (cos h, -sin h) as Unit::heading.

#include "planner/core/types.hpp"

namespace pathscope::sim {

/// A unit's hard shape in the world: an ellipse with semi-axis `along` (metres) along the
/// heading and `across` perpendicular to it; a circle when the two are equal.
struct HardShape {
  Vec2 centre{0, 0};    ///< Metres.
  double heading = 0;   ///< Radians; the `along` axis is (cos h, -sin h).
  double along = 0.5;   ///< Semi-axis along the heading, metres (> 0).
  double across = 0.5;  ///< Semi-axis across the heading, metres (> 0).
};

/// The distance (metres) from `p` to the boundary of the axis-aligned ellipse
/// (x/e0)^2 + (y/e1)^2 = 1, e0 >= e1 > 0; `inside` says whether p is in the filled
/// ellipse (on the boundary counts as inside). Eberly's robust bisection ("Distance from a
/// Point to an Ellipse, an Ellipsoid, or a Hyperellipsoid").
double distance_to_ellipse(double e0, double e1, Vec2 p, bool& inside);

/// True if the interiors of the two hard shapes intersect (touching is not overlapping).
/// Exact up to rounding (about 1e-12 m at unit sizes): circles by their centre distance;
/// ellipses by mapping `a` onto the unit circle and measuring the distance from its
/// centre to `b`'s image.
bool hard_shapes_overlap(const HardShape& a, const HardShape& b);

/// How deep the two shapes overlap, metres: the smallest move of `b` along the line from
/// `a`'s centre to `b`'s (the x axis if the centres coincide) that leaves them touching;
/// 0 when they do not overlap. Exact for circles (sum of radii less the distance); for
/// ellipses found by bisection with hard_shapes_overlap to within 1e-12 m.
double overlap_depth(const HardShape& a, const HardShape& b);

/// True if the segment [p, q] passes through the interior of the box [lo, hi] shrunk by
/// `margin` on every side (metres, >= 0): its part inside has a positive length (or, p ==
/// q, the point is inside). Exact slab test; touching the shrunk box's border is not
/// crossing it.
bool segment_crosses_box(Vec2 p, Vec2 q, Vec2 lo, Vec2 hi, double margin = 0);

/// The distance (metres) from the origin to the segment [p, q].
double segment_distance_to_origin(Vec2 p, Vec2 q);

}  // namespace pathscope::sim
