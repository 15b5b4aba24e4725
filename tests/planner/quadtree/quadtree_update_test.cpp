// Incremental quadtree updates: after every edit of the scenario (rectangles and circles
// of random terrain added, moved and removed, tiles painted) the map the world updated
// in place equals one built from scratch: the leaves as a set of (square, cost, group),
// the links as a set of (from square, to square, portal), the tree's shape, leaf for leaf
// by corner with the links in the same order, and regions as a partition (leaf ids and
// region labels of a map kept up to date need not be a fresh build's).

#include <doctest/doctest.h>

#include <map>
#include <random>
#include <set>
#include <tuple>

#include "planner/quadtree/quadtree_map.hpp"
#include "planner/quadtree/quadtree_planner.hpp"
#include "planner/scenario/feature_motion.hpp"
#include "planner/world/planning_world.hpp"
#include "tests/planner/quadtree/quadtree_test_support.hpp"
#include "tests/test_maps.hpp"

using namespace pathscope;

namespace {

// Two classes, the second amphibious with other costs, so that groups and costs differ.
Scenario base_scenario(std::mt19937_64& rng, int w, int h) {
  Scenario s = test::ascii_scenario(test::block_rows(rng, w, h, 6, 10, true));
  s.classes.push_back(MovementClass{.name = "hover", .radius = 0.4, .speed = 1.0, .amphibious = true});
  for (TerrainType& t : s.terrains)
    t.cost.push_back(t.cost[0] ? std::optional<double>(*t.cost[0] * 0.5 + 0.25) : std::nullopt);
  return s;
}

// One random edit: a rectangle or circle of random terrain added, a feature moved or
// removed, or a square of tiles painted.
void random_edit(std::mt19937_64& rng, Scenario& s) {
  std::uniform_real_distribution<double> ux(0, s.world.width), uy(0, s.world.height), size(0.5, 9.0);
  const std::size_t terrain = rng() % s.terrains.size();
  const Vec2 p{ux(rng), uy(rng)};
  switch (rng() % 6) {
    case 0:
    case 1: {
      Feature f;
      f.terrain = terrain;
      f.shape.kind = ShapeKind::Rect;
      f.shape.min = p;
      f.shape.max = p + Vec2(size(rng), size(rng));
      s.features.push_back(f);
      break;
    }
    case 2: {
      Feature f;
      f.terrain = terrain;
      f.shape.kind = ShapeKind::Circle;
      f.shape.center = p;
      f.shape.radius = size(rng) * 0.6;
      s.features.push_back(f);
      break;
    }
    case 3:
      if (!s.features.empty())
        s.features.erase(s.features.begin() + std::ptrdiff_t(rng() % s.features.size()));
      break;
    case 4:
      if (!s.features.empty()) {
        Feature& f = s.features[rng() % s.features.size()];
        const Vec2 d{size(rng) - 4.5, size(rng) - 4.5};
        f.shape.min += d;
        f.shape.max += d;
        f.shape.center += d;
      }
      break;
    default: {
      TileGrid& t = *s.tiles;
      const int r = int(size(rng) * 0.5);
      for (int y = int(p.y) - r; y <= int(p.y) + r; ++y) {
        for (int x = int(p.x) - r; x <= int(p.x) + r; ++x) {
          if (x >= 0 && y >= 0 && x < t.width && y < t.height)
            t.terrain[std::size_t(y * t.width + x)] = std::uint8_t(terrain);
        }
      }
      break;
    }
  }
}

using LeafKey = std::tuple<int, int, int, double, std::uint16_t>;  // x, y, size, cost, group (move key)
// from x, y, size; to x, y, size; portal ends; one way
using LinkTuple = std::tuple<int, int, int, int, int, int, int, int, int, int, bool>;

std::set<LeafKey> leaf_set(const Quadtree& t) {
  std::set<LeafKey> out;
  for (std::uint32_t i = 0; i < t.leaf_slots(); ++i) {
    if (!t.has_leaf(i)) continue;
    const QuadLeaf& l = t.leaf(i);
    out.emplace(l.x, l.y, l.size, l.multiplier, l.key);
  }
  return out;
}

std::set<LinkTuple> link_set(const Quadtree& t, const QuadLinks& links) {
  std::set<LinkTuple> out;
  for (std::uint32_t i = 0; i < t.leaf_slots(); ++i) {
    if (!t.has_leaf(i)) {
      REQUIRE(links.out(i).empty());  // a free slot has no links
      continue;
    }
    const QuadLeaf& a = t.leaf(i);
    for (const QuadLink& l : links.out(i)) {
      REQUIRE(t.has_leaf(l.to));
      const QuadLeaf& b = t.leaf(l.to);
      out.emplace(a.x, a.y, a.size, b.x, b.y, b.size, l.a.x, l.a.y, l.b.x, l.b.y, l.one_way);
    }
  }
  return out;
}

// The shape of the tree (inner nodes and leaves, quarter by quarter) and the squares of
// its leaves, written out in tree order: equal for two trees exactly when their
// structures are, whatever their ids. Counts the leaves and inner nodes reached.
void shape_of(const Quadtree& t, Quadtree::Ref ref, std::vector<int>& out, std::size_t& leaves,
              std::size_t& inner) {
  if (ref == Quadtree::kNoLeaf) {
    out.push_back(-1);
  } else if (ref & Quadtree::kLeafBit) {
    const QuadLeaf& l = t.leaf(ref & ~Quadtree::kLeafBit);
    REQUIRE(t.has_leaf(ref & ~Quadtree::kLeafBit));
    out.insert(out.end(), {-2, l.x, l.y, l.size});
    ++leaves;
  } else {
    out.push_back(-3);
    ++inner;
    for (const Quadtree::Ref c : t.nodes()[ref].child) shape_of(t, c, out, leaves, inner);
  }
}

// The updated map equals a fresh build: as sets; then the tree's shape; then leaf for
// leaf, matched by corner (ids differ), the links in the same order with targets at the
// same corners; the slots and the corner table consistent with the leaves in the tree;
// and regions the same partition.
void check_equal(const QuadtreeMap& updated, const CostGrid& grid) {
  const Quadtree fresh(grid);
  const QuadLinks fresh_links(fresh);
  const Quadtree& t = updated.tree();
  const QuadLinks& l = updated.links();
  REQUIRE(leaf_set(t) == leaf_set(fresh));
  REQUIRE(link_set(t, l) == link_set(fresh, fresh_links));
  REQUIRE(t.leaf_count() == fresh.leaf_count());
  REQUIRE(t.node_count() == fresh.node_count());
  std::vector<int> shape_t, shape_f;
  std::size_t leaves_t = 0, inner_t = 0, leaves_f = 0, inner_f = 0;
  shape_of(t, t.root(), shape_t, leaves_t, inner_t);
  shape_of(fresh, fresh.root(), shape_f, leaves_f, inner_f);
  REQUIRE(shape_t == shape_f);
  // Every leaf in a slot is in the tree, and every slot not in the tree is free.
  CHECK(leaves_t == t.leaf_count());
  CHECK(inner_t == t.node_count());
  std::size_t live = 0;
  for (std::uint32_t i = 0; i < t.leaf_slots(); ++i) live += t.has_leaf(i);
  CHECK(live == t.leaf_count());
  std::size_t free_nodes = 0;
  for (const Quadtree::Inner& n : t.nodes()) free_nodes += n.child[0] == Quadtree::kNoLeaf;
  CHECK(t.nodes().size() - free_nodes == t.node_count());
  // The corner table names exactly the leaves, and so does the fresh one.
  for (std::uint32_t c = 0; c < grid.cell_count(); ++c) {
    const std::uint32_t i = fresh.leaf_at_corner(c), j = t.leaf_at_corner(c);
    REQUIRE((i == Quadtree::kNoLeaf) == (j == Quadtree::kNoLeaf));
    if (i == Quadtree::kNoLeaf) continue;
    REQUIRE(fresh.corner(i) == c);
    REQUIRE(t.corner(j) == c);
    const QuadLeaf& a = t.leaf(j);
    const QuadLeaf& b = fresh.leaf(i);
    REQUIRE(std::tie(a.x, a.y, a.size, a.multiplier, a.key) ==
            std::tie(b.x, b.y, b.size, b.multiplier, b.key));
    const auto la = l.out(j), lb = fresh_links.out(i);
    REQUIRE(la.size() == lb.size());
    for (std::size_t k = 0; k < la.size(); ++k) {
      REQUIRE(t.corner(la[k].to) == fresh.corner(lb[k].to));
      REQUIRE(la[k].to_corner == t.corner(la[k].to));
      REQUIRE(la[k].a == lb[k].a);
      REQUIRE(la[k].b == lb[k].b);
      REQUIRE(la[k].one_way == lb[k].one_way);
    }
  }
  // Regions: the same partition, labels aside (a one-to-one map between them).
  std::map<std::uint32_t, std::uint32_t> to_updated, to_fresh;
  for (std::uint32_t i = 0; i < fresh.leaf_slots(); ++i) {
    const std::uint32_t rf = fresh_links.region(i), ru = l.region(t.leaf_at_corner(fresh.corner(i)));
    REQUIRE((rf == QuadLinks::kNoRegion) == (ru == QuadLinks::kNoRegion));
    REQUIRE(to_updated.emplace(rf, ru).first->second == ru);
    REQUIRE(to_fresh.emplace(ru, rf).first->second == rf);
  }
  for (std::uint32_t i = 0; i < t.leaf_slots(); ++i) {
    if (!t.has_leaf(i)) CHECK(l.region(i) == QuadLinks::kNoRegion);
  }
  CHECK(l.link_count() == fresh_links.link_count());
  CHECK(l.one_way_count() == fresh_links.one_way_count());
  CHECK(l.region_count() == fresh_links.region_count());
}

}  // namespace

TEST_SUITE("quadtree") {
  TEST_CASE("an incrementally updated quadtree and link graph equal a full rebuild, over hundreds of edits") {
    std::mt19937_64 rng(808);
    int edits = 0, changed = 0;
    for (int map = 0; map < 8; ++map) {
      // Squares, powers of two and not, wide and tall.
      const int w = 16 + int(rng() % 49), h = map % 4 == 0 ? w : 16 + int(rng() % 49);
      Scenario s = base_scenario(rng, w, h);
      PlanningWorld world(s);
      const QuadtreeMap* maps[2] = {&QuadtreeMap::of(world, 0), &QuadtreeMap::of(world, 1)};
      for (int edit = 0; edit < 50; ++edit) {
        random_edit(rng, s);
        const WorldChange change = world.update(s).value();
        REQUIRE_FALSE(change.rebuilt);
        ++edits;
        changed += !change.cells.empty();
        for (std::size_t c = 0; c < 2; ++c) {
          // Updated in place, never dropped and made again.
          REQUIRE(&QuadtreeMap::of(world, c) == maps[c]);
          check_equal(*maps[c], world.grid(c));
        }
      }
    }
    CHECK(edits == 400);
    CHECK(changed > 250);
  }

  TEST_CASE(
      "a planner on a map updated edit by edit answers bit for bit like one on a fresh map, though leaf ids "
      "differ") {
    // Without landmarks and with them (their costs are made again after each edit).
    for (const int marks : {0, 8}) {
      const QuadtreeParams params{.landmarks = marks};
      CAPTURE(marks);
      std::mt19937_64 rng(515);
      Scenario s = base_scenario(rng, 64, 48);
      PlanningWorld world(s);
      QuadtreePlanner kept(world, 0, "quadtree", params);
      int ids_differ = 0, found = 0;
      for (int edit = 0; edit < 120; ++edit) {
        random_edit(rng, s);
        REQUIRE_FALSE(world.update(s).value().rebuilt);
        const PlanningWorld fresh_world(s);
        QuadtreePlanner fresh(fresh_world, 0, "quadtree", params);
        const Quadtree& a = QuadtreeMap::of(world, 0).tree();
        const Quadtree& b = QuadtreeMap::of(fresh_world, 0).tree();
        for (std::uint32_t i = 0; i < b.leaf_slots(); ++i) {
          if (a.leaf_at_corner(b.corner(i)) != i) {
            ++ids_differ;
            break;
          }
        }
        for (int q = 0; q < 4; ++q) {
          std::uniform_real_distribution<double> ux(0, s.world.width), uy(0, s.world.height);
          const PathQuery query{{ux(rng), uy(rng)}, {ux(rng), uy(rng)}};
          const PathResult r1 = find_path(kept, query);
          const PathResult r2 = find_path(fresh, query);
          CAPTURE(edit);
          REQUIRE(r1.status == r2.status);
          found += r1.status == SearchStatus::Found;
          CHECK(r1.nodes == r2.nodes);
          CHECK(r1.points == r2.points);
          CHECK(r1.cost == r2.cost);
          CHECK(r1.length == r2.length);
          CHECK(r1.stats.expansions == r2.stats.expansions);
          CHECK(r1.stats.pushes == r2.stats.pushes);
          CHECK(r1.stats.relaxations == r2.stats.relaxations);
          CHECK(r1.message == r2.message);
        }
      }
      CHECK(ids_differ > 60);  // the ids did part from a fresh build's
      CHECK(found > 100);
    }
  }

  TEST_CASE("features moving with a velocity: the map updated at every step equals a rebuild") {
    std::mt19937_64 rng(4242);
    Scenario s = base_scenario(rng, 48, 40);
    // A drifting asteroid disc (impassable), a slow nebula rectangle and a wall polygon,
    // fast enough to bounce off every edge within the run.
    Feature disc;
    disc.id = 1;
    disc.terrain = 1;
    disc.shape.kind = ShapeKind::Circle;
    disc.shape.center = {12, 10};
    disc.shape.radius = 4.5;
    disc.velocity = {31, 17};
    Feature nebula;
    nebula.id = 2;
    nebula.terrain = 3;  // swamp: slow, passable
    nebula.shape.kind = ShapeKind::Rect;
    nebula.shape.min = {20, 20};
    nebula.shape.max = {29, 26};
    nebula.velocity = {-13, 22};
    Feature wall;
    wall.id = 3;
    wall.terrain = 1;
    wall.shape.kind = ShapeKind::Polygon;
    wall.shape.points = {{30, 5}, {38, 8}, {33, 12}};
    wall.velocity = {9, -27};
    s.features = {disc, nebula, wall};
    PlanningWorld world(s);
    const QuadtreeMap* maps[2] = {&QuadtreeMap::of(world, 0), &QuadtreeMap::of(world, 1)};
    int changed = 0;
    for (int step = 0; step < 150; ++step) {
      CAPTURE(step);
      REQUIRE(advance_features(s, kFeatureMotionStep) == 3);
      const WorldChange change = world.update(s).value();
      REQUIRE_FALSE(change.rebuilt);
      changed += !change.cells.empty();
      for (std::size_t c = 0; c < 2; ++c) {
        REQUIRE(&QuadtreeMap::of(world, c) == maps[c]);
        check_equal(*maps[c], world.grid(c));
      }
    }
    CHECK(changed > 100);
  }

  TEST_CASE("regions kept up to date: walls that cut the map, pockets opened and closed, cuts joined again") {
    // 96 x 64 open cells; each edit paints a wall (or ground) column or pocket and the
    // regions must be the partition a fresh build finds, with the count it finds.
    std::vector<std::string> rows(64, std::string(96, '.'));
    for (int y = 20; y < 30; ++y)
      rows[std::size_t(y)].replace(40, 10, "##########");  // a block to open a pocket in
    Scenario s = test::ascii_scenario(rows);
    PlanningWorld world(s);
    const QuadtreeMap& map = QuadtreeMap::of(world, 0);
    auto paint = [&](int x0, int y0, int x1, int y1, std::uint8_t terrain) {
      for (int y = y0; y < y1; ++y) {
        for (int x = x0; x < x1; ++x) s.tiles->terrain[std::size_t(y * 96 + x)] = terrain;
      }
      REQUIRE_FALSE(world.update(s).value().rebuilt);
      check_equal(map, world.grid(0));
    };
    CHECK(map.links().region_count() == 1);
    paint(70, 0, 71, 64, 1);  // a wall from top to bottom: a thin strip cut off on the right
    CHECK(map.links().region_count() == 2);
    paint(20, 0, 21, 64, 1);  // another: three parts
    CHECK(map.links().region_count() == 3);
    paint(43, 23, 47, 27, 0);  // a pocket opened inside the block: a region of its own
    CHECK(map.links().region_count() == 4);
    paint(44, 24, 46, 26, 1);  // a pillar inside the pocket: still one region there
    CHECK(map.links().region_count() == 4);
    paint(45, 20, 46, 23, 0);  // a tunnel from the pocket to the middle part
    CHECK(map.links().region_count() == 3);
    paint(70, 30, 71, 31, 0);  // a gap in the right wall joins the strip
    CHECK(map.links().region_count() == 2);
    // A wall across the whole map cuts the left part, the middle one (which holds the
    // pocket and, through the gap above, the strip's top) and the strip's bottom off.
    paint(0, 32, 96, 33, 1);
    CHECK(map.links().region_count() == 5);
    paint(0, 32, 20, 33, 0);  // taken away again, but not where the two walls cross it
    paint(21, 32, 70, 33, 0);
    paint(71, 32, 96, 33, 0);
    CHECK(map.links().region_count() == 2);
    paint(20, 0, 21, 64, 0);
    CHECK(map.links().region_count() == 1);
    paint(70, 30, 71, 31, 1);
    CHECK(map.links().region_count() == 2);
    const Quadtree& t = map.tree();
    const std::uint32_t left = t.leaf_at_cell(5, 5), right = t.leaf_at_cell(90, 5);
    CHECK(map.links().region(left) != map.links().region(right));
    CHECK(map.links().region(left) == map.links().region(t.leaf_at_cell(45, 22)));  // the tunnelled pocket
  }

  TEST_CASE("an update that changes one cell keeps every leaf away from it") {
    std::vector<std::string> rows(32, std::string(32, '.'));
    rows[5][7] = '#';
    Scenario s = test::ascii_scenario(rows);
    PlanningWorld world(s);
    Quadtree tree(world.grid(0));
    QuadLinks links(tree);
    const std::size_t before = tree.leaf_count();
    // Wall in cell (20, 20): its 16 x 16 leaf splits into 13 leaves (three each of sides
    // 8, 4, 2 and 1, and the wall's cell).
    s.tiles->terrain[20 * 32 + 20] = 1;
    const WorldChange change = world.update(s).value();
    const std::uint32_t old_leaf = tree.leaf_at_cell(20, 20);
    const std::vector<QuadLeaf> leaves_before = tree.leaves();
    const QuadtreeEdit edit = tree.update(world.grid(0), change.cells);
    links.update(tree, edit);
    CHECK(tree.leaf_count() == before + 12);
    CHECK(edit.added.size() == 13);
    REQUIRE(edit.removed.size() == 1);
    CHECK(edit.removed[0] == old_leaf);
    CHECK_FALSE(tree.has_leaf(old_leaf));
    // Every other leaf kept its id: same slot, same square.
    std::size_t kept = 0;
    for (std::uint32_t id = 0; id < leaves_before.size(); ++id) {
      if (id == old_leaf) continue;
      REQUIRE(tree.has_leaf(id));
      CHECK(tree.leaf(id).rect() == leaves_before[id].rect());
      ++kept;
    }
    CHECK(kept == before - 1);
    check_equal(QuadtreeMap::of(world, 0), world.grid(0));
    // And back: the thirteen leaves merge into one again, which takes the free slot.
    s.tiles->terrain[20 * 32 + 20] = 0;
    const QuadtreeEdit back = tree.update(world.grid(0), world.update(s).value().cells);
    links.update(tree, back);
    CHECK(tree.leaf_count() == before);
    CHECK(back.added.size() == 1);
    CHECK(back.removed.size() == 13);
    CHECK(back.added[0] == old_leaf);
    CHECK(leaf_set(tree) == leaf_set(Quadtree(world.grid(0))));
    const Quadtree fresh(world.grid(0));
    CHECK(link_set(tree, links) == link_set(fresh, QuadLinks(fresh)));
  }

}  // TEST_SUITE
