// The tactical planner: c1 + c2 = 1 enforced, exposure figures of a hand-computed path,
// exact mode against a brute-force Dijkstra over the same cost model, admissible mode
// equal to exact, BSTS never below the optimum and with no bump where the searches
// meet, the heuristic 0 at the goal, stepping equal to one-shot, determinism, the
// structure views, occlusion, and the result dependency on threats and allies.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <queue>
#include <random>
#include <set>
#include <string>
#include <utility>

#include "planner/core/planner_registry.hpp"
#include "planner/scenario/scenario_io.hpp"
#include "planner/tactical/tactical_dependency.hpp"
#include "planner/tactical/tactical_planner.hpp"
#include "planner/world/planning_world.hpp"
#include "tests/test_maps.hpp"

using namespace pathscope;
using namespace pathscope::tactical;
using pathscope::test::cell_center;

namespace {

double extra(const PathResult& r, std::string_view name) {
  for (const auto& [k, v] : r.stats.extra) {
    if (k == name) return v;
  }
  FAIL("no stat " << name);
  return 0;
}

Influence influence(std::uint32_t id, Vec2 c, double r) { return Influence{id, c, r, 1.0, ""}; }

// Counts the cells a search expanded from its trace's Expand events (a cell expanded by
// both sides of a bidirectional search once), apart from the planner's own statistics.
class TacticalExpandCounter final : public SearchObserver {
 public:
  void on_start(const PathQuery&) override { cells_.clear(); }
  void on_event(const SearchEvent& event) override {
    if (event.kind == SearchEventKind::Expand) cells_.insert(event.node);
  }
  std::size_t cells() const { return cells_.size(); }

 private:
  std::set<NodeId> cells_;
};

// `query` answered by `planner` with a counter attached: the result, and the cells its
// trace says it expanded.
std::pair<PathResult, std::size_t> tactical_counted(TacticalPlanner& planner, const PathQuery& query) {
  TacticalExpandCounter counter;
  planner.set_observer(&counter);
  PathResult r = find_path(planner, query);
  planner.set_observer(nullptr);
  return {std::move(r), counter.cells()};
}

TacticalParams params(TacticalMode mode, double c1 = 0.25, double c2 = 0.75) {
  TacticalParams p;
  p.model.c1 = c1;
  p.model.c2 = c2;
  p.mode = mode;
  return p;
}

// A random map with walls and rough ground, and random threats and allies.
Scenario random_scenario(std::mt19937_64& rng, int w, int h) {
  Scenario s = test::ascii_scenario(test::random_rows(rng, w, h, 0.15, false));
  for (std::size_t i = 0; i < s.tiles->terrain.size(); ++i) {
    if (s.tiles->terrain[i] == 0 && rng() % 6 == 0) s.tiles->terrain[i] = 2;  // rough
  }
  std::uniform_real_distribution<double> x(0, w), y(0, h), r(1, 4);
  const int nt = 1 + int(rng() % 4), na = int(rng() % 3);
  for (int i = 0; i < nt; ++i) s.threats.push_back(influence(std::uint32_t(i), {x(rng), y(rng)}, r(rng)));
  for (int i = 0; i < na; ++i) s.allies.push_back(influence(std::uint32_t(i), {x(rng), y(rng)}, r(rng)));
  return s;
}

// Brute-force costs of the model from one cell to every cell: Dijkstra with its own move
// rule (8 neighbours, no corner cutting, same group) and segment_exposure of the discs.
// Moves are symmetric, so these are also the costs to that cell.
std::vector<double> reference_costs(const Scenario& s, const CostModelParams& m, int sx, int sy) {
  const TileGrid& t = *s.tiles;
  std::vector<Disc> threats, allies;
  for (const Influence& i : s.threats) threats.push_back(Disc{i.center, i.radius});
  for (const Influence& i : s.allies) allies.push_back(Disc{i.center, i.radius});
  auto mult = [&](int x, int y) -> double {
    if (x < 0 || y < 0 || x >= t.width || y >= t.height) return 0;
    const auto& c = s.terrains[t.terrain[std::size_t(y * t.width + x)]].cost[0];
    return c ? *c : 0.0;
  };
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> dist(t.terrain.size(), inf);
  using Item = std::pair<double, int>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> pq;
  dist[std::size_t(sy * t.width + sx)] = 0;
  pq.push({0.0, sy * t.width + sx});
  while (!pq.empty()) {
    auto [d, i] = pq.top();
    pq.pop();
    if (d > dist[std::size_t(i)]) continue;
    const int x = i % t.width, y = i / t.width;
    for (int dy = -1; dy <= 1; ++dy) {
      for (int dx = -1; dx <= 1; ++dx) {
        const int nx = x + dx, ny = y + dy;
        if ((!dx && !dy) || mult(nx, ny) == 0) continue;
        if (dx && dy && (mult(nx, y) == 0 || mult(x, ny) == 0)) continue;
        const Exposure e =
            segment_exposure(cell_center(s, x, y), cell_center(s, nx, ny), threats, allies, m.fading);
        const double nd = d + exposure_cost(e, m.c1, m.c2) * 0.5 * (mult(x, y) + mult(nx, ny));
        if (nd < dist[std::size_t(ny * t.width + nx)]) {
          dist[std::size_t(ny * t.width + nx)] = nd;
          pq.push({nd, ny * t.width + nx});
        }
      }
    }
  }
  return dist;
}

double reference_cost(const Scenario& s, const CostModelParams& m, int sx, int sy, int gx, int gy) {
  return reference_costs(s, m, sx, sy)[std::size_t(gy * s.tiles->width + gx)];
}

// A random passable cell.
glm::ivec2 random_open(std::mt19937_64& rng, const Scenario& s) {
  for (;;) {
    const int x = int(rng() % unsigned(s.tiles->width)), y = int(rng() % unsigned(s.tiles->height));
    if (s.tiles->terrain[std::size_t(y * s.tiles->width + x)] != 1) return {x, y};
  }
}

// No cell twice, and no one-cell detour a, b, c with a-c a cheaper legal move.
// A 64 x 32 field with four threats and four allies at random, and a query from its
// west edge to its east edge (cells), as the bench's placements.
struct Field {
  Scenario s;
  glm::ivec2 a, b;
};
Field four_and_four(std::mt19937_64& rng) {
  Scenario s = test::ascii_scenario(std::vector<std::string>(32, std::string(64, '.')));
  std::uniform_real_distribution<double> x(4, 60), y(4, 28), radius(3, 7);
  for (std::uint32_t i = 0; i < 4; ++i) {
    s.threats.push_back(influence(i, {x(rng), y(rng)}, radius(rng)));
    s.allies.push_back(influence(i, {x(rng), y(rng)}, radius(rng)));
  }
  const glm::ivec2 a{int(rng() % 8), int(rng() % 32)}, b{56 + int(rng() % 8), int(rng() % 32)};
  return {std::move(s), a, b};
}

void check_no_bump(const TacticalPlanner& p, const CostGrid& grid, const PathResult& r) {
  const std::set<NodeId> unique(r.nodes.begin(), r.nodes.end());
  CHECK(unique.size() == r.nodes.size());
  for (std::size_t i = 0; i + 2 < r.nodes.size(); ++i) {
    const glm::ivec2 a = grid.cell(r.nodes[i]), c = grid.cell(r.nodes[i + 2]);
    const int dx = c.x - a.x, dy = c.y - a.y;
    if (std::abs(dx) > 1 || std::abs(dy) > 1) continue;
    int dir = 0;
    while (kDirDx[dir] != dx || kDirDy[dir] != dy) ++dir;
    if (!(grid.moves(r.nodes[i]) & (1u << dir))) continue;
    CHECK(p.move_cost(r.nodes[i], r.nodes[i + 2]) >=
          p.move_cost(r.nodes[i], r.nodes[i + 1]) + p.move_cost(r.nodes[i + 1], r.nodes[i + 2]));
  }
}

}  // namespace

TEST_CASE("tactical: c1 + c2 != 1 is refused with a message naming the parameters") {
  Scenario s = test::ascii_scenario({"........", "........"});
  PlanningWorld world(s);
  const PlannerInfo* info = find_planner("tactical");
  REQUIRE(info != nullptr);
  CHECK(info->family == "tactical");
  // Refused when resolved (a scenario's or a command line's parameters)...
  const auto refused = resolve_params(*info, std::vector<PlannerParam>{{"c1", 0.5}, {"c2", 0.4}});
  REQUIRE_FALSE(refused);
  CHECK(refused.error().message.find("c1 + c2 must equal 1") != std::string::npos);
  // ...and by start() for values that were not.
  ParamValues values = resolve_params(*info, {}).value();
  values[0] = 0.5;
  values[1] = 0.4;
  auto planner = info->create(QueryContext{world, 0, std::nullopt, values});
  const PathResult& r = find_path(*planner, PathQuery{{0.5, 0.5}, {7.5, 1.5}});
  CHECK(r.status == SearchStatus::Invalid);
  CHECK(r.message.find("c1 + c2 must equal 1") != std::string::npos);
  CHECK(r.message.find("c1 = 0.5") != std::string::npos);
  // The defaults sum to 1 and plan.
  auto fine = info->create(QueryContext{world, 0, std::nullopt, resolve_params(*info, {}).value()});
  CHECK(find_path(*fine, PathQuery{{0.5, 0.5}, {7.5, 1.5}}).status == SearchStatus::Found);
}

TEST_CASE("tactical: exposure figures of a hand-computed path") {
  // One row of 20 cells: the path runs along y = 0.5 from x = 0.5 to 19.5 (19 m).
  Scenario s = test::ascii_scenario({"...................."});
  s.threats.push_back(influence(1, {10.5, 0.5}, 3));  // [7.5, 13.5]: 6 m
  s.allies.push_back(influence(1, {3.5, 0.5}, 2));    // [1.5, 5.5]: 4 m
  PlanningWorld world(s);
  for (const TacticalMode mode : {TacticalMode::Bsts, TacticalMode::Admissible, TacticalMode::Exact}) {
    TacticalPlanner p(world, 0, params(mode));
    const PathResult& r = find_path(p, PathQuery{{0.5, 0.5}, {19.5, 0.5}});
    REQUIRE(r.status == SearchStatus::Found);
    CHECK(r.length == doctest::Approx(19));
    CHECK(extra(r, "length") == doctest::Approx(19));
    CHECK(extra(r, "threat_exposure") == doctest::Approx(6));
    CHECK(extra(r, "safe_distance") == doctest::Approx(4));
    CHECK(extra(r, "model_cost") == doctest::Approx(9 * 0.25 + 6 * 0.75));
    CHECK(r.cost == doctest::Approx(9 * 0.25 + 6 * 0.75));
    CHECK(extra(r, "explored_percent") > 0);
    CHECK(extra(r, "explored_percent") <= 100);
  }
}

TEST_CASE(
    "tactical: exact and admissible modes equal a brute-force optimum, BSTS never below it, with no bump") {
  std::mt19937_64 rng(77);
  for (int round = 0; round < 12; ++round) {
    CAPTURE(round);
    const Scenario s = random_scenario(rng, 6 + int(rng() % 10), 5 + int(rng() % 8));
    PlanningWorld world(s);
    TacticalPlanner exact(world, 0, params(TacticalMode::Exact));
    TacticalPlanner admissible(world, 0, params(TacticalMode::Admissible));
    TacticalPlanner bsts(world, 0, params(TacticalMode::Bsts));
    TacticalParams bare_params = params(TacticalMode::Bsts);
    bare_params.corridor = 0;
    TacticalPlanner bare(world, 0, bare_params);
    TacticalPlanner waypoint(world, 0, params(TacticalMode::Waypoint));
    for (int q = 0; q < 4; ++q) {
      const glm::ivec2 a = random_open(rng, s), b = random_open(rng, s);
      const PathQuery query{cell_center(s, a.x, a.y), cell_center(s, b.x, b.y)};
      const double ref = reference_cost(s, exact.field().params(), a.x, a.y, b.x, b.y);
      const PathResult& re = find_path(exact, query);
      if (ref == std::numeric_limits<double>::infinity()) {
        CHECK(re.status == SearchStatus::NoPath);
        continue;
      }
      REQUIRE(re.status == SearchStatus::Found);
      CHECK(re.cost == doctest::Approx(ref).epsilon(1e-9));
      check_no_bump(exact, world.grid(0), re);  // zero-cost loops inside allies are cut too
      const PathResult& ra = find_path(admissible, query);
      REQUIRE(ra.status == SearchStatus::Found);
      CHECK(ra.cost == doctest::Approx(ref).epsilon(1e-9));
      const PathResult& rb = find_path(bsts, query);
      REQUIRE(rb.status == SearchStatus::Found);
      CHECK(rb.cost >= ref * (1 - 1e-9));
      CHECK(rb.nodes.front() == world.grid(0).cell_at(query.start));
      CHECK(rb.nodes.back() == world.grid(0).cell_at(query.goal));
      check_no_bump(bsts, world.grid(0), rb);
      CHECK(extra(rb, "repair_gain") >= 0);
      // The corridor search finds nothing dearer than cutting loops and detours alone.
      const PathResult& rbare = find_path(bare, query);
      REQUIRE(rbare.status == SearchStatus::Found);
      CHECK(rb.cost <= rbare.cost * (1 + 1e-12));
      CHECK(rbare.cost >= ref * (1 - 1e-9));
      check_no_bump(bare, world.grid(0), rbare);
      const PathResult& rw = find_path(waypoint, query);
      REQUIRE(rw.status == SearchStatus::Found);
      CHECK(rw.cost >= ref * (1 - 1e-9));
      check_no_bump(waypoint, world.grid(0), rw);
    }
  }
}

TEST_CASE("tactical: fading and occlusion keep exact mode optimal, occlusion hides a threat behind a wall") {
  std::mt19937_64 rng(5);
  for (int round = 0; round < 4; ++round) {
    const Scenario s = random_scenario(rng, 12, 9);
    PlanningWorld world(s);
    TacticalParams p = params(TacticalMode::Exact);
    p.model.fading = true;
    TacticalPlanner exact(world, 0, p);
    const glm::ivec2 a = random_open(rng, s), b = random_open(rng, s);
    const double ref = reference_cost(s, p.model, a.x, a.y, b.x, b.y);
    const PathResult& r = find_path(exact, PathQuery{cell_center(s, a.x, a.y), cell_center(s, b.x, b.y)});
    if (ref == std::numeric_limits<double>::infinity()) continue;
    REQUIRE(r.status == SearchStatus::Found);
    CHECK(r.cost == doctest::Approx(ref).epsilon(1e-9));
  }
  // A threat behind a wall: with occlusion the row below the wall is not exposed.
  Scenario s = test::ascii_scenario({
      "..........",
      "..........",
      "..######..",
      "..........",
  });
  s.threats.push_back(influence(1, {5, 0.5}, 4));
  PlanningWorld world(s);
  TacticalParams p = params(TacticalMode::Exact);
  p.model.occlusion = true;
  TacticalPlanner hidden(world, 0, p);
  CHECK(hidden.field().exposure({2.5, 3.5}, {7.5, 3.5}).threat == 0);
  CHECK(hidden.field().exposure({2.5, 1.5}, {7.5, 1.5}).threat > 0);
  TacticalPlanner open(world, 0, params(TacticalMode::Exact));
  CHECK(open.field().exposure({2.5, 3.5}, {7.5, 3.5}).threat > 0);
}

TEST_CASE("tactical: the heuristic is 0 at the goal (and at the start backwards)") {
  std::mt19937_64 rng(9);
  const Scenario s = random_scenario(rng, 12, 9);
  PlanningWorld world(s);
  for (const TacticalMode mode :
       {TacticalMode::Bsts, TacticalMode::Admissible, TacticalMode::Waypoint, TacticalMode::Coarse}) {
    TacticalPlanner p(world, 0, params(mode));
    const glm::ivec2 a = random_open(rng, s), b = random_open(rng, s);
    p.start(PathQuery{cell_center(s, a.x, a.y), cell_center(s, b.x, b.y)});
    const NodeId start = *world.grid(0).cell_at(cell_center(s, a.x, a.y));
    const NodeId goal = *world.grid(0).cell_at(cell_center(s, b.x, b.y));
    CHECK(p.heuristic(0, goal) == 0);
    CHECK(p.heuristic(1, start) == 0);
  }
}

TEST_CASE("tactical: stepping one expansion at a time equals one-shot, and runs are deterministic") {
  std::mt19937_64 rng(31);
  const Scenario s = random_scenario(rng, 24, 16);
  PlanningWorld world(s);
  for (const TacticalMode mode : {TacticalMode::Bsts, TacticalMode::Admissible, TacticalMode::Exact,
                                  TacticalMode::Waypoint, TacticalMode::Coarse}) {
    CAPTURE(int(mode));
    TacticalPlanner one(world, 0, params(mode)), stepped(world, 0, params(mode)),
        again(world, 0, params(mode));
    for (int q = 0; q < 5; ++q) {
      const glm::ivec2 a = random_open(rng, s), b = random_open(rng, s);
      const PathQuery query{cell_center(s, a.x, a.y), cell_center(s, b.x, b.y)};
      const PathResult whole = find_path(one, query);
      stepped.start(query);
      while (!is_finished(stepped.step(1))) {
      }
      const PathResult& r = stepped.result();
      CHECK(r.status == whole.status);
      CHECK(r.nodes == whole.nodes);
      CHECK(r.cost == whole.cost);  // bit for bit
      CHECK(r.stats.expansions == whole.stats.expansions);
      const PathResult& twice = find_path(again, query);
      CHECK(twice.nodes == whole.nodes);
      CHECK(twice.cost == whole.cost);
      CHECK(twice.stats.extra == whole.stats.extra);
    }
  }
}

TEST_CASE("tactical: structure views give a heat map, the path by exposure and the meeting point") {
  Scenario s = test::ascii_scenario(std::vector<std::string>(3, std::string(20, '.')));
  s.threats.push_back(influence(1, {10, 1.5}, 2));
  s.allies.push_back(influence(1, {3, 1.5}, 1.5));
  PlanningWorld world(s);
  TacticalPlanner p(world, 0, params(TacticalMode::Bsts));
  struct Collect final : StructureVisitor {
    std::vector<StructureCell> cells;
    std::vector<StructureShape> shapes;
    void cell(const StructureCell& c) override { cells.push_back(c); }
    void shape(const StructureShape& sh) override { shapes.push_back(sh); }
  } heat, path;
  p.visit_structure(Box2{{0, 0}, {20, 3}}, heat);
  REQUIRE(heat.cells.size() == 60);
  const auto value_at = [&](int x, int y) { return heat.cells[std::size_t(y * 20 + x)].value; };
  CHECK(value_at(10, 1) == doctest::Approx(4));  // threat: 1 + c2 / c1
  CHECK(value_at(3, 1) == doctest::Approx(1));   // ally: free
  CHECK(value_at(17, 1) == doctest::Approx(2));  // open ground
  REQUIRE(find_path(p, PathQuery{{0.5, 1.5}, {19.5, 1.5}}).status == SearchStatus::Found);
  p.visit_path_structure(path);
  REQUIRE(path.shapes.size() == p.result().points.size());  // one per move, and the meeting point
  CHECK(path.shapes.back().name == "meeting point");
  for (const StructureShape& sh : path.shapes) {
    CHECK(sh.value >= 0);
    CHECK(sh.value <= 1);
    CHECK(sh.role == StructureRole::Region);
  }
}

TEST_CASE("tactical: the coarse mode shows its graph: nodes as its stats count them, lines between them") {
  Scenario s = test::ascii_scenario(std::vector<std::string>(24, std::string(40, '.')));
  s.threats.push_back(influence(1, {20, 12}, 5));
  s.allies.push_back(influence(2, {8, 6}, 3));
  PlanningWorld world(s);
  TacticalPlanner p(world, 0, params(TacticalMode::Coarse));
  struct Collect final : StructureVisitor {
    std::vector<StructureShape> shapes;
    std::vector<std::vector<Vec2>> points;
    void shape(const StructureShape& sh) override {
      shapes.push_back(sh);
      points.emplace_back(sh.points.begin(), sh.points.end());
    }
  } path;
  REQUIRE(find_path(p, PathQuery{{0.5, 12.5}, {39.5, 12.5}}).status == SearchStatus::Found);
  p.visit_path_structure(path);
  std::size_t nodes = 0, lines = 0;
  for (std::size_t i = 0; i < path.shapes.size(); ++i) {
    const StructureShape& sh = path.shapes[i];
    if (sh.name == "coarse node") {
      CHECK(sh.role == StructureRole::Graph);
      nodes = path.points[i].size();
      // 16 rim points per circle, the rest a lattice
      CHECK(nodes > 32);
    }
    if (sh.name == "coarse line") {
      CHECK(sh.kind == StructureShape::Kind::Links);
      CHECK(path.points[i].size() % 2 == 0);
      lines = path.points[i].size() / 2;
    }
  }
  CHECK(double(nodes) == extra(p.result(), "coarse_nodes"));
  CHECK(lines > nodes);                                       // a lattice of 16 directions
  CHECK(double(lines) <= extra(p.result(), "coarse_lines"));  // the lines priced, less those a wall closed
  // Other modes draw no coarse graph.
  TacticalPlanner b(world, 0, params(TacticalMode::Bsts));
  Collect none;
  REQUIRE(find_path(b, PathQuery{{0.5, 12.5}, {39.5, 12.5}}).status == SearchStatus::Found);
  b.visit_path_structure(none);
  for (const StructureShape& sh : none.shapes) CHECK(sh.name != "coarse node");
}

TEST_CASE("tactical: the result depends on threats and allies and on expanded cells") {
  Scenario s = test::ascii_scenario(std::vector<std::string>(12, std::string(30, '.')));
  s.threats.push_back(influence(1, {15, 6}, 3));
  s.allies.push_back(influence(1, {8, 9}, 2));
  PlanningWorld world(s);
  const PlannerInfo* info = find_planner("tactical");
  auto p = info->create(QueryContext{world, 0, std::nullopt, resolve_params(*info, {}).value()});
  REQUIRE(find_path(*p, PathQuery{{1.5, 6.5}, {28.5, 6.5}}).status == SearchStatus::Found);
  // A threat moves: the answer no longer holds.
  Scenario moved = s;
  moved.threats[0].center = {15, 2};
  {
    PlanningWorld w2(s);
    auto q = info->create(QueryContext{w2, 0, std::nullopt, resolve_params(*info, {}).value()});
    REQUIRE(find_path(*q, PathQuery{{1.5, 6.5}, {28.5, 6.5}}).status == SearchStatus::Found);
    const WorldChange change = w2.update(moved).value();
    CHECK(change.touches(ItemKind::Threat));
    CHECK_FALSE(q->result_still_valid(change));
  }
  // An ally is added: no longer holds either.
  Scenario more = s;
  more.allies.push_back(influence(2, {20, 2}, 2));
  {
    PlanningWorld w3(s);
    auto q = info->create(QueryContext{w3, 0, std::nullopt, resolve_params(*info, {}).value()});
    REQUIRE(find_path(*q, PathQuery{{1.5, 6.5}, {28.5, 6.5}}).status == SearchStatus::Found);
    CHECK_FALSE(q->result_still_valid(w3.update(more).value()));
  }
  // Units moving change nothing it reads; a change of an expanded cell (the start's) does.
  const auto dep = p->result_dependency();
  REQUIRE(dep != nullptr);
  WorldChange unit;
  unit.items.push_back(ItemRef{ItemKind::Unit, 1, ItemChange::Changed});
  CHECK(dep->still_valid(unit));
  WorldChange near;
  near.cells = CellRect{1, 6, 2, 7};
  CHECK_FALSE(dep->still_valid(near));
}

TEST_CASE("tactical: with occlusion, cells changing under a threat invalidate the result") {
  Scenario s = test::ascii_scenario(std::vector<std::string>(10, std::string(20, '.')));
  s.threats.push_back(influence(1, {5, 5}, 3));
  PlanningWorld world(s);
  const std::vector<std::uint64_t> none((world.grid(0).cell_count() + 63) / 64, 0);  // nothing expanded
  WorldChange under;
  under.cells = CellRect{4, 4, 5, 5};
  WorldChange far;
  far.cells = CellRect{15, 0, 16, 1};
  const TacticalDependency hidden(world, 0, none, true), plain(world, 0, none, false);
  CHECK_FALSE(hidden.still_valid(under));
  CHECK(hidden.still_valid(far));
  CHECK(plain.still_valid(under));
  WorldChange rebuilt;
  rebuilt.rebuilt = true;
  CHECK_FALSE(plain.still_valid(rebuilt));
}

TEST_CASE(
    "tactical: waypoint mode stays near the optimum with four threats and four allies, exploring little") {
  // Open fields of 64 x 32 cells (the bench's placements, smaller in number): the mode's
  // cost against the brute-force optimum, and the share of cells it explored.
  std::mt19937_64 rng(2024);
  int placements = 0, within = 0;
  double explored = 0, ratio_sum = 0;
  for (int round = 0; round < 60; ++round) {
    const auto [s, a, b] = four_and_four(rng);
    PlanningWorld world(s);
    TacticalPlanner waypoint(world, 0, params(TacticalMode::Waypoint));
    const PathQuery query{cell_center(s, a.x, a.y), cell_center(s, b.x, b.y)};
    const double ref = reference_cost(s, waypoint.field().params(), a.x, a.y, b.x, b.y);
    const PathResult& r = find_path(waypoint, query);
    REQUIRE(r.status == SearchStatus::Found);
    CHECK(r.cost >= ref * (1 - 1e-9));
    ++placements;
    within += r.cost <= ref * 1.10;
    ratio_sum += r.cost / ref;
    explored += extra(r, "explored_percent");
  }
  CHECK(double(within) / placements >= 0.9);
  CHECK(ratio_sum / placements <= 1.05);
  CHECK(explored / placements <= 25.0);
}

TEST_CASE(
    "tactical: coarse mode keeps every path within 10% of the optimum with four threats and four allies") {
  // The waypoint test's fields and queries, more of them: every path within 10% of the
  // brute-force optimum, and little explored.
  std::mt19937_64 rng(2024);
  int placements = 0, within = 0;
  double explored = 0, ratio_sum = 0, worst = 0;
  for (int round = 0; round < 150; ++round) {
    const auto [s, a, b] = four_and_four(rng);
    PlanningWorld world(s);
    TacticalPlanner coarse(world, 0, params(TacticalMode::Coarse));
    const PathQuery query{cell_center(s, a.x, a.y), cell_center(s, b.x, b.y)};
    const double ref = reference_cost(s, coarse.field().params(), a.x, a.y, b.x, b.y);
    const PathResult& r = find_path(coarse, query);
    REQUIRE(r.status == SearchStatus::Found);
    CHECK(r.cost >= ref * (1 - 1e-9));
    ++placements;
    within += r.cost <= ref * 1.10;
    ratio_sum += r.cost / ref;
    worst = std::max(worst, r.cost / ref);
    explored += extra(r, "explored_percent");
  }
  CAPTURE(worst);
  CHECK(within == placements);
  CHECK(ratio_sum / placements <= 1.02);
  CHECK(explored / placements <= 19.5);
}

TEST_CASE("tactical: coarse mode finds a path wherever one exists, round walls and over rough ground") {
  // The lattice's lines stop at walls; the search must still reach the goal, never
  // below the optimum.
  std::mt19937_64 rng(77);
  for (int round = 0; round < 40; ++round) {
    const Scenario s = random_scenario(rng, 24, 16);
    PlanningWorld world(s);
    TacticalPlanner coarse(world, 0, params(TacticalMode::Coarse));
    const glm::ivec2 a = random_open(rng, s), b = random_open(rng, s);
    const double ref = reference_cost(s, coarse.field().params(), a.x, a.y, b.x, b.y);
    const PathResult& r = find_path(coarse, PathQuery{cell_center(s, a.x, a.y), cell_center(s, b.x, b.y)});
    CAPTURE(round);
    if (ref == std::numeric_limits<double>::infinity()) {
      CHECK(r.status == SearchStatus::NoPath);
      continue;
    }
    REQUIRE(r.status == SearchStatus::Found);
    CHECK(r.cost >= ref * (1 - 1e-9));
  }
}

TEST_CASE(
    "tactical: with allies the admissible heuristic is consistent, never above the brute-force cost to "
    "go, and explores fewer cells than exact") {
  std::mt19937_64 rng(2026);
  int informative = 0, checked = 0;
  for (int round = 0; round < 16; ++round) {
    CAPTURE(round);
    Scenario s = random_scenario(rng, 8 + int(rng() % 12), 6 + int(rng() % 8));
    std::uniform_real_distribution<double> x(0, s.tiles->width), y(0, s.tiles->height), r(1, 4);
    for (std::uint32_t i = 0; i < 2; ++i) s.allies.push_back(influence(10 + i, {x(rng), y(rng)}, r(rng)));
    PlanningWorld world(s);
    const CostGrid& grid = world.grid(0);
    TacticalPlanner admissible(
        world, 0, params(TacticalMode::Admissible, round % 2 ? 0.4 : 0.25, round % 2 ? 0.6 : 0.75));
    const glm::ivec2 a = random_open(rng, s), b = random_open(rng, s);
    const PathQuery query{cell_center(s, a.x, a.y), cell_center(s, b.x, b.y)};
    const PathResult& ra = find_path(admissible, query);
    if (ra.status != SearchStatus::Found) continue;
    const std::vector<double> to_goal = reference_costs(s, admissible.field().params(), b.x, b.y);
    const std::vector<double> to_start = reference_costs(s, admissible.field().params(), a.x, a.y);
    for (NodeId u = 0; u < grid.cell_count(); ++u) {
      if (!grid.passable(u) || to_goal[u] == std::numeric_limits<double>::infinity()) continue;
      ++checked;
      const double h0 = admissible.heuristic(0, u), h1 = admissible.heuristic(1, u);
      CHECK(h0 <= to_goal[u] * (1 + 1e-9) + 1e-12);
      CHECK(h1 <= to_start[u] * (1 + 1e-9) + 1e-12);
      informative += h0 > 0 ? 1 : 0;
      for (int dir = 0; dir < 8; ++dir) {
        if (!(grid.moves(u) & (1u << dir))) continue;
        const glm::ivec2 c = grid.cell(u);
        const NodeId v = grid.index(c.x + kDirDx[dir], c.y + kDirDy[dir]);
        CHECK(h0 <= admissible.move_cost(u, v) + admissible.heuristic(0, v) + 1e-9);
        CHECK(h1 <= admissible.move_cost(u, v) + admissible.heuristic(1, v) + 1e-9);
      }
    }
  }
  CHECK(checked > 500);
  CHECK(informative > checked / 2);  // not 0 everywhere, as distance x smallest cost (0) would be

  // Fewer cells than exact on the bench's 4 + 4 fields, the same optimum. Not on every
  // field: a bidirectional search with a heuristic may stop later than one without, and
  // where allies' reach covers most distances the heuristic is nearly 0. Cells are
  // counted from each search's trace (its Expand events), not from its own statistics.
  int fewer = 0;
  double cells_admissible = 0, cells_exact = 0;
  constexpr int kFields = 30;
  for (int f = 0; f < kFields; ++f) {
    const Field field = four_and_four(rng);
    PlanningWorld world(field.s);
    TacticalPlanner admissible(world, 0, params(TacticalMode::Admissible));
    TacticalPlanner exact(world, 0, params(TacticalMode::Exact));
    const PathQuery query{cell_center(field.s, field.a.x, field.a.y),
                          cell_center(field.s, field.b.x, field.b.y)};
    const auto [ra, na] = tactical_counted(admissible, query);
    const auto [re, ne] = tactical_counted(exact, query);
    REQUIRE(ra.status == SearchStatus::Found);
    REQUIRE(re.status == SearchStatus::Found);
    CHECK(ra.cost == doctest::Approx(re.cost).epsilon(1e-9));
    fewer += na < ne ? 1 : 0;
    cells_admissible += double(na);
    cells_exact += double(ne);
  }
  MESSAGE(fewer << " of " << kFields << " fields with fewer cells; " << cells_admissible << " against "
                << cells_exact << " cells in all");
  CHECK(fewer >= kFields * 7 / 10);
  CHECK(cells_admissible < 0.9 * cells_exact);
}

TEST_CASE(
    "tactical: on the seed's fields BSTS's search alone explores fewer cells than exact and "
    "admissible, over many placements") {
  // The seed's central claim (section 4), like for like: its search with no repair,
  // against the admissible heuristic and exact search, on Tables 1 and 2's fields of 512
  // and 2,048 cells with random threats and allies as the bench places them. Cells
  // explored are counted from each search's trace (the cells its Expand events close; the
  // repair emits none), by an observer of the test's own, not from the planner's
  // statistics; the planner's `searched` must say the same.
  int placements = 0, fewer_than_exact = 0, fewer_than_admissible = 0;
  for (const char* name : {"tactical_1v1_512.json", "tactical_1v1_2048.json"}) {
    const Result<Scenario> base = load_scenario(std::string(PATHSCOPE_SOURCE_DIR) + "/maps/" + name);
    REQUIRE(base.ok());
    for (const int agents : {1, 4}) {
      std::mt19937_64 rng(std::uint64_t(agents) * 7919 + std::uint64_t(base->grid_size().x));
      const double w = base->world.width, h = base->world.height;
      std::uniform_real_distribution<double> ux(0, w), uy(0, h), ur(15, 45), west(5, 40), east(w - 40, w - 5);
      for (int p = 0; p < 40; ++p) {
        Scenario s = *base;
        s.threats.clear();
        s.allies.clear();
        for (int i = 0; i < agents; ++i) {
          s.threats.push_back(influence(std::uint32_t(i + 1), {ux(rng), uy(rng)}, ur(rng)));
          s.allies.push_back(influence(std::uint32_t(i + 1), {ux(rng), uy(rng)}, ur(rng)));
        }
        const PathQuery query{{west(rng), uy(rng)}, {east(rng), uy(rng)}};
        PlanningWorld world(s);
        TacticalPlanner bsts(world, 0, params(TacticalMode::Bsts));
        TacticalPlanner admissible(world, 0, params(TacticalMode::Admissible));
        TacticalPlanner exact(world, 0, params(TacticalMode::Exact));
        const auto [rb, nb] = tactical_counted(bsts, query);
        const auto [ra, na] = tactical_counted(admissible, query);
        const auto [re, ne] = tactical_counted(exact, query);
        REQUIRE(rb.status == SearchStatus::Found);
        REQUIRE(ra.status == SearchStatus::Found);
        REQUIRE(re.status == SearchStatus::Found);
        ++placements;
        fewer_than_exact += nb < ne ? 1 : 0;
        fewer_than_admissible += nb < na ? 1 : 0;
        CHECK(extra(rb, "searched") == double(nb));
        CHECK(extra(re, "searched") == double(ne));
        // The join is what the seed returns; the repair only lowers it.
        CHECK(extra(rb, "joined_cost") >= re.cost * (1 - 1e-9));
        CHECK(rb.cost <= extra(rb, "joined_cost") * (1 + 1e-12));
      }
    }
  }
  CHECK(placements == 160);
  CHECK(fewer_than_exact == placements);
  CHECK(fewer_than_admissible >= placements * 95 / 100);
}
