// Quadtree decomposition and neighbour graph: leaves tile the map exactly with the
// grid's costs, no mergeable siblings remain, links are exactly the touching pairs (brute
// force), and regions agree with the grid's.

#include <doctest/doctest.h>

#include <map>
#include <random>
#include <set>
#include <tuple>

#include "planner/quadtree/quadtree_map.hpp"
#include "planner/world/planning_world.hpp"
#include "tests/planner/quadtree/quadtree_test_support.hpp"
#include "tests/test_maps.hpp"

using namespace pathscope;

namespace {

// Random maps of many shapes: square, wide, tall, tiny, not powers of two.
std::vector<std::string> random_map(std::mt19937_64& rng, int round) {
  const int w = 1 + int(rng() % 40), h = 1 + int(rng() % 40);
  if (round % 3 == 0) return test::random_rows(rng, w, h, 0.15, true);
  return test::block_rows(rng, w, h, 1 + int(rng() % 12), 1 + int(rng() % 12), round % 2 == 0);
}

// Checks the tiling: every cell in exactly one leaf, whose cost is the cell's; the
// leaves' areas add up to the map's.
void check_tiling(const Quadtree& tree, const CostGrid& grid) {
  std::vector<int> cover(grid.cell_count(), 0);
  long area = 0;
  std::size_t leaves = 0;
  for (std::uint32_t id = 0; id < tree.leaf_slots(); ++id) {
    if (!tree.has_leaf(id)) continue;  // a free slot (after updates)
    ++leaves;
    const QuadLeaf& l = tree.leaf(id);
    REQUIRE(l.size >= 1);
    CHECK(tree.leaf_at_corner(tree.corner(id)) == id);
    CHECK((l.size & (l.size - 1)) == 0);
    CHECK(l.x % l.size == 0);
    CHECK(l.y % l.size == 0);
    REQUIRE(l.x + l.size <= grid.width());
    REQUIRE(l.y + l.size <= grid.height());
    area += long(l.size) * l.size;
    for (int y = l.y; y < l.y + l.size; ++y) {
      for (int x = l.x; x < l.x + l.size; ++x) {
        const std::uint32_t c = grid.index(x, y);
        ++cover[c];
        CHECK(grid.multiplier(c) == l.multiplier);
        CHECK(grid.move_key(c) == l.key);
        CHECK(tree.leaf_at_cell(x, y) == id);
      }
    }
  }
  CHECK(area == long(grid.cell_count()));
  CHECK(leaves == tree.leaf_count());
  for (const int n : cover) CHECK(n == 1);
}

// No inner node has four leaf children of equal cost, and every inner node is needed
// (its square is not uniform).
void check_simplified(const Quadtree& tree) {
  for (const Quadtree::Inner& n : tree.nodes()) {
    bool all_leaves = true;
    for (const Quadtree::Ref r : n.child)
      all_leaves = all_leaves && r != Quadtree::kNoLeaf && (r & Quadtree::kLeafBit);
    if (!all_leaves) continue;
    const QuadLeaf& a = tree.leaf(n.child[0] & ~Quadtree::kLeafBit);
    bool equal = true;
    for (const Quadtree::Ref r : n.child) {
      const QuadLeaf& b = tree.leaf(r & ~Quadtree::kLeafBit);
      equal = equal && b.multiplier == a.multiplier && b.key == a.key;
    }
    CHECK_FALSE(equal);
  }
}

using LinkKey = std::tuple<std::uint32_t, std::uint32_t, int, int, int, int, bool>;

// Brute force: every ordered pair of leaves whose squares share an edge of positive
// length, with the link the rules give it.
std::set<LinkKey> expected_links(const Quadtree& tree) {
  std::set<LinkKey> out;
  const std::size_t n = tree.leaf_count();
  for (std::uint32_t i = 0; i < n; ++i) {
    for (std::uint32_t j = 0; j < n; ++j) {
      if (i == j) continue;
      const QuadLeaf& a = tree.leaf(i);
      const QuadLeaf& b = tree.leaf(j);
      int ax = 0, ay = 0, bx = 0, by = 0;
      bool touch = false;
      if (a.x + a.size == b.x || b.x + b.size == a.x) {
        const int line = a.x + a.size == b.x ? b.x : a.x;
        const int lo = std::max(a.y, b.y), hi = std::min(a.y + a.size, b.y + b.size);
        if (lo < hi) touch = true, ax = line, ay = lo, bx = line, by = hi;
      }
      if (a.y + a.size == b.y || b.y + b.size == a.y) {
        const int line = a.y + a.size == b.y ? b.y : a.y;
        const int lo = std::max(a.x, b.x), hi = std::min(a.x + a.size, b.x + b.size);
        if (lo < hi) touch = true, ax = lo, ay = line, bx = hi, by = line;
      }
      if (!touch || !b.passable()) continue;
      if (a.passable() && a.key != b.key) continue;
      out.insert({i, j, ax, ay, bx, by, !a.passable()});
    }
  }
  return out;
}

}  // namespace

TEST_SUITE("quadtree") {
  TEST_CASE("an open map is one leaf, the padded root is the next power of two") {
    const PlanningWorld world(test::ascii_scenario({"........", "........", "........", "........"}));
    const Quadtree tree(world.grid(0));
    CHECK(tree.root_size() == 8);
    // 8 x 4 cells: two 4 x 4 leaves, the lower half of the root is outside the map.
    REQUIRE(tree.leaf_count() == 2);
    CHECK(tree.leaf(0).size == 4);
    CHECK(tree.leaf(1).size == 4);
    CHECK(tree.leaf_at(Vec2{7.5, 3.5}) == tree.leaf_at_cell(7, 3));
    CHECK(tree.leaf_at(Vec2{7.5, 4.5}) == Quadtree::kNoLeaf);
    CHECK(tree.leaf_at(Vec2{-0.5, 1}) == Quadtree::kNoLeaf);

    const PlanningWorld square(test::ascii_scenario({"....", "....", "....", "...."}));
    const Quadtree one(square.grid(0));
    REQUIRE(one.leaf_count() == 1);
    CHECK(one.leaf(0).size == 4);
    CHECK(one.leaf_box(0) == Box2{{0, 0}, {4, 4}});
  }

  TEST_CASE("one wall cell splits its quarter down to the resolution") {
    const PlanningWorld world(test::ascii_scenario({"....", ".#..", "....", "...."}));
    const Quadtree tree(world.grid(0));
    // NW quarter: four 1-cell leaves (one a wall); three 2 x 2 quarters.
    CHECK(tree.leaf_count() == 7);
    check_tiling(tree, world.grid(0));
    check_simplified(tree);
    const QuadLeaf& wall = tree.leaf(tree.leaf_at_cell(1, 1));
    CHECK(wall.size == 1);
    CHECK_FALSE(wall.passable());
  }

  TEST_CASE("same speed, different groups: land and water stay apart") {
    const PlanningWorld world(test::ascii_scenario({"..ww", "..ww", "..ww", "..ww"}));
    const Quadtree tree(world.grid(0));
    check_tiling(tree, world.grid(0));
    const QuadLinks links(tree);
    CHECK(links.link_count() == 4);  // land to land and water to water, both ways
    for (std::uint32_t i = 0; i < tree.leaf_count(); ++i) {
      for (const QuadLink& l : links.out(i)) CHECK(tree.leaf(l.to).key == tree.leaf(i).key);
    }
    CHECK(links.region_count() == 2);
  }

  TEST_CASE("leaves tile random maps exactly and no mergeable siblings remain") {
    std::mt19937_64 rng(17);
    for (int round = 0; round < 150; ++round) {
      const PlanningWorld world(test::ascii_scenario(random_map(rng, round)));
      const Quadtree tree(world.grid(0));
      CAPTURE(round);
      check_tiling(tree, world.grid(0));
      check_simplified(tree);
      CHECK(tree.root_size() >= std::max(world.grid(0).width(), world.grid(0).height()));
      CHECK(tree.root_size() < 2 * std::max(world.grid(0).width(), world.grid(0).height()));
    }
  }

  TEST_CASE("neighbour links are exactly the touching pairs, out of obstacles, never into them") {
    std::mt19937_64 rng(29);
    for (int round = 0; round < 120; ++round) {
      const PlanningWorld world(test::ascii_scenario(random_map(rng, round)));
      const Quadtree tree(world.grid(0));
      const QuadLinks links(tree);
      CAPTURE(round);
      std::set<LinkKey> got;
      std::size_t one_way = 0;
      for (std::uint32_t i = 0; i < tree.leaf_count(); ++i) {
        std::uint32_t previous = 0;
        bool first = true;
        for (const QuadLink& l : links.out(i)) {
          CHECK((first || tree.corner(l.to) > previous));  // sorted by the target's corner, each target once
          first = false;
          previous = tree.corner(l.to);
          CHECK(l.to_corner == tree.corner(l.to));
          CHECK(tree.leaf(l.to).passable());
          CHECK(l.one_way == !tree.leaf(i).passable());
          one_way += l.one_way;
          got.insert({i, l.to, l.a.x, l.a.y, l.b.x, l.b.y, l.one_way});
          CHECK(links.find(i, l.to) == &l);
        }
      }
      CHECK(got == expected_links(tree));
      CHECK(got.size() == links.link_count());
      CHECK(one_way == links.one_way_count());
    }
  }

  TEST_CASE("regions of leaves are the grid's regions") {
    std::mt19937_64 rng(31);
    for (int round = 0; round < 100; ++round) {
      const PlanningWorld world(test::ascii_scenario(random_map(rng, round)));
      const CostGrid& grid = world.grid(0);
      const Quadtree tree(grid);
      const QuadLinks links(tree);
      const RegionMap& regions = world.regions(0);
      CAPTURE(round);
      CHECK(links.region_count() == regions.region_count());
      std::map<std::uint32_t, std::uint32_t> grid_to_tree, tree_to_grid;
      for (std::uint32_t c = 0; c < grid.cell_count(); ++c) {
        const glm::ivec2 xy = grid.cell(c);
        const std::uint32_t r = links.region(tree.leaf_at_cell(xy.x, xy.y));
        if (!grid.passable(c)) {
          CHECK(r == QuadLinks::kNoRegion);
          continue;
        }
        const std::uint32_t g = regions.region(c);
        CHECK(grid_to_tree.emplace(g, r).first->second == r);
        CHECK(tree_to_grid.emplace(r, g).first->second == g);
      }
    }
  }

  TEST_CASE("the world caches one map per class and updates it in place when cells change") {
    std::mt19937_64 rng(3);
    Scenario s = test::ascii_scenario(test::block_rows(rng, 20, 12, 5, 6, true));
    PlanningWorld world(s);
    const QuadtreeMap& a = QuadtreeMap::of(world, 0);
    CHECK(&QuadtreeMap::of(world, 0) == &a);
    CHECK(world.derived_count() == 1);
    CHECK(a.memory_bytes() > 0);
    s.tiles->terrain[0] = s.tiles->terrain[0] == 1 ? 0 : 1;
    const WorldChange change = world.update(s).value();
    REQUIRE_FALSE(change.cells.empty());
    CHECK(world.derived_count() == 1);
    const QuadtreeMap& b = QuadtreeMap::of(world, 0);
    CHECK(&b == &a);
    check_tiling(b.tree(), world.grid(0));
  }

}  // TEST_SUITE
