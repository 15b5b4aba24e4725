// Exact occlusion (threat_field.hpp): the exposure of a segment to threats hidden by
// blocked cells equals a brute-force reference, and hand-checked shadows.
//
// The reference samples 10,000 points evenly along each segment and ray-casts each from
// every threat's centre against every blocked cell with an exact segment-square test
// (Liang-Barsky); where two neighbouring samples disagree, the change is located by
// bisection with the same test, so the reference is exact up to changes closer together
// than a sample spacing.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "planner/tactical/threat_field.hpp"
#include "planner/world/planning_world.hpp"
#include "tests/test_maps.hpp"

using namespace pathscope;
using namespace pathscope::tactical;

namespace {

// Whether segment p-q meets the square [x0, x1] x [y0, y1] in more than its boundary
// would allow a grazing ray: Liang-Barsky clipping with a positive overlap.
bool segment_meets_square(Vec2 p, Vec2 q, double x0, double y0, double x1, double y1) {
  double lo = 0, hi = 1;
  const Vec2 d = q - p;
  const double pk[4] = {-d.x, d.x, -d.y, d.y};
  const double qk[4] = {p.x - x0, x1 - p.x, p.y - y0, y1 - p.y};
  for (int k = 0; k < 4; ++k) {
    if (pk[k] == 0) {
      if (qk[k] < 0) return false;
    } else {
      const double r = qk[k] / pk[k];
      if (pk[k] < 0)
        lo = std::max(lo, r);
      else
        hi = std::min(hi, r);
    }
  }
  return hi > lo;
}

struct Reference {
  const Scenario& s;
  double cell = 1;

  bool blocked(int x, int y) const { return s.tiles->terrain[std::size_t(y * s.tiles->width + x)] == 1; }

  // Threat t sees p: inside its disc and no blocked cell but its centre's on the sight line.
  bool sees(const Influence& t, Vec2 p) const {
    const Vec2 v = p - t.center;
    if (v.x * v.x + v.y * v.y > t.radius * t.radius) return false;
    const int cx = int(std::floor(t.center.x / cell)), cy = int(std::floor(t.center.y / cell));
    for (int y = 0; y < s.tiles->height; ++y) {
      for (int x = 0; x < s.tiles->width; ++x) {
        if (!blocked(x, y) || (x == cx && y == cy)) continue;
        if (segment_meets_square(t.center, p, x * cell, y * cell, (x + 1) * cell, (y + 1) * cell))
          return false;
      }
    }
    return true;
  }
  // 0 open, 1 threat, 2 safe.
  int state(Vec2 p) const {
    for (const Influence& t : s.threats) {
      if (sees(t, p)) return 1;
    }
    for (const Influence& a : s.allies) {
      const Vec2 v = p - a.center;
      if (v.x * v.x + v.y * v.y <= a.radius * a.radius) return 2;
    }
    return 0;
  }
  Exposure exposure(Vec2 a, Vec2 b, int samples) const {
    Exposure e;
    const Vec2 ab = b - a;
    e.length = std::sqrt(ab.x * ab.x + ab.y * ab.y);
    const Vec2 u = ab / e.length;
    auto add = [&](int st, double len) {
      if (st == 1) e.threat += len;
      if (st == 2) e.safe += len;
    };
    const double h = e.length / (samples - 1);
    int prev = state(a);
    for (int i = 1; i < samples; ++i) {
      const double t0 = (i - 1) * h, t1 = i == samples - 1 ? e.length : i * h;
      const int now = state(a + u * t1);
      if (now == prev) {
        add(now, t1 - t0);
      } else {
        double lo = t0, hi = t1;  // state(lo) == prev, state(hi) == now
        for (int k = 0; k < 60 && hi - lo > 1e-13; ++k) {
          const double mid = 0.5 * (lo + hi);
          (state(a + u * mid) == prev ? lo : hi) = mid;
        }
        add(prev, lo - t0);
        add(now, t1 - lo);
      }
      prev = now;
    }
    return e;
  }
};

Influence unit_influence(std::uint32_t id, Vec2 c, double r) { return Influence{id, c, r, 1.0, ""}; }

}  // namespace

TEST_CASE("tactical: exact occlusion equals a brute-force ray-cast reference on random walls and segments") {
  std::mt19937_64 rng(17);
  int segments = 0, partly_hidden = 0;
  for (int round = 0; round < 6; ++round) {
    Scenario s = test::ascii_scenario(test::random_rows(rng, 16, 12, 0.2, false));
    std::uniform_real_distribution<double> x(0, 16), y(0, 12), r(3, 7);
    const int nt = 1 + round % 2;
    for (int i = 0; i < nt; ++i)
      s.threats.push_back(unit_influence(std::uint32_t(i), {x(rng), y(rng)}, r(rng)));
    s.allies.push_back(unit_influence(0, {x(rng), y(rng)}, r(rng) * 0.6));
    PlanningWorld world(s);
    CostModelParams occluded;
    occluded.occlusion = true;
    const ThreatField field(world, 0, occluded);
    const ThreatField open(world, 0, CostModelParams{});
    const Reference ref{s, 1.0};
    for (int k = 0; k < 6; ++k) {
      const Vec2 a{x(rng), y(rng)}, b{x(rng), y(rng)};
      const Exposure e = field.exposure(a, b);
      const Exposure want = ref.exposure(a, b, 10000);
      INFO("round " << round << " segment " << k << ": (" << a.x << ", " << a.y << ") - (" << b.x << ", "
                    << b.y << ")");
      CHECK(std::abs(e.threat - want.threat) <= 1e-6 * e.length);
      CHECK(std::abs(e.safe - want.safe) <= 1e-6 * e.length);
      CHECK(e.threat <= open.exposure(a, b).threat + 1e-12);
      ++segments;
      partly_hidden += e.threat < open.exposure(a, b).threat - 1e-9 && e.threat > 1e-9 ? 1 : 0;
    }
  }
  MESSAGE(segments << " segments, " << partly_hidden << " partly hidden");
  CHECK(partly_hidden >= 5);
}

TEST_CASE("tactical: exact occlusion of a hand-computed shadow, a threat on a wall's edge, and determinism") {
  // One blocked cell [4, 5] x [2, 3]; a threat at (4.5, 0.5) of radius 6. Along y = 4.5 the
  // shadow runs from where the lines through the cell's corners (4, 2) and (5, 2) cross
  // y = 4.5: x = 4.5 -/+ 0.5 * 4 / 1.5, the front edge y = 2 being nearest.
  Scenario s = test::ascii_scenario({
      "..........",
      "..........",
      "....#.....",
      "..........",
      "..........",
      "..........",
  });
  s.threats.push_back(unit_influence(1, {4.5, 0.5}, 6));
  PlanningWorld world(s);
  CostModelParams m;
  m.occlusion = true;
  const ThreatField field(world, 0, m);
  const Exposure e = field.exposure({0.5, 4.5}, {8.5, 4.5});
  const double shadow = 2 * 0.5 * 4.0 / 1.5;
  CHECK(e.threat == doctest::Approx(8.0 - shadow).epsilon(1e-12));
  std::vector<Span> spans;
  field.visible_spans(0, {0.5, 4.5}, {8.5, 4.5}, Span{0, 8}, spans);
  REQUIRE(spans.size() == 2);
  CHECK(spans[0].t1 == doctest::Approx(4.0 - 0.5 * 4.0 / 1.5).epsilon(1e-12));
  CHECK(spans[1].t0 == doctest::Approx(4.0 + 0.5 * 4.0 / 1.5).epsilon(1e-12));
  // The same question twice gives the same bits.
  CHECK(field.exposure({0.5, 4.5}, {8.5, 4.5}) == e);

  // A threat on the corner of a blocked cell, outside it: rays into that quadrant stop at once.
  Scenario t = test::ascii_scenario({
      "....",
      "..#.",
      "....",
      "....",
  });
  t.threats.push_back(
      unit_influence(1, {2.0, 2.0}, 3));  // the corner (2, 2) of cell (2, 1); it stands in cell (2, 2)
  PlanningWorld tw(t);
  const ThreatField corner(tw, 0, m);
  // Segment y = 0.5 from x = 0.5 to 3.5: hidden where x > 2 (behind the cell, up and right).
  const Exposure c = corner.exposure({0.5, 0.5}, {3.5, 0.5});
  const Exposure c_open = ThreatField(tw, 0, CostModelParams{}).exposure({0.5, 0.5}, {3.5, 0.5});
  const double inside =
      std::min(3.5, 2.0 + std::sqrt(9 - 1.5 * 1.5)) - std::max(0.5, 2.0 - std::sqrt(9 - 1.5 * 1.5));
  CHECK(c_open.threat == doctest::Approx(inside).epsilon(1e-12));
  CHECK(c.threat == doctest::Approx(2.0 - 0.5).epsilon(1e-12));
}
