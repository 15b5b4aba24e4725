#pragma once

// Whether closed shapes (rectangles, discs, simple polygons) together cover a closed
// axis-aligned box: the containers' obstacle rule (rasterize.hpp), where a cell stays
// walkable when its closed square lies inside the union of the containers.

#include <span>
#include <vector>

#include "planner/core/types.hpp"
#include "planner/scenario/scenario.hpp"

namespace pathscope {

/// True when the closed box [lo, hi] (world units, lo < hi) lies inside the closed shape.
bool shape_contains_box(const Shape& shape, Vec2 lo, Vec2 hi);

/// True when the shape's interior and the open box (lo, hi) overlap with positive area.
bool shape_overlaps_open_box(const Shape& shape, Vec2 lo, Vec2 hi);

/// True when every point of the closed box [lo, hi] lies in at least one of the closed
/// shapes (polygons simple, of either orientation). No sampling: the box minus the union,
/// if not empty, is bounded over a positive length by a side of the box or by a shape's
/// edge or rim with uncovered points beside it, and each of those is tested along its
/// crossings with the others. Exact for rectangles (comparisons only). For polygons every compared value is
/// one correctly rounded quotient of sums of products of coordinates: exact when those sums are and distinct
/// crossings round apart, as with coordinates on a coarse binary grid (multiples of 1/2 m in the tests).
/// Circles' rims go through sqrt and atan2, so a gap thinner than their rounding can be missed.
bool union_covers_box(std::span<const Shape* const> shapes, Vec2 lo, Vec2 hi);

/// union_covers_box() for many boxes against the same shapes (borrowed; they must
/// outlive it): their bounding boxes and rings are prepared once.
class ShapeUnion {
 public:
  ShapeUnion() = default;
  explicit ShapeUnion(std::span<const Shape* const> shapes);
  /// True when the closed box [lo, hi] lies inside the union (see union_covers_box()).
  bool covers_box(Vec2 lo, Vec2 hi) const;
  const std::vector<const Shape*>& shapes() const { return shapes_; }

 private:
  std::vector<const Shape*> shapes_;
  std::vector<Box2> bounds_;              // per shape
  std::vector<std::vector<Vec2>> rings_;  // per shape: interior on the left; empty for a circle
};

}  // namespace pathscope
