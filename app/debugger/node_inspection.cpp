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

std::optional<NodeId> NodeInspector::node_at(Vec2 world) const {
  if (!world_) return std::nullopt;
  const CostGrid& grid = world_->grid(session_.movement_class());
  if (session_.grid_nodes()) {
    if (const auto cell = grid.cell_at(world)) return NodeId(*cell);
    return std::nullopt;
  }
  // Other graphs: the nearest node the search touched, within one cell.
  const TraceReplay* replay = session_.replay();
  if (!replay) return std::nullopt;
  std::optional<NodeId> best;
  double best_d2 = grid.cell_size() * grid.cell_size();
  for (const TraceNode& n : replay->nodes()) {
    const Vec2 d = session_.planner()->node_position(n.node) - world;
    const double d2 = d.x * d.x + d.y * d.y;
    if (d2 <= best_d2) {
      best_d2 = d2;
      best = n.node;
    }
  }
  return best;
}

std::optional<Vec2> NodeInspector::node_position(NodeId node) const {
  if (!world_) return std::nullopt;
  if (const Planner* planner = session_.planner()) {
    if (node >= planner->node_count()) return std::nullopt;
    return planner->node_position(node);
  }
  const CostGrid& grid = world_->grid(session_.movement_class());
  if (node >= grid.cell_count()) return std::nullopt;
  return grid.center(node);
}

std::string NodeInspector::node_label(NodeId node) const {
  if (node == kNoNode) return "-";
  if (world_ && session_.grid_nodes()) {
    const CostGrid& grid = world_->grid(session_.movement_class());
    if (node < grid.cell_count()) {
      const glm::ivec2 c = grid.cell(node);
      return "cell (" + std::to_string(c.x) + ", " + std::to_string(c.y) + ")";
    }
  }
  return "node " + std::to_string(node);
}

std::string NodeInspector::describe(NodeId node) const {
  const std::optional<Vec2> pos = node_position(node);
  if (!pos) return "no such node";
  const std::size_t movement_class = session_.movement_class();
  const CostGrid& grid = world_->grid(movement_class);
  const Scenario& s = world_->scenario();
  std::string out = node_label(node) + format(", world (%.2f, %.2f) m", pos->x, pos->y);
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
    out += n->closed() ? ", closed at step " + step_text(n->closed_at) : std::string(", open");
  }
  return out;
}

}  // namespace pathscope::app
