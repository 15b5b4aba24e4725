// paint_search: a planner's open and closed sets, its next node and the path. Nodes are
// read through Planner::visit_nodes, so every planner (grid, quadtree, visibility
// graph) is drawn by the same code; a node is a square of params.node_extent metres.

#include "render/scene_painter.hpp"

#include "render/color_ramp.hpp"

#include <algorithm>
#include <limits>
#include <tuple>
#include <vector>

namespace pathscope::render {
namespace {

// Closed nodes: dark to light by g (forward side blue, backward side violet).
constexpr Color kClosedLow{40, 70, 160, 150}, kClosedHigh{120, 200, 255, 150};
constexpr Color kClosedBackLow{90, 40, 130, 150}, kClosedBackHigh{230, 140, 255, 150};
// Open nodes: yellow to orange by f.
constexpr Color kOpenLow{255, 235, 90, 190}, kOpenHigh{255, 120, 30, 190};

struct Range {
  double lo = std::numeric_limits<double>::infinity();
  double hi = -std::numeric_limits<double>::infinity();
  void add(double v) {
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  double t(double v) const { return hi > lo ? (v - lo) / (hi - lo) : 0.0; }
};

void node_rect(Layer layer, Color color, Vec2 c, double extent, DrawList& out) {
  const Vec2 half{extent * 0.5, extent * 0.5};
  out.rect(layer, color, c - half, c + half, true);
}

// The open node a best-first search expands next: least f, then least h, then id.
const NodeView* next_to_expand(const std::vector<NodeView>& nodes) {
  const NodeView* best = nullptr;
  for (const NodeView& v : nodes) {
    if (v.closed) continue;
    if (!best || std::make_tuple(v.g + v.h, v.h, v.side, v.node) <
                     std::make_tuple(best->g + best->h, best->h, best->side, best->node)) {
      best = &v;
    }
  }
  return best;
}

// Parent chain of `from`, start first; stops at a missing parent or after a cycle's worth.
std::vector<Vec2> parent_chain(const Planner& planner, const std::vector<NodeView>& nodes,
                               const NodeView& from) {
  auto find = [&](std::uint8_t side, NodeId id) -> const NodeView* {
    const auto it = std::lower_bound(nodes.begin(), nodes.end(), std::make_pair(side, id),
                                     [](const NodeView& v, const std::pair<std::uint8_t, NodeId>& key) {
                                       return std::make_pair(v.side, v.node) < key;
                                     });
    return it != nodes.end() && it->side == side && it->node == id ? &*it : nullptr;
  };
  std::vector<Vec2> points;
  const NodeView* v = &from;
  while (v && points.size() <= nodes.size()) {
    points.push_back(planner.node_position(v->node));
    v = v->parent == kNoNode ? nullptr : find(v->side, v->parent);
  }
  std::reverse(points.begin(), points.end());
  return points;
}

}  // namespace

void paint_search(const Planner& planner, const PathResult& result, const LayerSet& layers, DrawList& out,
                  const SearchPaintParams& params) {
  const bool want_nodes = layers.contains(Layer::Closed) || layers.contains(Layer::Open) ||
                          layers.contains(Layer::Current) || layers.contains(Layer::PartialPath);
  std::vector<NodeView> nodes;
  if (want_nodes) {
    planner.visit_nodes([&](const NodeView& v) { nodes.push_back(v); });
    // visit_nodes promises (side, node) order; sort anyway so lookups never depend on it.
    std::sort(nodes.begin(), nodes.end(), [](const NodeView& a, const NodeView& b) {
      return std::make_pair(a.side, a.node) < std::make_pair(b.side, b.node);
    });
  }
  Range g_range, f_range;
  for (const NodeView& v : nodes) (v.closed ? g_range.add(v.g) : f_range.add(v.g + v.h));

  const double extent = params.node_extent > 0 ? params.node_extent : 1.0;
  for (const NodeView& v : nodes) {
    const Vec2 c = planner.node_position(v.node);
    if (v.closed && layers.contains(Layer::Closed)) {
      const double t = g_range.t(v.g);
      node_rect(Layer::Closed,
                v.side == 0 ? mix(kClosedLow, kClosedHigh, t) : mix(kClosedBackLow, kClosedBackHigh, t), c,
                extent, out);
    } else if (!v.closed && layers.contains(Layer::Open)) {
      node_rect(Layer::Open, mix(kOpenLow, kOpenHigh, f_range.t(v.g + v.h)), c, extent, out);
    }
  }

  if (result.status == SearchStatus::Running) {
    if (const NodeView* next = next_to_expand(nodes)) {
      if (layers.contains(Layer::PartialPath)) {
        out.polyline(Layer::PartialPath, palette::kPartialPath, parent_chain(planner, nodes, *next), false,
                     2);
      }
      if (layers.contains(Layer::Current)) {
        const Vec2 c = planner.node_position(next->node);
        const Vec2 half{extent * 0.5, extent * 0.5};
        out.rect(Layer::Current, palette::kCurrent, c - half, c + half, false, 2);
      }
    }
  }

  if (result.status == SearchStatus::Found && layers.contains(Layer::Path)) {
    out.polyline(Layer::Path, palette::kPath, result.points, false, 3);
  }
}

}  // namespace pathscope::render
