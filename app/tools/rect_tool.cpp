// The rect tool: drag from one corner of an obstacle rectangle to the opposite one.

#include "app/tools/shape_tools.hpp"
#include "app/tools/tool_factories.hpp"
#include "app/tools/tool_support.hpp"
#include "app/tools/tool_widgets.hpp"

#include <imgui.h>

namespace pathscope::app::tools {
namespace {

class RectTool final : public Tool {
 public:
  void on_press(ToolContext& ctx, const PointerEvent& e) override {
    if (e.button == 0) drag_.begin(clamp_to_world(ctx.doc.scenario().world, e.world));
  }

  void on_drag(ToolContext& ctx, const PointerEvent& e) override {
    if (drag_.active) drag_.to = clamp_to_world(ctx.doc.scenario().world, e.world);
  }

  void on_release(ToolContext& ctx, const PointerEvent& e) override {
    if (!drag_.active) return;
    on_drag(ctx, e);
    drag_.active = false;
    // A click without a drag makes no rectangle.
    if (drag_.from.x == drag_.to.x || drag_.from.y == drag_.to.y) return;
    add_feature(ctx, rect_shape(drag_.from, drag_.to), ctx.state.paint.obstacle_terrain, "Add obstacle rect");
  }

  bool on_key(ToolContext&, ToolKey key) override {
    if (key != ToolKey::Escape || !drag_.active) return false;
    drag_.active = false;
    return true;
  }

  void on_deactivate(ToolContext&) override { drag_.active = false; }

  void draw_preview(const ToolContext&, render::DrawList& out) const override {
    if (!drag_.active) return;
    out.rect(render::Layer::Markers, kDraftFill, drag_.from, drag_.to, true);
    out.rect(render::Layer::Markers, kDraftColor, drag_.from, drag_.to, false, 2);
  }

  void options_ui(ToolContext& ctx) override {
    terrain_combo("Terrain", ctx.doc.scenario(), ctx.state.paint.obstacle_terrain,
                  "Terrain of new obstacles (usually an impassable one)");
    ImGui::TextDisabled("Drag from one corner to the opposite one.");
  }

 private:
  DragGesture drag_;
};

}  // namespace

std::unique_ptr<Tool> make_rect_tool() { return std::make_unique<RectTool>(); }

}  // namespace pathscope::app::tools
