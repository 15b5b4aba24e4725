#include "app/editor/canvas.hpp"

#include <SDL.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>

#include <glm/common.hpp>
#include <glm/geometric.hpp>

#include "app/platform/pointer_input.hpp"

namespace pathscope::app {
namespace {

PointerEvent make_event(const render::Camera& camera, const CanvasInput& in, Vec2 screen, int button) {
  PointerEvent e;
  e.screen = screen;
  e.world = camera.to_world(screen);
  e.button = button;
  e.shift = in.shift;
  e.ctrl = in.ctrl;
  e.alt = in.alt;
  return e;
}

}  // namespace

CanvasInput CanvasInput::from_frame(const PointerTracker& pointer, Vec2 canvas_lo, Vec2 canvas_hi) {
  const ImGuiIO& io = ImGui::GetIO();
  CanvasInput in;
  in.moves = pointer.moves();
  in.mouse = pointer.position();
  in.mouse_valid = pointer.valid();
  in.over_canvas = in.mouse_valid && !io.WantCaptureMouse && in.mouse.x >= canvas_lo.x &&
                   in.mouse.y >= canvas_lo.y && in.mouse.x < canvas_hi.x && in.mouse.y < canvas_hi.y;
  for (int b = 0; b < 3; ++b) {
    in.pressed[b] = pointer.pressed(b);
    in.released[b] = pointer.released(b);
    in.down[b] = pointer.down(b);
  }
  in.double_clicked = ImGui::IsMouseDoubleClicked(0);
  in.wheel = io.MouseWheel;
  in.shift = io.KeyShift;
  in.ctrl = io.KeyCtrl;
  in.alt = io.KeyAlt;
  const bool keys = !io.WantCaptureKeyboard;
  in.space = keys && ImGui::IsKeyDown(SDL_SCANCODE_SPACE);
  if (keys && !io.KeyCtrl) {
    in.enter = ImGui::IsKeyPressed(SDL_SCANCODE_RETURN) || ImGui::IsKeyPressed(SDL_SCANCODE_KP_ENTER);
    in.escape = ImGui::IsKeyPressed(SDL_SCANCODE_ESCAPE);
    in.del = ImGui::IsKeyPressed(SDL_SCANCODE_DELETE) || ImGui::IsKeyPressed(SDL_SCANCODE_BACKSPACE);
  }
  return in;
}

void Canvas::handle_input(EditorState& state, Tool* tool, const CanvasInput& in, SimPlayer* sim) {
  render::Camera& camera = state.camera;
  const Vec2 mouse = in.mouse;
  const bool was_hovering = hover_.has_value();
  hover_ = in.over_canvas ? std::optional<Vec2>(camera.to_world(mouse)) : std::nullopt;
  if (!state.doc) return;
  ToolContext ctx{state, *state.doc, camera.zoom(), sim};
  if (tool && was_hovering && !hover_ && !dragging_) tool->on_leave(ctx);

  // Zoom at the cursor.
  if (in.over_canvas && in.wheel != 0) camera.zoom_at(mouse, std::pow(1.2, double(in.wheel)));

  // Pan: right or middle drag that started on the canvas, or space + left drag. The map
  // follows the pointer from where the button went down.
  // A right press that comes up without the pointer moving more than a few pixels is a
  // click (a unit order), not a pan.
  if (!panning_ && !dragging_ && !right_drag_ && in.over_canvas &&
      (in.pressed[1] || in.pressed[2] || (in.space && in.pressed[0]))) {
    const bool right = in.pressed[1] && !in.pressed[0] && !in.pressed[2] && !in.space;
    if (right && !in.down[1]) {
      // Pressed and released within this frame.
      if (tool) tool->on_right_click(ctx, make_event(camera, in, mouse, 1));
      return;
    }
    if (right && tool) {
      const PointerEvent press = make_event(camera, in, mouse, 1);
      if (tool->takes_right_drag(ctx, press)) {
        right_drag_ = true;
        right_moved_ = false;
        right_from_ = press;
        press_mouse_ = mouse;
        return;
      }
    }
    panning_ = true;
    last_mouse_ = mouse;
    right_click_ = right;
    press_mouse_ = mouse;
    return;
  }
  if (right_drag_) {
    // The tool's right drag: the map stays put; every position past the slop, then the
    // release (a release within the slop is a click).
    if (!tool) {
      right_drag_ = false;
      return;
    }
    if (in.mouse_valid) {
      for (const Vec2& p : in.moves) {
        if (!right_moved_ && glm::length(p - press_mouse_) <= kClickSlopPixels) continue;
        right_moved_ = true;
        tool->on_right_drag(ctx, right_from_, make_event(camera, in, p, 1), false);
      }
      if (!right_moved_ && glm::length(mouse - press_mouse_) > kClickSlopPixels) right_moved_ = true;
    }
    if (!in.down[1]) {
      right_drag_ = false;
      if (right_moved_) {
        tool->on_right_drag(ctx, right_from_, make_event(camera, in, mouse, 1), true);
      } else {
        tool->on_right_click(ctx, right_from_);
      }
    }
    return;
  }
  if (panning_) {
    if (in.mouse_valid) {
      camera.pan_pixels(mouse - last_mouse_);
      last_mouse_ = mouse;
      for (const Vec2& p : in.moves) {
        if (glm::length(p - press_mouse_) > kClickSlopPixels) right_click_ = false;
      }
      if (glm::length(mouse - press_mouse_) > kClickSlopPixels) right_click_ = false;
    }
    if (!in.down[0] && !in.down[1] && !in.down[2]) {
      panning_ = false;
      if (right_click_ && tool) {
        // The pan moved the map by at most the slop: undo it, so the click lands where pressed.
        camera.pan_pixels(press_mouse_ - mouse);
        tool->on_right_click(ctx, make_event(camera, in, press_mouse_, 1));
      }
      right_click_ = false;
    }
    return;
  }

  if (tool) {
    if (!dragging_ && in.over_canvas && in.pressed[0]) {
      dragging_ = true;
      tool->on_press(ctx, make_event(camera, in, mouse, 0));
      if (in.double_clicked) tool->on_key(ctx, ToolKey::Enter);
    } else if (dragging_) {
      // Every position the pointer passed, then the release where it happened.
      for (const Vec2& p : in.moves) {
        if (p == last_mouse_) continue;
        tool->on_drag(ctx, make_event(camera, in, p, 0));
        last_mouse_ = p;
      }
      if (in.released[0] || !in.down[0]) {
        dragging_ = false;
        tool->on_release(ctx, make_event(camera, in, mouse, 0));
        state.doc->end_merge();
      }
    } else if (in.over_canvas && mouse != last_mouse_) {
      tool->on_hover(ctx, make_event(camera, in, mouse, 0));
    }
    if (in.enter) tool->on_key(ctx, ToolKey::Enter);
    if (in.escape) tool->on_key(ctx, ToolKey::Escape);
    if (in.del) tool->on_key(ctx, ToolKey::Delete);
  } else {
    dragging_ = false;
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
