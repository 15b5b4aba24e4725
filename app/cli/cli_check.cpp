// `pathscope check DIR [--jobs N]`: a regression run over a folder of scenarios. Each
// file's searches with an `expected_length` are planned through the registry (exact
// planners only, as `pathscope solve` checks them) and its `expect` blocks are checked
// against a simulation run (planner/sim/expectations). Files run in parallel on a pool
// of threads; the table comes out in file-name order whatever finishes first.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <CLI/CLI.hpp>

#include "app/cli/cli_commands.hpp"
#include "app/cli/command_table.hpp"
#include "planner/core/planner_registry.hpp"
#include "planner/sim/expectations.hpp"
#include "planner/world/belief.hpp"
#include "planner/world/planning_world.hpp"

namespace pathscope::app {
namespace {

// One line of the table.
struct Row {
  std::string file;
  std::string kind;     // "search", "simulation", "broken" or "-"
  std::string verdict;  // "passed", "failed" or "nothing"
  double millis = 0;    // wall-clock time of the check
  std::string message;
  std::vector<std::string> details;  // further failures, printed under the row
};

double millis_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f s", s);
  return buf;
}

// The queries with a known optimal length, each planned by its own planner.
Row check_searches(const std::string& file, Scenario scenario) {
  const auto t0 = std::chrono::steady_clock::now();
  Row row{.file = file, .kind = "search", .verdict = "passed", .millis = 0, .message = {}, .details = {}};
  observe_all(scenario);  // factions with fog of war look once, as `solve` does
  const PlanningWorld world(std::move(scenario));
  std::map<std::string, std::unique_ptr<Planner>> planners;
  std::size_t checked = 0, skipped = 0;
  for (std::size_t i = 0; i < world.scenario().queries.size(); ++i) {
    const Query& q = world.scenario().queries[i];
    if (!q.expected_length) continue;
    const std::string at = "queries[" + std::to_string(i) + "]";
    const std::string label = at + (q.name.empty() ? "" : " \"" + q.name + "\"");
    PlannerChoiceRequest request;
    request.query_planner = q.planner;
    request.query_params = q.params;
    request.query_where = at;
    auto choice = choose_planner(request);
    if (!choice) {
      row.details.push_back(label + ": " + choice.error().to_string());
      continue;
    }
    if (!choice->info->exact) {
      ++skipped;  // an inexact planner's length is no check
      continue;
    }
    const std::optional<std::size_t> faction = world.scenario().find_faction(q.faction);
    std::string key = choice->info->name + "/" + std::to_string(q.movement_class);
    for (double v : choice->params) key += "/" + std::to_string(v);
    if (faction) key += "/faction " + std::to_string(*faction);
    auto& planner = planners[key];
    if (!planner)
      planner = choice->info->create(QueryContext{world, q.movement_class, faction, choice->params});
    const PathResult& r = find_path(*planner, PathQuery{q.start, q.goal});
    ++checked;
    const double tol = std::max(5e-3, 5e-6 * *q.expected_length);
    if (r.status != SearchStatus::Found) {
      row.details.push_back(label + ": " + choice->info->name + " " + to_string(r.status) +
                            ", expected length " + std::to_string(*q.expected_length));
    } else if (std::abs(r.length - *q.expected_length) > tol) {
      char buf[160];
      std::snprintf(buf, sizeof buf, ": %s length %.6f, expected %.6f", choice->info->name.c_str(), r.length,
                    *q.expected_length);
      row.details.push_back(label + buf);
    }
  }
  if (!row.details.empty()) {
    row.verdict = "failed";
    row.message = row.details.front();
    row.details.erase(row.details.begin());
  } else {
    row.message =
        std::to_string(checked) + (checked == 1 ? " query" : " queries") + " of expected length matched";
    if (skipped > 0) row.message += " (" + std::to_string(skipped) + " by inexact planners not checked)";
  }
  row.millis = millis_since(t0);
  return row;
}

// The simulation's expectations.
Row check_simulation(const std::string& file, Scenario scenario) {
  const auto t0 = std::chrono::steady_clock::now();
  Row row{.file = file, .kind = "simulation", .verdict = "passed", .millis = 0, .message = {}, .details = {}};
  const std::size_t count = scenario.expect.size();
  const sim::ExpectationRun run = sim::run_expectations(std::move(scenario));
  if (!run.error.empty()) row.details.push_back("saved game not restored: " + run.error);
  for (const sim::ExpectationResult& r : run.results) {
    if (r.verdict != sim::Verdict::Passed) {
      row.details.push_back(r.label + " " + to_string(r.verdict) + " at " + seconds_text(r.time) + ": " +
                            r.message);
    }
  }
  if (!row.details.empty()) {
    row.verdict = "failed";
    row.message = row.details.front();
    row.details.erase(row.details.begin());
  } else {
    row.message = std::to_string(count) + (count == 1 ? " expectation" : " expectations") + " held over " +
                  seconds_text(run.seconds) + " simulated";
  }
  row.millis = millis_since(t0);
  return row;
}

// Every check of one file: a row per kind, or one row saying why it cannot be read.
std::vector<Row> check_file(const std::string& file) {
  const auto t0 = std::chrono::steady_clock::now();
  auto scenario = load_any_scenario(file);
  if (!scenario) {
    return {Row{.file = file,
                .kind = "broken",
                .verdict = "failed",
                .millis = millis_since(t0),
                .message = scenario.error().to_string(),
                .details = {}}};
  }
  std::vector<Row> rows;
  const bool searches = std::any_of(scenario->queries.begin(), scenario->queries.end(),
                                    [](const Query& q) { return q.expected_length.has_value(); });
  const bool simulation = !scenario->expect.empty();
  if (simulation && scenario->units.empty()) {
    return {Row{.file = file,
                .kind = "simulation",
                .verdict = "failed",
                .millis = millis_since(t0),
                .message = file + ": expect: the scenario has no units to simulate",
                .details = {}}};
  }
  if (searches) rows.push_back(check_searches(file, simulation ? *scenario : std::move(*scenario)));
  if (simulation) rows.push_back(check_simulation(file, std::move(*scenario)));
  if (rows.empty()) {
    rows.push_back(Row{.file = file,
                       .kind = "-",
                       .verdict = "nothing",
                       .millis = millis_since(t0),
                       .message = "no expected_length and no expect blocks",
                       .details = {}});
  }
  return rows;
}

}  // namespace

int run_check(const CheckOptions& options) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(options.dir, ec)) {
    std::fprintf(stderr, "pathscope check: %s: not a folder\n", options.dir.c_str());
    return kExitFailed;
  }
  std::vector<std::string> files;
  for (const fs::directory_entry& entry : fs::directory_iterator(options.dir, ec)) {
    if (entry.is_regular_file() && entry.path().extension() == ".json")
      files.push_back(entry.path().string());
  }
  if (ec) {
    std::fprintf(stderr, "pathscope check: %s: %s\n", options.dir.c_str(), ec.message().c_str());
    return kExitFailed;
  }
  std::sort(files.begin(), files.end());
  if (files.empty()) {
    std::fprintf(stderr, "pathscope check: %s: no scenario files (*.json)\n", options.dir.c_str());
    return kExitFailed;
  }

  // A pool of threads takes files in turn; each file's rows go to its own slot.
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const std::size_t jobs =
      std::min<std::size_t>(files.size(), options.jobs > 0 ? static_cast<std::size_t>(options.jobs) : cores);
  std::vector<std::vector<Row>> results(files.size());
  std::atomic<std::size_t> next{0};
  const auto t0 = std::chrono::steady_clock::now();
  auto worker = [&] {
    for (std::size_t i = next++; i < files.size(); i = next++) {
      try {
        results[i] = check_file(files[i]);
      } catch (const std::exception& e) {
        // One file's failure (out of memory, ...) must not end the others' threads.
        results[i] = {Row{.file = files[i],
                          .kind = "broken",
                          .verdict = "failed",
                          .millis = 0,
                          .message = files[i] + ": " + e.what(),
                          .details = {}}};
      }
    }
  };
  std::vector<std::thread> pool;
  for (std::size_t k = 1; k < jobs; ++k) pool.emplace_back(worker);
  worker();
  for (std::thread& t : pool) t.join();
  const double total_ms = millis_since(t0);

  std::size_t width = 4;
  for (const std::string& f : files) width = std::max(width, f.size());
  std::size_t passed = 0, failed = 0, nothing = 0, rows = 0;
  std::printf("%-*s  %-10s  %-7s  %9s  %s\n", static_cast<int>(width), "file", "kind", "verdict", "time",
              "message");
  for (const std::vector<Row>& file_rows : results) {
    for (const Row& r : file_rows) {
      ++rows;
      if (r.verdict == "passed") ++passed;
      if (r.verdict == "failed") ++failed;
      if (r.verdict == "nothing") ++nothing;
      std::printf("%-*s  %-10s  %-7s  %6.0f ms  %s\n", static_cast<int>(width), r.file.c_str(),
                  r.kind.c_str(), r.verdict.c_str(), r.millis, r.message.c_str());
      for (const std::string& d : r.details)
        std::printf("%*s  %s\n", static_cast<int>(width + 36), "", d.c_str());
    }
  }
  std::printf(
      "%zu files, %zu checks: %zu passed, %zu failed, %zu files with nothing to check; %.2f s on %zu "
      "thread%s\n",
      files.size(), rows - nothing, passed, failed, nothing, total_ms / 1000.0, jobs, jobs == 1 ? "" : "s");
  return failed > 0 ? kExitFailed : kExitOk;
}

namespace {

CliRunner add_check_options(CLI::App& command) {
  auto options = std::make_shared<CheckOptions>();
  command.add_option("dir", options->dir, "folder of scenario JSON files")->required();
  command.add_option("--jobs", options->jobs, "threads (default: every core)")->check(CLI::Range(1, 1024));
  return [options] { return run_check(*options); };
}

}  // namespace

const CliCommand kCheckCommand{
    "check", "run every scenario in a folder: searches with expected_length, simulations with expect blocks",
    add_check_options};

}  // namespace pathscope::app
