// The visibility-graph planner (seed 003, "The solution, part 1": corners of obstacles
// as permanent waypoints, start and goal as temporary ones; seed 004, "Visibility
// graphs" and "Our heuristic").
//
// Exact mode: the direct line is tested first; when it is clear the start's only link
// is the goal. Otherwise the start is tested against every corner (a sight test through
// the bucket grid, after the tangency test at the corner) and linked to those it sees;
// the goal is tested against each corner when that corner is expanded (the same test),
// which links it to every corner that could matter without a scan of all of them. A*
// then runs with the straight distance to the goal as heuristic (consistent, so no
// closed node is ever improved), or Dijkstra with none. Ties: f, then h, then node id
// (planner/core/open_list.hpp). The loop is planner/search's BestFirstSearch, ending when
// the goal is expanded; this file supplies the successors of each kind of node (Model,
// below).
//
// Shortcut mode (seed 004's heuristic, kept to show what it costs): the first and last
// points where the straight line enters an obstacle become temporary nodes, each linked
// along its obstacle's boundary to the nearest corner in both directions; the search
// runs start -> first point -> corners -> last point -> goal; the path is then culled:
// while the start sees the path's third point, the second is dropped, and the same from
// the goal's end. Each stage is a refinement event.
//
// Exact roads (road_network.cpp): the road points are nodes after the region corners;
// the start and the goal join each road piece at their own angle-rule points (temporary
// road points, linked along the piece to its neighbours and to each other). The
// heuristic scales the straight distance by the smallest cost per metre (the smallest
// region factor over the largest speed factor), so it stays admissible and consistent.

#include "planner/visgraph/visgraph_planner.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "planner/visgraph/visgraph_dependency.hpp"
#include "planner/world/path_cost.hpp"
#include "planner/world/path_shortcuts.hpp"

namespace pathscope {
namespace {

using visgraph::VisibilityGraph;

double distance(Vec2 a, Vec2 b) {
  const Vec2 d = b - a;
  return std::sqrt(d.x * d.x + d.y * d.y);
}

// Points ahead a shortcut in the world's model may reach (planner/world/path_shortcuts.hpp).
constexpr std::size_t kShortcutWindow = 8;

std::string describe_point(const char* what, Vec2 p) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "%s (%.6g, %.6g)", what, p.x, p.y);
  return buf;
}

// Drops the second point while the first sees the third, from the front (seed 004, "Our
// heuristic": culling the path).
void cull_front(std::vector<Vec2>& pts, const visgraph::SegmentIndex& index) {
  while (pts.size() > 2 && index.visible(pts[0], pts[2])) pts.erase(pts.begin() + 1);
}

}  // namespace

VisGraphPlanner::VisGraphPlanner(const PlanningWorld& world, std::size_t movement_class,
                                 VisGraphParams params, std::string name)
    : PlannerBase(std::move(name)), world_(world), class_(movement_class), params_(params) {
  obstacle_params_.radius =
      params.radius >= 0 ? params.radius : world.scenario().classes[movement_class].radius;
  obstacle_params_.max_error = params.max_error;
}

const visgraph::VisGraphMap& VisGraphPlanner::map() const {
  // The one fetched at start() while the world is unchanged (node_position is called
  // once per node when drawing; the lookup formats a key).
  if (map_ != nullptr && world_.revision() == revision_) return *map_;
  return visgraph::VisGraphMap::of(world_, class_, obstacle_params_, params_.memory);
}

std::size_t VisGraphPlanner::node_count() const {
  const visgraph::VisGraphMap& m = map();
  const bool fresh = regions_revision_ == map().inputs_revision();
  if (!edge_points_.empty() && revision_ == world_.revision()) return edge_base_ + edge_points_.size();
  if (road_nodes() && network_revision_ == map().inputs_revision() && revision_ == world_.revision()) {
    return road_temp_base_ + road_temps_.size();
  }
  return (m.ok() ? m.graph().node_count() : 0) + 4 + (fresh ? regions_.corners().size() : 0);
}

Vec2 VisGraphPlanner::node_position(NodeId node) const {
  const visgraph::VisGraphMap& m = map();
  const std::size_t n = m.ok() ? m.graph().node_count() : 0;
  if (node < n) return m.graph().position(node);
  if (node < n + 4) return temp_pos_[node - n];
  if (!edge_points_.empty() && revision_ == world_.revision() && node >= edge_base_ &&
      node - edge_base_ < edge_points_.size())
    return edge_points_[node - edge_base_].pos;
  if (road_nodes() && network_revision_ == map().inputs_revision() && revision_ == world_.revision() &&
      node >= road_base_) {
    if (node < road_temp_base_) return network_.points()[node - road_base_];
    if (node - road_temp_base_ < road_temps_.size()) return road_temps_[node - road_temp_base_].pos;
    return {0, 0};
  }
  if (regions_revision_ == map().inputs_revision() && node - n - 4 < regions_.corners().size()) {
    return regions_.corners()[node - n - 4];
  }
  return {0, 0};
}

double VisGraphPlanner::heuristic(Vec2 p) const {
  if (params_.dijkstra) return 0.0;
  const double scale =
      (weighing() ? regions_.min_factor() : 1.0) / (road_nodes() ? network_.max_factor() : 1.0);
  return distance(p, query_.goal) * scale;
}

double VisGraphPlanner::leg_cost(Vec2 a, Vec2 b) const {
  return weighing() ? regions_.cost(a, b) : distance(a, b);
}

void VisGraphPlanner::prepare_regions() {
  if (regions_revision_ == map().inputs_revision()) return;
  regions_ = visgraph::WeightedRegions(world_, class_, map_->graph(), obstacle_params_.max_error);
  regions_revision_ = map_->inputs_revision();
}

void VisGraphPlanner::prepare_network() {
  if (network_revision_ == map().inputs_revision()) return;
  const std::vector<Vec2> none;
  network_ =
      visgraph::RoadNetwork(world_.scenario().roads, map_->graph(), weighing() ? regions_.corners() : none,
                            [this](Vec2 a, Vec2 b) { return leg_cost(a, b); });
  network_revision_ = map_->inputs_revision();
}

template <class Link>
void VisGraphPlanner::road_point_successors(NodeId u, Vec2 pu, Link&& link) {
  const auto along = [&](std::uint32_t piece, Vec2 b) {
    return leg_cost(pu, b) / network_.pieces()[piece].factor;
  };
  if (u < road_temp_base_) {
    const std::uint32_t k = std::uint32_t(u - road_base_);
    for (const visgraph::RoadNetLink& l : network_.links(k)) {
      const NodeId v = l.kind == visgraph::RoadEnd::Corner         ? NodeId(l.to)
                       : l.kind == visgraph::RoadEnd::RegionCorner ? region_node(l.to)
                                                                   : road_base_ + l.to;
      link(v, [&] { return l.cost; });
    }
    for (const std::uint32_t p : network_.point_pieces(k)) {
      for (const std::uint32_t t : piece_temps_[p])
        link(road_temp_base_ + t, [&] { return along(p, road_temps_[t].pos); });
    }
    if (map_->graph().index().visible(pu, query_.goal)) {
      goal_links_.push_back(u);
      link(temp(1), [&] { return leg_cost(pu, query_.goal); });
    }
    return;
  }
  const std::uint32_t t = std::uint32_t(u - road_temp_base_);
  const TempRoadPoint& tp = road_temps_[t];
  const std::span<const double> offsets = network_.piece_offsets(tp.piece);
  const std::span<const std::uint32_t> points = network_.piece_points(tp.piece);
  const std::size_t i =
      std::size_t(std::upper_bound(offsets.begin(), offsets.end(), tp.offset) - offsets.begin());
  if (i > 0) {
    link(road_base_ + points[i - 1], [&] { return along(tp.piece, network_.points()[points[i - 1]]); });
  }
  if (i < points.size()) {
    link(road_base_ + points[i], [&] { return along(tp.piece, network_.points()[points[i]]); });
  }
  for (const std::uint32_t o : piece_temps_[tp.piece]) {
    if (o != t) link(road_temp_base_ + o, [&] { return along(tp.piece, road_temps_[o].pos); });
  }
  if (tp.goal_cost >= 0) {
    goal_links_.push_back(u);
    link(temp(1), [&] { return tp.goal_cost; });
  }
}

void VisGraphPlanner::add_edge_points(Vec2 q, bool goal) {
  const visgraph::SegmentIndex& index = map_->graph().index();
  const Box2 free_box = map_->graph().obstacles().free_box;
  for (const visgraph::WeightedRegion& r : regions_.regions()) {
    // Regions are disjoint: the one holding q, if slow.
    if (r.factor <= 1 || !(q.x > r.box.lo.x && q.x < r.box.hi.x && q.y > r.box.lo.y && q.y < r.box.hi.y))
      continue;
    // Leaving at x on a side towards a point t along it costs f sqrt(d^2 + (x - s)^2)
    // inside and about |t - x| beside it (d: q's distance from the side's line, s: its
    // projection): least at x = s +- d / sqrt(f^2 - 1), the road network's joining points
    // with the region's inside as the slow side.
    const double k = 1.0 / std::sqrt(r.factor * r.factor - 1);
    for (int side = 0; side < 4; ++side) {
      const bool vertical = side < 2;  // the side x = line, else y = line
      const double line = side == 0   ? r.box.lo.x
                          : side == 1 ? r.box.hi.x
                          : side == 2 ? r.box.lo.y
                                      : r.box.hi.y;
      const double d = std::abs((vertical ? q.x : q.y) - line), at = vertical ? q.y : q.x;
      const double lo = vertical ? r.box.lo.y : r.box.lo.x, hi = vertical ? r.box.hi.y : r.box.hi.x;
      for (const double sign : {-1.0, 1.0}) {
        const double u = at + sign * d * k;
        if (!(u > lo && u < hi)) continue;  // beyond the side: its corner is a node already
        Vec2 p = vertical ? Vec2{line, u} : Vec2{u, line};
        // On the world's edge: the radius in, as region corners are taken.
        p = Vec2{std::clamp(p.x, free_box.lo.x, free_box.hi.x),
                 std::clamp(p.y, free_box.lo.y, free_box.hi.y)};
        if (edge_points_.size() >= kMaxEdgePoints || index.inside(p) || !index.visible(q, p)) continue;
        const bool known = std::any_of(edge_points_.begin(), edge_points_.end(),
                                       [&](const EdgePoint& e) { return e.pos == p && e.goal == goal; });
        if (!known) edge_points_.push_back(EdgePoint{p, goal});
      }
    }
    return;
  }
}

template <class Link>
void VisGraphPlanner::goal_edge_links(NodeId u, Vec2 pu, Link&& link) {
  const VisibilityGraph& g = map_->graph();
  for (std::size_t k = 0; k < edge_points_.size(); ++k) {
    const EdgePoint& e = edge_points_[k];
    if (!e.goal) continue;
    // From an obstacle corner only along a tangent, as its other links.
    const bool sees = u < corners_ ? g.links_to(std::uint32_t(u), e.pos) : g.index().visible(pu, e.pos);
    if (sees) link(edge_base_ + k, [&] { return leg_cost(pu, e.pos); });
  }
}

template <class Link>
void VisGraphPlanner::edge_point_successors(NodeId u, Vec2 pu, Link&& link) {
  const VisibilityGraph& g = map_->graph();
  if (edge_points_[u - edge_base_].goal) {
    goal_links_.push_back(u);
    link(temp(1), [&] { return leg_cost(pu, query_.goal); });
    return;
  }
  // One of the start's: on to what it sees, as the start itself.
  std::vector<std::uint32_t> seen;
  g.nodes_linked_to(pu, seen);
  for (const std::uint32_t c : seen) link(c, [&] { return leg_cost(pu, g.position(c)); });
  for (std::size_t k = 0; k < regions_.corners().size(); ++k) {
    if (g.index().visible(pu, regions_.corners()[k]))
      link(region_node(k), [&] { return regions_.cost(pu, regions_.corners()[k]); });
  }
  if (g.index().visible(pu, query_.goal)) {
    goal_links_.push_back(u);
    link(temp(1), [&] { return leg_cost(pu, query_.goal); });
  }
  goal_edge_links(u, pu, link);
}

template <class Link>
void VisGraphPlanner::successors(NodeId u, Link&& link) {
  const VisibilityGraph& g = map_->graph();
  const Vec2 pu = node_position(u);
  if (u == temp(0)) {
    if (direct_) {
      link(temp(1), [&] { return distance(pu, query_.goal); });
    } else if (params_.shortcut) {
      link(temp(2), [&] { return distance(pu, temp_pos_[2]); });
    } else {
      for (const NodeId c : start_links_) link(c, [&] { return leg_cost(pu, g.position(c)); });
      for (const auto& [c, cost] : start_region_links_) link(c, [k = cost] { return k; });
      for (const auto& [c, cost] : start_road_links_) link(c, [k = cost] { return k; });
      if (start_goal_cost_ >= 0) link(temp(1), [&] { return start_goal_cost_; });
      for (std::size_t k = 0; k < edge_points_.size(); ++k) {
        if (!edge_points_[k].goal) link(edge_base_ + k, [&] { return leg_cost(pu, edge_points_[k].pos); });
      }
      goal_edge_links(u, pu, link);
    }
    return;
  }
  if (!edge_points_.empty() && u >= edge_base_) {
    edge_point_successors(u, pu, link);
    return;
  }
  if (road_nodes() && u >= road_base_) {
    road_point_successors(u, pu, link);
    goal_edge_links(u, pu, link);
    return;
  }
  if (u >= temp(0) + 4) {  // a region corner
    const std::uint32_t k = std::uint32_t(u - temp(0) - 4);
    for (const visgraph::WeightedRegions::Link& l : regions_.links(k)) {
      link(l.graph_node ? NodeId(l.to) : region_node(l.to), [&] { return l.cost; });
    }
    if (road_nodes()) {
      for (const visgraph::RoadNetLink& l : network_.region_links(k))
        link(road_base_ + l.to, [&] { return l.cost; });
    }
    if (g.index().visible(pu, query_.goal)) {
      goal_links_.push_back(u);
      link(temp(1), [&] { return regions_.cost(pu, query_.goal); });
    }
    goal_edge_links(u, pu, link);
    return;
  }
  if (u == temp(3)) {
    link(temp(1), [&] { return distance(pu, query_.goal); });
    return;
  }
  if (u < corners_) {
    for (const std::uint32_t v : corner_links(std::uint32_t(u)))
      link(v, [&] { return leg_cost(pu, g.position(v)); });
    if (weighing()) {
      for (const visgraph::WeightedRegions::Link& l : regions_.graph_links(std::uint32_t(u))) {
        link(region_node(l.to), [&] { return l.cost; });
      }
    }
    if (road_nodes()) {
      for (const visgraph::RoadNetLink& l : network_.corner_links(std::uint32_t(u)))
        link(road_base_ + l.to, [&] { return l.cost; });
    }
    if (!params_.shortcut && g.links_to(u, query_.goal)) {
      goal_links_.push_back(u);
      link(temp(1), [&] { return leg_cost(pu, query_.goal); });
    }
    goal_edge_links(u, pu, link);
  }
  // The shortcut's boundary links, out of its first crossing point and into its last.
  for (const WalkLink& w : walks_) {
    if (w.from == u) link(w.to, [&] { return w.cost; });
  }
}

// The visibility graph as planner/search's best-first loop sees it: a node's successors
// are dispatched on its kind (the start, a corner, a region corner, a road point, a
// joining point, the shortcut's crossing points) by successors(), each link's cost
// computed only when the loop needs it; a node's parent is the node it was reached from,
// and its h, kept for visit_nodes(), the straight distance to the goal times the scale.
// The goal is expanded like any node (kExpandsTarget): it is reached from many corners
// and its cost is final when it is expanded.
class VisGraphPlanner::Model {
 public:
  static constexpr bool kExpandsTarget = true;

  explicit Model(VisGraphPlanner& planner) : p_(planner) {}

  bool tracing() const { return p_.observer_ != nullptr; }
  void emit(SearchEventKind kind, int side, NodeId node, NodeId parent, double g, double h) const {
    p_.emit(kind, side, node, parent, g, h);
  }
  double heuristic(NodeId n) const { return p_.heuristic(p_.node_position(n)); }
  NodeId parent(NodeId, const NodeState& s) const { return s.parent; }
  double key(double f) const { return f; }

  template <class Relax>
  void successors(NodeId u, const NodeState&, Relax&& relax) {
    p_.successors(
        u, [&](NodeId v, auto&& cost) __attribute__((always_inline)) {
          // h once per improvement, whichever of the loop and the parent record asks first.
          double h = 0;
          bool known = false;
          const auto heuristic = [&] {
            if (!known) {
              h = p_.heuristic(p_.node_position(v));
              known = true;
            }
            return h;
          };
          relax(
              v,
              [&](NodeState& s) {
                s.parent = u;
                s.h = heuristic();
              },
              cost, heuristic);
        });
  }

 private:
  VisGraphPlanner& p_;
};

SearchStatus VisGraphPlanner::start(const PathQuery& query) {
  query_ = query;
  result_ = PathResult{};
  start_links_.clear();
  goal_links_.clear();
  walks_.clear();
  edge_points_.clear();
  direct_ = false;
  temp_pos_ = {query.start, query.goal, query.start, query.goal};
  if (observer_) observer_->on_start(query);
  map_ = &visgraph::VisGraphMap::of(world_, class_, obstacle_params_, params_.memory);
  limited_ = nullptr;
  revision_ = world_.revision();
  if (!map_->ok()) {
    corners_ = 0;
    // Over the memory budget, the message says so itself; otherwise it names the bad item.
    if (map_->error().code == ErrorCode::Limit) return fail(SearchStatus::Invalid, map_->error().to_string());
    return fail(SearchStatus::Invalid, "the obstacles could not be built: " + map_->error().to_string());
  }
  const VisibilityGraph& g = map_->graph();
  limited_ = params_.limits.any() ? &visgraph::LimitedLinks::of(world_, class_, obstacle_params_,
                                                                params_.limits, params_.memory)
                                  : nullptr;
  corners_ = g.node_count();
  if (params_.weighted && !params_.shortcut) prepare_regions();
  start_region_links_.clear();
  start_goal_cost_ = -1;
  road_temps_.clear();
  start_road_links_.clear();
  if (exact_roads()) prepare_network();
  road_base_ = NodeId(corners_ + 4 + (weighing() ? regions_.corners().size() : 0));
  road_temp_base_ = NodeId(road_base_ + (road_nodes() ? network_.points().size() : 0));
  const std::size_t nodes =
      road_temp_base_ + (road_nodes() ? 4 * network_.pieces().size() : 0) + kMaxEdgePoints;
  if (!state_ || state_->cell_count() != nodes) {
    state_ = std::make_unique<PagedNodeState<NodeState>>(nodes);
  } else {
    state_->next_search();
  }
  result_.stats.extra = {{"corners", double(corners_)},
                         {"links", double(limited_ ? limited_->link_count() : g.link_count())},
                         {"links_unlimited", double(g.link_count())},
                         {"rings", double(g.obstacles().rings.size())}};
  if (params_.weighted && regions_revision_ == map().inputs_revision() && regions_.dropped() > 0)
    result_.stats.extra.push_back({"regions_not_weighed", double(regions_.dropped())});

  const Vec2 points[2] = {query.start, query.goal};
  const char* names[2] = {"start", "goal"};
  for (int k = 0; k < 2; ++k) {
    if (!g.obstacles().free_box.contains(points[k])) {
      char r[48];
      std::snprintf(r, sizeof r, "%.6g", obstacle_params_.radius);
      return fail(SearchStatus::Invalid, describe_point(names[k], points[k]) +
                                             " is outside the world, or within " + r +
                                             " m of its edge (the unit's radius)");
    }
    if (g.index().inside(points[k])) {
      char r[48];
      std::snprintf(r, sizeof r, "%.6g", obstacle_params_.radius);
      return fail(SearchStatus::Invalid, describe_point(names[k], points[k]) +
                                             " is inside an obstacle inflated by the unit's radius (" + r +
                                             " m)");
    }
  }
  if (road_pass_on()) prepare_roads();
  if (params_.shortcut) {
    link_shortcut();
  } else {
    link_exact();
    link_roads();
    // The query's turning points on the sides of the slow regions holding its ends.
    edge_base_ = NodeId(road_temp_base_ + road_temps_.size());
    if (weighing()) {
      add_edge_points(query.start, false);
      add_edge_points(query.goal, true);
    }
  }
  result_.stats.extra.push_back(
      {"start_links",
       double(direct_ ? 1 : start_links_.size() + start_region_links_.size() + start_road_links_.size())});
  if (road_nodes()) {
    result_.stats.extra.push_back({"road_points", double(network_.points().size())});
    result_.stats.extra.push_back({"road_links", double(network_.along_count() + network_.entry_count())});
  }

  Model model(*this);
  search_.start(model, *state_, temp(0), temp(1), result_.stats);
  state_->at(temp(0)).h = heuristic(query.start);
  result_.status = SearchStatus::Running;
  return result_.status;
}

void VisGraphPlanner::link_exact() {
  const VisibilityGraph& g = map_->graph();
  direct_ = g.index().visible(query_.start, query_.goal);
  if (direct_ && (weighing() || road_nodes())) {
    // The straight line may cross slow ground, or a road may be cheaper: a way round may win.
    direct_ = false;
    start_goal_cost_ = leg_cost(query_.start, query_.goal);
  }
  if (direct_) return;
  if (weighing()) {
    for (std::size_t k = 0; k < regions_.corners().size(); ++k) {
      if (g.index().visible(query_.start, regions_.corners()[k])) {
        start_region_links_.push_back({region_node(k), regions_.cost(query_.start, regions_.corners()[k])});
      }
    }
  }
  std::vector<std::uint32_t> seen;
  g.nodes_linked_to(query_.start, seen);
  start_links_.assign(seen.begin(), seen.end());
  // The goal's links are tested as corners are expanded (step): A* expands far fewer
  // corners than there are, and a corner's link to the goal matters only once expanded.
}

void VisGraphPlanner::link_roads() {
  piece_temps_.assign(road_nodes() ? network_.pieces().size() : 0, {});
  if (!road_nodes()) return;
  const visgraph::SegmentIndex& index = map_->graph().index();
  const std::vector<Vec2>& pts = network_.points();
  for (std::uint32_t e = 0; e < network_.end_count(); ++e) {
    if (index.visible(query_.start, pts[e]))
      start_road_links_.push_back({road_base_ + e, leg_cost(query_.start, pts[e])});
  }
  // The start's and the goal's own joining points on every piece they see.
  for (int k = 0; k < 2; ++k) {
    const Vec2 q = k == 0 ? query_.start : query_.goal;
    for (std::uint32_t p = 0; p < network_.pieces().size(); ++p) {
      const visgraph::RoadPiece& piece = network_.pieces()[p];
      double xs[2];
      const int n = visgraph::joining_points(piece, q, xs);
      for (int i = 0; i < n; ++i) {
        const Vec2 x = piece.a + piece.dir * xs[i];
        if (!index.visible(q, x)) continue;
        const std::uint32_t id = std::uint32_t(road_temps_.size());
        road_temps_.push_back(TempRoadPoint{x, p, xs[i], k == 1 ? leg_cost(x, q) : -1.0});
        piece_temps_[p].push_back(id);
        if (k == 0) start_road_links_.push_back({road_temp_base_ + id, leg_cost(q, x)});
      }
    }
  }
}

double VisGraphPlanner::cost_without_roads(std::vector<Vec2>* path) {
  if (!plain_) {
    VisGraphParams p = params_;
    p.roads = RoadMode::Off;
    plain_ = std::make_unique<VisGraphPlanner>(world_, class_, p, name_);
  }
  const PathResult& r = find_path(*plain_, query_);
  if (r.status != SearchStatus::Found) return -1;
  if (path) *path = r.points;
  return r.cost;
}

bool VisGraphPlanner::link_shortcut() {
  const visgraph::SegmentIndex& index = map_->graph().index();
  direct_ = index.visible(query_.start, query_.goal);
  if (direct_) return true;
  const std::vector<visgraph::Crossing> hits = index.crossings(query_.start, query_.goal);
  if (hits.empty()) {
    direct_ = true;  // cannot happen when the line is blocked; kept total
    return true;
  }
  const Vec2 d = query_.goal - query_.start;
  temp_pos_[2] = query_.start + d * hits.front().t;
  temp_pos_[3] = query_.start + d * hits.back().t;
  walk_to_corners(temp_pos_[2], hits.front().vertex, false);
  walk_to_corners(temp_pos_[3], hits.back().vertex, true);
  for (const WalkLink& w : walks_) {
    if (w.to == temp(3)) {
      goal_links_.push_back(w.from);
    } else {
      start_links_.push_back(w.to);
    }
  }
  return true;
}

void VisGraphPlanner::walk_to_corners(Vec2 from, std::uint32_t edge_vertex, bool reverse) {
  const VisibilityGraph& g = map_->graph();
  const visgraph::SegmentIndex& index = g.index();
  const NodeId point = reverse ? temp(3) : temp(2);
  for (int dir = 0; dir < 2; ++dir) {
    // Forward from the edge's end vertex, backward from its start vertex.
    std::uint32_t x = dir == 0 ? index.next(edge_vertex) : edge_vertex;
    Vec2 at = from;
    WalkLink link;
    for (std::size_t guard = 0; guard < index.vertex_count(); ++guard) {
      link.cost += distance(at, index.position(x));
      at = index.position(x);
      if (g.node_of_vertex(x) != std::numeric_limits<std::uint32_t>::max()) {
        const NodeId corner = g.node_of_vertex(x);
        if (reverse) {
          std::reverse(link.via.begin(), link.via.end());
          link.from = corner;
          link.to = point;
        } else {
          link.from = point;
          link.to = corner;
        }
        walks_.push_back(std::move(link));
        break;
      }
      link.via.push_back(at);
      x = dir == 0 ? index.next(x) : index.prev(x);
    }
  }
}

SearchStatus VisGraphPlanner::step(std::uint64_t max_expansions) {
  if (result_.status != SearchStatus::Running) return result_.status;
  if (world_.revision() != revision_) {
    return fail(SearchStatus::Invalid, "the world changed during the search: start the query again");
  }
  ++result_.stats.steps;
  Model model(*this);
  switch (search_.step(model, *state_, result_.stats, max_expansions)) {
    case SearchStatus::Found: finish(); break;
    case SearchStatus::NoPath:
      return fail(SearchStatus::NoPath, "the open list ran empty: the goal is unreachable");
    default: break;
  }
  return result_.status;
}

void VisGraphPlanner::finish() {
  std::vector<NodeId> nodes;
  for (NodeId n = temp(1); n != kNoNode; n = state_->at(n).parent) nodes.push_back(n);
  std::reverse(nodes.begin(), nodes.end());
  std::vector<Vec2> pts;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (i > 0) {
      for (const WalkLink& w : walks_) {
        if (w.from == nodes[i - 1] && w.to == nodes[i]) pts.insert(pts.end(), w.via.begin(), w.via.end());
      }
    }
    const Vec2 p = node_position(nodes[i]);
    // A road point where the path runs straight on along the road is left out.
    if (road_nodes() && pts.size() >= 2 && i + 1 < nodes.size() && nodes[i - 1] >= road_base_ &&
        nodes[i] >= road_base_ && nodes[i + 1] >= road_base_) {
      const Vec2 a = pts.back(), c = node_position(nodes[i + 1]);
      const double turn = (p.x - a.x) * (c.y - p.y) - (p.y - a.y) * (c.x - p.x);
      const double ahead = (p.x - a.x) * (c.x - p.x) + (p.y - a.y) * (c.y - p.y);
      if (std::abs(turn) <= 1e-9 * (distance(a, p) + distance(p, c)) && ahead > 0) continue;
    }
    if (pts.empty() || pts.back() != p) pts.push_back(p);
  }
  result_.cost = state_->at(temp(1)).g[0];
  if (params_.shortcut && !direct_) {
    const visgraph::SegmentIndex& index = map_->graph().index();
    if (observer_) observer_->on_refine("graph path", pts);
    result_.stats.extra.push_back({"length_graph", polyline_length(pts)});
    cull_front(pts, index);
    std::reverse(pts.begin(), pts.end());
    cull_front(pts, index);
    std::reverse(pts.begin(), pts.end());
    if (observer_) observer_->on_refine("culled path", pts);
    result_.cost = polyline_length(pts);
  }
  road_joins_.clear();
  road_free_path_.clear();
  if (road_nodes()) {
    // Exact roads: the optimum without them, searched again only when the path takes one.
    const bool on_road = std::any_of(nodes.begin(), nodes.end(), [&](NodeId n) { return n >= road_base_; });
    double plain = result_.cost;
    if (on_road) {
      std::vector<Vec2> free_path;
      plain = params_.compare_without_roads ? cost_without_roads(&free_path) : -1.0;
      road_free_path_ = std::move(free_path);
    }
    result_.stats.extra.push_back({"cost_without_roads", plain});
    result_.stats.extra.push_back(
        {"road_legs",
         double(std::count_if(nodes.begin(), nodes.end(), [&](NodeId n) { return n >= road_base_; }))});
  }
  if (road_pass_on() && !roads_.empty()) {
    // Seed 004's road pass: the path found, its links to the roads near it, the roads.
    const double step = std::max(1.0, params_.road_reach / 2);
    visgraph::RoadPass pass = visgraph::road_pass(pts, roads_, map_->graph().index(), params_.road_reach,
                                                  step, [this](Vec2 a, Vec2 b) { return leg_cost(a, b); });
    result_.stats.extra.push_back({"cost_without_roads", result_.cost});
    if (observer_) {
      std::vector<Vec2> road_links;
      for (const visgraph::RoadLink& l : roads_.links)
        road_links.insert(road_links.end(), {roads_.points[l.a], roads_.points[l.b]});
      const StructureShape shapes[] = {
          {StructureShape::Kind::Links, "road link", road_links, 0, 0, StructureRole::Graph},
          {StructureShape::Kind::Links, "road join", pass.joins, 0, 1, StructureRole::Graph},
      };
      observer_->on_refine("visibility path", pts);
      observer_->on_refine("road pass", pass.points, shapes);
    }
    road_joins_ = std::move(pass.joins);
    if (pass.on_road) {
      road_free_path_ = pts;
      pts = std::move(pass.points);
      result_.cost = pass.cost;
    }
  }
  result_.stats.extra.push_back({"own_cost", result_.cost});
  const CostGrid& grid = world_.grid(class_);
  if (params_.world_cost && !params_.shortcut && !grid.uniform_cost()) {
    // The search prices ground by regions of the raster's terrain and roads as lines;
    // the world prices every cell, road cells divided by their factor. Legs in sight
    // that the world charges less for than the path they skip are taken
    // (planner/world/path_shortcuts.hpp): never dearer.
    const visgraph::SegmentIndex& index = map_->graph().index();
    Shortcuts cut = cheaper_shortcuts(grid, pts, kShortcutWindow,
                                      [&index](Vec2 a, Vec2 b) { return index.visible(a, b); });
    if (cut.dropped > 0) {
      pts = std::move(cut.points);
      if (observer_) observer_->on_refine("shortcuts", pts);
    }
  }
  result_.points = std::move(pts);
  result_.length = polyline_length(result_.points);
  if (params_.world_cost) result_.cost = polyline_cost(grid, result_.points);
  result_.stats.extra.push_back({"goal_links", double(direct_ ? 1 : goal_links_.size())});
  result_.nodes = std::move(nodes);
  result_.status = SearchStatus::Found;
  if (observer_) {
    for (const NodeId n : result_.nodes) {
      observer_->on_event(SearchEvent{SearchEventKind::Path, 0, n, kNoNode, state_->at(n).g[0], 0.0});
    }
  }
}

void VisGraphPlanner::prepare_roads() {
  if (roads_revision_ == map().inputs_revision()) return;
  roads_ = visgraph::build_road_graph(world_.scenario().roads, map_->graph().index(),
                                      std::max(1.0, params_.road_reach / 2));
  roads_revision_ = map_->inputs_revision();
}

std::unique_ptr<ResultDependency> VisGraphPlanner::result_dependency() const {
  if (result_.status != SearchStatus::Found || world_.revision() != revision_) return nullptr;
  const double pad = obstacle_params_.radius + obstacle_params_.max_error +
                     world_.scenario().world.cell_size + 8.0 / visgraph::kScale;
  return std::make_unique<VisGraphDependency>(result_.points, pad, params_.shortcut, world_, class_);
}

void VisGraphPlanner::visit_nodes(const std::function<void(const NodeView&)>& fn) const {
  if (result_.status == SearchStatus::Idle || world_.revision() != revision_ || !state_) return;
  state_->for_each_reached([&](NodeId n, const NodeState& st) {
    fn(NodeView{n, 0, st.g[0], st.h, st.parent, st.closed != 0});
  });
}

void VisGraphPlanner::visit_path_structure(StructureVisitor& visitor) const {
  if (result_.status == SearchStatus::Idle || world_.revision() != revision_ || map_ == nullptr ||
      !map_->ok())
    return;
  const VisibilityGraph& g = map_->graph();
  std::vector<Vec2> links;
  if (direct_) {
    links = {query_.start, query_.goal};
  } else if (params_.shortcut) {
    links = {query_.start, temp_pos_[2], temp_pos_[3], query_.goal};
  } else {
    for (const NodeId c : start_links_) links.insert(links.end(), {query_.start, g.position(c)});
    for (const auto& [c, cost] : start_region_links_)
      links.insert(links.end(), {query_.start, node_position(c)});
  }
  for (const auto& [c, cost] : start_road_links_) links.insert(links.end(), {query_.start, node_position(c)});
  if (!links.empty() && !visitor.full()) {
    visitor.shape(
        StructureShape{StructureShape::Kind::Links, "start link", links, 0, 0, StructureRole::Graph});
  }
  links.clear();
  if (!direct_ && !params_.shortcut) {
    for (const NodeId c : goal_links_) links.insert(links.end(), {node_position(c), query_.goal});
  }
  if (!links.empty() && !visitor.full()) {
    visitor.shape(
        StructureShape{StructureShape::Kind::Links, "goal link", links, 0, 1, StructureRole::Graph});
  }
  for (const WalkLink& w : walks_) {
    if (visitor.full()) return;
    std::vector<Vec2> line;
    line.push_back(node_position(w.from));
    line.insert(line.end(), w.via.begin(), w.via.end());
    line.push_back(node_position(w.to));
    visitor.shape(
        StructureShape{StructureShape::Kind::Polyline, "boundary link", line, 0, 0, StructureRole::Graph});
  }
  if (result_.status == SearchStatus::Found && road_nodes() && !road_free_path_.empty() && !visitor.full()) {
    visitor.shape(StructureShape{StructureShape::Kind::Polyline, "path without roads", road_free_path_, 0, 0,
                                 StructureRole::Graph});
  }
  if (result_.status != SearchStatus::Found || road_joins_.empty() || visitor.full()) return;
  // The road pass: its links from the path to the roads, and the path it replaced.
  visitor.shape(
      StructureShape{StructureShape::Kind::Links, "road join", road_joins_, 0, 1, StructureRole::Graph});
  if (!road_free_path_.empty() && !visitor.full()) {
    visitor.shape(StructureShape{StructureShape::Kind::Polyline, "path without roads", road_free_path_, 0, 0,
                                 StructureRole::Graph});
  }
}

void VisGraphPlanner::visit_structure(const Box2& bounds, StructureVisitor& visitor) const {
  if (bounds.empty()) return;
  const visgraph::VisGraphMap& m = map();
  if (!m.ok()) return;
  const VisibilityGraph& g = m.graph();
  const visgraph::LimitedLinks* limited =
      params_.limits.any()
          ? &visgraph::LimitedLinks::of(world_, class_, obstacle_params_, params_.limits, params_.memory)
          : nullptr;
  for (const visgraph::Ring& ring : g.obstacles().rings) {
    if (visitor.full()) return;
    if (ring.frame) continue;
    Box2 box;
    for (const Vec2& p : ring.points) box = box.united(Box2::of(p));
    if (!box.overlaps(bounds)) continue;
    if (ring.hole) {
      std::vector<Vec2> closed = ring.points;
      closed.push_back(ring.points.front());
      visitor.shape(StructureShape{StructureShape::Kind::Polyline, "obstacle hole", closed});
    } else {
      visitor.shape(StructureShape{StructureShape::Kind::Polygon, "inflated obstacle", ring.points});
    }
  }
  std::vector<Vec2> corners;
  std::vector<std::uint8_t> in(g.node_count(), 0);
  for (std::uint32_t i = 0; i < g.node_count(); ++i) {
    if (bounds.contains(g.position(i))) {
      in[i] = 1;
      corners.push_back(g.position(i));
    }
  }
  if (visitor.full()) return;
  visitor.shape(StructureShape{StructureShape::Kind::Points, "corner", corners});
  for (std::uint32_t i = 0; i < g.node_count(); ++i) {
    if (!in[i]) continue;
    if (visitor.full()) return;
    const Vec2 a = g.position(i);
    for (const std::uint32_t j : limited ? limited->links(i) : g.links(i)) {
      if (j < i && in[j]) continue;  // drawn from j
      if (visitor.full()) return;
      const Vec2 b = g.position(j);
      visitor.edge(StructureEdge{i, j, a, b, "link", distance(a, b), false});
    }
  }
  if (params_.weighted && regions_revision_ == map().inputs_revision()) {
    // Slow ground: the regions (value: their factor) and the links of their corners.
    for (const visgraph::WeightedRegion& r : regions_.regions()) {
      if (visitor.full()) return;
      if (r.box.overlaps(bounds)) {
        visitor.shape(StructureShape{StructureShape::Kind::Polygon, "weighted region", r.ring, r.factor});
      }
    }
    for (std::uint32_t k = 0; k < regions_.corners().size(); ++k) {
      const Vec2 a = regions_.corners()[k];
      if (!bounds.contains(a)) continue;
      for (const visgraph::WeightedRegions::Link& l : regions_.links(k)) {
        if (visitor.full()) return;
        if (!l.graph_node && l.to < k) continue;  // drawn from the other end
        const Vec2 b = l.graph_node ? g.position(l.to) : regions_.corners()[l.to];
        visitor.edge(StructureEdge{region_node(k), l.graph_node ? NodeId(l.to) : region_node(l.to), a, b,
                                   "region link", l.cost, false});
      }
    }
  }
  if (exact_roads() && network_revision_ == map().inputs_revision()) {
    // Exact roads: the road points and their links (along the roads, entries and exits).
    const std::vector<Vec2>& pts = network_.points();
    std::vector<Vec2> in_bounds;
    for (const Vec2& p : pts) {
      if (bounds.contains(p)) in_bounds.push_back(p);
    }
    if (visitor.full()) return;
    visitor.shape(StructureShape{StructureShape::Kind::Points, "road point", in_bounds});
    const NodeId base = NodeId(g.node_count() + 4 + (weighing() ? regions_.corners().size() : 0));
    for (std::uint32_t k = 0; k < pts.size(); ++k) {
      for (const visgraph::RoadNetLink& l : network_.links(k)) {
        if (visitor.full()) return;
        if (l.kind == visgraph::RoadEnd::RoadPoint && l.to < k) continue;  // drawn from the other end
        const NodeId v = l.kind == visgraph::RoadEnd::Corner         ? NodeId(l.to)
                         : l.kind == visgraph::RoadEnd::RegionCorner ? region_node(l.to)
                                                                     : base + l.to;
        const Vec2 b = l.kind == visgraph::RoadEnd::Corner         ? g.position(l.to)
                       : l.kind == visgraph::RoadEnd::RegionCorner ? regions_.corners()[l.to]
                                                                   : pts[l.to];
        if (!bounds.contains(pts[k]) && !bounds.contains(b)) continue;
        visitor.edge(StructureEdge{base + k, v, pts[k], b, l.along ? "road" : "road entry", l.cost, false});
      }
    }
    return;
  }
  if (!road_pass_on() || roads_revision_ != map().inputs_revision()) return;
  // The road graph of the last query's world (road pieces and junctions).
  for (const visgraph::RoadLink& l : roads_.links) {
    if (visitor.full()) return;
    const Vec2 a = roads_.points[l.a], b = roads_.points[l.b];
    if (!bounds.contains(a) && !bounds.contains(b)) continue;
    visitor.edge(StructureEdge{kNoNode, kNoNode, a, b, l.junction ? "road junction" : "road", l.cost, false});
  }
}

}  // namespace pathscope