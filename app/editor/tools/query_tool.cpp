// The query tool: drag from the start to the goal of a new path query of the movement
// class in PaintSettings, planned with the default planner. The new query becomes the active one.
// (Existing markers are moved with the select tool.)

#include "app/editor/tools/drag_tool.hpp"
#include "app/editor/tools/item_edit.hpp"
#include "app/editor/tools/tool_factories.hpp"
#include "app/editor/tools/tool_support.hpp"
#include "app/editor/tools/tool_widgets.hpp"
#include "planner/core/default_planner.hpp"

#include "render/map/scene_painter.hpp"

#include <imgui.h>

namespace pathscope::app::tools {
namespace {

class QueryTool final : public DragTool {
 public:
  QueryTool() : DragTool(End::Clamped) {}

  void options_ui(ToolContext& ctx) override {
    class_combo("Movement class", ctx.doc.scenario(), ctx.state.paint.query_class,
                "Movement class of new queries (body radius, speed and terrain costs)");
    hint("Drag from the start to the goal.");
    hint("Move existing markers with the select tool (V).");
  }

 private:
  void commit(ToolContext& ctx, Vec2 from, Vec2 to) override {
    if (from == to) return;  // a click without a drag makes no query
    const Scenario& s = ctx.doc.scenario();
    Query query;
    query.name = "query " + std::to_string(query_number(s.queries.size()));
    query.start = from;
    query.goal = to;
    query.movement_class = index_or_zero(ctx.state.paint.query_class, s.classes.size());
    query.planner = kDefaultPlanner;
    const std::size_t index = s.queries.size();
    const Status status = ctx.doc.apply("Add query", [&](Scenario& edit) { edit.queries.push_back(query); });
    if (accept_or_report(ctx.state, "Add query", status)) {
      ctx.state.active_query = index;
      ctx.state.selection = Selection{Selection::Kind::QueryGoal, std::uint32_t(index), -1};
    }
  }

  void preview(const ToolContext& ctx, Vec2 from, Vec2 to, render::DrawList& out) const override {
    const double r = ctx.doc.scenario().world.cell_size * 0.6;
    out.line(render::Layer::Markers, kDraftColor, from, to, 1);
    out.circle(render::Layer::Markers, render::palette::kStart, from, r, true, 1, 7);
    out.circle(render::Layer::Markers, render::palette::kGoal, to, r, true, 1, 7);
  }
};

}  // namespace

std::unique_ptr<Tool> make_query_tool() { return std::make_unique<QueryTool>(); }

}  // namespace pathscope::app::tools
