#pragma once

// Moving features: a terrain region or an obstacle with a velocity (a drifting asteroid
// belt, a nebula, a building on a carrier) moves in fixed steps and bounces off the
// world's edges (seed 000: the quadtree, its links and the paths follow such regions).
// Pure functions of the scenario: the same steps give the same positions, bit for bit.

#include <cstddef>

#include "planner/core/types.hpp"
#include "planner/scenario/scenario.hpp"

namespace pathscope {

/// The step the window and the command line advance moving features by, seconds.
inline constexpr double kFeatureMotionStep = 1.0 / 30.0;

/// Features with a non-zero velocity.
std::size_t moving_feature_count(const Scenario& scenario);

/// World box of a shape (a circle: its disc's box), metres.
Box2 shape_bounds(const Shape& shape);

/// Moves `shape` by `delta` metres.
void translate_shape(Shape& shape, Vec2 delta);

/// Moves every feature with a velocity by velocity * dt (dt > 0, seconds). A feature
/// whose box would leave the world is reflected back by the distance it overshot (never
/// more than the step's own travel) and the velocity's component across that edge
/// flips, so it bounces. A disc wider than the world bounces on its centre. Points stay
/// inside the world, so the scenario stays valid. Returns the number of features moved.
std::size_t advance_features(Scenario& scenario, double dt);

}  // namespace pathscope
