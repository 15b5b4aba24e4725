// The visibility graph against brute force: sight tests, corners and links.

#include <doctest/doctest.h>

#include <algorithm>
#include <memory>
#include <set>
#include <utility>

#include "planner/visgraph/visibility_graph.hpp"
#include "tests/planner/visgraph/visgraph_test_support.hpp"
#include "tests/test_maps.hpp"

using namespace pathscope;
using namespace pathscope::visgraph;

namespace {

// Tangent at v (with ring neighbours a, b) for the line towards w: a and b on one closed side.
bool reference_tangent(Vec2 a, Vec2 v, Vec2 b, Vec2 w) {
  const double sa = cross(v, w, a), sb = cross(v, w, b);
  return !((sa > 0 && sb < 0) || (sa < 0 && sb > 0));
}

}  // namespace

TEST_SUITE("visgraph") {
  TEST_CASE("sight through the bucket grid equals brute force on random segments") {
    std::mt19937_64 rng(11);
    for (int map = 0; map < 6; ++map) {
      const double radius = map % 3 == 0 ? 0.0 : 0.3 * map;
      const Result<ObstacleSet> set =
          build_obstacle_set(test::random_obstacles(rng, 30, 24, 12, map % 2 == 1), Box2{{0, 0}, {30, 24}},
                             ObstacleParams{radius, 0.05});
      REQUIRE(set.ok());
      const SegmentIndex index(set->rings);
      std::vector<Vec2> pts;  // ring vertices, and random points outside the obstacles
      for (const Ring& r : set->rings) pts.insert(pts.end(), r.points.begin(), r.points.end());
      std::uniform_real_distribution<double> ux(0, 30), uy(0, 24);
      for (int i = 0; i < 60; ++i) {
        // Half the points on the 1/8 m lattice, so that many segments graze vertices.
        Vec2 p{ux(rng), uy(rng)};
        if (i % 2 == 0) p = {std::round(p.x * 8) / 8, std::round(p.y * 8) / 8};
        if (set->free_box.contains(p) && !test::reference_inside(set->rings, p)) pts.push_back(p);
      }
      int visible = 0, checked = 0;
      for (int k = 0; k < 3000; ++k) {
        const Vec2 p = pts[rng() % pts.size()], q = pts[rng() % pts.size()];
        if (p == q) continue;
        CAPTURE(map);
        CAPTURE(p.x);
        CAPTURE(p.y);
        CAPTURE(q.x);
        CAPTURE(q.y);
        const bool expected = test::reference_visible(set->rings, p, q);
        CHECK(index.visible(p, q) == expected);
        visible += expected;
        ++checked;
      }
      CHECK(visible > checked / 20);
      CHECK(visible < checked);
    }
  }

  TEST_CASE("links equal a brute-force all-pairs sight and tangency check on random maps") {
    std::mt19937_64 rng(5);
    for (int map = 0; map < 8; ++map) {
      const double radius = map < 3 ? 0.0 : 0.25 * (map - 2);
      Result<ObstacleSet> set = build_obstacle_set(test::random_obstacles(rng, 32, 24, 10, map % 2 == 0),
                                                   Box2{{0, 0}, {32, 24}}, ObstacleParams{radius, 0.1});
      REQUIRE(set.ok());
      const std::vector<Ring> rings = set->rings;
      const Box2 free_box = set->free_box;
      const PairScan how = map % 2 == 0 ? PairScan::Ordered : PairScan::Tree;
      const VisibilityGraph g(std::move(set.value()), how);
      // Nodes: the convex corners, found independently (the graph numbers them its own way).
      const std::vector<Vec2> corners = test::reference_corners(rings, free_box);
      REQUIRE(g.node_count() == corners.size());
      const auto less = [](Vec2 u, Vec2 v) { return u.x != v.x ? u.x < v.x : u.y < v.y; };
      std::vector<Vec2> positions;
      for (std::uint32_t i = 0; i < g.node_count(); ++i) positions.push_back(g.position(i));
      std::vector<Vec2> sorted = corners;
      std::sort(positions.begin(), positions.end(), less);
      std::sort(sorted.begin(), sorted.end(), less);
      CHECK(positions == sorted);
      // Links as pairs of positions, smaller first.
      using Link = std::pair<std::pair<double, double>, std::pair<double, double>>;
      const auto link = [&](Vec2 u, Vec2 v) {
        if (less(v, u)) std::swap(u, v);
        return Link{{u.x, u.y}, {v.x, v.y}};
      };
      std::multiset<Link> expected, found;
      for (std::uint32_t i = 0; i < g.node_count(); ++i) {
        const std::uint32_t vi = g.vertex(i);
        const Vec2 pi = g.position(i);
        const Vec2 ai = g.index().position(g.index().prev(vi)), bi = g.index().position(g.index().next(vi));
        for (std::uint32_t j = i + 1; j < g.node_count(); ++j) {
          const std::uint32_t vj = g.vertex(j);
          const Vec2 pj = g.position(j);
          const Vec2 aj = g.index().position(g.index().prev(vj)), bj = g.index().position(g.index().next(vj));
          if (reference_tangent(ai, pi, bi, pj) && reference_tangent(aj, pj, bj, pi) &&
              test::reference_visible(rings, pi, pj)) {
            expected.insert(link(pi, pj));
          }
        }
        for (const std::uint32_t j : g.links(i)) {
          if (j > i) found.insert(link(pi, g.position(j)));
        }
        CHECK(std::is_sorted(g.links(i).begin(), g.links(i).end()));
      }
      CAPTURE(map);
      CHECK(found == expected);
      CHECK(g.link_count() == expected.size());
      CHECK(expected.size() > g.node_count());
    }
  }

  TEST_CASE("links equal an all-pairs check through the sight index on larger maps") {
    // Maps large and cluttered enough for the build's tree of groups to be deep and most of
    // each corner's view to be shadowed: the scan must skip no pair it should test.
    std::mt19937_64 rng(23);
    for (int map = 0; map < 3; ++map) {
      Result<ObstacleSet> set =
          build_obstacle_set(test::random_obstacles(rng, 160, 120, 500 + 150 * map, map == 1),
                             Box2{{0, 0}, {160, 120}}, ObstacleParams{0.25 * map, 0.1});
      REQUIRE(set.ok());
      const VisibilityGraph ordered(ObstacleSet(set.value()), PairScan::Ordered);
      const VisibilityGraph g(std::move(set.value()), PairScan::Tree);
      const SegmentIndex& index = g.index();
      std::size_t expected = 0;
      for (std::uint32_t i = 0; i < g.node_count(); ++i) {
        const std::uint32_t vi = g.vertex(i);
        const Vec2 pi = g.position(i);
        std::vector<std::uint32_t> linked;
        for (std::uint32_t j = 0; j < g.node_count(); ++j) {
          if (j == i) continue;
          const Vec2 pj = g.position(j);
          if (index.tangent(vi, pj - pi) && index.tangent(g.vertex(j), pi - pj) && index.visible(pi, pj)) {
            linked.push_back(j);
          }
        }
        expected += linked.size();
        const std::span<const std::uint32_t> found = g.links(i), found_ordered = ordered.links(i);
        CAPTURE(map);
        CAPTURE(i);
        CHECK(std::vector<std::uint32_t>(found.begin(), found.end()) == linked);
        CHECK(std::vector<std::uint32_t>(found_ordered.begin(), found_ordered.end()) == linked);
      }
      CHECK(g.link_count() * 2 == expected);
      // Cluttered: the tree skips many groups whole, more than the ordered scan, and
      // links are few per corner.
      CHECK(g.stats().hidden_groups > g.node_count());
      CHECK(g.stats().tangent_pairs < ordered.stats().tangent_pairs);
      CHECK(expected < 40 * g.node_count());
    }
  }

}  // TEST_SUITE

TEST_SUITE("visgraph") {
  TEST_CASE("segments from a point to a box that are shown apart from another box never meet it") {
    std::mt19937_64 rng(43);
    const auto box = [&] {
      const Vec2 lo{double(rng() % 40), double(rng() % 40)};
      return Box2{lo, lo + Vec2{double(rng() % 6), double(rng() % 6)}};
    };
    int apart = 0, may = 0;
    for (int k = 0; k < 20000; ++k) {
      const Vec2 p{double(rng() % 41), double(rng() % 41)};
      const Box2 b = box(), c = box();
      if (segments_may_meet(p, b, c)) {
        ++may;
        continue;
      }
      ++apart;
      std::uniform_real_distribution<double> ux(b.lo.x, b.hi.x), uy(b.lo.y, b.hi.y);
      std::vector<Vec2> targets = {b.lo, b.hi, {b.lo.x, b.hi.y}, {b.hi.x, b.lo.y}};
      for (int t = 0; t < 8; ++t) targets.push_back({ux(rng), uy(rng)});
      for (const Vec2 q : targets) {
        CAPTURE(k);
        CHECK_FALSE(segment_meets_box(p, q, c));
      }
    }
    CHECK(apart > 5000);
    CHECK(may > 1000);
  }

  TEST_CASE("updates through the tree of groups equal full builds, obstacle by obstacle") {
    std::mt19937_64 rng(41);
    for (const double radius : {0.0, 0.3}) {
      std::vector<ObstacleInput> inputs = test::random_obstacles(rng, 120, 90, 300, radius > 0);
      const Box2 world{{0, 0}, {120, 90}};
      const ObstacleParams params{radius, 0.1};
      Result<ObstacleSet> first = build_obstacle_set(inputs, world, params);
      REQUIRE(first.ok());
      auto graph = std::make_unique<VisibilityGraph>(std::move(first.value()), PairScan::Tree);
      std::uint64_t kept = 0;
      for (int edit = 0; edit < 12; ++edit) {
        // One obstacle removed, or one placed; the change lies in its box grown by the radius.
        const std::vector<ObstacleInput> one = test::random_obstacles(rng, 120, 90, 1, radius > 0);
        const std::size_t k = rng() % inputs.size();
        const ObstacleInput changed_input = edit % 2 == 0 ? inputs[k] : one[0];
        if (edit % 2 == 0) {
          inputs.erase(inputs.begin() + std::ptrdiff_t(k));
        } else {
          inputs.push_back(one[0]);
        }
        const Shape& shape = changed_input.shape;
        Box2 changed = shape.kind == ShapeKind::Rect     ? Box2{shape.min, shape.max}
                       : shape.kind == ShapeKind::Circle ? Box2::of(shape.center).expanded(shape.radius)
                                                         : Box2::of(shape.points[0]);
        for (const Vec2 q : shape.points) changed = changed.united(Box2::of(q));
        changed = changed.expanded(radius + 0.25);
        Result<ObstacleSet> next = build_obstacle_set(inputs, world, params);
        REQUIRE(next.ok());
        const VisibilityGraph fresh(ObstacleSet(next.value()), PairScan::Ordered);
        auto updated =
            std::make_unique<VisibilityGraph>(std::move(next.value()), *graph, changed, PairScan::Tree);
        CAPTURE(radius);
        CAPTURE(edit);
        REQUIRE(updated->node_count() == fresh.node_count());
        for (std::uint32_t i = 0; i < fresh.node_count(); ++i) {
          REQUIRE(updated->position(i) == fresh.position(i));
          const auto a = updated->links(i), b = fresh.links(i);
          CHECK(std::vector<std::uint32_t>(a.begin(), a.end()) ==
                std::vector<std::uint32_t>(b.begin(), b.end()));
        }
        kept += updated->stats().kept_links;
        graph = std::move(updated);
      }
      CHECK(kept > 0);
    }
  }

  TEST_CASE("an updated graph equals a full rebuild over random build and destroy sequences") {
    std::mt19937_64 rng(17);
    for (const double radius : {0.0, 0.45}) {
      Scenario s = test::ascii_scenario(test::random_rows(rng, 40, 30, 0.04, false));
      const std::size_t wall = 1;
      std::uint32_t next_id = 1;
      PlanningWorld world(s);
      const ObstacleParams params{radius, 0.05};
      (void)VisGraphMap::of(world, 0, params);
      std::uint64_t kept = 0;
      for (int edit = 0; edit < 40; ++edit) {
        const int kind = int(rng() % 6);
        if (kind <= 1 || s.features.empty()) {  // a building placed
          Feature f;
          f.id = next_id++;
          f.terrain = wall;
          const double x = double(rng() % 36), y = double(rng() % 26);
          if (kind == 0) {
            f.shape.kind = ShapeKind::Rect;
            f.shape.min = {x, y};
            f.shape.max = {x + 1 + double(rng() % 4), y + 1 + double(rng() % 3)};
          } else {
            f.shape.kind = ShapeKind::Circle;
            f.shape.center = {x + 1.5, y + 1.5};
            f.shape.radius = 0.5 + double(rng() % 3) * 0.5;
          }
          s.features.push_back(f);
        } else if (kind == 2) {  // a building destroyed
          s.features.erase(s.features.begin() + std::ptrdiff_t(rng() % s.features.size()));
        } else if (kind == 4) {  // a clearing (ground painted over what is there)
          Feature f;
          f.id = next_id++;
          f.terrain = 0;
          f.shape.kind = ShapeKind::Rect;
          f.shape.min = {double(rng() % 36), double(rng() % 26)};
          f.shape.max = f.shape.min + Vec2{1.0 + double(rng() % 4), 1.0 + double(rng() % 4)};
          s.features.push_back(f);
        } else if (kind == 5) {  // a bridge laid, or one destroyed or repaired
          if (s.bridges.empty() || rng() % 2 == 0) {
            Bridge b;
            b.id = next_id++;
            b.a = {double(rng() % 36) + 0.5, double(rng() % 26) + 0.5};
            b.b = b.a + Vec2{double(rng() % 5), 1.0 + double(rng() % 4)};
            b.width = 1.0 + double(rng() % 3);
            s.bridges.push_back(b);
          } else {
            Bridge& b = s.bridges[rng() % s.bridges.size()];
            b.intact = !b.intact;
          }
        } else {  // a wall tile built or cleared
          TileGrid& t = *s.tiles;
          const std::size_t cell = rng() % t.terrain.size();
          t.terrain[cell] = t.terrain[cell] == 1 ? 0 : 1;
        }
        REQUIRE_FALSE(world.update(s).value().rebuilt);
        const PlanningWorld fresh_world(s);
        const VisibilityGraph& updated = VisGraphMap::of(world, 0, params).graph();
        const VisibilityGraph& fresh = VisGraphMap::of(fresh_world, 0, params).graph();
        CAPTURE(radius);
        CAPTURE(edit);
        REQUIRE(updated.node_count() == fresh.node_count());
        for (std::uint32_t i = 0; i < fresh.node_count(); ++i) {
          REQUIRE(updated.position(i) == fresh.position(i));
          const auto a = updated.links(i), b = fresh.links(i);
          CHECK(std::vector<std::uint32_t>(a.begin(), a.end()) ==
                std::vector<std::uint32_t>(b.begin(), b.end()));
        }
        kept += updated.stats().kept_links;
      }
      CHECK(kept > 0);  // the updates did reuse links
      CHECK_FALSE(s.bridges.empty());
    }
  }

}  // TEST_SUITE

TEST_SUITE("visibility graph") {
  TEST_CASE(
      "a point's links through the tree of groups equal each corner's own test, from 4,096 corners on") {
    // Large enough that nodes_linked_to() walks the tree (kTreeScanFrom), with points in
    // the open and beside obstacles.
    std::mt19937_64 rng(29);
    Result<ObstacleSet> set = build_obstacle_set(test::random_obstacles(rng, 300, 240, 2000, false),
                                                 Box2{{0, 0}, {300, 240}}, ObstacleParams{0, 0.1});
    REQUIRE(set.ok());
    const VisibilityGraph g(std::move(set.value()), PairScan::Tree);
    REQUIRE(g.node_count() >= kTreeScanFrom);
    std::uniform_real_distribution<double> ux(0, 300), uy(0, 240);
    std::size_t total = 0;
    std::vector<std::uint32_t> found;
    for (int q = 0; q < 40; ++q) {
      const Vec2 p{ux(rng), uy(rng)};
      g.nodes_linked_to(p, found);
      std::vector<std::uint32_t> expected;
      for (std::uint32_t j = 0; j < g.node_count(); ++j) {
        if (g.links_to(j, p)) expected.push_back(j);
      }
      CAPTURE(q);
      CHECK(found == expected);
      total += expected.size();
    }
    CHECK(total > 40);
  }

}  // TEST_SUITE
