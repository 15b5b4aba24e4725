// Segment exposure: chord lengths in analytic cases, the union rule (threats overlapping
// each other and allies), fading in closed form, all against fine sampling on random
// segments and circles; the seed's cost formula.

#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <vector>

#include "planner/tactical/segment_exposure.hpp"

using namespace pathscope;
using namespace pathscope::tactical;

namespace {

// Midpoint sampling of the union rule, independent of the interval code.
Exposure sampled(Vec2 a, Vec2 b, const std::vector<Disc>& threats, const std::vector<Disc>& allies,
                 bool fading, int n) {
  Exposure e;
  const Vec2 ab = b - a;
  e.length = std::sqrt(ab.x * ab.x + ab.y * ab.y);
  const double dt = e.length / n;
  for (int i = 0; i < n; ++i) {
    const Vec2 p = a + ab * ((i + 0.5) / n);
    double w = -1;
    for (const Disc& d : threats) {
      const double dist = std::hypot(p.x - d.center.x, p.y - d.center.y);
      if (dist <= d.radius) w = std::max(w, fading ? 1 - dist / d.radius : 1.0);
    }
    if (w >= 0) {
      e.threat += w * dt;
      continue;
    }
    for (const Disc& d : allies) {
      if (std::hypot(p.x - d.center.x, p.y - d.center.y) <= d.radius) {
        e.safe += dt;
        break;
      }
    }
  }
  return e;
}

}  // namespace

TEST_CASE("tactical: chord lengths of analytic cases") {
  const Disc d{{10, 0}, 3};
  // Through the centre: the diameter.
  REQUIRE(chord({0, 0}, {20, 0}, d).has_value());
  CHECK(chord({0, 0}, {20, 0}, d)->t0 == doctest::Approx(7));
  CHECK(chord({0, 0}, {20, 0}, d)->t1 == doctest::Approx(13));
  // At distance 2 from the centre: 2 sqrt(r^2 - 4).
  const auto off = chord({0, 2}, {20, 2}, d);
  REQUIRE(off.has_value());
  CHECK(off->t1 - off->t0 == doctest::Approx(2 * std::sqrt(5.0)));
  // Tangent and beyond: nothing.
  CHECK_FALSE(chord({0, 3}, {20, 3}, d).has_value());
  CHECK_FALSE(chord({0, 5}, {20, 5}, d).has_value());
  // Ending inside: clipped at the end; starting inside: from 0.
  CHECK(chord({0, 0}, {10, 0}, d)->t1 == doctest::Approx(10));
  CHECK(chord({10, 0}, {20, 0}, d)->t0 == 0);
  CHECK(chord({10, 0}, {20, 0}, d)->t1 == doctest::Approx(3));
  // A point segment has no chord.
  CHECK_FALSE(chord({10, 0}, {10, 0}, d).has_value());
  // Fading through the centre: the integral of 1 - |x| / r over [-r, r] is r.
  CHECK(faded_length({0, 0}, {20, 0}, d, 7, 13) == doctest::Approx(3));
  // Fading, half a radius: from the centre outwards, r / 2.
  CHECK(faded_length({0, 0}, {20, 0}, d, 10, 13) == doctest::Approx(1.5));
}

TEST_CASE("tactical: overlap rule is the union, and a threat wins over an ally") {
  const Vec2 a{0, 0}, b{20, 0};
  // Two equal threats count once.
  const std::vector<Disc> twice = {{{10, 0}, 3}, {{10, 0}, 3}};
  CHECK(segment_exposure(a, b, twice, {}, false).threat == doctest::Approx(6));
  // Two overlapping threats: the union [5, 13].
  const std::vector<Disc> overlap = {{{8, 0}, 3}, {{10, 0}, 3}};
  CHECK(segment_exposure(a, b, overlap, {}, false).threat == doctest::Approx(8));
  // An ally over a threat: safe only outside the threat.
  const std::vector<Disc> threat = {{{10, 0}, 3}};
  const std::vector<Disc> ally = {{{12, 0}, 4}};  // [8, 16]
  const Exposure e = segment_exposure(a, b, threat, ally, false);
  CHECK(e.threat == doctest::Approx(6));
  CHECK(e.safe == doctest::Approx(3));  // [13, 16]
  CHECK(e.length == doctest::Approx(20));
  // The seed's formula: (20 - 6 - 3) * c1 + 6 * c2.
  CHECK(exposure_cost(e, 0.25, 0.75) == doctest::Approx(11 * 0.25 + 6 * 0.75));
  // Symmetric: the reversed segment has the same exposure.
  const Exposure r = segment_exposure(b, a, threat, ally, false);
  CHECK(r.threat == doctest::Approx(e.threat));
  CHECK(r.safe == doctest::Approx(e.safe));
}

TEST_CASE("tactical: exposure equals fine sampling on random segments and circles") {
  std::mt19937_64 rng(1001);
  std::uniform_real_distribution<double> pos(0, 50), rad(1, 15);
  for (int round = 0; round < 60; ++round) {
    const Vec2 a{pos(rng), pos(rng)}, b{pos(rng), pos(rng)};
    std::vector<Disc> threats, allies;
    const int nt = int(rng() % 4), na = int(rng() % 4);
    for (int i = 0; i < nt; ++i) threats.push_back(Disc{{pos(rng), pos(rng)}, rad(rng)});
    for (int i = 0; i < na; ++i) allies.push_back(Disc{{pos(rng), pos(rng)}, rad(rng)});
    for (const bool fading : {false, true}) {
      CAPTURE(round);
      CAPTURE(fading);
      const Exposure e = segment_exposure(a, b, threats, allies, fading);
      const int n = 20000;
      const Exposure s = sampled(a, b, threats, allies, fading, n);
      // Each disc boundary misplaces at most one sample.
      const double tol = 4.0 * double(nt + na + 1) * e.length / n + 1e-9;
      CHECK(e.length == doctest::Approx(s.length));
      CHECK(std::abs(e.threat - s.threat) <= tol);
      CHECK(std::abs(e.safe - s.safe) <= tol);
      CHECK(e.threat + e.safe <= e.length + 1e-9);
    }
  }
}
