// Seed 004's avoidance of other vehicles (Reynolds' unaligned collision avoidance with the
// seed's changes): the capsule test against brute-force sampling, hand-worked steering,
// the cull and the decision, the stop, the side-by-side case, and no change at all when
// no neighbour collides.

#include "planner/sim/vehicle_avoidance.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <random>
#include <vector>

#include <doctest/doctest.h>
#include <glm/geometric.hpp>

#include "planner/sim/vehicle.hpp"

namespace pathscope::sim::vehicle_avoidance_test {

constexpr double kPi = std::numbers::pi;

// The smallest distance between two swept discs' centres, sampled: n + 1 centres along
// each segment, every pair.
double sampled_distance(const Capsule& p, const Capsule& q, int n) {
  double best = INFINITY;
  for (int i = 0; i <= n; ++i) {
    const Vec2 a = p.a + (p.b - p.a) * (static_cast<double>(i) / n);
    for (int j = 0; j <= n; ++j) {
      const Vec2 b = q.a + (q.b - q.a) * (static_cast<double>(j) / n);
      best = std::min(best, glm::length(a - b));
    }
  }
  return best;
}

// The gap between two vehicles' footprint rectangles (separating axes: the largest gap
// over the four edge normals); negative when they overlap.
double rectangle_gap(const VehicleState& a, const VehicleState& b, const VehicleClass& c) {
  const auto forward = [](double h) { return Vec2{std::cos(h), -std::sin(h)}; };
  const auto across = [](double h) { return Vec2{std::sin(h), std::cos(h)}; };
  const auto half_extent = [&](double h, Vec2 axis) {
    return 0.5 * c.length * std::abs(glm::dot(forward(h), axis)) +
           0.5 * c.width * std::abs(glm::dot(across(h), axis));
  };
  double gap = -INFINITY;
  for (const Vec2 axis : {forward(a.heading), across(a.heading), forward(b.heading), across(b.heading)}) {
    const double d = std::abs(glm::dot(b.position - a.position, axis));
    gap = std::max(gap, d - half_extent(a.heading, axis) - half_extent(b.heading, axis));
  }
  return gap;
}

AvoidanceBody tank(Vec2 position, Vec2 velocity) {
  const VehicleClass c = default_vehicle_class(VehicleKind::Tracked);
  const double heading = velocity == Vec2{0, 0} ? 0.0 : std::atan2(-velocity.y, velocity.x);
  return {position, velocity, heading, bounding_radius(c), footprint_capsule(c)};
}

TEST_CASE("vehicle capsules: the exact test against brute-force sampling of both swept discs") {
  std::mt19937_64 rng(1004);
  std::uniform_real_distribution<double> coord(-10, 10);
  std::uniform_real_distribution<double> radius(0.2, 3);
  std::uniform_int_distribution<int> shape(0, 5);
  constexpr int kSamples = 200;
  int overlapping = 0;
  int apart = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    Capsule p{{coord(rng), coord(rng)}, {coord(rng), coord(rng)}, radius(rng)};
    Capsule q{{coord(rng), coord(rng)}, {coord(rng), coord(rng)}, radius(rng)};
    switch (shape(rng)) {
      case 0: p.b = p.a; break;                                           // a disc
      case 1: q.b = q.a + (p.b - p.a) * 0.7; break;                       // parallel
      case 2: q = {p.a + Vec2{1, 2}, p.b + Vec2{1, 2}, q.radius}; break;  // parallel, same length
      case 3: q = {p.a + (p.b - p.a) * 1.3, p.a + (p.b - p.a) * 2.1, q.radius}; break;  // collinear
      default: break;
    }
    const double exact = segment_distance(p.a, p.b, q.a, q.b);
    const double sampled = sampled_distance(p, q, kSamples);
    // Sampling can only overestimate, by at most half a sample spacing on each segment.
    const double spacing = 0.5 * (glm::length(p.b - p.a) + glm::length(q.b - q.a)) / kSamples;
    CHECK(exact <= sampled + 1e-12);
    CHECK(sampled - exact <= spacing + 1e-12);
    const double reach = p.radius + q.radius;
    if (sampled < reach) CHECK(capsules_overlap(p, q));
    if (exact >= reach) CHECK_FALSE(capsules_overlap(p, q));
    if (exact < reach - spacing) CHECK(sampled < reach);
    (capsules_overlap(p, q) ? overlapping : apart) += 1;
  }
  CHECK(overlapping > 500);
  CHECK(apart > 500);
  // Crossing segments are 0 apart; parallel ones their offset; end to end their gap.
  CHECK(segment_distance({-1, 0}, {1, 0}, {0, -1}, {0, 1}) == 0);
  CHECK(segment_distance({0, 0}, {4, 0}, {1, 3}, {6, 3}) == 3);
  CHECK(segment_distance({0, 0}, {4, 0}, {5, 0}, {6, 0}) == 1);
}

TEST_CASE("vehicle avoidance: a head-on pair, hand-worked") {
  VehicleAvoidanceParams params;
  params.neighbour_radius = 100;
  const AvoidanceBody self = tank({0, 0}, {5, 0});
  const std::vector<AvoidanceBody> others{tank({70, 0}, {-5, 0})};
  std::vector<AvoidanceCandidate> candidates;
  const VehicleAvoidance a = avoid_vehicles(self, {5, 0}, {200, 0}, others, params, &candidates);
  REQUIRE(a.threat.has_value());
  CHECK(*a.threat == 0);
  // Closing at 10 m/s from 70 m: nearest (touching) at 7 s; t = min(1, (10 - 7) / 5) = 0.6.
  CHECK(a.min_time == 7);
  CHECK(a.blend == doctest::Approx(0.6));
  // Straight ahead: the sharpest turn, to the right (+y on screen), the steering's speed.
  CHECK(a.lateral == Vec2{0, 5});
  // 70 m of 100: braking 0.75 x 0.3 of the steering.
  CHECK(a.forward.x == doctest::Approx(-1.125));
  CHECK(a.forward.y == 0);
  // The seed's formula: steering += t x lateral + forward.
  CHECK(a.steering.x == doctest::Approx(3.875));
  CHECK(a.steering.y == doctest::Approx(3.0));
  CHECK_FALSE(a.stop);
  CHECK_FALSE(a.side_by_side);
  REQUIRE(candidates.size() == 1);
  CHECK(candidates[0].spheres_touch);
  CHECK(candidates[0].capsules_touch);
  // Closer (30 m: 3 s): the blend saturates at 1.
  const std::vector<AvoidanceBody> near{tank({30, 0}, {-5, 0})};
  const VehicleAvoidance b = avoid_vehicles(self, {5, 0}, {200, 0}, near, params);
  CHECK(b.min_time == 3);
  CHECK(b.blend == 1);
}

TEST_CASE("vehicle avoidance: a column's follower brakes behind the vehicle ahead instead of swerving") {
  // The follower at 10 m/s, the vehicle ahead on its line at 4 m/s, 12 m on.
  VehicleAvoidanceParams params;
  params.neighbour_radius = 60;
  const AvoidanceBody self = tank({0, 0}, {10, 0});
  const std::vector<AvoidanceBody> ahead{tank({12, 0}, {4, 0})};
  const VehicleAvoidance swerve = avoid_vehicles(self, {10, 0}, {40, 0}, ahead, params);
  REQUIRE(swerve.threat.has_value());
  CHECK(swerve.steering.y != 0);  // off its line
  params.lateral_share = 0;
  const VehicleAvoidance column = avoid_vehicles(self, {10, 0}, {40, 0}, ahead, params);
  REQUIRE(column.threat.has_value());
  CHECK(column.lateral == Vec2{0, 0});
  CHECK(column.steering.y == 0);  // on its line
  // The same braking: 12 m of 60, 0.75 x 0.8 of the steering.
  CHECK(column.forward.x == doctest::Approx(swerve.forward.x));
  CHECK(column.steering.x == doctest::Approx(10 * (1 - 0.75 * 0.8)));
}

TEST_CASE("vehicle avoidance: the mean of current and desired velocity predicts, within 10 s") {
  const AvoidanceBody self = tank({0, 0}, {0, 0});  // standing, wanting 10 m/s: 5 m/s predicted
  const std::vector<AvoidanceBody> parked{tank({40, 0}, {0, 0})};
  VehicleAvoidance a = avoid_vehicles(self, {10, 0}, {300, 0}, parked);
  REQUIRE(a.threat.has_value());
  CHECK(a.min_time == 8);  // 40 m at 5 m/s (at 10 m/s it would be 4)
  // 55 m: 11 s, beyond the seed's 10 s: ignored, nothing changes.
  const std::vector<AvoidanceBody> far{tank({55, 0}, {0, 0})};
  a = avoid_vehicles(self, {10, 0}, {300, 0}, far);
  CHECK_FALSE(a.threat.has_value());
  CHECK(a.steering == Vec2{10, 0});
}

TEST_CASE("vehicle avoidance: spheres cull, capsules decide (the seed's vehicle behind the first)") {
  const AvoidanceBody self = tank({0, 0}, {5, 0});
  // A passes 5.5 m to the side at 5 s: the spheres (radius 3.9 each) touch, the capsules
  // (2.47 each, along the vehicles) do not. B, 3 m to the side, 0.6 s later, collides.
  const std::vector<AvoidanceBody> others{tank({50, 5.5}, {-5, 0}), tank({56, 3}, {-5, 0})};
  std::vector<AvoidanceCandidate> candidates;
  const VehicleAvoidance a = avoid_vehicles(self, {5, 0}, {200, 0}, others, {}, &candidates);
  REQUIRE(candidates.size() == 2);
  CHECK(candidates[0].time == doctest::Approx(5));
  CHECK(candidates[0].spheres_touch);
  CHECK_FALSE(candidates[0].capsules_touch);
  CHECK(candidates[1].time == doctest::Approx(5.6));
  CHECK(candidates[1].capsules_touch);
  REQUIRE(a.threat.has_value());
  CHECK(*a.threat == 1);
  CHECK(a.lateral.y < 0);  // B passes below (+y): turn up, away from it
  // A alone: passed by, nothing changes.
  const VehicleAvoidance alone = avoid_vehicles(self, {5, 0}, {200, 0}, std::span(others).first(1));
  CHECK_FALSE(alone.threat.has_value());
  CHECK(alone.steering == Vec2{5, 0});
}

TEST_CASE("vehicle avoidance: stops when its drive-to point is too close to the threat") {
  const AvoidanceBody self = tank({0, 0}, {5, 0});
  const std::vector<AvoidanceBody> parked{tank({30, 1}, {0, 0})};
  const VehicleAvoidance a = avoid_vehicles(self, {5, 0}, {30, 0}, parked);
  REQUIRE(a.threat.has_value());
  CHECK(a.stop);
  CHECK(a.steering == Vec2{0, 0});
  // The same threat with the drive-to point beyond it: avoid, do not stop.
  const VehicleAvoidance b = avoid_vehicles(self, {5, 0}, {80, 0}, parked);
  CHECK_FALSE(b.stop);
  CHECK(b.steering != Vec2{0, 0});
}

TEST_CASE("vehicle avoidance: side by side and closing, the one on the right speeds up") {
  // A heads east at 8 m/s; B, 5 m to its left (up on screen, -y) and 2 m ahead, at the same
  // speed, 5 degrees towards it.
  const double tilt = 5 * kPi / 180;
  const Vec2 bv = Vec2{std::cos(tilt), std::sin(tilt)} * 8.0;
  const AvoidanceBody a = tank({0, 0}, {8, 0});
  const AvoidanceBody b = tank({2, -5}, bv);
  const std::vector<AvoidanceBody> for_a{b};
  const std::vector<AvoidanceBody> for_b{a};
  const VehicleAvoidance ra = avoid_vehicles(a, {8, 0}, {500, 0}, for_a);
  const VehicleAvoidance rb = avoid_vehicles(b, bv, b.position + bv * 60.0, for_b);
  REQUIRE(ra.threat.has_value());
  REQUIRE(rb.threat.has_value());
  CHECK(ra.side_by_side);
  CHECK(rb.side_by_side);
  CHECK(ra.speed_up);
  CHECK_FALSE(rb.speed_up);
  CHECK(ra.steering.x == doctest::Approx(8.8));  // 10% faster, straight on
  CHECK(ra.steering.y == 0);
  CHECK(glm::length(rb.steering) < 8);  // B brakes and turns away to its left (-y)
  CHECK(glm::dot(rb.steering - bv, Vec2{-bv.y, bv.x}) < 0);

  // In motion: A on the right, B 8 m to its left and 1 m ahead, both at 8 of 10 m/s, B's
  // drive-to point 80 m ahead along its course, 5 degrees across A's.
  const VehicleClass c = default_vehicle_class(VehicleKind::Tracked);
  VehicleState sa{{0, 0}, 0, 8};
  VehicleState sb{{1, -8}, -tilt, 8};
  double fastest_a = 0;
  double closest = INFINITY;
  double lead_when_crossing = -INFINITY;  // A's lead when B reaches A's line
  for (int step = 0; step < 150; ++step) {
    const Vec2 ta = sa.position + Vec2{80, 0};
    const Vec2 tb = sb.position + Vec2{80 * std::cos(tilt), 80 * std::sin(tilt)};
    const Seek ka = seek_drive_to(sa.position, ta, c);
    const Seek kb = seek_drive_to(sb.position, tb, c);
    const std::vector<AvoidanceBody> oa{avoidance_body(sb, c)};
    const std::vector<AvoidanceBody> ob{avoidance_body(sa, c)};
    // The seek asks 10 m/s; 8 leaves room to speed up.
    const VehicleAvoidance va = avoid_vehicles(avoidance_body(sa, c), ka.velocity * 0.8, ta, oa);
    const VehicleAvoidance vb = avoid_vehicles(avoidance_body(sb, c), kb.velocity * 0.8, tb, ob);
    CHECK_FALSE(vb.speed_up);  // B is on the left
    Seek ga = ka;
    ga.velocity = va.steering;
    Seek gb = kb;
    gb.velocity = vb.steering;
    const double b_was = sb.position.y;
    sa = drive(sa, c, plan_drive(sa, c, drive_goal(ga, 0)), 0.1);
    sb = drive(sb, c, plan_drive(sb, c, drive_goal(gb, -tilt)), 0.1);
    fastest_a = std::max(fastest_a, sa.speed);
    closest = std::min(closest, rectangle_gap(sa, sb, c));
    if (b_was < 0 && sb.position.y >= 0) lead_when_crossing = sa.position.x - sb.position.x;
  }
  CHECK(fastest_a > 8.1);                // A, on the right, sped up
  CHECK(lead_when_crossing > c.length);  // B passed behind it
  CHECK(closest > 0);                    // the footprints never touched
}

TEST_CASE("vehicle avoidance: no neighbour collides, no change (random scenes, brute-force checked)") {
  std::mt19937_64 rng(2004);
  std::uniform_real_distribution<double> coord(-60, 60);
  std::uniform_real_distribution<double> speed(0, 12);
  std::uniform_real_distribution<double> angle(-kPi, kPi);
  const auto velocity = [&] {
    const double h = angle(rng);
    return Vec2{std::cos(h), -std::sin(h)} * speed(rng);
  };
  int scenes = 0;
  while (scenes < 1500) {
    const AvoidanceBody self = tank({0, 0}, velocity());
    const Vec2 steering = velocity();
    const Vec2 own = 0.5 * (self.velocity + steering);
    std::vector<AvoidanceBody> others;
    for (int i = 0; i < 4; ++i) others.push_back(tank({coord(rng), coord(rng)}, velocity()));
    // Keep scenes where the bounding spheres stay apart (by 5 cm) over the next 10 s,
    // sampled every 5 ms.
    bool clear = true;
    for (const AvoidanceBody& o : others) {
      for (int k = 0; k < 2000 && clear; ++k) {
        const double t = k * 0.005;
        const double d = glm::length((o.position + o.velocity * t) - own * t);
        clear = d > self.bounding_radius + o.bounding_radius + 0.05;
      }
    }
    if (!clear) continue;
    ++scenes;
    const VehicleAvoidance a = avoid_vehicles(self, steering, {100, 100}, others);
    CHECK_FALSE(a.threat.has_value());
    CHECK(std::bit_cast<std::uint64_t>(a.steering.x) == std::bit_cast<std::uint64_t>(steering.x));
    CHECK(std::bit_cast<std::uint64_t>(a.steering.y) == std::bit_cast<std::uint64_t>(steering.y));
    CHECK(a.lateral == Vec2{0, 0});
    CHECK(a.forward == Vec2{0, 0});
    CHECK_FALSE(a.stop);
    CHECK_FALSE(a.side_by_side);
    CHECK_FALSE(a.speed_up);
  }
}

TEST_CASE("vehicle avoidance is deterministic: the same inputs give the same bits") {
  std::mt19937_64 rng(3004);
  std::uniform_real_distribution<double> coord(-40, 40);
  std::uniform_real_distribution<double> v(-10, 10);
  int threats = 0;
  for (int scene = 0; scene < 500; ++scene) {
    const AvoidanceBody self = tank({0, 0}, {v(rng), v(rng)});
    const Vec2 steering{v(rng), v(rng)};
    const Vec2 drive_to{coord(rng), coord(rng)};
    std::vector<AvoidanceBody> others;
    for (int i = 0; i < 6; ++i) others.push_back(tank({coord(rng), coord(rng)}, {v(rng), v(rng)}));
    const VehicleAvoidance a = avoid_vehicles(self, steering, drive_to, others);
    const VehicleAvoidance b = avoid_vehicles(self, steering, drive_to, others);
    CHECK(std::bit_cast<std::uint64_t>(a.steering.x) == std::bit_cast<std::uint64_t>(b.steering.x));
    CHECK(std::bit_cast<std::uint64_t>(a.steering.y) == std::bit_cast<std::uint64_t>(b.steering.y));
    CHECK(std::bit_cast<std::uint64_t>(a.min_time) == std::bit_cast<std::uint64_t>(b.min_time));
    CHECK(a.threat == b.threat);
    threats += a.threat.has_value() ? 1 : 0;
  }
  CHECK(threats > 50);
}

}  // namespace pathscope::sim::vehicle_avoidance_test
