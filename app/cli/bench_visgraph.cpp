// `pathscope bench visgraph [--movingai PATH]`: the measured figures of the
// visibility-graph planner (seeds 003 and 004).
//
//  - Synthetic maps of random rectangles (1 to 6 m a side, about a fifth of the ground
//    covered), sized for about --corners corners each (default 1000, 10000, 50000): the
//    corners, links, pairs tangent at both ends, the time to build the inflated obstacles
//    and the graph, and the median time of --queries random queries (exact A*), with
//    their mean number of start and goal links; then --edits buildings placed and
//    destroyed, each graph update against a full rebuild (seed 003's run-time changes).
//  - With --movingai PATH, per Moving AI map (radius 0): the same build figures, then
//    --queries of its problems spread over the file: median query time, and the path
//    length against the stored octile optimum (mean and largest ratio; a ratio above 1
//    beyond the file's rounding is an error).
//  - With --roads FILE (repeatable), per scenario and movement class: --queries random
//    queries between free points planned with roads off, seed 004's road pass and exact
//    roads: mean cost, how often each takes a road, median query time, and exact against
//    the pass (mean and least ratio, queries where exact is dearer: none expected
//    without weighted regions); the road network's build is timed apart.
// Times are wall-clock and vary from run to run; nothing is checked against a target.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "app/cli/bench_support.hpp"
#include "app/cli/cli_commands.hpp"
#include "app/cli/command_table.hpp"
#include "planner/scenario/movingai_check.hpp"
#include "planner/scenario/movingai_convert.hpp"
#include "planner/scenario/movingai_parse.hpp"
#include "planner/visgraph/visgraph_planner.hpp"
#include "planner/world/planning_world.hpp"

namespace pathscope::app {
namespace {

using bench::Clock;
using bench::median;
using bench::ms_since;
using bench::stat;

// Builds the obstacles and the graph of class 0 at `radius`; prints and returns the graph's map.
const visgraph::VisGraphMap* print_build(const PlanningWorld& world, double radius) {
  visgraph::ObstacleParams params;
  params.radius = radius;
  const Clock::time_point t0 = Clock::now();
  Result<visgraph::ObstacleSet> set = visgraph::build_obstacle_set(
      visgraph::world_obstacles(world, 0),
      Box2{{0, 0}, {world.scenario().world.width, world.scenario().world.height}}, params);
  const double obstacles_ms = ms_since(t0);
  if (!set) {
    std::printf("  obstacles refused: %s\n", set.error().to_string().c_str());
    return nullptr;
  }
  const std::size_t inputs = set->input_count, rings = set->rings.size();
  const Clock::time_point t1 = Clock::now();
  const visgraph::VisibilityGraph graph(std::move(set.value()));
  const double graph_ms = ms_since(t1);
  std::printf(
      "  %zu obstacle inputs -> %zu rings in %.1f ms; %zu corners, %zu links, %llu of %llu pairs tested "
      "(tangent at both ends, not in a hidden group; %llu groups hidden); graph %.1f ms (build %.1f ms in "
      "all)\n",
      inputs, rings, obstacles_ms, graph.node_count(), graph.link_count(),
      static_cast<unsigned long long>(graph.stats().tangent_pairs),
      static_cast<unsigned long long>(graph.stats().pairs),
      static_cast<unsigned long long>(graph.stats().hidden_groups), graph_ms, obstacles_ms + graph_ms);
  return &visgraph::VisGraphMap::of(world, 0, params);
}

// A 4 x 4 m building placed at `edits` random places and destroyed again (seed 003's
// run-time change): each update of the graph (obstacles built again, links of changed
// corners or across the changed area tested) against a full rebuild of the graph from
// the same obstacles; medians, and whether they are equal.
void print_updates(const PlanningWorld& world, const visgraph::VisibilityGraph& base, int edits,
                   std::mt19937_64& rng) {
  if (edits <= 0) return;
  const std::vector<visgraph::ObstacleInput> inputs = visgraph::world_obstacles(world, 0);
  const Box2 box{{0, 0}, {world.scenario().world.width, world.scenario().world.height}};
  const visgraph::ObstacleParams params;  // radius 0
  std::uniform_real_distribution<double> ux(0, box.hi.x - 4), uy(0, box.hi.y - 4);
  std::vector<double> update_ms, rebuild_ms;
  bool equal = true;
  std::uint64_t kept = 0, links = 0;
  for (int e = 0; e < edits; ++e) {
    visgraph::ObstacleInput building;
    building.name = "building";
    building.shape.kind = ShapeKind::Rect;
    building.shape.min = {std::round(ux(rng)), std::round(uy(rng))};
    building.shape.max = building.shape.min + Vec2{4, 4};
    const Box2 changed =
        Box2{building.shape.min, building.shape.max}.expanded(params.max_error + 8.0 / visgraph::kScale);
    std::vector<visgraph::ObstacleInput> placed = inputs;
    placed.push_back(building);
    const visgraph::VisibilityGraph* before = &base;
    std::unique_ptr<visgraph::VisibilityGraph> after_place;
    const std::vector<visgraph::ObstacleInput>* steps[2] = {&placed, &inputs};
    for (const std::vector<visgraph::ObstacleInput>* next : steps) {
      const Clock::time_point t0 = Clock::now();
      Result<visgraph::ObstacleSet> set = visgraph::build_obstacle_set(*next, box, params);
      auto updated = std::make_unique<visgraph::VisibilityGraph>(std::move(set.value()), *before, changed);
      update_ms.push_back(ms_since(t0));
      const Clock::time_point t1 = Clock::now();
      Result<visgraph::ObstacleSet> again = visgraph::build_obstacle_set(*next, box, params);
      const visgraph::VisibilityGraph rebuilt(std::move(again.value()));
      rebuild_ms.push_back(ms_since(t1));
      kept += updated->stats().kept_links;
      links += updated->link_count();
      equal = equal && updated->node_count() == rebuilt.node_count();
      for (std::uint32_t i = 0; equal && i < rebuilt.node_count(); ++i) {
        const auto a = updated->links(i), b = rebuilt.links(i);
        equal = std::equal(a.begin(), a.end(), b.begin(), b.end());
      }
      after_place = std::move(updated);
      before = after_place.get();
    }
  }
  const double u = median(update_ms), r = median(rebuild_ms);
  std::printf(
      "  %d buildings placed and destroyed: update %.1f ms, full rebuild %.1f ms (median), rebuild / update "
      "%.1fx; %.1f%% of links kept untested; equal to a full rebuild: %s\n",
      edits, u, r, u > 0 ? r / u : 0.0, links ? 100.0 * double(kept) / double(links) : 0.0,
      equal ? "yes" : "no");
}

// Random rectangles for about `corners` corners, a fifth of the ground covered.
// Link limits (k nearest, maximum length) on the same queries: links kept, query time,
// paths lost, and length against the unlimited graph's paths.
void print_limits(const PlanningWorld& world, const std::vector<PathQuery>& queries,
                  const std::vector<double>& lengths) {
  const double side = world.scenario().world.width;
  const visgraph::LinkLimits settings[] = {{16, 0}, {8, 0}, {4, 0}, {0, side / 8}, {0, side / 16}};
  for (const visgraph::LinkLimits& limits : settings) {
    VisGraphParams p;
    p.radius = 0;
    p.limits = limits;
    VisGraphPlanner planner(world, 0, p);
    std::vector<double> us;
    double sum = 0, worst = 1;
    int found = 0, lost = 0;
    double kept = 0, expansions = 0;
    for (std::size_t q = 0; q < queries.size(); ++q) {
      const Clock::time_point t0 = Clock::now();
      const PathResult& r = find_path(planner, queries[q]);
      us.push_back(ms_since(t0) * 1000);  // the first query also derives the limited links
      kept = stat(r, "links");
      expansions += double(r.stats.expansions);
      if (lengths[q] <= 0) continue;
      if (r.status != SearchStatus::Found) {
        ++lost;
        continue;
      }
      ++found;
      sum += r.length / lengths[q];
      worst = std::max(worst, r.length / lengths[q]);
    }
    char what[64];
    if (limits.k_nearest > 0) {
      std::snprintf(what, sizeof what, "k_nearest=%u", limits.k_nearest);
    } else {
      std::snprintf(what, sizeof what, "max_link=%g", limits.max_length);
    }
    std::printf(
        "  limits %s: %.0f links kept, median %.1f us, %.1f expansions, %d paths lost, length / unlimited "
        "mean %.4f, largest %.4f\n",
        what, kept, median(us), queries.empty() ? 0.0 : expansions / double(queries.size()), lost,
        found ? sum / found : 0.0, worst);
  }
}

Scenario rectangles(std::mt19937_64& rng, int corners) {
  const int count = std::max(1, corners / 4);
  const double side = std::ceil(std::sqrt(60.0 * count));
  Scenario s = make_empty_scenario(side, side, 1.0);
  const std::size_t wall = *s.find_terrain("wall");
  std::uniform_real_distribution<double> pos(0, side - 6), size(1, 6);
  for (int i = 0; i < count; ++i) {
    Feature f;
    f.id = std::uint32_t(i + 1);
    f.terrain = wall;
    f.shape.kind = ShapeKind::Rect;
    f.shape.min = {std::round(pos(rng) * 4) / 4, std::round(pos(rng) * 4) / 4};
    f.shape.max = f.shape.min + Vec2{std::round(size(rng) * 4) / 4, std::round(size(rng) * 4) / 4};
    s.features.push_back(f);
  }
  return s;
}

int bench_rectangles(const BenchVisgraphOptions& options) {
  std::mt19937_64 rng(options.seed);
  for (const int target : options.corners) {
    const PlanningWorld world(rectangles(rng, target));
    std::printf("random rectangles for ~%d corners: %g x %g m, %zu rectangles, radius 0\n", target,
                world.scenario().world.width, world.scenario().world.height,
                world.scenario().features.size());
    const visgraph::VisGraphMap* map = print_build(world, 0);
    if (!map || !map->ok()) continue;
    VisGraphParams p;
    p.radius = 0;
    VisGraphPlanner planner(world, 0, p);
    const Box2 box = map->graph().obstacles().free_box;
    std::uniform_real_distribution<double> ux(box.lo.x, box.hi.x), uy(box.lo.y, box.hi.y);
    std::vector<double> us;
    double links = 0, length = 0, expansions = 0;
    int found = 0;
    std::vector<PathQuery> queries;
    std::vector<double> lengths;  // per query: the unlimited path's length, or 0
    for (int q = 0; q < options.queries; ++q) {
      Vec2 a, b;
      do a = {ux(rng), uy(rng)};
      while (map->graph().index().inside(a));
      do b = {ux(rng), uy(rng)};
      while (map->graph().index().inside(b));
      queries.push_back(PathQuery{a, b});
      const Clock::time_point t0 = Clock::now();
      const PathResult& r = find_path(planner, PathQuery{a, b});
      us.push_back(ms_since(t0) * 1000);
      lengths.push_back(r.status == SearchStatus::Found ? r.length : 0.0);
      expansions += double(r.stats.expansions);
      if (r.status != SearchStatus::Found) continue;
      ++found;
      links += stat(r, "start_links") + stat(r, "goal_links");
      length += r.length / std::hypot(b.x - a.x, b.y - a.y);
    }
    std::printf(
        "  %d random queries: %d found, median %.1f us, %.1f expansions, %.1f temporary links each, mean "
        "length / straight line %.4f\n",
        options.queries, found, median(us), options.queries ? expansions / options.queries : 0.0,
        found ? links / found : 0.0, found ? length / found : 0.0);
    print_limits(world, queries, lengths);
    print_updates(world, map->graph(), options.edits, rng);
  }
  return kExitOk;
}

int bench_movingai(const BenchVisgraphOptions& options) {
  auto files = collect_scen_files({std::filesystem::path(options.movingai_path)});
  if (!files) return fail_command("bench visgraph", files.error().to_string());
  if (files->empty()) return fail_command("bench visgraph", "no .scen files in " + options.movingai_path);
  double ratio_sum = 0;
  std::size_t ratio_count = 0, too_long = 0;
  for (const auto& scen_path : *files) {
    auto set = load_movingai_set(scen_path);
    if (!set) return fail_command("bench visgraph", set.error().to_string());
    if (set->problems.empty()) continue;
    const std::vector<MovingAiProblem>* problems = &set->problems;
    const std::filesystem::path& map_path = set->map_path;
    const MovingAiMap* map = &set->map;
    const PlanningWorld world(movingai_to_scenario(*map));
    std::printf("%s: %d x %d cells, radius 0\n", map_path.filename().string().c_str(), map->width,
                map->height);
    const visgraph::VisGraphMap* vmap = print_build(world, 0);
    if (!vmap || !vmap->ok()) continue;
    VisGraphParams p;
    p.radius = 0;
    VisGraphPlanner planner(world, 0, p);
    std::vector<double> us;
    double sum = 0, worst = 0;
    int found = 0;
    const std::size_t n = problems->size();
    const std::size_t k = std::min<std::size_t>(n, std::size_t(std::max(options.queries, 0)));
    for (std::size_t i = 0; i < k; ++i) {
      const MovingAiProblem& pr = (*problems)[k > 1 ? i * (n - 1) / (k - 1) : 0];
      const Clock::time_point t0 = Clock::now();
      const PathResult& r = find_path(planner, PathQuery{Vec2(pr.start) + 0.5, Vec2(pr.goal) + 0.5});
      us.push_back(ms_since(t0) * 1000);
      if (r.status != SearchStatus::Found) {
        std::printf("  line %d: %s (%s)\n", pr.line, to_string(r.status), r.message.c_str());
        continue;
      }
      ++found;
      if (pr.optimal_length > 0) {
        const double ratio = r.length / pr.optimal_length;
        sum += ratio;
        worst = std::max(worst, ratio);
        ratio_sum += ratio;
        ++ratio_count;
      }
      if (r.length > pr.optimal_length + pr.tolerance) {
        ++too_long;
        std::printf("  line %d: length %.6f above the octile optimum %.6f\n", pr.line, r.length,
                    pr.optimal_length);
      }
    }
    std::printf("  %zu problems: %d found, median %.1f us, length / octile optimum mean %.4f, largest %.4f\n",
                k, found, median(us), found ? sum / found : 0.0, worst);
  }
  std::printf("all maps: %zu paths, mean length / octile optimum %.4f, %zu above the optimum\n", ratio_count,
              ratio_count ? ratio_sum / double(ratio_count) : 0.0, too_long);
  return too_long > 0 ? kExitFailed : kExitOk;
}

int bench_roads(const BenchVisgraphOptions& options) {
  std::mt19937_64 rng(options.seed);
  for (const std::string& path : options.road_paths) {
    Result<Scenario> scenario = load_any_scenario(path);
    if (!scenario) return fail_command("bench visgraph", scenario.error().to_string());
    const PlanningWorld world(std::move(scenario.value()));
    std::printf("%s: %g x %g m, %zu roads\n", path.c_str(), world.scenario().world.width,
                world.scenario().world.height, world.scenario().roads.size());
    for (std::size_t cls = 0; cls < world.scenario().classes.size(); ++cls) {
      const RoadMode modes[3] = {RoadMode::Off, RoadMode::Pass, RoadMode::Exact};
      std::vector<std::unique_ptr<VisGraphPlanner>> planners;
      for (const RoadMode m : modes) {
        VisGraphParams p;
        p.roads = m;
        p.compare_without_roads = false;  // time the search alone
        p.world_cost = false;             // compare the modes in the model they optimise
        planners.push_back(std::make_unique<VisGraphPlanner>(world, cls, p));
      }
      const visgraph::VisGraphMap& map = planners[0]->map();
      if (!map.ok()) {
        std::printf("  class %s: obstacles refused: %s\n", world.scenario().classes[cls].name.c_str(),
                    map.error().to_string().c_str());
        continue;
      }
      const Box2 box = map.graph().obstacles().free_box;
      std::uniform_real_distribution<double> ux(box.lo.x, box.hi.x), uy(box.lo.y, box.hi.y);
      std::vector<PathQuery> queries;
      for (int q = 0; q < options.queries; ++q) {
        Vec2 a, b;
        do a = {ux(rng), uy(rng)};
        while (map.graph().index().inside(a));
        do b = {ux(rng), uy(rng)};
        while (map.graph().index().inside(b));
        queries.push_back(PathQuery{a, b});
      }
      // The first exact query builds the road network: timed apart.
      const Clock::time_point t_build = Clock::now();
      if (!queries.empty()) find_path(*planners[2], queries[0]);
      const double build_ms = ms_since(t_build);
      double cost[3] = {0, 0, 0}, ratio = 0, least = 1e300;
      int on_road[3] = {0, 0, 0}, found = 0, dearer = 0, cheaper = 0;
      std::vector<double> us[3];
      double road_points = 0, road_links = 0;
      for (const PathQuery& q : queries) {
        double c[3];
        bool ok = true;
        for (int m = 0; m < 3; ++m) {
          const Clock::time_point t0 = Clock::now();
          const PathResult& r = find_path(*planners[std::size_t(m)], q);
          us[m].push_back(ms_since(t0) * 1000);
          ok = ok && r.status == SearchStatus::Found;
          c[m] = r.cost;
          if (m > 0 && r.status == SearchStatus::Found && r.cost < c[0] - 1e-9) ++on_road[m];
          if (m == 2) {
            road_points = stat(r, "road_points");
            road_links = stat(r, "road_links");
          }
        }
        if (!ok) continue;
        ++found;
        for (int m = 0; m < 3; ++m) cost[m] += c[m];
        ratio += c[2] / c[1];
        least = std::min(least, c[2] / c[1]);
        if (c[2] > c[1] + 1e-9) {
          ++dearer;
          std::printf("    exact dearer than the pass: (%.3f, %.3f) -> (%.3f, %.3f), pass %.4f, exact %.4f\n",
                      q.start.x, q.start.y, q.goal.x, q.goal.y, c[1], c[2]);
        }
        cheaper += c[2] < c[1] - 1e-9;
      }
      std::printf(
          "  class %s: road network %.0f points, %.0f links, first exact query (with its build) %.1f ms\n",
          world.scenario().classes[cls].name.c_str(), road_points, road_links, build_ms);
      std::printf(
          "    %d queries, %d found; mean cost: no roads %.2f, pass %.2f, exact %.2f; on a road: pass %d, "
          "exact %d\n",
          options.queries, found, found ? cost[0] / found : 0.0, found ? cost[1] / found : 0.0,
          found ? cost[2] / found : 0.0, on_road[1], on_road[2]);
      std::printf(
          "    exact / pass: mean %.4f, least %.4f, cheaper in %d, dearer in %d; median query: no roads %.1f "
          "us, "
          "pass %.1f us, exact %.1f us\n",
          found ? ratio / found : 0.0, found ? least : 0.0, cheaper, dearer, median(us[0]), median(us[1]),
          median(us[2]));
    }
  }
  return kExitOk;
}

}  // namespace

int run_bench_visgraph(const BenchVisgraphOptions& options) {
  if (!options.road_paths.empty()) return bench_roads(options);
  if (!options.movingai_path.empty()) return bench_movingai(options);
  return bench_rectangles(options);
}

namespace {

CliRunner add_bench_visgraph_options(CLI::App& command) {
  auto options = std::make_shared<BenchVisgraphOptions>();
  command.add_option("--movingai", options->movingai_path,
                     "instead of random rectangles: a Moving AI .scen file or a folder of them");
  command.add_option("--corners", options->corners, "random rectangle maps of about N corners (repeatable)")
      ->check(CLI::Range(4, 1000000));
  command.add_option("--queries", options->queries, "queries per map")->check(CLI::Range(0, 100000));
  command.add_option("--seed", options->seed, "seed of the random maps and queries");
  command
      .add_option("--edits", options->edits,
                  "buildings placed and destroyed per random map, update against rebuild")
      ->check(CLI::Range(0, 10000));
  command.add_option(
      "--roads", options->road_paths,
      "instead: on this scenario, random queries with roads off, the road pass and exact roads (repeatable)");
  return [options] { return run_bench_visgraph(*options); };
}

}  // namespace

const CliCommand kBenchVisgraphCommand{
    "bench visgraph",
    "visibility graph: build time by corners, query time, lengths against the octile optimum",
    add_bench_visgraph_options};

}  // namespace pathscope::app
