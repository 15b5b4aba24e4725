// The planner interface fits more than grids: a test-only planner over a dozen explicit
// nodes (polygons and points at arbitrary positions) is stepped, traced with prune and
// refinement events, scrubbed backwards, hit-tested, drawn by the trace and structure
// painters and asked about world changes through the same code as the grid planners.

#include <doctest/doctest.h>

#include <map>
#include <queue>

#include <glm/geometric.hpp>

#include "planner/core/search_trace.hpp"
#include "render/search/structure_painter.hpp"
#include "render/search/trace_painter.hpp"
#include "tests/planner/core/graph_test_planner.hpp"
#include "tests/test_maps.hpp"

using namespace pathscope;

namespace {

render::TracePaintParams at_zoom(double pixels_per_metre) {
  render::TracePaintParams p;
  p.trace_version = 1;
  p.pixels_per_metre = pixels_per_metre;
  return p;
}

// Query from room F (node 10) to room E (node 8): expanding F meets the dead-end
// alcove (node 11), which is pruned.
const PathQuery kQuery{{4, 22}, {33, 28}};

// Dijkstra over the explicit graph: the brute-force reference.
double reference_cost(const test::TestGraph& g, NodeId from, NodeId to) {
  std::vector<double> dist(g.nodes.size(), std::numeric_limits<double>::infinity());
  using Item = std::pair<double, NodeId>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> q;
  dist[from] = 0;
  q.push({0, from});
  while (!q.empty()) {
    const auto [d, u] = q.top();
    q.pop();
    if (d > dist[u]) continue;
    for (const auto& [a, b] : g.edges) {
      if (a != u && b != u) continue;
      const NodeId v = a == u ? b : a;
      const double w = glm::length(g.nodes[u].position - g.nodes[v].position);
      if (d + w < dist[v]) {
        dist[v] = d + w;
        q.push({dist[v], v});
      }
    }
  }
  return dist[to];
}

std::unique_ptr<Planner> make_planner() {
  static const PlanningWorld world(test::ascii_scenario({"...."}));
  const PlannerInfo* info = find_planner("test_graph", test::test_registry());
  REQUIRE(info != nullptr);
  CHECK(info->family == "test");
  return info->create(QueryContext{world, 0, std::nullopt, {}});
}

}  // namespace

TEST_SUITE("graph planner") {
  TEST_CASE("the explicit-graph planner finds the optimal path, stepped or at once") {
    auto planner = make_planner();
    const PathResult once = find_path(*planner, kQuery);
    REQUIRE(once.status == SearchStatus::Found);
    CHECK(once.nodes.front() == 10);
    CHECK(once.nodes.back() == 8);
    CHECK(once.cost == doctest::Approx(reference_cost(test::make_test_graph(), 10, 8)).epsilon(1e-12));

    auto stepped = make_planner();
    SearchStatus st = stepped->start(kQuery);
    std::uint64_t steps = 0;
    while (!is_finished(st)) {
      st = stepped->step(1);
      ++steps;
    }
    CHECK(stepped->result().nodes == once.nodes);
    CHECK(stepped->result().cost == once.cost);
    CHECK(steps == once.stats.expansions);
  }

  TEST_CASE("its trace replays at every step, forwards and backwards, refinements included") {
    auto planner = make_planner();
    SearchTrace trace;
    planner->set_observer(&trace);
    const PathResult full = find_path(*planner, kQuery);
    REQUIRE(full.status == SearchStatus::Found);
    REQUIRE(trace.refinements().size() == 2);
    CHECK(trace.step_count() == trace.expansion_count() + 2);

    // Live state after k expansions, for comparison.
    auto live = make_planner();
    live->start(kQuery);
    std::vector<std::map<NodeId, NodeView>> live_states;
    for (;;) {
      std::map<NodeId, NodeView> state;
      live->visit_nodes([&](const NodeView& v) { state[v.node] = v; });
      live_states.push_back(state);
      if (is_finished(live->step(1))) break;
    }

    TraceReplay replay(trace);
    const auto check_step = [&](std::uint64_t k) {
      replay.seek(k);
      CAPTURE(k);
      REQUIRE(replay.step() == k);
      if (k < live_states.size()) {
        std::size_t touched = 0;
        for (const TraceNode& n : replay.nodes()) {
          if (n.pruned()) continue;  // the live planner keeps no state for pruned nodes
          ++touched;
          const auto it = live_states[k].find(n.node);
          REQUIRE(it != live_states[k].end());
          CHECK(n.g == it->second.g);
          CHECK(n.parent == it->second.parent);
          CHECK(n.closed() == it->second.closed);
        }
        CHECK(touched == live_states[k].size());
      }
    };
    for (std::uint64_t k = 0; k <= trace.step_count(); ++k) check_step(k);
    for (std::uint64_t k = trace.step_count() + 1; k-- > 0;) check_step(k);

    // The refinements are the last two steps.
    replay.seek(trace.step_count() - 2);
    CHECK(replay.refinement() == nullptr);
    replay.seek(trace.step_count() - 1);
    REQUIRE(replay.refinement() != nullptr);
    CHECK(replay.refinement()->stage == "node positions");
    replay.seek(trace.step_count());
    REQUIRE(replay.refinement() != nullptr);
    CHECK(replay.refinement()->stage == "doorways only");
    CHECK(replay.refinement()->points == full.points);
    CHECK(replay.path() == full.nodes);
    replay.seek(1);
    CHECK(replay.refinement() == nullptr);
  }

  TEST_CASE("a pruned node leaves the open set at its step and comes back when scrubbing back") {
    auto planner = make_planner();
    SearchTrace trace;
    planner->set_observer(&trace);
    find_path(*planner, kQuery);
    std::uint64_t prune_step = kNeverStep;
    std::uint64_t step = 0;
    for (const SearchEvent& e : trace.events()) {
      if (e.kind == SearchEventKind::Expand) ++step;
      if (e.kind == SearchEventKind::Prune && e.node == 11) prune_step = step;
    }
    REQUIRE(prune_step == 1);  // room F, the start, is the first expansion
    TraceReplay replay(trace);
    replay.seek(prune_step);
    const TraceNode* alcove = replay.find(0, 11);
    REQUIRE(alcove != nullptr);
    CHECK(alcove->pruned());
    CHECK_FALSE(alcove->open());
    CHECK(alcove->pruned_at == 1);  // pruned right after expansion 1, as its neighbours were opened
    for (const TraceNode& n : replay.open_nodes()) CHECK(n.node != 11);
    replay.seek(0);
    CHECK(replay.find(0, 11) == nullptr);
    replay.seek(trace.step_count());
    replay.seek(prune_step);
    REQUIRE(replay.find(0, 11) != nullptr);
    CHECK(replay.find(0, 11)->pruned());
  }

  TEST_CASE("nodes are hit-tested from their declared shapes") {
    auto planner = make_planner();
    CHECK(planner->node_lattice() == std::nullopt);
    CHECK(planner->node_geometry(4).shape == NodeShape::Polygon);
    CHECK(planner->node_geometry(5).shape == NodeShape::Point);
    CHECK(planner->node_at({16, 18}, 0.5) == 4);            // inside the hexagon
    CHECK(planner->node_at({12.5, 17}, 0.5) == 4);          // near a slanted edge, inside
    CHECK(planner->node_at({11.2, 15.2}, 0.5) == kNoNode);  // inside the bounds, outside the polygon
    CHECK(planner->node_at({25.3, 18.2}, 0.5) == 5);        // near the doorway point
    CHECK(planner->node_at({25.3, 18.2}, 0.1) == kNoNode);
    CHECK(planner->node_at({39, 1}, 0.5) == kNoNode);
  }

  TEST_CASE("the trace painter draws graph nodes in their own shapes") {
    auto planner = make_planner();
    SearchTrace trace;
    planner->set_observer(&trace);
    find_path(*planner, kQuery);
    TraceReplay replay(trace);
    replay.seek(3);
    const render::TraceGeometry geometry = render::planner_trace_geometry(*planner, Box2{{0, 0}, {40, 30}});
    CHECK_FALSE(geometry.lattice.has_value());
    CHECK(geometry.node_extent == doctest::Approx(3.5));  // room E is 3.5 m tall

    render::LayerSet layers = render::LayerSet::all();
    render::DrawList zoomed_in;
    render::TracePainter painter;
    painter.paint(trace, replay, geometry, layers, zoomed_in, at_zoom(20.0));
    CHECK(zoomed_in.count(render::Layer::Closed, render::PrimitiveKind::Polygon) >= 1);  // room F
    CHECK(zoomed_in.count(render::Layer::Closed, render::PrimitiveKind::Image) == 0);
    CHECK(zoomed_in.count(render::Layer::Current) >= 1);

    render::DrawList zoomed_out;
    render::TracePainter painter2;
    painter2.paint(trace, replay, geometry, layers, zoomed_out, at_zoom(0.1));
    CHECK(zoomed_out.count(render::Layer::Closed, render::PrimitiveKind::Image) == 1);

    // At the last refinement the refinement layer shows its polyline.
    replay.seek(trace.step_count() - 1);
    render::DrawList refined;
    painter.paint(trace, replay, geometry, layers, refined, at_zoom(20.0));
    CHECK(refined.count(render::Layer::Refinement, render::PrimitiveKind::Polyline) == 1);
  }

  TEST_CASE("the structure painter reads any planner's structure, within its limit") {
    auto planner = make_planner();
    find_path(*planner, kQuery);
    render::DrawList out;
    render::StructurePaintParams params;
    params.view = Box2{{0, 0}, {40, 30}};
    const auto stats = render::paint_structure(*planner, render::LayerSet::all(), out, params);
    CHECK(stats.cells == 6);  // the six rooms
    CHECK(stats.edges == 13);
    CHECK(stats.shapes == 1);  // the corridor of the path found
    CHECK_FALSE(stats.truncated);
    CHECK(out.count(render::Layer::PlannerEdges, render::PrimitiveKind::Line) == 13);

    render::DrawList limited;
    params.max_primitives = 5;
    const auto few = render::paint_structure(*planner, render::LayerSet::all(), limited, params);
    CHECK(few.cells + few.edges + few.shapes == 5);
    CHECK(few.truncated);

    render::DrawList hidden;
    CHECK(render::paint_structure(*planner, render::LayerSet::defaults(), hidden, params).cells == 0);
  }

  TEST_CASE("a result stays valid while changes keep away from its nodes") {
    auto planner = make_planner();
    find_path(*planner, kQuery);
    WorldChange far;
    far.area = Box2{{13, 1}, {15, 3}};  // room B, not on the path from F
    far.items = {ItemRef{ItemKind::Feature, 7, ItemChange::Added}};
    CHECK(planner->result_still_valid(far));
    WorldChange near = far;
    near.area = Box2{{30, 15}, {31, 16}};  // room D
    CHECK_FALSE(planner->result_still_valid(near));
    WorldChange rebuilt = far;
    rebuilt.rebuilt = true;
    CHECK_FALSE(planner->result_still_valid(rebuilt));
  }

}  // TEST_SUITE
