// `pathscope bench planners`: every registered planner on the same worlds and queries, one
// table: the first query's time (which builds the planner's structures), the heap it holds
// after it, median and 95th-percentile query times, expansions, the cost ratio to grid A*
// on the same queries (both paths costed by the path referee, in the world's one model:
// metres of terrain-weighted travel, whatever the planner itself minimises), illegal
// paths (by the referee, at the clearance the planner declares), and failures. The worlds: Moving AI maps
// (each .scen file's problems, evenly sampled) and scenario files (their queries).

#include <malloc.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "app/cli/bench_support.hpp"
#include "app/cli/cli_commands.hpp"
#include "app/cli/command_table.hpp"
#include "planner/core/default_planner.hpp"
#include "planner/core/planner_registry.hpp"
#include "planner/referee/path_referee.hpp"
#include "planner/scenario/movingai_convert.hpp"
#include "planner/scenario/movingai_parse.hpp"
#include "planner/scenario/scenario_io.hpp"
#include "planner/world/planning_world.hpp"

namespace pathscope::app {

namespace {

struct BenchPlannersOptions {
  std::vector<std::string> paths;     ///< .scen files, scenario .json files, or folders of either.
  std::vector<std::string> planners;  ///< Names ("" = every registered planner).
  std::size_t queries = 40;           ///< At most this many queries per world, evenly spread.
  bool json = false;
};

// One world to bench: a scenario and its queries (class and points).
struct PlannerBench {
  std::string name;
  Scenario scenario;
  std::vector<Query> queries;
};

// `n` of `v`'s items, evenly spread, first and last included.
template <class T>
std::vector<T> sample_evenly(const std::vector<T>& v, std::size_t n) {
  if (v.size() <= n || n == 0) return v;
  std::vector<T> out;
  for (std::size_t k = 0; k < n; ++k) out.push_back(v[(k * (v.size() - 1)) / (n - 1)]);
  return out;
}

// Bytes in use on the heap now.
double heap_bytes() { return double(mallinfo2().uordblks); }

// The worlds of the inputs: .scen files (their maps, their problems) and scenario files
// with queries; folders give theirs. An error names the file.
Result<std::vector<PlannerBench>> collect_benches(const BenchPlannersOptions& o) {
  std::vector<PlannerBench> out;
  std::vector<std::filesystem::path> scens, jsons;
  for (const std::string& p : o.paths) {
    std::error_code ec;
    if (std::filesystem::is_directory(p, ec)) {
      std::vector<std::filesystem::path> in;
      for (const auto& e : std::filesystem::directory_iterator(p, ec)) in.push_back(e.path());
      std::sort(in.begin(), in.end());
      for (const auto& f : in) {
        if (f.extension() == ".scen") scens.push_back(f);
        if (f.extension() == ".json") jsons.push_back(f);
      }
    } else if (std::filesystem::path(p).extension() == ".scen") {
      scens.emplace_back(p);
    } else {
      jsons.emplace_back(p);
    }
  }
  for (const auto& scen : scens) {
    auto set = load_movingai_set(scen);
    if (!set) return set.error();
    PlannerBench b{scen.stem().string(), movingai_to_scenario(set->map), {}};
    for (const MovingAiProblem& p : sample_evenly(set->problems, o.queries)) {
      Query q;
      q.start = Vec2(p.start) + 0.5;
      q.goal = Vec2(p.goal) + 0.5;
      b.queries.push_back(q);
    }
    out.push_back(std::move(b));
  }
  for (const auto& json : jsons) {
    auto s = load_scenario(json);
    if (!s) return s.error();
    if (s->queries.empty()) continue;  // a scenario of units only: nothing to plan
    PlannerBench b{json.stem().string(), *s, sample_evenly(s->queries, o.queries)};
    out.push_back(std::move(b));
  }
  return out;
}

// What one planner did on one world.
struct PlannerRow {
  std::string world;
  std::string planner;
  std::size_t queries = 0;
  double first_ms = 0;   // the first query, structures built
  double heap_mib = 0;   // heap held after it (the world, its structures, the planner)
  double median_us = 0;  // the other queries
  double p95_us = 0;
  double expansions = 0;      // mean per query
  double cost_ratio = 0;      // geometric mean of referee cost / grid A*'s over queries both found
  std::size_t illegal = 0;    // paths the referee finds illegal
  std::size_t failures = 0;   // grid A* found a path, this planner did not
  std::size_t invalid = 0;    // refused (another radius, more than one cost, ...)
  std::string first_refusal;  // the first invalid or failed answer's message
};

PlannerRow run_planner_bench(const PlannerBench& b, const PlannerInfo& info,
                             const std::vector<double>& optimal) {
  PlannerRow r;
  r.world = b.name;
  r.planner = info.name;
  r.queries = b.queries.size();
  const double heap0 = heap_bytes();
  const PlanningWorld world(b.scenario);
  const auto values = resolve_params(info, {});
  if (!values) {
    r.invalid = r.queries;
    r.first_refusal = values.error().to_string();
    return r;
  }
  std::vector<std::unique_ptr<Planner>> planners(b.scenario.classes.size());
  std::vector<double> micros;
  double log_ratio = 0;
  std::size_t compared = 0;
  for (std::size_t k = 0; k < b.queries.size(); ++k) {
    const Query& q = b.queries[k];
    std::unique_ptr<Planner>& planner = planners[q.movement_class];
    const auto t0 = bench::Clock::now();
    if (!planner) planner = info.create(QueryContext{world, q.movement_class, std::nullopt, *values});
    const PathResult& res = find_path(*planner, PathQuery{q.start, q.goal});
    const double ms = bench::ms_since(t0);
    if (res.status != SearchStatus::Found && r.first_refusal.empty()) r.first_refusal = res.message;
    if (k == 0) {
      r.first_ms = ms;
      r.heap_mib = (heap_bytes() - heap0) / (1024.0 * 1024.0);
    } else {
      micros.push_back(ms * 1e3);
    }
    r.expansions += double(res.stats.expansions);
    if (res.status == SearchStatus::Invalid) {
      ++r.invalid;
    } else if (res.status == SearchStatus::Found) {
      const auto verdict = referee::referee_path(world, q.movement_class, res.points,
                                                 referee::params_for(info, *values, world, q.movement_class));
      if (verdict && !verdict->legal) ++r.illegal;
      if (verdict && optimal[k] > 0) {
        log_ratio += std::log(verdict->cost / optimal[k]);
        ++compared;
      }
    } else if (res.status != SearchStatus::Found && optimal[k] >= 0) {
      ++r.failures;
    }
  }
  r.expansions /= double(std::max<std::size_t>(1, r.queries));
  r.median_us = bench::median(micros);
  if (!micros.empty()) {
    std::sort(micros.begin(), micros.end());
    r.p95_us = micros[std::min(micros.size() - 1, std::size_t(std::ceil(0.95 * double(micros.size()))) - 1)];
  }
  r.cost_ratio = compared > 0 ? std::exp(log_ratio / double(compared)) : 0;
  return r;
}

int run_bench_planners(const BenchPlannersOptions& options) {
  auto benches = collect_benches(options);
  if (!benches) return fail_command("bench planners", benches.error().to_string());
  if (benches->empty())
    return fail_command("bench planners", "no .scen file nor scenario with queries given");
  std::vector<const PlannerInfo*> planners;
  for (const PlannerInfo& p : planner_registry()) {
    if (options.planners.empty() ||
        std::find(options.planners.begin(), options.planners.end(), p.name) != options.planners.end())
      planners.push_back(&p);
  }
  for (const std::string& name : options.planners) {
    if (!find_planner(name)) return fail_command("bench planners", "no planner named \"" + name + "\"");
  }
  const PlannerInfo* reference = find_planner(kDefaultPlanner);
  if (!reference)
    return fail_command("bench planners",
                        std::string("the planner ") + kDefaultPlanner + " must be registered");
  if (!options.json) {
    std::printf("%-24s %-16s %7s %9s %9s %10s %10s %11s %9s %7s %5s %7s\n", "world", "planner", "queries",
                "first ms", "heap MiB", "median us", "p95 us", "exp/query", "cost/A*", "illegal", "fail",
                "invalid");
  }
  for (const PlannerBench& b : *benches) {
    // Grid A*'s optimal costs: -1 where it finds no path (nobody should), 0 where refused.
    std::vector<double> optimal(b.queries.size(), 0);
    {
      const PlanningWorld world(b.scenario);
      auto values = resolve_params(*reference, {});
      if (!values) return fail_command("bench planners", values.error().to_string());
      std::vector<std::unique_ptr<Planner>> astar(b.scenario.classes.size());
      for (std::size_t k = 0; k < b.queries.size(); ++k) {
        const Query& q = b.queries[k];
        auto& p = astar[q.movement_class];
        if (!p) p = reference->create(QueryContext{world, q.movement_class, std::nullopt, *values});
        const PathResult& res = find_path(*p, PathQuery{q.start, q.goal});
        optimal[k] = res.status == SearchStatus::NoPath ? -1 : 0;
        if (res.status == SearchStatus::Found) {
          const auto verdict =
              referee::referee_path(world, q.movement_class, res.points,
                                    referee::params_for(*reference, *values, world, q.movement_class));
          if (verdict) optimal[k] = verdict->cost;
        }
      }
    }
    for (const PlannerInfo* info : planners) {
      const PlannerRow r = run_planner_bench(b, *info, optimal);
      if (options.json) {
        nlohmann::ordered_json j;
        j["world"] = r.world;
        j["planner"] = r.planner;
        j["queries"] = r.queries;
        j["first_query_ms"] = r.first_ms;
        j["heap_mib"] = r.heap_mib;
        j["median_us"] = r.median_us;
        j["p95_us"] = r.p95_us;
        j["expansions_per_query"] = r.expansions;
        j["cost_ratio_to_astar"] = r.cost_ratio;
        j["illegal"] = r.illegal;
        j["failures"] = r.failures;
        j["invalid"] = r.invalid;
        if (!r.first_refusal.empty()) j["refusal"] = r.first_refusal;
        std::printf("%s\n", j.dump().c_str());
      } else {
        std::printf("%-24s %-16s %7zu %9.2f %9.2f %10.1f %10.1f %11.0f %9.4f %7zu %5zu %7zu%s%s\n",
                    r.world.c_str(), r.planner.c_str(), r.queries, r.first_ms, r.heap_mib, r.median_us,
                    r.p95_us, r.expansions, r.cost_ratio, r.illegal, r.failures, r.invalid,
                    r.first_refusal.empty() ? "" : "  ", r.first_refusal.substr(0, 80).c_str());
      }
      std::fflush(stdout);
    }
  }
  return kExitOk;
}

CliRunner add_bench_planners_options(CLI::App& command) {
  auto options = std::make_shared<BenchPlannersOptions>();
  command
      .add_option("paths", options->paths,
                  ".scen files, scenario .json files with queries, or folders of either (default: the shared "
                  "Moving AI maps and maps/)")
      ->check(CLI::ExistingPath);
  command.add_option("--planner", options->planners, "planners to run (repeatable, or a,b; default: all)")
      ->delimiter(',');
  command.add_option("--queries", options->queries, "at most this many queries per world, evenly spread")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1000000}));
  command.add_flag("--json", options->json, "one JSON object per world and planner");
  return [options] {
    BenchPlannersOptions o = *options;
    if (o.paths.empty()) o.paths = {"../shared/benchmarks/movingai", "maps"};
    return run_bench_planners(o);
  };
}

}  // namespace

const CliCommand kBenchPlannersCommand{
    "bench planners",
    "every registered planner on the same worlds and queries: first query, heap, median and p95 times, "
    "expansions, cost / grid A*, failures",
    add_bench_planners_options};

}  // namespace pathscope::app
