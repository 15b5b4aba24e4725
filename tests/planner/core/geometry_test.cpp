// Geometry predicates: hand-checked boundary cases (touching is not overlapping), and
// property tests against brute-force references on random polygons.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <optional>
#include <random>
#include <vector>

#include <glm/common.hpp>
#include <glm/geometric.hpp>

#include "planner/core/geometry.hpp"

using namespace pathscope;

namespace {

using Polygon = std::vector<Vec2>;
using EdgePair = std::optional<std::pair<std::size_t, std::size_t>>;

const Polygon kUnitSquare = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};

// Reference for find_self_intersection: test every pair of edges.
EdgePair brute_self_intersection(const Polygon& p) {
  const std::size_t n = p.size();
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = i + 1; j < n; ++j) {
      const Vec2 a = p[i], b = p[(i + 1) % n], c = p[j], d = p[(j + 1) % n];
      const bool adjacent = j == i + 1 || (i == 0 && j == n - 1);
      if (!adjacent) {
        if (segments_intersect(a, b, c, d)) return std::make_pair(i, j);
        continue;
      }
      // Adjacent edges meet at their shared vertex; anything more is a fold-back or a
      // zero-length edge.
      if (a == b || c == d) return std::make_pair(i, j);
      const Vec2 shared = j == i + 1 ? b : a;
      const Vec2 u = (j == i + 1 ? a : b) - shared;
      const Vec2 v = (j == i + 1 ? d : c) - shared;
      if (cross(shared, shared + u, shared + v) == 0 && glm::dot(u, v) > 0) return std::make_pair(i, j);
    }
  }
  return std::nullopt;
}

// Area of the polygon clipped to the box (Sutherland-Hodgman; exact in area for any
// simple polygon against a convex clip region).
double clipped_area(Polygon poly, Vec2 lo, Vec2 hi) {
  auto clip = [&](auto inside, auto intersect) {
    Polygon out;
    for (std::size_t i = 0, n = poly.size(); i < n; ++i) {
      const Vec2 cur = poly[i], prev = poly[(i + n - 1) % n];
      if (inside(cur)) {
        if (!inside(prev)) out.push_back(intersect(prev, cur));
        out.push_back(cur);
      } else if (inside(prev)) {
        out.push_back(intersect(prev, cur));
      }
    }
    poly = out;
  };
  auto at_x = [](double x) {
    return [x](Vec2 a, Vec2 b) { return Vec2{x, a.y + (b.y - a.y) * (x - a.x) / (b.x - a.x)}; };
  };
  auto at_y = [](double y) {
    return [y](Vec2 a, Vec2 b) { return Vec2{a.x + (b.x - a.x) * (y - a.y) / (b.y - a.y), y}; };
  };
  clip([&](Vec2 p) { return p.x >= lo.x; }, at_x(lo.x));
  clip([&](Vec2 p) { return p.x <= hi.x; }, at_x(hi.x));
  clip([&](Vec2 p) { return p.y >= lo.y; }, at_y(lo.y));
  clip([&](Vec2 p) { return p.y <= hi.y; }, at_y(hi.y));
  return poly.size() < 3 ? 0.0 : polygon_area(poly);
}

// Reference for polygon_overlaps_open_box: sample a grid of points strictly inside the box.
bool sampled_overlap(const Polygon& poly, Vec2 lo, Vec2 hi, int samples) {
  for (int i = 0; i < samples; ++i) {
    for (int j = 0; j < samples; ++j) {
      const Vec2 p{lo.x + (hi.x - lo.x) * (i + 0.5) / samples, lo.y + (hi.y - lo.y) * (j + 0.5) / samples};
      if (point_in_polygon(p, poly)) return true;
    }
  }
  return false;
}

// A random simple (star-shaped) polygon with vertices on a 0.5 m lattice, so that edges
// often run exactly along box edges and through box corners.
Polygon random_star(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> unit(0, 1);
  for (;;) {
    const int n = std::uniform_int_distribution<int>(3, 12)(rng);
    const Vec2 c{4 + 2 * unit(rng), 4 + 2 * unit(rng)};
    Polygon p;
    for (int k = 0; k < n; ++k) {
      const double a = 2 * std::numbers::pi * (k + unit(rng)) / n;
      const double r = 0.5 + 4 * unit(rng);
      Vec2 v = c + r * Vec2{std::cos(a), std::sin(a)};
      p.push_back(glm::round(v * 2.0) * 0.5);
    }
    if (!find_self_intersection(p) && polygon_area(p) > 0) return p;
  }
}

}  // namespace

TEST_SUITE("geometry") {
  TEST_CASE("geometry: point_in_polygon") {
    CHECK(point_in_polygon({0.5, 0.5}, kUnitSquare));
    CHECK_FALSE(point_in_polygon({1.5, 0.5}, kUnitSquare));
    CHECK_FALSE(point_in_polygon({0.5, -0.5}, kUnitSquare));
    // Concave "C": the notch is outside.
    const Polygon c = {{0, 0}, {3, 0}, {3, 1}, {1, 1}, {1, 2}, {3, 2}, {3, 3}, {0, 3}};
    CHECK(point_in_polygon({0.5, 1.5}, c));
    CHECK_FALSE(point_in_polygon({2, 1.5}, c));
    CHECK(point_in_polygon({2, 0.5}, c));
    // Either winding.
    const Polygon reversed(kUnitSquare.rbegin(), kUnitSquare.rend());
    CHECK(point_in_polygon({0.25, 0.75}, reversed));
    // A point on the shared edge of two adjacent squares is in exactly one of them.
    const Polygon right = {{1, 0}, {2, 0}, {2, 1}, {1, 1}};
    for (double y : {0.0, 0.25, 0.5, 0.999}) {
      CAPTURE(y);
      CHECK(point_in_polygon({1, y}, kUnitSquare) + point_in_polygon({1, y}, right) == 1);
    }
    const Polygon above = {{0, 1}, {1, 1}, {1, 2}, {0, 2}};
    CHECK(point_in_polygon({0.5, 1}, kUnitSquare) + point_in_polygon({0.5, 1}, above) == 1);
  }

  TEST_CASE("geometry: segments_intersect") {
    CHECK(segments_intersect({0, 0}, {2, 2}, {0, 2}, {2, 0}));        // crossing
    CHECK(segments_intersect({0, 0}, {1, 0}, {1, 0}, {1, 5}));        // sharing an endpoint
    CHECK(segments_intersect({0, 0}, {2, 0}, {1, 0}, {1, 5}));        // T junction
    CHECK(segments_intersect({0, 0}, {2, 0}, {1, 0}, {3, 0}));        // collinear overlap
    CHECK_FALSE(segments_intersect({0, 0}, {1, 0}, {2, 0}, {3, 0}));  // collinear, apart
    CHECK_FALSE(segments_intersect({0, 0}, {2, 0}, {0, 1}, {2, 1}));  // parallel
    CHECK_FALSE(segments_intersect({0, 0}, {1, 1}, {2, 0}, {1.5, 0.6}));
  }

  TEST_CASE("geometry: find_self_intersection") {
    CHECK_FALSE(find_self_intersection(kUnitSquare));
    const Polygon c = {{0, 0}, {3, 0}, {3, 1}, {1, 1}, {1, 2}, {3, 2}, {3, 3}, {0, 3}};
    CHECK_FALSE(find_self_intersection(c));

    SUBCASE("bowtie") {
      const Polygon bowtie = {{0, 0}, {4, 4}, {4, 0}, {0, 4}};
      CHECK(find_self_intersection(bowtie) == EdgePair({0, 2}));
    }
    SUBCASE("collinear fold-back of adjacent edges") {
      const Polygon fold = {{0, 0}, {4, 0}, {2, 0}, {2, 2}};
      CHECK(find_self_intersection(fold) == EdgePair({0, 1}));
      // Adjacent collinear edges that continue straight on are fine.
      const Polygon straight = {{0, 0}, {2, 0}, {4, 0}, {4, 4}};
      CHECK_FALSE(find_self_intersection(straight));
    }
    SUBCASE("a vertex touching a non-adjacent edge") {
      const Polygon touch = {{0, 0}, {6, 0}, {6, 6}, {3, 0}, {0, 6}};
      CHECK(find_self_intersection(touch) == EdgePair({0, 2}));
    }
    SUBCASE("two non-adjacent vertices coincide") {
      const Polygon pinch = {{0, 0}, {2, 0}, {1, 1}, {2, 2}, {0, 2}, {1, 1}};
      CHECK(find_self_intersection(pinch).has_value());
    }
    SUBCASE("repeated vertex") {
      const Polygon repeated = {{0, 0}, {1, 0}, {1, 0}, {1, 1}};
      CHECK(find_self_intersection(repeated) == EdgePair({1, 2}));
    }
  }

  TEST_CASE("geometry: find_self_intersection matches an all-pairs reference") {
    std::mt19937_64 rng(11);
    std::uniform_int_distribution<int> coord(0, 6);
    int simple = 0;
    for (int trial = 0; trial < 3000; ++trial) {
      const int n = std::uniform_int_distribution<int>(3, 7)(rng);
      Polygon p;
      for (int k = 0; k < n; ++k) p.push_back(Vec2{coord(rng), coord(rng)});
      CAPTURE(trial);
      const EdgePair fast = find_self_intersection(p);
      const EdgePair slow = brute_self_intersection(p);
      CHECK(fast.has_value() == slow.has_value());
      // A zero-length edge is reported as soon as it is seen; otherwise the first pair.
      bool zero_length_edge = false;
      for (int k = 0; k < n; ++k)
        zero_length_edge |= p[static_cast<std::size_t>(k)] == p[static_cast<std::size_t>((k + 1) % n)];
      if (fast && slow && !zero_length_edge) CHECK(*fast == *slow);
      simple += !slow;
    }
    CHECK(simple > 100);  // the sample covers both outcomes
  }

  TEST_CASE("geometry: segment_crosses_open_box") {
    const Vec2 lo{0, 0}, hi{2, 2};
    CHECK(segment_crosses_open_box({-1, 1}, {3, 1}, lo, hi));        // straight through
    CHECK(segment_crosses_open_box({0.5, 0.5}, {1, 1}, lo, hi));     // wholly inside
    CHECK(segment_crosses_open_box({-1, 0.5}, {1, 0.5}, lo, hi));    // ends inside
    CHECK(segment_crosses_open_box({-1, 1.5}, {1.5, -1}, lo, hi));   // clips a corner
    CHECK_FALSE(segment_crosses_open_box({0, 0}, {2, 0}, lo, hi));   // along an edge
    CHECK_FALSE(segment_crosses_open_box({-1, 2}, {5, 2}, lo, hi));  // along an edge, longer
    CHECK_FALSE(segment_crosses_open_box({2, -1}, {2, 3}, lo, hi));  // along the right edge
    CHECK_FALSE(segment_crosses_open_box({-1, 1}, {1, 3}, lo, hi));  // touches a corner only
    CHECK_FALSE(segment_crosses_open_box({2, 1}, {4, 1}, lo, hi));   // starts on an edge, goes out
    CHECK_FALSE(segment_crosses_open_box({3, 3}, {4, 5}, lo, hi));   // apart
  }

  TEST_CASE("geometry: polygon_overlaps_open_box") {
    const Vec2 lo{1, 1}, hi{2, 2};
    const Polygon big = {{0, 0}, {3, 0}, {3, 3}, {0, 3}};
    CHECK(polygon_overlaps_open_box(big, lo, hi));  // contains the box
    CHECK(polygon_overlaps_open_box(Polygon{{1.4, 1.4}, {1.6, 1.4}, {1.5, 1.6}}, lo, hi));  // inside the box
    CHECK(polygon_overlaps_open_box(Polygon{{0, 0}, {1.5, 0}, {1.5, 1.5}, {0, 1.5}}, lo, hi));  // partial
    CHECK_FALSE(
        polygon_overlaps_open_box(Polygon{{0, 1}, {1, 1}, {1, 2}, {0, 2}}, lo, hi));  // shares an edge
    CHECK_FALSE(
        polygon_overlaps_open_box(Polygon{{0, 0}, {1, 0}, {1, 1}, {0, 1}}, lo, hi));  // shares a corner
    CHECK_FALSE(polygon_overlaps_open_box(Polygon{{5, 5}, {6, 5}, {6, 6}}, lo, hi));  // apart
    // A concave polygon whose notch holds the box: edges surround it, none enter it.
    const Polygon c = {{0, 0}, {3, 0}, {3, 1}, {1, 1}, {1, 2}, {3, 2}, {3, 3}, {0, 3}};
    CHECK_FALSE(polygon_overlaps_open_box(c, lo, hi));
    CHECK(polygon_overlaps_open_box(c, {0.5, 0.5}, {1.5, 1.5}));
  }

  TEST_CASE("geometry: polygon_overlaps_open_box matches a sampling reference") {
    std::mt19937_64 rng(5);
    std::uniform_int_distribution<int> half_metres(0, 20);
    int overlaps = 0, disjoint = 0;
    for (int trial = 0; trial < 4000; ++trial) {
      const Polygon p = random_star(rng);
      Vec2 a{half_metres(rng) * 0.5, half_metres(rng) * 0.5};
      Vec2 b{half_metres(rng) * 0.5, half_metres(rng) * 0.5};
      if (a.x == b.x || a.y == b.y) continue;
      const Vec2 lo = glm::min(a, b), hi = glm::max(a, b);
      CAPTURE(trial);
      const bool exact = polygon_overlaps_open_box(p, lo, hi);
      const bool sampled = sampled_overlap(p, lo, hi, 48);
      // A sample inside the polygon proves overlap; a miss is only allowed for slivers
      // thinner than the sample spacing.
      if (sampled) CHECK(exact);
      if (exact && !sampled) CHECK(clipped_area(p, lo, hi) < 0.05 * (hi.x - lo.x) * (hi.y - lo.y));
      if (!exact) CHECK(clipped_area(p, lo, hi) < 1e-9);
      (exact ? overlaps : disjoint)++;
    }
    CHECK(overlaps > 200);
    CHECK(disjoint > 200);
  }

  TEST_CASE("geometry: disc_overlaps_open_box") {
    const Vec2 lo{0, 0}, hi{2, 2};
    CHECK(disc_overlaps_open_box({1, 1}, 0.1, lo, hi));      // centre inside
    CHECK(disc_overlaps_open_box({1, 1}, 10, lo, hi));       // contains the box
    CHECK(disc_overlaps_open_box({3, 1}, 1.5, lo, hi));      // crosses an edge
    CHECK_FALSE(disc_overlaps_open_box({3, 1}, 1, lo, hi));  // tangent to an edge
    CHECK_FALSE(disc_overlaps_open_box({5, 6}, 5, lo, hi));  // tangent at the corner (2, 2)
    CHECK(disc_overlaps_open_box({3, 3}, 1.5, lo, hi));      // past the corner
    CHECK_FALSE(disc_overlaps_open_box({5, 5}, 1, lo, hi));
  }

  TEST_CASE("geometry: polygon_area and distance_sq_to_segment") {
    CHECK(polygon_area(kUnitSquare) == 1);
    const Polygon reversed(kUnitSquare.rbegin(), kUnitSquare.rend());
    CHECK(polygon_area(reversed) == 1);
    CHECK(distance_sq_to_segment({1, 1}, {0, 0}, {2, 0}) == 1);
    CHECK(distance_sq_to_segment({3, 0}, {0, 0}, {2, 0}) == 1);
    CHECK(distance_sq_to_segment({1, 1}, {0, 0}, {0, 0}) == 2);
  }

}  // TEST_SUITE
