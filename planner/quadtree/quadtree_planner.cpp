// The quadtree planner (seed 000: "The Quadtree", "Rubber Banding, Step 1" and "Step 2").
//
// A* runs on the leaves' neighbour graph. The seed moves a ship through the centres of
// the cells; costing edges centre to centre misjudges large leaves (a path that merely
// clips the corner of a 64-cell leaf would pay for its centre), so here each leaf is
// entered where the path from its parent's entry point towards the goal meets the
// portal: the point of the portal that minimises |entry - p| + |p - goal| (the crossing
// of the straight line, the goal reflected across the portal's line when it lies on the
// near side, clamped to the portal). An edge costs the distance between the two entry
// points times the multiplier of the leaf it runs through (an impassable start leaf
// counts 1: leaving it is travel). The heuristic is the straight distance to the goal
// times the smallest multiplier; for the goal's own leaf it is the exact last leg, so
// the search ends when the goal leaf leaves the open list. Because a leaf's entry point
// depends on its parent, so does its heuristic: a leaf reached again is improved when
// its f (not its g) is lower. f never decreases along a link (triangle inequality, and
// every multiplier is at least the smallest). Ties: f, then h, then node id. The loop is
// planner/search's BestFirstSearch (improving on f, ending when the goal leaf is
// expanded); this file supplies the leaves' links, the entry points and the heuristic.
//
// With landmarks the heuristic is the larger of that and the landmarks' estimate
// (quadtree_landmarks.hpp): costs from far-apart leaves, in the same model, whose
// differences see the walls and the slow terrain in the way. Those costs are of real
// paths, not shortest ones, so the estimate may exceed the true cost a little; a margin
// takes a share of the costs off it. The same landmarks costed over the corner graph
// (straight segments between the leaves' side points) give a second estimate, near the
// true costs and so with no margin; a leaf's corner cost is the least of its points', so
// only the other side of each difference takes a slack: the goal's exact distance from
// its leaf's cheapest side point, or a leaf's diagonal. The heuristic takes the larger:
// the greedy costs run above the true ones (axis-aligned legs among small leaves) and
// pull the search on in cluttered maps, the corner costs see through rooms and
// corridors of small leaves where the margin takes off most of the greedy estimate. The
// closed-list rule stays as it is.
//
// Node ids are the leaves' corners (the row-major index of each leaf's top-left cell,
// Quadtree::corner), not their ids: leaf ids depend on the updates a tree went through,
// corners only on the grid. So ties break, paths read and traces name leaves the same
// way on an updated tree as on a fresh one; the search runs on leaf ids (its paged state
// is per leaf id), its open list orders entries by corner and carries each one's leaf id
// (the model's open_id), and events name corners.
//
// The corridor found is then rubber-banded (rubber_band.hpp): the cell-centre path, the
// portal-corner path of step 1 (with step 1's graph) and the string-pulled path of
// step 2 are each sent to the observer as a refinement, as is every portal step 2 tests
// (with the visibility region it is tested against and the path found so far): the
// debugger scrubs through the smoothing as it does through the search. Step 2 pulls only
// within runs of one cost (weighted_pulled_path), so it never makes step 1 dearer. The
// cost reported is the returned polyline's in the world's model (polyline_cost), not the
// corridor's: a leg along a leaf's side next to a cheaper cell outside the corridor (a
// road beside it) costs the cheaper cell, as the world charges it.

#include "planner/quadtree/quadtree_planner.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <utility>

#include "planner/quadtree/open_leg.hpp"
#include "planner/quadtree/quadtree_dependency.hpp"
#include "planner/world/path_cost.hpp"
#include "planner/world/path_shortcuts.hpp"

namespace pathscope {
namespace {

double distance(Vec2 a, Vec2 b) {
  const Vec2 d = b - a;
  return std::sqrt(d.x * d.x + d.y * d.y);
}

// The point of portal [a, b] (axis-aligned) minimising |from - p| + |p - goal|.
Vec2 entry_point(Vec2 from, Vec2 a, Vec2 b, Vec2 goal) {
  const bool vertical = a.x == b.x;
  // Along the portal's line: u; across it: w.
  const double line = vertical ? a.x : a.y;
  const double lo = vertical ? std::min(a.y, b.y) : std::min(a.x, b.x);
  const double hi = vertical ? std::max(a.y, b.y) : std::max(a.x, b.x);
  const double fu = vertical ? from.y : from.x, fw = vertical ? from.x : from.y;
  const double gu = vertical ? goal.y : goal.x;
  double gw = vertical ? goal.x : goal.y;
  if ((fw - line) * (gw - line) > 0) gw = 2 * line - gw;  // same side: reflect the goal
  double u = fu;
  if (gw != fw) u = fu + (line - fw) / (gw - fw) * (gu - fu);
  u = std::clamp(u, lo, hi);
  return vertical ? Vec2{line, u} : Vec2{u, line};
}

// Points ahead a shortcut may reach (planner/world/path_shortcuts.hpp).
constexpr std::size_t kShortcutWindow = 8;

// Half the diagonal of a unit square, rounded up.
constexpr double kHalfDiagonal = 0.70711;

std::string describe_point(const char* what, Vec2 p) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "%s (%.6g, %.6g)", what, p.x, p.y);
  return buf;
}

}  // namespace

QuadtreePlanner::QuadtreePlanner(const PlanningWorld& world, std::size_t movement_class, std::string name,
                                 QuadtreeParams params)
    : PlannerBase(std::move(name)), world_(world), class_(movement_class), params_(params) {}

class QuadtreePlanner::Model {
 public:
  static constexpr bool kImprovesOnF = true;    // entry points, so h, depend on the parent
  static constexpr bool kExpandsTarget = true;  // the goal leaf's h is its exact last leg

  explicit Model(const QuadtreePlanner& planner)
      : p_(planner), tree_(planner.map_->tree()), links_(planner.map_->links()), s_(tree_.cell_size()) {}

  bool tracing() const { return p_.observer_ != nullptr; }
  // Events name leaves by their corners.
  void emit(SearchEventKind kind, int, NodeId leaf, NodeId parent, double g, double h) const {
    p_.emit(kind, p_.node_of(leaf), p_.node_of(parent), g, h);
  }
  // Asked only for the root, entered at the query's start.
  double heuristic(NodeId leaf) const { return p_.heuristic(leaf, p_.query_.start); }
  NodeId parent(NodeId, const LeafState& state) const { return state.parent; }
  double key(double f) const { return f; }
  // The leaf's corner: the link being relaxed carries its target's, any other (the root)
  // is read from the tree.
  NodeId open_id(NodeId leaf) const { return leaf == next_leaf_ ? next_corner_ : tree_.corner(leaf); }

  template <class Relax>
  void successors(NodeId u, const LeafState& su, Relax&& relax) const {
    const double mu = p_.travel_multiplier(u);
    for (const QuadLink& link : links_.out(u)) {
      next_leaf_ = link.to;
      next_corner_ = link.to_corner;
      Vec2 entry{0, 0};
      relax(
          NodeId(link.to),
          [&](LeafState& sv) {
            sv.entry = entry;
            sv.parent = u;
          },
          [&] {
            entry = entry_point(su.entry, Vec2(link.a) * s_, Vec2(link.b) * s_, p_.query_.goal);
            return distance(su.entry, entry) * mu;
          },
          [&] { return p_.heuristic(link.to, entry); });
    }
  }

 private:
  const QuadtreePlanner& p_;
  const Quadtree& tree_;
  const QuadLinks& links_;
  const double s_;
  mutable NodeId next_leaf_ = kNoNode;  // the target of the link being relaxed
  mutable NodeId next_corner_ = kNoNode;
};

std::size_t QuadtreePlanner::node_count() const {
  const Quadtree& t = map().tree();
  return std::size_t(t.width()) * std::size_t(t.height());
}

Vec2 QuadtreePlanner::node_position(NodeId node) const {
  const Quadtree& t = map().tree();
  const std::uint32_t leaf = t.leaf_at_corner(node);
  return leaf != Quadtree::kNoLeaf ? t.leaf_center(leaf) : Vec2{0, 0};
}

NodeGeometry QuadtreePlanner::node_geometry(NodeId node) const {
  const Quadtree& t = map().tree();
  const std::uint32_t leaf = t.leaf_at_corner(node);
  if (leaf == Quadtree::kNoLeaf) return Planner::node_geometry(node);
  const Box2 box = t.leaf_box(leaf);
  return NodeGeometry{NodeShape::Box, box.center(), box, {}};
}

NodeId QuadtreePlanner::node_at(Vec2 point, double tolerance) const {
  (void)tolerance;
  const Quadtree& t = map().tree();
  const std::uint32_t leaf = t.leaf_at(point);
  return leaf == Quadtree::kNoLeaf ? kNoNode : NodeId(t.corner(leaf));
}

NodeId QuadtreePlanner::node_of(std::uint32_t leaf) const {
  return leaf == kNoNode ? kNoNode : NodeId(map_->tree().corner(leaf));
}

double QuadtreePlanner::travel_multiplier(NodeId leaf) const {
  const double m = map_->tree().leaf(leaf).multiplier;
  return m > 0 ? m : 1.0;
}

double QuadtreePlanner::heuristic(NodeId leaf, Vec2 entry) const {
  const double d = distance(entry, query_.goal);
  if (leaf == goal_leaf_) return d * travel_multiplier(leaf);
  double h = d * min_multiplier_;
  if (landmarks_) {
    const QuadLeaf& l = map_->tree().leaf(leaf);
    const double mu = travel_multiplier(leaf);
    const double slack = kHalfDiagonal * l.size * map_->tree().cell_size() * mu + goal_slack_;
    h = std::max(h,
                 QuadLandmarks::bound(landmarks_->costs(leaf), goal_costs_, slack, params_.landmark_margin));
    const double diagonal = 2 * kHalfDiagonal * l.size * map_->tree().cell_size() * mu;
    h = std::max(h, QuadLandmarks::corner_bound(landmarks_->corner_costs(leaf), diagonal, goal_corner_costs_,
                                                goal_excess_));
  }
  return h * params_.weight;
}

SearchStatus QuadtreePlanner::start(const PathQuery& query) {
  query_ = query;
  result_ = PathResult{};
  corridor_ = Corridor{};
  centres_ = portal_ = pulled_ = CorridorPath{};
  start_leaf_ = goal_leaf_ = kNoNode;
  if (observer_) observer_->on_start(query);
  map_ = &map();
  revision_ = world_.revision();
  if (!map_->ok()) return fail(SearchStatus::Invalid, map_->error().message);
  const Quadtree& tree = map_->tree();
  const QuadLinks& links = map_->links();
  const CostGrid& grid = world_.grid(class_);
  min_multiplier_ = grid.min_multiplier();
  // Leaf ids are stable across updates and slots are reused: generations of earlier
  // searches never equal the current one, so the state is made again only when the slots
  // outgrow it.
  if (!state_ || state_->cell_count() < tree.leaf_slots())
    state_ = std::make_unique<PagedNodeState<LeafState>>(tree.leaf_slots());
  state_->next_search();
  result_.stats.extra = {{"cells", double(tree.leaf_count())},
                         {"grid_cells", double(grid.cell_count())},
                         {"links", double(links.link_count())}};

  const Vec2 points[2] = {query.start, query.goal};
  const char* names[2] = {"start", "goal"};
  NodeId leaves[2];
  for (int k = 0; k < 2; ++k) {
    leaves[k] = tree.leaf_at(points[k]);
    if (leaves[k] == Quadtree::kNoLeaf) {
      return fail(SearchStatus::Invalid, describe_point(names[k], points[k]) + " is outside the map");
    }
  }
  start_leaf_ = leaves[0];
  goal_leaf_ = leaves[1];
  const std::string& class_name = world_.scenario().classes[class_].name;
  if (!tree.leaf(goal_leaf_).passable()) {
    const std::uint32_t cell = *grid.cell_at(query.goal);
    const TerrainType& t = world_.scenario().terrains[world_.raster().terrain(cell)];
    return fail(SearchStatus::Invalid, describe_point("goal", query.goal) + " is inside terrain \"" + t.name +
                                           "\", which class \"" + class_name + "\" cannot enter");
  }
  const std::uint32_t goal_region = links.region(goal_leaf_);
  bool reachable = links.region(start_leaf_) == goal_region;
  if (!tree.leaf(start_leaf_).passable()) {
    // Inside an obstacle: the links out of its leaf say where it can go.
    for (const QuadLink& l : links.out(start_leaf_))
      reachable = reachable || links.region(l.to) == goal_region;
  }
  if (!reachable) {
    return fail(
        SearchStatus::NoPath,
        "start and goal are in different connected regions of the quadtree for class \"" + class_name + "\"");
  }
  landmarks_ = nullptr;
  if (params_.landmarks > 0) {
    landmarks_ = &QuadLandmarks::of(world_, class_, params_.landmarks, params_.memory);
    if (!landmarks_->ok()) {
      const std::string message = landmarks_->error().message;
      landmarks_ = nullptr;
      return fail(SearchStatus::Invalid, message);
    }
    const std::span<const float> g = landmarks_->costs(goal_leaf_);
    goal_costs_.assign(g.begin(), g.end());
    goal_slack_ =
        kHalfDiagonal * tree.leaf(goal_leaf_).size * tree.cell_size() * travel_multiplier(goal_leaf_);
    const std::span<const float> c = landmarks_->corner_costs(goal_leaf_);
    goal_corner_costs_.assign(c.begin(), c.end());
    goal_excess_.clear();
    for (const QuadLandmarks::EntryPoint& e : landmarks_->corner_entries(goal_leaf_)) {
      goal_excess_.push_back(distance(query.goal, Vec2{e.x, e.y}) * travel_multiplier(goal_leaf_));
    }
    result_.stats.extra.push_back({"landmarks", double(landmarks_->count())});
  }
  Model model(*this);
  search_.start(model, *state_, start_leaf_, goal_leaf_, result_.stats);
  state_->at(start_leaf_).entry = query.start;
  result_.status = SearchStatus::Running;
  return result_.status;
}

SearchStatus QuadtreePlanner::step(std::uint64_t max_expansions) {
  if (result_.status != SearchStatus::Running) return result_.status;
  if (world_.revision() != revision_) {
    return fail(SearchStatus::Invalid, "the world changed during the search: start the query again");
  }
  ++result_.stats.steps;
  Model model(*this);
  switch (search_.step(model, *state_, result_.stats, max_expansions)) {
    case SearchStatus::Found: finish(); return result_.status;
    case SearchStatus::NoPath:
      return fail(SearchStatus::NoPath, "the open list ran empty: the goal is unreachable");
    default: return result_.status;
  }
}

void QuadtreePlanner::finish() {
  const Quadtree& tree = map_->tree();
  const QuadLinks& links = map_->links();
  const double s = tree.cell_size();
  std::vector<NodeId> nodes;
  for (NodeId n = goal_leaf_; n != kNoNode; n = state_->at(n).parent) nodes.push_back(n);
  std::reverse(nodes.begin(), nodes.end());

  corridor_.start = query_.start;
  corridor_.goal = query_.goal;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    corridor_.cells.push_back(tree.leaf_box(nodes[i]));
    corridor_.multipliers.push_back(travel_multiplier(nodes[i]));
    if (i + 1 == nodes.size()) break;
    const QuadLink* link = links.find(nodes[i], nodes[i + 1]);
    corridor_.portals.push_back({Vec2(link->a) * s, Vec2(link->b) * s});
  }
  centres_ = centre_path(corridor_);
  if (observer_) observer_->on_refine("cell centres", centres_.points);
  const std::vector<Vec2> through = portal_crossings(corridor_, centres_);
  portal_ = portal_path(corridor_, through);
  if (observer_) {
    // Step 1's path with the graph it was searched on.
    const PortalGraph graph = portal_graph(corridor_, through);
    const StructureShape shapes[] = {
        {StructureShape::Kind::Links, "step-1 link", graph.links, 0, 0, StructureRole::Graph},
        {StructureShape::Kind::Points, "step-1 node", graph.corners, 0, 0, StructureRole::Graph},
        {StructureShape::Kind::Points, "step-1 crossing", graph.crossings, 0, 1, StructureRole::Graph},
    };
    observer_->on_refine("portal A*", portal_.points, shapes);
  }
  std::vector<PullStep> steps;
  pulled_ = weighted_pulled_path(corridor_, portal_, observer_ ? &steps : nullptr);
  if (observer_) {
    // Step 2 one portal at a time, with the visibility region it was tested against.
    for (const PullStep& st : steps) refine_pull_step(st);
    observer_->on_refine("string pulling", pulled_.points);
  }

  // On ground of several costs, shortcuts over the world's cells where the corridor holds
  // a dearer way than the cells beside it (legs open_leg() accepts): never dearer.
  shortcut_cells_.clear();
  result_.points = pulled_.points;
  const CostGrid& grid = world_.grid(class_);
  if (!grid.uniform_cost()) {
    Shortcuts cut = cheaper_shortcuts(grid, pulled_.points, kShortcutWindow,
                                      [&grid](Vec2 a, Vec2 b) { return open_leg(grid, a, b); });
    if (cut.dropped > 0) {
      result_.points = std::move(cut.points);
      shortcut_cells_ = std::move(cut.cells);
      if (observer_) observer_->on_refine("shortcuts", result_.points);
    }
  }
  result_.length = polyline_length(result_.points);
  result_.cost = polyline_cost(grid, result_.points);
  result_.stats.extra.push_back({"corridor", double(nodes.size())});
  result_.stats.extra.push_back({"length_centres", polyline_length(centres_.points)});
  result_.stats.extra.push_back({"length_step1", polyline_length(portal_.points)});
  result_.stats.extra.push_back({"length_final", result_.length});
  const LeafState& goal = state_->at(goal_leaf_);
  result_.stats.extra.push_back({"search_cost", goal.g[0] + goal.h});
  result_.nodes.clear();
  for (const NodeId n : nodes) result_.nodes.push_back(tree.corner(n));
  result_.status = SearchStatus::Found;
  if (observer_) {
    for (const NodeId n : nodes)
      emit(SearchEventKind::Path, tree.corner(n), kNoNode, state_->at(n).g[0], 0.0);
  }
}

void QuadtreePlanner::refine_pull_step(const PullStep& st) const {
  // The region: the wedge between the rays from the apex through `left` and `right`,
  // drawn out as far as the portal tested (or its own ends, if farther).
  const Vec2 apex = st.apex;
  double reach = std::max(distance(apex, st.left), distance(apex, st.right));
  reach = std::max({reach, distance(apex, st.tested[0]), distance(apex, st.tested[1])});
  const auto ray = [&](Vec2 through) {
    const double d = distance(apex, through);
    return apex + (through - apex) * (reach / d);
  };
  std::vector<StructureShape> shapes;
  std::vector<Vec2> wedge;
  if (st.left != apex && st.right != apex) {
    wedge = {apex, ray(st.left), ray(st.right)};
    shapes.push_back(
        {StructureShape::Kind::Polygon, "visibility region", wedge, 0, 0, StructureRole::Region});
  }
  const Vec2 tested[2] = {st.tested[0], st.tested[1]};
  if (tested[0] != tested[1]) {
    shapes.push_back({StructureShape::Kind::Polyline, "tested portal", tested, 0, st.corner ? 1.0 : 0.0,
                      StructureRole::Region});
  }
  // The point the region is seen from, or the new one the portal made.
  const Vec2 lvp[1] = {st.corner ? st.path.back() : apex};
  shapes.push_back({StructureShape::Kind::Points, "last visible point", lvp, 0, 0, StructureRole::Region});
  observer_->on_refine(st.corner ? "last visible point" : "visibility region", st.path, shapes);
}

void QuadtreePlanner::visit_path_structure(StructureVisitor& visitor) const {
  if (result_.status != SearchStatus::Found || world_.revision() != revision_) return;
  for (std::size_t i = 0; i < result_.nodes.size() && i < corridor_.cells.size(); ++i) {
    if (visitor.full()) return;
    const NodeId leaf = result_.nodes[i];
    visitor.cell(StructureCell{
        NodeShape::Box, corridor_.cells[i], {}, corridor_.multipliers[i], leaf, StructureRole::Corridor});
  }
  for (const auto& portal : corridor_.portals) {
    if (visitor.full()) return;
    visitor.shape(
        StructureShape{StructureShape::Kind::Polyline, "portal", portal, 0, 0, StructureRole::Portal});
  }
}

void QuadtreePlanner::visit_nodes(const std::function<void(const NodeView&)>& fn) const {
  if (result_.status == SearchStatus::Idle || start_leaf_ == kNoNode || world_.revision() != revision_)
    return;
  // In node order (corners), not leaf-id order.
  std::vector<std::pair<NodeId, std::uint32_t>> touched;
  state_->for_each_reached([&](NodeId leaf, const LeafState&) { touched.emplace_back(node_of(leaf), leaf); });
  std::sort(touched.begin(), touched.end());
  for (const auto& [node, leaf] : touched) {
    const LeafState& st = state_->at(leaf);
    fn(NodeView{node, 0, st.g[0], st.h, node_of(st.parent), st.closed != 0});
  }
}

void QuadtreePlanner::visit_structure(const Box2& bounds, StructureVisitor& visitor) const {
  if (bounds.empty()) return;
  const QuadtreeMap& m = map();
  const Quadtree& tree = m.tree();
  const double s = tree.cell_size();
  const CellRect rect{int(std::floor(bounds.lo.x / s)), int(std::floor(bounds.lo.y / s)),
                      int(std::floor(bounds.hi.x / s)) + 1, int(std::floor(bounds.hi.y / s)) + 1};
  const auto inside = [&](std::uint32_t leaf) { return !tree.leaf(leaf).rect().intersected(rect).empty(); };
  const auto cost_in = [&](std::uint32_t leaf, Vec2 a, Vec2 b) {
    const double mult = tree.leaf(leaf).multiplier;
    return distance(a, b) * (mult > 0 ? mult : 1.0);
  };
  bool stop = false;
  tree.for_each_leaf_in(rect, [&](std::uint32_t id) {
    if (stop || (stop = visitor.full())) return;
    const QuadLeaf& leaf = tree.leaf(id);
    const double value = leaf.passable() ? leaf.multiplier : std::numeric_limits<double>::infinity();
    const NodeId node = tree.corner(id);
    visitor.cell(StructureCell{NodeShape::Box, tree.leaf_box(id), {}, value, node});
    const Vec2 from = tree.leaf_center(id);
    for (const QuadLink& l : m.links().out(id)) {
      // A two-way link once: from its smaller node id, unless that leaf is not visited.
      const NodeId to_node = l.to_corner;
      if (!l.one_way && to_node < node && inside(l.to)) continue;
      if ((stop = visitor.full())) return;
      const Vec2 to = tree.leaf_center(l.to);
      const Vec2 mid = (Vec2(l.a) + Vec2(l.b)) * (0.5 * s);
      visitor.edge(StructureEdge{node, to_node, from, to, "link",
                                 cost_in(id, from, mid) + cost_in(l.to, mid, to), l.one_way});
    }
  });
  // The path's corridor and portals are path structure (visit_path_structure), not drawn
  // here a second time.

  // The landmarks: a ring round each one's leaf centre, large enough to find on the map.
  if (params_.landmarks > 0) {
    const QuadLandmarks& marks = QuadLandmarks::of(world_, class_, params_.landmarks, params_.memory);
    const double ring = std::max(3 * s, 0.01 * std::hypot(tree.width() * s, tree.height() * s));
    for (const std::uint32_t id : marks.landmarks()) {
      if (visitor.full()) return;
      const Vec2 centre[1] = {tree.leaf_center(id)};
      visitor.shape(StructureShape{StructureShape::Kind::Circle, "landmark", centre, ring, 0,
                                   StructureRole::Structure});
    }
  }
}

std::unique_ptr<ResultDependency> QuadtreePlanner::result_dependency() const {
  if (result_.status != SearchStatus::Found || world_.revision() != revision_) return nullptr;
  const Quadtree& tree = map_->tree();
  if (params_.landmarks > 0) {
    // The landmarks' costs depend on every cell: any change of cells, none of the rest.
    return std::make_unique<QuadtreeDependency>(world_, class_,
                                                std::vector<CellRect>{{0, 0, tree.width(), tree.height()}});
  }
  std::vector<CellRect> squares;
  state_->for_each_reached([&](NodeId n, const LeafState&) {
    const QuadLeaf& l = tree.leaf(n);
    const int size = std::min(2 * l.size, tree.root_size());
    const int x = l.x - l.x % size, y = l.y - l.y % size;
    squares.push_back(CellRect{x, y, x + size, y + size}.expanded(1));
  });
  // The cells the shortcuts' legs cross, which may lie outside the leaves touched.
  squares.insert(squares.end(), shortcut_cells_.begin(), shortcut_cells_.end());
  return std::make_unique<QuadtreeDependency>(world_, class_, std::move(squares));
}

}  // namespace pathscope
