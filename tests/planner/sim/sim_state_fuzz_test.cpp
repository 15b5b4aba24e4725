// A seeded mutation fuzzer for saved games (issue 33): real states, saved from shipped
// scenarios, mutated as a hand edit or a damaged file would (numbers to NaN, infinities,
// huge, negative or off by one; list items deleted, duplicated or cut off; values of
// another type). Each is refused, naming a `sim_state...` path and changing nothing, or
// accepted, and then it runs 60 steps, is saved and is read again. Run under the
// sanitizers in CI (the unit tier), so a state that passes and then reads out of bounds
// fails there.

#include <cstdint>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "planner/scenario/scenario_io.hpp"
#include "planner/sim/simulation.hpp"
#include "tests/json_mutation.hpp"
#include "tests/sanitizer_share.hpp"

namespace pathscope::sim {

namespace {

using test::Json;
using test::other_type;
using test::pick;
using test::Rng;

// A number a damaged or hand-edited file might hold instead of `v`.
Json bad_number(Rng& rng, const Json& v) {
  const double d = v.is_number() ? v.get<double>() : 0;
  switch (pick(rng, 14)) {
    case 0: return "nan";
    case 1: return "inf";
    case 2: return "-inf";
    case 3: return 1e300;
    case 4: return -1e300;
    case 5: return -1;
    case 6: return 0;
    case 7: return v.is_number_integer() ? Json(v.get<std::int64_t>() + 1) : Json(d + 1);
    case 8: return v.is_number_integer() ? Json(v.get<std::int64_t>() - 1) : Json(d - 1);
    case 9: return std::uint64_t{1} << 32;
    case 10: return std::numeric_limits<std::uint64_t>::max();
    case 11: return 1.5;
    case 12: return 1e6;
    default: return -d;
  }
}

// One mutation of `state`, in place.
void mutate(Rng& rng, Json& state) {
  std::vector<Json::json_pointer> values, lists, objects;
  test::collect(state, Json::json_pointer(), values, lists, objects);
  if (values.size() < 2 || lists.empty()) return;  // nothing left to damage
  const std::size_t kind = pick(rng, 10);
  if (kind <= 4) {  // the most common damage: one number
    Json& v = state[values[1 + pick(rng, values.size() - 1)]];
    v = v.is_number() || pick(rng, 4) != 0 ? bad_number(rng, v) : other_type(rng);
    return;
  }
  Json& list = state[lists[pick(rng, lists.size())]];
  switch (kind) {
    case 5:  // delete an item
      if (!list.empty()) list.erase(pick(rng, list.size()));
      break;
    case 6:  // duplicate an item
      if (!list.empty()) {
        const std::size_t k = pick(rng, list.size());
        list.insert(list.begin() + static_cast<std::ptrdiff_t>(k), list[k]);
      }
      break;
    case 7:  // cut a list short
      if (!list.empty())
        list.erase(list.begin() + static_cast<std::ptrdiff_t>(pick(rng, list.size())), list.end());
      break;
    case 8: {  // another type
      Json& v = state[values[1 + pick(rng, values.size() - 1)]];
      v = other_type(rng);
      break;
    }
    default: {  // a top-level field gone
      if (!state.is_object() || state.empty()) break;
      const std::size_t k = pick(rng, state.size());
      auto it = state.begin();
      std::advance(it, static_cast<std::ptrdiff_t>(k));
      state.erase(it);
      break;
    }
  }
}

struct StateTally {
  int refused = 0;
  int accepted = 0;
};

// Mutates the state `steps` steps into the scenario at `path` `inputs` times.
StateTally fuzz(const std::string& path, int steps, int inputs, std::uint64_t seed) {
  const auto loaded = load_scenario(std::string(PATHSCOPE_SOURCE_DIR) + "/" + path);
  REQUIRE_MESSAGE(loaded.ok(), (loaded.ok() ? std::string() : loaded.error().to_string()));
  const Scenario& scenario = *loaded;
  Json good;
  {
    Simulation a(scenario);
    for (int i = 0; i < steps; ++i) a.step();
    good = Json::parse(a.state_json());
  }
  Rng rng(seed);
  StateTally tally;
  auto b = std::make_unique<Simulation>(scenario);
  {
    Simulation unchanged(scenario);
    const Status st = unchanged.restore_state(good.dump());
    REQUIRE_MESSAGE(st.ok(), (st.ok() ? std::string() : st.error().to_string()));
  }
  const std::uint64_t fresh = b->state_hash();
  for (int input = 0; input < inputs; ++input) {
    Json state = good;
    const std::size_t mutations = 1 + pick(rng, 3);
    for (std::size_t m = 0; m < mutations; ++m) mutate(rng, state);
    const std::string text = state.dump();
    CAPTURE(path);
    CAPTURE(input);
    const Status st = b->restore_state(text);
    if (!st.ok()) {
      ++tally.refused;
      const std::string message = st.error().to_string();
      CHECK_MESSAGE(st.error().where.rfind("sim_state", 0) == 0, message);
      CHECK_MESSAGE(message.find("json.exception") == std::string::npos, message);
      CHECK_MESSAGE(b->state_hash() == fresh, message);  // nothing changed
      continue;
    }
    ++tally.accepted;
    // Taken: it runs, is saved as a game and is read again.
    for (int i = 0; i < 60; ++i) b->step();
    const std::string again = b->state_json();
    Simulation c(scenario);
    const Status back = c.restore_state(again);
    REQUIRE_MESSAGE(back.ok(), (back.ok() ? std::string() : back.error().to_string())
                                   << "\nfrom: " << text.substr(0, 400));
    CHECK(c.state_hash() == b->state_hash());
    const auto reread = parse_scenario(scenario_to_json(saved_game(*b)), "fuzz.json");
    REQUIRE_MESSAGE(reread.ok(), (reread.ok() ? std::string() : reread.error().to_string()));
    b = std::make_unique<Simulation>(scenario);
  }
  return tally;
}

}  // namespace

TEST_CASE("saved games: mutated states are refused naming the field, or run, save and load again") {
  // Under the sanitizers a fifth of the inputs (tests/sanitizer_share.hpp).
  const StateTally crowd = fuzz("maps/sim_crowd_gap.json", 300, test::sanitized_share(200, 5), 33);
  const StateTally bridge = fuzz("maps/sim_bridge.json", 200, test::sanitized_share(100, 5), 34);
  MESSAGE("crowd gap: " << crowd.refused << " refused, " << crowd.accepted << " accepted; bridge: "
                        << bridge.refused << " refused, " << bridge.accepted << " accepted");
  // Both outcomes are exercised.
  CHECK(crowd.refused > 0);
  CHECK(crowd.accepted > 0);
}

}  // namespace pathscope::sim
