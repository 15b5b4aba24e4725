// Saved games with platoons: a game saved while platoons drive restores exactly (the
// platoons' own state, their walks and their crews' private paths bit for bit), a broken
// platoon is refused naming its JSON path, and save -> restore -> save gives the same text.

#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "planner/scenario/scenario_io.hpp"
#include "planner/sim/formation_cases.hpp"
#include "planner/sim/platoon_drive.hpp"
#include "planner/sim/simulation.hpp"

namespace pathscope::sim {

namespace platoon_saved_game_test {

// Every field a saved game keeps of a platoon, compared exactly (doubles bit for bit).
void require_same_platoon(const PlatoonRun& a, const PlatoonRun& b) {
  REQUIRE(a.group == b.group);
  REQUIRE(a.slots == b.slots);
  REQUIRE(a.path_class == b.path_class);
  REQUIRE(a.from.shape == b.from.shape);
  REQUIRE(a.from.offsets == b.from.offsets);
  REQUIRE(a.to.shape == b.to.shape);
  REQUIRE(a.to.offsets == b.to.offsets);
  REQUIRE(a.spacing == b.spacing);
  const PlatoonParams& pa = a.params;
  const PlatoonParams& pb = b.params;
  REQUIRE(pa.max_speed == pb.max_speed);
  REQUIRE(pa.acceleration == pb.acceleration);
  REQUIRE(pa.turn_rate == pb.turn_rate);
  REQUIRE(pa.corner_lookahead == pb.corner_lookahead);
  REQUIRE(pa.slack == pb.slack);
  REQUIRE(pa.wait_factor == pb.wait_factor);
  REQUIRE(pa.resume_factor == pb.resume_factor);
  REQUIRE(pa.obstacle_slowdown == pb.obstacle_slowdown);
  REQUIRE(pa.formation_change_seconds == pb.formation_change_seconds);
  REQUIRE(pa.final_heading_tolerance == pb.final_heading_tolerance);
  REQUIRE(pa.wait_patience == pb.wait_patience);
  REQUIRE(pa.press_on_factor == pb.press_on_factor);
  REQUIRE(a.order == b.order);
  REQUIRE(a.goal == b.goal);
  REQUIRE(a.legs == b.legs);
  REQUIRE(a.final_heading == b.final_heading);
  REQUIRE(a.requester == b.requester);
  REQUIRE(a.path == b.path);
  REQUIRE(std::vector<Vec2>(a.walk.points().begin(), a.walk.points().end()) ==
          std::vector<Vec2>(b.walk.points().begin(), b.walk.points().end()));
  REQUIRE(a.walk.path_start() == b.walk.path_start());
  REQUIRE(a.walk.length() == b.walk.length());
  // The arc lengths at every vertex: a point just past each is the same point.
  for (double s = -1; s < a.walk.length() + 1; s += 0.37) REQUIRE(a.walk.point_at(s) == b.walk.point_at(s));
  const PlatoonMotion& ma = a.motion;
  const PlatoonMotion& mb = b.motion;
  REQUIRE(ma.position == mb.position);
  REQUIRE(ma.heading == mb.heading);
  REQUIRE(ma.speed == mb.speed);
  REQUIRE(ma.along == mb.along);
  REQUIRE(ma.phase == mb.phase);
  REQUIRE(ma.final_heading == mb.final_heading);
  REQUIRE(ma.formation_blend == mb.formation_blend);
  REQUIRE(ma.wait_best == mb.wait_best);
  REQUIRE(ma.wait_stalled == mb.wait_stalled);
  REQUIRE(ma.pressing_on == mb.pressing_on);
  REQUIRE(a.morph == b.morph);
  REQUIRE(a.targets.size() == b.targets.size());
  for (std::size_t k = 0; k < a.targets.size(); ++k) {
    REQUIRE(a.targets[k].formation == b.targets[k].formation);
    REQUIRE(a.targets[k].column == b.targets[k].column);
    REQUIRE(a.targets[k].drive_to == b.targets[k].drive_to);
    REQUIRE(a.targets[k].morph == b.targets[k].morph);
  }
  REQUIRE(a.crews.size() == b.crews.size());
  for (std::size_t k = 0; k < a.crews.size(); ++k) {
    const CrewState& ca = a.crews[k];
    const CrewState& cb = b.crews[k];
    REQUIRE(ca.direction == cb.direction);
    REQUIRE(ca.backing_turn == cb.backing_turn);
    REQUIRE(ca.turn_side == cb.turn_side);
    REQUIRE(ca.heading_case == cb.heading_case);
    REQUIRE(ca.steering == cb.steering);
    REQUIRE(ca.avoided == cb.avoided);
    REQUIRE(ca.stopped == cb.stopped);
    REQUIRE(std::vector<Vec2>(ca.private_path.points().begin(), ca.private_path.points().end()) ==
            std::vector<Vec2>(cb.private_path.points().begin(), cb.private_path.points().end()));
    REQUIRE(ca.private_path.index() == cb.private_path.index());
    REQUIRE(ca.private_path.release_distance() == cb.private_path.release_distance());
    REQUIRE(ca.private_path_pending == cb.private_path_pending);
    REQUIRE(ca.last_check == cb.last_check);
    REQUIRE(ca.private_paths == cb.private_paths);
    REQUIRE(ca.three_point_turns == cb.three_point_turns);
  }
  REQUIRE(a.arrived_time == b.arrived_time);
}

void require_same_platoons(const Simulation& a, const Simulation& b) {
  REQUIRE(a.platoons().size() == b.platoons().size());
  for (std::size_t k = 0; k < a.platoons().size(); ++k)
    require_same_platoon(a.platoons()[k], b.platoons()[k]);
}

struct SavedCase {
  const char* name;
  FormationCase which;
  const char* class_name;
  int vehicles;
  int save_at;
};

}  // namespace platoon_saved_game_test

using platoon_saved_game_test::require_same_platoons;

TEST_CASE("platoon saved games: restored mid-drive, the run goes on exactly as the unsaved one") {
  using platoon_saved_game_test::SavedCase;
  const SavedCase cases[] = {{"town, wheeled", FormationCase::Town, "wheeled", 4, 400},
                             {"head-on, tracked", FormationCase::HeadOn, "tracked", 4, 300}};
  for (const SavedCase& c : cases) {
    SUBCASE(c.name) {
      const Scenario s = formation_case(c.which, c.class_name, c.vehicles);
      Simulation a(s);
      REQUIRE_FALSE(a.platoons().empty());
      for (int i = 0; i < c.save_at; ++i) a.step();
      // Saved while driving, its vehicles in formation, its crews with a last step.
      bool driving = false;
      for (const PlatoonRun& p : a.platoons()) driving = driving || p.order == PlatoonOrderState::Driving;
      REQUIRE(driving);
      REQUIRE_FALSE(a.platoons()[0].crews.empty());
      REQUIRE(a.platoons()[0].walk.points().size() > 2);
      const std::string saved = a.state_json();
      REQUIRE(nlohmann::json::parse(saved).contains("platoons"));

      Simulation b(s);
      const Status restored = b.restore_state(saved);
      REQUIRE_MESSAGE(restored.ok(), restored.error().to_string());
      CHECK(b.state_json() == saved);  // save -> restore -> save: the same text
      REQUIRE(b.state_hash() == a.state_hash());
      require_same_platoons(a, b);
      for (int i = 0; i < 600; ++i) {
        a.step();
        b.step();
        REQUIRE(b.state_hash() == a.state_hash());
        require_same_platoons(a, b);
      }
    }
  }
}

TEST_CASE("platoon saved games: a platoon saved without its state would have run differently") {
  // The check above can fail: restoring only the units (the platoons as the scenario
  // makes them) gives another run.
  const Scenario s = formation_case(FormationCase::Town, "wheeled", 4);
  Simulation a(s);
  for (int i = 0; i < 400; ++i) a.step();
  nlohmann::json state = nlohmann::json::parse(a.state_json());
  state.erase("platoons");
  Simulation b(s);
  REQUIRE(b.restore_state(state.dump()).ok());
  bool differs = false;
  for (int i = 0; i < 300 && !differs; ++i) {
    a.step();
    b.step();
    differs = a.state_hash() != b.state_hash();
  }
  CHECK(differs);
}

TEST_CASE("platoon saved games: a broken platoon is refused, naming its path, and nothing changes") {
  const Scenario s = formation_case(FormationCase::Town, "wheeled", 4);
  Simulation a(s);
  for (int i = 0; i < 400; ++i) a.step();
  const nlohmann::json good = nlohmann::json::parse(a.state_json());
  Simulation b(s);
  const std::uint64_t before = b.state_hash();
  const std::string platoons_before = [&] {
    nlohmann::json j = nlohmann::json::parse(b.state_json());
    return j["platoons"].dump();
  }();
  auto refused = [&](const nlohmann::json& state) {
    const Status st = b.restore_state(state.dump());
    REQUIRE_FALSE(st.ok());
    CHECK(b.state_hash() == before);
    CHECK(b.step_count() == 0);
    CHECK(nlohmann::json::parse(b.state_json())["platoons"].dump() == platoons_before);
    return st.error().where;
  };
  {
    nlohmann::json bad = good;
    bad["platoons"][0]["group"] = 77;  // no such group in the scenario
    CHECK(refused(bad) == "sim_state.platoons[0].group");
  }
  {
    nlohmann::json bad = good;
    bad["platoons"][0]["slots"][2] = nlohmann::json::array({4000, 0});  // no such unit
    CHECK(refused(bad) == "sim_state.platoons[0].slots[2]");
  }
  {
    nlohmann::json bad = good;
    bad["platoons"][0]["slots"][1][1] = 5;  // a generation the unit does not have
    CHECK(refused(bad) == "sim_state.platoons[0].slots[1]");
  }
  {
    nlohmann::json bad = good;
    bad["platoons"][0]["motion"]["formation_blend"] = 2;
    CHECK(refused(bad) == "sim_state.platoons[0].motion.formation_blend");
  }
  {
    nlohmann::json bad = good;
    bad["platoons"][0]["crews"][0]["private_path"]["index"] = 99;
    CHECK(refused(bad) == "sim_state.platoons[0].crews[0].private_path.index");
  }
  {
    nlohmann::json bad = good;
    bad["platoons"][0]["to"]["offsets"].erase(0);
    CHECK(refused(bad) == "sim_state.platoons[0].to.offsets");
  }
  {
    nlohmann::json bad = good;
    bad["platoons"][0]["walk"]["points"][1] = bad["platoons"][0]["walk"]["points"][0];
    CHECK(refused(bad) == "sim_state.platoons[0].walk.points[1]");
  }
  {
    nlohmann::json bad = good;
    bad["platoons"].push_back(good["platoons"][0]);
    CHECK(refused(bad) == "sim_state.platoons[1].group");
  }
  // The good state is taken.
  REQUIRE(b.restore_state(good.dump()).ok());
  CHECK(b.state_hash() == a.state_hash());
}

TEST_CASE("platoon saved games: through the scenario file (saved_game, format 3) the run goes on exactly") {
  const Scenario s = formation_case(FormationCase::Town, "wheeled", 4);
  Simulation a(s);
  for (int i = 0; i < 400; ++i) a.step();
  const std::string text = scenario_to_json(saved_game(a));
  const auto loaded = parse_scenario(text, "saved.json");
  REQUIRE_MESSAGE(loaded.ok(), (loaded.ok() ? std::string() : loaded.error().to_string()));
  CHECK(scenario_to_json(*loaded) == text);
  Simulation b(*loaded);
  const Status restored = b.restore_state(loaded->sim_state);
  REQUIRE_MESSAGE(restored.ok(), restored.error().to_string());
  REQUIRE(b.state_hash() == a.state_hash());
  require_same_platoons(a, b);
  for (int i = 0; i < 300; ++i) {
    a.step();
    b.step();
    REQUIRE(b.state_hash() == a.state_hash());
  }
  require_same_platoons(a, b);
}

}  // namespace pathscope::sim
