#pragma once

// The map canvas: the area behind the panels where the scene is drawn. Turns ImGui's
// mouse and keyboard state into camera moves (pan: right or middle drag, or space +
// left drag; zoom at the cursor: wheel) and tool events (left button), and draws the
// optional cell grid lines.

#include <optional>

#include "app/editor/tool.hpp"
#include "render/core/camera.hpp"
#include "render/core/draw_list.hpp"

namespace pathscope::app {

/// Per-frame canvas input handling; holds only the state of a drag in progress.
class Canvas {
 public:
  /// Reads ImGui's input for this frame: pans and zooms `state.camera`, routes left-button
  /// events and Enter/Escape/Delete to `tool` (may be null). Call inside an ImGui frame.
  void handle_input(EditorState& state, Tool* tool);

  /// World point under the mouse, if the mouse is over the canvas (not a panel).
  std::optional<Vec2> hover_world() const { return hover_; }
  /// True while a left-button drag that started on the canvas is in progress.
  bool dragging() const { return dragging_; }

  /// Grid lines every cell when cells are at least 6 pixels wide (else every 8, 64 cells),
  /// limited to the visible part of the world.
  static void paint_grid_lines(const Scenario& scenario, const render::Camera& camera, render::DrawList& out);

 private:
  bool dragging_ = false;
  bool panning_ = false;
  std::optional<Vec2> hover_;
  Vec2 last_mouse_{0, 0};
};

}  // namespace pathscope::app
