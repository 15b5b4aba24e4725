// Structure painting: one StructureVisitor that turns cells, edges and shapes into
// primitives on the layers of their roles and reports itself full at the primitive
// limit, so planners stop walking.

#include "render/search/structure_painter.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "render/core/color_ramp.hpp"

namespace pathscope::render {
namespace {

double length(Vec2 v) { return std::sqrt(v.x * v.x + v.y * v.y); }

// A filled arrow head with its tip at `tip`, pointing along `dir` (any length), `size`
// metres long.
void arrow_head(DrawList& out, Layer layer, Color color, Vec2 tip, Vec2 dir, double size) {
  const double n = length(dir);
  if (!(n > 0) || !(size > 0)) return;
  const Vec2 u = dir / n, side{-u.y, u.x};
  const Vec2 base = tip - u * size;
  out.polygon(layer, color, {tip, base + side * (size * 0.45), base - side * (size * 0.45)});
}

// A link from a to b with an arrow head: at its end, or at its middle when `mid`.
void arrow(DrawList& out, Layer layer, Color color, Vec2 a, Vec2 b, double head_metres, bool mid,
           float thickness) {
  out.line(layer, color, a, b, thickness);
  const double len = length(b - a);
  const double head = std::min(head_metres, 0.4 * len);
  arrow_head(out, layer, color, mid ? (a + b) * 0.5 + (b - a) * (head * 0.5 / std::max(len, 1e-12)) : b,
             b - a, head);
}

class Painter final : public StructureVisitor {
 public:
  // `path`: the path's structure (every role but Structure, no view culling); otherwise
  // the planner's own structure (role Structure only, inside the view).
  Painter(const LayerSet& layers, DrawList& out, const StructurePaintParams& params, bool path)
      : layers_(layers), out_(out), params_(params), path_(path) {
    const Vec2 size = params.view.size();
    // Arrow heads about a hundredth of the view across.
    arrow_metres_ = params.view.empty() ? 0.5 : std::max(size.x, size.y) / 100.0;
  }

  void cell(const StructureCell& c) override {
    if (!wanted(c.role) || full()) return;
    const Layer layer = role_layer(c.role, Layer::PlannerCells);
    if (!layers_.contains(layer) || (!path_ && !c.box.overlaps(params_.view))) return;
    const bool own = c.role == StructureRole::Structure;
    const Color fill = own ? colour(c.value) : structure_palette::kCorridorFill;
    const Color outline = own ? structure_palette::kCellOutline : structure_palette::kCorridorOutline;
    const float thickness = own ? 1.0f : 2.0f;
    if (c.shape == NodeShape::Polygon && c.polygon.size() >= 3) {
      std::vector<Vec2> points(c.polygon.begin(), c.polygon.end());
      out_.polygon(layer, fill, points);
      out_.polyline(layer, outline, std::move(points), true, thickness);
    } else {
      out_.rect(layer, fill, c.box.lo, c.box.hi, true);
      out_.rect(layer, outline, c.box.lo, c.box.hi, false, thickness);
    }
    ++stats.cells;
  }

  void edge(const StructureEdge& e) override {
    if (path_ || !layers_.contains(Layer::PlannerEdges) || full() ||
        !Box2::spanning(e.a, e.b).overlaps(params_.view)) {
      return;
    }
    if (e.directed) {
      // One way: its own colour and an arrow head halfway, where it crosses into `to`.
      arrow(out_, Layer::PlannerEdges, structure_palette::kEdgeDirected, e.a, e.b, arrow_metres_, true, 1);
    } else {
      out_.line(Layer::PlannerEdges, structure_palette::kEdge, e.a, e.b, 1);
    }
    ++stats.edges;
  }

  void shape(const StructureShape& s) override {
    if (!wanted(s.role) || full()) return;
    if (paint_structure_shape(s, layers_, out_, arrow_metres_)) ++stats.shapes;
  }

  bool full() const override {
    const bool at_limit = stats.cells + stats.edges + stats.shapes >= params_.max_primitives;
    if (at_limit) stats.truncated = true;
    return at_limit;
  }

  mutable StructurePaintStats stats;

 private:
  // The planner's own structure (its cells and their finer division), or the path's.
  bool wanted(StructureRole role) const {
    return (role == StructureRole::Structure || role == StructureRole::Detail) != path_;
  }

  Color colour(double value) const {
    if (!std::isfinite(value)) return structure_palette::kCellBlocked;
    const double span = params_.value_high - params_.value_low;
    const double t = span > 0 ? (value - params_.value_low) / span : 0.0;
    return mix(structure_palette::kCellLow, structure_palette::kCellHigh, t < 0 ? 0.0 : t > 1 ? 1.0 : t);
  }

  const LayerSet& layers_;
  DrawList& out_;
  const StructurePaintParams& params_;
  bool path_;
  double arrow_metres_ = 0.5;
};

// Outline (or point, link) colour and thickness of a shape of `role`; `value` in [0, 1]
// blends towards the role's second colour.
Color shape_colour(StructureRole role, double value) {
  switch (role) {
    case StructureRole::Structure:
    case StructureRole::Corridor: return structure_palette::kShape;
    case StructureRole::Portal: return structure_palette::kPortal;
    case StructureRole::Graph: return mix(structure_palette::kGraph, structure_palette::kGraphAlt, value);
    case StructureRole::Region: return mix(structure_palette::kRegion, structure_palette::kRegionAlt, value);
    case StructureRole::Detail: return structure_palette::kDetail;
  }
  return structure_palette::kShape;
}

}  // namespace

Layer role_layer(StructureRole role, Layer own) {
  switch (role) {
    case StructureRole::Structure: return own;
    case StructureRole::Corridor: return Layer::PlannerCorridor;
    case StructureRole::Portal: return Layer::PlannerPortals;
    case StructureRole::Graph: return Layer::RefinementGraph;
    case StructureRole::Region: return Layer::RefinementRegion;
    case StructureRole::Detail: return Layer::PlannerDetail;
  }
  return own;
}

bool paint_structure_shape(const StructureShape& s, const LayerSet& layers, DrawList& out,
                           double arrow_metres) {
  const Layer layer = role_layer(s.role, Layer::PlannerAux);
  if (!layers.contains(layer) || s.points.empty()) return false;
  const Color color = shape_colour(s.role, s.value);
  const float thickness = s.role == StructureRole::Portal   ? 3.0f
                          : s.role == StructureRole::Detail ? 1.0f
                                                            : 2.0f;
  std::vector<Vec2> points(s.points.begin(), s.points.end());
  switch (s.kind) {
    case StructureShape::Kind::Polyline:
      out.polyline(layer, color, std::move(points), false, thickness);
      break;
    case StructureShape::Kind::Polygon:
      // Regions are filled (translucent) as well as outlined.
      if (s.role == StructureRole::Region) out.polygon(layer, structure_palette::kRegionFill, points);
      out.polyline(layer, color, std::move(points), true, thickness);
      break;
    case StructureShape::Kind::Points:
      for (const Vec2& p : points)
        out.circle(layer, color, p, 0, true, 1, s.role == StructureRole::Region ? 5.0f : 3.0f);
      break;
    case StructureShape::Kind::Circle: out.circle(layer, color, points[0], s.radius, false, 2); break;
    case StructureShape::Kind::Links:
      for (std::size_t i = 0; i + 1 < points.size(); i += 2) {
        arrow(out, layer, with_alpha(color, 150), points[i], points[i + 1], arrow_metres, false, 1);
      }
      break;
  }
  return true;
}

StructurePaintStats paint_structure(const Planner& planner, const LayerSet& layers, DrawList& out,
                                    const StructurePaintParams& params) {
  if (!layers.contains(Layer::PlannerCells) && !layers.contains(Layer::PlannerDetail) &&
      !layers.contains(Layer::PlannerEdges) && !layers.contains(Layer::PlannerAux)) {
    return {};
  }
  Painter painter(layers, out, params, false);
  planner.visit_structure(params.view, painter);
  return painter.stats;
}

StructurePaintStats paint_path_structure(const Planner& planner, const LayerSet& layers, DrawList& out,
                                         const StructurePaintParams& params) {
  const bool any = layers.contains(Layer::PlannerCorridor) || layers.contains(Layer::PlannerPortals) ||
                   layers.contains(Layer::RefinementGraph) || layers.contains(Layer::RefinementRegion);
  if (!any) return {};
  Painter painter(layers, out, params, true);
  planner.visit_path_structure(painter);
  return painter.stats;
}

std::size_t paint_node_links(const Planner& planner, NodeId node, const LayerSet& layers, DrawList& out) {
  if (!layers.contains(Layer::PlannerEdges) || node == kNoNode || node >= planner.node_count()) return 0;
  // Collects the node's edges: by id, or for edges without ids, by an end at its position.
  class Links final : public StructureVisitor {
   public:
    Links(NodeId node, Vec2 at) : node_(node), at_(at) {}
    void edge(const StructureEdge& e) override {
      const bool by_id = e.from == node_ || e.to == node_;
      const bool by_point = e.from == kNoNode && e.to == kNoNode && (e.a == at_ || e.b == at_);
      if (!by_id && !by_point) return;
      // Each link once, drawn away from the node.
      const Vec2 far = e.a == at_ || e.from == node_ ? e.b : e.a;
      for (const Vec2& seen : ends) {
        if (seen == far) return;
      }
      ends.push_back(far);
    }
    std::vector<Vec2> ends;

   private:
    NodeId node_;
    Vec2 at_;
  };
  const NodeGeometry g = planner.node_geometry(node);
  Links links(node, g.position);
  planner.visit_structure(g.bounds.expanded(1e-6), links);
  for (const Vec2& far : links.ends)
    out.line(Layer::PlannerEdges, structure_palette::kPicked, g.position, far, 2.5f);
  const Vec2 size = g.bounds.size();
  const double ring = std::max({size.x, size.y, 1e-3}) * 0.5 + 0.5;
  out.circle(Layer::PlannerEdges, structure_palette::kPicked, g.position, ring, false, 2.5f);
  return links.ends.size();
}

}  // namespace pathscope::render
