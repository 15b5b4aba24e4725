#pragma once

// Small exact-predicate geometry on world-space points (doubles).

#include <optional>
#include <span>

#include "planner/core/types.hpp"

namespace pathscope {

/// Twice the signed area of triangle (a, b, c): > 0 when counter-clockwise in a y-up frame.
double cross(Vec2 a, Vec2 b, Vec2 c);

/// True if closed segments [a, b] and [c, d] share at least one point.
bool segments_intersect(Vec2 a, Vec2 b, Vec2 c, Vec2 d);

/// For a polygon (implicitly closed), the first pair of edges (i, j), i < j, that
/// intersect other than at the vertex adjacent edges share; nullopt when simple.
/// Also reports repeated vertices and zero-length edges. Edges are sorted by their x
/// extent so that only pairs whose extents overlap are tested.
std::optional<std::pair<std::size_t, std::size_t>> find_self_intersection(std::span<const Vec2> polygon);

/// Absolute area of a simple polygon.
double polygon_area(std::span<const Vec2> polygon);

/// Point in polygon by the crossing rule with half-open edges: consistent for points
/// on shared edges of adjacent polygons (exactly one of them contains the point).
bool point_in_polygon(Vec2 p, std::span<const Vec2> polygon);

/// True if the segment [a, b] passes through the open axis-aligned box (lo, hi):
/// touching the boundary only does not count.
bool segment_crosses_open_box(Vec2 a, Vec2 b, Vec2 lo, Vec2 hi);

/// True if the polygon's interior and the open box (lo, hi) overlap with positive area.
bool polygon_overlaps_open_box(std::span<const Vec2> polygon, Vec2 lo, Vec2 hi);

/// True if the open disc (center, radius) and the open box (lo, hi) overlap.
bool disc_overlaps_open_box(Vec2 center, double radius, Vec2 lo, Vec2 hi);

/// Squared distance from p to the segment [a, b].
double distance_sq_to_segment(Vec2 p, Vec2 a, Vec2 b);

}  // namespace pathscope
