// Collision prevention separates hard shapes exactly: circles and ellipses of any aspect
// and heading. Every check here is a brute-force reference written for the test (shapes
// sampled along their boundaries), sharing nothing with prevention's own geometry.

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "planner/sim/simulation.hpp"
#include "planner/sim/unit_motion.hpp"
#include "tests/planner/sim/ellipse_test_support.hpp"
#include "tests/sanitizer_share.hpp"
#include "tests/test_maps.hpp"

namespace pathscope::sim {

namespace {

using Shape = test_support::TestEllipse;
using test_support::boundary_point;
using test_support::inside;
using test_support::overlap_sampled;

Shape shape_of(const SimUnit& u, const Motion& m) {
  return {u.body.position, u.body.heading, m.hard_radius, m.hard_radius * m.hard_aspect};
}

// Brute force: the centre distance along `dir` at which a and b (a at the origin) touch,
// by bisection on the sampled overlap test.
double contact_sampled(Shape a, Shape b, Vec2 dir) {
  double lo = 0, hi = a.along + b.along + 1;
  a.centre = {0, 0};
  for (int i = 0; i < 50; ++i) {
    const double mid = 0.5 * (lo + hi);
    b.centre = dir * mid;
    (overlap_sampled(a, b, 0, 4096) ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

// An open field with one class of hard radius 1 and the given aspect, cooperation off (so
// only prevention acts), and no orders.
Scenario two_unit_field(double aspect) {
  Scenario s = test::ascii_scenario(std::vector<std::string>(30, std::string(30, '.')));
  s.classes[0].radius = 1;
  s.classes[0].hard_aspect = aspect;
  s.sim.cooperation = false;
  return s;
}

}  // namespace

TEST_SUITE("prevention") {
  TEST_CASE("hard_contact_distance equals a sampled reference for random ellipses, headings and directions") {
    std::mt19937_64 rng(20261127);
    std::uniform_real_distribution<double> unit(0, 1);
    double worst = 0;
    for (int k = 0; k < test::sanitized_share(300, 3); ++k) {
      Motion ma, mb;
      ma.hard_radius = 0.3 + 1.2 * unit(rng);
      mb.hard_radius = 0.3 + 1.2 * unit(rng);
      ma.hard_aspect = k % 5 == 0 ? 1.0 : 0.3 + 0.7 * unit(rng);
      mb.hard_aspect = k % 7 == 0 ? 1.0 : 0.3 + 0.7 * unit(rng);
      const double ha = 2 * std::numbers::pi * unit(rng);
      const double hb = 2 * std::numbers::pi * unit(rng);
      const double angle = 2 * std::numbers::pi * unit(rng);
      const Vec2 dir{std::cos(angle), std::sin(angle)};
      const double exact = hard_contact_distance(ma, ha, mb, hb, dir);
      const double sampled =
          contact_sampled({{0, 0}, ha, ma.hard_radius, ma.hard_radius * ma.hard_aspect},
                          {{0, 0}, hb, mb.hard_radius, mb.hard_radius * mb.hard_aspect}, dir);
      worst = std::max(worst, std::abs(exact - sampled));
      CHECK_MESSAGE(std::abs(exact - sampled) < 1e-5, "pair ", k, ": exact ", exact, ", sampled ", sampled);
    }
    MESSAGE("largest difference from the sampled reference: ", worst, " m");
  }

  TEST_CASE("two elongated units placed overlapping at random headings are separated in one step") {
    // Radius 1, aspect 0.5 (seed 000's shield ellipsoids): each pair is placed 3% inside
    // its true contact distance, on a random line; one step of prevention (cooperation
    // off, nobody moving) must leave no overlap deeper than 1e-4 m.
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> unit(0, 1);
    int separated = 0;
    const int pairs = 60;
    for (int k = 0; k < pairs; ++k) {
      Scenario s = two_unit_field(0.5);
      const double ha = 2 * std::numbers::pi * unit(rng);
      const double hb = 2 * std::numbers::pi * unit(rng);
      const double angle = 2 * std::numbers::pi * unit(rng);
      const Vec2 dir{std::cos(angle), std::sin(angle)};
      const double contact = contact_sampled({{0, 0}, ha, 1, 0.5}, {{0, 0}, hb, 1, 0.5}, dir);
      const Vec2 centre{15, 15};
      Unit a = test::unit_at(1, centre);
      a.heading = ha;
      Unit b = test::unit_at(2, centre + dir * (0.97 * contact));
      b.heading = hb;
      s.units = {a, b};
      Simulation sim(s);
      const Motion m = resolve_motion(s.classes[0]);
      REQUIRE(overlap_sampled(shape_of(sim.slots()[0], m), shape_of(sim.slots()[1], m), 0));
      sim.step();
      const bool apart = !overlap_sampled(shape_of(sim.slots()[0], m), shape_of(sim.slots()[1], m), 1e-4);
      CHECK_MESSAGE(apart, "pair ", k, ": headings ", ha, ", ", hb, ", line ", angle);
      separated += apart ? 1 : 0;
    }
    CHECK(separated == pairs);
  }

  TEST_CASE("a unit turning in place beside an elongated neighbour makes no overlap") {
    // Two ellipses side by side, touching along their minor axes; the lower one is
    // ordered straight up, so it turns a quarter turn in place before it moves, swinging
    // its long axis into its neighbour's side.
    Scenario s = two_unit_field(0.4);
    Unit a = test::unit_at(1, {15, 15}, test::move_to({15, 5}));
    Unit b = test::unit_at(2, {15, 15 - 0.8 - 1e-3});
    s.units = {a, b};
    Simulation sim(s);
    const Motion m = resolve_motion(s.classes[0]);
    for (int i = 0; i < 90; ++i) {
      sim.step();
      const Shape sa = shape_of(sim.slots()[0], m);
      const Shape sb = shape_of(sim.slots()[1], m);
      REQUIRE_MESSAGE(!overlap_sampled(sa, sb, 1e-4), "step ", i + 1);
    }
  }

  TEST_CASE("48 elongated units of four aspects crossing a square both ways end every step apart") {
    // 24 units go east and 24 go south through the same 24 m square, cooperation on, hard
    // radius 1 with aspects 0.3, 0.5, 0.7 and 1: after every step of 30 s, no pair overlaps
    // by more than 1e-3 m by the sampled reference over all pairs; every unit arrives.
    Scenario s = test::ascii_scenario(std::vector<std::string>(44, std::string(44, '.')));
    s.classes[0].radius = 1;
    s.classes[0].speed = 2;
    const double aspects[] = {0.3, 0.5, 0.7, 1.0};
    for (int c = 1; c < 4; ++c) {
      s.classes.push_back(s.classes[0]);
      s.classes[std::size_t(c)].name = "unit" + std::to_string(c);
      for (TerrainType& t : s.terrains) t.cost.push_back(t.cost[0]);
    }
    for (int c = 0; c < 4; ++c) s.classes[std::size_t(c)].hard_aspect = aspects[c];
    std::uint32_t id = 1;
    for (int row = 0; row < 8; ++row) {
      for (int col = 0; col < 3; ++col) {
        const double across = 11 + 3 * row;
        Unit east = test::unit_at(id++, {4 + 2.5 * col, across}, test::move_to({40 - 2.5 * col, across}));
        east.movement_class = std::size_t((row + col) % 4);
        Unit south =
            test::unit_at(id++, {across + 1, 4 + 2.5 * col}, test::move_to({across + 1, 40 - 2.5 * col}));
        south.movement_class = std::size_t((row + col + 2) % 4);
        south.heading = -std::numbers::pi / 2;
        s.units.push_back(east);
        s.units.push_back(south);
      }
    }
    Simulation sim(s);
    std::vector<Motion> motions;
    for (const MovementClass& c : s.classes) motions.push_back(resolve_motion(c));
    int overlapping = 0;
    double deepest_margin = 0;
    for (int step = 0; step < 900; ++step) {
      sim.step();
      const auto units = sim.slots();
      for (std::size_t i = 0; i < units.size(); ++i) {
        for (std::size_t j = i + 1; j < units.size(); ++j) {
          const Motion& mi = motions[units[i].movement_class];
          const Motion& mj = motions[units[j].movement_class];
          if (std::hypot(units[i].body.position.x - units[j].body.position.x,
                         units[i].body.position.y - units[j].body.position.y) >=
              mi.hard_radius + mj.hard_radius)
            continue;
          const Shape a = shape_of(units[i], mi), b = shape_of(units[j], mj);
          if (!overlap_sampled(a, b, 1e-3, 512)) continue;
          ++overlapping;
          for (double margin = 1e-3; margin < 0.3 && overlap_sampled(a, b, margin, 512); margin *= 2)
            deepest_margin = std::max(deepest_margin, margin);
        }
      }
    }
    CHECK_MESSAGE(overlapping == 0, "pair-steps overlapping: ", overlapping, ", by more than ",
                  deepest_margin, " m");
    for (int step = 0; step < 2700; ++step) sim.step();
    CHECK(sim.arrived_count() == 48);  // every unit, by 120 s
  }
}

}  // namespace pathscope::sim
