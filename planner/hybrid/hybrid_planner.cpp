// The hybrid planner (seed 004, "6 Conclusions", "Use visibility graphs for large-scale
// movement, A* for local pathfinding": a high-level visibility graph over the impassable
// features, then A* along each edge of its path, taking advantage of the local terrain).
//
//  1. Route: the visgraph planner (its obstacles inflated by the class's radius) finds
//     the broad route: start, corners, goal. Its search is stepped within the budget.
//  2. Waypoints: each corner becomes a leg end. An inflated corner lies radius +
//     max_error from its obstacle, but the grid's coverage rule blocks every cell an
//     obstacle overlaps, so a corner may fall in a blocked cell: the nearest passable
//     cell (Chebyshev ring by ring, up to snap_cells; ties by distance, then index) stands
//     for it. With radius 0 a corner usually lies on a cell corner, shared by four cells:
//     the passable one the route bends through (the least distance from the leg's start
//     through its centre to the route's next point) stands for it, not the one its
//     coordinates round down to, which may lie beyond the corner and cost a detour.
//  3. Legs: one grid A* (the same engine as `astar`, octile heuristic, terrain
//     multipliers, no corner cutting) per pair of consecutive waypoints; the cell paths
//     are joined. Each leg is optimal between its ends, so the whole costs at least A*'s
//     optimum and at most what the route's corridor allows.
//  4. Fallback: a leg (or the route) that finds no way is replaced by one A* from that
//     leg's start to the goal, so the hybrid answers NoPath only when the grid does (the
//     grid of the moves that keep the radius, below).
//
// Clearance (issue 32). The route keeps the unit's radius from obstacles; grid legs, as
// every grid planner, would not, and a tracked vehicle's refined path came within 0.5 m
// of walls its route kept 2.5 m from. With a radius > 0, legs (and the fallback) search
// only the cells and moves that keep it from every blocked cell and the world's edge
// (leg_clearance.hpp); corners snap to the nearest such cell's centre; a start or goal
// nearer a blocked cell than the radius is Invalid (no path from it keeps the radius),
// and the first and last legs go through the start's and goal's cell centres when the
// straight leg would come too near.

#include "planner/hybrid/hybrid_planner.hpp"

#include "planner/hybrid/hybrid_dependency.hpp"
#include "planner/search/node_views.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <utility>

namespace pathscope {

HybridPlanner::HybridPlanner(const PlanningWorld& world, std::size_t movement_class, HybridParams params,
                             std::string name)
    : PlannerBase(std::move(name)),
      world_(world),
      class_(movement_class),
      params_(params),
      route_(world, movement_class, params.route, "visgraph"),
      legs_(world, movement_class, GridAStarParams{1.0}, "astar") {}

void HybridPlanner::RouteRelay::on_refine(std::string_view stage, std::span<const Vec2> polyline,
                                          std::span<const StructureShape> shapes) {
  if (owner_.observer_) owner_.observer_->on_refine("route: " + std::string(stage), polyline, shapes);
}

void HybridPlanner::LegRelay::on_event(const SearchEvent& event) {
  if (!owner_.observer_ || event.kind == SearchEventKind::Path) return;
  SearchEvent e = event;
  e.g += owner_.leg_offset_;  // g from the query's start: the legs before cost this much
  owner_.observer_->on_event(e);
}

Vec2 HybridPlanner::snap(Vec2 p, Vec2 from, Vec2 to) const {
  const CostGrid& grid = world_.grid(class_);
  const std::optional<std::uint32_t> at = grid.cell_at(p);
  if (!at) return p;
  if (!clearance_) {
    // A corner on a cell line touches two or four cells: the passable one the route bends
    // through. (Corners are rounded to 1/1024 m; lines are whole multiples of the cell.)
    const double s = grid.cell_size();
    const glm::ivec2 c = grid.cell(*at);
    const double lx = std::round(p.x / s), ly = std::round(p.y / s);
    const bool on_x = std::abs(p.x / s - lx) < 1e-9, on_y = std::abs(p.y / s - ly) < 1e-9;
    if (on_x || on_y) {
      // The cells either side of each line the corner lies on.
      const int x0 = on_x ? int(lx) - 1 : c.x, x1 = on_x ? int(lx) : c.x;
      const int y0 = on_y ? int(ly) - 1 : c.y, y1 = on_y ? int(ly) : c.y;
      const auto open = [&](int x, int y) { return grid.in_bounds(x, y) && grid.passable(grid.index(x, y)); };
      // A convex corner of one blocked cell: the route bends round it through the cell
      // diagonally opposite.
      if (on_x && on_y) {
        int blocked = 0, bx = 0, by = 0;
        for (int y = y0; y <= y1; ++y) {
          for (int x = x0; x <= x1; ++x) {
            if (open(x, y)) continue;
            ++blocked;
            bx = x;
            by = y;
          }
        }
        if (blocked == 1 && open(x0 + x1 - bx, y0 + y1 - by))
          return grid.center(grid.index(x0 + x1 - bx, y0 + y1 - by));
      }
      double best = std::numeric_limits<double>::infinity();
      std::uint32_t best_cell = 0;
      for (int y = y0; y <= y1; ++y) {
        for (int x = x0; x <= x1; ++x) {
          if (!open(x, y)) continue;
          const std::uint32_t i = grid.index(x, y);
          const Vec2 m = grid.center(i);
          const double d = std::hypot(m.x - from.x, m.y - from.y) + std::hypot(to.x - m.x, to.y - m.y);
          if (d < best || (d == best && i < best_cell)) {
            best = d;
            best_cell = i;
          }
        }
      }
      if (best < std::numeric_limits<double>::infinity()) return grid.center(best_cell);
    }
  }
  // Without a radius a passable cell keeps the corner itself; with one, corners become
  // cell centres that keep it (its own cell's first).
  const auto usable = [&](std::uint32_t i) { return clearance_ ? clearance_->clear(i) : grid.passable(i); };
  if (!clearance_ && grid.passable(*at)) return p;
  const glm::ivec2 c = grid.cell(*at);
  for (int d = clearance_ ? 0 : 1; d <= params_.snap_cells; ++d) {
    double best = std::numeric_limits<double>::infinity();
    std::uint32_t best_cell = 0;
    for (int y = c.y - d; y <= c.y + d; ++y) {
      for (int x = c.x - d; x <= c.x + d; ++x) {
        if (std::max(std::abs(x - c.x), std::abs(y - c.y)) != d || !grid.in_bounds(x, y)) continue;
        const std::uint32_t i = grid.index(x, y);
        if (!usable(i)) continue;
        const Vec2 q = grid.center(i) - p;
        const double dist = q.x * q.x + q.y * q.y;
        if (dist < best || (dist == best && i < best_cell)) {
          best = dist;
          best_cell = i;
        }
      }
    }
    if (best < std::numeric_limits<double>::infinity()) return grid.center(best_cell);
  }
  return p;  // none near: the leg fails and the fallback takes over
}

void HybridPlanner::update_clearance() {
  const double radius = route_.radius();
  if (!(radius > 0)) {
    clearance_.reset();
    legs_.set_moves(nullptr);
    return;
  }
  if (!clearance_ || clearance_revision_ != world_.revision() || clearance_->radius() != radius) {
    const WorldInfo& w = world_.scenario().world;
    clearance_.emplace(world_.grid(class_), radius, Vec2{w.width, w.height});
    clearance_revision_ = world_.revision();
  }
  legs_.set_moves(clearance_->moves());
}

std::string HybridPlanner::end_not_clear(const char* what, Vec2 p) const {
  const CostGrid& grid = world_.grid(class_);
  const std::optional<std::uint32_t> at = grid.cell_at(p);
  // Off the grid or in a blocked cell: the grid's own message says so.
  if (!clearance_ || !at || !grid.passable(*at)) return {};
  if (clearance_->clear(*at) && clearance_->clear_segment(p, grid.center(*at))) return {};
  char buf[200];
  std::snprintf(buf, sizeof buf,
                "the %s (%.6g, %.6g) lies within the unit's radius (%.6g m) of a blocked cell or the "
                "world's edge: no path from it keeps the radius",
                what, p.x, p.y, clearance_->radius());
  return buf;
}

void HybridPlanner::keep_clearance_at_ends() {
  if (!clearance_ || result_.points.size() < 2 || result_.nodes.empty()) return;
  const CostGrid& grid = world_.grid(class_);
  std::vector<Vec2>& pts = result_.points;
  const Vec2 first = grid.center(result_.nodes.front());
  if (!clearance_->clear_segment(pts[0], pts[1]) && first != pts[0] && first != pts[1])
    pts.insert(pts.begin() + 1, first);
  const Vec2 last = grid.center(result_.nodes.back());
  const std::size_t n = pts.size();
  if (!clearance_->clear_segment(pts[n - 2], pts[n - 1]) && last != pts[n - 2] && last != pts[n - 1])
    pts.insert(pts.end() - 1, last);
}

SearchStatus HybridPlanner::start(const PathQuery& query) {
  query_ = query;
  result_ = {};
  route_points_.clear();
  waypoints_.clear();
  leg_ = 0;
  fallback_ = false;
  route_expansions_ = leg_expansions_ = leg_pushes_ = 0;
  route_length_ = route_cost_ = 0;
  route_dependency_.reset();
  leg_dependencies_.clear();
  earlier_legs_.clear();
  leg_offset_ = 0;
  leg_started_ = false;
  if (observer_) observer_->on_start(query);
  route_.set_observer(observer_ ? &route_relay_ : nullptr);
  legs_.set_observer(observer_ ? &leg_relay_ : nullptr);
  phase_ = Phase::Route;
  result_.status = SearchStatus::Running;
  update_clearance();
  for (const auto& [what, p] : {std::pair{"start", query.start}, std::pair{"goal", query.goal}}) {
    std::string why = end_not_clear(what, p);
    if (!why.empty()) return finish(SearchStatus::Invalid, std::move(why));
  }
  const SearchStatus s = route_.start(query);
  if (s == SearchStatus::Invalid || s == SearchStatus::NoPath) {
    // The grid decides: one A* from start to goal (Invalid there if a cell is blocked).
    fallback_ = true;
    waypoints_ = {query.start, query.goal};
    phase_ = Phase::Legs;
    leg_status_ = start_leg(query.start, query.goal);
    if (leg_status_ == SearchStatus::Invalid || leg_status_ == SearchStatus::NoPath) {
      return finish(leg_status_, legs_.result().message);
    }
  }
  return result_.status;
}

SearchStatus HybridPlanner::step(std::uint64_t max_expansions) {
  if (phase_ == Phase::Idle || phase_ == Phase::Done) return result_.status;
  std::uint64_t budget = std::max<std::uint64_t>(max_expansions, 1);
  const auto spend = [&](std::uint64_t used) { budget -= std::min(used, budget); };
  if (phase_ == Phase::Route) {
    const std::uint64_t before = route_.result().stats.expansions;
    const SearchStatus s = route_.step(budget);
    const std::uint64_t used = route_.result().stats.expansions - before;
    route_expansions_ += used;
    spend(used);
    if (s == SearchStatus::Running) {
      result_.stats.expansions = route_expansions_;
      return result_.status;
    }
    if (s == SearchStatus::Found) {
      const PathResult& r = route_.result();
      route_points_ = r.points;
      route_length_ = r.length;
      route_cost_ = r.cost;
      route_dependency_ = route_.result_dependency();
      if (observer_) observer_->on_refine("visibility route", route_points_);
      waypoints_.push_back(query_.start);
      for (std::size_t i = 1; i + 1 < route_points_.size(); ++i) {
        const Vec2 w = snap(route_points_[i], waypoints_.back(), route_points_[i + 1]);
        if (w != waypoints_.back()) waypoints_.push_back(w);
      }
      waypoints_.push_back(query_.goal);
    } else {
      fallback_ = true;
      waypoints_ = {query_.start, query_.goal};
    }
    phase_ = Phase::Legs;
    leg_ = 0;
    leg_status_ = start_leg(waypoints_[0], waypoints_[1]);
  }
  while (phase_ == Phase::Legs) {
    if (leg_status_ == SearchStatus::Running) {
      if (budget == 0) break;
      const std::uint64_t before = legs_.result().stats.expansions;
      leg_status_ = legs_.step(budget);
      const std::uint64_t used = legs_.result().stats.expansions - before;
      leg_expansions_ += used;
      spend(used);
      if (leg_status_ == SearchStatus::Running) break;
    }
    leg_pushes_ += legs_.result().stats.pushes;
    if (leg_status_ == SearchStatus::Found) {
      leg_found();
      ++leg_;
      if (leg_ + 1 >= waypoints_.size()) return finish(SearchStatus::Found);
      leg_status_ = start_leg(waypoints_[leg_], waypoints_[leg_ + 1]);
      continue;
    }
    // No way along this leg: one A* from its start to the goal, unless that was it.
    if (fallback_ || leg_ + 2 == waypoints_.size()) return finish(leg_status_, legs_.result().message);
    fallback_ = true;
    waypoints_.resize(leg_ + 1);
    waypoints_.push_back(query_.goal);
    leg_status_ = start_leg(waypoints_[leg_], query_.goal);
  }
  result_.stats.expansions = route_expansions_ + leg_expansions_;
  return result_.status;
}

std::vector<NodeView> HybridPlanner::current_leg_nodes() const {
  std::vector<NodeView> out;
  legs_.visit_nodes([&](const NodeView& v) {
    NodeView w = v;
    w.g += leg_offset_;  // as LegRelay reports it
    out.push_back(w);
  });
  // By node id, as merge_node_views needs (whatever order the leg planner walks them in).
  std::sort(out.begin(), out.end(), [](const NodeView& a, const NodeView& b) { return a.node < b.node; });
  return out;
}

SearchStatus HybridPlanner::start_leg(Vec2 from, Vec2 to) {
  if (leg_started_) earlier_legs_ = merge_node_views(earlier_legs_, current_leg_nodes());
  leg_started_ = true;
  leg_offset_ = result_.cost;
  return legs_.start(PathQuery{from, to});
}

void HybridPlanner::leg_found() {
  const PathResult& r = legs_.result();
  // Legs meet at a waypoint: its point and its cell are the previous leg's last.
  const std::size_t skip_point = result_.points.empty() ? 0 : 1;
  result_.points.insert(result_.points.end(),
                        r.points.begin() + std::ptrdiff_t(std::min(skip_point, r.points.size())),
                        r.points.end());
  const std::size_t skip_node =
      !result_.nodes.empty() && !r.nodes.empty() && r.nodes.front() == result_.nodes.back();
  result_.nodes.insert(result_.nodes.end(), r.nodes.begin() + std::ptrdiff_t(skip_node), r.nodes.end());
  result_.cost += r.cost;
  leg_dependencies_.push_back(legs_.result_dependency());
  if (observer_) observer_->on_refine("legs refined", result_.points);
}

std::unique_ptr<ResultDependency> HybridPlanner::result_dependency() const {
  if (result_.status != SearchStatus::Found || fallback_ || !route_dependency_) return nullptr;
  for (const std::shared_ptr<const ResultDependency>& leg : leg_dependencies_) {
    if (!leg) return nullptr;
  }
  // snap() reads the cells round each corner, up to snap_cells rings out (at least the
  // ring of cells that touch it, for a corner on a cell line).
  const CostGrid& grid = world_.grid(class_);
  std::vector<CellRect> squares;
  for (std::size_t i = 1; i + 1 < route_points_.size(); ++i) {
    const std::optional<std::uint32_t> at = grid.cell_at(route_points_[i]);
    if (!at) continue;
    const glm::ivec2 c = grid.cell(*at);
    // With a radius, snapping reads clearances, which read cells up to reach() farther.
    const int reach = clearance_ ? clearance_->reach() : 0;
    squares.push_back(CellRect{c.x, c.y, c.x + 1, c.y + 1}.expanded(std::max(params_.snap_cells, 1) + reach));
  }
  return std::make_unique<HybridDependency>(route_dependency_, leg_dependencies_, std::move(squares),
                                            clearance_ ? clearance_->reach() : 0,
                                            CellRect{0, 0, grid.width(), grid.height()});
}

SearchStatus HybridPlanner::finish(SearchStatus status, std::string message) {
  phase_ = Phase::Done;
  result_.status = status;
  result_.message = std::move(message);
  SearchStats& st = result_.stats;
  st.expansions = route_expansions_ + leg_expansions_;
  st.pushes = route_.result().stats.pushes + leg_pushes_;
  st.extra = {{"route expansions", double(route_expansions_)},
              {"leg expansions", double(leg_expansions_)},
              {"legs", double(waypoints_.empty() ? 0 : waypoints_.size() - 1)},
              {"route length", route_length_},
              {"route cost", route_cost_},
              {"fallback", fallback_ ? 1.0 : 0.0}};
  if (status != SearchStatus::Found) {
    result_.points.clear();
    result_.nodes.clear();
    result_.cost = result_.length = 0;
    return status;
  }
  keep_clearance_at_ends();
  result_.length = polyline_length(result_.points);
  if (observer_) {
    observer_->on_refine("hybrid path", result_.points);
    // g along the joined cell path, as the grid planners report it.
    const CostGrid& grid = world_.grid(class_);
    double g = 0;
    for (std::size_t i = 0; i < result_.nodes.size(); ++i) {
      if (i > 0) {
        const glm::ivec2 a = grid.cell(result_.nodes[i - 1]), b = grid.cell(result_.nodes[i]);
        for (int dir = 0; dir < 8; ++dir) {
          if (kDirDx[dir] == b.x - a.x && kDirDy[dir] == b.y - a.y)
            g += grid.move_cost(result_.nodes[i - 1], dir);
        }
      }
      observer_->on_event(
          SearchEvent{SearchEventKind::Path, 0, result_.nodes[i], kNoNode, g * grid.cell_size(), 0});
    }
  }
  return status;
}

void HybridPlanner::visit_structure(const Box2& bounds, StructureVisitor& visitor) const {
  class WithoutIds final : public StructureVisitor {
   public:
    explicit WithoutIds(StructureVisitor& inner) : inner_(inner) {}
    void cell(const StructureCell& c) override {
      StructureCell copy = c;
      copy.node = kNoNode;
      inner_.cell(copy);
    }
    void edge(const StructureEdge& e) override {
      StructureEdge copy = e;
      copy.from = copy.to = kNoNode;
      inner_.edge(copy);
    }
    void shape(const StructureShape& s) override { inner_.shape(s); }
    bool full() const override { return inner_.full(); }

   private:
    StructureVisitor& inner_;
  };
  WithoutIds relay(visitor);
  route_.visit_structure(bounds, relay);
}

void HybridPlanner::visit_nodes(const std::function<void(const NodeView&)>& fn) const {
  if (!leg_started_) return;
  for (const NodeView& v : merge_node_views(earlier_legs_, current_leg_nodes())) fn(v);
}

}  // namespace pathscope
