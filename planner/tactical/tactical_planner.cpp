// Tactical planning, seed 001 ("Better Safe Than Sorry", BSTS), sections 3 and 5.
//
// Both searches run A* on the 8-connected grid with g(x) = g(y) + cost(y, x), cost(y, x)
// the model's cost of the segment between the cell centres (threat_field.hpp) times the
// mean terrain multiplier of the two cells. Each move is evaluated with its ends in a
// fixed order (lower cell id first), so costs are symmetric bit for bit and the backward
// search runs on the same costs as the forward one.
//
// Heuristics (h_scale_ times):
//   - Bsts: the model's cost of the straight line from the cell's centre to the centre
//     of the other end's cell (the goal forwards, the start backwards), times the smallest
//     terrain multiplier. It may overestimate: threats the line crosses can be walked
//     around, and safe areas it misses can be walked through; that is what biases the
//     search (seed, section 3).
//   - Admissible: the Euclidean distance d to the other end, less the part of [0, d] that
//     some ally can cover, times the smallest cost per metre outside allies and the
//     smallest multiplier. An ally centred at c with radius r holds only points whose
//     distance to the target lies in [|c - t| - r, |c - t| + r]. Along any path the
//     distance to the target falls from d to 0, and every value it last falls through
//     outside allies costs at least a metre of outside travel: so the metres walked outside
//     allies are at least d less the measure of those intervals' union within [0, d]. The
//     estimate is 1-Lipschitz in d with slope 0 inside the union, so it is consistent for
//     moves whose cost integrates the model along them. Informative with allies, which
//     a plain "distance times smallest cost" is not (allies cost 0).
//   - Exact: none.
//   - Waypoint (not in the seed): the BSTS line cost, or, when cheaper, the line cost to a
//     waypoint plus the cheapest chain of line costs from it through other waypoints to the
//     target. Waypoints are every ally's centre (safe metres are free, so the optimum hops
//     through allies the straight line misses) and two points beside every threat, 1.05
//     radii from its centre across the start-goal line (the way round it). Still
//     inadmissible; the waypoints' chains to both targets are computed once per query
//     (Dijkstra over the waypoints).
//   - Coarse (not in the seed; the seed's closing remark, "perhaps using a hierarchical
//     search"): an estimate of the grid's own cost-to-go, computed once per query on a
//     coarse graph and read per cell. The graph: a lattice of about 256 cell centres (one
//     every `stride` cells each way) joined in 16 directions, plus 16 points round every
//     circle (half a cell outside a threat, half a cell inside an ally), each joined to
//     every node within 1.5 lattice cells. An edge costs its straight line's model cost
//     times the octile factor of its direction (an 8-connected path along a line is that
//     much longer than it) times the mean terrain multiplier along it; a line over a
//     blocked cell is no edge. Dijkstra from each end over this graph gives every node
//     its cost-to-go; a cell's heuristic is the cheapest line to a corner of its lattice
//     cell or to a rim point inside it plus that node's cost-to-go (the line to the
//     target itself within two lattice cells of it). The rim points carry what the
//     lattice is too coarse to see: a gap between two threats, the free sliver of an ally
//     a threat mostly covers, the way round a rim. In an open field the heuristic is the
//     octile distance, exact on the grid. Still inadmissible (near rims it may over- or
//     underestimate), so the meeting rule below is a heuristic stop here too; the halves
//     agree well enough that the repair's corridor is not run.
//
// Meeting rule. mu is the best g_forward(v) + g_backward(v) seen over every cell v
// reached by both sides, kept up to date at each relaxation (not the first cell where
// the frontiers touch). The search stops when mu <= max(min f forward, min f backward);
// with a consistent heuristic (Admissible, Exact) the path is then optimal (the classic
// bidirectional bound, as in planner/grid). The waypoint mode stops when the frontiers
// first meet instead. With BSTS the rule is heuristic, and the two
// half-paths may disagree near the meeting cell (seed, section 5: "sub-optimal bumps
// ... where the two paths meet ... could have been removed with a more robust search
// tree intersection algorithm"). The joined path is repaired: loops are cut (a cell
// visited twice); then the cheapest path inside a corridor of `corridor` cells on each
// side of it is found (Dijkstra, equal costs broken by length, so free stretches inside
// safe areas run straight); then every one-cell detour (a, b, c with a and c neighbours
// and the move a-c no dearer than a-b-c) is cut. The repair never raises the cost, so
// exact modes stay optimal; its cells count as explored, and stats.extra says how many
// cells it removed and how much cost it saved.

#include "planner/tactical/tactical_planner.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numbers>
#include <unordered_map>

#include "planner/core/open_list.hpp"
#include "planner/tactical/tactical_dependency.hpp"

namespace pathscope::tactical {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

std::string format_number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

}  // namespace

Status check_constants(double c1, double c2) {
  if (std::abs(c1 + c2 - 1.0) <= kConstantsTolerance && c1 >= 0 && c2 >= 0) return Ok{};
  return make_error(ErrorCode::Value, "",
                    "parameters c1 + c2 must equal 1 (seed 001's cost model), but c1 = " + format_number(c1) +
                        " and c2 = " + format_number(c2) + " sum to " + format_number(c1 + c2));
}

TacticalPlanner::TacticalPlanner(const PlanningWorld& world, std::size_t movement_class,
                                 const TacticalParams& params, std::string name)
    : PlannerBase(std::move(name)),
      world_(world),
      grid_(world.grid(movement_class)),
      class_(movement_class),
      params_(params),
      field_(world, movement_class, params.model) {}

NodeGeometry TacticalPlanner::node_geometry(NodeId node) const {
  const glm::ivec2 c = grid_.cell(node);
  const double s = grid_.cell_size();
  const Box2 box{{c.x * s, c.y * s}, {(c.x + 1) * s, (c.y + 1) * s}};
  return NodeGeometry{NodeShape::Box, box.center(), box, {}};
}

double TacticalPlanner::move_cost(NodeId a, NodeId b) const {
  const NodeId lo = std::min(a, b), hi = std::max(a, b);
  const double terrain = 0.5 * (grid_.multiplier(lo) + grid_.multiplier(hi));
  return field_.cost(grid_.center(lo), grid_.center(hi)) * terrain;
}

double TacticalPlanner::heuristic(int side, NodeId cell) const {
  if (h_scale_ == 0 || ends_[1 - side] == kNoNode) return 0;
  const Vec2 p = grid_.center(cell), target = grid_.center(ends_[1 - side]);
  if (params_.mode == TacticalMode::Bsts) return h_scale_ * field_.cost(p, target);
  if (params_.mode == TacticalMode::Coarse) return h_scale_ * coarse_heuristic(side, cell);
  if (params_.mode == TacticalMode::Waypoint) {
    double best = field_.cost(p, target);
    // By increasing tail: once a tail alone reaches the best, so do all after it.
    for (const std::uint32_t i : waypoint_order_[side]) {
      if (waypoint_tail_[side][i] >= best) break;
      best = std::min(best, field_.cost(p, waypoints_[i]) + waypoint_tail_[side][i]);
    }
    return h_scale_ * best;
  }
  const Vec2 d = target - p;
  const double dist = std::sqrt(d.x * d.x + d.y * d.y);
  if (params_.mode != TacticalMode::Admissible) return h_scale_ * dist;
  // Less what allies may cover of [0, dist] (ally_reach_: sorted, disjoint).
  double covered = 0;
  for (const Reach& r : ally_reach_[side]) {
    if (r.lo >= dist) break;
    covered = r.covered_before + (std::min(r.hi, dist) - r.lo);
  }
  return h_scale_ * std::max(0.0, dist - covered);
}

double TacticalPlanner::grid_line_cost(Vec2 a, Vec2 b) const {
  const Vec2 d = b - a;
  const double ax = std::abs(d.x), ay = std::abs(d.y);
  const double len = std::sqrt(d.x * d.x + d.y * d.y);
  if (!(len > 0)) return 0;
  // An 8-connected path along the line is longer than it by the octile factor.
  const double octile = (std::max(ax, ay) + (std::sqrt(2.0) - 1) * std::min(ax, ay)) / len;
  if (coarse_open_field_) return field_.cost(a, b) * octile * grid_.min_multiplier();
  // Mean terrain multiplier along the line; a blocked cell closes it.
  double weighted = 0;
  bool blocked = false;
  walk_cells(a, b, grid_.cell_size(), grid_.width(), grid_.height(), [&](int x, int y, double t0, double t1) {
    const double m = grid_.multiplier(grid_.index(x, y));
    if (!(m > 0)) blocked = true;
    weighted += m * (t1 - t0);
  });
  if (blocked) return kInf;
  return field_.cost(a, b) * octile * (weighted / len);
}

void TacticalPlanner::build_coarse() {
  // One lattice node every `stride` cells in each direction (the last row and column
  // always included), about kCoarseNodes of them whatever the resolution (a finer lattice
  // costs more per query than it gains on these fields).
  constexpr double kCoarseNodes = 256;
  const int w = grid_.width(), h = grid_.height();
  // No blocked cell and one multiplier: lines need not walk their cells.
  coarse_open_field_ = grid_.uniform_cost();
  for (std::uint32_t i = 0; coarse_open_field_ && i < grid_.cell_count(); ++i)
    coarse_open_field_ = grid_.passable(i);
  coarse_stride_ = std::max(2, int(std::lround(std::sqrt(double(w) * double(h) / kCoarseNodes))));
  const auto axis = [&](int cells, std::vector<int>& at, std::vector<int>& of) {
    at.clear();
    for (int i = 0; i < cells; i += coarse_stride_) at.push_back(i);
    if (at.back() != cells - 1) at.push_back(cells - 1);
    of.assign(std::size_t(cells), 0);
    for (std::size_t k = 0; k + 1 < at.size(); ++k) {
      for (int i = at[k]; i < at[k + 1]; ++i) of[std::size_t(i)] = int(k);
    }
    of[std::size_t(cells - 1)] = std::max(0, int(at.size()) - 2);
  };
  axis(w, coarse_x_, coarse_col_);
  axis(h, coarse_y_, coarse_row_);
  const int nx = int(coarse_x_.size()), ny = int(coarse_y_.size());
  const std::size_t lattice = std::size_t(nx) * std::size_t(ny);
  coarse_pos_.clear();
  for (int y = 0; y < ny; ++y) {
    for (int x = 0; x < nx; ++x)
      coarse_pos_.push_back(grid_.center(grid_.index(coarse_x_[std::size_t(x)], coarse_y_[std::size_t(y)])));
  }
  // Rim points: kRim round every threat half a cell outside it and every ally half a cell
  // inside it, where the optimum turns round a threat, slips between two, or runs along
  // the free edge of an ally (a gap or a sliver finer than the lattice).
  constexpr int kRim = 16;
  const double cell = grid_.cell_size();
  const std::size_t buckets = std::size_t(std::max(1, nx - 1)) * std::size_t(std::max(1, ny - 1));
  coarse_bucket_.assign(buckets + 1, 0);
  std::vector<std::uint32_t> rim_bucket;
  const auto bucket_of = [&](std::uint32_t c) {
    const glm::ivec2 q = grid_.cell(c);
    return std::size_t(coarse_row_[std::size_t(q.y)]) * std::size_t(std::max(1, nx - 1)) +
           std::size_t(coarse_col_[std::size_t(q.x)]);
  };
  for (int kind = 0; kind < 2; ++kind) {
    for (const Disc& d : kind == 0 ? field_.threats() : field_.allies()) {
      const double r = kind == 0 ? d.radius + 0.5 * cell : d.radius - 0.5 * cell;
      if (!(r > 0)) continue;
      for (int k = 0; k < kRim; ++k) {
        const double a = 2 * std::numbers::pi * k / kRim;
        const Vec2 q = d.center + Vec2{std::cos(a), std::sin(a)} * r;
        const auto c = grid_.cell_at(q);
        if (!c || !grid_.passable(*c)) continue;
        coarse_pos_.push_back(q);
        rim_bucket.push_back(std::uint32_t(bucket_of(*c)));
      }
    }
  }
  const std::size_t n = coarse_pos_.size();
  coarse_links_.clear();
  // Rim points by lattice cell (counting sort), for the heuristic's look-up.
  for (const std::uint32_t b : rim_bucket) ++coarse_bucket_[b + 1];
  for (std::size_t b = 0; b < buckets; ++b) coarse_bucket_[b + 1] += coarse_bucket_[b];
  coarse_rims_.assign(rim_bucket.size(), 0);
  {
    std::vector<std::uint32_t> fill(coarse_bucket_.begin(), coarse_bucket_.end() - 1);
    for (std::size_t i = 0; i < rim_bucket.size(); ++i)
      coarse_rims_[fill[rim_bucket[i]]++] = std::uint32_t(lattice + i);
  }
  // Edges, each priced once by its line's cost: the lattice's sixteen directions (the
  // eight neighbours and the knight moves), and from each rim point to every node within
  // 1.5 lattice cells.
  std::vector<std::vector<std::pair<std::uint32_t, double>>> adj(n);
  const auto link = [&](std::size_t i, std::size_t j) {
    const double c = grid_line_cost(coarse_pos_[i], coarse_pos_[j]);
    ++coarse_lines_;
    if (c == kInf) return;
    coarse_links_.push_back(coarse_pos_[i]);
    coarse_links_.push_back(coarse_pos_[j]);
    adj[i].push_back({std::uint32_t(j), c});
    adj[j].push_back({std::uint32_t(i), c});
  };
  constexpr int kOff[8][2] = {{1, 0}, {0, 1}, {1, 1}, {-1, 1}, {2, 1}, {1, 2}, {-1, 2}, {-2, 1}};
  for (int y = 0; y < ny; ++y) {
    for (int x = 0; x < nx; ++x) {
      const std::size_t i = std::size_t(y) * std::size_t(nx) + std::size_t(x);
      if (!grid_.passable(grid_.index(coarse_x_[std::size_t(x)], coarse_y_[std::size_t(y)]))) continue;
      for (int e = 0; e < 8; ++e) {
        const int tx = x + kOff[e][0], ty = y + kOff[e][1];
        if (tx < 0 || ty < 0 || tx >= nx || ty >= ny) continue;
        link(i, std::size_t(ty) * std::size_t(nx) + std::size_t(tx));
      }
    }
  }
  const double reach = 1.5 * coarse_stride_ * cell;
  for (std::size_t i = lattice; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      if (j >= lattice && j <= i) continue;
      const Vec2 d = coarse_pos_[j] - coarse_pos_[i];
      if (d.x * d.x + d.y * d.y > reach * reach) continue;
      if (j < lattice &&
          !grid_.passable(grid_.index(coarse_x_[j % std::size_t(nx)], coarse_y_[j / std::size_t(nx)])))
        continue;
      link(i, j);
    }
  }
  for (int side = 0; side < 2; ++side) {
    // Dijkstra from the side's target: the nodes within two lattice cells of it start at
    // their line's cost to it.
    std::vector<double>& to = coarse_to_[side];
    to.assign(n, kInf);
    const NodeId target = ends_[1 - side];
    const Vec2 tp = grid_.center(target);
    OpenList open;
    const double near = 2.0 * coarse_stride_ * cell;
    for (std::size_t i = 0; i < n; ++i) {
      if (std::abs(coarse_pos_[i].x - tp.x) > near || std::abs(coarse_pos_[i].y - tp.y) > near) continue;
      if (i < lattice &&
          !grid_.passable(grid_.index(coarse_x_[i % std::size_t(nx)], coarse_y_[i / std::size_t(nx)])))
        continue;
      to[i] = grid_line_cost(coarse_pos_[i], tp);
      ++coarse_lines_;
      if (to[i] < kInf) open.push(OpenEntry{to[i], 0.0f, NodeId(i)});
    }
    std::vector<std::uint8_t> done(n, 0);
    while (!open.empty()) {
      const OpenEntry top = open.pop();
      const std::size_t u = top.node;
      if (done[u]) continue;
      done[u] = 1;
      for (const auto& [v, c] : adj[u]) {
        if (to[u] + c < to[v]) {
          to[v] = to[u] + c;
          open.push(OpenEntry{to[v], 0.0f, NodeId(v)});
        }
      }
    }
  }
}

double TacticalPlanner::coarse_heuristic(int side, NodeId cell) const {
  // The cheapest of: a line to a corner of the lattice cell holding `cell`, or to a rim
  // point inside it, plus that node's cost-to-go; near the target, the line straight to it.
  const Vec2 p = grid_.center(cell);
  const glm::ivec2 c = grid_.cell(cell);
  const NodeId target = ends_[1 - side];
  const glm::ivec2 t = grid_.cell(target);
  const std::vector<double>& to = coarse_to_[side];
  double best = kInf;
  if (std::max(std::abs(c.x - t.x), std::abs(c.y - t.y)) <= 2 * coarse_stride_)
    best = grid_line_cost(p, grid_.center(target));
  const std::size_t nx = coarse_x_.size(), ny = coarse_y_.size();
  const int x0 = coarse_col_[std::size_t(c.x)], y0 = coarse_row_[std::size_t(c.y)];
  const auto consider = [&](std::size_t i) {
    if (to[i] < best) best = std::min(best, grid_line_cost(p, coarse_pos_[i]) + to[i]);
  };
  for (int y = y0; y <= std::min(int(ny) - 1, y0 + 1); ++y) {
    for (int x = x0; x <= std::min(int(nx) - 1, x0 + 1); ++x) consider(std::size_t(y) * nx + std::size_t(x));
  }
  const std::size_t b = std::size_t(y0) * std::max<std::size_t>(1, nx - 1) + std::size_t(x0);
  for (std::uint32_t k = coarse_bucket_[b]; k < coarse_bucket_[b + 1]; ++k) consider(coarse_rims_[k]);
  // Walled off from every node: the straight line's cost, as BSTS.
  if (best == kInf) best = field_.cost(p, grid_.center(target)) * grid_.min_multiplier();
  return best;
}

bool TacticalPlanner::resolve_ends(const PathQuery& query) {
  const Vec2 points[2] = {query.start, query.goal};
  const char* names[2] = {"start", "goal"};
  for (int k = 0; k < 2; ++k) {
    char where[96];
    std::snprintf(where, sizeof where, "%s (%.6g, %.6g)", names[k], points[k].x, points[k].y);
    const auto cell = grid_.cell_at(points[k]);
    if (!cell) {
      result_.status = SearchStatus::Invalid;
      result_.message = std::string(where) + " is outside the map";
      return false;
    }
    if (!grid_.passable(*cell)) {
      result_.status = SearchStatus::Invalid;
      result_.message = std::string(where) + " is inside a cell that class \"" +
                        world_.scenario().classes[class_].name + "\" cannot enter";
      return false;
    }
    ends_[k] = *cell;
  }
  if (!world_.regions(class_).connected(ends_[0], ends_[1])) {
    result_.status = SearchStatus::NoPath;
    result_.message = "start and goal are in different connected regions";
    return false;
  }
  return true;
}

/// The grid and cost model as the bidirectional loop sees them: each cell's moves, their
/// costs (move_cost()), the mode's heuristic computed once per cell and side, and the
/// mode's stopping rule.
class TacticalPlanner::Model {
 public:
  explicit Model(TacticalPlanner& planner) : p_(planner) {}

  bool tracing() const { return p_.observer_ != nullptr; }
  void emit(SearchEventKind kind, int side, NodeId node, NodeId parent, double g, double h) const {
    p_.emit(kind, side, node, parent, g, h);
  }
  double heuristic(int side, NodeId n) const { return p_.heuristic(side, n); }
  NodeId parent(int side, NodeId, const TacticalNode& state) const { return state.parent[side]; }
  /// The waypoint mode stops when the frontiers first meet; the others by the classic bound.
  bool meeting_is_final(double mu, double top_f0, double top_f1) const {
    return p_.params_.mode == TacticalMode::Waypoint || mu <= std::max(top_f0, top_f1);
  }

  template <class Relax>
  void successors(int side, NodeId u, const TacticalNode& cur, Relax&& relax) const {
    (void)cur;
    const std::uint8_t mask = p_.grid_.moves(u);
    const auto& offsets = p_.grid_.offsets();
    for (int d = 0; d < 8; ++d) {
      if (!(mask & (1u << d))) continue;
      const NodeId v = NodeId(std::int64_t(u) + offsets[d]);
      relax(
          v, [side, u](TacticalNode& c) { c.parent[side] = u; }, [&] { return p_.move_cost(u, v); },
          [&](TacticalNode& c) {
            double& memo = c.h[side];
            if (std::isnan(memo)) memo = p_.heuristic(side, v);
            return memo;
          });
    }
  }

 private:
  const TacticalPlanner& p_;
};

SearchStatus TacticalPlanner::start(const PathQuery& query) {
  result_ = PathResult{};
  search_.reset();
  ends_[0] = ends_[1] = kNoNode;
  explored_ = 0;
  repairs_ = 0;
  repair_gain_ = 0;
  corridor_cells_ = 0;
  path_exposure_.clear();
  if (observer_) observer_->on_start(query);
  if (const Status constants = check_constants(params_.model.c1, params_.model.c2); !constants)
    return fail(SearchStatus::Invalid, constants.error().message);
  // The world may have changed since the last query: threats, allies, obstacles.
  field_ = ThreatField(world_, class_, params_.model);
  if (!resolve_ends(query)) return result_.status;
  if (state_.cell_count() != grid_.cell_count()) state_ = PagedNodeState<TacticalNode>(grid_.cell_count());
  state_.next_search();
  switch (params_.mode) {
    case TacticalMode::Bsts:
    case TacticalMode::Waypoint: h_scale_ = params_.weight * grid_.min_multiplier(); break;
    case TacticalMode::Coarse: h_scale_ = params_.weight; break;  // terrain is walked along each line
    case TacticalMode::Admissible:
      h_scale_ = field_.min_factor_outside_allies() * grid_.min_multiplier();
      break;
    case TacticalMode::Exact: h_scale_ = 0; break;
  }
  for (int side = 0; side < 2; ++side) {
    std::vector<Reach>& reach = ally_reach_[side];
    reach.clear();
    if (params_.mode != TacticalMode::Admissible) continue;
    const Vec2 target = grid_.center(ends_[1 - side]);
    for (const Disc& a : field_.allies()) {
      const Vec2 v = a.center - target;
      const double c = std::sqrt(v.x * v.x + v.y * v.y);
      reach.push_back({std::max(0.0, c - a.radius), c + a.radius, 0});
    }
    std::sort(reach.begin(), reach.end(), [](const Reach& x, const Reach& y) { return x.lo < y.lo; });
    std::size_t kept = 0;  // merged in place
    for (const Reach& r : reach) {
      if (kept > 0 && r.lo <= reach[kept - 1].hi) {
        reach[kept - 1].hi = std::max(reach[kept - 1].hi, r.hi);
      } else {
        reach[kept++] = r;
      }
    }
    reach.resize(kept);
    double covered = 0;
    for (Reach& r : reach) {
      r.covered_before = covered;
      covered += r.hi - r.lo;
    }
  }
  waypoints_.clear();
  if (params_.mode == TacticalMode::Waypoint) {
    for (const Disc& a : field_.allies()) waypoints_.push_back(a.center);
    const Vec2 along = grid_.center(ends_[1]) - grid_.center(ends_[0]);
    const double len = std::sqrt(along.x * along.x + along.y * along.y);
    if (len > 0) {
      const Vec2 side{-along.y / len, along.x / len};
      const Vec2 ahead{along.x / len, along.y / len};
      for (const Disc& t : field_.threats()) {
        // Four points round it: the way round either side, and before and after it.
        // Eight points round it, 1.05 radii out: across the start-goal line, along it, and
        // between.
        for (const Vec2& d : {side, -side, ahead, -ahead}) {
          const Vec2 diagonal = Vec2{d.x - d.y, d.y + d.x} * (1 / std::sqrt(2.0));
          waypoints_.push_back(t.center + d * (1.05 * t.radius));
          waypoints_.push_back(t.center + diagonal * (1.05 * t.radius));
        }
      }
    }
  }
  // A waypoint's tail: the cheapest chain of line costs from it to the target through
  // other waypoints (Dijkstra on the small complete graph; several allies in a row, or a
  // way round two threats, are then seen).
  const std::size_t w = waypoints_.size();
  std::vector<double> hop(w * w);
  for (std::size_t i = 0; i < w; ++i) {
    for (std::size_t j = 0; j < w; ++j)
      hop[i * w + j] = i == j ? 0.0 : field_.cost(waypoints_[i], waypoints_[j]);
  }
  for (int side = 0; side < 2; ++side) {
    std::vector<double>& tail = waypoint_tail_[side];
    tail.clear();
    for (const Vec2& p : waypoints_) tail.push_back(field_.cost(p, grid_.center(ends_[1 - side])));
    std::vector<std::uint8_t> done(w, 0);
    for (std::size_t round = 0; round < w; ++round) {
      std::size_t best = w;
      for (std::size_t i = 0; i < w; ++i) {
        if (!done[i] && (best == w || tail[i] < tail[best])) best = i;
      }
      done[best] = 1;
      for (std::size_t i = 0; i < w; ++i) {
        if (!done[i]) tail[i] = std::min(tail[i], hop[i * w + best] + tail[best]);
      }
    }
    std::vector<std::uint32_t>& order = waypoint_order_[side];
    order.resize(w);
    for (std::size_t i = 0; i < w; ++i) order[i] = std::uint32_t(i);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return tail[a] < tail[b]; });
  }
  coarse_lines_ = 0;
  if (params_.mode == TacticalMode::Coarse) build_coarse();
  Model model(*this);
  search_.start(model, state_, ends_, result_.stats);
  result_.status = SearchStatus::Running;
  return result_.status;
}

SearchStatus TacticalPlanner::step(std::uint64_t max_expansions) {
  if (result_.status != SearchStatus::Running) return result_.status;
  ++result_.stats.steps;
  Model model(*this);
  const SearchStatus status = search_.step(model, state_, result_.stats, max_expansions);
  if (status == SearchStatus::NoPath) result_.message = "an open list ran empty: the goal is unreachable";
  if (status != SearchStatus::Running) finish(status);
  return result_.status;
}

std::vector<NodeId> TacticalPlanner::corridor_search(const std::vector<NodeId>& nodes) {
  const std::size_t n = grid_.cell_count();
  if (corridor_stamp_.size() != n) {
    corridor_stamp_.assign(n, 0);
    corridor_g_.assign(n, kInf);
    corridor_len_.assign(n, kInf);
    corridor_parent_.assign(n, kNoNode);
    corridor_done_.assign(n, 0);
  }
  if (++corridor_generation_ == 0) {  // wrapped: forget every stamp
    std::fill(corridor_stamp_.begin(), corridor_stamp_.end(), 0);
    corridor_generation_ = 1;
  }
  const std::uint32_t generation = corridor_generation_;
  const int k = params_.corridor;
  for (const NodeId p : nodes) {
    const glm::ivec2 c = grid_.cell(p);
    for (int y = c.y - k; y <= c.y + k; ++y) {
      for (int x = c.x - k; x <= c.x + k; ++x) {
        if (!grid_.in_bounds(x, y)) continue;
        const std::uint32_t i = grid_.index(x, y);
        if (corridor_stamp_[i] == generation || !grid_.passable(i)) continue;
        corridor_stamp_[i] = generation;
        corridor_g_[i] = corridor_len_[i] = kInf;
        corridor_parent_[i] = kNoNode;
        corridor_done_[i] = 0;
        ++corridor_cells_;
        const TacticalNode* s = state_.find(i);
        if (!s || s->closed == 0) ++explored_;  // examined by the repair only
      }
    }
  }
  // Dijkstra inside the corridor; among equal costs the shorter path wins, so free
  // stretches (safe areas) are crossed straight.
  const NodeId from = nodes.front(), to = nodes.back();
  OpenList open;
  corridor_g_[from] = corridor_len_[from] = 0;
  open.push(OpenEntry{0.0, 0.0f, from});
  const auto& offsets = grid_.offsets();
  while (!open.empty()) {
    const NodeId u = open.pop().node;
    if (corridor_done_[u]) continue;
    corridor_done_[u] = 1;
    if (u == to) break;
    const std::uint8_t mask = grid_.moves(u);
    for (int d = 0; d < 8; ++d) {
      if (!(mask & (1u << d))) continue;
      const NodeId v = NodeId(std::int64_t(u) + offsets[d]);
      if (corridor_stamp_[v] != generation || corridor_done_[v]) continue;
      const double ng = corridor_g_[u] + move_cost(u, v);
      const double nl = corridor_len_[u] + kDirLength[d];
      if (ng < corridor_g_[v] || (ng == corridor_g_[v] && nl < corridor_len_[v])) {
        corridor_g_[v] = ng;
        corridor_len_[v] = nl;
        corridor_parent_[v] = u;
        open.push(OpenEntry{ng, float(nl), v});
      }
    }
  }
  if (!corridor_done_[to]) return nodes;  // cannot happen: the path itself lies in the corridor
  std::vector<NodeId> out;
  for (NodeId c = to; c != kNoNode; c = corridor_parent_[c]) out.push_back(c);
  std::reverse(out.begin(), out.end());
  return out;
}

std::vector<NodeId> TacticalPlanner::repair(std::vector<NodeId> nodes) {
  const auto path_cost = [&](const std::vector<NodeId>& p) {
    double c = 0;
    for (std::size_t i = 1; i < p.size(); ++i) c += move_cost(p[i - 1], p[i]);
    return c;
  };
  const double before = path_cost(nodes);
  const std::size_t cells_before = nodes.size();
  // Loops: keep the first visit of each cell and jump to its last one.
  std::unordered_map<NodeId, std::size_t> last;  // lookup only
  for (std::size_t i = 0; i < nodes.size(); ++i) last[nodes[i]] = i;
  std::vector<NodeId> out;
  out.reserve(nodes.size());
  for (std::size_t i = 0; i < nodes.size(); i = last[nodes[i]] + 1) out.push_back(nodes[i]);
  // The coarse mode meets by the bidirectional bound on a heuristic that bends where the
  // optimum does: its halves agree, and a corridor would triple the cells it explores.
  if (params_.corridor > 0 && params_.mode != TacticalMode::Coarse && out.size() > 2)
    out = corridor_search(out);
  // One-cell detours, until none remains (each removal shortens the path; an equal cost
  // is cut too, so that free stretches do not wander).
  bool changed = true;
  while (changed) {
    changed = false;
    for (std::size_t i = 0; i + 2 < out.size(); ++i) {
      const glm::ivec2 a = grid_.cell(out[i]), c = grid_.cell(out[i + 2]);
      const int dx = c.x - a.x, dy = c.y - a.y;
      if (std::abs(dx) > 1 || std::abs(dy) > 1 || (dx == 0 && dy == 0)) continue;
      int dir = 0;
      while (kDirDx[dir] != dx || kDirDy[dir] != dy) ++dir;
      if (!(grid_.moves(out[i]) & (1u << dir))) continue;
      const double via = move_cost(out[i], out[i + 1]) + move_cost(out[i + 1], out[i + 2]);
      if (move_cost(out[i], out[i + 2]) <= via) {
        out.erase(out.begin() + std::ptrdiff_t(i + 1));
        changed = true;
      }
    }
  }
  repairs_ = cells_before > out.size() ? cells_before - out.size() : 0;
  repair_gain_ = before - path_cost(out);
  return out;
}

void TacticalPlanner::finish(SearchStatus status) {
  const double total = double(grid_.cell_count());
  explored_ = search_.closed_nodes();
  result_.stats.extra = {{"forward_expansions", double(search_.side_expansions(0))},
                         {"backward_expansions", double(search_.side_expansions(1))},
                         {"explored", double(explored_)},
                         {"explored_percent", total > 0 ? 100.0 * double(explored_) / total : 0.0}};
  if (status != SearchStatus::Found) {
    result_.status = status;
    return;
  }
  const std::uint64_t searched = explored_;  // before the repair's corridor
  std::vector<NodeId> nodes = repair(search_.path(Model(*this), state_));
  result_.stats.extra[2].second = double(explored_);  // the repair's corridor included
  result_.stats.extra[3].second = total > 0 ? 100.0 * double(explored_) / total : 0.0;
  // Figures along the path, summed from the start (every mode sums the same way).
  std::vector<double> cumulative(nodes.size(), 0.0);
  double cost = 0, model = 0, threat = 0, safe = 0;
  result_.points.clear();
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    result_.points.push_back(grid_.center(nodes[i]));
    if (i == 0) continue;
    const NodeId lo = std::min(nodes[i - 1], nodes[i]), hi = std::max(nodes[i - 1], nodes[i]);
    const Exposure e = field_.exposure(grid_.center(lo), grid_.center(hi));
    path_exposure_.push_back(e);
    const double m = exposure_cost(e, params_.model.c1, params_.model.c2);
    model += m;
    cost += m * (0.5 * (grid_.multiplier(lo) + grid_.multiplier(hi)));
    threat += e.threat;
    safe += e.safe;
    cumulative[i] = cost;
  }
  result_.nodes = std::move(nodes);
  result_.cost = cost;
  result_.length = polyline_length(result_.points);
  result_.status = SearchStatus::Found;
  const glm::ivec2 m = grid_.cell(search_.meeting());
  result_.stats.extra.insert(result_.stats.extra.begin(), {{"length", result_.length},
                                                           {"model_cost", model},
                                                           {"threat_exposure", threat},
                                                           {"safe_distance", safe}});
  result_.stats.extra.emplace_back("meet_x", double(m.x));
  result_.stats.extra.emplace_back("meet_y", double(m.y));
  result_.stats.extra.emplace_back("repaired_cells", double(repairs_));
  result_.stats.extra.emplace_back("repair_gain", repair_gain_);
  result_.stats.extra.emplace_back("corridor_cells", double(corridor_cells_));
  // The seed's figures, with no repair: cells the two searches expanded, and the cost of
  // their half-paths as joined at the meeting cell.
  result_.stats.extra.emplace_back("searched", double(searched));
  result_.stats.extra.emplace_back("joined_cost", cost + repair_gain_);
  if (params_.mode == TacticalMode::Coarse) {
    result_.stats.extra.emplace_back("coarse_nodes", double(coarse_pos_.size()));
    result_.stats.extra.emplace_back("coarse_lines", double(coarse_lines_));
  }
  if (observer_) {
    for (std::size_t i = 0; i < result_.nodes.size(); ++i) {
      observer_->on_event(
          SearchEvent{SearchEventKind::Path, 0, result_.nodes[i], kNoNode, cumulative[i], 0.0});
    }
  }
}

void TacticalPlanner::visit_structure(const Box2& bounds, StructureVisitor& visitor) const {
  const double s = grid_.cell_size();
  if (bounds.empty()) return;
  const int x0 = std::max(0, int(std::floor(bounds.lo.x / s))),
            y0 = std::max(0, int(std::floor(bounds.lo.y / s)));
  const int x1 = std::min(grid_.width(), int(std::floor(bounds.hi.x / s)) + 1);
  const int y1 = std::min(grid_.height(), int(std::floor(bounds.hi.y / s)) + 1);
  const double c1 = params_.model.c1;
  for (int y = y0; y < y1; ++y) {
    for (int x = x0; x < x1; ++x) {
      if (visitor.full()) return;
      const std::uint32_t i = grid_.index(x, y);
      const Box2 box{{x * s, y * s}, {(x + 1) * s, (y + 1) * s}};
      double value = kInf;
      if (grid_.passable(i)) {
        const double f = grid_.multiplier(i) * field_.factor_at(box.center());
        value = c1 > 0 ? 1.0 + f / c1 : (f > 0 ? 4.0 : 1.0);
      }
      visitor.cell(StructureCell{NodeShape::Box, box, {}, value, i});
    }
  }
}

void TacticalPlanner::visit_path_structure(StructureVisitor& visitor) const {
  if (params_.mode == TacticalMode::Coarse && !coarse_pos_.empty() && result_.status != SearchStatus::Idle &&
      !visitor.full()) {
    // The coarse graph whose cost-to-go is the heuristic: its lines and its nodes.
    StructureShape lines;
    lines.kind = StructureShape::Kind::Links;
    lines.name = "coarse line";
    lines.points = coarse_links_;
    lines.role = StructureRole::Graph;
    visitor.shape(lines);
    if (visitor.full()) return;
    StructureShape nodes;
    nodes.kind = StructureShape::Kind::Points;
    nodes.name = "coarse node";
    nodes.points = coarse_pos_;
    nodes.role = StructureRole::Graph;
    visitor.shape(nodes);
  }
  if (result_.status != SearchStatus::Found) return;
  for (std::size_t i = 0; i + 1 < result_.points.size() && i < path_exposure_.size(); ++i) {
    if (visitor.full()) return;
    const Exposure& e = path_exposure_[i];
    const Vec2 seg[2] = {result_.points[i], result_.points[i + 1]};
    StructureShape shape;
    shape.kind = StructureShape::Kind::Polyline;
    shape.name = "exposure";
    shape.points = seg;
    shape.value = e.length > 0 ? std::min(1.0, e.threat / e.length) : 0.0;
    shape.role = StructureRole::Region;
    visitor.shape(shape);
  }
  if (search_.meeting() != kNoNode && !visitor.full()) {
    const Vec2 p[1] = {grid_.center(search_.meeting())};
    StructureShape shape;
    shape.kind = StructureShape::Kind::Points;
    shape.name = "meeting point";
    shape.points = p;
    shape.value = 1.0;
    shape.role = StructureRole::Region;
    visitor.shape(shape);
  }
}

std::unique_ptr<ResultDependency> TacticalPlanner::result_dependency() const {
  if (result_.status != SearchStatus::Found) return nullptr;
  std::vector<std::uint64_t> bits((grid_.cell_count() + 63) / 64, 0);
  if (params_.mode == TacticalMode::Coarse) {
    // The heuristic read lines over the whole grid: any cell may change the path.
    std::fill(bits.begin(), bits.end(), ~std::uint64_t(0));
  } else {
    state_.for_each_reached([&](NodeId n, const TacticalNode& s) {
      if (s.closed) bits[n >> 6] |= std::uint64_t(1) << (n & 63);
    });
  }
  return std::make_unique<TacticalDependency>(world_, class_, std::move(bits), params_.model.occlusion);
}

void TacticalPlanner::visit_nodes(const std::function<void(const NodeView&)>& fn) const {
  if (result_.status == SearchStatus::Idle || ends_[0] == kNoNode || state_.cell_count() == 0) return;
  for (int side = 0; side < 2; ++side) {
    state_.for_each_reached([&](NodeId n, const TacticalNode& s) {
      if (s.g[side] == kInf) return;
      NodeView view;
      view.node = n;
      view.side = std::uint8_t(side);
      view.g = s.g[side];
      view.h = heuristic(side, n);
      view.parent = s.parent[side];
      view.closed = (s.closed >> side) & 1u;
      fn(view);
    });
  }
}

}  // namespace pathscope::tactical
