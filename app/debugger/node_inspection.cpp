// NodeInspector: node lookup and descriptions from the world's grid, raster and regions
// and the session's replay.

#include "app/debugger/node_inspection.hpp"

#include <cstdint>
#include <cstdio>

namespace pathscope::app {
namespace {

template <typename... Args>
std::string format(const char* fmt, Args... args) {
  char buf[160];
  std::snprintf(buf, sizeof buf, fmt, args...);
  return buf;
}

std::string step_text(std::uint64_t step) {
  return step == kNeverStep ? std::string("-") : std::to_string(step);
}

}  // namespace

std::optional<NodeId> NodeInspector::node_at(Vec2 world, double tolerance) const {
  if (!world_) return std::nullopt;
  if (const Planner* planner = session_.planner()) {
    // The planner's own answer from the shapes it declares (any family).
    const NodeId node = planner->node_at(world, tolerance);
    if (node == kNoNode) return std::nullopt;
    return node;
  }
  // Before any trace: the cells of the active class's grid.
  if (const auto cell = world_->grid(session_.movement_class()).cell_at(world)) return NodeId(*cell);
  return std::nullopt;
}

std::optional<NodeGeometry> NodeInspector::node_geometry(NodeId node) const {
  if (!world_) return std::nullopt;
  if (const Planner* planner = session_.planner()) {
    if (node >= planner->node_count()) return std::nullopt;
    return planner->node_geometry(node);
  }
  const CostGrid& grid = world_->grid(session_.movement_class());
  if (node >= grid.cell_count()) return std::nullopt;
  const Vec2 c = grid.center(node);
  const double h = grid.cell_size() * 0.5;
  return NodeGeometry{NodeShape::Box, c, Box2{c - Vec2{h, h}, c + Vec2{h, h}}, {}};
}

std::optional<Vec2> NodeInspector::node_position(NodeId node) const {
  const std::optional<NodeGeometry> g = node_geometry(node);
  if (!g) return std::nullopt;
  return g->position;
}

std::string NodeInspector::node_label(NodeId node) const {
  if (node == kNoNode) return "-";
  const std::optional<NodeLattice>& lattice = session_.lattice();
  const bool cells = lattice.has_value() || (world_ && session_.planner() == nullptr);
  const int width = lattice ? lattice->width : world_ ? world_->grid(session_.movement_class()).width() : 0;
  if (cells && width > 0) {
    return "cell (" + std::to_string(node % unsigned(width)) + ", " + std::to_string(node / unsigned(width)) +
           ")";
  }
  const std::optional<NodeGeometry> g = node_geometry(node);
  if (!g) return "node " + std::to_string(node);
  switch (g->shape) {
    case NodeShape::Point: return "point " + std::to_string(node);
    case NodeShape::Box: return "cell " + std::to_string(node);
    case NodeShape::Polygon: return "polygon " + std::to_string(node);
  }
  return "node " + std::to_string(node);
}

std::string NodeInspector::describe(NodeId node) const {
  const std::optional<NodeGeometry> geometry = node_geometry(node);
  if (!geometry) return "no such node";
  const Vec2* pos = &geometry->position;
  const std::size_t movement_class = session_.movement_class();
  const CostGrid& grid = world_->grid(movement_class);
  const Scenario& s = world_->scenario();
  std::string out = node_label(node) + format(", world (%.2f, %.2f) m", pos->x, pos->y);
  if (geometry->shape != NodeShape::Point && !session_.lattice() && session_.planner() != nullptr) {
    const Vec2 size = geometry->bounds.size();
    out += format("\n%.2f x %.2f m", size.x, size.y);
    if (geometry->shape == NodeShape::Polygon)
      out += ", " + std::to_string(geometry->polygon.size()) + " vertices";
  }
  if (const auto cell = grid.cell_at(*pos)) {
    const TerrainRaster& raster = world_->raster();
    const std::size_t t = raster.terrain(*cell);
    out += "\nterrain " + (t < s.terrains.size() ? s.terrains[t].name : std::string("?"));
    if (raster.bridge(*cell)) out += " (bridge deck)";
    if (raster.road_factor(*cell) > 1.0f) {
      out += format(" (road, costs / %.2f)", double(raster.road_factor(*cell)));
    }
    const std::string& class_name = s.classes[movement_class].name;
    out += grid.passable(*cell) ? format("\ncost x%.3g", grid.multiplier(*cell)) + " for " + class_name
                                : "\nimpassable for " + class_name;
    const std::uint32_t region = world_->regions(movement_class).region(*cell);
    out += region == RegionMap::kBlocked ? std::string(", no region") : ", region " + std::to_string(region);
  }
  const TraceReplay* replay = session_.replay();
  if (!replay) return out;
  const bool two_sided = session_.two_sided();
  for (std::uint8_t side = 0; side < (two_sided ? 2 : 1); ++side) {
    out += '\n';
    if (two_sided) out += side == 0 ? "forward: " : "backward: ";
    const TraceNode* n = replay->find(side, node);
    if (!n) {
      out += "not reached at step " + std::to_string(replay->step());
      continue;
    }
    out += format("g %.3f, h %.3f, f %.3f", n->g, n->h, n->f());
    out += "\n  parent " + node_label(n->parent);
    out += ", opened at step " + step_text(n->opened_at);
    out += n->closed()   ? ", closed at step " + step_text(n->closed_at)
           : n->pruned() ? ", pruned at step " + step_text(n->pruned_at)
                         : std::string(", open");
  }
  return out;
}

}  // namespace pathscope::app
