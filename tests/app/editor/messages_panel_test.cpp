// The message panel drawn in offscreen ImGui frames (no display): the pinned error in
// red above the list, warnings in yellow, the dismiss and Clear buttons clicked with a
// simulated mouse.

#include "app/editor/messages_panel.hpp"

#include "app/editor/editor_state.hpp"
#include "app/platform/png_export.hpp"
#include "render/core/camera.hpp"
#include "render/core/draw_list.hpp"

#include <doctest/doctest.h>
#include <imgui.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

using namespace pathscope;
using namespace pathscope::app;

namespace {

constexpr int kPanelWidth = 480;
constexpr int kPanelHeight = 200;

// Draws the panel in a window filling the canvas, as the editor's Messages window does.
// The mouse is at the first item of the panel (a button) and held down when `press`;
// ImGui sees both on the next frame.
struct PanelRig {
  std::unique_ptr<OffscreenCanvas> canvas;
  EditorState state;
  render::DrawList nothing;
  render::Camera camera;

  PanelRig() {
    Result<std::unique_ptr<OffscreenCanvas>> made = OffscreenCanvas::create(kPanelWidth, kPanelHeight);
    REQUIRE(made);
    canvas = std::move(made).value();
  }
  void frame(bool press = false) {
    canvas->draw_frame(nothing, camera, [&] {
      ImGui::SetNextWindowPos(ImVec2(0, 0));
      ImGui::SetNextWindowSize(ImVec2(kPanelWidth, kPanelHeight));
      ImGui::Begin("Messages", nullptr, ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoSavedSettings);
      const ImVec2 first = ImGui::GetCursorScreenPos();
      messages_panel(state);
      ImGui::End();
      ImGuiIO& io = ImGui::GetIO();
      io.MousePos = ImVec2(first.x + 6, first.y + 6);
      io.MouseDown[0] = press;
    });
  }
  // Moves onto the first button, presses and releases it.
  void click_first_button() {
    frame();
    frame(true);
    frame();
    frame();
  }
  // Pixels in rows [y0, y1) whose colour passes `test` (r, g, b).
  int count_pixels(int y0, int y1, const std::function<bool(int, int, int)>& test) const {
    Result<RgbaImage> image = canvas->read_pixels();
    REQUIRE(image);
    int n = 0;
    for (int y = y0; y < y1; ++y) {
      for (int x = 0; x < image->width; ++x) {
        const std::uint8_t* p =
            &image->pixels[(std::size_t(y) * std::size_t(image->width) + std::size_t(x)) * 4];
        n += test(p[0], p[1], p[2]) ? 1 : 0;
      }
    }
    return n;
  }
};

bool reddish(int r, int g, int b) { return r > 200 && g < 140 && b < 140; }
bool yellowish(int r, int g, int b) { return r > 200 && g > 160 && b < 120; }

}  // namespace

TEST_SUITE("messages") {
  TEST_CASE("panel: the pinned error stays red at the top, dismiss, then Clear") {
    PanelRig rig;
    rig.state.report("opened a.json");
    rig.state.report_error("cannot save: a.json: read-only");
    for (int i = 0; i < 40; ++i) rig.state.report("exported view" + std::to_string(i) + ".png");
    rig.frame();
    rig.frame();
    // The list has scrolled to its newest (info) lines; the error is still on the first
    // row, in red. (Row: window padding 8 px, then 13 px of text.)
    CHECK(rig.count_pixels(0, 24, reddish) > 20);
    CHECK(rig.count_pixels(40, kPanelHeight, reddish) == 0);

    rig.click_first_button();  // dismiss
    CHECK(rig.state.messages.pinned_error() == nullptr);
    CHECK(rig.state.messages.size() == 42);
    rig.frame();
    CHECK(rig.count_pixels(0, kPanelHeight, reddish) == 0);

    rig.state.report_error("Move refused: features[0].points: self-intersecting");
    rig.frame();
    REQUIRE(rig.state.messages.pinned_error());
    rig.click_first_button();  // dismiss again; now Clear is the first button
    REQUIRE(rig.state.messages.pinned_error() == nullptr);
    rig.click_first_button();
    CHECK(rig.state.messages.empty());
  }

  TEST_CASE("panel: warnings are yellow and not pinned, Clear empties the list") {
    PanelRig rig;
    rig.state.report_warning("Add road: a road needs at least 2 points");
    rig.frame();
    rig.frame();
    CHECK(rig.count_pixels(0, kPanelHeight, yellowish) > 20);
    CHECK(rig.count_pixels(0, kPanelHeight, reddish) == 0);
    CHECK(rig.state.messages.pinned_error() == nullptr);
    rig.click_first_button();  // Clear (no pinned error, so it comes first)
    CHECK(rig.state.messages.empty());
  }
}
