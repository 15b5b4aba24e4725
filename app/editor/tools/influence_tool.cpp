// The threat and ally tools: press the centre of a zone, drag out its radius. A click
// without a drag reuses the last radius. Strength comes from PaintSettings.

#include "app/editor/tools/drag_tool.hpp"
#include "app/editor/tools/tool_factories.hpp"
#include "app/editor/tools/tool_support.hpp"
#include "app/editor/tools/tool_widgets.hpp"

#include "render/map/scene_painter.hpp"

#include <imgui.h>

#include <glm/geometric.hpp>

#include <algorithm>
#include <optional>
#include <string>

namespace pathscope::app::tools {
namespace {

class InfluenceTool final : public DragTool {
 public:
  explicit InfluenceTool(bool threat) : DragTool(End::Free), threat_(threat) {}

  void options_ui(ToolContext& ctx) override {
    double& strength = ctx.state.paint.influence_strength;
    const double lo = 0, hi = 100;
    ImGui::DragScalar(fit_field("Strength").c_str(), ImGuiDataType_Double, &strength, 0.05f, &lo, &hi,
                      "%.2f");
    strength = std::clamp(strength, lo, hi);
    item_tooltip(threat_ ? "Weight of new threats: how strongly threat-aware planners avoid them (>= 0)"
                         : "Weight of new allies: how strongly threat-aware planners prefer them (>= 0)");
    hint("Press the centre, drag the radius.");
    hint("A click reuses the last radius (%s).",
         last_radius_ ? format_metres(*last_radius_).c_str() : "10% of the world");
  }

 private:
  void commit(ToolContext& ctx, Vec2 center, Vec2 rim) override {
    const Scenario& s = ctx.doc.scenario();
    const double radius = drag_radius(ctx, center, rim);
    last_radius_ = radius;
    const std::uint32_t id = fresh_id(threat_ ? s.threats : s.allies);
    const std::string label = threat_ ? "Add threat" : "Add ally";
    const Influence zone{id, center, radius, ctx.state.paint.influence_strength, ""};
    const Status status =
        ctx.doc.apply(label, [&](Scenario& edit) { (threat_ ? edit.threats : edit.allies).push_back(zone); });
    if (accept_or_report(ctx.state, label, status)) {
      ctx.state.selection = Selection{threat_ ? Selection::Kind::Threat : Selection::Kind::Ally, id, -1};
    }
  }

  void preview(const ToolContext& ctx, Vec2 center, Vec2 rim, render::DrawList& out) const override {
    const Color base = threat_ ? render::palette::kThreat : render::palette::kAlly;
    const double radius = drag_radius(ctx, center, rim);
    out.circle(render::Layer::Markers, Color{base.r, base.g, base.b, 50}, center, radius, true);
    out.circle(render::Layer::Markers, kDraftColor, center, radius, false, 2);
    out.text(render::Layer::Labels, kDraftColor, rim + Vec2{ctx.pick_radius(), 0},
             "r = " + format_metres(radius));
  }

  // The dragged radius, or the last one (first: a tenth of the world) for a click.
  double drag_radius(const ToolContext& ctx, Vec2 center, Vec2 rim) const {
    const double dragged = glm::distance(center, rim);
    if (dragged > ctx.pick_radius()) return dragged;
    const WorldInfo& w = ctx.doc.scenario().world;
    return last_radius_.value_or(std::max(std::min(w.width, w.height) * 0.1, w.cell_size));
  }

  bool threat_;
  std::optional<double> last_radius_;
};

}  // namespace

std::unique_ptr<Tool> make_threat_tool() { return std::make_unique<InfluenceTool>(true); }
std::unique_ptr<Tool> make_ally_tool() { return std::make_unique<InfluenceTool>(false); }

}  // namespace pathscope::app::tools
