// `pathscope simulate FILE`: runs a scenario's units headless (planner/sim) and reports
// the run's figures; `pathscope bench sim`: the generated standard cases. Overlaps,
// tunnelling, units inside walls and goal errors are the referee's (sim/sim_referee.hpp),
// which checks every step with code of its own, not the simulation's counters.

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <system_error>
#include <vector>

#include <sys/wait.h>

#include <CLI/CLI.hpp>
#include <glm/geometric.hpp>
#include <nlohmann/json.hpp>

#include "app/cli/bench_support.hpp"
#include "app/cli/cli_commands.hpp"
#include "app/cli/command_table.hpp"
#include "planner/navmesh/crowd_referee.hpp"
#include "planner/navmesh/navmesh_crowd.hpp"
#include "planner/scenario/movingai_convert.hpp"
#include "planner/scenario/movingai_parse.hpp"
#include "planner/scenario/scenario_io.hpp"
#include "planner/scenario/scenario_validate.hpp"
#include "planner/sim/expectations.hpp"
#include "planner/sim/recording.hpp"
#include "planner/sim/sim_cases.hpp"
#include "planner/sim/sim_referee.hpp"
#include "planner/sim/simulation.hpp"
#include "planner/sim/stuck_detector.hpp"
#include "planner/sim/stuck_repro.hpp"
#include "planner/world/planning_world.hpp"

namespace pathscope::app {
namespace {

// The simulation's profiling clock (timing only, never a result).
std::uint64_t now_ns() {
  return static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(bench::Clock::now().time_since_epoch()).count());
}

// Stuck units listed by `simulate` before its summary; the rest are counted.
constexpr std::size_t kStuckListed = 20;

struct RunFigures {
  std::uint64_t steps = 0;
  std::size_t units = 0;
  std::size_t ordered = 0;
  std::size_t arrived = 0;
  std::size_t goal_taken = 0;     // beside a goal another unit holds (SimUnit::goal_taken)
  double seconds_to_arrive = -1;  // simulated seconds until the last ordered unit arrived
  std::size_t stuck = 0;          // units the stuck detector holds stuck at the end (set by the caller)
  double micros_per_unit_step = 0;
  double planning_ms = 0;
};

// Runs until `max_steps`, or (until_arrived) every ordered unit has arrived, or
// `after_step` (if any) says to stop. The referee checks every step.
RunFigures run(sim::Simulation& simulation, sim::SimReferee& referee, std::uint64_t max_steps,
               bool until_arrived, const std::function<bool()>& after_step = {}) {
  simulation.set_clock(now_ns);
  RunFigures f;
  std::uint64_t unit_steps = 0;
  for (std::uint64_t i = 0; i < max_steps; ++i) {
    // A unit beside a goal another unit holds for good (SimUnit::goal_taken) has done
    // what it can: waiting for it would run to the end.
    if (until_arrived && simulation.ordered_count() > 0 &&
        simulation.arrived_count() + simulation.goal_taken_count() == simulation.ordered_count())
      break;
    unit_steps += simulation.unit_count();
    simulation.step();
    referee.check_step(simulation);
    if (after_step && after_step()) break;
  }
  f.steps = simulation.step_count();
  f.units = simulation.unit_count();
  f.ordered = simulation.ordered_count();
  f.arrived = simulation.arrived_count();
  f.goal_taken = simulation.goal_taken_count();
  if (f.ordered > 0 && f.arrived == f.ordered) {
    double last = 0;
    for (const sim::SimUnit& u : simulation.slots()) {
      if (u.alive && u.goal.arrived) last = std::max(last, u.goal.arrived_time);
    }
    f.seconds_to_arrive = last;
  }
  f.micros_per_unit_step = unit_steps > 0 ? static_cast<double>(simulation.movement_nanoseconds()) / 1000.0 /
                                                static_cast<double>(unit_steps)
                                          : 0;
  f.planning_ms = static_cast<double>(simulation.planning_nanoseconds()) / 1e6;
  return f;
}

// A state hash as 16 hexadecimal digits, as the window shows it.
std::string hex(std::uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016" PRIx64, v);
  return buf;
}

// One repro written by --save-stuck.
struct WrittenRepro {
  std::string path;
  std::uint32_t unit = 0;
  double flagged = 0;  // seconds
  double starts = 0;   // seconds
  std::uint64_t step = 0;
};

// Writes the stuck units' repros into `dir` (made already): <stem>_unit<ID>_<T>s.json.
Status write_repros(const Scenario& start, std::span<const sim::StuckEvent> events, double seconds_before,
                    const std::filesystem::path& dir, const std::string& stem,
                    std::vector<WrittenRepro>& written) {
  return sim::make_stuck_repros(start, events, sim::StuckReproParams{.seconds_before = seconds_before},
                                [&](sim::StuckRepro&& r) -> Status {
                                  char name[64];
                                  std::snprintf(name, sizeof name, "_unit%u_%.2fs.json", r.event.unit,
                                                r.event.time);
                                  const std::filesystem::path path = dir / (stem + name);
                                  if (Status saved = save_scenario(r.scenario, path); !saved.ok())
                                    return saved;
                                  written.push_back(WrittenRepro{.path = path.string(),
                                                                 .unit = r.event.unit,
                                                                 .flagged = r.event.time,
                                                                 .starts = r.time,
                                                                 .step = r.step});
                                  return Ok{};
                                });
}

// A unit with an order it has not finished (a move or waypoints order not arrived, or a
// patrol): --units lists them.
bool unfinished(const sim::SimUnit& u) {
  if (!u.alive || u.route.order.points.empty()) return false;
  if (u.route.order.kind == OrderKind::Patrol) return true;
  return (u.route.order.kind == OrderKind::Move || u.route.order.kind == OrderKind::Waypoints) &&
         !u.goal.arrived;
}

// One unit of --units, as an object (its keys are the text line's fields).
nlohmann::ordered_json unit_json(const sim::Simulation& sim, const sim::SimUnit& u) {
  const Scenario& s = sim.scenario();
  nlohmann::ordered_json j;
  j["unit"] = u.scenario_id;
  j["faction"] = u.faction < s.factions.size() ? s.factions[u.faction].name : std::string();
  j["class"] = u.movement_class < s.classes.size() ? s.classes[u.movement_class].name : std::string();
  j["position"] = {u.body.position.x, u.body.position.y};
  j["speed"] = u.body.speed;
  j["state"] = to_string(u.route.state);
  j["yield"] = sim::to_string(u.coop.yield);
  const sim::SimUnit* other = u.coop.yield != sim::Yield::None ? sim.unit(u.coop.yield_to) : nullptr;
  j["yields_to"] = other ? nlohmann::ordered_json(other->scenario_id) : nlohmann::ordered_json();
  j["bridge_wait"] = u.waits.bridge;
  j["passage_wait"] = u.waits.passage;
  const std::size_t k = std::min(u.route.order_point, u.route.order.points.size() - 1);
  j["order_point"] = {u.route.order.points[k].x, u.route.order.points[k].y};
  j["distance_m"] = glm::length(u.route.order.points[k] - u.body.position);
  j["path_points_left"] = u.route.waypoint < u.route.path.size() ? u.route.path.size() - u.route.waypoint : 0;
  j["next_point"] =
      u.route.waypoint < u.route.path.size()
          ? nlohmann::ordered_json{u.route.path[u.route.waypoint].x, u.route.path[u.route.waypoint].y}
          : nlohmann::ordered_json();
  j["no_progress_s"] = std::max(0.0, sim.time() - u.route.progress_time);
  return j;
}

void print_unit(const nlohmann::ordered_json& j) {
  std::string line = "unit " + std::to_string(j["unit"].get<std::uint32_t>());
  line += " (" + j["faction"].get<std::string>() + ", " + j["class"].get<std::string>() + ")";
  char buffer[256];
  std::snprintf(buffer, sizeof buffer, " at (%.2f, %.2f), %.2f m/s, %s", j["position"][0].get<double>(),
                j["position"][1].get<double>(), j["speed"].get<double>(),
                j["state"].get<std::string>().c_str());
  line += buffer;
  if (j["yield"] != "none") {
    line += ", yield " + j["yield"].get<std::string>();
    if (!j["yields_to"].is_null()) line += " for unit " + std::to_string(j["yields_to"].get<std::uint32_t>());
  }
  if (j["bridge_wait"].get<bool>()) line += ", waiting for a bridge";
  if (j["passage_wait"].get<bool>()) line += ", waiting for a passage";
  std::snprintf(buffer, sizeof buffer, ", %.2f m from its point (%.2f, %.2f)", j["distance_m"].get<double>(),
                j["order_point"][0].get<double>(), j["order_point"][1].get<double>());
  line += buffer;
  if (!j["next_point"].is_null()) {
    std::snprintf(buffer, sizeof buffer, ", next path point (%.2f, %.2f) of %zu left",
                  j["next_point"][0].get<double>(), j["next_point"][1].get<double>(),
                  j["path_points_left"].get<std::size_t>());
    line += buffer;
  }
  std::snprintf(buffer, sizeof buffer, ", no progress for %.1f s", j["no_progress_s"].get<double>());
  line += buffer;
  std::printf("%s\n", line.c_str());
}

void print_verdict(const sim::ExpectationResult& r) {
  std::printf("%s: %s at %.2f s: %s\n", r.label.c_str(), to_string(r.verdict), r.time, r.message.c_str());
}

}  // namespace

int run_simulate(const SimulateOptions& options) {
  auto scenario = load_any_scenario(options.path);
  if (!scenario) {
    std::fprintf(stderr, "pathscope simulate: %s\n", scenario.error().to_string().c_str());
    return kExitFailed;
  }
  if (options.discrete) scenario->sim.continuous = false;
  if (options.no_prevention) scenario->sim.prevention = false;
  if (options.no_cooperation) scenario->sim.cooperation = false;
  if (options.no_passages) scenario->sim.passages = false;
  if (options.knots) scenario->sim.knots = true;
  if (options.no_formation_goals) scenario->sim.formation_goals = false;
  if (options.no_detours) scenario->sim.detours = false;
  if (options.density_cost >= 0) scenario->sim.density_cost = options.density_cost;
  if (scenario->units.empty()) {
    std::fprintf(stderr, "pathscope simulate: %s: the scenario has no units\n", options.path.c_str());
    return kExitFailed;
  }
  if (!std::isfinite(options.repro_seconds) || !(options.repro_seconds > 0)) {
    std::fprintf(stderr, "pathscope simulate: --repro-seconds %g: expected a number of seconds > 0\n",
                 options.repro_seconds);
    return kExitUsage;
  }
  const bool repros = !options.save_stuck.empty();
  if (repros) {
    // Made before the run, so that a folder that cannot be made costs no simulation.
    std::error_code ec;
    std::filesystem::create_directories(options.save_stuck, ec);
    if (ec || !std::filesystem::is_directory(options.save_stuck)) {
      std::fprintf(stderr, "pathscope simulate: --save-stuck %s: cannot make the folder: %s\n",
                   options.save_stuck.c_str(), ec ? ec.message().c_str() : "a file of that name exists");
      return kExitFailed;
    }
  }
  std::uint64_t steps = options.steps;
  if (options.seconds > 0)
    steps = static_cast<std::uint64_t>(std::ceil(options.seconds / scenario->sim.dt - 1e-9));
  // With expectations and no length given, it runs until every one is decided (at most
  // the largest deadline, in simulated time since the scenario's start); a length given
  // is run in full, so its figures stay comparable. Repros want every stuck unit of that
  // time, so with --save-stuck it is not cut short once the expectations are decided.
  const bool expecting = !scenario->expect.empty();
  const bool to_horizon = expecting && steps == 0 && !options.until_arrived;
  const bool until_decided = to_horizon && !repros;
  const auto horizon_step = static_cast<std::uint64_t>(
      std::ceil(sim::expectation_horizon(scenario->expect) / scenario->sim.dt - 1e-9));
  if (steps == 0)
    steps = options.until_arrived ? static_cast<std::uint64_t>(std::ceil(600 / scenario->sim.dt)) : 300;
  // The scenario the run starts from, as the repros start from it too.
  std::optional<Scenario> start;
  if (repros) start = *scenario;
  // The detector and the checker only observe: the run is the same with or without them.
  sim::StuckDetector detector(sim::stuck_params(scenario->sim));
  sim::ExpectationChecker checker(scenario->expect);
  // The recorder watches too: the scenario as run (a saved game with its state).
  std::optional<sim::Recording> recording;
  if (!options.record.empty()) {
    recording.emplace(*scenario, sim::RecordingLimits{.max_bytes = options.record_cap_mb << 20});
  }
  const std::string saved_state = std::move(scenario->sim_state);
  scenario->sim_state.clear();
  Result<std::unique_ptr<sim::Simulation>> created = sim::Simulation::create(std::move(*scenario));
  if (!created) {
    std::fprintf(stderr, "pathscope simulate: %s: %s\n", options.path.c_str(),
                 created.error().to_string().c_str());
    return kExitFailed;
  }
  sim::Simulation& simulation = **created;
  if (!saved_state.empty()) {
    // A saved game: on from where it was saved (the stuck detector's tracks too, if kept).
    if (const Status restored = sim::restore_saved_game(simulation, detector, saved_state); !restored.ok()) {
      std::fprintf(stderr, "pathscope simulate: %s: %s\n", options.path.c_str(),
                   restored.error().to_string().c_str());
      return kExitFailed;
    }
  }
  if (recording) (void)recording->capture(simulation);
  if (to_horizon) {
    const std::uint64_t at = simulation.step_count();
    steps = horizon_step > at ? horizon_step - at : 0;
  }
  sim::SimReferee referee;
  RunFigures f = run(simulation, referee, steps, options.until_arrived, [&] {
    if (recording) (void)recording->capture(simulation);
    detector.observe(simulation);
    checker.observe(simulation, detector);
    return until_decided && checker.decided();
  });
  checker.finish(simulation);
  f.stuck = detector.stuck_now();
  std::vector<WrittenRepro> written;
  if (repros) {
    const std::string stem = std::filesystem::path(options.path).stem().string();
    if (const Status ok =
            write_repros(*start, detector.events(), options.repro_seconds, options.save_stuck, stem, written);
        !ok.ok()) {
      std::fprintf(stderr, "pathscope simulate: --save-stuck: %s\n", ok.error().to_string().c_str());
      return kExitFailed;
    }
  }
  const sim::SimCounters& c = simulation.counters();
  const sim::RefereeCounts& r = referee.counts();
  const sim::GoalErrors goals = referee.goal_errors(simulation);
  if (options.json) {
    nlohmann::ordered_json j;
    j["file"] = options.path;
    j["steps"] = f.steps;
    j["seconds"] = simulation.time();
    j["units"] = f.units;
    j["ordered"] = f.ordered;
    j["arrived"] = f.arrived;
    j["goal_taken"] = f.goal_taken;
    j["at_goal_pct"] = goals.at_goal_pct;
    j["mean_goal_error_m"] = goals.mean_goal_error_m;
    j["max_goal_error_m"] = goals.max_goal_error_m;
    j["goal_tolerance_m"] = goals.tolerance_m;
    j["hard_overlaps"] = r.hard_overlaps;
    j["max_overlap_m"] = r.max_overlap_m;
    j["tunnelled"] = r.tunnelled;
    j["inside_walls"] = r.inside_walls;
    // Units stuck at the last step by the stuck detector (the window's count at that
    // step), and every flag it raised; the definition's parameters.
    j["stuck"] = f.stuck;
    j["stuck_events"] = detector.events().size();
    j["stuck_seconds"] = detector.params().seconds;
    j["stuck_progress_m"] = detector.params().progress;
    j["repaths"] = c.repaths;
    j["path_requests"] = c.path_requests;
    j["collisions_found"] = c.collisions_found;
    j["state_hash"] = hex(simulation.state_hash());
    j["micros_per_unit_step"] = f.micros_per_unit_step;
    j["planning_ms"] = f.planning_ms;
    if (expecting) {
      nlohmann::ordered_json list = nlohmann::ordered_json::array();
      for (const sim::ExpectationResult& r : checker.results()) {
        list.push_back({{"expectation", r.label},
                        {"kind", to_string(r.kind)},
                        {"verdict", to_string(r.verdict)},
                        {"time", r.time},
                        {"message", r.message}});
      }
      j["expectations"] = list;
      j["expectations_passed"] = !checker.failed();
    }
    if (options.list_units) {
      nlohmann::ordered_json list = nlohmann::ordered_json::array();
      for (const sim::SimUnit& u : simulation.slots()) {
        if (unfinished(u)) list.push_back(unit_json(simulation, u));
      }
      j["units_left"] = list;
    }
    if (repros) {
      nlohmann::ordered_json list = nlohmann::ordered_json::array();
      for (const WrittenRepro& w : written) {
        list.push_back({{"file", w.path},
                        {"unit", w.unit},
                        {"flagged", w.flagged},
                        {"starts", w.starts},
                        {"step", w.step}});
      }
      j["stuck_repros"] = list;
    }
    std::printf("%s\n", j.dump().c_str());
  } else {
    const auto events = detector.events();
    for (std::size_t i = 0; i < events.size() && i < kStuckListed; ++i)
      std::printf("%s\n", sim::describe(events[i]).c_str());
    if (events.size() > kStuckListed)
      std::printf("... and %zu more stuck flags\n", events.size() - kStuckListed);
    for (const sim::ExpectationResult& r : checker.results()) print_verdict(r);
    if (options.list_units) {
      for (const sim::SimUnit& u : simulation.slots()) {
        if (unfinished(u)) print_unit(unit_json(simulation, u));
      }
    }
    std::printf(
        "%s: %llu steps (%.2f s), %zu units, %zu/%zu arrived, %llu hard overlaps (max %.3f m), "
        "%llu tunnelled, %llu inside walls, %.2f%% at goal (within %.2f m; error mean %.2f m, max %.2f m), "
        "%zu stuck now (less than %.3g m closer in %.3g s; %zu stuck flags in the run), %llu repaths, "
        "state_hash %s, %.3f us per unit-step, planning %.1f ms\n",
        options.path.c_str(), static_cast<unsigned long long>(f.steps), simulation.time(), f.units, f.arrived,
        f.ordered, static_cast<unsigned long long>(r.hard_overlaps), r.max_overlap_m,
        static_cast<unsigned long long>(r.tunnelled), static_cast<unsigned long long>(r.inside_walls),
        goals.at_goal_pct, goals.tolerance_m, goals.mean_goal_error_m, goals.max_goal_error_m, f.stuck,
        detector.params().progress, detector.params().seconds, events.size(),
        static_cast<unsigned long long>(c.repaths), hex(simulation.state_hash()).c_str(),
        f.micros_per_unit_step, f.planning_ms);
  }
  if (!options.save_state.empty()) {
    if (const Status saved = save_scenario(sim::saved_game(simulation, detector), options.save_state);
        !saved.ok()) {
      std::fprintf(stderr, "pathscope simulate: %s\n", saved.error().to_string().c_str());
      return kExitFailed;
    }
    if (!options.json) {
      std::printf("saved game: %s (step %llu)\n", options.save_state.c_str(),
                  static_cast<unsigned long long>(simulation.step_count()));
    }
  }
  if (recording) {
    if (recording->stopped())
      std::fprintf(stderr, "pathscope simulate: %s\n", recording->stop_message().c_str());
    if (const Status saved = recording->save(options.record); !saved.ok()) {
      std::fprintf(stderr, "pathscope simulate: %s\n", saved.error().to_string().c_str());
      return kExitFailed;
    }
    if (!options.json) {
      std::printf("recording: %s (steps %llu to %llu, %zu decisions, %zu stuck flags, %.1f MB)\n",
                  options.record.c_str(), static_cast<unsigned long long>(recording->first_step()),
                  static_cast<unsigned long long>(recording->last_step()), recording->decisions().size(),
                  recording->stuck().size(), static_cast<double>(recording->bytes()) / (1 << 20));
    }
  }
  if (!options.json) {
    for (const WrittenRepro& w : written) {
      std::printf("stuck repro: %s (unit %u flagged at %.2f s; starts at %.2f s, step %llu)\n",
                  w.path.c_str(), w.unit, w.flagged, w.starts, static_cast<unsigned long long>(w.step));
    }
  }
  if (const sim::ExpectationResult* failure = checker.first_failure()) {
    std::fprintf(stderr, "pathscope simulate: %s: %s failed at %.2f s: %s\n", options.path.c_str(),
                 failure->label.c_str(), failure->time, failure->message.c_str());
    return kExitFailed;
  }
  return kExitOk;
}

// RVO2's figures on a circle case, from its driver's one JSON line.
struct PeerFigures {
  double micros_per_unit_step = 0;
  double at_goal_pct = 0;
  double seconds_to_arrive = -1;
};

// Runs `bin UNITS SECONDS DT` (scripts/peers/rvo2_circle.cpp); an error message, or "".
std::string run_rvo2(const std::string& bin, int units, double seconds, double dt, PeerFigures& out) {
  char args[96];
  std::snprintf(args, sizeof args, " %d %.17g %.17g", units, seconds, dt);
  const std::string cmd = bench::shell_quote(bin) + args;
  FILE* pipe = popen(cmd.c_str(), "r");
  if (!pipe) return "cannot run " + cmd;
  std::string text;
  char line[1024];
  while (std::fgets(line, sizeof line, pipe)) text += line;
  const int status = pclose(pipe);
  if (status != 0) {
    const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return cmd + " exited with status " + std::to_string(code) + (code == 127 ? " (no such program)" : "");
  }
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (!j.is_object() || !j.contains("micros_per_unit_step") || !j["micros_per_unit_step"].is_number())
    return cmd + " printed no figures (expected one JSON line with micros_per_unit_step)";
  out.micros_per_unit_step = j["micros_per_unit_step"].get<double>();
  out.at_goal_pct = j.value("at_goal_pct", 0.0);
  out.seconds_to_arrive = j.value("seconds_to_arrive", -1.0);
  return "";
}

// DetourCrowd's figures on a case, by the crowd referee.
struct CrowdFigures {
  std::size_t agents = 0;
  std::uint64_t steps = 0;
  double micros_per_unit_step = 0;
  CrowdCounts counts;
  CrowdGoals goals;
};

// Runs the scenario's units as DetourCrowd agents for at most `max_steps` steps of `dt`
// (until every agent with a goal stands at it); an error message, or "".
std::string run_crowd(const Scenario& scenario, std::uint64_t max_steps, double dt, CrowdFigures& out) {
  const PlanningWorld world(scenario);
  Result<std::unique_ptr<NavmeshCrowd>> made = NavmeshCrowd::create(world, CrowdSettings{});
  if (!made) return made.error().to_string();
  NavmeshCrowd& crowd = **made;
  CrowdReferee referee(world);
  std::uint64_t ns = 0;
  for (std::uint64_t i = 0; i < max_steps && referee.counts().seconds_to_arrive < 0; ++i) {
    const std::uint64_t t0 = now_ns();
    crowd.step(dt);
    ns += now_ns() - t0;
    referee.check_step(crowd.agents(), dt);
  }
  out.agents = crowd.agents().size();
  out.steps = crowd.steps();
  const double unit_steps = double(out.agents) * double(out.steps);
  out.micros_per_unit_step = unit_steps > 0 ? double(ns) / 1000.0 / unit_steps : 0;
  out.counts = referee.counts();
  out.goals = referee.goals(crowd.agents());
  return "";
}

int run_bench_sim(const BenchSimOptions& options) {
  struct Case {
    std::string name;
    Scenario scenario;
    int circle = 0;  // units, for a circle case (RVO2 runs the same)
  };
  std::vector<Case> cases;
  for (int n : options.circle) {
    if (n > 0) cases.push_back({"circle_" + std::to_string(n), sim::circle_case(n), n});
  }
  if (options.crossing > 0)
    cases.push_back({"crossing_" + std::to_string(options.crossing), sim::crossing_case(options.crossing)});
  if (options.funnel > 0)
    cases.push_back({"funnel_" + std::to_string(options.funnel), sim::funnel_case(options.funnel)});
  if (options.random_units > 0) {
    const std::string map_path =
        options.map.empty() ? "../shared/benchmarks/movingai/Berlin_1_256.map" : options.map;
    auto map = load_movingai_map(map_path);
    if (!map) {
      std::fprintf(stderr, "pathscope bench sim: %s\n", map.error().to_string().c_str());
      return kExitFailed;
    }
    cases.push_back({"random_" + std::to_string(options.random_units) + "_" +
                         std::filesystem::path(map_path).stem().string(),
                     sim::random_goals_case(movingai_to_scenario(*map), options.random_units, options.seed)});
  }
  for (Case& c : cases) {
    if (options.discrete) c.scenario.sim.continuous = false;
    if (options.no_prevention) c.scenario.sim.prevention = false;
    if (options.no_cooperation) c.scenario.sim.cooperation = false;
    if (options.no_passages) c.scenario.sim.passages = false;
    if (options.knots) c.scenario.sim.knots = true;
    if (options.no_detours) c.scenario.sim.detours = false;
    c.scenario.sim.density_cost = options.density_cost;
    c.scenario.sim.avoidance = options.avoidance == "potential_field" ? AvoidanceMode::PotentialField
                               : options.avoidance == "steering_arcs" ? AvoidanceMode::SteeringArcs
                                                                      : AvoidanceMode::None;
    if (!options.write_cases.empty()) {
      // The generated case as a scenario, for the window or `simulate` (same hashes).
      const std::filesystem::path out = std::filesystem::path(options.write_cases) / (c.name + ".json");
      if (const Status saved = save_scenario(c.scenario, out); !saved) {
        std::fprintf(stderr, "pathscope bench sim: %s\n", saved.error().to_string().c_str());
        return kExitFailed;
      }
    }
    const double dt = c.scenario.sim.dt;
    const std::uint64_t max_steps = static_cast<std::uint64_t>(std::ceil(options.seconds / dt));
    std::optional<Scenario> crowd_scenario;
    if (options.crowd == "detour") crowd_scenario = c.scenario;
    sim::Simulation simulation(std::move(c.scenario));
    sim::SimReferee referee;
    // What cooperation did: pair-steps handled by each rule (a remembered pair counts at
    // every step it is listed).
    std::map<std::string, std::uint64_t> rule_pair_steps;
    // Stuck as everywhere else: the stuck detector's count, with the case's parameters.
    sim::StuckDetector detector(sim::stuck_params(simulation.scenario().sim));
    RunFigures f = run(simulation, referee, max_steps, true, [&] {
      detector.observe(simulation);
      for (const sim::Collision& col : simulation.collisions()) {
        if (col.rule != sim::CooperationRule::None) ++rule_pair_steps[sim::to_string(col.rule)];
      }
      return false;
    });
    f.stuck = detector.stuck_now();
    std::optional<PeerFigures> rvo2;
    if (!options.rvo2.empty() && c.circle > 0) {
      rvo2.emplace();
      if (const std::string error = run_rvo2(options.rvo2, c.circle, options.seconds, dt, *rvo2);
          !error.empty()) {
        std::fprintf(stderr, "pathscope bench sim: --rvo2: %s\n", error.c_str());
        return kExitFailed;
      }
    }
    std::optional<CrowdFigures> crowd;
    if (crowd_scenario) {
      crowd.emplace();
      if (const std::string error = run_crowd(*crowd_scenario, max_steps, dt, *crowd); !error.empty()) {
        std::fprintf(stderr, "pathscope bench sim: --crowd detour: %s: %s\n", c.name.c_str(), error.c_str());
        return kExitFailed;
      }
    }
    const double crowd_ratio =
        crowd && crowd->micros_per_unit_step > 0 ? f.micros_per_unit_step / crowd->micros_per_unit_step : 0;
    const double rvo2_ratio =
        rvo2 && rvo2->micros_per_unit_step > 0 ? f.micros_per_unit_step / rvo2->micros_per_unit_step : 0;
    const sim::SimCounters& k = simulation.counters();
    const sim::RefereeCounts& r = referee.counts();
    const sim::GoalErrors goals = referee.goal_errors(simulation);
    const double arrived_pct =
        f.ordered > 0 ? 100.0 * static_cast<double>(f.arrived) / static_cast<double>(f.ordered) : 0;
    if (options.json) {
      nlohmann::ordered_json j;
      j["case"] = c.name;
      j["units"] = f.units;
      j["steps"] = f.steps;
      j["micros_per_unit_step"] = f.micros_per_unit_step;
      j["planning_ms"] = f.planning_ms;
      j["hard_overlaps"] = r.hard_overlaps;
      j["max_overlap_m"] = r.max_overlap_m;
      j["tunnelled"] = r.tunnelled;
      j["inside_walls"] = r.inside_walls;
      j["stuck"] = f.stuck;
      j["arrived_pct"] = arrived_pct;
      j["at_goal_pct"] = goals.at_goal_pct;
      j["mean_goal_error_m"] = goals.mean_goal_error_m;
      j["max_goal_error_m"] = goals.max_goal_error_m;
      j["goal_tolerance_m"] = goals.tolerance_m;
      j["seconds_to_arrive"] = f.seconds_to_arrive;
      j["repaths"] = k.repaths;
      j["avoidance"] = options.avoidance;
      j["collisions_found"] = k.collisions_found;
      j["rule_pair_steps"] = rule_pair_steps;
      j["state_hash"] = hex(simulation.state_hash());
      if (rvo2) {
        j["rvo2_micros_per_unit_step"] = rvo2->micros_per_unit_step;
        j["rvo2_ratio"] = rvo2_ratio;
        j["rvo2_at_goal_pct"] = rvo2->at_goal_pct;
        j["rvo2_seconds_to_arrive"] = rvo2->seconds_to_arrive;
      }
      if (crowd) {
        j["detour_micros_per_unit_step"] = crowd->micros_per_unit_step;
        j["detour_ratio"] = crowd_ratio;
        j["detour_steps"] = crowd->steps;
        j["detour_hard_overlaps"] = crowd->counts.hard_overlaps;
        j["detour_max_overlap_m"] = crowd->counts.max_overlap_m;
        j["detour_tunnelled"] = crowd->counts.tunnelled;
        j["detour_inside_walls"] = crowd->counts.inside_walls;
        j["detour_jumps"] = crowd->counts.jumps;
        j["detour_longest_step_m"] = crowd->counts.longest_step_m;
        j["detour_at_goal_pct"] = crowd->goals.at_goal_pct;
        j["detour_mean_goal_error_m"] = crowd->goals.mean_goal_error_m;
        j["detour_max_goal_error_m"] = crowd->goals.max_goal_error_m;
        j["detour_seconds_to_arrive"] = crowd->counts.seconds_to_arrive;
      }
      std::printf("%s\n", j.dump().c_str());
    } else {
      std::printf(
          "%-28s %6zu units %6llu steps %8.3f us/unit-step  planning %8.1f ms  overlaps %4llu (max %.3f m)  "
          "tunnelled %4llu  inside walls %4llu  stuck %4zu  arrived %6.2f%%  in %7.2f s  "
          "at goal %6.2f%% (within %.2f m; error mean %.2f m, max %.2f m)\n",
          c.name.c_str(), f.units, static_cast<unsigned long long>(f.steps), f.micros_per_unit_step,
          f.planning_ms, static_cast<unsigned long long>(r.hard_overlaps), r.max_overlap_m,
          static_cast<unsigned long long>(r.tunnelled), static_cast<unsigned long long>(r.inside_walls),
          f.stuck, arrived_pct, f.seconds_to_arrive, goals.at_goal_pct, goals.tolerance_m,
          goals.mean_goal_error_m, goals.max_goal_error_m);
      if (rvo2) {
        std::printf(
            "%-28s %6d units   RVO2 %8.3f us/unit-step (ours / RVO2 %.2f)  at goal %6.2f%%  in %7.2f s\n",
            (c.name + " rvo2").c_str(), c.circle, rvo2->micros_per_unit_step, rvo2_ratio, rvo2->at_goal_pct,
            rvo2->seconds_to_arrive);
      }
      if (crowd) {
        std::printf(
            "%-28s %6zu units %6llu steps %8.3f us/unit-step (ours / DetourCrowd %.2f)  overlaps %4llu (max "
            "%.3f m)  "
            "tunnelled %4llu  inside walls %4llu  all at goal in %7.2f s  at goal %6.2f%% (error mean %.2f "
            "m, max "
            "%.2f m)\n",
            (c.name + " detour").c_str(), crowd->agents, static_cast<unsigned long long>(crowd->steps),
            crowd->micros_per_unit_step, crowd_ratio,
            static_cast<unsigned long long>(crowd->counts.hard_overlaps), crowd->counts.max_overlap_m,
            static_cast<unsigned long long>(crowd->counts.tunnelled),
            static_cast<unsigned long long>(crowd->counts.inside_walls), crowd->counts.seconds_to_arrive,
            crowd->goals.at_goal_pct, crowd->goals.mean_goal_error_m, crowd->goals.max_goal_error_m);
      }
    }
    std::fflush(stdout);
  }
  return kExitOk;
}

namespace {

CliRunner add_simulate_options(CLI::App& command) {
  auto options = std::make_shared<SimulateOptions>();
  command.add_option("file", options->path, "scenario JSON with units")->required();
  command.add_option("--steps", options->steps, "fixed steps to run");
  command.add_option("--seconds", options->seconds, "simulated seconds to run (overrides --steps)");
  command.add_flag(
      "--until-arrived", options->until_arrived,
      "stop once every ordered unit has arrived or stands beside a goal another unit holds (at most 600 s)");
  command.add_flag("--json", options->json, "one JSON object");
  command.add_flag("--discrete", options->discrete,
                   "discrete checks (end points only) instead of move lines");
  command.add_flag("--no-prevention", options->no_prevention, "collision prevention off");
  command.add_flag("--no-cooperation", options->no_cooperation, "cooperation rules off");
  command.add_flag("--no-passages", options->no_passages, "narrow passages open both ways at once");
  command.add_flag(
      "--knots", options->knots,
      "two crowds locked head-on in a street wider than a passage make a passage of the knot (off by "
      "default)");
  command.add_flag("--no-formation-goals", options->no_formation_goals,
                   "group orders send every unit to the ordered point (no formation slots)");
  command.add_flag("--units", options->list_units,
                   "before the last line, every unit with an order it has not finished: where, doing what, "
                   "for whom, how far from its point, "
                   "since when without progress (with --json, `units_left`)");
  command.add_flag("--no-detours", options->no_detours,
                   "held-up units keep their paths (no way round the units in their way)");
  command
      .add_option("--density-cost", options->density_cost,
                  "collision density as extra path cost, this weight (0 = off; default: the scenario's)")
      ->check(CLI::Range(0.0, 100.0));
  command.add_option("--save-state", options->save_state,
                     "write a saved game (the scenario and the simulation's state) here at the end");
  command.add_option(
      "--record", options->record,
      "write the run's recording here (every step's units, each unit's decisions, stuck flags); "
      "`pathscope open` scrubs it");
  command
      .add_option("--record-cap", options->record_cap_mb, "the recording's memory cap in MB (default 2048)")
      ->check(CLI::Range(1, 1 << 20));
  CLI::Option* save_stuck = command.add_option(
      "--save-stuck", options->save_stuck,
      "write a repro of each unit flagged stuck into this folder (made if missing): "
      "DIR/<file>_unit<ID>_<T>s.json, the saved game from --repro-seconds before its first flag, expecting "
      "it to arrive; the run then lasts its full length (not cut short once the expectations are decided). "
      "Stuck units alone do not change the exit code (0, or 1 if an expectation fails or a repro cannot be "
      "written)");
  command
      .add_option(
          "--repro-seconds", options->repro_seconds,
          "with --save-stuck: simulated seconds (> 0) before the flag each repro starts at (default 10; "
          "at least one step; clamped at the run's start)")
      ->needs(save_stuck);
  return [options] { return run_simulate(*options); };
}

CliRunner add_bench_sim_options(CLI::App& command) {
  auto options = std::make_shared<BenchSimOptions>();
  command.add_option("--circle", options->circle, "units of a circle case (repeatable, or a,b)")
      ->delimiter(',');
  command.add_option("--crossing", options->crossing, "units per group of the crossing case (0 = none)")
      ->check(CLI::Range(0, 100000));
  command
      .add_option(
          "--funnel", options->funnel,
          "units of the funnel case: the crossing's gap one way only, its flow alone (0 = none, the default)")
      ->check(CLI::Range(0, 100000));
  command.add_option("--random", options->random_units, "units of the random-goals case (0 = none)")
      ->check(CLI::Range(0, 1000000));
  command.add_option("--map", options->map, "Moving AI map of the random-goals case");
  command.add_option("--seed", options->seed, "seed of the random goals");
  command.add_option("--seconds", options->seconds, "simulated seconds at most per case")
      ->check(CLI::Range(0.0, 100000.0));
  command.add_flag("--json", options->json, "one JSON object per case");
  command.add_flag("--discrete", options->discrete, "discrete checks instead of move lines");
  command.add_flag("--no-prevention", options->no_prevention, "collision prevention off");
  command.add_flag("--no-cooperation", options->no_cooperation, "cooperation rules off");
  command.add_flag("--no-passages", options->no_passages, "narrow passages open both ways at once");
  command.add_flag(
      "--knots", options->knots,
      "two crowds locked head-on in a street wider than a passage make a passage of the knot (off by "
      "default)");
  command.add_option("--write-cases", options->write_cases,
                     "also write each generated case, with the options above, as DIR/<case>.json "
                     "(open it in the window, or run it with `simulate`)");
  command
      .add_option(
          "--crowd", options->crowd,
          "also run each case's units as DetourCrowd agents on their classes' navmeshes (`detour`), "
          "the same orders and steps: adds its us per unit-step, ours / its, and its referee's figures")
      ->check(CLI::IsMember({"none", "detour"}));
  command.add_option("--rvo2", options->rvo2,
                     "RVO2's circle driver (scripts/peers/build_rvo2.sh builds it), run on each circle case: "
                     "adds its us per unit-step and ours / its");
  command.add_flag("--no-detours", options->no_detours,
                   "held-up units keep their paths (no way round the units in their way)");
  command.add_option("--avoidance", options->avoidance, "reactive avoidance of every case (seed 000)")
      ->check(CLI::IsMember({"none", "potential_field", "steering_arcs"}));
  command
      .add_option("--density-cost", options->density_cost,
                  "collision density as extra path cost, this weight (0 = off)")
      ->check(CLI::Range(0.0, 100.0));
  return [options] { return run_bench_sim(*options); };
}

}  // namespace

const CliCommand kSimulateCommand{"simulate", "run a scenario's units headless and report the run's figures",
                                  add_simulate_options};
const CliCommand kBenchSimCommand{
    "bench sim",
    "the unit simulation on generated cases: circle swaps, a crossing through a gap, random goals on a map",
    add_bench_sim_options};

}  // namespace pathscope::app
