#include "app/editor/tools/polygon_tool.hpp"

#include "app/editor/tools/tool_factories.hpp"
#include "app/editor/tools/tool_support.hpp"
#include "app/editor/tools/tool_widgets.hpp"

#include <imgui.h>

#include <utility>

namespace pathscope::app::tools {

void PolygonTool::on_press(ToolContext& ctx, const PointerEvent& e) {
  if (e.button != 0) return;
  const Vec2 p = clamp_to_world(ctx.doc.scenario().world, e.world);
  const double r = ctx.pick_radius();
  // Clicking the first point closes; so does clicking the last one again (a double-click).
  if (draft_.size() >= 3 && (draft_.near_first(p, r) || draft_.near_last(p, r))) {
    close(ctx);
    return;
  }
  if (!draft_.near_last(p, r)) draft_.add(p);
}

void PolygonTool::on_hover(ToolContext& ctx, const PointerEvent& e) {
  draft_.set_pointer(clamp_to_world(ctx.doc.scenario().world, e.world));
}

bool PolygonTool::on_key(ToolContext& ctx, ToolKey key) {
  if (draft_.empty()) return false;
  switch (key) {
    case ToolKey::Enter:
      if (draft_.size() < 3) {
        ctx.state.report_warning(params_.label + ": a polygon needs at least 3 points (" +
                                 std::to_string(draft_.size()) + " so far)");
      } else {
        close(ctx);
      }
      return true;
    case ToolKey::Escape: draft_.clear(); return true;
    case ToolKey::Delete: draft_.pop(); return true;
  }
  return false;
}

bool PolygonTool::close(ToolContext& ctx) {
  const std::size_t terrain = ctx.state.paint.*params_.terrain;
  if (!add_shape(ctx, polygon_shape(draft_.points()), terrain)) return false;
  draft_.clear();
  return true;
}

bool PolygonTool::add_shape(ToolContext& ctx, Shape shape, std::size_t terrain) {
  return add_feature(ctx, std::move(shape), terrain, params_.label);
}

void PolygonTool::draw_preview(const ToolContext& ctx, render::DrawList& out) const {
  draft_.draw(out, true, ctx.pick_radius() * 0.2);
}

void PolygonTool::options_ui(ToolContext& ctx) {
  terrain_combo("Terrain", ctx.doc.scenario(), ctx.state.paint.*params_.terrain, params_.terrain_tooltip);
  hint("Click vertices; click the first one, double-click or press Enter to close.");
  hint("Delete removes the last vertex, Escape cancels.");
  if (!draft_.empty()) ImGui::Text("%zu vertices so far", draft_.size());
}

std::unique_ptr<Tool> make_polygon_tool() { return std::make_unique<PolygonTool>(); }

}  // namespace pathscope::app::tools
