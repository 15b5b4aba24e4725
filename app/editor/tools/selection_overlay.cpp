#include "app/editor/tools/selection_overlay.hpp"

#include "app/editor/tools/item_edit.hpp"
#include "app/editor/tools/tool_support.hpp"

namespace pathscope::app::tools {
namespace {

using Kind = Selection::Kind;
using render::Layer;

void handle(render::DrawList& out, Vec2 p, double radius, float px, Color color) {
  out.circle(Layer::Markers, color, p, radius, true, 1, px);
  out.circle(Layer::Markers, {20, 20, 20, 255}, p, radius, false, 1, px);
}

}  // namespace

void draw_outline(const Scenario& s, const Selection& sel, Color color, float thickness_px,
                  render::DrawList& out) {
  const Selection whole{sel.kind, sel.id, -1};
  if (!selection_exists(s, whole)) return;
  const std::vector<Vec2> points = item_points(s, whole);
  switch (sel.kind) {
    case Kind::Feature: {
      const Shape& shape = find_by_id(s.features, sel.id)->shape;
      if (shape.kind == ShapeKind::Polygon)
        out.polyline(Layer::Markers, color, shape.points, true, thickness_px);
      if (shape.kind == ShapeKind::Rect)
        out.rect(Layer::Markers, color, shape.min, shape.max, false, thickness_px);
      if (shape.kind == ShapeKind::Circle) {
        out.circle(Layer::Markers, color, shape.center, shape.radius, false, thickness_px);
      }
      break;
    }
    case Kind::Threat:
    case Kind::Ally:
      out.circle(Layer::Markers, color, points[0], item_radius(s, whole).value_or(1), false, thickness_px);
      break;
    case Kind::Road: out.polyline(Layer::Markers, color, points, false, thickness_px); break;
    case Kind::Bridge: out.line(Layer::Markers, color, points[0], points[1], thickness_px); break;
    case Kind::Unit: {
      const Unit& u = *find_by_id(s.units, sel.id);
      const double r = u.movement_class < s.classes.size() ? s.classes[u.movement_class].radius : 0.5;
      out.circle(Layer::Markers, color, u.position, r * 1.4, false, thickness_px, 7);
      break;
    }
    case Kind::QueryStart:
    case Kind::QueryGoal:
      out.circle(Layer::Markers, color, points[0], s.world.cell_size * 0.9, false, thickness_px, 10);
      break;
    case Kind::None: break;
  }
}

void draw_selection(const Scenario& s, const Selection& sel, double handle_radius, render::DrawList& out) {
  const Selection whole{sel.kind, sel.id, -1};
  if (!selection_exists(s, whole)) return;
  draw_outline(s, sel, kSelectedColor, 2, out);
  const std::vector<Vec2> points = item_points(s, whole);
  const double r = handle_radius * 0.2;  // the pixel minimum decides the size on screen
  if (sel.kind == Kind::Feature) {
    const Shape& shape = find_by_id(s.features, sel.id)->shape;
    if (shape.kind == ShapeKind::Rect) {
      for (Vec2 c : {shape.min, Vec2{shape.max.x, shape.min.y}, shape.max, Vec2{shape.min.x, shape.max.y}}) {
        handle(out, c, r, 4, kSelectedColor);
      }
      return;
    }
    if (shape.kind == ShapeKind::Circle) {
      handle(out, shape.center + Vec2{shape.radius, 0}, r, 4, kSelectedColor);
      return;
    }
  }
  if (sel.kind == Kind::Feature || sel.kind == Kind::Road || sel.kind == Kind::Bridge) {
    for (std::size_t i = 0; i < points.size(); ++i) {
      const bool chosen = int(i) == sel.vertex;
      handle(out, points[i], r, chosen ? 6.0f : 4.0f, chosen ? Color{255, 255, 255, 255} : kSelectedColor);
    }
  }
  if (sel.kind == Kind::Threat || sel.kind == Kind::Ally) {
    handle(out, points[0] + Vec2{item_radius(s, whole).value_or(1), 0}, r, 4, kSelectedColor);
  }
}

}  // namespace pathscope::app::tools
