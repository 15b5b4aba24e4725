// The road tool: click the points of a road; Enter, or clicking the last point again (a
// double-click), ends it; Delete removes the last point; Escape cancels. Width and speed
// factor come from PaintSettings.

#include "app/editor/tools/shape_tools.hpp"
#include "app/editor/tools/tool_factories.hpp"
#include "app/editor/tools/tool_support.hpp"
#include "app/editor/tools/tool_widgets.hpp"

#include "render/map/scene_painter.hpp"

#include <imgui.h>

#include <algorithm>

namespace pathscope::app::tools {
namespace {

class RoadTool final : public Tool {
 public:
  void on_press(ToolContext& ctx, const PointerEvent& e) override {
    if (e.button != 0) return;
    const Vec2 p = clamp_to_world(ctx.doc.scenario().world, e.world);
    if (draft_.size() >= 2 && draft_.near_last(p, ctx.pick_radius())) {
      finish(ctx);
      return;
    }
    draft_.add(p);
  }

  void on_drag(ToolContext& ctx, const PointerEvent& e) override { on_hover(ctx, e); }

  void on_hover(ToolContext& ctx, const PointerEvent& e) override {
    draft_.set_pointer(clamp_to_world(ctx.doc.scenario().world, e.world));
  }

  bool on_key(ToolContext& ctx, ToolKey key) override {
    if (draft_.empty()) return false;
    switch (key) {
      case ToolKey::Enter:
        if (draft_.size() < 2) {
          ctx.state.report_warning("Add road: a road needs at least 2 points");
        } else {
          finish(ctx);
        }
        return true;
      case ToolKey::Escape: draft_.clear(); return true;
      case ToolKey::Delete: draft_.pop(); return true;
    }
    return false;
  }

  void on_deactivate(ToolContext&) override { draft_.clear(); }

  void draw_preview(const ToolContext& ctx, render::DrawList& out) const override {
    if (draft_.empty()) return;
    std::vector<Vec2> line = draft_.points();
    out.polyline(render::Layer::Markers, render::palette::kRoad, line, false, 2, ctx.state.paint.road_width);
    draft_.draw(out, false, ctx.pick_radius() * 0.2);
  }

  void options_ui(ToolContext& ctx) override {
    PaintSettings& paint = ctx.state.paint;
    const double min_width = 0.01, max_width = 1000, min_speed = 1, max_speed = 100;
    ImGui::DragScalar(fit_field("Width (m)").c_str(), ImGuiDataType_Double, &paint.road_width, 0.1f,
                      &min_width, &max_width, "%.2f");
    paint.road_width = std::clamp(paint.road_width, min_width, max_width);
    item_tooltip("Width of new roads, metres");
    ImGui::DragScalar(fit_field("Speed factor").c_str(), ImGuiDataType_Double, &paint.road_speed_factor,
                      0.05f, &min_speed, &max_speed, "%.2f");
    paint.road_speed_factor = std::clamp(paint.road_speed_factor, min_speed, max_speed);
    item_tooltip("Terrain costs on the road are divided by this (>= 1)");
    hint("Click points; Enter or a click on the last point ends.");
    hint("Delete removes the last point, Escape cancels.");
  }

 private:
  void finish(ToolContext& ctx) {
    const Scenario& s = ctx.doc.scenario();
    const Road road{fresh_id(s.roads), draft_.points(), ctx.state.paint.road_width,
                    ctx.state.paint.road_speed_factor};
    const Status status = ctx.doc.apply("Add road", [&](Scenario& edit) { edit.roads.push_back(road); });
    if (!accept_or_report(ctx.state, "Add road", status)) return;
    ctx.state.selection = Selection{Selection::Kind::Road, road.id, -1};
    draft_.clear();
  }

  PointDraft draft_;
};

}  // namespace

std::unique_ptr<Tool> make_road_tool() { return std::make_unique<RoadTool>(); }

}  // namespace pathscope::app::tools
