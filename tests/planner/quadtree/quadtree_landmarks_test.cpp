// The quadtree planner's landmarks: their costs are those of real paths from the
// landmark (never below the straight distance times the smallest multiplier), finite
// exactly in the landmark's region; the farthest-first choice; the estimate they give.
// Their corner costs against a brute-force shortest-path reference over the same graph,
// and the corner estimate against true (octile) distances on random maps.
// (Searches with landmarks: quadtree_planner_test.cpp; on updated maps:
// quadtree_update_test.cpp.)

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>
#include <random>
#include <utility>
#include <vector>

#include "planner/quadtree/quadtree_landmarks.hpp"
#include "planner/quadtree/quadtree_map.hpp"
#include "planner/world/planning_world.hpp"
#include "tests/planner/quadtree/quadtree_test_support.hpp"
#include "tests/test_maps.hpp"

using namespace pathscope;

namespace {

double box_distance(Vec2 p, const Box2& b) {
  const double dx = std::max({0.0, b.lo.x - p.x, p.x - b.hi.x});
  const double dy = std::max({0.0, b.lo.y - p.y, p.y - b.hi.y});
  return std::sqrt(dx * dx + dy * dy);
}

// Shortest costs from a landmark leaf's centre over the corner graph, built naively:
// every passable leaf's corners and its portals' ends, every pair of them in one leaf
// joined by a straight segment, the same point in two linked leaves joined at no cost
// when it lies on their portal; Bellman-Ford until nothing improves. Per leaf: its
// cheapest point (0 at the landmark's leaf).
std::vector<double> reference_corner_costs(const QuadtreeMap& map, std::uint32_t landmark) {
  const Quadtree& tree = map.tree();
  const double inf = std::numeric_limits<double>::infinity();
  const double s = tree.cell_size();
  struct Vertex {
    std::uint32_t leaf;
    Vec2 p;  // cells
  };
  std::vector<Vertex> vs;
  for (std::uint32_t id = 0; id < tree.leaf_slots(); ++id) {
    if (!tree.has_leaf(id) || !tree.leaf(id).passable()) continue;
    const QuadLeaf& l = tree.leaf(id);
    std::vector<Vec2> pts = {
        {l.x, l.y}, {l.x + l.size, l.y}, {l.x, l.y + l.size}, {l.x + l.size, l.y + l.size}};
    for (const QuadLink& k : map.links().out(id)) pts.push_back(Vec2(k.a)), pts.push_back(Vec2(k.b));
    for (std::size_t i = 0; i < pts.size(); ++i) {
      bool seen = false;
      for (std::size_t j = 0; j < i; ++j) seen = seen || pts[j] == pts[i];
      if (!seen) vs.push_back({id, pts[i]});
    }
  }
  std::vector<double> d(vs.size(), inf);
  const Vec2 centre = tree.leaf_center(landmark) / s;
  for (std::size_t i = 0; i < vs.size(); ++i) {
    if (vs[i].leaf == landmark)
      d[i] = std::hypot((vs[i].p - centre).x, (vs[i].p - centre).y) * s * tree.leaf(landmark).multiplier;
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t i = 0; i < vs.size(); ++i) {
      if (!(d[i] < inf)) continue;
      for (std::size_t j = 0; j < vs.size(); ++j) {
        double c = inf;
        if (vs[j].leaf == vs[i].leaf) {
          c = std::hypot((vs[j].p - vs[i].p).x, (vs[j].p - vs[i].p).y) * s * tree.leaf(vs[i].leaf).multiplier;
        } else if (vs[j].p == vs[i].p) {
          const QuadLink* k = map.links().find(vs[i].leaf, vs[j].leaf);
          const Vec2 p = vs[i].p;
          if (k && p.x >= k->a.x && p.x <= k->b.x && p.y >= k->a.y && p.y <= k->b.y) c = 0;
        }
        if (d[i] + c < d[j] - 1e-9) d[j] = d[i] + c, changed = true;
      }
    }
  }
  std::vector<double> cost(tree.leaf_slots(), inf);
  for (std::size_t i = 0; i < vs.size(); ++i) cost[vs[i].leaf] = std::min(cost[vs[i].leaf], d[i]);
  cost[landmark] = 0;
  return cost;
}

// Octile distances (moves 1 and sqrt 2, no corner cutting) from cell `from` to every
// cell of a map of '.' and '#', by Dijkstra; infinity where unreachable.
std::vector<double> octile_distances(const std::vector<std::string>& rows, int from) {
  const int h = int(rows.size()), w = int(rows[0].size());
  const auto open_cell = [&](int x, int y) {
    return x >= 0 && y >= 0 && x < w && y < h && rows[y][x] == '.';
  };
  std::vector<double> d(std::size_t(w * h), std::numeric_limits<double>::infinity());
  using Item = std::pair<double, int>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> open;
  d[from] = 0;
  open.emplace(0.0, from);
  while (!open.empty()) {
    const auto [g, c] = open.top();
    open.pop();
    if (g > d[c]) continue;
    const int x = c % w, y = c / w;
    for (int dy = -1; dy <= 1; ++dy) {
      for (int dx = -1; dx <= 1; ++dx) {
        if ((dx == 0 && dy == 0) || !open_cell(x + dx, y + dy)) continue;
        if (dx != 0 && dy != 0 && (!open_cell(x + dx, y) || !open_cell(x, y + dy))) continue;
        const double ng = g + (dx != 0 && dy != 0 ? std::sqrt(2.0) : 1.0);
        const int n = (y + dy) * w + x + dx;
        if (ng < d[n]) d[n] = ng, open.emplace(ng, n);
      }
    }
  }
  return d;
}

}  // namespace

TEST_SUITE("quadtree landmarks") {
  TEST_CASE("costs: zero at each landmark, never below the straight distance, finite exactly in its region") {
    std::mt19937_64 rng(88);
    int checked = 0;
    for (int round = 0; round < 40; ++round) {
      const int w = 8 + int(rng() % 40), h = 8 + int(rng() % 40);
      const auto rows = round % 2
                            ? test::random_rows(rng, w, h, 0.25, true)
                            : test::block_rows(rng, w, h, 2 + int(rng() % 12), 1 + int(rng() % 6), true);
      const PlanningWorld world(test::ascii_scenario(rows));
      const QuadtreeMap& map = QuadtreeMap::of(world, 0);
      const Quadtree& tree = map.tree();
      const QuadLandmarks& marks = QuadLandmarks::of(world, 0, 6);
      CAPTURE(round);
      REQUIRE(marks.count() <= 6);
      const double least = world.grid(0).min_multiplier();
      for (int k = 0; k < marks.count(); ++k) {
        const std::uint32_t at = marks.landmarks()[k];
        REQUIRE(tree.leaf(at).passable());
        CHECK(marks.cost(k, at) == 0.0f);
        for (int j = 0; j < k; ++j) CHECK(marks.landmarks()[j] != at);
        const Vec2 from = tree.leaf_center(at);
        for (std::uint32_t id = 0; id < tree.leaf_slots(); ++id) {
          if (!tree.has_leaf(id)) continue;
          const float c = marks.cost(k, id);
          const bool same = tree.leaf(id).passable() && map.links().region(id) == map.links().region(at);
          CHECK((c < std::numeric_limits<float>::infinity()) == same);
          if (!same) continue;
          // A real path from the landmark's centre to the leaf's entry point.
          CHECK(double(c) >= least * box_distance(from, tree.leaf_box(id)) * (1 - 1e-6) - 1e-4);
          ++checked;
        }
      }
    }
    CHECK(checked > 5000);
  }

  TEST_CASE("farthest first: the second landmark is the leaf farthest from the first") {
    // A U-shaped corridor: the two ends are far apart by way of the bend.
    const PlanningWorld world(test::ascii_scenario({
        "..........",
        ".########.",
        ".########.",
        ".########.",
        ".########.",
    }));
    const QuadLandmarks& marks = QuadLandmarks::of(world, 0, 2);
    REQUIRE(marks.count() == 2);
    for (int k = 0; k < 2; ++k) {
      float far = 0;
      std::uint32_t at = 0;
      const Quadtree& tree = QuadtreeMap::of(world, 0).tree();
      for (std::uint32_t id = 0; id < tree.leaf_slots(); ++id) {
        const float c = marks.cost(1 - k, id);
        if (tree.has_leaf(id) && c < std::numeric_limits<float>::infinity() && c > far) far = c, at = id;
      }
      // Each is the other's farthest leaf: the two bottom ends of the U.
      CHECK(marks.landmarks()[k] == at);
      CHECK(tree.leaf(at).y == 4);
    }
  }

  TEST_CASE("the estimate: the largest difference less slack and margin, none from unreached landmarks") {
    const float inf = std::numeric_limits<float>::infinity();
    const float a[3] = {10, 50, inf}, b[3] = {30, 5, 7};
    // |10 - 30| - 1 - 0.1 * 30 = 16; |50 - 5| - 1 - 0.1 * 50 = 39; the third reaches one only.
    CHECK(QuadLandmarks::bound(a, b, 1.0, 0.1) == doctest::Approx(39));
    CHECK(QuadLandmarks::bound(a, b, 100.0, 0.0) == 0.0);
    CHECK(QuadLandmarks::bound({}, {}, 0.0, 0.0) == 0.0);
  }

  TEST_CASE("corner costs: the shortest paths of the corner graph, as a brute-force reference finds them") {
    std::mt19937_64 rng(4242);
    int checked = 0;
    for (int round = 0; round < 12; ++round) {
      const int w = 6 + int(rng() % 20), h = 6 + int(rng() % 20);
      const auto rows = round % 2 ? test::random_rows(rng, w, h, 0.25, true)
                                  : test::block_rows(rng, w, h, 2 + int(rng() % 8), 1 + int(rng() % 6), true);
      const PlanningWorld world(test::ascii_scenario(rows));
      const QuadtreeMap& map = QuadtreeMap::of(world, 0);
      const Quadtree& tree = map.tree();
      const QuadLandmarks& marks = QuadLandmarks::of(world, 0, 3);
      CAPTURE(round);
      for (int k = 0; k < marks.count(); ++k) {
        const std::vector<double> ref = reference_corner_costs(map, marks.landmarks()[k]);
        for (std::uint32_t id = 0; id < tree.leaf_slots(); ++id) {
          if (!tree.has_leaf(id)) continue;
          const double c = marks.corner_costs(id)[k];
          CAPTURE(id);
          if (!(ref[id] < std::numeric_limits<double>::infinity())) {
            CHECK_FALSE(c < std::numeric_limits<double>::infinity());
            continue;
          }
          CHECK(c == doctest::Approx(ref[id]).epsilon(1e-5));
          // The entry is a point of the leaf's square (its centre at the landmark).
          const QuadLandmarks::EntryPoint e = marks.corner_entries(id)[k];
          const Box2 box = tree.leaf_box(id);
          CHECK(box_distance(Vec2{e.x, e.y}, box) == 0.0);
          ++checked;
        }
      }
    }
    CHECK(checked > 1000);
  }

  TEST_CASE("the corner estimate never exceeds the octile distance between two cells on random maps") {
    // Octile paths are paths the corner graph's straight segments can follow or shorten,
    // so the estimate, though not a proven bound, stays below them.
    std::mt19937_64 rng(977);
    int checked = 0, useful = 0;
    double worst = 0;
    for (int round = 0; round < 30; ++round) {
      const int w = 12 + int(rng() % 40), h = 12 + int(rng() % 40);
      const auto rows = round % 2
                            ? test::random_rows(rng, w, h, 0.2, false)
                            : test::block_rows(rng, w, h, 4 + int(rng() % 14), 1 + int(rng() % 8), false);
      const PlanningWorld world(test::ascii_scenario(rows));
      const Quadtree& tree = QuadtreeMap::of(world, 0).tree();
      const QuadLandmarks& marks = QuadLandmarks::of(world, 0, 8);
      const double s = tree.cell_size();
      CAPTURE(round);
      for (int q = 0; q < 20; ++q) {
        const int from = int(rng() % unsigned(w * h)), to = int(rng() % unsigned(w * h));
        if (rows[from / w][from % w] != '.' || rows[to / w][to % w] != '.') continue;
        const double octile = octile_distances(rows, from)[to] * s;
        if (!(octile < std::numeric_limits<double>::infinity())) continue;
        const Vec2 p{(from % w + 0.5) * s, (from / w + 0.5) * s}, g{(to % w + 0.5) * s, (to / w + 0.5) * s};
        const std::uint32_t pl = tree.leaf_at(p), gl = tree.leaf_at(g);
        if (pl == gl) continue;
        std::vector<double> excess;
        for (const QuadLandmarks::EntryPoint& e : marks.corner_entries(gl)) {
          excess.push_back(std::hypot((g - Vec2{e.x, e.y}).x, (g - Vec2{e.x, e.y}).y) *
                           tree.leaf(gl).multiplier);
        }
        const double diagonal = std::sqrt(2.0) * tree.leaf(pl).size * s * tree.leaf(pl).multiplier;
        const double est =
            QuadLandmarks::corner_bound(marks.corner_costs(pl), diagonal, marks.corner_costs(gl), excess);
        CAPTURE(octile);
        CHECK(est <= octile + 1e-6);
        worst = std::max(worst, est / octile);
        useful += est > 0.5 * octile;
        ++checked;
      }
    }
    MESSAGE("worst estimate / octile distance: " << worst);
    CHECK(checked > 200);
    CHECK(useful > checked / 4);  // and is no trivial bound
  }

  TEST_CASE("the corner estimate: the farther side's cost less the other side's slack") {
    const float inf = std::numeric_limits<float>::infinity();
    const float a[3] = {50, 10, inf}, goal[3] = {20, 40, 7};
    const double excess[3] = {2, 100, 0};
    // Landmark 0: the leaf is farther: 50 - 20 - 2 = 28. Landmark 1: the goal is: 40 - 10 -
    // 5 = 25. The third reaches the goal only.
    CHECK(QuadLandmarks::corner_bound(a, 5.0, goal, excess) == doctest::Approx(28));
    const double far[3] = {40, 100, 0};
    CHECK(QuadLandmarks::corner_bound(a, 5.0, goal, far) == doctest::Approx(25));
    CHECK(QuadLandmarks::corner_bound(a, 40.0, goal, far) == 0.0);
  }

}  // TEST_SUITE
