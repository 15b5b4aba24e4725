// What the quadtree planner gives its overlays: the structure view (leaves, links, one
// way ones marked), the path's structure (corridor leaves and portals), step 1's graph on
// its refinement and a visibility region on every string-pulling step.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "planner/core/search_trace.hpp"
#include "planner/quadtree/quadtree_planner.hpp"
#include "planner/world/planning_world.hpp"
#include "tests/test_maps.hpp"

using namespace pathscope;
using pathscope::test::cell_center;

namespace {

// Walls and rough ground, so that leaves of several sizes and one-way links appear and
// the path from the top-left to the bottom-right corner has to bend.
const std::vector<std::string> kRows = test::bent_rows();

struct Collect final : StructureVisitor {
  std::vector<StructureCell> cells;
  std::vector<StructureEdge> edges;
  std::vector<StructureShape> shapes;
  std::vector<std::vector<Vec2>> shape_points;
  void cell(const StructureCell& c) override { cells.push_back(c); }
  void edge(const StructureEdge& e) override { edges.push_back(e); }
  void shape(const StructureShape& sh) override {
    shapes.push_back(sh);
    shape_points.emplace_back(sh.points.begin(), sh.points.end());
  }
};

const RefinementShape* find_shape(const Refinement& r, const std::string& name) {
  for (const RefinementShape& s : r.shapes) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

// The angle of the wedge at points[0] between points[1] and points[2].
double wedge_angle(const std::vector<Vec2>& w) {
  const Vec2 u = w[1] - w[0], v = w[2] - w[0];
  return std::atan2(std::abs(u.x * v.y - u.y * v.x), u.x * v.x + u.y * v.y);
}

}  // namespace

TEST_CASE("quadtree overlays: the structure view and the path's corridor and portals") {
  const Scenario s = test::ascii_scenario(kRows);
  const PlanningWorld world(s);
  QuadtreePlanner qt(world, 0);
  const Quadtree& tree = QuadtreeMap::of(world, 0).tree();
  const QuadLinks& links = QuadtreeMap::of(world, 0).links();

  Collect before;
  qt.visit_path_structure(before);  // no search yet: no path
  CHECK(before.cells.empty());
  CHECK(before.shapes.empty());

  const PathResult& r = find_path(qt, {cell_center(s, 0, 0), cell_center(s, 15, 7)});
  REQUIRE(r.status == SearchStatus::Found);
  REQUIRE(r.nodes.size() >= 3);

  Collect all;
  qt.visit_structure(Box2{{0, 0}, {16, 8}}, all);
  CHECK(all.cells.size() == tree.leaf_count());
  for (const StructureCell& c : all.cells) CHECK(c.role == StructureRole::Structure);
  std::size_t directed = 0, one_way = 0;
  for (const StructureEdge& e : all.edges) {
    directed += e.directed ? 1 : 2;
    one_way += e.directed ? 1 : 0;
  }
  CHECK(directed == links.link_count());
  CHECK(one_way == links.one_way_count());
  CHECK(one_way > 0);
  // The path's portals are path structure only, never given twice.
  CHECK(all.shapes.empty());

  Collect path;
  qt.visit_path_structure(path);
  REQUIRE(path.cells.size() == r.nodes.size());
  for (std::size_t i = 0; i < path.cells.size(); ++i) {
    CHECK(path.cells[i].role == StructureRole::Corridor);
    CHECK(path.cells[i].node == r.nodes[i]);
    CHECK(path.cells[i].box == tree.leaf_box(tree.leaf_at_corner(r.nodes[i])));
  }
  CHECK(path.edges.empty());
  REQUIRE(path.shapes.size() == r.nodes.size() - 1);
  for (std::size_t i = 0; i < path.shapes.size(); ++i) {
    CHECK(path.shapes[i].role == StructureRole::Portal);
    CHECK(path.shapes[i].kind == StructureShape::Kind::Polyline);
    // Each portal lies on the boundary of both leaves it joins.
    const std::vector<Vec2>& p = path.shape_points[i];
    REQUIRE(p.size() == 2);
    for (const Box2& box : {tree.leaf_box(tree.leaf_at_corner(r.nodes[i])),
                            tree.leaf_box(tree.leaf_at_corner(r.nodes[i + 1]))}) {
      for (const Vec2& end : p) {
        CHECK(end.x >= box.lo.x);
        CHECK(end.x <= box.hi.x);
        CHECK(end.y >= box.lo.y);
        CHECK(end.y <= box.hi.y);
      }
    }
  }

  // No path, no path structure.
  find_path(qt, {cell_center(s, 0, 0), cell_center(s, 5, 2)});  // the goal in a wall
  Collect none;
  qt.visit_path_structure(none);
  CHECK(none.cells.empty());
  CHECK(none.shapes.empty());
}

TEST_CASE("quadtree overlays: step 1's graph and step 2's visibility regions ride on the refinements") {
  const Scenario s = test::ascii_scenario(kRows);
  const PlanningWorld world(s);
  QuadtreePlanner qt(world, 0);
  SearchTrace trace;
  qt.set_observer(&trace);
  const PathResult& r = find_path(qt, {cell_center(s, 0, 0), cell_center(s, 15, 7)});
  REQUIRE(r.status == SearchStatus::Found);
  const std::size_t portals = r.nodes.size() - 1;
  REQUIRE(portals >= 2);

  const std::vector<Refinement>& stages = trace.refinements();
  REQUIRE(stages.size() >= 4);
  CHECK(stages[0].stage == "cell centres");
  CHECK(stages[0].shapes.empty());

  // Step 1: the start, the goal and both ends of every portal (the seed's graph), one
  // crossing per portal, each layer linked forwards to the next only.
  const Refinement& step1 = stages[1];
  CHECK(step1.stage == "portal A*");
  const RefinementShape* nodes = find_shape(step1, "step-1 node");
  const RefinementShape* crossings = find_shape(step1, "step-1 crossing");
  const RefinementShape* graph_links = find_shape(step1, "step-1 link");
  REQUIRE(nodes != nullptr);
  REQUIRE(crossings != nullptr);
  REQUIRE(graph_links != nullptr);
  for (const RefinementShape& sh : step1.shapes) CHECK(sh.role == StructureRole::Graph);
  CHECK(nodes->kind == StructureShape::Kind::Points);
  CHECK(nodes->points.size() == 2 + 2 * portals);
  CHECK(nodes->points.front() == r.points.front());
  CHECK(nodes->points.back() == r.points.back());
  CHECK(crossings->points.size() == portals);
  CHECK(graph_links->kind == StructureShape::Kind::Links);
  CHECK(graph_links->points.size() == 2 * (3 + 9 * (portals - 1) + 3));
  // Step 1's path runs along links of its graph.
  for (std::size_t i = 1; i < step1.points.size(); ++i) {
    bool found = false;
    for (std::size_t k = 0; k + 1 < graph_links->points.size(); k += 2) {
      found = found || (graph_links->points[k] == step1.points[i - 1] &&
                        graph_links->points[k + 1] == step1.points[i]);
    }
    CHECK(found);
  }

  // Step 2: one refinement per portal tested (and the goal), each with its region and
  // last visible point; a new last visible point per inner corner of the final path.
  CHECK(stages.back().stage == "string pulling");
  CHECK(stages.back().shapes.empty());
  std::size_t steps = 0, corners = 0;
  double last_angle = 10;
  Vec2 last_apex{-1, -1};
  for (std::size_t i = 2; i + 1 < stages.size(); ++i) {
    const Refinement& st = stages[i];
    REQUIRE((st.stage == "visibility region" || st.stage == "last visible point"));
    ++steps;
    for (const RefinementShape& sh : st.shapes) CHECK(sh.role == StructureRole::Region);
    const RefinementShape* lvp = find_shape(st, "last visible point");
    REQUIRE(lvp != nullptr);
    REQUIRE(lvp->points.size() == 1);
    REQUIRE(!st.points.empty());
    if (st.stage == "last visible point") {
      // The new last visible point ends the path found so far.
      CHECK(lvp->points[0] == st.points.back());
      ++corners;
      last_apex = {-1, -1};
      continue;
    }
    // Seen from one last visible point, the region only shrinks.
    if (const RefinementShape* region = find_shape(st, "visibility region")) {
      REQUIRE(region->points.size() == 3);
      CHECK(region->points[0] == lvp->points[0]);
      const double angle = wedge_angle(region->points);
      if (region->points[0] == last_apex) CHECK(angle <= last_angle + 1e-12);
      last_angle = angle;
      last_apex = region->points[0];
    }
  }
  CHECK(steps >= portals + 1);
  CHECK(corners == r.points.size() - 2);
}
