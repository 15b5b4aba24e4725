#pragma once

// Triangulation of simple polygons for filled drawing.

#include <cstdint>
#include <span>
#include <vector>

#include "planner/scenario/scenario.hpp"

namespace pathscope::render {

/// Largest non-convex polygon that triangulate_polygon() handles (ear clipping is
/// quadratic); bigger ones return no triangles and are drawn as outlines only.
inline constexpr std::size_t kMaxEarClippingPoints = 20'000;

/// Index triples into `points` covering a simple polygon (either winding). Convex
/// polygons get a fan; others are ear-clipped. Collinear and repeated vertices are
/// skipped. Returns an empty vector for fewer than 3 points, zero area, polygons that
/// are not simple (no ear left), or more than kMaxEarClippingPoints non-convex points.
std::vector<std::uint32_t> triangulate_polygon(std::span<const Vec2> points);

}  // namespace pathscope::render
