// `pathscope convert IN.map OUT.json`: a Moving AI map (and optionally problems from a
// .scen file) into a Pathscope scenario.

#include <algorithm>
#include <cstdio>
#include <memory>
#include <vector>

#include <CLI/CLI.hpp>

#include "app/cli/cli_commands.hpp"
#include "app/cli/command_table.hpp"
#include "planner/scenario/movingai_check.hpp"
#include "planner/scenario/movingai_convert.hpp"
#include "planner/scenario/movingai_parse.hpp"
#include "planner/scenario/scenario_io.hpp"

namespace pathscope::app {

int run_convert(const ConvertOptions& options) {
  auto map = load_movingai_map(options.in_map);
  if (!map) {
    std::fprintf(stderr, "pathscope convert: %s\n", map.error().to_string().c_str());
    return kExitFailed;
  }
  Scenario scenario;
  if (options.scen.empty()) {
    scenario = movingai_to_scenario(*map);
  } else {
    auto problems = load_movingai_scen(options.scen);
    if (!problems) {
      std::fprintf(stderr, "pathscope convert: %s\n", problems.error().to_string().c_str());
      return kExitFailed;
    }
    if (auto ok = check_movingai_problems(*map, *problems, options.scen); !ok) {
      std::fprintf(stderr, "pathscope convert: %s\n", ok.error().to_string().c_str());
      return kExitFailed;
    }
    // Which problems: the file's first (shortest) ones, a spread over the whole file
    // (every length bucket), or its last (longest) ones.
    std::vector<MovingAiProblem> picked = std::move(problems).value();
    const std::size_t n = std::min(picked.size(), options.max_queries);
    if (options.pick == "spread" && n > 0 && picked.size() > n) {
      std::vector<MovingAiProblem> spread;
      for (std::size_t i = 0; i < n; ++i)
        spread.push_back(picked[i * (picked.size() - 1) / std::max<std::size_t>(1, n - 1)]);
      picked = std::move(spread);
    } else if (options.pick == "longest" && picked.size() > n) {
      picked.erase(picked.begin(), picked.end() - std::ptrdiff_t(n));
    } else if (options.pick != "first" && options.pick != "spread" && options.pick != "longest") {
      std::fprintf(stderr, "pathscope convert: --pick %s: expected first, spread or longest\n",
                   options.pick.c_str());
      return kExitUsage;
    }
    scenario = movingai_to_scenario(*map, picked, options.max_queries);
  }
  if (auto saved = save_scenario(scenario, options.out_json); !saved) {
    std::fprintf(stderr, "pathscope convert: %s\n", saved.error().to_string().c_str());
    return kExitFailed;
  }
  std::printf("wrote %s: %d x %d cells, %zu terrain types, %zu queries\n", options.out_json.c_str(),
              map->width, map->height, scenario.terrains.size(), scenario.queries.size());
  return kExitOk;
}

namespace {

CliRunner add_convert_options(CLI::App& command) {
  auto options = std::make_shared<ConvertOptions>();
  command.add_option("in", options->in_map, "Moving AI .map")->required();
  command.add_option("out", options->out_json, "scenario JSON to write")->required();
  command.add_option("--scen", options->scen, "add problems of this .scen file as queries");
  command.add_option("--max-queries", options->max_queries, "at most N queries from --scen");
  command.add_option("--pick", options->pick, "which problems: first (shortest), spread or longest");
  return [options] { return run_convert(*options); };
}

}  // namespace

const CliCommand kConvertCommand{"convert", "convert a Moving AI .map into a scenario JSON",
                                 add_convert_options};

}  // namespace pathscope::app
