#include "planner/referee/conformance.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <queue>
#include <random>
#include <string>
#include <vector>

#include "planner/core/search_trace.hpp"
#include "planner/referee/path_referee.hpp"
#include "planner/world/planning_world.hpp"

namespace pathscope::referee {

namespace {

// Terrain indices of default_terrain_types().
enum : std::uint8_t {
  kGround = 0,
  kRough = 1,
  kForest = 2,
  kSwamp = 3,
  kNebula = 4,
  kShallow = 5,
  kDeep = 6,
  kWall = 7
};

Scenario generated_world_impl(std::uint64_t seed, bool weighted) {
  std::mt19937_64 rng(seed);
  const auto pick = [&](int lo, int hi) { return int(std::uniform_int_distribution<int>(lo, hi)(rng)); };
  const auto real = [&](double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); };
  const int w = pick(24, 40), h = pick(20, 32);
  Scenario s = make_empty_scenario(w, h, 1.0);
  s.name = "conformance " + std::to_string(seed);
  TileGrid t{w, h, std::vector<std::uint8_t>(std::size_t(w * h), kGround)};
  const auto fill = [&](int x0, int y0, int x1, int y1, std::uint8_t terrain) {
    for (int y = std::max(0, y0); y < std::min(h, y1); ++y)
      for (int x = std::max(0, x0); x < std::min(w, x1); ++x) t.terrain[std::size_t(y * w + x)] = terrain;
  };
  if (weighted) {
    const std::uint8_t kinds[] = {kRough, kSwamp, kNebula, kShallow, kForest};
    for (int k = 0; k < 8; ++k) {
      const int x = pick(0, w - 2), y = pick(0, h - 2);
      fill(x, y, x + pick(2, 8), y + pick(2, 6), kinds[pick(0, 4)]);
    }
  }
  // Tile walls: a few short runs.
  for (int k = 0; k < 6; ++k) {
    const int x = pick(0, w - 1), y = pick(0, h - 1);
    if (pick(0, 1))
      fill(x, y, x + pick(2, 6), y + 1, kWall);
    else
      fill(x, y, x + 1, y + pick(2, 6), kWall);
  }
  // Deep water across the map, a bridge over it (destroyed now and then).
  const int bx = pick(w / 3, 2 * w / 3);
  fill(bx, 0, bx + 2, h, kDeep);
  const double by = pick(3, h - 4) + 0.5;
  s.bridges.push_back(Bridge{100, {bx - 1.5, by}, {bx + 3.5, by}, 3.0, seed % 5 != 0});
  s.tiles = std::move(t);

  std::uint32_t id = 1;
  // Obstacle features: rectangles on cell lines, and (every other world) a rectangle, a
  // triangle and a circle off them.
  for (int k = 0; k < 3; ++k) {
    Shape r;
    r.kind = ShapeKind::Rect;
    r.min = {double(pick(1, w - 6)), double(pick(1, h - 6))};
    r.max = r.min + Vec2{double(pick(1, 4)), double(pick(1, 4))};
    s.features.push_back(Feature{id++, "", kWall, r});
  }
  if (seed % 2 == 1) {
    Shape r;
    r.kind = ShapeKind::Rect;
    r.min = {real(1, w - 6), real(1, h - 6)};
    r.max = r.min + Vec2{real(1, 4), real(1, 4)};
    s.features.push_back(Feature{id++, "", kWall, r});
    Shape tri;
    const Vec2 c{real(4, w - 4), real(4, h - 4)};
    tri.points = {c + Vec2{-2.3, 1.7}, c + Vec2{2.1, 2.2}, c + Vec2{0.3, -2.6}};
    s.features.push_back(Feature{id++, "", kWall, tri});
    Shape circle;
    circle.kind = ShapeKind::Circle;
    circle.center = {real(3, w - 3), real(3, h - 3)};
    circle.radius = real(0.8, 2.2);
    s.features.push_back(Feature{id++, "", kWall, circle});
  }
  if (weighted) {
    // Slow regions as features.
    Shape r;
    r.kind = ShapeKind::Rect;
    r.min = {real(0, w - 8), real(0, h - 8)};
    r.max = r.min + Vec2{real(3, 8), real(3, 8)};
    s.features.push_back(Feature{id++, "", kSwamp, r});
    Shape circle;
    circle.kind = ShapeKind::Circle;
    circle.center = {real(3, w - 3), real(3, h - 3)};
    circle.radius = real(1.5, 4);
    s.features.push_back(Feature{id++, "", kNebula, circle});
    s.roads.push_back(Road{
        200, {{0.5, real(1, h - 1)}, {real(1, w - 1), real(1, h - 1)}, {w - 0.5, real(1, h - 1)}}, 3.0, 2.0});
  }
  s.threats.push_back(Influence{300, {real(0, w), real(0, h)}, real(3, 8), 1, ""});
  s.threats.push_back(Influence{301, {real(0, w), real(0, h)}, real(3, 8), 1, ""});
  s.allies.push_back(Influence{400, {real(0, w), real(0, h)}, real(2, 5), 1, ""});
  return s;
}

// Random queries between passable cell centres joined for the class (grid regions).
std::vector<PathQuery> random_queries(const PlanningWorld& world, std::size_t cls, std::uint64_t seed,
                                      int n) {
  std::mt19937_64 rng(seed * 7919 + 1);
  const CostGrid& g = world.grid(cls);
  std::vector<PathQuery> out;
  for (int tries = 0; tries < 400 && int(out.size()) < n; ++tries) {
    const auto a = std::uint32_t(rng() % g.cell_count()), b = std::uint32_t(rng() % g.cell_count());
    if (a == b || !g.passable(a) || !g.passable(b) || !world.regions(cls).connected(a, b)) continue;
    out.push_back(PathQuery{g.center(a), g.center(b)});
  }
  return out;
}

// The cheapest path of a unit of radius `r` from cell centre `a` to cell centre `b` by
// moves between cell centres (8 directions) that keep r from every blocked cell's square
// and from the world's edge, and never join cells of different move keys, or nothing when
// there is none: a path the planners keeping a radius must find (the reference for their
// "no path"), and the cost their bound is measured against. A move costs its length times
// the mean of its two cells' multipliers (what the referee integrates along it). Exact
// distances: a move and a cell are convex, so their least distance is at an end of the
// move or a corner of the cell (a move between two centres crosses no cell's inside).
// Dijkstra's search of its own, sharing no code with the planners.
std::optional<double> clear_path_cost(const PlanningWorld& world, std::size_t cls, double r, std::uint32_t a,
                                      std::uint32_t b) {
  const CostGrid& g = world.grid(cls);
  const int w = g.width(), h = g.height();
  const double s = g.cell_size();
  const int reach = int(std::ceil(r / s)) + 2;
  const auto point_box = [&](Vec2 p, int x, int y) {
    const double dx = std::max({x * s - p.x, 0.0, p.x - (x + 1) * s});
    const double dy = std::max({y * s - p.y, 0.0, p.y - (y + 1) * s});
    return std::sqrt(dx * dx + dy * dy);
  };
  const auto point_segment = [](Vec2 p, Vec2 u, Vec2 v) {
    const Vec2 d = v - u;
    const double len2 = d.x * d.x + d.y * d.y;
    const double t = len2 > 0 ? std::clamp(((p.x - u.x) * d.x + (p.y - u.y) * d.y) / len2, 0.0, 1.0) : 0.0;
    const Vec2 q = u + d * t - p;
    return std::sqrt(q.x * q.x + q.y * q.y);
  };
  // The move u -> v (cell centres) keeps r.
  const auto keeps = [&](Vec2 u, Vec2 v) {
    const double lo_x = std::min(u.x, v.x), hi_x = std::max(u.x, v.x);
    const double lo_y = std::min(u.y, v.y), hi_y = std::max(u.y, v.y);
    if (lo_x < r || lo_y < r || hi_x > w * s - r || hi_y > h * s - r) return false;
    const int cx = int(std::floor(u.x / s)), cy = int(std::floor(u.y / s));
    for (int y = cy - reach; y <= cy + reach; ++y) {
      for (int x = cx - reach; x <= cx + reach; ++x) {
        if (!g.in_bounds(x, y) || g.passable(g.index(x, y))) continue;
        double d = std::min(point_box(u, x, y), point_box(v, x, y));
        for (int k = 0; k < 4; ++k)
          d = std::min(d, point_segment(Vec2{(x + (k & 1)) * s, (y + (k >> 1)) * s}, u, v));
        if (d < r) return false;
      }
    }
    return true;
  };
  const std::uint16_t key = g.move_key(a);
  if (key == 0 || g.move_key(b) != key) return std::nullopt;
  const Vec2 pa = g.center(a);
  if (!keeps(pa, pa) || !keeps(g.center(b), g.center(b))) return std::nullopt;
  std::vector<double> best(g.cell_count(), std::numeric_limits<double>::infinity());
  using Entry = std::pair<double, std::uint32_t>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> open;
  best[a] = 0;
  open.push({0.0, a});
  while (!open.empty()) {
    const auto [d, c] = open.top();
    open.pop();
    if (d > best[c]) continue;
    if (c == b) return d;
    const glm::ivec2 p = g.cell(c);
    for (int dy = -1; dy <= 1; ++dy) {
      for (int dx = -1; dx <= 1; ++dx) {
        if ((dx == 0 && dy == 0) || !g.in_bounds(p.x + dx, p.y + dy)) continue;
        const std::uint32_t n = g.index(p.x + dx, p.y + dy);
        if (g.move_key(n) != key || !keeps(g.center(c), g.center(n))) continue;
        const double step =
            s * std::sqrt(double(dx * dx + dy * dy)) * 0.5 * (g.multiplier(c) + g.multiplier(n));
        if (d + step < best[n]) {
          best[n] = d + step;
          open.push({best[n], n});
        }
      }
    }
  }
  return std::nullopt;
}

void note(PlannerConformance& t, std::size_t max_examples, std::string text) {
  if (t.examples.size() < max_examples) t.examples.push_back(std::move(text));
}

bool same_result(const PathResult& a, const PathResult& b) {
  return a.status == b.status && a.cost == b.cost && a.points == b.points && a.nodes == b.nodes;
}

// Whether node_at() finds node `n` (or a node holding its point) again.
bool node_at_round_trips(const Planner& planner, NodeId n) {
  const NodeGeometry g = planner.node_geometry(n);
  const NodeId at = planner.node_at(g.position, 1e-6);
  if (at == kNoNode) return false;
  const NodeGeometry back = planner.node_geometry(at);
  // A point node is found by its position unless a box or polygon holds it (node_at
  // prefers those); the node at a box's or polygon's own point holds it: itself, or a
  // smaller node inside it.
  if (g.shape == NodeShape::Point)
    return back.position == g.position ||
           (back.shape != NodeShape::Point && back.bounds.contains(g.position));
  return back.bounds.contains(g.position);
}

// ---- Replay of the trace against the live run ----

// splitmix64's finaliser: a strong mix of one word.
std::uint64_t mix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// A hash of one node's state as the live planner shows it (visit_nodes) or a replay
// rebuilds it: side, id, g, h, parent and closed.
std::uint64_t node_hash(std::uint8_t side, NodeId node, double g, double h, NodeId parent, bool closed) {
  std::uint64_t x = mix64((std::uint64_t(side) << 40) ^ (std::uint64_t(closed) << 39) ^ node);
  x = mix64(x ^ std::bit_cast<std::uint64_t>(g));
  x = mix64(x ^ std::bit_cast<std::uint64_t>(h));
  return mix64(x ^ parent);
}

// A set of nodes' states: their count and the sum of their hashes (the order they come
// in does not matter; equal sets hash equal).
struct StateHash {
  std::uint64_t count = 0;
  std::uint64_t sum = 0;
  bool operator==(const StateHash&) const = default;
};

StateHash live_state(const Planner& planner) {
  StateHash out;
  planner.visit_nodes([&](const NodeView& v) {
    ++out.count;
    out.sum += node_hash(v.side, v.node, v.g, v.h, v.parent, v.closed);
  });
  return out;
}

StateHash replayed_state(const TraceReplay& replay) {
  StateHash out;
  for (const TraceNode& n : replay.nodes()) {
    ++out.count;
    out.sum += node_hash(n.side, n.node, n.g, n.h, n.parent, n.closed());
  }
  return out;
}

bool same_event(const SearchEvent& a, const SearchEvent& b) {
  return a.kind == b.kind && a.side == b.side && a.node == b.node && a.parent == b.parent && a.g == b.g &&
         a.h == b.h;
}

// Where two traces of one query first differ, or "" when they are the same.
std::string trace_difference(const SearchTrace& a, const SearchTrace& b) {
  const auto& ea = a.events();
  const auto& eb = b.events();
  for (std::size_t i = 0; i < std::min(ea.size(), eb.size()); ++i) {
    if (!same_event(ea[i], eb[i])) return "event " + std::to_string(i);
  }
  if (ea.size() != eb.size())
    return std::to_string(ea.size()) + " events against " + std::to_string(eb.size());
  const auto& ra = a.refinements();
  const auto& rb = b.refinements();
  if (ra.size() != rb.size()) return "refinement count";
  for (std::size_t i = 0; i < ra.size(); ++i) {
    if (ra[i].stage != rb[i].stage || ra[i].points != rb[i].points) return "refinement " + std::to_string(i);
  }
  return {};
}

// Records `query` in one shot, then runs it live one expansion at a time (a trace of its
// own beside it), keeping the live planner's nodes just before each next step of the
// trace; replays the one-shot trace forward to the end, back to the start and forward
// again, comparing each step with the live run. Returns "" or what differs.
std::string replay_difference(Planner& planner, const PathQuery& query) {
  SearchTrace shot;
  planner.set_observer(&shot);
  const PathResult one = find_path(planner, query);
  SearchTrace live;
  planner.set_observer(&live);
  // The live state at the end of each call, with the trace's step and event count then.
  struct Seen {
    std::uint64_t step;
    std::size_t events;
    StateHash state;
  };
  std::vector<Seen> seen;
  const auto snapshot = [&] {
    const Seen now{live.step_count(), live.events().size(), live_state(planner)};
    if (!seen.empty() && seen.back().step == now.step)
      seen.back() = now;
    else
      seen.push_back(now);
  };
  SearchStatus status = planner.start(query);
  snapshot();
  for (std::uint64_t k = 0; !is_finished(status) && k < 10'000'000; ++k) {
    status = planner.step(1);
    snapshot();
  }
  planner.set_observer(nullptr);
  if (const std::string d = trace_difference(shot, live); !d.empty())
    return "the trace stepped one expansion at a time differs from one shot's at " + d;
  if (live.step_count() != seen.back().step) return "the live run ended before its trace";
  // A replay at step k shows every event before step k + 1's. Where one call emitted
  // events after the last state seen at step k and went on into step k + 1 (a hybrid
  // route found no way: its fallback leg starts and expands in one call), the live run
  // never showed the state the replay shows at k: that step is not compared.
  std::erase_if(seen, [&](const Seen& v) {
    return v.events != (v.step < live.step_count() ? live.step_event(v.step) : live.events().size());
  });

  TraceReplay replay(shot);
  const auto compare = [&](std::size_t i, const char* way) -> std::string {
    replay.seek(seen[i].step);
    if (replay.step() == seen[i].step && replayed_state(replay) == seen[i].state) return {};
    return std::string("replayed ") + way + ", step " + std::to_string(seen[i].step) + " of " +
           std::to_string(shot.step_count()) + " differs from the live run's nodes";
  };
  for (std::size_t i = 0; i < seen.size(); ++i) {
    if (std::string d = compare(i, "forward"); !d.empty()) return d;
  }
  for (std::size_t i = seen.size(); i-- > 0;) {
    if (std::string d = compare(i, "backward"); !d.empty()) return d;
  }
  for (std::size_t i = 0; i < seen.size(); ++i) {
    if (std::string d = compare(i, "forward again"); !d.empty()) return d;
  }
  replay.seek(shot.step_count());
  if (one.status == SearchStatus::Found && replay.path() != one.nodes)
    return "the replay's final path differs from the result's nodes";
  return {};
}

// ---- Structure views and their budget ----

// Counts every item a structure view hands it; full() once `budget` came.
class BudgetCounter final : public StructureVisitor {
 public:
  explicit BudgetCounter(std::size_t budget) : budget_(budget) {}
  void cell(const StructureCell&) override { ++items; }
  void edge(const StructureEdge&) override { ++items; }
  void shape(const StructureShape&) override { ++items; }
  bool full() const override { return items >= budget_; }
  std::size_t items = 0;

 private:
  std::size_t budget_;
};

// Walks both structure views of `planner` (the whole world) with a few budgets; counts
// the walks and those that handed out more items than their budget.
void check_structure_budgets(const Planner& planner, const PlanningWorld& world, PlannerConformance& t,
                             std::size_t max_examples, const std::string& where) {
  const WorldInfo& w = world.scenario().world;
  const Box2 all{{0, 0}, {w.width, w.height}};
  for (const std::size_t budget :
       {std::size_t(0), std::size_t(1), std::size_t(2), std::size_t(5), std::size_t(17), std::size_t(64)}) {
    for (const bool path : {false, true}) {
      BudgetCounter counter(budget);
      if (path)
        planner.visit_path_structure(counter);
      else
        planner.visit_structure(all, counter);
      ++t.budgets_checked;
      if (counter.items <= budget) continue;
      ++t.over_budget;
      note(t, max_examples,
           where + ": " + (path ? "visit_path_structure" : "visit_structure") + " handed out " +
               std::to_string(counter.items) + " items for a budget of " + std::to_string(budget));
      return;  // one example per query
    }
  }
}

// ---- Kept answers after random edits ----

// One random edit of the kinds the editor makes, small enough that many answers hold:
// paint a few tiles, add, move or delete a feature, move a road's point, toggle the
// bridge, move or resize a threat or an ally. `next_id` numbers new features.
void random_edit(std::mt19937_64& rng, Scenario& s, std::uint32_t& next_id) {
  const auto pick = [&](int lo, int hi) { return int(std::uniform_int_distribution<int>(lo, hi)(rng)); };
  const auto real = [&](double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); };
  const double w = s.world.width, h = s.world.height;
  const std::uint8_t terrains[] = {kGround, kRough, kSwamp, kNebula, kDeep, kWall};
  switch (pick(0, 6)) {
    case 0: {  // brush
      TileGrid& t = *s.tiles;
      const int x0 = pick(0, t.width - 1), y0 = pick(0, t.height - 1), r = pick(0, 1);
      const std::uint8_t terrain = terrains[pick(0, 5)];
      for (int y = std::max(0, y0 - r); y <= std::min(t.height - 1, y0 + r); ++y)
        for (int x = std::max(0, x0 - r); x <= std::min(t.width - 1, x0 + r); ++x)
          t.terrain[std::size_t(y * t.width + x)] = terrain;
      break;
    }
    case 1: {  // a small rectangle feature
      Shape r;
      r.kind = ShapeKind::Rect;
      r.min = {real(0, w - 2), real(0, h - 2)};
      r.max = r.min + Vec2{real(0.5, 2.5), real(0.5, 2.5)};
      s.features.push_back(Feature{next_id++, "", std::size_t(terrains[pick(1, 5)]), r});
      break;
    }
    case 2:  // move a feature a little
      if (!s.features.empty()) {
        Feature& f = s.features[std::size_t(pick(0, int(s.features.size()) - 1))];
        const Vec2 d{real(-1.5, 1.5), real(-1.5, 1.5)};
        f.shape.min += d;
        f.shape.max += d;
        f.shape.center += d;
        for (Vec2& q : f.shape.points) q += d;
      }
      break;
    case 3:  // delete a feature
      if (!s.features.empty()) s.features.erase(s.features.begin() + pick(0, int(s.features.size()) - 1));
      break;
    case 4:  // move a road's point
      if (!s.roads.empty() && !s.roads.front().points.empty()) {
        std::vector<Vec2>& pts = s.roads.front().points;
        Vec2& p = pts[std::size_t(pick(0, int(pts.size()) - 1))];
        p = {std::clamp(p.x + real(-2, 2), 0.0, w), std::clamp(p.y + real(-2, 2), 0.0, h)};
        break;
      }
      [[fallthrough]];
    case 5:  // the bridge
      for (Bridge& b : s.bridges) b.intact = !b.intact;
      break;
    default: {  // a threat or an ally
      std::vector<Influence>& list = pick(0, 2) == 0 ? s.allies : s.threats;
      if (list.empty()) break;
      Influence& i = list[std::size_t(pick(0, int(list.size()) - 1))];
      i.center = {std::clamp(i.center.x + real(-3, 3), 0.0, w), std::clamp(i.center.y + real(-3, 3), 0.0, h)};
      i.radius = std::max(0.5, i.radius + real(-1, 1));
      break;
    }
  }
}

// Every planner answers a query, the world is edited, and each answer its dependency
// keeps is checked against the edited world: a fresh planner's search (on a world built
// from scratch) must end the same and cost the same, and the kept path must be legal
// there (and cost what it claims, in the world's model).
void check_kept_answers(std::span<const PlannerInfo> registry, const ConformanceOptions& options,
                        std::uint64_t seed, bool weighted, std::size_t cls,
                        const std::vector<PathQuery>& queries, std::vector<PlannerConformance>& out) {
  if (queries.empty() || options.edits_per_world <= 0) return;
  Scenario s = conformance_world(seed, weighted);
  PlanningWorld world(s);
  std::mt19937_64 rng(seed * 6151 + 3);
  std::uint32_t next_id = 5000;
  // Planners kept across edits, as the editor keeps them (they borrow `world`).
  std::vector<std::unique_ptr<Planner>> kept(registry.size());
  std::vector<ParamValues> params(registry.size());
  for (std::size_t pi = 0; pi < registry.size(); ++pi) {
    const Result<ParamValues> p = resolve_params(registry[pi], {});
    if (!p) continue;
    params[pi] = *p;
    kept[pi] = registry[pi].create(QueryContext{world, cls, std::nullopt, params[pi]});
  }
  std::vector<PathResult> before(registry.size());
  std::vector<std::unique_ptr<ResultDependency>> dependency(registry.size());
  for (int e = 0; e < options.edits_per_world; ++e) {
    const PathQuery& q = queries[std::size_t(e) % queries.size()];
    for (std::size_t pi = 0; pi < registry.size(); ++pi) {
      if (!kept[pi]) continue;
      before[pi] = find_path(*kept[pi], q);
      dependency[pi] = kept[pi]->result_dependency();
    }
    random_edit(rng, s, next_id);
    const Result<WorldChange> change = world.update(s);
    if (!change) continue;
    std::optional<PlanningWorld> fresh_world;
    for (std::size_t pi = 0; pi < registry.size(); ++pi) {
      if (!kept[pi]) continue;
      const PlannerInfo& info = registry[pi];
      PlannerConformance& t = out[pi];
      const bool holds =
          dependency[pi] != nullptr && !change->rebuilt && dependency[pi]->still_valid(*change);
      if (!holds) {
        ++t.invalidated;
        continue;
      }
      ++t.kept;
      if (!fresh_world) fresh_world.emplace(s);
      std::unique_ptr<Planner> fresh = info.create(QueryContext{*fresh_world, cls, std::nullopt, params[pi]});
      const PathResult& now = find_path(*fresh, q);
      const PathResult& was = before[pi];
      char where[200];
      std::snprintf(where, sizeof where,
                    "world %llu, edit %d, query (%.1f, %.1f) -> (%.1f, %.1f): kept answer (%s, cost %.6f)",
                    static_cast<unsigned long long>(seed), e, q.start.x, q.start.y, q.goal.x, q.goal.y,
                    to_string(was.status), was.cost);
      const auto stale = [&](const std::string& why) {
        ++t.stale_kept;
        note(t, options.max_examples, std::string(where) + " " + why);
      };
      if (now.status != was.status) {
        stale(std::string("but a fresh search ends ") + to_string(now.status));
        continue;
      }
      if (was.status != SearchStatus::Found) continue;
      if (!costs_agree(now.cost, was.cost)) {
        char buf[80];
        std::snprintf(buf, sizeof buf, "but a fresh search costs %.6f", now.cost);
        stale(buf);
        continue;
      }
      // An edit that closed the start's cell leaves a planner that leads a unit out of it
      // (the quadtree's links out of an impassable leaf) a first leg through the wall:
      // the kept answer equals the fresh one (above), and its legality is not asked.
      const CostGrid& grid = fresh_world->grid(cls);
      const std::optional<std::uint32_t> start_cell = grid.cell_at(q.start);
      if (start_cell && !grid.passable(*start_cell)) continue;
      const RefereeParams rp = params_for(info, params[pi], *fresh_world, cls);
      const Result<Verdict> verdict = referee_path(*fresh_world, cls, was.points, rp);
      if (!verdict || !verdict->legal) {
        stale("is illegal in the edited world: " +
              (verdict ? verdict->violations.front().message : verdict.error().to_string()));
      } else if (info.referee.cost == CostModel::Terrain && !costs_agree(was.cost, verdict->cost)) {
        char buf[80];
        std::snprintf(buf, sizeof buf, "costs %.6f in the edited world", verdict->cost);
        stale(buf);
      }
    }
  }
}

}  // namespace

std::vector<std::optional<double>> grid_optima(const PlannerInfo* astar, const PlanningWorld& world,
                                               std::size_t movement_class,
                                               std::span<const PathQuery> queries) {
  std::vector<std::optional<double>> optimum(queries.size());
  if (astar == nullptr) return optimum;
  const Result<ParamValues> params = resolve_params(*astar, {});
  std::unique_ptr<Planner> planner =
      astar->create(QueryContext{world, movement_class, std::nullopt, *params});
  for (std::size_t qi = 0; qi < queries.size(); ++qi) {
    const PathResult r = find_path(*planner, queries[qi]);
    if (r.status == SearchStatus::Found) optimum[qi] = r.cost;
  }
  return optimum;
}

Scenario conformance_world(std::uint64_t seed, bool weighted) { return generated_world_impl(seed, weighted); }

std::vector<PlannerConformance> run_conformance(std::span<const PlannerInfo> registry,
                                                const ConformanceOptions& options) {
  std::vector<PlannerConformance> out(registry.size());
  for (std::size_t i = 0; i < registry.size(); ++i) {
    out[i].planner = registry[i].name;
    out[i].bound = registry[i].referee.bound;
  }
  const PlannerInfo* astar = find_planner("astar", registry);
  const std::size_t keep = options.max_examples;
  for (int wi = 0; wi < options.worlds; ++wi) {
    const std::uint64_t seed = options.first_world + std::uint64_t(wi);
    const bool weighted = seed % 3 != 0;
    const PlanningWorld world(conformance_world(seed, weighted));
    const std::size_t cls = seed % 4 == 3 ? 1 : 0;  // now and then the tracked class (radius 2.5)
    const std::vector<PathQuery> queries = random_queries(world, cls, seed, options.queries_per_world);
    const std::vector<std::optional<double>> optimum = grid_optima(astar, world, cls, queries);
    for (std::size_t pi = 0; pi < registry.size(); ++pi) {
      const PlannerInfo& info = registry[pi];
      PlannerConformance& t = out[pi];
      const Result<ParamValues> params = resolve_params(info, {});
      if (!params) {
        note(t, keep, "default parameters refused: " + params.error().to_string());
        ++t.refused;
        continue;
      }
      const QueryContext context{world, cls, std::nullopt, *params};
      std::unique_ptr<Planner> planner = info.create(context);
      const RefereeParams rp = params_for(info, *params, world, cls);
      const bool keeps_clearance = declared_clearance(info, context) > 0;
      for (std::size_t qi = 0; qi < queries.size(); ++qi) {
        const PathQuery& q = queries[qi];
        char where[160];
        std::snprintf(where, sizeof where,
                      "world %llu (%s), class %zu, query %zu (%.1f, %.1f) -> (%.1f, %.1f)",
                      static_cast<unsigned long long>(seed), weighted ? "weighted" : "uniform", cls, qi,
                      q.start.x, q.start.y, q.goal.x, q.goal.y);
        ++t.queries;
        const PathResult one = find_path(*planner, q);

        // Stepping equals one shot.
        SearchStatus st = planner->start(q);
        for (std::uint64_t k = 0; !is_finished(st) && k < 10'000'000; ++k) st = planner->step(1 + k % 5);
        if (!same_result(planner->result(), one)) {
          ++t.stepping_differs;
          note(t, keep, std::string(where) + ": stepping differs from one shot");
        }

        // Replay of the trace against the live run, and the structure views' budgets (on
        // the state the stepped run leaves).
        if (int(qi) < options.replays_per_world) {
          ++t.replays;
          if (const std::string d = replay_difference(*planner, q); !d.empty()) {
            ++t.replay_differs;
            note(t, keep, std::string(where) + ": " + d);
          }
          check_structure_budgets(*planner, world, t, keep, where);
        }

        if (one.status != SearchStatus::Found) {
          ++t.refused;
          // A planner keeping a radius answers every query a path keeping it solves.
          if (info.clearance && clear_path_cost(world, cls, rp.clearance, *world.grid(cls).cell_at(q.start),
                                                *world.grid(cls).cell_at(q.goal))) {
            ++t.no_path_solvable;
            note(t, keep, std::string(where) + ": " + one.message + ", but a path keeping the radius exists");
          }
          continue;
        }
        ++t.found;
        const Result<Verdict> verdict = referee_path(world, cls, one.points, rp);
        if (!verdict) {
          ++t.illegal;
          note(t, keep, std::string(where) + ": " + verdict.error().to_string());
          continue;
        }
        if (!verdict->legal) {
          ++t.illegal;
          note(t, keep, std::string(where) + ": " + verdict->violations.front().message);
        }
        if (info.referee.cost == CostModel::Other) {
          ++t.cost_skipped;
        } else if (verdict->legal) {
          const double err = std::abs(one.cost - verdict->cost) / std::max(1.0, verdict->cost);
          t.worst_cost_error = std::max(t.worst_cost_error, err);
          if (!costs_agree(one.cost, verdict->cost)) {
            ++t.cost_disagree;
            char buf[96];
            std::snprintf(buf, sizeof buf, ": reported %.6f, referee %.6f", one.cost, verdict->cost);
            note(t, keep, where + std::string(buf));
          }
          // The bound against grid A*'s optimum, or where the planner keeps a clearance,
          // the cheapest moves between cell centres keeping it.
          const std::optional<double> reference =
              keeps_clearance ? clear_path_cost(world, cls, rp.clearance, *world.grid(cls).cell_at(q.start),
                                                *world.grid(cls).cell_at(q.goal))
                              : optimum[qi];
          if (reference && *reference > 0) {
            const double ratio = verdict->cost / *reference;
            ++t.bound_checked;
            t.worst_ratio = std::max(t.worst_ratio, ratio);
            if (info.referee.bound > 0 && ratio > info.referee.bound * (1 + kCostTolerance)) {
              ++t.over_bound;
              char buf[128];
              std::snprintf(buf, sizeof buf,
                            ": cost %.6f is %.4f x the reference's %.6f, above its bound %.4f", verdict->cost,
                            ratio, *reference, info.referee.bound);
              note(t, keep, where + std::string(buf));
            }
          }
        }

        // node_at round-trips with node_geometry on the path's nodes and a sample of ids.
        std::vector<NodeId> nodes(one.nodes.begin(), one.nodes.begin() + std::ptrdiff_t(std::min<std::size_t>(
                                                                             one.nodes.size(), 40)));
        for (std::size_t k = 0; k < 8 && planner->node_count() > 0; ++k)
          nodes.push_back(NodeId((seed * 2654435761u + k * 40503u) % planner->node_count()));
        for (NodeId n : nodes) {
          if (node_at_round_trips(*planner, n)) continue;
          ++t.node_at_fails;
          note(t, keep,
               std::string(where) + ": node_at() does not find node " + std::to_string(n) + " again");
          break;
        }
      }
    }
    check_kept_answers(registry, options, seed, weighted, cls, queries, out);
  }
  return out;
}

}  // namespace pathscope::referee
