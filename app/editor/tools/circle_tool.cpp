// The circle tool: press the centre of an obstacle disc, drag out its radius.

#include "app/editor/tools/drag_tool.hpp"
#include "app/editor/tools/shape_tools.hpp"
#include "app/editor/tools/tool_factories.hpp"
#include "app/editor/tools/tool_support.hpp"
#include "app/editor/tools/tool_widgets.hpp"

#include <imgui.h>

#include <glm/geometric.hpp>

namespace pathscope::app::tools {
namespace {

class CircleTool final : public DragTool {
 public:
  // The radius follows the pointer even past the world's edge: only the centre must be inside.
  CircleTool() : DragTool(End::Free) {}

  void options_ui(ToolContext& ctx) override {
    terrain_combo("Terrain", ctx.doc.scenario(), ctx.state.paint.obstacle_terrain,
                  "Terrain of new obstacles (usually an impassable one)");
    hint("Press the centre, drag the radius.");
  }

 private:
  void commit(ToolContext& ctx, Vec2 center, Vec2 rim) override {
    const double radius = glm::distance(center, rim);
    if (!(radius > 0)) return;  // a click without a drag makes no circle
    add_feature(ctx, Shape::circle(center, radius), ctx.state.paint.obstacle_terrain, "Add obstacle circle");
  }

  void preview(const ToolContext& ctx, Vec2 center, Vec2 rim, render::DrawList& out) const override {
    const double radius = glm::distance(center, rim);
    out.circle(render::Layer::Markers, kDraftFill, center, radius, true);
    out.circle(render::Layer::Markers, kDraftColor, center, radius, false, 2);
    out.line(render::Layer::Markers, kDraftColor, center, rim, 1);
    out.text(render::Layer::Labels, kDraftColor, rim + Vec2{ctx.pick_radius(), 0},
             "r = " + format_metres(radius));
  }
};

}  // namespace

std::unique_ptr<Tool> make_circle_tool() { return std::make_unique<CircleTool>(); }

}  // namespace pathscope::app::tools
