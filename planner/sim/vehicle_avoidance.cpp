// Avoiding other vehicles (seed 004, "5 Vehicle-Level Pathfinding", "Avoid other
// vehicles"; after Reynolds, "Steering Behaviors for Autonomous Creatures", unaligned
// collision avoidance).
//
// For every vehicle within neighbour_radius: the time of nearest approach of the two
// centres, each moving at a constant velocity (this vehicle's: the mean of its current and
// desired velocities, the seed's first change). A vehicle sooner than the soonest threat
// so far is examined: do the bounding spheres touch at that time (the cull), and if so do
// the footprint capsules (the seed's swept spheres: a disc swept along the long axis, which
// fits a rectilinear vehicle) overlap (the decision, the seed's second change)? The
// soonest such vehicle is the threat. Then:
//   - its drive-to point within the two bounding radii of the threat: stop (third change);
//   - side by side (Figure 10: about the same speed and heading, closing): the one on the
//     right speeds up slightly, the other avoids as usual and passes behind (fourth);
//   - otherwise turn away from where the threat will be, more the more nearly it lies
//     ahead then (lateral), and brake, more the closer it is now (forward);
// and the parts join by the seed's formula: t = min(1, (10 - minTime) / 5),
// steering += t x lateral + forward.

#include "planner/sim/vehicle_avoidance.hpp"

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>

namespace pathscope::sim {

double segment_distance(Vec2 p1, Vec2 q1, Vec2 p2, Vec2 q2) {
  // Closest points of two segments (Ericson, "Real-Time Collision Detection", 5.1.9).
  const Vec2 d1 = q1 - p1;
  const Vec2 d2 = q2 - p2;
  const Vec2 r = p1 - p2;
  const double a = glm::dot(d1, d1);
  const double e = glm::dot(d2, d2);
  const double f = glm::dot(d2, r);
  double s = 0;
  double t = 0;
  if (a == 0 && e == 0) {
    // Two points.
  } else if (a == 0) {
    t = std::clamp(f / e, 0.0, 1.0);
  } else {
    const double c = glm::dot(d1, r);
    if (e == 0) {
      s = std::clamp(-c / a, 0.0, 1.0);
    } else {
      const double b = glm::dot(d1, d2);
      const double denom = a * e - b * b;
      // Parallel segments (denom 0): any s will do; t and then s are corrected below.
      s = denom > 0 ? std::clamp((b * f - c * e) / denom, 0.0, 1.0) : 0.0;
      t = (b * s + f) / e;
      if (t < 0) {
        t = 0;
        s = std::clamp(-c / a, 0.0, 1.0);
      } else if (t > 1) {
        t = 1;
        s = std::clamp((b - c) / a, 0.0, 1.0);
      }
    }
  }
  return glm::length((p1 + d1 * s) - (p2 + d2 * t));
}

bool capsules_overlap(const Capsule& p, const Capsule& q) {
  return segment_distance(p.a, p.b, q.a, q.b) < p.radius + q.radius;
}

AvoidanceBody avoidance_body(const VehicleState& state, const VehicleClass& cls) {
  return {state.position, velocity_of(state), state.heading, bounding_radius(cls), footprint_capsule(cls)};
}

Capsule capsule_at(const AvoidanceBody& body, Vec2 centre) {
  const Vec2 axis = heading_vector(body.heading) * body.footprint.half_length;
  return {centre - axis, centre + axis, body.footprint.radius};
}

VehicleAvoidance avoid_vehicles(const AvoidanceBody& self, Vec2 steering, Vec2 drive_to,
                                std::span<const AvoidanceBody> others, const VehicleAvoidanceParams& params,
                                std::vector<AvoidanceCandidate>* candidates) {
  VehicleAvoidance out;
  out.steering = steering;
  out.min_time = params.horizon;
  // The seed's first change: the mean of the current and the desired velocity predicts
  // this vehicle's better than either.
  const Vec2 own_velocity = 0.5 * (self.velocity + steering);
  for (std::size_t i = 0; i < others.size(); ++i) {
    const AvoidanceBody& o = others[i];
    const Vec2 rp = o.position - self.position;
    if (glm::length(rp) > params.neighbour_radius) continue;
    const Vec2 rv = o.velocity - own_velocity;
    const double rv2 = glm::dot(rv, rv);
    const double t = rv2 > 0 ? std::max(0.0, -glm::dot(rp, rv) / rv2) : 0.0;
    if (!(t < out.min_time)) continue;
    const Vec2 own_then = self.position + own_velocity * t;
    const Vec2 other_then = o.position + o.velocity * t;
    AvoidanceCandidate c;
    c.index = i;
    c.time = t;
    c.own_capsule = capsule_at(self, own_then);
    c.other_capsule = capsule_at(o, other_then);
    c.spheres_touch = glm::length(other_then - own_then) < self.bounding_radius + o.bounding_radius;
    c.capsules_touch = c.spheres_touch && capsules_overlap(c.own_capsule, c.other_capsule);
    if (candidates) candidates->push_back(c);
    if (c.capsules_touch) {
      out.min_time = t;
      out.threat = i;
    }
  }
  if (!out.threat) return out;

  const AvoidanceBody& o = others[*out.threat];
  const double reach = self.bounding_radius + o.bounding_radius;
  // Third change: two platoons sent to nearly the same place would circle each other.
  if (params.stop_near_point && glm::length(drive_to - o.position) < reach) {
    out.stop = true;
    out.steering = Vec2{0, 0};
    return out;
  }
  const double steer_speed = glm::length(steering);
  const double own_speed = glm::length(own_velocity);
  const Vec2 ahead = own_speed > 0 ? own_velocity / own_speed : heading_vector(self.heading);
  const Vec2 right{-ahead.y, ahead.x};  // y downwards: the right-hand side on screen
  const Vec2 rp = o.position - self.position;

  // Fourth change: side by side, closing slightly (Figure 10).
  const double other_speed = glm::length(o.velocity);
  if (own_speed > params.min_moving_speed && other_speed > params.min_moving_speed && out.min_time > 0) {
    const double apart =
        std::abs(heading_difference(heading_of_vector(own_velocity), heading_of_vector(o.velocity)));
    const bool same_speed =
        std::abs(own_speed - other_speed) <= params.side_speed * std::max(own_speed, other_speed);
    if (apart <= params.side_heading && same_speed) {
      out.side_by_side = true;
      if (glm::dot(rp, right) < 0) {  // the other is on the left: this one is on the right
        out.speed_up = true;
        out.forward = steering * params.speed_up;
        out.blend = std::min(1.0, (params.horizon - out.min_time) / params.blend);
        out.steering = steering + out.forward;
        return out;
      }
    }
  }

  // Turn away from where the threat will be, sharply if it is then straight ahead (to the
  // right when exactly ahead, as units meeting head-on); brake, more the closer it is now.
  const Vec2 own_then = self.position + own_velocity * out.min_time;
  const Vec2 other_then = o.position + o.velocity * out.min_time;
  const double side = glm::dot(other_then - own_then, right);
  const double sharpness = std::clamp(1.0 - std::abs(side) / reach, 0.0, 1.0);
  out.lateral = (side > 0 ? -right : right) * (steer_speed * sharpness * params.lateral_share);
  const double closeness = std::clamp(1.0 - glm::length(rp) / params.neighbour_radius, 0.0, 1.0);
  out.forward = steering * -(params.brake * closeness);
  // The seed's blend: a slight turn at a distance, more and more as the collision nears.
  out.blend = std::min(1.0, (params.horizon - out.min_time) / params.blend);
  out.steering = steering + (out.blend * out.lateral + out.forward);
  return out;
}

}  // namespace pathscope::sim
