// Moving features (feature_motion.hpp): translation by velocity * dt, then a bounce per
// axis against the world rectangle [0, width] x [0, height].

#include "planner/scenario/feature_motion.hpp"

#include <algorithm>
#include <cmath>

namespace pathscope {
namespace {

// The interval along one axis that must stay inside [0, limit]: the box's, or the
// centre's when the box is wider than the world (a huge disc).
struct Span {
  double lo, hi;
};

Span bounce_span(const Shape& shape, const Box2& box, int axis, double limit) {
  if (box.hi[axis] - box.lo[axis] > limit) {
    const double c = shape.kind == ShapeKind::Circle ? shape.center[axis] : box.center()[axis];
    return {c, c};
  }
  return {box.lo[axis], box.hi[axis]};
}

// Keeps every point of the shape inside the world after rounding (the reflection is
// exact in all but the last bit).
void clamp_into(Shape& shape, const WorldInfo& world) {
  auto clamp = [&](Vec2& p) {
    p.x = std::clamp(p.x, 0.0, world.width);
    p.y = std::clamp(p.y, 0.0, world.height);
  };
  switch (shape.kind) {
    case ShapeKind::Polygon:
      for (Vec2& p : shape.points) clamp(p);
      break;
    case ShapeKind::Rect:
      clamp(shape.min);
      clamp(shape.max);
      break;
    case ShapeKind::Circle: clamp(shape.center); break;
  }
}

}  // namespace

std::size_t moving_feature_count(const Scenario& scenario) {
  return static_cast<std::size_t>(
      std::count_if(scenario.features.begin(), scenario.features.end(), [](const Feature& f) {
        return f.velocity != Vec2{0, 0};
      }));
}

Box2 shape_bounds(const Shape& shape) {
  switch (shape.kind) {
    case ShapeKind::Polygon: {
      Box2 box;
      for (const Vec2& p : shape.points) box = box.united(Box2::of(p));
      return box;
    }
    case ShapeKind::Rect: return Box2::spanning(shape.min, shape.max);
    case ShapeKind::Circle: return Box2::of(shape.center).expanded(shape.radius);
  }
  return {};
}

void translate_shape(Shape& shape, Vec2 delta) {
  switch (shape.kind) {
    case ShapeKind::Polygon:
      for (Vec2& p : shape.points) p += delta;
      break;
    case ShapeKind::Rect:
      shape.min += delta;
      shape.max += delta;
      break;
    case ShapeKind::Circle: shape.center += delta; break;
  }
}

std::size_t advance_features(Scenario& scenario, double dt) {
  if (!(dt > 0)) return 0;
  const double limit[2] = {scenario.world.width, scenario.world.height};
  std::size_t moved = 0;
  for (Feature& f : scenario.features) {
    if (f.velocity == Vec2{0, 0}) continue;
    const Vec2 step = f.velocity * dt;
    translate_shape(f.shape, step);
    const Box2 box = shape_bounds(f.shape);
    Vec2 back{0, 0};
    for (int axis = 0; axis < 2; ++axis) {
      const Span span = bounce_span(f.shape, box, axis, limit[axis]);
      // Reflect by twice the overshoot, but never by more than twice this step's travel:
      // a shape that started across the edge (a disc may) turns round where it is.
      const double travel = std::abs(step[axis]);
      if (span.lo < 0 && f.velocity[axis] < 0) {
        back[axis] = 2 * std::min(-span.lo, travel);
        f.velocity[axis] = -f.velocity[axis];
      } else if (span.hi > limit[axis] && f.velocity[axis] > 0) {
        back[axis] = -2 * std::min(span.hi - limit[axis], travel);
        f.velocity[axis] = -f.velocity[axis];
      }
    }
    if (back != Vec2{0, 0}) translate_shape(f.shape, back);
    clamp_into(f.shape, scenario.world);
    ++moved;
  }
  return moved;
}

}  // namespace pathscope
