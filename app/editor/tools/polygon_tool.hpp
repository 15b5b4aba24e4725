#pragma once

// The polygon tool: click vertices; click the first vertex, double-click the last one or
// press Enter to close; Delete removes the last vertex; Escape cancels. The closed
// polygon becomes a feature of the terrain a PaintSettings field names (obstacles and
// regions share this tool).

#include <cstddef>
#include <string>

#include "app/editor/tool.hpp"
#include "app/editor/tools/shape_tools.hpp"

namespace pathscope::app::tools {

/// Draws a polygon feature by clicks.
class PolygonTool : public Tool {
 public:
  /// What the polygon becomes.
  struct Params {
    std::string label = "Add obstacle polygon";                              ///< Undo label.
    std::size_t PaintSettings::*terrain = &PaintSettings::obstacle_terrain;  ///< Terrain setting.
    const char* terrain_tooltip = "Terrain of new obstacles (usually an impassable one)";
  };

  PolygonTool() = default;
  explicit PolygonTool(Params params) : params_(std::move(params)) {}

  void on_press(ToolContext& ctx, const PointerEvent& e) override;
  void on_drag(ToolContext& ctx, const PointerEvent& e) override { on_hover(ctx, e); }
  void on_hover(ToolContext& ctx, const PointerEvent& e) override;
  bool on_key(ToolContext& ctx, ToolKey key) override;
  void on_deactivate(ToolContext&) override { draft_.clear(); }
  void draw_preview(const ToolContext& ctx, render::DrawList& out) const override;
  void options_ui(ToolContext& ctx) override;

 protected:
  /// Adds the drafted polygon; on success the draft is cleared, on refusal it is kept
  /// (and the validator's message reported) so that the user can fix it.
  bool close(ToolContext& ctx);
  /// Adds the closed polygon as a feature of `terrain` (add_feature); true on success.
  virtual bool add_shape(ToolContext& ctx, Shape shape, std::size_t terrain);

  PointDraft draft_;
  Params params_;
};

}  // namespace pathscope::app::tools
