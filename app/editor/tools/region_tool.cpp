// The region tool: terrain regions (nebulae, swamps) as polygons drawn like obstacle
// polygons, or as circles with Shift+drag (press the centre, drag the radius).

#include "app/editor/tools/polygon_tool.hpp"
#include "app/editor/tools/tool_factories.hpp"
#include "app/editor/tools/tool_support.hpp"
#include "app/editor/tools/tool_widgets.hpp"

#include <imgui.h>

namespace pathscope::app::tools {
namespace {

class RegionTool final : public PolygonTool {
 public:
  RegionTool()
      : PolygonTool(Params{"Add region", &PaintSettings::region_terrain,
                           "Terrain of new regions (e.g. nebula, swamp)"}) {}

  void on_press(ToolContext& ctx, const PointerEvent& e) override {
    if (e.button == 0 && e.shift && draft_.empty()) {
      circle_.begin(clamp_to_world(ctx.doc.scenario().world, e.world));
      return;
    }
    PolygonTool::on_press(ctx, e);
  }

  void on_drag(ToolContext& ctx, const PointerEvent& e) override {
    if (circle_.active) {
      circle_.to = e.world;
      return;
    }
    PolygonTool::on_drag(ctx, e);
  }

  void on_release(ToolContext& ctx, const PointerEvent& e) override {
    if (!circle_.active) return;
    circle_.to = e.world;
    circle_.active = false;
    if (circle_.length() > 0) {
      add_feature(ctx, circle_shape(circle_.from, circle_.length()), ctx.state.paint.region_terrain,
                  "Add circular region");
    }
  }

  bool on_key(ToolContext& ctx, ToolKey key) override {
    if (circle_.active && key == ToolKey::Escape) {
      circle_.active = false;
      return true;
    }
    return PolygonTool::on_key(ctx, key);
  }

  void on_deactivate(ToolContext& ctx) override {
    circle_.active = false;
    PolygonTool::on_deactivate(ctx);
  }

  void draw_preview(const ToolContext& ctx, render::DrawList& out) const override {
    if (circle_.active) {
      out.circle(render::Layer::Markers, kDraftFill, circle_.from, circle_.length(), true);
      out.circle(render::Layer::Markers, kDraftColor, circle_.from, circle_.length(), false, 2);
      return;
    }
    PolygonTool::draw_preview(ctx, out);
  }

  void options_ui(ToolContext& ctx) override {
    PolygonTool::options_ui(ctx);
    hint("Shift+drag: a circular region (centre, then radius).");
  }

 private:
  DragGesture circle_;
};

}  // namespace

std::unique_ptr<Tool> make_region_tool() { return std::make_unique<RegionTool>(); }

}  // namespace pathscope::app::tools
