// The inspector drawn in offscreen ImGui frames: a unit's order of every kind (its kind
// and patrol combos, its points, its group) draws without touching the scenario.

#include <doctest/doctest.h>

#include <imgui.h>

#include <cstdlib>
#include <memory>
#include <string>

#include "app/editor/document.hpp"
#include "app/editor/editor_state.hpp"
#include "app/editor/inspector.hpp"
#include "app/platform/png_export.hpp"
#include "render/core/camera.hpp"
#include "render/core/draw_list.hpp"

using namespace pathscope;
using namespace pathscope::app;

TEST_SUITE("inspector") {
  TEST_CASE("inspector: a unit's order of every kind, and its group, draw without changing the scenario") {
    const char* old_driver = std::getenv("SDL_VIDEODRIVER");
    const std::string saved = old_driver ? old_driver : "";
    setenv("SDL_VIDEODRIVER", "dummy", 1);
    Result<std::unique_ptr<OffscreenCanvas>> canvas = OffscreenCanvas::create(640, 480);
    if (old_driver) {
      setenv("SDL_VIDEODRIVER", saved.c_str(), 1);
    } else {
      unsetenv("SDL_VIDEODRIVER");
    }
    REQUIRE(canvas);

    Scenario s = make_empty_scenario(100, 80, 1);
    s.factions.push_back(Faction{"blue", {}, 0, false, {}, {}, {}});
    s.units.push_back(Unit{7, "blue", 0, {80, 60}, 0});
    s.units.push_back(Unit{8, "blue", 0, {20, 60}, 0});
    s.groups.push_back(UnitGroup{3, "pair", {8, 7}, Order{OrderKind::Move, {{50, 50}}, PatrolMode::Loop}});
    EditorState state;
    state.open_document(std::make_unique<Document>(s));
    state.selection = Selection{Selection::Kind::Unit, 7, -1};

    const render::DrawList nothing;
    const render::Camera camera;
    const Order orders[] = {Order{}, Order{OrderKind::Move, {{1, 2}}, PatrolMode::Loop},
                            Order{OrderKind::Waypoints, {{1, 2}, {3, 4}}, PatrolMode::Loop},
                            Order{OrderKind::Patrol, {{1, 2}, {3, 4}, {5, 6}}, PatrolMode::BackForth},
                            Order{OrderKind::Stop, {}, PatrolMode::Loop}};
    for (const Order& order : orders) {
      CAPTURE(int(order.kind));
      REQUIRE(state.doc->apply("Edit unit 7 order", [&](Scenario& e) { e.units[0].order = order; }));
      const Scenario before = state.doc->scenario();
      for (int frame = 0; frame < 3; ++frame) {
        (*canvas)->draw_frame(nothing, camera, [&] {
          ImGui::SetNextWindowSize(ImVec2(360, 440));
          if (ImGui::Begin("Inspector")) inspector_panel(state);
          ImGui::End();
        });
      }
      CHECK(state.doc->scenario() == before);
      CHECK(state.selection == Selection{Selection::Kind::Unit, 7, -1});
    }
  }
}
