// `pathscope movingai PATH...`: runs Moving AI benchmark problems and checks every
// length against the stored optimum; prints a per-map table and one summary line.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "app/cli/cli_commands.hpp"
#include "app/cli/command_table.hpp"
#include "planner/core/planner_registry.hpp"
#include "planner/scenario/movingai_check.hpp"
#include "planner/scenario/movingai_convert.hpp"
#include "planner/scenario/movingai_parse.hpp"
#include "planner/world/planning_world.hpp"

namespace pathscope::app {
namespace {

struct Tally {
  std::size_t queries = 0;
  std::size_t mismatches = 0;
  std::vector<double> micros;
  double total_micros = 0;
  std::uint64_t expansions = 0;
  double ratio_sum = 0;
  std::size_t ratio_count = 0;
  double ratio_max = 0;

  void add(const Tally& o) {
    queries += o.queries;
    mismatches += o.mismatches;
    micros.insert(micros.end(), o.micros.begin(), o.micros.end());
    total_micros += o.total_micros;
    expansions += o.expansions;
    ratio_sum += o.ratio_sum;
    ratio_count += o.ratio_count;
    ratio_max = std::max(ratio_max, o.ratio_max);
  }
  double median() const {
    if (micros.empty()) return 0;
    std::vector<double> m = micros;
    std::nth_element(m.begin(), m.begin() + std::ptrdiff_t(m.size() / 2), m.end());
    return m[m.size() / 2];
  }
  double expansions_per_second() const {
    return total_micros > 0 ? double(expansions) / (total_micros * 1e-6) : 0;
  }
  double mean_ratio() const { return ratio_count ? ratio_sum / double(ratio_count) : 1.0; }
};

}  // namespace

int run_movingai(const MovingAiOptions& options) {
  auto found = require_planner(options.planner, "--planner");
  if (!found) {
    std::fprintf(stderr, "pathscope movingai: %s\n", found.error().to_string().c_str());
    return kExitUsage;
  }
  const PlannerInfo* info = *found;
  auto overrides = parse_param_overrides(options.params);
  if (!overrides) {
    std::fprintf(stderr, "pathscope movingai: %s\n", overrides.error().to_string().c_str());
    return kExitUsage;
  }
  auto values = resolve_params(*info, *overrides, "--param");
  if (!values) {
    std::fprintf(stderr, "pathscope movingai: %s\n", values.error().to_string().c_str());
    return kExitUsage;
  }
  std::vector<std::filesystem::path> inputs(options.paths.begin(), options.paths.end());
  auto files = collect_scen_files(inputs);
  if (!files) {
    std::fprintf(stderr, "pathscope movingai: %s\n", files.error().to_string().c_str());
    return kExitFailed;
  }
  if (files->empty()) {
    std::fprintf(stderr, "pathscope movingai: no .scen files in the given paths\n");
    return kExitFailed;
  }

  if (!options.json) {
    std::printf("planner %s%s\n", info->name.c_str(), info->exact ? " (exact: lengths must match)" : "");
    std::printf("%-34s %8s %10s %12s %14s %10s %10s\n", "map", "queries", "mismatches", "median us",
                "expansions/s", "mean ratio", "max ratio");
  }
  Tally total;
  for (const auto& scen_path : *files) {
    auto set = load_movingai_set(scen_path);
    if (!set) {
      std::fprintf(stderr, "pathscope movingai: %s\n", set.error().to_string().c_str());
      return kExitFailed;
    }
    if (set->problems.empty()) continue;
    const std::vector<MovingAiProblem>* problems = &set->problems;
    const std::filesystem::path& map_path = set->map_path;
    const PlanningWorld world(movingai_to_scenario(set->map));
    const std::unique_ptr<Planner> planner = info->create(QueryContext{world, 0, std::nullopt, *values});
    // Every `every`-th problem (a .scen file lists them by length bucket, so the sample
    // spans every length), at most `limit` of them.
    const std::size_t every = std::max<std::size_t>(1, options.every);
    std::size_t n = (problems->size() + every - 1) / every;
    if (options.limit > 0) n = std::min(options.limit, n);

    Tally tally;
    int reported = 0;
    for (std::size_t k = 0; k < n; ++k) {
      const std::size_t i = k * every;
      const MovingAiProblem& p = (*problems)[i];
      const PathQuery q{Vec2(p.start) + 0.5, Vec2(p.goal) + 0.5};
      const auto t0 = std::chrono::steady_clock::now();
      const PathResult& r = find_path(*planner, q);
      const auto t1 = std::chrono::steady_clock::now();
      const double us = std::chrono::duration<double, std::micro>(t1 - t0).count();

      const double opt = p.optimal_length;
      bool ok = r.status == SearchStatus::Found;
      if (ok) {
        ok = info->exact ? movingai_length_matches(r.length, p)
                         : movingai_length_within(r.length, p, options.max_ratio);
      }
      ++tally.queries;
      tally.micros.push_back(us);
      tally.total_micros += us;
      tally.expansions += r.stats.expansions;
      if (opt > 0 && r.status == SearchStatus::Found) {
        const double ratio = r.length / opt;
        tally.ratio_sum += ratio;
        ++tally.ratio_count;
        tally.ratio_max = std::max(tally.ratio_max, ratio);
      }
      if (!ok) {
        ++tally.mismatches;
        if (!options.json && reported++ < 5) {
          std::fprintf(stderr, "  mismatch %s:%d: (%d, %d) -> (%d, %d): %s, length %.8f, expected %.8f\n",
                       scen_path.string().c_str(), p.line, p.start.x, p.start.y, p.goal.x, p.goal.y,
                       to_string(r.status), r.length, opt);
        }
      }
      if (options.json) {
        nlohmann::ordered_json j;
        j["scen"] = scen_path.filename().string();
        j["line"] = p.line;
        j["planner"] = info->name;
        j["status"] = to_string(r.status);
        j["length"] = r.length;
        j["expected"] = opt;
        j["ok"] = ok;
        j["expansions"] = r.stats.expansions;
        j["micros"] = std::round(us * 10) / 10;
        std::printf("%s\n", j.dump().c_str());
      }
    }
    if (!options.json) {
      std::printf("%-34s %8zu %10zu %12.1f %14.0f %10.4f %10.4f\n", map_path.filename().string().c_str(),
                  tally.queries, tally.mismatches, tally.median(), tally.expansions_per_second(),
                  tally.mean_ratio(), tally.ratio_max);
    }
    total.add(tally);
  }
  char summary[256];
  std::snprintf(
      summary, sizeof summary,
      "%zu queries, %zu mismatches, median %.1f us/query, %.0f expansions/s, mean length ratio %.4f, "
      "max length ratio %.4f",
      total.queries, total.mismatches, total.median(), total.expansions_per_second(), total.mean_ratio(),
      total.ratio_max);
  if (options.json) {
    nlohmann::ordered_json j;
    j["summary"] = summary;
    j["queries"] = total.queries;
    j["mismatches"] = total.mismatches;
    j["median_micros"] = total.median();
    j["expansions_per_second"] = total.expansions_per_second();
    std::printf("%s\n", j.dump().c_str());
  } else {
    std::printf("%s\n", summary);
  }
  return total.mismatches > 0 ? kExitFailed : kExitOk;
}

namespace {

CliRunner add_movingai_options(CLI::App& command) {
  auto options = std::make_shared<MovingAiOptions>();
  command.add_option("paths", options->paths, ".scen files or folders")->required();
  command.add_option("--planner", options->planner, planner_help());
  command.add_option("--param", options->params, "planner parameter override, name=value (repeatable)");
  command.add_option("--max-ratio", options->max_ratio, "inexact planners: allowed length / optimal length");
  command.add_option("--limit", options->limit, "at most N problems per .scen file");
  command
      .add_option("--every", options->every,
                  "every Nth problem of each .scen file (a sample of every length)")
      ->check(CLI::PositiveNumber);
  command.add_flag("--json", options->json, "one JSON object per problem, then a summary object");
  return [options] { return run_movingai(*options); };
}

}  // namespace

const CliCommand kMovingAiCommand{"movingai", "check and time a planner on Moving AI .scen problems",
                                  add_movingai_options};

}  // namespace pathscope::app
