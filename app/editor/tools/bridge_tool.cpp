// The bridge tool: drag from one end of a bridge to the other. Width and whether it is
// intact come from PaintSettings.

#include "app/editor/tools/drag_tool.hpp"
#include "app/editor/tools/tool_factories.hpp"
#include "app/editor/tools/tool_support.hpp"
#include "app/editor/tools/tool_widgets.hpp"

#include "render/map/scene_painter.hpp"

#include <imgui.h>

#include <glm/geometric.hpp>

#include <algorithm>

namespace pathscope::app::tools {
namespace {

class BridgeTool final : public DragTool {
 public:
  BridgeTool() : DragTool(End::Clamped) {}

  void options_ui(ToolContext& ctx) override {
    PaintSettings& paint = ctx.state.paint;
    const double min_width = 0.01, max_width = 1000;
    ImGui::DragScalar(fit_field("Width (m)").c_str(), ImGuiDataType_Double, &paint.bridge_width, 0.1f,
                      &min_width, &max_width, "%.2f");
    paint.bridge_width = std::clamp(paint.bridge_width, min_width, max_width);
    item_tooltip("Deck width of new bridges, metres");
    ImGui::Checkbox("Intact", &paint.bridge_intact);
    item_tooltip(
        "An intact bridge is passable ground; a destroyed one is drawn dashed red and blocks nothing");
    hint("Drag from one end to the other.");
  }

 private:
  void commit(ToolContext& ctx, Vec2 from, Vec2 to) override {
    if (from == to) return;  // a click without a drag makes no bridge
    const PaintSettings& paint = ctx.state.paint;
    const Bridge bridge{fresh_id(ctx.doc.scenario().bridges), from, to, paint.bridge_width,
                        paint.bridge_intact};
    const Status status =
        ctx.doc.apply("Add bridge", [&](Scenario& edit) { edit.bridges.push_back(bridge); });
    if (accept_or_report(ctx.state, "Add bridge", status)) {
      ctx.state.selection = Selection{Selection::Kind::Bridge, bridge.id, -1};
    }
  }

  void preview(const ToolContext& ctx, Vec2 from, Vec2 to, render::DrawList& out) const override {
    const Color deck =
        ctx.state.paint.bridge_intact ? render::palette::kBridge : render::palette::kBridgeDestroyed;
    out.line(render::Layer::Markers, deck, from, to, 2, ctx.state.paint.bridge_width);
    out.line(render::Layer::Markers, kDraftColor, from, to, 1);
    out.text(render::Layer::Labels, kDraftColor, to + Vec2{ctx.pick_radius(), 0},
             format_metres(glm::distance(from, to)));
  }
};

}  // namespace

std::unique_ptr<Tool> make_bridge_tool() { return std::make_unique<BridgeTool>(); }

}  // namespace pathscope::app::tools
