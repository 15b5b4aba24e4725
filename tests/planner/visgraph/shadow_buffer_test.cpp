// The shadow buffer against brute force: every box it hides lies behind an added edge.

#include <doctest/doctest.h>

#include <random>
#include <vector>

#include "planner/core/geometry.hpp"
#include "planner/visgraph/shadow_buffer.hpp"

using namespace pathscope;
using namespace pathscope::visgraph;

namespace {

// Segment [o, q] crosses [a, b] properly: strict signs on both sides.
bool crosses(Vec2 o, Vec2 q, Vec2 a, Vec2 b) {
  const auto sgn = [](double v) { return (v > 0) - (v < 0); };
  return sgn(cross(o, q, a)) * sgn(cross(o, q, b)) < 0 && sgn(cross(a, b, o)) * sgn(cross(a, b, q)) < 0;
}

}  // namespace

TEST_SUITE("visgraph") {
  TEST_CASE("a hidden box lies wholly behind the edges added, sampled and at its corners") {
    std::mt19937_64 rng(31);
    std::uniform_real_distribution<double> u(0, 64);
    int hidden = 0, shown = 0;
    for (int round = 0; round < 200; ++round) {
      // Half the rounds on the 1/4 m lattice: edges through the origin's lines, boxes
      // touching edges, directions along sector boundaries.
      const bool lattice = round % 2 == 0;
      const auto point = [&] {
        Vec2 p{u(rng), u(rng)};
        return lattice ? Vec2{std::round(p.x * 4) / 4, std::round(p.y * 4) / 4} : p;
      };
      ShadowBuffer shadows(round % 3 == 0 ? 64 : 1024);
      const Vec2 o = point();
      shadows.reset(o);
      std::vector<std::pair<Vec2, Vec2>> edges;
      const int count = 1 + int(rng() % 40);
      for (int k = 0; k < count; ++k) {
        const Vec2 a = point();
        const Vec2 b = rng() % 2 ? point() : a + Vec2{double(rng() % 9) - 4, double(rng() % 9) - 4} * 0.5;
        edges.emplace_back(a, b);
        shadows.add_edge(a, b);
      }
      for (int k = 0; k < 300; ++k) {
        const Vec2 c = point();
        const Vec2 half{0.25 * double(rng() % 16), 0.25 * double(rng() % 16)};
        const Box2 box{c - half, c + half};
        if (!shadows.hides(box)) {
          ++shown;
          continue;
        }
        ++hidden;
        std::vector<Vec2> samples = {
            box.lo, box.hi, {box.lo.x, box.hi.y}, {box.hi.x, box.lo.y}, box.center()};
        std::uniform_real_distribution<double> sx(box.lo.x, box.hi.x), sy(box.lo.y, box.hi.y);
        for (int s = 0; s < 20; ++s) samples.push_back({sx(rng), sy(rng)});
        for (const Vec2 q : samples) {
          bool behind = false;
          for (const auto& [a, b] : edges) behind = behind || crosses(o, q, a, b);
          CAPTURE(round);
          CAPTURE(q.x);
          CAPTURE(q.y);
          CHECK(behind);
        }
      }
    }
    // Not vacuous: many boxes hidden, many not.
    CHECK(hidden > 2000);
    CHECK(shown > 2000);
  }

  TEST_CASE("a box behind a long wall is hidden, one beside it or in front is not") {
    ShadowBuffer shadows;
    shadows.reset({0, 0});
    shadows.add_edge({10, -5}, {10, 5});
    CHECK(shadows.hides(Box2{{11, -1}, {12, 1}}));
    CHECK(shadows.hides(Box2{{30, -12}, {31, 12}}));         // far enough to fit the wall's angles
    CHECK_FALSE(shadows.hides(Box2{{11, 4}, {12, 6}}));      // past the wall's end
    CHECK_FALSE(shadows.hides(Box2{{8, -1}, {9.5, 1}}));     // in front of it
    CHECK_FALSE(shadows.hides(Box2{{9.5, -1}, {10.5, 1}}));  // across it
    CHECK_FALSE(shadows.hides(Box2{{-12, -1}, {-11, 1}}));   // behind the origin
    shadows.reset({0, 0});
    CHECK_FALSE(shadows.hides(Box2{{11, -1}, {12, 1}}));  // reset forgets
  }

}  // TEST_SUITE
