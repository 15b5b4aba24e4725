// Moving features: the positions after n steps match the closed-form bouncing motion,
// every step leaves a valid scenario, runs are bit-for-bit repeatable, and the velocity
// is read, written and checked at its field.

#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <string>

#include "planner/scenario/feature_motion.hpp"
#include "planner/scenario/scenario_io.hpp"

using namespace pathscope;

namespace {

Scenario empty_world(double w, double h) {
  Scenario s;
  s.world = {w, h, 1};
  s.classes = {MovementClass{.name = "ship", .radius = 0.5, .speed = 1, .amphibious = false}};
  s.terrains = {TerrainType{"space", '.', {}, {1.0}, ""}, TerrainType{"rock", '#', {}, {std::nullopt}, ""}};
  return s;
}

Feature rect_feature(std::uint32_t id, Vec2 lo, Vec2 hi, Vec2 velocity) {
  Feature f;
  f.id = id;
  f.terrain = 1;
  f.shape.kind = ShapeKind::Rect;
  f.shape.min = lo;
  f.shape.max = hi;
  f.velocity = velocity;
  return f;
}

// Where a point moving at speed v inside [lo, hi] from x0 is after time t, bouncing
// (the closed form the stepping must match): a triangle wave.
double bounced(double x0, double v, double t, double lo, double hi) {
  const double room = hi - lo;
  double u = std::fmod(x0 - lo + v * t, 2 * room);
  if (u < 0) u += 2 * room;
  return lo + (u <= room ? u : 2 * room - u);
}

}  // namespace

TEST_SUITE("feature_motion") {
  TEST_CASE("feature_motion: a still feature never moves, a moving one moves by velocity * dt") {
    Scenario s = empty_world(100, 80);
    s.features.push_back(rect_feature(1, {10, 10}, {20, 20}, {0, 0}));
    s.features.push_back(rect_feature(2, {40, 40}, {50, 45}, {3, -2}));
    CHECK(moving_feature_count(s) == 1);
    CHECK(advance_features(s, 0.5) == 1);
    CHECK(s.features[0].shape.min == Vec2{10, 10});
    CHECK(s.features[1].shape.min == Vec2{41.5, 39});
    CHECK(s.features[1].shape.max == Vec2{51.5, 44});
    CHECK(advance_features(s, 0) == 0);
  }

  TEST_CASE("feature_motion: a box bounces between the walls like the closed-form triangle wave") {
    Scenario s = empty_world(100, 60);
    // 10 x 6 box: its left edge ranges over [0, 90] and its top over [0, 54].
    s.features.push_back(rect_feature(1, {30, 20}, {40, 26}, {37, -23}));
    const double dt = kFeatureMotionStep;
    for (int n = 1; n <= 3000; ++n) {
      advance_features(s, dt);
      const double t = n * dt;
      const Vec2 lo = s.features[0].shape.min;
      CAPTURE(n);
      REQUIRE(std::abs(lo.x - bounced(30, 37, t, 0, 90)) < 1e-6);
      REQUIRE(std::abs(lo.y - bounced(20, -23, t, 0, 54)) < 1e-6);
      REQUIRE(s.features[0].shape.max.x - lo.x == doctest::Approx(10));
    }
    // 3000 steps = 100 s = 3700 m of travel along x: many bounces, velocity flipped each.
    CHECK(std::abs(s.features[0].velocity.x) == 37);
  }

  TEST_CASE("feature_motion: every step of random features leaves a valid scenario, bit for bit repeatable") {
    std::mt19937_64 rng(11);
    auto uniform = [&](double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); };
    Scenario s = empty_world(120, 70);
    for (std::uint32_t i = 1; i <= 12; ++i) {
      Feature f;
      f.id = i;
      f.terrain = 1;
      const Vec2 c{uniform(10, 110), uniform(10, 60)};
      if (i % 3 == 0) {
        f.shape.kind = ShapeKind::Circle;
        f.shape.center = c;
        f.shape.radius = i == 12 ? 200 : uniform(1, 30);  // one disc wider than the world
      } else if (i % 3 == 1) {
        f.shape.kind = ShapeKind::Polygon;
        f.shape.points = {c + Vec2{-5, -4}, c + Vec2{6, -3}, c + Vec2{2, 7}};
      } else {
        f = rect_feature(i, c - Vec2{4, 3}, c + Vec2{5, 3}, {});
      }
      f.velocity = {uniform(-90, 90), uniform(-90, 90)};
      s.features.push_back(f);
    }
    REQUIRE(validate_scenario(s).ok());
    Scenario again = s;
    for (int n = 0; n < 600; ++n) {
      advance_features(s, kFeatureMotionStep);
      advance_features(again, kFeatureMotionStep);
      const Status valid = validate_scenario(s);
      REQUIRE_MESSAGE(valid.ok(), (valid.ok() ? "" : valid.error().to_string()));
    }
    CHECK(s == again);
    for (const Feature& f : s.features) {
      const Box2 box = shape_bounds(f.shape);
      if (f.shape.kind == ShapeKind::Circle && f.shape.radius == 200) continue;
      CHECK(box.lo.x >= 0);
      CHECK(box.hi.x <= 120);
    }
  }

  TEST_CASE("feature_motion: a disc wider than the world bounces on its centre") {
    Scenario s = empty_world(50, 50);
    Feature f;
    f.id = 1;
    f.terrain = 1;
    f.shape.kind = ShapeKind::Circle;
    f.shape.center = {45, 25};
    f.shape.radius = 40;
    f.velocity = {10, 0};
    s.features.push_back(f);
    advance_features(s, 1.0);  // to 55, reflected to 45
    CHECK(s.features[0].shape.center.x == doctest::Approx(45));
    CHECK(s.features[0].velocity.x == -10);
  }

  TEST_CASE("feature_motion: velocity is saved, loaded and checked at its field") {
    Scenario s = empty_world(64, 48);
    s.features.push_back(rect_feature(4, {1, 1}, {3, 3}, {2.5, -1}));
    s.features.push_back(rect_feature(5, {5, 5}, {7, 7}, {0, 0}));
    const std::string text = scenario_to_json(s);
    CHECK(text.find("\"velocity\": [2.5, -1]") != std::string::npos);
    CHECK(text.find("\"velocity\"", text.find("\"id\": 5")) == std::string::npos);
    const Result<Scenario> loaded = parse_scenario(text, "moving.json");
    REQUIRE(loaded.ok());
    CHECK(*loaded == s);

    std::string bad = text;
    bad.replace(bad.find("[2.5, -1]"), 9, "[1e9, 0]");
    const Result<Scenario> refused = parse_scenario(bad, "moving.json");
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().where == "moving.json: features[0].velocity");
    bad.replace(bad.find("[1e9, 0]"), 8, "\"fast\"");
    const Result<Scenario> wrong_type = parse_scenario(bad, "moving.json");
    REQUIRE_FALSE(wrong_type.ok());
    CHECK(wrong_type.error().where == "moving.json: features[0].velocity");
  }
}
