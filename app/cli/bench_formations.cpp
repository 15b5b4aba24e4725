// `pathscope bench formations`: platoons in formation on seed 004's situations (a town, a
// forest gap, a bridge, the sharp turn of Figure 9, two platoons meeting head-on), for
// each vehicle class and platoon size asked, with the referee's counts. The cases and
// their measures are the library's (planner/sim/formation_cases.hpp); the step times are
// wall-clock and vary from run to run, nothing else does.

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "app/cli/bench_support.hpp"
#include "app/cli/command_table.hpp"
#include "planner/sim/formation_cases.hpp"

namespace pathscope::app {
namespace {

struct BenchFormationsOptions {
  std::vector<std::string> cases{"town", "forest_gap", "bridge", "sharp_turn", "head_on", "bridge_both_ways"};
  std::vector<std::string> classes{"tracked", "wheeled", "rotary"};
  std::vector<int> vehicles{4, 8, 16};
  double seconds = 300;
  bool json = false;
};

int run_bench_formations(const BenchFormationsOptions& o) {
  if (!o.json) {
    std::printf("%-11s %-8s %4s %7s %8s %7s %7s %7s %6s %5s %5s %5s %5s %5s %6s %8s\n", "case", "class",
                "veh", "arrived", "seconds", "slot", "slotmax", "end", "radius", "left", "viol", "stuck",
                "3pt", "priv", "column", "us/veh");
  }
  int failures = 0;
  for (const std::string& name : o.cases) {
    sim::FormationCase c = sim::FormationCase::Town;
    for (const sim::FormationCase k : sim::kFormationCases) {
      if (sim::formation_case_name(k) == name) c = k;
    }
    for (const std::string& cls : o.classes) {
      for (const int n : o.vehicles) {
        const Scenario s = sim::formation_case(c, cls, n);
        const sim::FormationFigures f = sim::run_formation_case(s, o.seconds, bench::now_ns);
        if (f.arrived_pct < 100 || f.referee_violations > 0 || f.bridge_conflicts > 0) ++failures;
        if (o.json) {
          nlohmann::ordered_json j;
          j["case"] = name;
          j["class"] = cls;
          j["vehicles"] = f.vehicles;
          j["arrived_pct"] = f.arrived_pct;
          j["seconds_to_arrive"] = f.seconds_to_arrive;
          j["mean_slot_error_m"] = f.mean_slot_error_m;
          j["max_slot_error_m"] = f.max_slot_error_m;
          j["max_slot_error_end_m"] = f.max_slot_error_end_m;
          j["arrival_radius_m"] = f.arrival_radius_m;
          j["left_formation"] = f.left_formation;
          j["referee_violations"] = f.referee_violations;
          j["stuck"] = f.stuck;
          j["three_point_turns"] = f.three_point_turns;
          j["private_paths"] = f.private_paths;
          j["drive_to_in_walls"] = f.drive_to_in_walls;
          j["max_column_offset_m"] = f.max_column_offset_m;
          j["bridge_conflicts"] = f.bridge_conflicts;
          j["micros_per_vehicle_step"] = f.micros_per_vehicle_step;
          j["steps"] = f.steps;
          j["state_hash"] = f.state_hash;
          std::printf("%s\n", j.dump().c_str());
        } else {
          std::printf(
              "%-11s %-8s %4zu %6.1f%% %8.1f %7.2f %7.2f %7.2f %6.1f %5zu %5zu %5zu %5zu %5zu %6.2f %8.2f\n",
              name.c_str(), cls.c_str(), f.vehicles, f.arrived_pct, f.seconds_to_arrive, f.mean_slot_error_m,
              f.max_slot_error_m, f.max_slot_error_end_m, f.arrival_radius_m, f.left_formation,
              f.referee_violations, f.stuck, f.three_point_turns, f.private_paths, f.max_column_offset_m,
              f.micros_per_vehicle_step);
        }
        std::fflush(stdout);
      }
    }
  }
  return failures > 0 ? 1 : 0;
}

CliRunner add_bench_formations_options(CLI::App& command) {
  auto options = std::make_shared<BenchFormationsOptions>();
  command.add_option("--case", options->cases, "cases to run (repeatable, or a,b)")
      ->delimiter(',')
      ->check(CLI::IsMember({"town", "forest_gap", "bridge", "sharp_turn", "head_on", "bridge_both_ways"}));
  command.add_option("--class", options->classes, "vehicle classes (repeatable, or a,b)")
      ->delimiter(',')
      ->check(CLI::IsMember({"tracked", "wheeled", "rotary", "infantry"}));
  command.add_option("--vehicles", options->vehicles, "vehicles per platoon (repeatable, or a,b)")
      ->delimiter(',')
      ->check(CLI::Range(1, 64));
  command.add_option("--seconds", options->seconds, "simulated seconds at most per run")
      ->check(CLI::Range(1.0, 100000.0));
  command.add_flag("--json", options->json, "one JSON object per run");
  return [options] { return run_bench_formations(*options); };
}

}  // namespace

const CliCommand kBenchFormationsCommand{
    "bench formations",
    "platoons in formation (seed 004): a town, a forest gap, a bridge, a sharp turn, two platoons head-on; "
    "exit 1 if a platoon does not arrive or the referee finds a violation",
    add_bench_formations_options};

}  // namespace pathscope::app
