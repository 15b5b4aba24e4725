// Structure painting: one StructureVisitor that turns cells, edges and shapes into
// primitives and reports itself full at the primitive limit, so planners stop walking.

#include "render/search/structure_painter.hpp"

#include <cmath>
#include <vector>

#include "render/core/color_ramp.hpp"

namespace pathscope::render {
namespace {

class Painter final : public StructureVisitor {
 public:
  Painter(const LayerSet& layers, DrawList& out, const StructurePaintParams& params)
      : cells_(layers.contains(Layer::PlannerCells)),
        edges_(layers.contains(Layer::PlannerEdges)),
        shapes_(layers.contains(Layer::PlannerAux)),
        out_(out),
        params_(params) {}

  void cell(const StructureCell& c) override {
    if (!cells_ || full() || !c.box.overlaps(params_.view)) return;
    const Color fill = colour(c.value);
    if (c.shape == NodeShape::Polygon && c.polygon.size() >= 3) {
      std::vector<Vec2> points(c.polygon.begin(), c.polygon.end());
      out_.polygon(Layer::PlannerCells, fill, points);
      out_.polyline(Layer::PlannerCells, structure_palette::kCellOutline, std::move(points), true, 1);
    } else {
      out_.rect(Layer::PlannerCells, fill, c.box.lo, c.box.hi, true);
      out_.rect(Layer::PlannerCells, structure_palette::kCellOutline, c.box.lo, c.box.hi, false, 1);
    }
    ++stats.cells;
  }

  void edge(const StructureEdge& e) override {
    if (!edges_ || full() || !Box2::spanning(e.a, e.b).overlaps(params_.view)) return;
    if (e.directed) {
      // A directed edge is drawn to three quarters of its length, so its direction shows.
      out_.line(Layer::PlannerEdges, structure_palette::kEdgeDirected, e.a, e.a + (e.b - e.a) * 0.75, 1);
    } else {
      out_.line(Layer::PlannerEdges, structure_palette::kEdge, e.a, e.b, 1);
    }
    ++stats.edges;
  }

  void shape(const StructureShape& s) override {
    if (!shapes_ || full() || s.points.empty()) return;
    std::vector<Vec2> points(s.points.begin(), s.points.end());
    switch (s.kind) {
      case StructureShape::Kind::Polyline: out_.polyline(Layer::PlannerAux, structure_palette::kShape, std::move(points), false, 2); break;
      case StructureShape::Kind::Polygon: out_.polyline(Layer::PlannerAux, structure_palette::kShape, std::move(points), true, 2); break;
      case StructureShape::Kind::Points:
        for (const Vec2& p : points) out_.circle(Layer::PlannerAux, structure_palette::kShape, p, 0, true, 1, 3);
        break;
      case StructureShape::Kind::Circle: out_.circle(Layer::PlannerAux, structure_palette::kShape, points[0], s.radius, false, 2); break;
    }
    ++stats.shapes;
  }

  bool full() const override {
    const bool at_limit = stats.cells + stats.edges + stats.shapes >= params_.max_primitives;
    if (at_limit) stats.truncated = true;
    return at_limit;
  }

  mutable StructurePaintStats stats;

 private:
  Color colour(double value) const {
    if (!std::isfinite(value)) return structure_palette::kCellBlocked;
    const double span = params_.value_high - params_.value_low;
    const double t = span > 0 ? (value - params_.value_low) / span : 0.0;
    return mix(structure_palette::kCellLow, structure_palette::kCellHigh, t < 0 ? 0.0 : t > 1 ? 1.0 : t);
  }

  bool cells_, edges_, shapes_;
  DrawList& out_;
  const StructurePaintParams& params_;
};

}  // namespace

StructurePaintStats paint_structure(const Planner& planner, const LayerSet& layers, DrawList& out,
                                    const StructurePaintParams& params) {
  if (!layers.contains(Layer::PlannerCells) && !layers.contains(Layer::PlannerEdges) &&
      !layers.contains(Layer::PlannerAux)) {
    return {};
  }
  Painter painter(layers, out, params);
  planner.visit_structure(params.view, painter);
  return painter.stats;
}

}  // namespace pathscope::render
