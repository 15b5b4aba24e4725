#include "planner/sim/formation_gaps.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <glm/geometric.hpp>

#include "planner/sim/platoon_drive.hpp"
#include "planner/sim/sim_referee.hpp"
#include "planner/sim/simulation.hpp"

namespace pathscope::sim {

namespace formation_gaps_test {

/// z of (b - a) x (c - a).
double side(Vec2 a, Vec2 b, Vec2 c) { return (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x); }

/// Distance from p to segment [a, b], by the closed form of the projection.
double to_segment(Vec2 p, Vec2 a, Vec2 b) {
  const Vec2 d = b - a;
  const double dd = glm::dot(d, d);
  const double t = dd > 0 ? std::clamp(glm::dot(p - a, d) / dd, 0.0, 1.0) : 0.0;
  return glm::distance(p, a + d * t);
}

/// Brute force: the distance from p to the convex hull of `points`, with no hull. p is in
/// the hull if it is in a triangle of three of the points (Caratheodory), and otherwise
/// the nearest point of the hull lies on a segment between two of them.
double brute_distance(const std::vector<Vec2>& points, Vec2 p) {
  const std::size_t n = points.size();
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = i + 1; j < n; ++j) {
      for (std::size_t k = j + 1; k < n; ++k) {
        const double s1 = side(points[i], points[j], p);
        const double s2 = side(points[j], points[k], p);
        const double s3 = side(points[k], points[i], p);
        const bool neg = s1 < 0 || s2 < 0 || s3<0, pos = s1> 0 || s2 > 0 || s3 > 0;
        if (!(neg && pos) && side(points[i], points[j], points[k]) != 0) return 0;
      }
    }
  }
  double best = n > 0 ? glm::distance(p, points[0]) : 1e300;
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = i + 1; j < n; ++j) best = std::min(best, to_segment(p, points[i], points[j]));
  }
  return best;
}

}  // namespace formation_gaps_test

TEST_CASE("formation gaps: the hull and the distance to it equal brute force on random point sets") {
  std::mt19937_64 rng(20261129);
  std::uniform_real_distribution<double> coord(-20, 20);
  std::uniform_int_distribution<int> count(1, 9);
  for (int trial = 0; trial < 400; ++trial) {
    std::vector<Vec2> points(static_cast<std::size_t>(count(rng)));
    for (Vec2& p : points) p = Vec2{std::round(coord(rng)), std::round(coord(rng))};  // ties and lines too
    const std::vector<Vec2> hull = convex_hull(points);
    REQUIRE(!hull.empty());
    for (const Vec2 h : hull) CHECK(std::find(points.begin(), points.end(), h) != points.end());
    if (hull.size() >= 3) {
      for (std::size_t i = 0; i < hull.size(); ++i) {
        // Strictly convex, counter-clockwise, and every point on the inside of every edge.
        CHECK(formation_gaps_test::side(hull[i], hull[(i + 1) % hull.size()], hull[(i + 2) % hull.size()]) >
              0);
        for (const Vec2 p : points)
          CHECK(formation_gaps_test::side(hull[i], hull[(i + 1) % hull.size()], p) >= 0);
      }
    }
    for (int q = 0; q < 20; ++q) {
      const Vec2 p{coord(rng) * 1.5, coord(rng) * 1.5};
      Vec2 out{0, 0};
      const double d = distance_to_hull(hull, p, out);
      CHECK(d == doctest::Approx(formation_gaps_test::brute_distance(points, p)).epsilon(1e-9).scale(1));
      CHECK(glm::length(out) == doctest::Approx(1));
    }
  }
}

TEST_CASE("formation gaps: a unit of no platoon walking across a platoon's way stays out of its gaps") {
  // A slow wedge of four tracked vehicles (1 m/s, 10 m apart) drives east along y = 80.
  // When its lead passes x = 100, an infantry unit standing north of its way at x = 95 is
  // ordered south across it, into the space between the lead and the left wing. It is
  // kept at the formation's edge and slides along it while the wedge drives on, and
  // reaches its goal once the wedge has stopped (a group at rest is checked unit by unit).
  Scenario s = make_empty_scenario(240, 160, 2);
  const std::size_t tracked = *s.find_class("tracked");
  s.classes[tracked].speed = 1.0;
  const PlatoonFormation f = make_formation(FormationShape::Wedge, 4, 10);
  UnitGroup g;
  g.id = 1;
  for (std::size_t k = 0; k < 4; ++k) {
    Unit u;
    u.id = static_cast<std::uint32_t>(k + 1);
    u.movement_class = tracked;
    u.position = formation_point({90, 80}, 0, f.offsets[k]);
    s.units.push_back(u);
    g.units.push_back(u.id);
  }
  g.order = Order{OrderKind::Move, {{130, 80}}, PatrolMode::Loop};
  g.platoon = PlatoonSpec{"wedge", 10, 0};
  s.groups.push_back(g);
  Unit walker;
  walker.id = 9;
  walker.movement_class = *s.find_class("infantry");
  walker.position = {95, 105};
  s.units.push_back(walker);

  Simulation sim(s);
  SimReferee referee;
  const UnitId wid = sim.find_scenario_unit(9)->id;
  const double radius = 0.5;
  const Vec2 goal{95, 50};
  bool ordered = false;
  double closest = 1e300;  // the walker's nearest approach to the driving wedge's hull
  int steps_at_edge = 0;
  for (int step = 0; step < 15000 && !(ordered && sim.unit(wid)->goal.arrived); ++step) {
    sim.step();
    referee.check_step(sim);
    const PlatoonRun& p = sim.platoons()[0];
    if (!ordered && sim.unit(p.slots[0])->body.position.x >= 100) {
      const std::vector<UnitId> one{wid};
      REQUIRE(sim.give_order(one, Order{OrderKind::Move, {goal}, PatrolMode::Loop}).ok());
      ordered = true;
    }
    if (p.order != PlatoonOrderState::Driving) continue;
    std::vector<Vec2> vehicles;
    for (const UnitId id : p.slots) vehicles.push_back(sim.unit(id)->body.position);
    const double d = formation_gaps_test::brute_distance(vehicles, sim.unit(wid)->body.position);
    closest = std::min(closest, d);
    steps_at_edge += d < radius + 0.01 ? 1 : 0;
  }
  // It met the wedge (else the test tests nothing) and never got into its gaps.
  CHECK(steps_at_edge > 100);
  CHECK(closest >= radius - 1e-6);
  CHECK(sim.unit(wid)->goal.arrived);
  CHECK(glm::distance(sim.unit(wid)->body.position, goal) < 1.0);
  CHECK(referee.counts().hard_overlaps == 0);
  CHECK(referee.counts().tunnelled == 0);
}

}  // namespace pathscope::sim
