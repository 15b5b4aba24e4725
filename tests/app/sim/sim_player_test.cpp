// The window's simulation player: the fixed-step accumulator (frame times never change a
// result; a slow frame runs at most 8 x speed steps and drops the rest), reset, the
// document's edits, the unit selection and the move orders of the units tool.

#include "app/sim/sim_player.hpp"

#include "app/editor/tool.hpp"
#include "app/editor/tools/tool_factories.hpp"
#include "planner/scenario/scenario_io.hpp"
#include "planner/sim/sim_cases.hpp"
#include "planner/sim/stuck_detector.hpp"
#include "render/sim/platoon_painter.hpp"

#include <doctest/doctest.h>
#include <glm/geometric.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <variant>
#include <vector>

using namespace pathscope;
using namespace pathscope::app;

namespace {

// `s` with a faction for its units (documents hold valid scenarios, and units need one).
Scenario with_faction(Scenario s) {
  if (!s.factions.empty()) return s;  // the generated cases have theirs
  Faction blue;
  blue.name = "blue";
  blue.color = {50, 90, 255, 255};
  s.factions.push_back(blue);
  for (Unit& u : s.units) u.faction = "blue";
  return s;
}

// An editor on `scenario`.
struct PlayerRig {
  EditorState state;
  SimPlayer player;

  explicit PlayerRig(Scenario scenario) {
    state.open_document(std::make_unique<Document>(with_faction(std::move(scenario))));
  }
  const sim::Simulation& sim() const { return *player.simulation(); }
};

// A left or right click's event at world point `p`, Shift held or not.
PointerEvent pointer_at(Vec2 p, bool shift = false) {
  PointerEvent e;
  e.world = p;
  e.shift = shift;
  return e;
}

// Four units in a row on an open 40 x 20 m field, none with an order.
Scenario four_units() {
  Scenario s = make_empty_scenario(40, 20, 1);
  for (std::uint32_t i = 0; i < 4; ++i) {
    Unit u;
    u.id = 10 + i;
    u.position = {5.0 + 5 * i, 10};
    s.units.push_back(u);
  }
  return s;
}

// The platoon layer of `scene` as text: every primitive's kind, colour, points and text,
// coordinates to the last bit.
std::string platoon_layer(const render::SimScene& scene) {
  render::DrawList out;
  render::paint_platoons(scene.platoons, scene.units, out);
  std::string text;
  const auto point = [&](Vec2 p) {
    char buf[64];
    std::snprintf(buf, sizeof buf, " %a,%a", p.x, p.y);
    text += buf;
  };
  for (const render::Primitive& prim : out.layer(render::Layer::SimPlatoons)) {
    text += std::string(render::to_string(prim.kind())) + " " + std::to_string(prim.color.r) + "," +
            std::to_string(prim.color.g) + "," + std::to_string(prim.color.b) + "," +
            std::to_string(prim.color.a);
    std::visit(
        [&](const auto& shape) {
          using T = std::decay_t<decltype(shape)>;
          if constexpr (std::is_same_v<T, render::LinePrim>) {
            point(shape.a);
            point(shape.b);
          } else if constexpr (std::is_same_v<T, render::PolylinePrim> ||
                               std::is_same_v<T, render::PolygonPrim>) {
            for (const Vec2 p : shape.points) point(p);
          } else if constexpr (std::is_same_v<T, render::CirclePrim>) {
            point(shape.center);
          } else if constexpr (std::is_same_v<T, render::TextPrim>) {
            point(shape.anchor);
            text += " " + shape.text;
          }
        },
        prim.shape);
    text += "\n";
  }
  return text;
}

}  // namespace

TEST_SUITE("sim_window") {
  TEST_CASE("sim player: a recorded step draws the platoon layer the live step drew") {
    const auto loaded = load_scenario(std::string(PATHSCOPE_SOURCE_DIR) + "/maps/platoon_turn.json");
    REQUIRE(loaded.ok());
    PlayerRig rig(*loaded);
    std::string live_at_120, live_at_900;
    for (int i = 1; i <= 960; ++i) {
      REQUIRE(rig.player.step(rig.state));
      if (i == 120) live_at_120 = platoon_layer(rig.player.scene());
      if (i == 900) live_at_900 = platoon_layer(rig.player.scene());  // waiting for a straggler
    }
    CHECK(live_at_120.find("circle") != std::string::npos);
    CHECK(live_at_900.find("waiting:") != std::string::npos);
    REQUIRE(rig.player.scrub(120));
    REQUIRE(rig.player.viewing_recording());
    CHECK(platoon_layer(rig.player.scene()) == live_at_120);
    REQUIRE(rig.player.scrub(900));
    CHECK(platoon_layer(rig.player.scene()) == live_at_900);
  }
  TEST_CASE("sim player: whole steps of dt from the accumulator, the first frame of a play adds nothing") {
    PlayerRig rig(sim::circle_case(8));
    CHECK(rig.player.simulation() == nullptr);
    CHECK(rig.player.update(rig.state, 0.1) == 0);  // nothing to run yet
    REQUIRE(rig.player.play(rig.state));
    REQUIRE(rig.player.simulation() != nullptr);
    CHECK(rig.player.playing());
    CHECK(rig.player.update(rig.state, 0.5) == 0);  // the idle time before Play
    // dt = 1/30 s: 0.1 s holds three steps (and a rounding error's worth of a fourth).
    CHECK(rig.player.update(rig.state, 0.1) == 3);
    CHECK(rig.sim().step_count() == 3);
    CHECK(rig.player.accumulator() < rig.sim().scenario().sim.dt);
    // Half speed: 0.2 s of frames are 0.1 s simulated.
    rig.player.set_speed(0.5);
    CHECK(rig.player.update(rig.state, 0.2) == 3);
    // Pause: frames run nothing; Step runs exactly one.
    rig.player.pause();
    CHECK(rig.player.update(rig.state, 0.2) == 0);
    REQUIRE(rig.player.step(rig.state));
    CHECK(rig.sim().step_count() == 7);
    CHECK_FALSE(rig.player.playing());
  }

  TEST_CASE("sim player: a slow frame runs at most 8 x speed steps and drops the rest") {
    Scenario s = sim::circle_case(8);
    s.sim.dt = 0.01;
    PlayerRig rig(std::move(s));
    REQUIRE(rig.player.play(rig.state));
    rig.player.update(rig.state, 0.01);  // the play's first frame
    CHECK(rig.player.max_steps_per_frame() == 8);
    // A 5 s stall counts as 0.25 s: 25 steps, of which 8 run and the rest are dropped.
    CHECK(rig.player.update(rig.state, 5.0) == 8);
    CHECK(rig.player.accumulator() == 0);
    CHECK(rig.player.update(rig.state, 0.05) == 5);
    rig.player.set_speed(100);  // clamped
    CHECK(rig.player.speed() == SimPlayer::kMaxSpeed);
    CHECK(rig.player.max_steps_per_frame() == 64);
    rig.player.set_speed(0);
    CHECK(rig.player.speed() == SimPlayer::kMinSpeed);
    CHECK(rig.player.max_steps_per_frame() == 2);
  }

  TEST_CASE("sim player: frame times never change the result") {
    PlayerRig a(sim::circle_case(12)), b(sim::circle_case(12));
    REQUIRE(a.player.play(a.state));
    a.player.update(a.state, 0.02);
    // Uneven frames until 60 steps, then single steps to 90.
    const double frames[] = {0.016, 0.05, 0.2, 0.033, 0.001, 0.11};
    for (int i = 0; a.sim().step_count() < 60; ++i) a.player.update(a.state, frames[i % 6]);
    while (a.sim().step_count() < 90) a.player.step(a.state);
    // The same number of single steps.
    for (int i = 0; i < int(a.sim().step_count()); ++i) b.player.step(b.state);
    CHECK(a.sim().step_count() == b.sim().step_count());
    CHECK(a.sim().state_hash() == b.sim().state_hash());
  }

  TEST_CASE("sim player: a saved game opens where it was saved and runs on as the run it came from") {
    sim::Simulation original(sim::circle_case(12));
    for (int i = 0; i < 200; ++i) original.step();
    PlayerRig rig(sim::saved_game(original));
    REQUIRE(rig.player.step(rig.state));
    original.step();
    CHECK(rig.sim().step_count() == 201);
    CHECK(rig.sim().state_hash() == original.state_hash());
    // A broken state: an error, and the simulation starts afresh from the units as saved.
    Scenario broken = sim::saved_game(original);
    broken.sim_state = "{\"version\":1}";
    PlayerRig fresh(broken);
    REQUIRE(fresh.player.step(fresh.state));
    CHECK(fresh.sim().step_count() == 1);
    REQUIRE_FALSE(fresh.state.messages.empty());
  }

  TEST_CASE(
      "sim player: reset rebuilds from the document; edits reach the world; another document stops it") {
    PlayerRig rig(four_units());
    REQUIRE(rig.player.step(rig.state));
    const sim::SimUnit* second = rig.sim().find_scenario_unit(11);
    REQUIRE(second != nullptr);
    rig.player.select(std::vector<sim::UnitId>{second->id});
    REQUIRE(rig.player.command_move({30, 15}, false).ok());
    for (int i = 0; i < 30; ++i) rig.player.step(rig.state);
    CHECK(rig.sim().find_scenario_unit(11)->body.position != Vec2{10, 10});

    // An obstacle drawn while it runs: the world is updated, the units stay where they are.
    const std::uint64_t version = rig.player.version();
    const Vec2 moved = rig.sim().find_scenario_unit(11)->body.position;
    REQUIRE(rig.state.doc
                ->apply("Add obstacle",
                        [](Scenario& s) {
                          Feature f;
                          f.id = 1;
                          f.terrain = 1;
                          f.shape.kind = ShapeKind::Rect;
                          f.shape.min = {34, 0};
                          f.shape.max = {36, 5};
                          s.features.push_back(f);
                        })
                .ok());
    rig.player.update(rig.state, 0.1);
    CHECK(rig.player.version() != version);
    CHECK(rig.sim().find_scenario_unit(11)->body.position == moved);
    CHECK(rig.sim().step_count() == 31);

    // Reset: step 0, units where the scenario has them, the selection kept.
    REQUIRE(rig.player.reset(rig.state));
    CHECK(rig.sim().step_count() == 0);
    CHECK(rig.sim().find_scenario_unit(11)->body.position == Vec2{10, 10});
    REQUIRE(rig.player.selected().size() == 1);
    CHECK(rig.sim().unit(rig.player.selected()[0])->scenario_id == 11);

    // Another document: the simulation is gone.
    rig.state.open_document(std::make_unique<Document>(with_faction(four_units())));
    rig.player.update(rig.state, 0.1);
    CHECK(rig.player.simulation() == nullptr);
    CHECK(rig.player.selected().empty());
  }

  TEST_CASE("sim player: picking, box selection and move orders") {
    PlayerRig rig(four_units());
    CHECK_FALSE(rig.player.unit_at({5, 10}, 0.1).has_value());  // no simulation yet
    REQUIRE(rig.player.reset(rig.state));
    const auto hit = rig.player.unit_at({5.3, 10.2}, 0.1);
    REQUIRE(hit.has_value());
    CHECK(rig.sim().unit(*hit)->scenario_id == 10);
    CHECK_FALSE(rig.player.unit_at({7.5, 10}, 0.1).has_value());  // between two units
    CHECK(rig.player.unit_at({7.5, 10}, 2.5).has_value());

    const std::vector<sim::UnitId> box = rig.player.units_in_box({21, 12}, {9, 8});
    REQUIRE(box.size() == 3);  // 10, 15 and 20 m; any corners
    rig.player.select(box);
    CHECK(rig.player.selected().size() == 3);
    rig.player.add_to_selection(std::vector<sim::UnitId>{box[0], *hit}, true);  // toggles
    REQUIRE(rig.player.selected().size() == 3);
    CHECK(rig.sim().unit(rig.player.selected()[2])->scenario_id == 10);

    REQUIRE(rig.player.command_move({30, 4}, false).ok());
    std::vector<Vec2> slots;
    for (const sim::UnitId id : rig.player.selected()) {
      const sim::SimUnit& u = *rig.sim().unit(id);
      CHECK(u.route.order.kind == OrderKind::Move);
      // Each its own slot of a formation round the point (sim/formation.hpp).
      REQUIRE(u.route.order.points.size() == 1);
      CHECK(u.goal.formation);
      CHECK(u.goal.formation_point == Vec2{30, 4});
      CHECK(glm::length(u.route.order.points[0] - Vec2{30, 4}) < 4);
      CHECK(std::find(slots.begin(), slots.end(), u.route.order.points[0]) == slots.end());
      slots.push_back(u.route.order.points[0]);
    }
    // Shift: the route goes on from the points still ahead (the group's point, not the
    // lead's slot).
    REQUIRE(rig.player.command_move({35, 15}, true).ok());
    const sim::SimUnit& lead = *rig.sim().unit(rig.player.selected()[0]);
    CHECK(lead.route.order.kind == OrderKind::Waypoints);
    REQUIRE(lead.route.order.points.size() == 2);
    CHECK(lead.route.order.points[0] == Vec2{30, 4});
    CHECK(lead.goal.formation_point == Vec2{35, 15});
    rig.player.clear_selection();
    CHECK(rig.player.command_move({1, 1}, false).value() == 0);
  }

  TEST_CASE("units tool: click selects, a drag boxes, a right click orders, Escape deselects") {
    PlayerRig rig(four_units());
    auto tool = tools::make_units_tool();
    ToolContext ctx{rig.state, *rig.state.doc, 10.0, &rig.player};
    const auto at = [](Vec2 p, bool shift = false) { return pointer_at(p, shift); };
    // The first click builds the simulation, paused: selecting never advances time.
    tool->on_press(ctx, at({15, 10}));
    tool->on_release(ctx, at({15, 10}));
    REQUIRE(rig.player.simulation() != nullptr);
    CHECK_FALSE(rig.player.playing());
    CHECK(rig.player.update(rig.state, 0.5) == 0);
    CHECK(rig.sim().step_count() == 0);
    REQUIRE(rig.player.selected().size() == 1);
    CHECK(rig.sim().unit(rig.player.selected()[0])->scenario_id == 12);

    // Hovering a unit rings it in the preview.
    render::DrawList preview;
    tool->on_hover(ctx, at({20.2, 10}));
    tool->draw_preview(ctx, preview);
    REQUIRE(preview.count(render::Layer::Markers, render::PrimitiveKind::Circle) == 1);
    tool->on_hover(ctx, at({20, 18}));
    preview.clear();
    tool->draw_preview(ctx, preview);
    CHECK(preview.empty());

    // A box round the first two; the preview shows it while dragging.
    tool->on_press(ctx, at({2, 7}));
    tool->on_drag(ctx, at({8, 9}));
    tool->on_drag(ctx, at({12, 13}));
    tool->draw_preview(ctx, preview);
    CHECK(preview.count(render::Layer::Markers, render::PrimitiveKind::Rect) == 2);
    tool->on_release(ctx, at({12, 13}));
    CHECK(rig.player.selected().size() == 2);
    preview.clear();
    tool->draw_preview(ctx, preview);
    CHECK(preview.empty());

    tool->on_right_click(ctx, at({30, 5}));
    for (const sim::UnitId id : rig.player.selected()) {
      CHECK(rig.sim().unit(id)->goal.formation_point == Vec2{30, 5});
      CHECK(rig.sim().unit(id)->route.order.points.size() == 1);
    }
    tool->on_right_click(ctx, at({35, 5}, true));
    CHECK(rig.sim().unit(rig.player.selected()[0])->route.order.kind == OrderKind::Waypoints);

    // A click on empty ground deselects (Shift keeps the selection).
    tool->on_press(ctx, at({30, 18}, true));
    tool->on_release(ctx, at({30, 18}, true));
    CHECK(rig.player.selected().size() == 2);
    CHECK(tool->on_key(ctx, ToolKey::Escape));
    CHECK(rig.player.selected().empty());
    // Ordering nothing warns.
    tool->on_right_click(ctx, at({30, 5}));
    CHECK(rig.state.messages.back().severity == Severity::Warning);
    // The document never changes.
    CHECK_FALSE(rig.state.doc->modified());
  }

  TEST_CASE("selected-unit figures: path left, collisions, yield names") {
    sim::SimUnit u;
    u.body.position = {0, 0};
    CHECK(remaining_path_length(u) == 0);
    u.route.path = {{-5, 0}, {3, 4}, {3, 10}};
    u.route.waypoint = 1;
    CHECK(remaining_path_length(u) == doctest::Approx(11));
    u.route.waypoint = 3;
    CHECK(remaining_path_length(u) == 0);
    CHECK(std::string(yield_name(sim::Yield::SlowDown)) == "slow_down");
    CHECK(std::string(yield_name(sim::Yield::MoveAside)) == "move_aside");
  }

  TEST_CASE(
      "sim player: every step is recorded, scrubbing shows the state a fresh run had, and it runs on from "
      "any step") {
    const Scenario scenario = with_faction(sim::crossing_case(6));
    PlayerRig rig(scenario);
    for (int i = 0; i < 120; ++i) REQUIRE(rig.player.step(rig.state));
    const sim::Recording* rec = rig.player.recording();
    REQUIRE(rec != nullptr);
    CHECK(rec->first_step() == 0);
    CHECK(rec->last_step() == 120);
    std::vector<std::uint64_t> fresh;
    sim::Simulation reference(scenario);
    fresh.push_back(reference.state_hash());
    for (int i = 0; i < 160; ++i) {
      reference.step();
      fresh.push_back(reference.state_hash());
    }
    // Live: nothing recorded is shown.
    CHECK_FALSE(rig.player.viewing_recording());
    CHECK(rig.player.shown_hash() == fresh[120]);
    // Scrub back and forth.
    for (std::uint64_t step : {40u, 3u, 119u, 64u}) {
      REQUIRE(rig.player.scrub(step));
      CHECK(rig.player.viewing_recording());
      CHECK(rig.player.shown_step() == step);
      CHECK(rig.player.shown_verified());
      CHECK(rig.player.shown_hash() == fresh[step]);
      CHECK(sim::state_hash(step, rig.player.shown_units()) == fresh[step]);
    }
    CHECK_FALSE(rig.player.scrub(500));
    REQUIRE(rig.player.step_back());
    CHECK(rig.player.shown_step() == 63);
    // Picking works on the frame shown; orders wait for Run from here.
    const sim::SimUnit& any = rig.player.shown_units()[2];
    const auto picked = rig.player.unit_at(any.body.position, 0.1);
    REQUIRE(picked.has_value());
    rig.player.select(std::vector<sim::UnitId>{*picked});
    CHECK_FALSE(rig.player.command_move({5, 5}, false).ok());
    // Stepping forward goes through the recording; the last step shows the simulation live.
    REQUIRE(rig.player.step(rig.state));
    CHECK(rig.player.shown_step() == 64);
    REQUIRE(rig.player.scrub(120));
    CHECK_FALSE(rig.player.viewing_recording());
    // Run from step 50: the steps after it are dropped, and the run goes on as it went.
    REQUIRE(rig.player.scrub(50));
    REQUIRE(rig.player.run_from_here(rig.state));
    CHECK_FALSE(rig.player.viewing_recording());
    CHECK(rig.sim().step_count() == 50);
    CHECK(rec->last_step() == 50);
    for (int i = 0; i < 100; ++i) REQUIRE(rig.player.step(rig.state));
    CHECK(rig.sim().state_hash() == fresh[150]);
    CHECK(rec->last_step() == 150);
    REQUIRE(rig.player.scrub(149));
    CHECK(rig.player.shown_hash() == fresh[149]);
    CHECK(rig.player.shown_verified());
  }

  TEST_CASE("sim player: a recording opened from a file plays back, then the run goes on past its end") {
    const Scenario scenario = with_faction(sim::crossing_case(4));
    sim::Recording recording(scenario);
    sim::Simulation run(scenario);
    REQUIRE(recording.capture(run));
    for (int i = 0; i < 60; ++i) {
      run.step();
      REQUIRE(recording.capture(run));
    }
    auto loaded = sim::Recording::from_bytes(recording.to_bytes(), "run.psrec");
    REQUIRE(loaded.ok());
    EditorState state;
    state.open_document(std::make_unique<Document>(loaded->start()));
    SimPlayer player;
    player.load_recording(std::make_shared<sim::Recording>(std::move(loaded).value()), state);
    CHECK(player.active());
    CHECK(player.simulation() == nullptr);
    CHECK(player.viewing_recording());
    CHECK(player.shown_step() == 0);
    // Playing it back: a second of frames is 30 steps of the recording, no simulation.
    REQUIRE(player.play(state));
    player.update(state, 0.1);  // the first frame of a play adds nothing
    for (int i = 0; i < 10; ++i) player.update(state, 0.1);
    CHECK(player.viewing_recording());
    CHECK(player.simulation() == nullptr);
    CHECK(player.shown_step() == 30);
    CHECK(player.shown_hash() == recording.hash(30));
    // Past its end the run is taken up again and goes on.
    for (int i = 0; i < 15; ++i) player.update(state, 0.1);
    REQUIRE(player.simulation() != nullptr);
    CHECK_FALSE(player.viewing_recording());
    CHECK(player.simulation()->step_count() > 60);
    for (std::uint64_t i = run.step_count(); i < player.simulation()->step_count(); ++i) run.step();
    CHECK(player.simulation()->state_hash() == run.state_hash());
  }
  TEST_CASE("units tool: clicks on a paused recording select units and never advance it") {
    const Scenario scenario = with_faction(sim::crossing_case(4));
    sim::Recording recording(scenario);
    sim::Simulation run(scenario);
    REQUIRE(recording.capture(run));
    for (int i = 0; i < 90; ++i) {
      run.step();
      REQUIRE(recording.capture(run));
    }
    auto loaded = sim::Recording::from_bytes(recording.to_bytes(), "run.psrec");
    REQUIRE(loaded.ok());
    EditorState state;
    state.open_document(std::make_unique<Document>(loaded->start()));
    SimPlayer player;
    player.load_recording(std::make_shared<sim::Recording>(std::move(loaded).value()), state);
    // Played back to step 30, then paused.
    REQUIRE(player.play(state));
    player.update(state, 0.1);
    for (int i = 0; i < 10; ++i) player.update(state, 0.1);
    player.pause();
    REQUIRE(player.shown_step() == 30);

    auto tool = tools::make_units_tool();
    ToolContext ctx{state, *state.doc, 10.0, &player};
    auto at = [](Vec2 p) {
      PointerEvent e;
      e.world = p;
      return e;
    };
    const Vec2 unit = player.shown_units()[0].body.position;
    for (int click = 0; click < 3; ++click) {
      tool->on_press(ctx, at(unit));
      tool->on_release(ctx, at(unit));
      for (int i = 0; i < 5; ++i) player.update(state, 0.1);
      CHECK_FALSE(player.playing());
      CHECK(player.viewing_recording());
      CHECK(player.shown_step() == 30);
    }
    CHECK(player.selected().size() == 1);
    // A click on open ground, and a box: the same step still.
    tool->on_press(ctx, at({-50, -50}));
    tool->on_release(ctx, at({-50, -50}));
    tool->on_press(ctx, at({-1, -1}));
    tool->on_drag(ctx, at({500, 500}));
    tool->on_release(ctx, at({500, 500}));
    for (int i = 0; i < 5; ++i) player.update(state, 0.1);
    CHECK(player.shown_step() == 30);
    CHECK(player.simulation() == nullptr);
    CHECK_FALSE(player.selected().empty());
  }

  TEST_CASE("sim player: playing a recording back pauses at a damaged frame and says which step and why") {
    const Scenario scenario = with_faction(sim::crossing_case(4));
    sim::Recording recording(scenario);
    sim::Simulation run(scenario);
    REQUIRE(recording.capture(run));
    for (int i = 0; i < 60; ++i) {
      run.step();
      REQUIRE(recording.capture(run));
    }
    // Step 20's frame gets a first byte no frame has: steps 20 to 60 cannot be decoded.
    nlohmann::json j = nlohmann::json::from_cbor(recording.to_bytes());
    auto& frames = j["frames"].get_binary();
    frames.at(j["offsets"][20].get<std::size_t>()) = 7;
    const std::vector<std::uint8_t> cbor = nlohmann::json::to_cbor(j);
    auto loaded = sim::Recording::from_bytes(std::string(cbor.begin(), cbor.end()), "damaged.psrec");
    REQUIRE(loaded.ok());
    EditorState state;
    state.open_document(std::make_unique<Document>(loaded->start()));
    SimPlayer player;
    player.load_recording(std::make_shared<sim::Recording>(std::move(loaded).value()), state);
    REQUIRE(player.viewing_recording());
    REQUIRE(player.play(state));
    player.update(state, 0.1);  // the first frame of a play adds nothing
    for (int i = 0; i < 30 && player.playing(); ++i) player.update(state, 0.1);
    // Paused on the last step shown before the damaged one, with an error naming the
    // step that could not be shown and why.
    CHECK_FALSE(player.playing());
    CHECK(player.viewing_recording());
    CHECK(player.simulation() == nullptr);
    CHECK(player.shown_step() < 20);
    CHECK(player.shown_hash() == recording.hash(player.shown_step()));
    const Message* error = state.messages.pinned_error();
    REQUIRE(error != nullptr);
    CHECK(error->text.find("playback paused at step " + std::to_string(player.shown_step())) !=
          std::string::npos);
    CHECK(error->text.find("the frame of step 20 is damaged") != std::string::npos);
    // Frames after it run nothing, and Play stops again at once.
    const std::uint64_t at = player.shown_step();
    CHECK(player.update(state, 0.1) == 0);
    REQUIRE(player.play(state));
    player.update(state, 0.1);
    player.update(state, 0.1);
    CHECK_FALSE(player.playing());
    CHECK(player.shown_step() == at);
  }
  TEST_CASE("stuck count: the window's is the stuck detector's, as simulate reports it, live and scrubbed") {
    // The crowd at the gap, as in the issue: at step 757 the Simulation section, the stuck
    // list and `pathscope simulate --steps 757` must give one number.
    const auto loaded = load_scenario(std::string(PATHSCOPE_SOURCE_DIR) + "/maps/sim_crowd_gap.json");
    REQUIRE(loaded.ok());
    PlayerRig rig(*loaded);
    for (int i = 0; i < 757; ++i) REQUIRE(rig.player.step(rig.state));
    // What `simulate` does: a detector observing after every step.
    sim::Simulation fresh(rig.state.doc->scenario());
    sim::StuckDetector detector(sim::stuck_params(fresh.scenario().sim));
    std::vector<std::size_t> stuck_then{0};
    for (int i = 0; i < 757; ++i) {
      fresh.step();
      detector.observe(fresh);
      stuck_then.push_back(detector.stuck_now());
    }
    REQUIRE(fresh.state_hash() == rig.sim().state_hash());
    REQUIRE(stuck_then[757] > 0);  // a case where the count matters
    const auto live = rig.player.stuck_shown();
    REQUIRE(live.has_value());
    CHECK(live->size() == stuck_then[757]);
    // Scrubbed: the count of the step shown, not of the live end.
    for (std::uint64_t step : {200u, 450u, 600u}) {
      CAPTURE(step);
      REQUIRE(rig.player.scrub(step));
      const auto shown = rig.player.stuck_shown();
      REQUIRE(shown.has_value());
      CHECK(shown->size() == stuck_then[step]);
    }
  }

  TEST_CASE("save game of the step shown: a recorded step saves that step, the live one its detector too") {
    const Scenario scenario = with_faction(sim::crossing_case(6));
    PlayerRig rig(scenario);
    CHECK_FALSE(rig.player.saved_game_shown().ok());  // nothing shown
    for (int i = 0; i < 160; ++i) REQUIRE(rig.player.step(rig.state));
    const sim::Recording* rec = rig.player.recording();
    REQUIRE(rec != nullptr);
    // Restores a saved game and returns its simulation's step and hash.
    const auto restored = [](const Scenario& game) {
      Scenario bare = game;
      bare.sim_state.clear();
      sim::Simulation s(bare);
      REQUIRE(s.restore_state(game.sim_state).ok());
      return std::pair{s.step_count(), s.state_hash()};
    };
    REQUIRE(rig.player.scrub(118));
    const auto scrubbed = rig.player.saved_game_shown();
    REQUIRE(scrubbed.ok());
    CHECK(restored(*scrubbed) == std::pair{std::uint64_t{118}, rec->hash(118)});
    CHECK(scrubbed->sim_state.find("stuck_detector") == std::string::npos);
    // Scrubbing changed nothing: the live run is still at its end.
    CHECK(rig.sim().step_count() == 160);
    REQUIRE(rig.player.scrub(160));
    const auto live = rig.player.saved_game_shown();
    REQUIRE(live.ok());
    CHECK(restored(*live) == std::pair{std::uint64_t{160}, rig.sim().state_hash()});
    CHECK(live->sim_state.find("stuck_detector") != std::string::npos);
  }
  TEST_CASE("platoon orders: a selected platoon moves as one, facing the drag, others take the group order") {
    const auto loaded =
        load_scenario(std::string(PATHSCOPE_SOURCE_DIR) + "/tests/data/platoon_window_test.json");
    REQUIRE(loaded.ok());
    PlayerRig rig(*loaded);
    auto tool = tools::make_units_tool();
    ToolContext ctx{rig.state, *rig.state.doc, 10.0, &rig.player};
    const auto at = [](Vec2 p, bool shift = false) { return pointer_at(p, shift); };
    // Nothing selected: a right drag is a pan, not the tool's.
    REQUIRE(rig.player.reset(rig.state));
    CHECK_FALSE(tool->takes_right_drag(ctx, at({0, 0})));
    // One vehicle selected: its platoon is.
    const sim::SimUnit* tank = rig.sim().find_scenario_unit(3);
    const sim::SimUnit* infantry = rig.sim().find_scenario_unit(5);
    REQUIRE(tank);
    REQUIRE(infantry);
    rig.player.select(std::vector<sim::UnitId>{tank->id});
    REQUIRE(rig.player.selected_platoons() == std::vector<std::uint32_t>{1});
    CHECK(tool->takes_right_drag(ctx, at({0, 0})));
    // A right drag north from (130, 60): ordered there, to face north (heading pi/2, y down).
    tool->on_right_drag(ctx, at({130, 60}), at({130, 50}), false);
    render::DrawList preview;
    tool->draw_preview(ctx, preview);
    // The arrow, its head, and the four slots of the wedge standing at the point.
    CHECK(preview.count(render::Layer::Markers, render::PrimitiveKind::Circle) == 4);
    const sim::PlatoonRun* p = rig.player.platoon(1);
    REQUIRE(p);
    CHECK(p->order == sim::PlatoonOrderState::None);  // not before the release
    tool->on_right_drag(ctx, at({130, 60}), at({130, 50}), true);
    CHECK(p->order == sim::PlatoonOrderState::WaitingForPath);
    CHECK(p->goal == Vec2{130, 60});
    REQUIRE(p->final_heading.has_value());
    CHECK(*p->final_heading == doctest::Approx(3.14159265358979 / 2));
    for (const sim::UnitId id : p->slots) CHECK(rig.sim().unit(id)->route.state == sim::MoveState::InPlatoon);
    preview.clear();
    tool->draw_preview(ctx, preview);
    CHECK(preview.empty());
    CHECK(rig.sim().step_count() == 0);  // orders never advance time

    // The platoon and an infantry unit: the platoon as a platoon (no heading from a click),
    // the infantry with a move order of its own; the platoon keeps every vehicle.
    rig.player.add_to_selection(std::vector<sim::UnitId>{infantry->id}, false);
    const Result<std::size_t> given = rig.player.command_move({40, 20}, false);
    REQUIRE(given.ok());
    CHECK(*given == 5);
    CHECK(p->slots.size() == 4);
    CHECK(p->goal == Vec2{40, 20});
    CHECK_FALSE(p->final_heading.has_value());
    const sim::SimUnit& foot = *rig.sim().unit(infantry->id);
    CHECK(foot.route.state != sim::MoveState::InPlatoon);
    REQUIRE(foot.route.order.kind == OrderKind::Move);
    CHECK(foot.route.order.points.back() == Vec2{40, 20});
    // Shift: the platoon goes through (40, 20), then on to the new point.
    rig.player.select(std::vector<sim::UnitId>{tank->id});
    REQUIRE(rig.player.command_move({60, 100}, true).ok());
    CHECK(p->goal == Vec2{60, 100});
    CHECK(p->legs == std::vector<Vec2>{{40, 20}, {60, 100}});
    REQUIRE(rig.player.command_move({40, 20}, false).ok());
    CHECK(p->legs == std::vector<Vec2>{{40, 20}});
    // Shift on a platoon driving: the points it has not reached yet stay, in order.
    REQUIRE(rig.player.command_move({60, 100}, true).ok());
    rig.player.play(rig.state);
    for (int k = 0; k < 40 && p->order != sim::PlatoonOrderState::Driving; ++k)
      rig.player.update(rig.state, 0.1);
    REQUIRE(p->order == sim::PlatoonOrderState::Driving);
    CHECK(p->legs.empty());  // both legs planned: the walk holds them
    REQUIRE(rig.player.command_move({100, 100}, true).ok());
    CHECK(p->legs == std::vector<Vec2>{{40, 20}, {60, 100}, {100, 100}});
    // Past (40, 20): it is dropped, the rest kept.
    for (int k = 0; k < 400 && glm::distance(p->motion.position, Vec2{40, 20}) > 2; ++k)
      rig.player.update(rig.state, 0.1);
    REQUIRE(p->order == sim::PlatoonOrderState::Driving);
    for (int k = 0; k < 10; ++k) rig.player.update(rig.state, 0.1);
    REQUIRE(rig.player.command_move({120, 40}, true).ok());
    CHECK(p->legs == std::vector<Vec2>{{60, 100}, {100, 100}, {120, 40}});
    rig.player.pause();
    REQUIRE(rig.player.command_move({40, 20}, false).ok());

    // The formation: a built-in or the scenario's own; an unknown name is refused.
    CHECK(p->to.shape == sim::FormationShape::Wedge);
    REQUIRE(rig.player.change_formation(1, "diamond").ok());
    CHECK(p->to.shape == sim::FormationShape::Custom);
    CHECK(p->to.offsets == rig.state.doc->scenario().formations[0].offsets);
    CHECK(p->from.shape == sim::FormationShape::Wedge);
    const Status refused = rig.player.change_formation(1, "phalanx");
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().to_string().find("phalanx") != std::string::npos);
    CHECK_FALSE(rig.player.change_formation(7, "line").ok());

    // It drives there and arrives, in the window's player as headless.
    rig.player.play(rig.state);
    for (int k = 0; k < 200 && p->motion.phase != sim::PlatoonPhase::Arrived; ++k)
      rig.player.update(rig.state, 0.25);
    CHECK(p->motion.phase == sim::PlatoonPhase::Arrived);
    CHECK(glm::length(p->motion.position - Vec2{40, 20}) < 3);
  }
  TEST_CASE("sim player: DetourCrowd beside the simulation, the same steps and the same orders") {
    PlayerRig rig(four_units());
    CHECK(rig.player.crowd_mode() == SimPlayer::CrowdMode::Ours);
    REQUIRE(rig.player.step(rig.state));
    REQUIRE(rig.player.step(rig.state));
    CHECK(rig.player.crowd() == nullptr);
    // Turned on: both runs start again together from the scenario.
    REQUIRE(rig.player.set_crowd_mode(SimPlayer::CrowdMode::Both, rig.state));
    REQUIRE(rig.player.crowd() != nullptr);
    CHECK(rig.sim().step_count() == 0);
    CHECK(rig.player.crowd()->steps() == 0);
    REQUIRE(rig.player.crowd()->agents().size() == 4);
    CHECK(rig.player.crowd()->goals().ordered == 0);
    CHECK(rig.player.crowd_shown());
    // A window order goes to the same units' agents.
    const sim::SimUnit* second = rig.sim().find_scenario_unit(11);
    const sim::SimUnit* third = rig.sim().find_scenario_unit(12);
    REQUIRE(second != nullptr);
    REQUIRE(third != nullptr);
    rig.player.select(std::vector<sim::UnitId>{second->id, third->id});
    REQUIRE(rig.player.command_move({30, 4}, false).ok());
    const CrowdRun& crowd = *rig.player.crowd();
    CHECK(crowd.goals().ordered == 2);
    CHECK(crowd.agents()[1].has_goal);
    CHECK(crowd.agents()[1].goal == Vec2{30, 4});
    CHECK_FALSE(crowd.agents()[0].has_goal);
    // Stepped together, by the accumulator as by Step.
    REQUIRE(rig.player.play(rig.state));
    rig.player.update(rig.state, 0.1);
    for (int i = 0; i < 20; ++i) rig.player.update(rig.state, 0.1);
    CHECK(rig.sim().step_count() > 30);
    CHECK(crowd.steps() == rig.sim().step_count());
    CHECK(crowd.moved(0.5) == 2);
    // DetourCrowd alone: the same run, drawn instead of ours.
    const CrowdRun* same = rig.player.crowd();
    REQUIRE(rig.player.set_crowd_mode(SimPlayer::CrowdMode::Detour, rig.state));
    CHECK(rig.player.crowd() == same);
    // Past the recording's next snapshot (10 s), which holds the order given at step 0.
    for (int i = 0; i < 100; ++i) rig.player.update(rig.state, 0.1);
    REQUIRE(rig.sim().step_count() > 310);
    CHECK(rig.player.crowd()->steps() == rig.sim().step_count());
    // A recorded step shown: the crowd's agents are not drawn (they are live only).
    rig.player.pause();
    REQUIRE(rig.player.scrub(305));
    CHECK_FALSE(rig.player.crowd_shown());
    // Taken up again there: the two runs part, and the crowd's stops, saying why.
    const bool resumed = rig.player.run_from_here(rig.state);
    CAPTURE(rig.state.messages.back().text);
    REQUIRE(resumed);
    CHECK(rig.player.crowd() == nullptr);
    CHECK(rig.player.crowd_note().find("recorded step") != std::string::npos);
    CHECK(rig.player.crowd_mode() == SimPlayer::CrowdMode::Detour);
    // Reset starts both again; Ours drops the crowd.
    REQUIRE(rig.player.reset(rig.state));
    REQUIRE(rig.player.crowd() != nullptr);
    CHECK(rig.player.crowd()->steps() == 0);
    REQUIRE(rig.player.set_crowd_mode(SimPlayer::CrowdMode::Ours, rig.state));
    CHECK(rig.player.crowd() == nullptr);
    CHECK(rig.player.crowd_note().empty());
  }
}  // TEST_SUITE
