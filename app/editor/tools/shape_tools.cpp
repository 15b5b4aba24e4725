#include "app/editor/tools/shape_tools.hpp"

#include "app/editor/tools/tool_support.hpp"

#include <glm/common.hpp>
#include <glm/geometric.hpp>

namespace pathscope::app::tools {

bool PointDraft::add(Vec2 p) {
  if (!points_.empty() && points_.back() == p) return false;
  points_.push_back(p);
  pointer_ = p;
  return true;
}

bool PointDraft::near_first(Vec2 p, double radius) const {
  return !points_.empty() && glm::length(p - points_.front()) <= radius;
}

bool PointDraft::near_last(Vec2 p, double radius) const {
  return !points_.empty() && glm::length(p - points_.back()) <= radius;
}

void PointDraft::draw(render::DrawList& out, bool closed, double handle_radius) const {
  using render::Layer;
  if (points_.empty()) return;
  if (closed && points_.size() >= 3) {
    std::vector<Vec2> ring = points_;
    ring.push_back(pointer_);
    out.polyline(Layer::Markers, kDraftColor, ring, true, 2);
  } else {
    std::vector<Vec2> line = points_;
    line.push_back(pointer_);
    out.polyline(Layer::Markers, kDraftColor, line, false, 2);
  }
  for (std::size_t i = 0; i < points_.size(); ++i) {
    // The first point is larger: clicking it closes the polygon.
    const float px = i == 0 && closed ? 6.0f : 4.0f;
    out.circle(Layer::Markers, kDraftColor, points_[i], handle_radius, true, 1, px);
  }
}

double DragGesture::length() const { return glm::length(to - from); }

bool add_feature(ToolContext& ctx, Shape shape, std::size_t terrain, const std::string& label) {
  const std::uint32_t id = fresh_id(ctx.doc.scenario().features);
  const Status status = ctx.doc.apply(label, [&](Scenario& s) {
    Feature f;
    f.id = id;
    f.terrain = terrain;
    f.shape = std::move(shape);
    s.features.push_back(std::move(f));
  });
  if (!accept_or_report(ctx.state, label, status)) return false;
  ctx.state.selection = Selection{Selection::Kind::Feature, id, -1};
  return true;
}

Shape polygon_shape(std::vector<Vec2> points) {
  Shape shape;
  shape.kind = ShapeKind::Polygon;
  shape.points = std::move(points);
  return shape;
}

Shape rect_shape(Vec2 a, Vec2 b) {
  Shape shape;
  shape.kind = ShapeKind::Rect;
  shape.min = glm::min(a, b);
  shape.max = glm::max(a, b);
  return shape;
}

Shape circle_shape(Vec2 center, double radius) {
  Shape shape;
  shape.kind = ShapeKind::Circle;
  shape.center = center;
  shape.radius = radius;
  return shape;
}

}  // namespace pathscope::app::tools
