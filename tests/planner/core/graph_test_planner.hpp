#pragma once

// A test-only planner over a small explicit graph: a dozen nodes at arbitrary positions,
// some of them polygons (rooms), some points (doorways), linked by undirected edges.
// It implements the whole Planner interface the way a real family would (steppable A*,
// traced with Push, Relax, Expand, Prune, Refine and Path events, node geometry, a
// structure view, a result dependency), so tests can prove that the debugger, the
// replay and the painters need nothing grid-specific. Registered in test_registry().

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "planner/core/open_list.hpp"
#include "planner/core/planner_registry.hpp"
#include "planner/core/search.hpp"
#include "planner/world/planning_world.hpp"

namespace pathscope::test {

/// One node of the test graph: a point, or a polygon with its centroid as position.
struct GraphNode {
  Vec2 position{0, 0};
  std::vector<Vec2> polygon;  ///< Empty: a point node.
};

/// The graph: nodes and undirected edges (cost = Euclidean length).
struct TestGraph {
  std::vector<GraphNode> nodes;
  std::vector<std::pair<NodeId, NodeId>> edges;
};

/// Twelve nodes over a 40 x 30 m world: six rooms (quads and a hexagon) joined through
/// six doorway points, with a dead end (node 11) and a detour, so searches relax,
/// prune and choose.
inline TestGraph make_test_graph() {
  const auto quad = [](double x0, double y0, double x1, double y1) {
    return std::vector<Vec2>{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
  };
  TestGraph g;
  g.nodes = {
      {{4, 4}, quad(1, 1, 7, 7)},                                                // 0 room A (start side)
      {{10, 4}, {}},                                                             // 1 door A-B
      {{16, 5}, quad(13, 1, 19, 9)},                                             // 2 room B
      {{16, 12}, {}},                                                            // 3 door B-C
      {{16, 18}, {{13, 15}, {19, 15}, {21, 18}, {19, 21}, {13, 21}, {11, 18}}},  // 4 room C (hexagon)
      {{25, 18}, {}},                                                            // 5 door C-D
      {{32, 18}, quad(29, 14, 35, 22)},                                          // 6 room D
      {{32, 25}, {}},                                                            // 7 door D-E
      {{32, 28}, quad(29, 26, 38, 29.5)},                                        // 8 room E (goal side)
      {{4, 12}, {}},                                                             // 9 door A-F
      {{4, 22}, quad(1, 16, 8, 28)},                                             // 10 room F
      {{10, 27}, {}},                                                            // 11 dead-end alcove
  };
  g.edges = {{0, 1}, {1, 2}, {2, 3},  {3, 4},  {4, 5},   {5, 6}, {6, 7},
             {7, 8}, {0, 9}, {9, 10}, {10, 4}, {10, 11}, {2, 5}};
  return g;
}

/// A* over a TestGraph. Node ids are indices into the graph's nodes.
class GraphTestPlanner final : public Planner {
 public:
  explicit GraphTestPlanner(TestGraph graph) : graph_(std::move(graph)) {
    adjacency_.resize(graph_.nodes.size());
    for (const auto& [a, b] : graph_.edges) {
      adjacency_[a].push_back(b);
      adjacency_[b].push_back(a);
    }
    for (auto& list : adjacency_) std::sort(list.begin(), list.end());
  }

  std::string_view name() const override { return "test_graph"; }

  SearchStatus start(const PathQuery& query) override {
    query_ = query;
    result_ = PathResult{};
    open_.clear();
    g_.assign(graph_.nodes.size(), kInf);
    parent_.assign(graph_.nodes.size(), kNoNode);
    closed_.assign(graph_.nodes.size(), false);
    if (observer_) observer_->on_start(query);
    start_ = node_at(query.start, 1.0);
    goal_ = node_at(query.goal, 1.0);
    if (start_ == kNoNode || goal_ == kNoNode) {
      result_.status = SearchStatus::Invalid;
      result_.message = start_ == kNoNode ? "the start is on no node" : "the goal is on no node";
      return result_.status;
    }
    g_[start_] = 0;
    push(start_, kNoNode, 0, false);
    result_.status = SearchStatus::Running;
    return result_.status;
  }

  SearchStatus step(std::uint64_t max_expansions) override {
    if (result_.status != SearchStatus::Running) return result_.status;
    ++result_.stats.steps;
    for (std::uint64_t done = 0; done < max_expansions;) {
      if (open_.empty()) {
        result_.status = SearchStatus::NoPath;
        return result_.status;
      }
      const OpenEntry top = open_.pop();
      const NodeId u = top.node;
      if (closed_[u]) continue;
      closed_[u] = true;
      ++done;
      ++result_.stats.expansions;
      if (observer_) observer_->on_event(SearchEvent{SearchEventKind::Expand, 0, u, parent_[u], g_[u], h(u)});
      if (u == goal_) {
        finish();
        return result_.status;
      }
      for (const NodeId v : adjacency_[u]) {
        if (closed_[v]) continue;
        // Dead ends (a single link) other than the goal are opened and at once culled:
        // the events a real planner emits for a dominated or culled node.
        if (adjacency_[v].size() == 1 && v != goal_) {
          if (observer_) {
            const double gv = g_[u] + distance(u, v);
            observer_->on_event(SearchEvent{SearchEventKind::Push, 0, v, u, gv, h(v)});
            observer_->on_event(SearchEvent{SearchEventKind::Prune, 0, v, u, gv, h(v)});
          }
          continue;
        }
        const double ng = g_[u] + distance(u, v);
        if (!(ng < g_[v])) continue;
        const bool fresh = g_[v] == kInf;
        g_[v] = ng;
        push(v, u, ng, !fresh);
      }
    }
    return result_.status;
  }

  const PathResult& result() const override { return result_; }
  std::size_t node_count() const override { return graph_.nodes.size(); }
  Vec2 node_position(NodeId node) const override { return graph_.nodes[node].position; }

  NodeGeometry node_geometry(NodeId node) const override {
    const GraphNode& n = graph_.nodes[node];
    if (n.polygon.empty()) return NodeGeometry{NodeShape::Point, n.position, Box2::of(n.position), {}};
    Box2 box;
    for (const Vec2& p : n.polygon) box = box.united(Box2::of(p));
    return NodeGeometry{NodeShape::Polygon, n.position, box, n.polygon};
  }

  void visit_nodes(const std::function<void(const NodeView&)>& fn) const override {
    for (NodeId n = 0; n < g_.size(); ++n) {
      if (g_[n] == kInf) continue;
      fn(NodeView{n, 0, g_[n], h(n), parent_[n], bool(closed_[n])});
    }
  }

  void visit_structure(const Box2& bounds, StructureVisitor& v) const override {
    for (NodeId n = 0; n < graph_.nodes.size() && !v.full(); ++n) {
      const NodeGeometry g = node_geometry(n);
      if (g.shape != NodeShape::Polygon || !g.bounds.overlaps(bounds)) continue;
      v.cell(StructureCell{NodeShape::Polygon, g.bounds, g.polygon, double(adjacency_[n].size()), n});
    }
    for (const auto& [a, b] : graph_.edges) {
      if (v.full()) return;
      v.edge(StructureEdge{a, b, graph_.nodes[a].position, graph_.nodes[b].position, "link", distance(a, b),
                           false});
    }
    if (!result_.points.empty()) {
      v.shape(StructureShape{StructureShape::Kind::Polyline, "corridor", result_.points, 0, 0});
    }
  }

  std::unique_ptr<ResultDependency> result_dependency() const override {
    // The answer holds while no change touches a node on the path.
    struct Dependency final : ResultDependency {
      std::vector<Box2> boxes;
      bool still_valid(const WorldChange& change) const override {
        for (const Box2& b : boxes) {
          if (b.overlaps(change.area)) return false;
        }
        return true;
      }
    };
    if (result_.status != SearchStatus::Found) return nullptr;
    auto d = std::make_unique<Dependency>();
    for (const NodeId n : result_.nodes) d->boxes.push_back(node_geometry(n).bounds);
    return d;
  }

  void set_observer(SearchObserver* observer) override { observer_ = observer; }

 private:
  static constexpr double kInf = std::numeric_limits<double>::infinity();

  double distance(NodeId a, NodeId b) const {
    const Vec2 d = graph_.nodes[a].position - graph_.nodes[b].position;
    return std::sqrt(d.x * d.x + d.y * d.y);
  }
  double h(NodeId n) const { return distance(n, goal_); }

  void push(NodeId v, NodeId parent, double g, bool relax) {
    parent_[v] = parent;
    const double hv = h(v);
    open_.push(OpenEntry{g + hv, float(hv), v});
    ++result_.stats.pushes;
    if (relax) ++result_.stats.relaxations;
    if (observer_)
      observer_->on_event(
          SearchEvent{relax ? SearchEventKind::Relax : SearchEventKind::Push, 0, v, parent, g, hv});
  }

  void finish() {
    std::vector<NodeId> nodes;
    for (NodeId n = goal_; n != kNoNode; n = parent_[n]) nodes.push_back(n);
    std::reverse(nodes.begin(), nodes.end());
    // Two refinement stages, as a smoothing planner would emit them: the node
    // positions, then the polyline with the doorway points only (rooms skipped).
    std::vector<Vec2> centres{query_.start};
    for (std::size_t i = 1; i + 1 < nodes.size(); ++i) centres.push_back(graph_.nodes[nodes[i]].position);
    centres.push_back(query_.goal);
    if (observer_) observer_->on_refine("node positions", centres);
    std::vector<Vec2> doors{query_.start};
    for (std::size_t i = 1; i + 1 < nodes.size(); ++i) {
      if (graph_.nodes[nodes[i]].polygon.empty()) doors.push_back(graph_.nodes[nodes[i]].position);
    }
    doors.push_back(query_.goal);
    if (observer_) observer_->on_refine("doorways only", doors);
    result_.nodes = nodes;
    result_.points = doors;
    result_.length = polyline_length(doors);
    result_.cost = g_[goal_];
    result_.status = SearchStatus::Found;
    if (observer_) {
      for (const NodeId n : nodes)
        observer_->on_event(SearchEvent{SearchEventKind::Path, 0, n, kNoNode, g_[n], 0.0});
    }
  }

  TestGraph graph_;
  std::vector<std::vector<NodeId>> adjacency_;
  std::vector<double> g_;
  std::vector<NodeId> parent_;
  std::vector<char> closed_;
  OpenList open_;
  PathQuery query_;
  NodeId start_ = kNoNode;
  NodeId goal_ = kNoNode;
  PathResult result_;
  SearchObserver* observer_ = nullptr;
};

/// The planners of the registry plus "test_graph" (family "test"), for tests that drive
/// the debugger and the CLI code through a registry holding a non-grid planner.
inline std::span<const PlannerInfo> test_registry() {
  static const std::vector<PlannerInfo> registry = [] {
    std::vector<PlannerInfo> r(planner_registry().begin(), planner_registry().end());
    r.push_back(PlannerInfo{
        "test_graph",
        "test",
        "A* over a dozen explicit nodes (tests only)",
        true,
        "metres between node positions",
        {},
        [](const QueryContext&) { return std::make_unique<GraphTestPlanner>(make_test_graph()); }});
    return r;
  }();
  return registry;
}

}  // namespace pathscope::test
