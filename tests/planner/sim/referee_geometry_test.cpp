#include "planner/sim/referee_geometry.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>
#include <vector>

#include <doctest/doctest.h>

namespace pathscope::sim {

namespace {

Vec2 along_axis(double h) { return {std::cos(h), -std::sin(h)}; }
Vec2 across_axis(double h) { return {std::sin(h), std::cos(h)}; }

// The shape's implicit function: negative inside, 0 on the boundary.
double implicit(const HardShape& s, Vec2 p) {
  const Vec2 d = p - s.centre;
  const Vec2 ax = along_axis(s.heading), ay = across_axis(s.heading);
  const double u = (d.x * ax.x + d.y * ax.y) / s.along;
  const double v = (d.x * ay.x + d.y * ay.y) / s.across;
  return u * u + v * v - 1;
}

// The point of the shape's boundary at parameter t (radians).
Vec2 boundary_point(const HardShape& s, double t) {
  return s.centre + along_axis(s.heading) * (s.along * std::cos(t)) +
         across_axis(s.heading) * (s.across * std::sin(t));
}

// The smallest value of `in`'s implicit function on `of`'s boundary: dense samples, then
// each sampled local minimum refined by golden-section search.
double min_on_boundary(const HardShape& of, const HardShape& in) {
  constexpr int kSamples = 720;
  const double step = 2 * std::numbers::pi / kSamples;
  auto f = [&](double t) { return implicit(in, boundary_point(of, t)); };
  std::vector<double> v(kSamples);
  for (int k = 0; k < kSamples; ++k) v[k] = f(k * step);
  double best = *std::min_element(v.begin(), v.end());
  const double g = (std::sqrt(5.0) - 1) / 2;
  for (int k = 0; k < kSamples; ++k) {
    if (v[k] > v[(k + kSamples - 1) % kSamples] || v[k] > v[(k + 1) % kSamples]) continue;
    double lo = (k - 1) * step, hi = (k + 1) * step;
    double x1 = hi - g * (hi - lo), x2 = lo + g * (hi - lo);
    double f1 = f(x1), f2 = f(x2);
    for (int i = 0; i < 120; ++i) {
      if (f1 < f2) {
        hi = x2;
        x2 = x1;
        f2 = f1;
        x1 = hi - g * (hi - lo);
        f1 = f(x1);
      } else {
        lo = x1;
        x1 = x2;
        f1 = f2;
        x2 = lo + g * (hi - lo);
        f2 = f(x2);
      }
    }
    best = std::min({best, f1, f2});
  }
  return best;
}

// Brute force: negative when the interiors meet (a boundary dips into the other shape, or
// a centre is inside the other shape), positive when apart, near 0 at contact.
double reference_overlap(const HardShape& a, const HardShape& b) {
  double v = std::min(min_on_boundary(a, b), min_on_boundary(b, a));
  if (implicit(b, a.centre) < 0 || implicit(a, b.centre) < 0) v = std::min(v, -1.0);
  return v;
}

// A random shape round `centre`: semi-axis along 0.25 to 2 m, aspect 0.3 to 1 (1 in one
// case of eight: a circle), any heading.
HardShape random_shape(std::mt19937_64& rng, Vec2 centre) {
  std::uniform_real_distribution<double> size(0.25, 2.0), aspect(0.3, 1.0),
      angle(-std::numbers::pi, std::numbers::pi);
  HardShape s;
  s.centre = centre;
  s.heading = angle(rng);
  s.along = size(rng);
  s.across = rng() % 8 == 0 ? s.along : s.along * aspect(rng);
  return s;
}

// `b` moved by `s` metres along the line from a's centre to b's.
HardShape moved_apart(const HardShape& a, HardShape b, double s) {
  const Vec2 d = b.centre - a.centre;
  const double len = std::hypot(d.x, d.y);
  b.centre += (len > 0 ? d / len : Vec2{1, 0}) * s;
  return b;
}

// The radius of an ellipse towards a unit direction: where the ray from its centre leaves it.
double radial_extent(const HardShape& s, Vec2 dir) {
  const Vec2 ax = along_axis(s.heading), ay = across_axis(s.heading);
  const double c = (dir.x * ax.x + dir.y * ax.y) / s.along;
  const double n = (dir.x * ay.x + dir.y * ay.y) / s.across;
  return 1 / std::sqrt(c * c + n * n);
}

}  // namespace

TEST_SUITE("sim referee") {
  TEST_CASE("the exact hard shape test agrees with dense boundary sampling on random pairs") {
    std::mt19937_64 rng(20240611);
    std::uniform_real_distribution<double> unit(0, 1), angle(-std::numbers::pi, std::numbers::pi);
    int overlapping = 0, apart = 0;
    for (int i = 0; i < 3000; ++i) {
      const HardShape a = random_shape(rng, {0, 0});
      const double reach = a.along + 2.0;  // b's semi-axes are at most 2 m
      const double r = reach * unit(rng), t = angle(rng);
      const HardShape b = random_shape(rng, Vec2{std::cos(t), std::sin(t)} * r);
      const double ref = reference_overlap(a, b);
      if (std::abs(ref) < 1e-9) continue;  // at contact: the next case tests it closely
      const bool exact = hard_shapes_overlap(a, b);
      CHECK_MESSAGE(exact == (ref < 0), "pair ", i, ": reference ", ref);
      CHECK(hard_shapes_overlap(b, a) == exact);
      CHECK((overlap_depth(a, b) > 0) == exact);
      (exact ? overlapping : apart) += 1;
    }
    // Both outcomes are well represented.
    CHECK(overlapping > 500);
    CHECK(apart > 500);
  }

  TEST_CASE("overlap depth moves the shapes to contact, and a micrometre either way decides") {
    std::mt19937_64 rng(77);
    std::uniform_real_distribution<double> unit(0, 1), angle(-std::numbers::pi, std::numbers::pi);
    int tested = 0;
    for (int i = 0; i < 1500; ++i) {
      const HardShape a = random_shape(rng, {0, 0});
      const double r = a.across * unit(rng) * 1.5, t = angle(rng);
      const HardShape b = random_shape(rng, Vec2{std::cos(t), std::sin(t)} * r);
      if (!hard_shapes_overlap(a, b)) continue;
      const double depth = overlap_depth(a, b);
      REQUIRE(depth > 0);
      ++tested;
      // At the depth the shapes touch; 1 um less they overlap, 1 um more they are apart.
      CHECK(std::abs(reference_overlap(a, moved_apart(a, b, depth))) < 1e-8);
      CHECK(reference_overlap(a, moved_apart(a, b, depth - 1e-6)) < 0);
      CHECK(reference_overlap(a, moved_apart(a, b, depth + 1e-6)) > 0);
      CHECK(hard_shapes_overlap(a, moved_apart(a, b, depth - 1e-6)));
      CHECK_FALSE(hard_shapes_overlap(a, moved_apart(a, b, depth + 1e-6)));
      if (a.along == a.across && b.along == b.across)
        CHECK(depth ==
              doctest::Approx(a.along + b.along - std::hypot(b.centre.x, b.centre.y)).epsilon(1e-12));
    }
    CHECK(tested > 1000);
  }

  TEST_CASE("two elongated units the centre-line extents call apart do overlap") {
    // Radius 1, aspect 0.5, leaning towards each other like the sides of a roof: the sum of
    // their radii along the line between the centres equals the distance, yet their tips
    // cross over it.
    HardShape a{{0, 0}, 3 * std::numbers::pi / 4, 1.0, 0.5};
    HardShape b{{0, 0}, std::numbers::pi / 4, 1.0, 0.5};
    const double extents = radial_extent(a, {1, 0}) + radial_extent(b, {-1, 0});
    b.centre = {extents, 0};
    CHECK(extents - std::hypot(b.centre.x, b.centre.y) <= 0);  // "no overlap" by extents
    CHECK(reference_overlap(a, b) < -0.1);
    CHECK(hard_shapes_overlap(a, b));
    CHECK(overlap_depth(a, b) == doctest::Approx(0.3162).epsilon(1e-3));
  }

  TEST_CASE("circles overlap by their centre distance, touching is not overlapping") {
    const HardShape a{{0, 0}, 0, 0.5, 0.5};
    CHECK_FALSE(hard_shapes_overlap(a, HardShape{{1.0, 0}, 1, 0.5, 0.5}));
    CHECK(hard_shapes_overlap(a, HardShape{{0.999, 0}, 1, 0.5, 0.5}));
    CHECK(overlap_depth(a, HardShape{{0, 0.6}, 0, 0.5, 0.5}) == doctest::Approx(0.4));
    CHECK(overlap_depth(a, HardShape{{0, 2}, 0, 0.5, 0.5}) == 0);
    // Coincident centres: the whole of both radii.
    CHECK(overlap_depth(a, HardShape{{0, 0}, 0, 0.3, 0.3}) == doctest::Approx(0.8));
    // A circle against an ellipse end on and side on.
    const HardShape e{{0, 0}, 0, 1.0, 0.5};
    CHECK(overlap_depth(e, HardShape{{1.4, 0}, 0, 0.5, 0.5}) == doctest::Approx(0.1).epsilon(1e-9));
    CHECK(overlap_depth(e, HardShape{{0, 0.9}, 0, 0.5, 0.5}) == doctest::Approx(0.1).epsilon(1e-9));
    CHECK_FALSE(hard_shapes_overlap(e, HardShape{{0, 1.01}, 0, 0.5, 0.5}));
  }

  TEST_CASE("distance to an ellipse agrees with dense sampling of its boundary") {
    std::mt19937_64 rng(5);
    std::uniform_real_distribution<double> size(0.2, 3.0), aspect(0.1, 1.0), coord(-4, 4);
    for (int i = 0; i < 500; ++i) {
      const double e0 = size(rng), e1 = e0 * aspect(rng);
      Vec2 p{coord(rng), coord(rng)};
      if (i % 10 == 0) p.y = 0;  // on the axes too
      if (i % 10 == 1) p.x = 0;
      bool inside = false;
      const double d = distance_to_ellipse(e0, e1, p, inside);
      CHECK(inside == ((p.x / e0) * (p.x / e0) + (p.y / e1) * (p.y / e1) <= 1));
      double best = INFINITY;
      for (int k = 0; k < 20000; ++k) {
        const double t = 2 * std::numbers::pi * k / 20000;
        best = std::min(best, std::hypot(e0 * std::cos(t) - p.x, e1 * std::sin(t) - p.y));
      }
      CHECK(d <= best + 1e-12);
      CHECK(d == doctest::Approx(best).epsilon(1e-3));
    }
  }

  TEST_CASE("a segment crosses a box only through its interior") {
    const Vec2 lo{1, 1}, hi{2, 2};
    CHECK(segment_crosses_box({0, 1.5}, {3, 1.5}, lo, hi));                // straight through
    CHECK(segment_crosses_box({0.5, 0.5}, {2.5, 2.5}, lo, hi));            // along the diagonal
    CHECK(segment_crosses_box({0, 1.5}, {1.2, 1.5}, lo, hi));              // ends inside
    CHECK(segment_crosses_box({1.5, 1.5}, {1.5, 1.5}, lo, hi));            // a point inside
    CHECK_FALSE(segment_crosses_box({0, 1}, {3, 1}, lo, hi));              // along an edge
    CHECK_FALSE(segment_crosses_box({0, 2}, {2, 0}, lo, hi));              // through a corner only
    CHECK_FALSE(segment_crosses_box({0, 1.5}, {1, 1.5}, lo, hi));          // ends on the border
    CHECK_FALSE(segment_crosses_box({0, 0}, {0.9, 3}, lo, hi));            // passes by
    CHECK_FALSE(segment_crosses_box({1.5, 2}, {1.5, 2}, lo, hi));          // a point on the border
    CHECK_FALSE(segment_crosses_box({0, 1.5}, {1.05, 1.5}, lo, hi, 0.1));  // not deep enough
    CHECK(segment_crosses_box({0, 1.5}, {1.15, 1.5}, lo, hi, 0.1));
    CHECK(segment_distance_to_origin({-1, 1}, {1, 1}) == doctest::Approx(1));
    CHECK(segment_distance_to_origin({1, 1}, {2, 1}) == doctest::Approx(std::sqrt(2.0)));
  }
}

}  // namespace pathscope::sim
