#pragma once

// The map canvas: the area between the side columns where the scene is drawn. Turns
// the frame's pointer input into camera moves (pan: right or middle drag, or space +
// left drag; zoom at the cursor: wheel) and tool events (left button; a right click
// without a drag; a right drag the tool takes instead of a pan), and draws the optional
// cell grid lines.
//
// Input comes as a CanvasInput: every pointer position of the frame in order, from
// SDL's own events (PointerTracker), so a stroke visits each point the hand passed and
// a pan moves the map by exactly what the pointer moved after the press.

#include <array>
#include <optional>
#include <vector>

#include "app/editor/tool.hpp"
#include "render/core/camera.hpp"
#include "render/core/draw_list.hpp"

namespace pathscope::app {

class PointerTracker;

/// One frame of input, as the canvas needs it.
struct CanvasInput {
  std::vector<Vec2> moves;   ///< Pointer positions this frame, oldest first (screen pixels).
  Vec2 mouse{0, 0};          ///< Where the pointer is now.
  bool mouse_valid = false;  ///< The pointer is over the window (or a drag goes on).
  bool over_canvas = false;  ///< ... and over the canvas, not a panel.
  std::array<bool, 3> pressed{}, released{}, down{};  ///< left, right, middle
  bool double_clicked = false;                        ///< left button
  float wheel = 0;
  bool shift = false, ctrl = false, alt = false;
  bool space = false;                               ///< held, and no text field has the keyboard
  bool enter = false, escape = false, del = false;  ///< pressed, keyboard free, no Ctrl

  /// This frame's input from ImGui's state and the tracker's event positions; the pointer
  /// is over the canvas when ImGui does not want it and it lies inside `canvas_lo..hi`.
  /// Call inside an ImGui frame.
  static CanvasInput from_frame(const PointerTracker& pointer, Vec2 canvas_lo, Vec2 canvas_hi);
};

/// Per-frame canvas input handling; holds only the state of a drag in progress.
class Canvas {
 public:
  /// A right press and release within this many pixels is a click, not a pan.
  static constexpr double kClickSlopPixels = 4;

  /// Pans and zooms `state.camera`, routes left-button events, right clicks and
  /// Enter/Escape/Delete to `tool` (may be null); `sim` (may be null) is passed on to it.
  void handle_input(EditorState& state, Tool* tool, const CanvasInput& in, SimPlayer* sim = nullptr);

  /// World point under the mouse, if the mouse is over the canvas (not a panel).
  std::optional<Vec2> hover_world() const { return hover_; }
  /// True while a left-button drag that started on the canvas is in progress.
  bool dragging() const { return dragging_; }
  /// True while a pan drag is in progress.
  bool panning() const { return panning_; }

  /// Grid lines every cell when cells are at least 6 pixels wide (else every 8, 64 cells),
  /// limited to the visible part of the world.
  static void paint_grid_lines(const Scenario& scenario, const render::Camera& camera, render::DrawList& out);

 private:
  bool dragging_ = false;
  bool panning_ = false;
  bool right_click_ = false;  // the pan started with the right button and has not moved yet
  Vec2 press_mouse_{0, 0};    // where the pan's button went down
  bool right_drag_ = false;   // a right drag the tool took (Tool::takes_right_drag)
  bool right_moved_ = false;  // it went past the click slop
  PointerEvent right_from_;   // where it started
  std::optional<Vec2> hover_;
  Vec2 last_mouse_{0, 0};
};

}  // namespace pathscope::app
