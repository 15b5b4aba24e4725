// `pathscope bench grid PATH... [--planner a,b] [--warthog BIN] [--warthog-jps BIN]
// [--limit N] [--repeat R]`: grid planners on Moving AI problems, side by side with
// warthog's implementations of the same algorithms when their binaries are given (the
// research reference for grid search: same rules, 8-connected, no corner cutting,
// octile heuristic): `astar` with warthog-core's `astar` (--warthog), and from
// warthog-jps (--warthog-jps) `jps` with `jps`, `jps_block` with `jps2` (block-based
// online jumps) and `jps_plus` with `jps+` and `jps2+` (preprocessed jumps; ours also
// hands on diagonal turning points as jps2 does).
//
// Both sides are timed the same way: each .scen file is run `repeat` times in a row
// (ours in this process, warthog's as `BIN --alg ALG --scen FILE`), each problem counts
// its fastest run, and the first problem of each file (a cold start on both sides) is
// left out of the times. Per map and planner: problems, mismatches against the stored
// optimum (every problem), mean and median microseconds per query and mean expansions;
// with a peer, its mean time and expansions, its mismatches (its lengths judged at the
// precision it prints: 6 significant digits) and the ratios ours / theirs; the summary
// gives the geometric mean of the per-map time ratios. Our time covers the whole query
// (start, the search, the path's cells); warthog's only its search.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <memory>
#include <sstream>
#include <string>

#include <sys/wait.h>

#include <CLI/CLI.hpp>

#include "app/cli/bench_support.hpp"
#include "app/cli/cli_commands.hpp"
#include "app/cli/command_table.hpp"
#include "planner/core/planner_registry.hpp"
#include "planner/scenario/movingai.hpp"
#include "planner/scenario/movingai_check.hpp"
#include "planner/world/planning_world.hpp"

namespace pathscope::app {
namespace {

using bench::shell_quote;

// One planner's figures on one map.
struct MapFigures {
  std::size_t problems = 0;
  std::size_t mismatches = 0;
  std::vector<double> micros;    // per problem, the fastest run
  std::uint64_t expansions = 0;  // sum over problems
  double mean_micros() const {
    double s = 0;
    for (double m : micros) s += m;
    return micros.empty() ? 0 : s / double(micros.size());
  }
  double mean_expansions() const { return problems ? double(expansions) / double(problems) : 0; }
};

// Runs `bin --alg alg` on `scen` `repeat` times; fills its figures for the first `n`
// problems (the fastest run of each; times leave out problem 0). Returns an error text,
// or "" on success.
std::string run_warthog(const std::string& bin, const std::string& alg, const std::filesystem::path& scen,
                        std::size_t n, int repeat, const std::vector<MovingAiProblem>& problems,
                        MapFigures& out) {
  const std::string cmd =
      shell_quote(bin) + " --alg " + alg + " --scen " + shell_quote(scen.string()) + " 2>/dev/null";
  std::vector<double> best(n, std::numeric_limits<double>::infinity());
  std::vector<std::uint64_t> expanded(n, 0);
  std::vector<bool> seen(n, false);
  for (int r = 0; r < repeat; ++r) {
    FILE* pipe = popen(cmd.c_str(), "r");
    if (!pipe) return "cannot run " + cmd;
    char line[4096];
    while (std::fgets(line, sizeof line, pipe)) {
      // id alg expanded generated reopen surplus heapops nanos plen pcost scost map
      std::istringstream in(line);
      std::size_t id = 0;
      std::string name, pcost;
      std::uint64_t exp = 0, gen = 0, reopen = 0, surplus = 0, heapops = 0, nanos = 0, plen = 0;
      if (!(in >> id >> name >> exp >> gen >> reopen >> surplus >> heapops >> nanos >> plen >> pcost))
        continue;
      if (id >= n) continue;
      best[id] = std::min(best[id], double(nanos) * 1e-3);
      expanded[id] = exp;
      if (!seen[id]) {
        seen[id] = true;
        // Judged at the precision printed (6 significant digits: 2 decimals above
        // 1,000), plus the stored optimum's own.
        const double length = std::strtod(pcost.c_str(), nullptr);
        const MovingAiProblem& p = problems[id];
        if (!(std::abs(length - p.optimal_length) <= p.tolerance + movingai_length_tolerance(pcost)))
          ++out.mismatches;
      }
    }
    const int status = pclose(pipe);
    if (status != 0) {
      const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
      return cmd + " exited with status " + std::to_string(code) + (code == 127 ? " (no such program)" : "");
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (!seen[i]) return cmd + " printed no line for problem " + std::to_string(i);
    if (i > 0 || n == 1) out.micros.push_back(best[i]);
    out.expansions += expanded[i];
  }
  out.problems = n;
  return "";
}

// A peer of one of our planners: a warthog binary and its algorithm.
struct Peer {
  std::string label;  // "astar", "jps2", ...: warthog's name of the algorithm
  std::string bin;
};

std::vector<Peer> peers_of(const std::string& planner, const BenchGridOptions& o) {
  std::vector<Peer> out;
  const auto add = [&](const std::string& bin, const char* alg) {
    if (!bin.empty()) out.push_back(Peer{alg, bin});
  };
  if (planner == "astar") add(o.warthog, "astar");
  if (planner == "jps") add(o.warthog_jps, "jps");
  if (planner == "jps_block") add(o.warthog_jps, "jps2");
  if (planner == "jps_plus") {
    add(o.warthog_jps, "jps+");
    add(o.warthog_jps, "jps2+");
  }
  return out;
}

}  // namespace

int run_bench_grid(const BenchGridOptions& options) {
  std::vector<const PlannerInfo*> planners;
  for (const std::string& name : options.planners) {
    auto found = require_planner(name, "--planner");
    if (!found) {
      std::fprintf(stderr, "pathscope bench grid: %s\n", found.error().to_string().c_str());
      return kExitUsage;
    }
    planners.push_back(*found);
  }
  auto overrides = parse_param_overrides(options.params);
  if (!overrides) {
    std::fprintf(stderr, "pathscope bench grid: %s\n", overrides.error().to_string().c_str());
    return kExitUsage;
  }
  // Each override goes to the planners that declare it; one that none declares is a
  // mistake.
  std::vector<std::vector<PlannerParam>> planner_overrides(planners.size());
  for (const PlannerParam& o : *overrides) {
    bool used = false;
    for (std::size_t i = 0; i < planners.size(); ++i) {
      const auto& specs = planners[i]->params;
      if (std::none_of(specs.begin(), specs.end(), [&](const ParamSpec& p) { return p.name == o.name; }))
        continue;
      planner_overrides[i].push_back(o);
      used = true;
    }
    if (!used) {
      std::fprintf(stderr, "pathscope bench grid: --param %s: none of the planners has this parameter\n",
                   o.name.c_str());
      return kExitUsage;
    }
  }
  std::vector<std::filesystem::path> inputs(options.paths.begin(), options.paths.end());
  auto files = collect_scen_files(inputs);
  if (!files) {
    std::fprintf(stderr, "pathscope bench grid: %s\n", files.error().to_string().c_str());
    return kExitFailed;
  }
  if (files->empty()) {
    std::fprintf(stderr, "pathscope bench grid: no .scen files in the given paths\n");
    return kExitFailed;
  }
  const bool any_peer = !options.warthog.empty() || !options.warthog_jps.empty();
  std::printf("%-22s %-10s %7s %5s %10s %10s %10s", "map", "planner", "queries", "miss", "mean us",
              "median us", "exp/query");
  if (any_peer)
    std::printf(" %-8s %5s %12s %12s %10s %10s", "peer", "miss", "peer us", "peer exp", "time ratio",
                "exp ratio");
  std::printf("\n");

  // (planner, peer) -> per-map time ratios, largest expansion ratio, peer mismatches.
  using PairKey = std::pair<std::string, std::string>;
  std::map<PairKey, std::vector<double>> time_ratios;
  std::map<PairKey, double> worst_exp_ratio;
  std::map<PairKey, std::size_t> peer_mismatches;
  std::map<std::string, std::size_t> mismatches;  // planner -> problems
  for (const auto& scen_path : *files) {
    auto set = load_movingai_set(scen_path);
    if (!set) {
      std::fprintf(stderr, "pathscope bench grid: %s\n", set.error().to_string().c_str());
      return kExitFailed;
    }
    if (set->problems.empty()) continue;
    const std::vector<MovingAiProblem>* problems = &set->problems;
    const std::filesystem::path& map_path = set->map_path;
    const std::size_t n = options.limit > 0 ? std::min(options.limit, problems->size()) : problems->size();
    const PlanningWorld world(movingai_to_scenario(set->map));

    for (std::size_t pi = 0; pi < planners.size(); ++pi) {
      const PlannerInfo* info = planners[pi];
      // Each planner with its default parameters and the overrides it declares.
      auto values = resolve_params(*info, planner_overrides[pi], "--param");
      if (!values) {
        std::fprintf(stderr, "pathscope bench grid: %s\n", values.error().to_string().c_str());
        return kExitUsage;
      }
      const std::unique_ptr<Planner> planner = info->create(QueryContext{world, 0, std::nullopt, *values});
      // The whole file `repeat` times, as warthog runs it; each problem's fastest run.
      MapFigures ours;
      std::vector<double> best(n, std::numeric_limits<double>::infinity());
      for (int r = 0; r < options.repeat; ++r) {
        for (std::size_t i = 0; i < n; ++i) {
          const MovingAiProblem& p = (*problems)[i];
          const PathQuery q{Vec2(p.start) + 0.5, Vec2(p.goal) + 0.5};
          const auto t0 = bench::Clock::now();
          const PathResult& res = find_path(*planner, q);
          best[i] = std::min(best[i], bench::ms_since(t0) * 1e3);
          if (r > 0) continue;
          ours.expansions += res.stats.expansions;
          const bool ok = res.status == SearchStatus::Found &&
                          (info->exact ? movingai_length_matches(res.length, p)
                                       : movingai_length_within(res.length, p, options.max_ratio));
          if (!ok) ++ours.mismatches;
        }
      }
      for (std::size_t i = 0; i < n; ++i) {
        if (i > 0 || n == 1) ours.micros.push_back(best[i]);
      }
      ours.problems = n;
      mismatches[info->name] += ours.mismatches;
      const auto print_ours = [&] {
        std::printf("%-22s %-10s %7zu %5zu %10.2f %10.2f %10.0f", map_path.stem().string().c_str(),
                    info->name.c_str(), ours.problems, ours.mismatches, ours.mean_micros(),
                    bench::median(ours.micros), ours.mean_expansions());
      };
      const std::vector<Peer> peers = peers_of(info->name, options);
      if (peers.empty()) {
        print_ours();
        std::printf("\n");
      }
      for (const Peer& peer : peers) {
        MapFigures theirs;
        if (const std::string error =
                run_warthog(peer.bin, peer.label, scen_path, n, options.repeat, *problems, theirs);
            !error.empty()) {
          std::fprintf(stderr, "pathscope bench grid: --warthog: %s\n", error.c_str());
          return kExitFailed;
        }
        const PairKey key{info->name, peer.label};
        const double tr = ours.mean_micros() / theirs.mean_micros();
        const double er = ours.mean_expansions() / theirs.mean_expansions();
        print_ours();
        std::printf(" %-8s %5zu %12.2f %12.0f %10.3f %10.4f\n", peer.label.c_str(), theirs.mismatches,
                    theirs.mean_micros(), theirs.mean_expansions(), tr, er);
        time_ratios[key].push_back(tr);
        worst_exp_ratio[key] = std::max(worst_exp_ratio[key], er);
        peer_mismatches[key] += theirs.mismatches;
      }
      std::fflush(stdout);
    }
  }
  for (const PlannerInfo* info : planners) {
    std::printf("%s: %zu mismatches", info->name.c_str(), mismatches[info->name]);
    for (const Peer& peer : peers_of(info->name, options)) {
      const PairKey key{info->name, peer.label};
      if (time_ratios[key].empty()) continue;
      double log_sum = 0;
      double worst = 0;
      for (double r : time_ratios[key]) {
        log_sum += std::log(r);
        worst = std::max(worst, r);
      }
      std::printf(
          "; time / warthog %s's: geometric mean %.3f over %zu maps, largest %.3f (warthog %s: %zu "
          "mismatches); "
          "expansions / its: largest %.4f",
          peer.label.c_str(), std::exp(log_sum / double(time_ratios[key].size())), time_ratios[key].size(),
          worst, peer.label.c_str(), peer_mismatches[key], worst_exp_ratio[key]);
    }
    std::printf("\n");
  }
  for (const auto& [name, count] : mismatches) {
    if (count > 0) return kExitFailed;
  }
  return kExitOk;
}

namespace {

CliRunner add_bench_grid_options(CLI::App& command) {
  auto options = std::make_shared<BenchGridOptions>();
  command.add_option("paths", options->paths, ".scen files or folders")->required();
  command.add_option("--planner", options->planners, "grid planners to time (repeatable, or a,b)")
      ->delimiter(',');
  command.add_option("--warthog", options->warthog,
                     "warthog-core's `warthog` binary: its astar runs the same problems as astar");
  command.add_option(
      "--warthog-jps", options->warthog_jps,
      "warthog-jps's `warthog-jps` binary: jps, jps2, jps+ and jps2+ run the same problems as jps, "
      "jps_block and jps_plus");
  command.add_option("--limit", options->limit, "at most N problems per .scen file");
  command.add_option("--repeat", options->repeat, "runs of each .scen file (each problem's fastest counts)")
      ->check(CLI::Range(1, 1000));
  command.add_option("--max-ratio", options->max_ratio, "inexact planners: allowed length / optimal length");
  command.add_option("--param", options->params,
                     "planner parameter, name=value, for the planners that have it (repeatable)");
  return [options] { return run_bench_grid(*options); };
}

}  // namespace

const CliCommand kBenchGridCommand{
    "bench grid",
    "grid planners on Moving AI problems, side by side with warthog's A* and jump point searches",
    add_bench_grid_options};

}  // namespace pathscope::app
