#pragma once

// The press-drag-release tools (rects, circles, threats and allies, bridges, queries):
// press the left button at one point, drag to another, release to add one item as one
// Document edit. A preview is drawn while dragging; Escape or switching tools cancels.

#include "app/editor/tool.hpp"
#include "app/editor/tools/shape_tools.hpp"
#include "render/core/draw_list.hpp"

namespace pathscope::app::tools {

/// Base of the tools that add one item per left-button drag; subclasses say only what
/// the drag adds and how it looks while dragging. Points are world metres.
class DragTool : public Tool {
 public:
  /// Where the dragged end may go; the pressed point is always clamped to the world.
  enum class End {
    Clamped,  ///< Onto the world rectangle, like the pressed point (corners, endpoints).
    Free,     ///< Anywhere, e.g. a radius may reach past the world's edge.
  };

  void on_press(ToolContext& ctx, const PointerEvent& e) final;
  void on_drag(ToolContext& ctx, const PointerEvent& e) final;
  void on_release(ToolContext& ctx, const PointerEvent& e) final;
  bool on_key(ToolContext& ctx, ToolKey key) final;
  void on_deactivate(ToolContext& ctx) final;
  void draw_preview(const ToolContext& ctx, render::DrawList& out) const final;

 protected:
  explicit DragTool(End end) : end_(end) {}

  /// Called once on release with the pressed point `from` and the released one `to`
  /// (equal for a click); adds the item through ctx.doc, or nothing.
  virtual void commit(ToolContext& ctx, Vec2 from, Vec2 to) = 0;
  /// Draws the item `from` -> `to` would add; called only while dragging.
  virtual void preview(const ToolContext& ctx, Vec2 from, Vec2 to, render::DrawList& out) const = 0;

 private:
  End end_;
  DragGesture drag_;
};

}  // namespace pathscope::app::tools
