// The circle tool: press the centre of an obstacle disc, drag out its radius.

#include "app/tools/shape_tools.hpp"
#include "app/tools/tool_factories.hpp"
#include "app/tools/tool_support.hpp"
#include "app/tools/tool_widgets.hpp"

#include <imgui.h>

namespace pathscope::app::tools {
namespace {

class CircleTool final : public Tool {
 public:
  void on_press(ToolContext& ctx, const PointerEvent& e) override {
    if (e.button == 0) drag_.begin(clamp_to_world(ctx.doc.scenario().world, e.world));
  }

  // The radius follows the pointer even past the world's edge: only the centre must be inside.
  void on_drag(ToolContext&, const PointerEvent& e) override {
    if (drag_.active) drag_.to = e.world;
  }

  void on_release(ToolContext& ctx, const PointerEvent& e) override {
    if (!drag_.active) return;
    on_drag(ctx, e);
    drag_.active = false;
    if (!(drag_.length() > 0)) return;  // a click without a drag makes no circle
    add_feature(ctx, circle_shape(drag_.from, drag_.length()), ctx.state.paint.obstacle_terrain,
                "Add obstacle circle");
  }

  bool on_key(ToolContext&, ToolKey key) override {
    if (key != ToolKey::Escape || !drag_.active) return false;
    drag_.active = false;
    return true;
  }

  void on_deactivate(ToolContext&) override { drag_.active = false; }

  void draw_preview(const ToolContext& ctx, render::DrawList& out) const override {
    if (!drag_.active) return;
    out.circle(render::Layer::Markers, kDraftFill, drag_.from, drag_.length(), true);
    out.circle(render::Layer::Markers, kDraftColor, drag_.from, drag_.length(), false, 2);
    out.line(render::Layer::Markers, kDraftColor, drag_.from, drag_.to, 1);
    out.text(render::Layer::Labels, kDraftColor, drag_.to + Vec2{ctx.pick_radius(), 0},
             "r = " + format_metres(drag_.length()));
  }

  void options_ui(ToolContext& ctx) override {
    terrain_combo("Terrain", ctx.doc.scenario(), ctx.state.paint.obstacle_terrain,
                  "Terrain of new obstacles (usually an impassable one)");
    ImGui::TextDisabled("Press the centre, drag the radius.");
  }

 private:
  DragGesture drag_;
};

}  // namespace

std::unique_ptr<Tool> make_circle_tool() { return std::make_unique<CircleTool>(); }

}  // namespace pathscope::app::tools
