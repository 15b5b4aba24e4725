#pragma once

// Avoiding other vehicles (seed 004, "Avoid other vehicles"): Reynolds' unaligned
// collision avoidance with the seed's changes. For every vehicle within a radius, the time
// of nearest approach; the soonest one whose spheres touch then and whose swept spheres
// (capsules round the footprints) overlap is the threat. The vehicle's own velocity is the
// mean of its current and desired velocities; it stops when its drive-to point is too
// close to the threat; of two vehicles side by side closing slightly, the one on the right
// speeds up; and the lateral and forward parts join the drive-to velocity by the seed's
// blend. A pure function: the result names the threat and every part, so the window can
// draw the candidates and the one chosen. Other platoons are avoided vehicle by vehicle
// only: platoons pass through each other (the seed's reason: narrow canyons, bridges).

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

#include "planner/core/types.hpp"
#include "planner/sim/vehicle.hpp"

namespace pathscope::sim {

/// A disc of `radius` swept along the segment from `a` to `b`. World metres.
struct Capsule {
  Vec2 a{0, 0};
  Vec2 b{0, 0};
  double radius = 0;
};

/// The smallest distance between the segments [a0, a1] and [b0, b1] (0 when they cross).
double segment_distance(Vec2 a0, Vec2 a1, Vec2 b0, Vec2 b1);

/// True when two capsules overlap (their segments closer than the sum of the radii).
bool capsules_overlap(const Capsule& p, const Capsule& q);

/// A vehicle as avoidance sees it.
struct AvoidanceBody {
  Vec2 position{0, 0};         ///< Centre, metres.
  Vec2 velocity{0, 0};         ///< Current velocity, m/s.
  double heading = 0;          ///< Radians: the footprint's long axis.
  double bounding_radius = 0;  ///< The cull sphere, metres (bounding_radius()).
  FootprintCapsule footprint;  ///< The swept sphere (footprint_capsule()).
};

/// The body of a vehicle in `state` of class `cls`.
AvoidanceBody avoidance_body(const VehicleState& state, const VehicleClass& cls);

/// The footprint capsule of `body` centred at `centre` (its position at some time).
Capsule capsule_at(const AvoidanceBody& body, Vec2 centre);

/// Avoidance's settings; the defaults are the seed's where it gives numbers.
struct VehicleAvoidanceParams {
  double neighbour_radius = 60;  ///< Vehicles farther than this (centres, metres) are not looked at.
  double horizon = 10;           ///< Seconds: threats at or beyond are ignored (the seed's 10.0).
  double blend = 5;              ///< Seconds over which lateral avoidance fades in (the seed's 5.0).
  double brake = 0.75;           ///< The forward part sheds at most this share of the steering speed.
  /// Share of the lateral part used: a column's followers keep to the path behind the
  /// vehicle ahead and brake instead of swerving round it (0).
  double lateral_share = 1;
  double side_heading = 0.35;     ///< Side by side: velocities at most this apart, radians (20 degrees).
  double side_speed = 0.15;       ///< Side by side: speeds within this share of the faster.
  double speed_up = 0.1;          ///< Side by side: the one on the right speeds up by this share.
  double min_moving_speed = 0.5;  ///< Side by side: both faster than this, m/s.
  /// The third change (stop when the drive-to point is within reach of the threat): for
  /// platoons at their destinations. While a platoon drives on, its points move on and
  /// two platoons meeting head-on would both stop for good.
  bool stop_near_point = true;
};

/// One vehicle examined: within the radius and its time of nearest approach sooner than
/// the soonest threat found before it.
struct AvoidanceCandidate {
  std::size_t index = 0;        ///< Into `others`.
  double time = 0;              ///< Time of nearest approach, seconds from now.
  bool spheres_touch = false;   ///< Cull: the bounding spheres touch then.
  bool capsules_touch = false;  ///< Decision: the footprint capsules overlap then.
  Capsule own_capsule;          ///< This vehicle's capsule then (with the mean velocity).
  Capsule other_capsule;        ///< The other's capsule then.
};

/// What avoidance decided for one vehicle in one step.
struct VehicleAvoidance {
  Vec2 steering{0, 0};                ///< The final steering velocity, m/s.
  std::optional<std::size_t> threat;  ///< Index into `others` of the vehicle avoided, if any.
  double min_time = 0;                ///< Its time of nearest approach, s (the horizon when none).
  double blend = 0;                   ///< t = min(1, (horizon - min_time) / blend); 0 when none.
  Vec2 lateral{0, 0};                 ///< Left-right avoidance, m/s (before the blend).
  Vec2 forward{0, 0};                 ///< Braking (or the side-by-side speed-up), m/s.
  bool stop = false;                  ///< The drive-to point is too close to the threat: steering zero.
  bool side_by_side = false;          ///< The seed's Figure 10 case was met.
  bool speed_up = false;              ///< ... and this vehicle, on the right, speeds up.
};

/// Unaligned collision avoidance for `self` (its current velocity in the body) steering at
/// `steering` (the drive-to velocity, m/s) towards `drive_to`, among `others` (not holding
/// `self`). With no threat, `steering` comes back unchanged. The steering then is
/// steering + t x lateral + forward (the seed's formula). Appends the vehicles examined to
/// `candidates` when given (not cleared).
VehicleAvoidance avoid_vehicles(const AvoidanceBody& self, Vec2 steering, Vec2 drive_to,
                                std::span<const AvoidanceBody> others,
                                const VehicleAvoidanceParams& params = {},
                                std::vector<AvoidanceCandidate>* candidates = nullptr);

}  // namespace pathscope::sim
