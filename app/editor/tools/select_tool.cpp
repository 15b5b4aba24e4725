// The select tool: click picks an item (handles of the current selection first), a drag
// moves it, a vertex, a rect corner, a bridge end or a circle's rim. Every drag applies
// edits with one merge key, so the planner re-plans live and the whole drag is one undo
// step. Shift+click on an edge of the selected polygon or road inserts a vertex there
// and drags it (still one step). Delete removes the selected vertex or item.

#include "app/editor/tools/tool_factories.hpp"

#include "app/editor/tools/item_edit.hpp"
#include "app/editor/tools/picking.hpp"
#include "app/editor/tools/selection_overlay.hpp"
#include "app/editor/tools/tool_support.hpp"
#include "app/editor/tools/tool_widgets.hpp"

#include <imgui.h>

#include <glm/geometric.hpp>

#include <optional>

namespace pathscope::app::tools {
namespace {

using Kind = Selection::Kind;
constexpr std::uint64_t kDragKey = merge_key("select.drag");

bool has_vertices(const Scenario& s, const Selection& sel) {
  if (sel.kind == Kind::Road) return true;
  if (sel.kind != Kind::Feature) return false;
  const Feature* f = find_by_id(s.features, sel.id);
  return f && f->shape.kind == ShapeKind::Polygon;
}

class SelectTool final : public Tool {
 public:
  void on_press(ToolContext& ctx, const PointerEvent& e) override {
    if (e.button != 0) return;
    ctx.doc.end_merge();
    drag_.reset();
    const Scenario& s = ctx.doc.scenario();
    std::optional<Pick> hit = pick(s, ctx.state.selection, e.world, ctx.pick_radius());
    if (!hit) {
      ctx.state.selection = {};
      return;
    }
    Selection target = hit->target;
    if (hit->handle == Handle::Edge) {
      if (e.shift) {
        const Vec2 at = clamp_to_world(s.world, hit->at);
        if (!accept_or_report(ctx.state, "Insert vertex",
                              insert_vertex(ctx.doc, target, hit->index, at, kDragKey))) {
          return;
        }
        hit->handle = Handle::Vertex;
        hit->index += 1;
      } else {
        hit->handle = Handle::Body;  // dragging an edge moves the whole item
      }
    }
    if (hit->handle == Handle::Vertex && has_vertices(ctx.doc.scenario(), target)) target.vertex = hit->index;
    ctx.state.selection = target;
    if (target.kind == Kind::QueryStart || target.kind == Kind::QueryGoal) ctx.state.active_query = target.id;
    const Scenario& now = ctx.doc.scenario();
    drag_ = Drag{*hit, e.world, item_points(now, hit->target), item_radius(now, hit->target), false};
  }

  void on_drag(ToolContext& ctx, const PointerEvent& e) override {
    if (!drag_) return;
    const Scenario& s = ctx.doc.scenario();
    const Selection item{drag_->pick.target.kind, drag_->pick.target.id, -1};
    const Vec2 delta = e.world - drag_->press;
    std::vector<Vec2> points = drag_->points;
    std::optional<double> radius;
    switch (drag_->pick.handle) {
      case Handle::Body:
      case Handle::Edge: {
        const Vec2 d = clamp_move(points, delta, s.world);
        for (Vec2& p : points) p += d;
        break;
      }
      case Handle::Vertex: {
        Vec2& p = points[std::size_t(drag_->pick.index)];
        p = clamp_to_world(s.world, p + delta);
        break;
      }
      case Handle::Corner: {
        // points = {min, max}; the corner opposite the dragged one stays put.
        const Vec2 lo = points[0], hi = points[1];
        const Vec2 corners[4] = {lo, {hi.x, lo.y}, hi, {lo.x, hi.y}};
        const int c = drag_->pick.index;
        points = {corners[(c + 2) % 4], clamp_to_world(s.world, corners[c] + delta)};
        break;
      }
      case Handle::Rim:
        if (drag_->radius) radius = glm::length(e.world - points[0]);
        break;
    }
    const Status status = ctx.doc.apply(
        "Move " + describe(item),
        [&](Scenario& edit) {
          if (radius) {
            set_item_radius(edit, item, *radius);
          } else {
            set_item_points(edit, item, points);
          }
        },
        kDragKey);
    // Report the first refusal of a drag only: dragging a vertex across an edge is
    // refused at every step until the polygon is simple again.
    if (!status && !drag_->reported) {
      drag_->reported = true;
      accept_or_report(ctx.state, "Move", status);
    }
  }

  void on_release(ToolContext& ctx, const PointerEvent&) override {
    drag_.reset();
    ctx.doc.end_merge();
  }

  void on_hover(ToolContext& ctx, const PointerEvent& e) override {
    hover_ = pick(ctx.doc.scenario(), ctx.state.selection, e.world, ctx.pick_radius());
  }

  bool on_key(ToolContext& ctx, ToolKey key) override {
    Selection& sel = ctx.state.selection;
    if (key == ToolKey::Escape && !sel.empty()) {
      sel = {};
      return true;
    }
    if (key != ToolKey::Delete || sel.empty()) return false;
    drag_.reset();
    ctx.doc.end_merge();
    if (accept_or_report(ctx.state, "Delete", delete_selection(ctx.doc, sel))) {
      if (sel.vertex >= 0) {
        sel.vertex = -1;
      } else {
        sel = {};
      }
    }
    return true;
  }

  void on_leave(ToolContext&) override { hover_.reset(); }

  void on_deactivate(ToolContext& ctx) override {
    drag_.reset();
    hover_.reset();
    ctx.doc.end_merge();
  }

  void draw_preview(const ToolContext& ctx, render::DrawList& out) const override {
    const Scenario& s = ctx.doc.scenario();
    if (hover_ && !drag_ &&
        hover_->target != Selection{ctx.state.selection.kind, ctx.state.selection.id, -1}) {
      draw_outline(s, hover_->target, kHoverColor, 1, out);
    }
    draw_selection(s, ctx.state.selection, ctx.pick_radius(), out);
    if (hover_ && !drag_ && hover_->handle == Handle::Edge) {
      out.circle(render::Layer::Markers, kHoverColor, hover_->at, ctx.pick_radius() * 0.2, true, 1, 3);
    }
  }

  void options_ui(ToolContext& ctx) override {
    const Selection& sel = ctx.state.selection;
    ImGui::TextWrapped("%s", sel.empty() ? "Nothing selected" : ("Selected: " + describe(sel)).c_str());
    ImGui::BeginDisabled(sel.empty());
    if (ImGui::Button(sel.vertex >= 0 ? "Delete vertex" : "Delete")) on_key(ctx, ToolKey::Delete);
    item_tooltip_text("Removes the selected vertex, or the whole item (Delete key)");
    ImGui::EndDisabled();
    hint("Drag to move; drag vertices, corners, rims, bridge ends.");
    hint("Shift+click an edge to add a vertex.");
  }

 private:
  static void item_tooltip_text(const char* text) {
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("%s", text);
  }

  struct Drag {
    Pick pick;
    Vec2 press{0, 0};              // world position of the press
    std::vector<Vec2> points;      // the item's control points at the press
    std::optional<double> radius;  // its radius at the press, if it has one
    bool reported = false;         // a refusal of this drag was reported
  };
  std::optional<Drag> drag_;
  std::optional<Pick> hover_;
};

}  // namespace

std::unique_ptr<Tool> make_select_tool() { return std::make_unique<SelectTool>(); }

}  // namespace pathscope::app::tools
