// A seeded mutation fuzzer for scenario files (issue 33): shipped scenarios damaged as a
// hand edit, another tool or a cut download would (numbers made NaN, infinite, huge,
// negative or off by one; values of another type; list items deleted, duplicated or cut
// off; fields gone; and the text itself cut short, bit-flipped or spliced). Each is
// refused naming the file and a field or line, never with raw json.exception text, or
// accepted: then every query is planned by its own planner and by the quadtree, the units
// run 30 steps and are saved as a game, and the scenario is written and read again. Run
// under the sanitizers in CI (the unit tier).

#include <cstdint>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "planner/core/planner_registry.hpp"
#include "planner/core/search.hpp"
#include "planner/scenario/scenario_io.hpp"
#include "planner/sim/simulation.hpp"
#include "planner/world/planning_world.hpp"
#include "tests/json_mutation.hpp"

namespace pathscope {

namespace {

using test::collect;
using test::Json;
using test::other_type;
using test::pick;
using test::Rng;

constexpr const char* kName = "fuzz.json";
// Accepted worlds larger than this many cells are only read and written here: planning
// on them is what the memory budgets and the scenario bounds are for, and takes seconds.
constexpr double kMaxCellsRun = 1 << 18;

Json bad_number(Rng& rng, const Json& v) {
  const double d = v.is_number() ? v.get<double>() : 0;
  // Half of the edits keep the number near what it was: a hand edit that may still be valid.
  if (pick(rng, 2) == 0) {
    if (v.is_number_integer()) return v.get<std::int64_t>() + (pick(rng, 2) == 0 ? 1 : -1);
    return d * (pick(rng, 2) == 0 ? 1.5 : 0.5);
  }
  switch (pick(rng, 12)) {
    case 0: return 1e300;
    case 1: return -1e300;
    case 2: return -1;
    case 3: return 0;
    case 4: return d + 1;
    case 5: return d - 1;
    case 6: return d * 1000;
    case 7: return std::uint64_t{1} << 32;
    case 8: return std::numeric_limits<std::int64_t>::min();
    case 9: return 0.5;
    case 10: return 1e6;
    default: return -d;
  }
}

// One edit of the scenario's JSON, in place.
void mutate(Rng& rng, Json& s) {
  std::vector<Json::json_pointer> values, lists, objects;
  collect(s, Json::json_pointer(), values, lists, objects);
  const std::size_t kind = pick(rng, 10);
  if (kind <= 4) {
    Json& v = s[values[1 + pick(rng, values.size() - 1)]];
    v = v.is_number() || pick(rng, 4) != 0 ? bad_number(rng, v) : other_type(rng);
    return;
  }
  if (kind <= 7 && !lists.empty()) {
    Json& list = s[lists[pick(rng, lists.size())]];
    if (list.empty()) return;
    const std::size_t k = pick(rng, list.size());
    if (kind == 5) list.erase(k);
    if (kind == 6) list.insert(list.begin() + static_cast<std::ptrdiff_t>(k), list[k]);
    if (kind == 7) list.erase(list.begin() + static_cast<std::ptrdiff_t>(k), list.end());
    return;
  }
  Json& object = s[objects[pick(rng, objects.size())]];  // a field gone
  if (object.empty()) return;
  auto it = object.begin();
  std::advance(it, static_cast<std::ptrdiff_t>(pick(rng, object.size())));
  object.erase(it);
}

// Damage to the text itself.
void damage_text(Rng& rng, std::string& text) {
  switch (pick(rng, 3)) {
    case 0: text.resize(pick(rng, text.size())); break;
    case 1: {
      const std::size_t flips = 1 + pick(rng, 4);
      for (std::size_t k = 0; k < flips; ++k) text[pick(rng, text.size())] ^= char(1 << pick(rng, 8));
      break;
    }
    default: {
      const std::size_t len = 1 + pick(rng, 64);
      if (len >= text.size()) break;
      const std::size_t from = pick(rng, text.size() - len), to = pick(rng, text.size() - len);
      text.replace(to, len, text.substr(from, len));
      break;
    }
  }
}

struct Tally {
  int refused = 0;
  int accepted = 0;
  int planned = 0;    // queries planned (any status)
  int simulated = 0;  // accepted scenarios whose units ran
};

void run_accepted(const Scenario& scenario, Tally& tally) {
  // Written and read again.
  const auto again = parse_scenario(scenario_to_json(scenario), kName);
  REQUIRE_MESSAGE(again.ok(), (again.ok() ? std::string() : again.error().to_string()));
  const double cells =
      (scenario.world.width / scenario.world.cell_size) * (scenario.world.height / scenario.world.cell_size);
  if (!(cells <= kMaxCellsRun)) return;
  {
    const PlanningWorld world(scenario);
    for (std::size_t i = 0; i < world.scenario().queries.size() && i < 3; ++i) {
      const Query& q = world.scenario().queries[i];
      for (const char* planner : {"", "quadtree"}) {
        PlannerChoiceRequest request;
        request.query_planner = q.planner;
        request.query_params = q.params;
        request.query_where = "queries[" + std::to_string(i) + "]";
        request.override_planner = planner;
        auto choice = choose_planner(request);
        if (!choice) continue;  // a planner name the registry does not know: refused when planned
        const std::unique_ptr<Planner> p =
            choice->info->create(QueryContext{world, q.movement_class, std::nullopt, choice->params});
        (void)find_path(*p, PathQuery{q.start, q.goal});
        ++tally.planned;
      }
    }
  }
  if (!scenario.units.empty()) {
    sim::Simulation simulation(scenario);
    for (int i = 0; i < 30; ++i) simulation.step();
    const auto saved = parse_scenario(scenario_to_json(sim::saved_game(simulation)), kName);
    REQUIRE_MESSAGE(saved.ok(), (saved.ok() ? std::string() : saved.error().to_string()));
    ++tally.simulated;
  }
}

void fuzz(const char* path, int inputs, std::uint64_t seed, Tally& tally) {
  const auto loaded = load_scenario(std::string(PATHSCOPE_SOURCE_DIR) + "/" + path);
  REQUIRE(loaded.ok());
  const Json good = Json::parse(scenario_to_json(*loaded));
  Rng rng(seed);
  for (int input = 0; input < inputs; ++input) {
    CAPTURE(path);
    CAPTURE(input);
    std::string text;
    if (pick(rng, 4) == 0) {
      text = good.dump(1);
      damage_text(rng, text);
    } else {
      Json j = good;
      const std::size_t edits = 1 + pick(rng, 2);
      for (std::size_t k = 0; k < edits; ++k) mutate(rng, j);
      text = j.dump();
    }
    const auto scenario = parse_scenario(text, kName);
    if (!scenario) {
      ++tally.refused;
      const std::string message = scenario.error().to_string();
      CHECK_MESSAGE(message.rfind(kName, 0) == 0, message);
      CHECK_MESSAGE(message.find("json.exception") == std::string::npos, message);
      continue;
    }
    ++tally.accepted;
    run_accepted(*scenario, tally);
  }
}

}  // namespace

TEST_CASE(
    "scenarios: mutated files are refused naming the file, or planned, simulated, saved and read again") {
  Tally tally;
  fuzz("maps/default.json", 80, 33, tally);
  fuzz("maps/sim_bridge.json", 80, 34, tally);
  fuzz("maps/walled_compound.json", 60, 35, tally);
  fuzz("maps/fog_of_war.json", 60, 36, tally);
  fuzz("maps/jps_rooms.json", 40, 37, tally);
  MESSAGE("scenarios: " << tally.refused << " refused, " << tally.accepted << " accepted; " << tally.planned
                        << " queries planned, " << tally.simulated << " simulated");
  CHECK(tally.refused > 0);
  CHECK(tally.accepted > 0);
  CHECK(tally.planned > 0);
  CHECK(tally.simulated > 0);
}

}  // namespace pathscope
