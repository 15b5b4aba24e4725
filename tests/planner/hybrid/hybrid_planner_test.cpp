// The hybrid planner (seed 004's conclusion): visibility-graph route, grid A* per leg.
// Its paths are legal cell paths whose cost is their moves' cost, never below A*'s
// optimum; they keep the class's radius from blocked cells and the world's edge (the
// path referee's clearance), and it finds a path exactly when one keeping the radius
// exists (a brute-force search over the moves the referee passes); a single leg equals
// A*; stepping equals one shot; the trace holds the legs' expansions and the route and
// refined paths.

#include <doctest/doctest.h>

#include <cmath>
#include <deque>
#include <map>
#include <random>

#include <glm/common.hpp>

#include "planner/core/planner_registry.hpp"
#include "planner/core/search_trace.hpp"
#include "planner/hybrid/hybrid_planner.hpp"
#include "planner/referee/path_referee.hpp"
#include "planner/scenario/scenario_io.hpp"
#include "planner/world/planning_world.hpp"
#include "tests/test_maps.hpp"
#include "tests/trace_replay_check.hpp"

using namespace pathscope;

namespace {

Feature rect(std::uint32_t id, std::size_t terrain, Vec2 lo, Vec2 hi) {
  Feature f;
  f.id = id;
  f.terrain = terrain;
  f.shape.kind = ShapeKind::Rect;
  f.shape.min = lo;
  f.shape.max = hi;
  return f;
}

// Random walls, swamps and rough ground on a w x h field.
Scenario random_field(std::mt19937_64& rng, double w, double h) {
  Scenario s = make_empty_scenario(w, h, 1.0);
  const std::size_t kinds[] = {*s.find_terrain("wall"), *s.find_terrain("wall"), *s.find_terrain("swamp"),
                               *s.find_terrain("rough")};
  std::uniform_real_distribution<double> ux(0, w - 2), uy(0, h - 2), size(1.5, 9);
  for (std::uint32_t i = 1; i <= 14; ++i) {
    const Vec2 lo{ux(rng), uy(rng)};
    s.features.push_back(
        rect(i, kinds[rng() % 4], lo, glm::min(lo + Vec2{size(rng), size(rng)}, Vec2{w, h})));
  }
  return s;
}

ParamValues defaults(const PlannerInfo& info) {
  ParamValues v;
  for (const ParamSpec& p : info.params) v.push_back(p.default_value);
  return v;
}

// The cost of a cell path by its moves (grid rules), metres; -1 when a move is illegal.
double cell_path_cost(const CostGrid& grid, const std::vector<NodeId>& nodes) {
  double cost = 0;
  for (std::size_t i = 1; i < nodes.size(); ++i) {
    const glm::ivec2 a = grid.cell(nodes[i - 1]), b = grid.cell(nodes[i]);
    int dir = -1;
    for (int d = 0; d < 8; ++d) {
      if (kDirDx[d] == b.x - a.x && kDirDy[d] == b.y - a.y) dir = d;
    }
    if (dir < 0 || !((grid.moves(nodes[i - 1]) >> dir) & 1u)) return -1;
    cost += grid.move_cost(nodes[i - 1], dir);
  }
  return cost * grid.cell_size();
}

// Whether a polyline keeps `radius` from blocked cells and the world's edge, by the
// path referee (which shares no code with the planner).
bool referee_clear(const PlanningWorld& world, std::size_t cls, std::vector<Vec2> points, double radius) {
  referee::RefereeParams p;
  p.clearance = radius;
  const auto v = referee::referee_path(world, cls, points, p);
  REQUIRE(v.ok());
  return v->legal;
}

// Brute force: whether a path from `from` to `to` keeps `radius`, over the grid's moves
// between cell centres the referee passes (with the legs from the two points to their
// cells' centres).
bool clear_path_exists(const PlanningWorld& world, std::size_t cls, Vec2 from, Vec2 to, double radius) {
  const CostGrid& g = world.grid(cls);
  const auto a = g.cell_at(from), b = g.cell_at(to);
  if (!a || !b || !referee_clear(world, cls, {from, g.center(*a)}, radius) ||
      !referee_clear(world, cls, {g.center(*b), to}, radius))
    return false;
  std::vector<std::uint8_t> seen(g.cell_count(), 0);
  std::deque<std::uint32_t> open{*a};
  seen[*a] = 1;
  while (!open.empty()) {
    const std::uint32_t u = open.front();
    open.pop_front();
    if (u == *b) return true;
    for (int d = 0; d < 8; ++d) {
      if (!((g.moves(u) >> d) & 1u)) continue;
      const auto v = std::uint32_t(std::int64_t(u) + g.offsets()[d]);
      if (seen[v] || !referee_clear(world, cls, {g.center(u), g.center(v)}, radius)) continue;
      seen[v] = 1;
      open.push_back(v);
    }
  }
  return false;
}

}  // namespace

TEST_SUITE("hybrid") {
  TEST_CASE("hybrid: paths keep the class's radius (the referee's clearance), found exactly when one can") {
    // Before the legs kept the radius, 75 of the 110 paths found here came nearer a
    // blocked cell than it, and 52 answers disagreed with the brute force.
    std::mt19937_64 rng(3204);
    const PlannerInfo* info = find_planner("hybrid");
    REQUIRE(info);
    int found = 0, refused = 0;
    for (int map = 0; map < 10; ++map) {
      const Scenario s = random_field(rng, 48, 32);
      const PlanningWorld world(s);
      for (const std::size_t cls : {std::size_t(0), std::size_t(1)}) {
        const double radius = s.classes.at(cls).radius;
        REQUIRE(radius > 0);
        auto hybrid = info->create(QueryContext{world, cls, std::nullopt, defaults(*info)});
        REQUIRE(referee::params_for(*info, defaults(*info), world, cls).clearance == radius);
        std::uniform_real_distribution<double> ux(0, 48), uy(0, 32);
        for (int q = 0; q < 8; ++q) {
          const PathQuery query{{ux(rng), uy(rng)}, {ux(rng), uy(rng)}};
          CAPTURE(map);
          CAPTURE(cls);
          CAPTURE(q);
          const PathResult h = find_path(*hybrid, query);
          const bool exists = clear_path_exists(world, cls, query.start, query.goal, radius);
          CHECK((h.status == SearchStatus::Found) == exists);
          if (h.status != SearchStatus::Found) {
            refused += exists ? 0 : 1;
            continue;
          }
          ++found;
          CHECK(referee_clear(world, cls, h.points, radius));
        }
      }
    }
    MESSAGE("radius kept: " << found << " paths found, " << refused << " queries with no path keeping it");
    CHECK(found >= 40);
    CHECK(refused >= 10);
  }

  TEST_CASE("hybrid: legal cell paths, cost = their moves, never below A*, found only when A* finds one") {
    std::mt19937_64 rng(2004);
    const PlannerInfo* astar_info = find_planner("astar");
    const PlannerInfo* hybrid_info = find_planner("hybrid");
    REQUIRE(hybrid_info);
    CHECK(hybrid_info->family == "hybrid");
    CHECK_FALSE(hybrid_info->exact);
    int found = 0, above = 0;
    for (int map = 0; map < 12; ++map) {
      const Scenario s = random_field(rng, 60, 40);
      const PlanningWorld world(s);
      auto astar = astar_info->create(QueryContext{world, 0, std::nullopt, defaults(*astar_info)});
      auto hybrid = hybrid_info->create(QueryContext{world, 0, std::nullopt, defaults(*hybrid_info)});
      std::uniform_real_distribution<double> ux(0, 60), uy(0, 40);
      for (int q = 0; q < 10; ++q) {
        const PathQuery query{{ux(rng), uy(rng)}, {ux(rng), uy(rng)}};
        CAPTURE(map);
        CAPTURE(q);
        const PathResult a = find_path(*astar, query);
        const PathResult h = find_path(*hybrid, query);
        if (a.status == SearchStatus::Invalid) {
          CHECK(h.status == SearchStatus::Invalid);
          continue;
        }
        // The hybrid keeps the radius (the case above): it may refuse where A* does not.
        if (h.status == SearchStatus::Found) REQUIRE(a.status == SearchStatus::Found);
        if (h.status != SearchStatus::Found) continue;
        ++found;
        CHECK(h.points.front() == query.start);
        CHECK(h.points.back() == query.goal);
        const double by_moves = cell_path_cost(world.grid(0), h.nodes);
        REQUIRE(by_moves >= 0);
        CHECK(h.cost == doctest::Approx(by_moves).epsilon(1e-9));
        CHECK(h.cost >= a.cost - 1e-9);
        above += h.cost > a.cost + 1e-9;
      }
    }
    CHECK(found >= 40);
    CHECK(above >= 1);  // legs pinned to the route's corners are not always optimal
  }

  TEST_CASE("hybrid: a leg over costed terrain goes round a swamp the route crosses, as A* does") {
    Scenario s = make_empty_scenario(40, 20, 1.0);
    s.features.push_back(rect(1, *s.find_terrain("swamp"), {15, 3}, {25, 17}));  // infantry: x3
    const PlanningWorld world(s);
    const PathQuery q{{5.5, 10.5}, {35.5, 10.5}};
    HybridParams p;
    p.route.weighted = false;  // the route ignores the swamp: straight through it
    HybridPlanner hybrid(world, 0, p);
    const PathResult h = find_path(hybrid, q);
    REQUIRE(h.status == SearchStatus::Found);
    REQUIRE(hybrid.route().size() == 2);  // one leg
    CHECK(hybrid.route()[0] == q.start);
    auto astar = find_planner("astar")->create(QueryContext{world, 0, std::nullopt, {}});
    const PathResult a = find_path(*astar, q);
    CHECK(h.cost == doctest::Approx(a.cost));
    CHECK(h.cost < 30.0 + 2 * 10.0);  // cheaper than straight through the swamp (10 m at x3)
    double low = 20;
    for (const Vec2& v : h.points) low = std::min(low, std::min(v.y, 20 - v.y));
    CHECK(low < 3.5);  // it went round, past the swamp's top or bottom
  }

  TEST_CASE("hybrid: stepping equals one shot, the trace holds legs, route and refined path") {
    std::mt19937_64 rng(77);
    const Scenario s = random_field(rng, 60, 40);
    const PlanningWorld world(s);
    HybridPlanner one(world, 0, HybridParams{});
    HybridPlanner stepped(world, 0, HybridParams{});
    SearchTrace trace;
    stepped.set_observer(&trace);
    std::uniform_real_distribution<double> ux(0, 60), uy(0, 40);
    int checked = 0;
    for (int q = 0; q < 20 && checked < 5; ++q) {
      const PathQuery query{{ux(rng), uy(rng)}, {ux(rng), uy(rng)}};
      const PathResult a = find_path(one, query);
      if (a.status != SearchStatus::Found || a.stats.extra.empty() || a.stats.extra[2].second < 2) continue;
      SearchStatus st = stepped.start(query);
      int steps = 0;
      while (st == SearchStatus::Running) {
        st = stepped.step(1);
        ++steps;
      }
      const PathResult& b = stepped.result();
      REQUIRE(b.status == SearchStatus::Found);
      CHECK(b.points == a.points);
      CHECK(b.nodes == a.nodes);
      CHECK(b.cost == a.cost);
      CHECK(b.stats.expansions == a.stats.expansions);
      CHECK(std::uint64_t(steps) >= a.stats.expansions);
      bool route = false, refined = false, final_path = false;
      for (const Refinement& r : trace.refinements()) {
        route = route || r.stage == "visibility route";
        refined = refined || r.stage == "legs refined";
        if (r.stage == "hybrid path") {
          final_path = true;
          CHECK(r.points == a.points);
        }
      }
      CHECK(route);
      CHECK(refined);
      CHECK(final_path);
      std::uint64_t expands = 0;
      for (const SearchEvent& e : trace.events()) expands += e.kind == SearchEventKind::Expand;
      CHECK(expands == std::uint64_t(a.stats.extra[1].second));  // the legs' expansions
      ++checked;
    }
    CHECK(checked >= 3);
  }

  TEST_CASE("hybrid: the trace replays the live search, every leg's nodes at every step") {
    // The live planner shows every leg's nodes as the replay lays the legs' events one
    // over another (g from the query's start), not only the current leg's.
    std::mt19937_64 rng(78);
    const Scenario s = random_field(rng, 60, 40);
    const PlanningWorld world(s);
    HybridPlanner traced(world, 0, HybridParams{}), live(world, 0, HybridParams{});
    std::uniform_real_distribution<double> ux(0, 60), uy(0, 40);
    int checked = 0;
    for (int q = 0; q < 30 && checked < 4; ++q) {
      const PathQuery query{{ux(rng), uy(rng)}, {ux(rng), uy(rng)}};
      SearchTrace trace;
      traced.set_observer(&trace);
      const PathResult full = find_path(traced, query);
      if (full.status != SearchStatus::Found || full.stats.extra[2].second < 3) continue;
      SearchTrace steps;  // the live run's own, to know the trace's step at each moment
      live.set_observer(&steps);
      test::check_replay_follows_live(live, trace, query, [&] { return steps.step_count(); });
      ++checked;
    }
    CHECK(checked >= 3);
  }

  TEST_CASE("hybrid: its structure is the visibility graph's, without the graph's corner ids") {
    std::mt19937_64 rng(9);
    const Scenario s = random_field(rng, 60, 40);
    const PlanningWorld world(s);
    HybridPlanner hybrid(world, 0, HybridParams{});
    VisGraphPlanner route(world, 0, HybridParams{}.route);
    REQUIRE(find_path(hybrid, PathQuery{{1, 1}, {59, 39}}).status != SearchStatus::Idle);
    REQUIRE(find_path(route, PathQuery{{1, 1}, {59, 39}}).status != SearchStatus::Idle);
    struct Edges final : StructureVisitor {
      std::size_t count = 0, with_ids = 0;
      void edge(const StructureEdge& e) override {
        ++count;
        with_ids += e.from != kNoNode || e.to != kNoNode;
      }
    } mine, theirs;
    const Box2 all{{0, 0}, {60, 40}};
    hybrid.visit_structure(all, mine);
    route.visit_structure(all, theirs);
    CHECK(mine.count == theirs.count);
    CHECK(mine.count > 10);
    CHECK(theirs.with_ids > 0);
    CHECK(mine.with_ids == 0);  // its node ids are cells: a corner's id would name another cell
  }

  TEST_CASE("hybrid: a point the grid blocks is invalid, no way on the grid is no path") {
    Scenario s = make_empty_scenario(30, 20, 1.0);
    s.features.push_back(rect(1, *s.find_terrain("wall"), {14, 0}, {16, 20}));
    const PlanningWorld world(s);
    HybridPlanner h(world, 0, HybridParams{});
    CHECK(find_path(h, PathQuery{{15, 10}, {25, 10}}).status == SearchStatus::Invalid);
    CHECK(find_path(h, PathQuery{{5, 10}, {25, 10}}).status == SearchStatus::NoPath);
    CHECK(find_path(h, PathQuery{{5, 10}, {10, 15}}).status == SearchStatus::Found);
  }

  TEST_CASE(
      "hybrid: with radius 0 a route corner on a cell corner stands for the cell the route bends through") {
    // A maze the conformance suite generated (uniform world 1068): the route goes round
    // the end of a wall, its corners on cell corners. The cell a corner's coordinates
    // round down to lay beyond the wall's end and cost a detour: 15 + 5 sqrt 2 (1.113 x
    // grid A*'s 17 + 2 sqrt 2). Through the cell diagonally opposite the wall's cell it
    // costs 13 + 6 sqrt 2 (1.084 x: the route's way round the wall is not grid A*'s).
    const Result<Scenario> s =
        load_scenario(std::string(PATHSCOPE_SOURCE_DIR) + "/tests/data/hybrid_corner_maze.json");
    REQUIRE(s.ok());
    const PlanningWorld world(*s);
    HybridParams p;
    p.route.radius = 0;
    HybridPlanner h(world, 0, p);
    GridAStar astar(world, 0, GridAStarParams{1.0}, "astar");
    const PathQuery q{s->queries.at(0).start, s->queries.at(0).goal};
    const PathResult r = find_path(h, q);
    REQUIRE(r.status == SearchStatus::Found);
    CHECK(r.cost == doctest::Approx(13 + 6 * std::sqrt(2.0)).epsilon(1e-12));
    CHECK(cell_path_cost(world.grid(0), r.nodes) == doctest::Approx(r.cost).epsilon(1e-12));
    CHECK(find_path(astar, q).cost == doctest::Approx(17 + 2 * std::sqrt(2.0)).epsilon(1e-12));
  }

  TEST_CASE("hybrid: an answer held after a change is the answer re-planned, walls placed away keep it") {
    // Random changes after each answer: a wall placed anywhere, a swamp or a wall placed on
    // the path, a threat moved, a wall removed. Whenever the dependency says the answer holds, planning again
    // must give it exactly; walls away from the route and threats must keep it, and removals void it.
    std::mt19937_64 rng(3004);
    const PlannerInfo* info = find_planner("hybrid");
    REQUIRE(info);
    int kept = 0, voided = 0, threats_kept = 0, removals = 0;
    for (int round = 0; round < 60; ++round) {
      Scenario s = random_field(rng, 60, 40);
      Influence threat;
      threat.id = 1;
      threat.center = {30, 20};
      threat.radius = 5;
      s.threats.push_back(threat);
      PlanningWorld world(s);
      auto hybrid = info->create(QueryContext{world, 0, std::nullopt, defaults(*info)});
      std::uniform_real_distribution<double> ux(0, 60), uy(0, 40);
      const PathQuery query{{ux(rng), uy(rng)}, {ux(rng), uy(rng)}};
      const PathResult before = find_path(*hybrid, query);
      if (before.status != SearchStatus::Found) continue;
      const std::unique_ptr<ResultDependency> dependency = hybrid->result_dependency();
      if (!dependency) continue;  // a fallback: any change re-plans
      CAPTURE(round);
      const int kind = round % 5;
      if (kind == 0 || kind == 1 || kind == 4) {
        // Anywhere, or over a point of the path (which changes the answer, mostly).
        const Vec2 at = kind == 0 ? Vec2{ux(rng), uy(rng)} : before.points[before.points.size() / 2];
        const Vec2 lo = glm::max(at - Vec2{1.5, 1.5}, Vec2{0, 0});
        s.features.push_back(rect(100, *s.find_terrain(kind == 1 ? "swamp" : "wall"), lo,
                                  glm::min(lo + Vec2{3, 3}, Vec2{60, 40})));
      } else if (kind == 2) {
        s.threats[0].center = {ux(rng), uy(rng)};
      } else {
        s.features.erase(s.features.begin());
      }
      const WorldChange change = world.update(s).value();
      const bool holds = dependency->still_valid(change);
      if (kind == 2) {
        CHECK(holds);
        threats_kept += holds;
      }
      if (kind == 3) {
        CHECK_FALSE(holds);
        ++removals;
      }
      if (!holds) {
        ++voided;
        continue;
      }
      ++kept;
      if (kind == 1 || kind == 4) MESSAGE("held with a feature on the path");
      auto again = info->create(QueryContext{world, 0, std::nullopt, defaults(*info)});
      const PathResult after = find_path(*again, query);
      REQUIRE(after.status == SearchStatus::Found);
      CHECK(after.points == before.points);
      CHECK(after.nodes == before.nodes);
      CHECK(after.cost == before.cost);
    }
    CHECK(kept >= 10);
    CHECK(voided >= 5);
    CHECK(threats_kept >= 3);
    CHECK(removals >= 3);
  }

}  // TEST_SUITE
