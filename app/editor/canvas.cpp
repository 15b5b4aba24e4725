#include "app/editor/canvas.hpp"

#include <SDL.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>

#include <glm/common.hpp>

namespace pathscope::app {
namespace {

PointerEvent make_event(const render::Camera& camera, const ImGuiIO& io, int button) {
  PointerEvent e;
  e.screen = {io.MousePos.x, io.MousePos.y};
  e.world = camera.to_world(e.screen);
  e.button = button;
  e.shift = io.KeyShift;
  e.ctrl = io.KeyCtrl;
  e.alt = io.KeyAlt;
  return e;
}

}  // namespace

void Canvas::handle_input(EditorState& state, Tool* tool) {
  ImGuiIO& io = ImGui::GetIO();
  render::Camera& camera = state.camera;
  const bool over_canvas = !io.WantCaptureMouse && ImGui::IsMousePosValid();
  const Vec2 mouse{io.MousePos.x, io.MousePos.y};
  hover_ = over_canvas ? std::optional<Vec2>(camera.to_world(mouse)) : std::nullopt;
  if (!state.doc) return;
  ToolContext ctx{state, *state.doc, camera.zoom()};

  // Zoom at the cursor.
  if (over_canvas && io.MouseWheel != 0) camera.zoom_at(mouse, std::pow(1.2, double(io.MouseWheel)));

  // Pan: right or middle drag anywhere it started on the canvas, or space + left drag.
  const bool space = !io.WantCaptureKeyboard && ImGui::IsKeyDown(SDL_SCANCODE_SPACE);
  if (over_canvas && (ImGui::IsMouseClicked(1) || ImGui::IsMouseClicked(2) || (space && ImGui::IsMouseClicked(0)))) {
    panning_ = true;
  }
  if (panning_) {
    if (ImGui::IsMouseDown(0) || ImGui::IsMouseDown(1) || ImGui::IsMouseDown(2)) {
      camera.pan_pixels({io.MouseDelta.x, io.MouseDelta.y});
    } else {
      panning_ = false;
    }
    last_mouse_ = mouse;
    return;
  }

  if (tool) {
    if (over_canvas && ImGui::IsMouseClicked(0)) {
      dragging_ = true;
      tool->on_press(ctx, make_event(camera, io, 0));
      if (ImGui::IsMouseDoubleClicked(0)) tool->on_key(ctx, ToolKey::Enter);
    } else if (dragging_ && ImGui::IsMouseReleased(0)) {
      dragging_ = false;
      tool->on_release(ctx, make_event(camera, io, 0));
      state.doc->end_merge();
    } else if (dragging_ && (mouse.x != last_mouse_.x || mouse.y != last_mouse_.y)) {
      tool->on_drag(ctx, make_event(camera, io, 0));
    } else if (over_canvas && (mouse.x != last_mouse_.x || mouse.y != last_mouse_.y)) {
      tool->on_hover(ctx, make_event(camera, io, 0));
    }
    if (!io.WantCaptureKeyboard && !io.KeyCtrl) {
      if (ImGui::IsKeyPressed(SDL_SCANCODE_RETURN) || ImGui::IsKeyPressed(SDL_SCANCODE_KP_ENTER)) {
        tool->on_key(ctx, ToolKey::Enter);
      }
      if (ImGui::IsKeyPressed(SDL_SCANCODE_ESCAPE)) tool->on_key(ctx, ToolKey::Escape);
      if (ImGui::IsKeyPressed(SDL_SCANCODE_DELETE) || ImGui::IsKeyPressed(SDL_SCANCODE_BACKSPACE)) {
        tool->on_key(ctx, ToolKey::Delete);
      }
    }
  }
  last_mouse_ = mouse;
}

void Canvas::paint_grid_lines(const Scenario& scenario, const render::Camera& camera, render::DrawList& out) {
  const double cell = scenario.world.cell_size;
  const double px_per_cell = cell * camera.zoom();
  int every = 1;
  while (px_per_cell * every < 6 && every < 4096) every *= 8;
  const double step = cell * every;
  const Vec2 lo = glm::max(camera.visible_min(), Vec2(0.0));
  const Vec2 hi = glm::min(camera.visible_max(), Vec2(scenario.world.width, scenario.world.height));
  if (lo.x >= hi.x || lo.y >= hi.y) return;
  const Color color{255, 255, 255, 40};
  for (double x = std::ceil(lo.x / step) * step; x <= hi.x; x += step) {
    out.line(render::Layer::Labels, color, {x, lo.y}, {x, hi.y});
  }
  for (double y = std::ceil(lo.y / step) * step; y <= hi.y; y += step) {
    out.line(render::Layer::Labels, color, {lo.x, y}, {hi.x, y});
  }
}

}  // namespace pathscope::app
