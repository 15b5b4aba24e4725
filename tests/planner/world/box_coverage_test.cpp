// Coverage of a closed box by a union of shapes (box_coverage.hpp): hand-made seams,
// holes and discs, and random layouts against an exact reference on a fine arrangement.

#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <vector>

#include "planner/core/geometry.hpp"
#include "planner/world/box_coverage.hpp"

using namespace pathscope;

namespace {

Shape polygon(std::vector<Vec2> points) {
  Shape s;
  s.kind = ShapeKind::Polygon;
  s.points = std::move(points);
  return s;
}

bool covers(const std::vector<Shape>& shapes, Vec2 lo, Vec2 hi) {
  std::vector<const Shape*> ptrs;
  for (const Shape& s : shapes) ptrs.push_back(&s);
  return union_covers_box(ptrs, lo, hi);
}

// A random shape whose edges are axis-aligned or at 45 degrees with vertices on the
// half-metre lattice, inside [0, 12]^2: a rectangle, a chamfered rectangle, an L, a
// right isosceles triangle or a diamond, in either orientation.
Shape lattice_shape(std::mt19937_64& rng, const std::vector<Shape>& before) {
  const auto half = [&](int lo, int hi) { return 0.5 * double(lo + int(rng() % unsigned(hi - lo + 1))); };
  const Vec2 o{half(0, 14), half(0, 14)};
  const double w = half(2, 16), h = half(2, 16);
  Shape s;
  switch (rng() % 6) {
    case 0:
    case 5: {
      // Mostly against a rectangle placed before: sharing part of one of its sides.
      const Shape* prev = nullptr;
      for (const Shape& b : before) {
        if (b.kind == ShapeKind::Rect) prev = &b;
      }
      if (!prev || rng() % 4 == 0) return Shape::rect(o, o + Vec2{w, h});
      Vec2 lo;
      switch (rng() % 4) {
        case 0: lo = {prev->max.x, prev->min.y + half(-6, 6)}; break;
        case 1: lo = {prev->min.x - w, prev->min.y + half(-6, 6)}; break;
        case 2: lo = {prev->min.x + half(-6, 6), prev->max.y}; break;
        default: lo = {prev->min.x + half(-6, 6), prev->min.y - h}; break;
      }
      return Shape::rect(lo, lo + Vec2{w, h});
    }
    case 1: {
      const double m = std::min(w, h) * 0.5;
      const auto cut = [&] { return 0.5 * std::floor(double(rng() % 100) / 100.0 * (2 * m + 1)); };
      const double c0 = cut(), c1 = cut(), c2 = cut(), c3 = cut();
      std::vector<Vec2> p;
      const auto add = [&](Vec2 v) {
        if (p.empty() || p.back() != v) p.push_back(v);
      };
      add(o + Vec2{c0, 0});
      add(o + Vec2{w - c1, 0});
      add(o + Vec2{w, c1});
      add(o + Vec2{w, h - c2});
      add(o + Vec2{w - c2, h});
      add(o + Vec2{c3, h});
      add(o + Vec2{0, h - c3});
      add(o + Vec2{0, c0});
      if (p.front() == p.back()) p.pop_back();
      s = polygon(p);
      break;
    }
    case 2: {
      const double cw = half(1, int(2 * w) - 1), ch = half(1, int(2 * h) - 1);
      s = polygon({o, o + Vec2{w, 0}, o + Vec2{w, ch}, o + Vec2{cw, ch}, o + Vec2{cw, h}, o + Vec2{0, h}});
      break;
    }
    case 3: {
      const double a = std::min(w, h);
      const Vec2 d{rng() % 2 ? a : -a, rng() % 2 ? a : -a};
      const Vec2 c = o + Vec2{a, a};
      s = polygon({c, c + Vec2{d.x, 0}, c + Vec2{0, d.y}});
      break;
    }
    default: {
      const double r = std::floor(std::min(w, h)) * 0.5;
      const Vec2 c = o + Vec2{r, r};
      s = polygon({c + Vec2{r, 0}, c + Vec2{0, r}, c + Vec2{-r, 0}, c + Vec2{0, -r}});
      break;
    }
  }
  if (rng() % 2) std::reverse(s.points.begin(), s.points.end());
  return s;
}

// The reference for lattice shapes: every half-metre square is cut by its diagonals into
// four triangles that no shape's boundary enters, so a box on the lattice is covered when
// a point inside each of its triangles is (dyadic points: exact tests).
bool lattice_covers(const std::vector<Shape>& shapes, Vec2 lo, Vec2 hi) {
  const auto in_union = [&](Vec2 p) {
    for (const Shape& s : shapes) {
      if (s.kind == ShapeKind::Rect ? (s.min.x < p.x && p.x < s.max.x && s.min.y < p.y && p.y < s.max.y)
                                    : point_in_polygon(p, s.points)) {
        return true;
      }
    }
    return false;
  };
  for (double y = lo.y; y < hi.y; y += 0.5) {
    for (double x = lo.x; x < hi.x; x += 0.5) {
      for (const Vec2 d : {Vec2{0.25, 0.125}, Vec2{0.375, 0.25}, Vec2{0.25, 0.375}, Vec2{0.125, 0.25}}) {
        if (!in_union(Vec2{x, y} + d)) return false;
      }
    }
  }
  return true;
}

// A disc's inscribed or circumscribed regular 256-gon (slightly inside or outside).
Shape disc_polygon(const Shape& c, bool outer) {
  const int n = 256;
  const double k = 3.14159265358979323846 / n;
  const double r = outer ? c.radius / std::cos(k) * (1 + 1e-9) : c.radius * (1 - 1e-9);
  std::vector<Vec2> p;
  for (int i = 0; i < n; ++i) p.push_back(c.center + r * Vec2{std::cos(2 * k * i), std::sin(2 * k * i)});
  return polygon(p);
}

}  // namespace

TEST_SUITE("containers") {
  TEST_CASE("box coverage: two rectangles sharing an edge through the box cover it, a gap does not") {
    const std::vector<Shape> seam = {Shape::rect({0, 0}, {5.5, 10}), Shape::rect({5.5, 0}, {12, 10})};
    CHECK(covers(seam, {5, 3}, {6, 4}));
    CHECK(covers(seam, {5, 0}, {6, 1}));             // on the outer edge too
    CHECK_FALSE(covers(seam, {5, 9.5}, {6, 10.5}));  // sticks out at the top
    // The second one shifted up by half a metre: the bottom row's seam cell is open below.
    const std::vector<Shape> shifted = {Shape::rect({0, 0}, {5.5, 10}), Shape::rect({5.5, 0.5}, {12, 10})};
    CHECK_FALSE(covers(shifted, {5, 0}, {6, 1}));
    CHECK(covers(shifted, {5, 1}, {6, 2}));
    // Apart by a hair: not covered.
    const std::vector<Shape> apart = {Shape::rect({0, 0}, {5.5, 10}),
                                      Shape::rect({5.5 + 1.0 / 1024, 0}, {12, 10})};
    CHECK_FALSE(covers(apart, {5, 3}, {6, 4}));
    // Overlapping, and meeting at a corner only.
    CHECK(covers({Shape::rect({0, 0}, {5.75, 10}), Shape::rect({5.25, 0}, {12, 10})}, {5, 3}, {6, 4}));
    CHECK_FALSE(covers({Shape::rect({0, 0}, {5.5, 3.5}), Shape::rect({5.5, 3.5}, {12, 10})}, {5, 3}, {6, 4}));
    // A third fills the upper left quarter, still not the lower right; a fourth does.
    CHECK_FALSE(covers(
        {Shape::rect({0, 0}, {5.5, 3.5}), Shape::rect({5.5, 3.5}, {12, 10}), Shape::rect({0, 3.5}, {5.5, 5})},
        {5, 3}, {6, 4}));
    CHECK(covers({Shape::rect({0, 0}, {5.5, 3.5}), Shape::rect({5.5, 3.5}, {12, 10}),
                  Shape::rect({0, 3.5}, {5.5, 5}), Shape::rect({5.5, 0}, {7, 3.5})},
                 {5, 3}, {6, 4}));
  }

  TEST_CASE("box coverage: a hole inside the box that touches none of its sides is found") {
    // A pinwheel of four rectangles round the hole [1.5, 2.5]^2 of the box [0, 4]^2.
    std::vector<Shape> wheel = {Shape::rect({0, 0}, {2.5, 1.5}), Shape::rect({2.5, 0}, {4, 2.5}),
                                Shape::rect({1.5, 2.5}, {4, 4}), Shape::rect({0, 1.5}, {1.5, 4})};
    CHECK_FALSE(covers(wheel, {0, 0}, {4, 4}));
    wheel.push_back(Shape::rect({1.5, 1.5}, {2.5, 2.5}));
    CHECK(covers(wheel, {0, 0}, {4, 4}));
    // A diamond hole between four triangles (their diagonal edges meet only at corners).
    const std::vector<Shape> triangles = {
        polygon({{0, 0}, {4, 0}, {2, 2}}), polygon({{4, 0}, {4, 4}, {2, 2}}),
        polygon({{4, 4}, {0, 4}, {2, 2}}), polygon({{0, 4}, {0, 0}, {2, 2}})};
    CHECK(covers(triangles, {0, 0}, {4, 4}));
    const std::vector<Shape> gap = {polygon({{0, 0}, {4, 0}, {2, 1.5}}), polygon({{4, 0}, {4, 4}, {2.5, 2}}),
                                    polygon({{4, 4}, {0, 4}, {2, 2.5}}), polygon({{0, 4}, {0, 0}, {1.5, 2}})};
    CHECK_FALSE(covers(gap, {0, 0}, {4, 4}));
  }

  TEST_CASE("box coverage: discs, alone and together") {
    // Two overlapping discs hold the box together, neither alone.
    CHECK_FALSE(covers({Shape::circle({0, 0}, 1.5)}, {0.5, -0.5}, {1.5, 0.5}));
    CHECK_FALSE(covers({Shape::circle({2, 0}, 1.5)}, {0.5, -0.5}, {1.5, 0.5}));
    CHECK(covers({Shape::circle({0, 0}, 1.5), Shape::circle({2, 0}, 1.5)}, {0.5, -0.5}, {1.5, 0.5}));
    // Smaller: (1, 0.5) is 1.118 from both centres.
    CHECK_FALSE(covers({Shape::circle({0, 0}, 1.1), Shape::circle({2, 0}, 1.1)}, {0.5, -0.5}, {1.5, 0.5}));
    // A disc and a rectangle: the rim's bulge past the rectangle's edge matters.
    CHECK(covers({Shape::rect({0, 0}, {1, 2}), Shape::circle({1, 1}, 1.2)}, {0.5, 0.5}, {1.5, 1.5}));
    CHECK_FALSE(covers({Shape::rect({0, 0}, {1, 2}), Shape::circle({1, 1}, 0.6)}, {0.5, 0.5}, {1.5, 1.5}));
    // The same disc twice covers no more than once.
    CHECK_FALSE(covers({Shape::circle({0, 0}, 1.5), Shape::circle({0, 0}, 1.5)}, {0.5, -0.5}, {1.5, 0.5}));
    // A ring of small discs round a larger uncovered middle.
    std::vector<Shape> ring;
    for (int k = 0; k < 8; ++k) {
      const double a = 6.283185307179586 * k / 8;
      ring.push_back(Shape::circle(Vec2{2, 2} + 1.2 * Vec2{std::cos(a), std::sin(a)}, 0.8));
    }
    CHECK_FALSE(covers(ring, {1, 1}, {3, 3}));
    // A disc in the middle closes it (the ring reaches in to 0.454 from the centre and out
    // to 1.764 between its discs; the box's corners lie 1.414 out).
    ring.push_back(Shape::circle({2, 2}, 0.6));
    CHECK(covers(ring, {1, 1}, {3, 3}));
    ring.back().radius = 0.45;
    CHECK_FALSE(covers(ring, {1, 1}, {3, 3}));
  }

  TEST_CASE("box coverage: random touching and overlapping lattice shapes, against the fine arrangement") {
    std::mt19937_64 rng(9009);
    int by_union = 0, uncovered = 0, single = 0;
    for (int trial = 0; trial < 250; ++trial) {
      std::vector<Shape> shapes;
      const int n = 2 + int(rng() % 4);
      for (int k = 0; k < n; ++k) shapes.push_back(lattice_shape(rng, shapes));
      // Boxes on the lattice, so that seams run along their sides and through their middles.
      for (const double size : {0.5, 1.0, 2.0}) {
        for (double y = 0; y + size <= 16; y += 0.5) {
          for (double x = 0; x + size <= 16; x += 0.5) {
            const Vec2 lo{x, y}, hi{x + size, y + size};
            const bool want = lattice_covers(shapes, lo, hi);
            CAPTURE(trial);
            CAPTURE(x);
            CAPTURE(y);
            CAPTURE(size);
            REQUIRE(covers(shapes, lo, hi) == want);
            bool one = false;
            for (const Shape& s : shapes) one = one || shape_contains_box(s, lo, hi);
            if (want && !one) ++by_union;
            if (one) ++single;
            if (!want) {
              bool touched = false;
              for (const Shape& s : shapes) touched = touched || shape_overlaps_open_box(s, lo, hi);
              uncovered += touched ? 1 : 0;
            }
          }
        }
      }
    }
    // The union case (seams and overlaps) and partly covered boxes were both exercised.
    CHECK(by_union > 800);
    CHECK(single > 20000);
    CHECK(uncovered > 20000);
  }

  TEST_CASE(
      "box coverage: random discs with rectangles lie between their inscribed and circumscribed polygons") {
    // The disc's answer must be yes when the inscribed 256-gons cover the box, no when the
    // circumscribed ones do not (these polygon answers are the exact rule checked above).
    std::mt19937_64 rng(7007);
    std::uniform_real_distribution<double> u(0, 8), radius(0.8, 3.0);
    int decided_yes = 0, decided_no = 0;
    for (int trial = 0; trial < 300; ++trial) {
      std::vector<Shape> shapes, inner, outer;
      const int n = 2 + int(rng() % 4);
      for (int k = 0; k < n; ++k) {
        if (rng() % 3 == 0) {
          const Vec2 a{std::round(2 * u(rng)) / 2, std::round(2 * u(rng)) / 2};
          shapes.push_back(
              Shape::rect(a, a + Vec2{0.5 + std::round(2 * u(rng)) / 4, 0.5 + std::round(2 * u(rng)) / 4}));
          inner.push_back(shapes.back());
          outer.push_back(shapes.back());
        } else {
          shapes.push_back(Shape::circle({u(rng), u(rng)}, radius(rng)));
          inner.push_back(disc_polygon(shapes.back(), false));
          outer.push_back(disc_polygon(shapes.back(), true));
        }
      }
      for (double y = 0; y < 9; y += 0.5) {
        for (double x = 0; x < 9; x += 0.5) {
          const Vec2 lo{x, y}, hi{x + 1, y + 1};
          const bool got = covers(shapes, lo, hi);
          CAPTURE(trial);
          CAPTURE(x);
          CAPTURE(y);
          if (covers(inner, lo, hi)) {
            CHECK(got);
            ++decided_yes;
          } else if (!covers(outer, lo, hi)) {
            bool touched = false;
            for (const Shape& s : shapes) touched = touched || shape_overlaps_open_box(s, lo, hi);
            CHECK_FALSE(got);
            decided_no += touched ? 1 : 0;
          }
        }
      }
    }
    CHECK(decided_yes > 1000);
    CHECK(decided_no > 1000);
  }

}  // TEST_SUITE
