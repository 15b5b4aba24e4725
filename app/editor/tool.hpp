#pragma once

// The editing tools: one interface (press, drag, release, hover, keys, a preview drawn
// into the draw list, an options panel) and one registry. Tools change the scenario only
// through Document edits, so every change is undoable.

#include <functional>
#include <memory>
#include <span>
#include <string>

#include "app/editor/editor_state.hpp"
#include "render/core/draw_list.hpp"

namespace pathscope::app {

/// A mouse event on the canvas.
struct PointerEvent {
  Vec2 world{0, 0};   ///< World position, metres.
  Vec2 screen{0, 0};  ///< Screen position, pixels.
  int button = 0;     ///< 0 left, 1 right, 2 middle.
  bool shift = false;
  bool ctrl = false;
  bool alt = false;
};

/// Keys a tool may handle.
enum class ToolKey { Enter, Escape, Delete };

class SimPlayer;

/// What a tool works on.
struct ToolContext {
  EditorState& state;
  Document& doc;
  /// Pixels per metre of the view, for pick tolerances given in pixels.
  double zoom = 1;
  /// The window's unit simulation (not owned); null where there is none (tests).
  SimPlayer* sim = nullptr;
  /// World distance that counts as "on" a point or edge (a few pixels).
  double pick_radius() const { return 6.0 / zoom; }
};

/// One editing tool. Handlers are called only for events on the canvas.
class Tool {
 public:
  virtual ~Tool() = default;
  virtual void on_press(ToolContext&, const PointerEvent&) {}
  virtual void on_drag(ToolContext&, const PointerEvent&) {}
  virtual void on_release(ToolContext&, const PointerEvent&) {}
  virtual void on_hover(ToolContext&, const PointerEvent&) {}
  /// A right click: pressed and released without dragging (a right drag pans instead,
  /// unless the tool takes it: takes_right_drag).
  virtual void on_right_click(ToolContext&, const PointerEvent&) {}
  /// Asked at a right press on the canvas: true when a right drag from `press` is the
  /// tool's (the units tool's facing drag for a platoon order) instead of a pan.
  virtual bool takes_right_drag(const ToolContext&, const PointerEvent& /*press*/) const { return false; }
  /// The right drag the tool took, from where the button went down to `to`: called for
  /// every position past the click slop, then once with `done` at the release. A release
  /// within the slop is an on_right_click instead.
  virtual void on_right_drag(ToolContext&, const PointerEvent& /*from*/, const PointerEvent& /*to*/,
                             bool /*done*/) {}
  /// The pointer left the canvas (over a panel or out of the window) with no drag on:
  /// drop what only shows where the pointer is (the brush outline, a hover highlight).
  virtual void on_leave(ToolContext&) {}
  /// Returns true when the key was used.
  virtual bool on_key(ToolContext&, ToolKey) { return false; }
  /// Called when another tool becomes active (drop half-drawn shapes).
  virtual void on_deactivate(ToolContext&) {}
  /// Draws what the tool is doing (a polygon in progress, the brush outline, ...).
  virtual void draw_preview(const ToolContext&, render::DrawList&) const {}
  /// ImGui widgets for the tool's settings (inside an open window).
  virtual void options_ui(ToolContext&) {}
};

/// One registered tool.
struct ToolInfo {
  std::string name;     ///< Registry name, e.g. "polygon".
  std::string label;    ///< Toolbar label.
  char shortcut = 0;    ///< Lowercase letter key that selects it, 0 = none.
  std::string tooltip;  ///< One line, with the shortcut.
  std::function<std::unique_ptr<Tool>()> create;
};

/// Every tool, in toolbar order.
std::span<const ToolInfo> tool_registry();

/// The tool named `name`, or nullptr.
const ToolInfo* find_tool(std::string_view name);

}  // namespace pathscope::app
