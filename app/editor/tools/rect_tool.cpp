// The rect tool: drag from one corner of an obstacle rectangle to the opposite one.

#include "app/editor/tools/drag_tool.hpp"
#include "app/editor/tools/shape_tools.hpp"
#include "app/editor/tools/tool_factories.hpp"
#include "app/editor/tools/tool_support.hpp"
#include "app/editor/tools/tool_widgets.hpp"

#include <imgui.h>

namespace pathscope::app::tools {
namespace {

class RectTool final : public DragTool {
 public:
  RectTool() : DragTool(End::Clamped) {}

  void options_ui(ToolContext& ctx) override {
    terrain_combo("Terrain", ctx.doc.scenario(), ctx.state.paint.obstacle_terrain,
                  "Terrain of new obstacles (usually an impassable one)");
    hint("Drag from one corner to the opposite one.");
  }

 private:
  void commit(ToolContext& ctx, Vec2 from, Vec2 to) override {
    // A click without a drag makes no rectangle.
    if (from.x == to.x || from.y == to.y) return;
    add_feature(ctx, Shape::rect(from, to), ctx.state.paint.obstacle_terrain, "Add obstacle rect");
  }

  void preview(const ToolContext&, Vec2 from, Vec2 to, render::DrawList& out) const override {
    out.rect(render::Layer::Markers, kDraftFill, from, to, true);
    out.rect(render::Layer::Markers, kDraftColor, from, to, false, 2);
  }
};

}  // namespace

std::unique_ptr<Tool> make_rect_tool() { return std::make_unique<RectTool>(); }

}  // namespace pathscope::app::tools
