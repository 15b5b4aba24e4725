// `pathscope bench quadtree [FILE | --movingai PATH]`: the measured figures of the
// quadtree planner (seed 000).
//
// Per map (a scenario, maps/armada.json by default, or each Moving AI map of PATH with
// --queries of its problems spread over the file), and per movement class its queries use:
//   - leaves against the uniform cells at the same resolution, and their ratio (seed 000
//     reports 2,191 leaves against 16,384 cells on Armada's first mission);
//   - links (one-way ones out of impassable leaves), regions, and the build time of the
//     tree and of the links;
//   - per query, quadtree against grid A* on the same query: expansions and time (the
//     fastest of --repeat runs), and the path length after each stage of rubber-banding
//     (cell centres, step 1, step 2) next to A*'s;
//   - the incremental update: the map scaled to --side cells (512 by default: tiles
//     sampled, geometry scaled), a circle of impassable terrain covering about 1% of it
//     added and removed at --edits places; each update of the tree and links (regions
//     included) against a full rebuild from the same grid, medians and their ratio, and
//     whether the updated structure equals the rebuilt one.
// Times are wall-clock and vary from run to run; nothing is checked against a target.

#include <malloc.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <numbers>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "app/cli/bench_support.hpp"
#include "app/cli/cli_commands.hpp"
#include "app/editor/default_scenario.hpp"
#include "planner/core/planner_registry.hpp"
#include "planner/quadtree/quadtree_links.hpp"
#include "planner/quadtree/quadtree_map.hpp"
#include "planner/quadtree/region_insertion.hpp"
#include "planner/scenario/movingai_check.hpp"
#include "planner/scenario/movingai_convert.hpp"
#include "planner/scenario/movingai_parse.hpp"
#include "planner/scenario/scenario_validate.hpp"
#include "planner/world/planning_world.hpp"

namespace pathscope::app {
namespace {

using bench::Clock;
using bench::median;
using bench::ms_since;
using bench::stat;

int fail(const std::string& message) {
  std::fprintf(stderr, "pathscope bench quadtree: %s\n", message.c_str());
  return kExitFailed;
}

// The fastest of `repeat` runs of one query, in microseconds; `out` keeps the result.
double time_query(Planner& planner, const PathQuery& q, int repeat, PathResult& out) {
  double best = 0;
  for (int i = 0; i < repeat; ++i) {
    const Clock::time_point t0 = Clock::now();
    const PathResult& r = find_path(planner, q);
    const double us = ms_since(t0) * 1000.0;
    if (i == 0 || us < best) best = us;
    out = r;
  }
  return best;
}

// The leaves and links of one class: counts and build time (the fastest of `repeat`).
void print_structure(const PlanningWorld& world, std::size_t c, int repeat) {
  const CostGrid& grid = world.grid(c);
  double tree_ms = 0, links_ms = 0;
  for (int i = 0; i < repeat; ++i) {
    const Clock::time_point t0 = Clock::now();
    const Quadtree tree(grid);
    const double t = ms_since(t0);
    const Clock::time_point t1 = Clock::now();
    const QuadLinks links(tree);
    const double l = ms_since(t1);
    if (i == 0 || t + l < tree_ms + links_ms) tree_ms = t, links_ms = l;
  }
  const QuadtreeMap& map = QuadtreeMap::of(world, c);
  const std::size_t leaves = map.tree().leaf_count(), cells = grid.cell_count();
  std::printf("  class %s: leaves %zu, uniform cells %zu, cells per leaf %.2f\n",
              world.scenario().classes[c].name.c_str(), leaves, cells,
              leaves ? double(cells) / double(leaves) : 0.0);
  std::printf(
      "  class %s: links %zu (one-way %zu), regions %u, build %.3f ms (tree %.3f ms, links %.3f ms)\n",
      world.scenario().classes[c].name.c_str(), map.links().link_count(), map.links().one_way_count(),
      map.links().region_count(), tree_ms + links_ms, tree_ms, links_ms);
  // Seed 000's own construction, inserting the scenario's regions top-down: its time, and
  // whether it gives the same leaves.
  double insertion_ms = 0;
  RegionInsertionStats stats;
  std::vector<QuadLeaf> inserted;
  for (int i = 0; i < repeat; ++i) {
    const Clock::time_point t0 = Clock::now();
    inserted = build_by_region_insertion(world.scenario(), grid, &stats);
    const double t = ms_since(t0);
    if (i == 0 || t < insertion_ms) insertion_ms = t;
  }
  bool same = inserted.size() == leaves;
  for (const QuadLeaf& l : inserted) {
    if (!same) break;
    const std::uint32_t id = map.tree().leaf_at_cell(l.x, l.y);
    const QuadLeaf& b = map.tree().leaf(id);
    same = id != Quadtree::kNoLeaf && b.x == l.x && b.y == l.y && b.size == l.size &&
           b.multiplier == l.multiplier && b.key == l.key;
  }
  std::printf(
      "  class %s: region insertion (seed 000's top-down build) %.3f ms: %zu regions, %zu splits, %zu cells "
      "decided one by one, %zu merges; same leaves as the bottom-up build: %s\n",
      world.scenario().classes[c].name.c_str(), insertion_ms, stats.regions, stats.splits,
      stats.cell_decisions, stats.merges, same ? "yes" : "NO");
}

// Quadtree against A* on every query of the scenario.
int print_queries(const PlanningWorld& world, const ParamValues& qt_params, int repeat) {
  const Scenario& s = world.scenario();
  const PlannerInfo* qt_info = find_planner("quadtree");
  const PlannerInfo* astar_info = find_planner("astar");
  if (!qt_info || !astar_info) return fail("the planners quadtree and astar must be registered");
  const auto defaults = [](const PlannerInfo& info) {
    ParamValues v;
    for (const ParamSpec& p : info.params) v.push_back(p.default_value);
    return v;
  };
  std::uint64_t qt_exp = 0, astar_exp = 0;
  double qt_us = 0, astar_us = 0;
  std::size_t found = 0;
  for (std::size_t i = 0; i < s.queries.size(); ++i) {
    const Query& query = s.queries[i];
    const std::unique_ptr<Planner> qt =
        qt_info->create(QueryContext{world, query.movement_class, std::nullopt, qt_params});
    const std::unique_ptr<Planner> astar =
        astar_info->create(QueryContext{world, query.movement_class, std::nullopt, defaults(*astar_info)});
    const PathQuery q{query.start, query.goal};
    PathResult a, b;
    const double us_q = time_query(*qt, q, repeat, a);
    const double us_a = time_query(*astar, q, repeat, b);
    std::printf("  query %zu (%s): quadtree %s, %llu expansions, %.1f us; astar %s, %llu expansions, %.1f us",
                i, s.classes[query.movement_class].name.c_str(), to_string(a.status),
                static_cast<unsigned long long>(a.stats.expansions), us_q, to_string(b.status),
                static_cast<unsigned long long>(b.stats.expansions), us_a);
    if (a.status == SearchStatus::Found && b.status == SearchStatus::Found) {
      ++found;
      qt_exp += a.stats.expansions;
      astar_exp += b.stats.expansions;
      qt_us += us_q;
      astar_us += us_a;
      std::printf(
          "; search cost %.2f, length centres %.2f, step 1 %.2f, final %.2f, astar %.2f (final / astar "
          "%.4f)\n",
          stat(a, "search_cost"), stat(a, "length_centres"), stat(a, "length_step1"), a.length, b.length,
          b.length > 0 ? a.length / b.length : 1.0);
    } else {
      std::printf("\n");
    }
  }
  if (found > 0) {
    std::printf(
        "  %zu queries found by both: quadtree %llu expansions, %.1f us; astar %llu expansions, %.1f us; "
        "%.1fx fewer expansions, %.1fx less time\n",
        found, static_cast<unsigned long long>(qt_exp), qt_us, static_cast<unsigned long long>(astar_exp),
        astar_us, qt_exp ? double(astar_exp) / double(qt_exp) : 0.0, qt_us > 0 ? astar_us / qt_us : 0.0);
  }
  return kExitOk;
}

// `s` scaled so that its longer side has `side` cells: tiles sampled (nearest), the
// geometry of features, roads and bridges scaled; no items or queries.
Scenario scaled(const Scenario& s, int side) {
  Scenario out = s;
  out.threats.clear();
  out.allies.clear();
  out.units.clear();
  out.groups.clear();  // they name the units
  out.queries.clear();
  const glm::ivec2 g = s.grid_size();
  double kx = double(side) / std::max(g.x, g.y), ky = kx;
  if (s.tiles) {
    TileGrid t;
    t.width = std::max(1, int(std::lround(s.tiles->width * kx)));
    t.height = std::max(1, int(std::lround(s.tiles->height * ky)));
    kx = double(t.width) / s.tiles->width;
    ky = double(t.height) / s.tiles->height;
    t.terrain.resize(std::size_t(t.width) * std::size_t(t.height));
    for (int y = 0; y < t.height; ++y) {
      const int sy = std::min(s.tiles->height - 1, int(y / ky));
      for (int x = 0; x < t.width; ++x) {
        const int sx = std::min(s.tiles->width - 1, int(x / kx));
        t.terrain[std::size_t(y) * std::size_t(t.width) + std::size_t(x)] =
            s.tiles->terrain[std::size_t(sy) * std::size_t(s.tiles->width) + std::size_t(sx)];
      }
    }
    out.tiles = std::move(t);
    out.world.width = out.tiles->width * s.world.cell_size;
    out.world.height = out.tiles->height * s.world.cell_size;
  } else {
    out.world.width = s.world.width * kx;
    out.world.height = s.world.height * ky;
  }
  const auto scale = [&](Vec2 p) { return Vec2{p.x * kx, p.y * ky}; };
  const double k = std::min(kx, ky);
  for (Feature& f : out.features) {
    for (Vec2& p : f.shape.points) p = scale(p);
    f.shape.min = scale(f.shape.min);
    f.shape.max = scale(f.shape.max);
    f.shape.center = scale(f.shape.center);
    f.shape.radius *= k;
  }
  for (Road& r : out.roads) {
    for (Vec2& p : r.points) p = scale(p);
    r.width *= k;
  }
  for (Bridge& b : out.bridges) {
    b.a = scale(b.a);
    b.b = scale(b.b);
    b.width *= k;
  }
  return out;
}

// Incremental update against a full rebuild, on `s` scaled to `side` cells.
int print_update(const Scenario& source, const BenchQuadtreeOptions& options) {
  Scenario s = scaled(source, options.side);
  if (Status ok = validate_scenario(s); !ok)
    return fail("the scenario scaled to " + std::to_string(options.side) +
                " cells: " + ok.error().to_string());
  std::size_t wall = s.terrains.size();
  for (std::size_t t = 0; t < s.terrains.size() && wall == s.terrains.size(); ++t) {
    if (!s.terrains[t].cost[0]) wall = t;
  }
  if (wall == s.terrains.size()) {
    std::printf("  update: skipped (no terrain is impassable for class %s)\n", s.classes[0].name.c_str());
    return kExitOk;
  }
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
  bool same = true;
  std::uint32_t next_id = 1;
  for (const Feature& f : s.features) next_id = std::max(next_id, f.id + 1);
  for (int e = 0; e < 2 * options.edits; ++e) {
    if (e % 2 == 0) {
      Feature f;
      f.id = next_id;
      f.name = "bench circle";
      f.terrain = wall;
      f.shape.kind = ShapeKind::Circle;
      f.shape.center = Vec2{ux(rng), uy(rng)};
      f.shape.radius = radius;
      s.features.push_back(f);
    } else {
      s.features.pop_back();
    }
    const Clock::time_point t0 = Clock::now();
    const WorldChange change = world.update(s);
    world_ms.push_back(ms_since(t0));
    changed_cells += double(change.cells.width()) * change.cells.height();

    const Clock::time_point t1 = Clock::now();
    const QuadtreeEdit edit = tree.update(grid, change.cells);
    const double t_tree = ms_since(t1);
    const Clock::time_point t2 = Clock::now();
    links.update_links(tree, edit);
    const Clock::time_point t3 = Clock::now();
    links.update_regions(tree, edit);
    const double t_regions = ms_since(t3);
    const double t_links = ms_since(t2);
    regions_ms.push_back(t_regions);
    tree_ms.push_back(t_tree);
    links_ms.push_back(t_links);
    inc_ms.push_back(t_tree + t_links);

    const Clock::time_point t4 = Clock::now();
    const Quadtree fresh(grid);
    const QuadLinks fresh_links(fresh);
    full_ms.push_back(ms_since(t4));
    same = same && fresh.leaf_count() == tree.leaf_count() &&
           fresh_links.link_count() == links.link_count() &&
           fresh_links.region_count() == links.region_count();
    // Leaf by leaf, matched by corner (ids differ); links by their targets' corners;
    // regions the same partition (labels may differ): a one-to-one map between labels.
    std::unordered_map<std::uint32_t, std::uint32_t> to_updated, to_fresh;
    for (std::uint32_t i = 0; same && i < fresh.leaf_slots(); ++i) {
      const std::uint32_t j = tree.leaf_at_corner(fresh.corner(i));
      if (j == Quadtree::kNoLeaf) {
        same = false;
        break;
      }
      const QuadLeaf& a = fresh.leaf(i);
      const QuadLeaf& b = tree.leaf(j);
      const auto fo = fresh_links.out(i), uo = links.out(j);
      same = a.x == b.x && a.y == b.y && a.size == b.size && a.multiplier == b.multiplier && a.key == b.key &&
             fo.size() == uo.size();
      for (std::size_t k = 0; same && k < fo.size(); ++k) {
        same = fresh.corner(fo[k].to) == tree.corner(uo[k].to) && fo[k].a == uo[k].a && fo[k].b == uo[k].b &&
               fo[k].one_way == uo[k].one_way;
      }
      const std::uint32_t rf = fresh_links.region(i), ru = links.region(j);
      same = same && (rf == QuadLinks::kNoRegion) == (ru == QuadLinks::kNoRegion) &&
             to_updated.emplace(rf, ru).first->second == ru && to_fresh.emplace(ru, rf).first->second == rf;
    }
  }
  const double inc = median(inc_ms), full = median(full_ms);
  std::printf(
      "  update: %d x %d cells, %zu leaves, a circle of %s covering %.2f%% of the map added and removed at "
      "%d places "
      "(%.0f cells re-read per update)\n",
      grid.width(), grid.height(), tree.leaf_count(), s.terrains[wall].name.c_str(),
      100.0 * std::numbers::pi * radius * radius / (s.world.width * s.world.height), options.edits,
      changed_cells / (2.0 * options.edits));
  std::printf(
      "  update: incremental %.3f ms (tree %.3f ms, links %.3f ms, of which regions %.3f ms); "
      "full rebuild %.3f ms; rebuild / incremental %.1fx; world update %.3f ms (medians of %d)\n",
      inc, median(tree_ms), median(links_ms), median(regions_ms), full, inc > 0 ? full / inc : 0.0,
      median(world_ms), 2 * options.edits);
  std::printf("  update: equal to a full rebuild: %s\n", same ? "yes" : "NO");
  return same ? kExitOk : kExitFailed;
}

int bench_scenario(const std::string& label, const Scenario& s, const ParamValues& qt_params,
                   const BenchQuadtreeOptions& options) {
  if (Status ok = validate_scenario(s); !ok) return fail(label + ": " + ok.error().to_string());
  const PlanningWorld world(s);
  const glm::ivec2 g = s.grid_size();
  std::printf("map %s: %d x %d cells, %zu queries\n", label.c_str(), g.x, g.y, s.queries.size());
  std::vector<std::size_t> classes;
  for (const Query& q : s.queries) classes.push_back(q.movement_class);
  if (classes.empty()) classes.push_back(0);
  std::sort(classes.begin(), classes.end());
  classes.erase(std::unique(classes.begin(), classes.end()), classes.end());
  for (const std::size_t c : classes) print_structure(world, c, options.repeat);
  if (const int rc = print_queries(world, qt_params, options.repeat); rc != kExitOk) return rc;
  if (options.edits > 0) return print_update(s, options);
  return kExitOk;
}

int bench_movingai(const ParamValues& qt_params, const BenchQuadtreeOptions& options) {
  auto files = collect_scen_files({std::filesystem::path(options.movingai_path)});
  if (!files) return fail(files.error().to_string());
  if (files->empty()) return fail("no .scen files in " + options.movingai_path);
  int rc = kExitOk;
  for (const auto& scen_path : *files) {
    auto set = load_movingai_set(scen_path);
    if (!set) return fail(set.error().to_string());
    if (set->problems.empty()) continue;
    const std::vector<MovingAiProblem>* problems = &set->problems;
    const std::filesystem::path& map_path = set->map_path;
    const MovingAiMap* map = &set->map;
    // Problems spread over the file (its buckets grow longer towards the end).
    std::vector<MovingAiProblem> picked;
    const std::size_t n = std::min<std::size_t>(std::size_t(std::max(options.queries, 0)), problems->size());
    for (std::size_t i = 0; i < n; ++i)
      picked.push_back((*problems)[(i * problems->size() + problems->size() / 2) / n]);
    const int r =
        bench_scenario(map_path.filename().string(), movingai_to_scenario(*map, picked), qt_params, options);
    if (r != kExitOk) rc = r;
  }
  return rc;
}

}  // namespace

int run_bench_quadtree(const BenchQuadtreeOptions& options) {
  // Freed memory stays with the process (glibc), so that no timing below pays for fresh
  // pages of memory that an earlier step gave back: both the update and the rebuild are
  // timed on warm memory, as in an editor that keeps running.
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  if (options.repeat < 1) {
    std::fprintf(stderr, "pathscope bench quadtree: --repeat %d: expected at least 1\n", options.repeat);
    return kExitUsage;
  }
  const PlannerInfo* qt_info = find_planner("quadtree");
  if (!qt_info) return fail("the planner quadtree must be registered");
  auto overrides = parse_param_overrides(options.params);
  auto qt_params =
      overrides ? resolve_params(*qt_info, *overrides, "--param") : Result<ParamValues>(overrides.error());
  if (!qt_params) {
    std::fprintf(stderr, "pathscope bench quadtree: %s\n", qt_params.error().to_string().c_str());
    return kExitUsage;
  }
  if (!options.movingai_path.empty()) {
    if (!options.scenario_path.empty()) {
      std::fprintf(stderr, "pathscope bench quadtree: give a scenario FILE or --movingai PATH, not both\n");
      return kExitUsage;
    }
    return bench_movingai(*qt_params, options);
  }
  std::string path = options.scenario_path;
  if (path.empty()) {
    const auto found = find_default_scenario();
    if (!found) return fail("maps/armada.json not found; name a scenario file");
    path = (found->parent_path() / "armada.json").string();
  }
  auto loaded = load_any_scenario(path);
  if (!loaded) return fail(loaded.error().to_string());
  return bench_scenario(std::filesystem::path(path).filename().string(), *loaded, *qt_params, options);
}

}  // namespace pathscope::app
