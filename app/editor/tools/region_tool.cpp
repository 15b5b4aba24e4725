// The region tool: terrain regions (nebulae, swamps) as polygons drawn like obstacle
// polygons, or as circles with Shift+drag (press the centre, drag the radius). Regions
// go beneath the walls they meet unless the user turns 'Keep walls' off, and any wall
// cells a region still replaces are said (see add_region).

#include "app/editor/tools/polygon_tool.hpp"
#include "app/editor/tools/tool_factories.hpp"
#include "app/editor/tools/tool_support.hpp"
#include "app/editor/tools/tool_widgets.hpp"

#include <imgui.h>

#include <utility>

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
      add_region(ctx, Shape::circle(circle_.from, circle_.length()), ctx.state.paint.region_terrain,
                 ctx.state.paint.region_keeps_walls, "Add circular region");
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
    ImGui::Checkbox("Keep walls", &ctx.state.paint.region_keeps_walls);
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip(
          "On: a new region goes beneath the wall shapes it meets, so they stay walls.\n"
          "Off: it paints over them. Walls of the tile grid lie under every region either way.");
    hint("Shift+drag: a circular region (centre, then radius).");
  }

 protected:
  bool add_shape(ToolContext& ctx, Shape shape, std::size_t terrain) override {
    return add_region(ctx, std::move(shape), terrain, ctx.state.paint.region_keeps_walls, params_.label);
  }

 private:
  DragGesture circle_;
};

}  // namespace

std::unique_ptr<Tool> make_region_tool() { return std::make_unique<RegionTool>(); }

}  // namespace pathscope::app::tools
