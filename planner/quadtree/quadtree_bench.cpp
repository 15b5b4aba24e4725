// The figures of `pathscope bench quadtree` that need the family's internals.
//
// Build: the class's tree and links built from its cost grid (Quadtree, QuadLinks) and
// seed 000's own construction by region insertion (region_insertion.hpp), each the
// fastest of the runs; region insertion must give the bottom-up build's leaves, compared
// leaf by leaf (square, multiplier and move key).
//
// Update: a tree and links kept up to date (Quadtree::update, QuadLinks::update_links,
// QuadLinks::update_regions) against a tree and links built from scratch after each
// world update. Leaf ids differ between the two, so the comparison names leaves by their
// corner (Quadtree::corner), links by their targets' corners, and regions by a
// one-to-one map between the two labellings.

#include "planner/quadtree/quadtree_bench.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>
#include <unordered_map>
#include <vector>

#include "planner/quadtree/quadtree.hpp"
#include "planner/quadtree/quadtree_links.hpp"
#include "planner/quadtree/quadtree_map.hpp"
#include "planner/quadtree/region_insertion.hpp"
#include "planner/scenario/scenario.hpp"
#include "planner/world/planning_world.hpp"

namespace pathscope {
namespace {

double ms_between(std::uint64_t t0, std::uint64_t t1) { return double(t1 - t0) / 1e6; }

// The median of `v` (the upper one of an even count); 0 when empty.
double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(v.size() / 2), v.end());
  return v[v.size() / 2];
}

// True if `tree` and `links`, kept up to date, equal `fresh` and `fresh_links`, built
// from the same grid: the same leaves (matched by corner), the same links out of each
// (by their targets' corners) and the same regions as a partition.
bool same_structure(const Quadtree& tree, const QuadLinks& links, const Quadtree& fresh,
                    const QuadLinks& fresh_links) {
  if (fresh.leaf_count() != tree.leaf_count() || fresh_links.link_count() != links.link_count() ||
      fresh_links.region_count() != links.region_count())
    return false;
  // Labels may differ: the partitions are equal when the labels map one to one.
  std::unordered_map<std::uint32_t, std::uint32_t> to_updated, to_fresh;
  for (std::uint32_t i = 0; i < fresh.leaf_slots(); ++i) {
    const std::uint32_t j = tree.leaf_at_corner(fresh.corner(i));
    if (j == Quadtree::kNoLeaf) return false;
    const QuadLeaf& a = fresh.leaf(i);
    const QuadLeaf& b = tree.leaf(j);
    const auto fo = fresh_links.out(i), uo = links.out(j);
    bool same = a.x == b.x && a.y == b.y && a.size == b.size && a.multiplier == b.multiplier &&
                a.key == b.key && fo.size() == uo.size();
    for (std::size_t k = 0; same && k < fo.size(); ++k) {
      same = fresh.corner(fo[k].to) == tree.corner(uo[k].to) && fo[k].a == uo[k].a && fo[k].b == uo[k].b &&
             fo[k].one_way == uo[k].one_way;
    }
    const std::uint32_t rf = fresh_links.region(i), ru = links.region(j);
    same = same && (rf == QuadLinks::kNoRegion) == (ru == QuadLinks::kNoRegion) &&
           to_updated.emplace(rf, ru).first->second == ru && to_fresh.emplace(ru, rf).first->second == rf;
    if (!same) return false;
  }
  return true;
}

}  // namespace

QuadtreeBuildFigures measure_quadtree_build(const PlanningWorld& world, std::size_t movement_class,
                                            int repeat, const BenchClock& clock) {
  const CostGrid& grid = world.grid(movement_class);
  QuadtreeBuildFigures f;
  for (int i = 0; i < repeat; ++i) {
    const std::uint64_t t0 = clock();
    const Quadtree tree(grid);
    const std::uint64_t t1 = clock();
    const QuadLinks links(tree);
    const std::uint64_t t2 = clock();
    const double t = ms_between(t0, t1), l = ms_between(t1, t2);
    if (i == 0 || t + l < f.tree_ms + f.links_ms) f.tree_ms = t, f.links_ms = l;
  }
  const QuadtreeMap& map = QuadtreeMap::of(world, movement_class);
  f.leaves = map.tree().leaf_count();
  f.cells = grid.cell_count();
  f.links = map.links().link_count();
  f.one_way_links = map.links().one_way_count();
  f.regions = map.links().region_count();

  RegionInsertionStats stats;
  std::vector<QuadLeaf> inserted;
  for (int i = 0; i < repeat; ++i) {
    const std::uint64_t t0 = clock();
    inserted = build_by_region_insertion(world.scenario(), grid, &stats);
    const double t = ms_between(t0, clock());
    if (i == 0 || t < f.insertion_ms) f.insertion_ms = t;
  }
  f.insertion_regions = stats.regions;
  f.insertion_splits = stats.splits;
  f.insertion_cell_decisions = stats.cell_decisions;
  f.insertion_merges = stats.merges;
  bool same = inserted.size() == f.leaves;
  for (const QuadLeaf& l : inserted) {
    if (!same) break;
    const std::uint32_t id = map.tree().leaf_at_cell(l.x, l.y);
    const QuadLeaf& b = map.tree().leaf(id);
    same = id != Quadtree::kNoLeaf && b.x == l.x && b.y == l.y && b.size == l.size &&
           b.multiplier == l.multiplier && b.key == l.key;
  }
  f.insertion_same = same;
  return f;
}

QuadtreeUpdateFigures time_quadtree_update(const Scenario& scenario, int places, const BenchClock& clock) {
  QuadtreeUpdateFigures f;
  Scenario s = scenario;
  std::size_t wall = s.terrains.size();
  for (std::size_t t = 0; t < s.terrains.size() && wall == s.terrains.size(); ++t) {
    if (!s.terrains[t].cost[0]) wall = t;
  }
  if (wall == s.terrains.size()) return f;
  PlanningWorld world(s);
  const CostGrid& grid = world.grid(0);
  const double cells = double(grid.cell_count());
  const double radius = std::sqrt(0.01 * cells / std::numbers::pi) * s.world.cell_size;
  Quadtree tree(grid);
  QuadLinks links(tree);
  std::mt19937_64 rng(s.seed);
  std::uniform_real_distribution<double> ux(radius, s.world.width - radius),
      uy(radius, s.world.height - radius);
  std::vector<double> tree_ms, links_ms, regions_ms, inc_ms, full_ms, world_ms;
  double changed_cells = 0;
  std::uint32_t next_id = 1;
  for (const Feature& feature : s.features) next_id = std::max(next_id, feature.id + 1);
  for (int e = 0; e < 2 * places; ++e) {
    if (e % 2 == 0) {
      Feature circle;
      circle.id = next_id;
      circle.name = "bench circle";
      circle.terrain = wall;
      circle.shape.kind = ShapeKind::Circle;
      circle.shape.center = Vec2{ux(rng), uy(rng)};
      circle.shape.radius = radius;
      s.features.push_back(circle);
    } else {
      s.features.pop_back();
    }
    const std::uint64_t t0 = clock();
    // No cost overlay here: an update always succeeds.
    const WorldChange change = world.update(s).value();
    world_ms.push_back(ms_between(t0, clock()));
    changed_cells += double(change.cells.width()) * change.cells.height();

    const std::uint64_t t1 = clock();
    const QuadtreeEdit edit = tree.update(grid, change.cells);
    const std::uint64_t t2 = clock();
    links.update_links(tree, edit);
    const std::uint64_t t3 = clock();
    links.update_regions(tree, edit);
    const std::uint64_t t4 = clock();
    const double t_tree = ms_between(t1, t2), t_links = ms_between(t2, t4);
    regions_ms.push_back(ms_between(t3, t4));
    tree_ms.push_back(t_tree);
    links_ms.push_back(t_links);
    inc_ms.push_back(t_tree + t_links);

    const std::uint64_t t5 = clock();
    const Quadtree fresh(grid);
    const QuadLinks fresh_links(fresh);
    full_ms.push_back(ms_between(t5, clock()));
    f.equal = f.equal && same_structure(tree, links, fresh, fresh_links);
  }
  f.timed = true;
  f.width = grid.width();
  f.height = grid.height();
  f.leaves = tree.leaf_count();
  f.wall_terrain = s.terrains[wall].name;
  f.covered_pct = 100.0 * std::numbers::pi * radius * radius / (s.world.width * s.world.height);
  f.updates = 2 * places;
  f.cells_per_update = changed_cells / (2.0 * places);
  f.incremental_ms = median(inc_ms);
  f.tree_ms = median(tree_ms);
  f.links_ms = median(links_ms);
  f.regions_ms = median(regions_ms);
  f.rebuild_ms = median(full_ms);
  f.world_ms = median(world_ms);
  return f;
}

}  // namespace pathscope
