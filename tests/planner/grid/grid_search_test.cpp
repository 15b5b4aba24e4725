// Grid planners: tiny hand-checked maps, and property tests against a brute-force
// Dijkstra on hundreds of random maps (with terrain costs and land/water groups).

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>

#include "planner/core/planner_registry.hpp"
#include "planner/grid/grid_astar.hpp"
#include "planner/grid/grid_bidirectional.hpp"
#include "planner/world/planning_world.hpp"
#include "tests/test_maps.hpp"

using namespace pathscope;
using pathscope::test::ascii_scenario;
using pathscope::test::cell_center;

namespace {

std::unique_ptr<Planner> make(const PlanningWorld& world, const std::string& name, ParamValues values = {}) {
  const PlannerInfo* info = find_planner(name);
  REQUIRE(info != nullptr);
  if (values.empty()) {
    for (const ParamSpec& p : info->params) values.push_back(p.default_value);
  }
  return info->create(QueryContext{world, 0, std::nullopt, values});
}

const char* kExact[] = {"astar", "dijkstra", "bidirectional"};

}  // namespace

TEST_SUITE("grid_search") {
  TEST_CASE("straight and diagonal moves cost 1 and sqrt(2)") {
    const PlanningWorld world(ascii_scenario({"....", "....", "...."}));
    for (const char* name : kExact) {
      auto p = make(world, name);
      const auto& r =
          find_path(*p, {cell_center(world.scenario(), 0, 0), cell_center(world.scenario(), 3, 2)});
      CHECK(r.status == SearchStatus::Found);
      CHECK(r.cost == doctest::Approx(1 + 2 * std::sqrt(2.0)).epsilon(1e-12));
      CHECK(r.length == doctest::Approx(r.cost));
      CHECK(r.nodes.size() == 4);
    }
  }

  TEST_CASE("no corner cutting: a diagonal needs both orthogonal neighbours") {
    // From (0,0) to (1,1): the diagonal is blocked by the wall at (1,0).
    const PlanningWorld world(ascii_scenario({".#", ".."}));
    for (const char* name : kExact) {
      auto p = make(world, name);
      const auto& r =
          find_path(*p, {cell_center(world.scenario(), 0, 0), cell_center(world.scenario(), 1, 1)});
      REQUIRE(r.status == SearchStatus::Found);
      CHECK(r.cost == doctest::Approx(2.0));
    }
  }

  TEST_CASE("terrain multiplier: mean of both cells, per move") {
    // Row: ground, swamp(3), ground. Going through costs (1+3)/2 + (3+1)/2 = 4; around
    // through the top row costs 2 + ... blocked by walls, so through.
    const PlanningWorld world(ascii_scenario({"###", ".s.", "###"}));
    auto p = make(world, "astar");
    const auto& r = find_path(*p, {cell_center(world.scenario(), 0, 1), cell_center(world.scenario(), 2, 1)});
    REQUIRE(r.status == SearchStatus::Found);
    CHECK(r.cost == doctest::Approx(4.0));
    CHECK(r.length == doctest::Approx(2.0));
  }

  TEST_CASE("cell size scales costs and lengths to metres") {
    const PlanningWorld world(ascii_scenario({"....", "...."}, 2.5));
    auto p = make(world, "bidirectional");
    const auto& r = find_path(*p, {cell_center(world.scenario(), 0, 0), cell_center(world.scenario(), 3, 0)});
    REQUIRE(r.status == SearchStatus::Found);
    CHECK(r.cost == doctest::Approx(7.5));
    CHECK(r.length == doctest::Approx(7.5));
  }

  TEST_CASE("start inside a wall is Invalid with a message naming the cell and terrain") {
    const PlanningWorld world(ascii_scenario({"..#", "..."}));
    for (const char* name : kExact) {
      auto p = make(world, name);
      const auto& r =
          find_path(*p, {cell_center(world.scenario(), 2, 0), cell_center(world.scenario(), 0, 0)});
      CHECK(r.status == SearchStatus::Invalid);
      CHECK(r.message.find("start") != std::string::npos);
      CHECK(r.message.find("cell (2, 0)") != std::string::npos);
      CHECK(r.message.find("wall") != std::string::npos);
      CHECK(r.stats.expansions == 0);
    }
  }

  TEST_CASE("goal outside the map is Invalid") {
    const PlanningWorld world(ascii_scenario({"..", ".."}));
    auto p = make(world, "astar");
    const auto& r = find_path(*p, {{0.5, 0.5}, {5.0, 0.5}});
    CHECK(r.status == SearchStatus::Invalid);
    CHECK(r.message.find("outside the map") != std::string::npos);
  }

  TEST_CASE("different connected regions answer NoPath without searching") {
    const PlanningWorld world(ascii_scenario({"..#..", "..#..", "..#.."}));
    CHECK(world.regions(0).region_count() == 2);
    for (const char* name : kExact) {
      auto p = make(world, name);
      const auto& r =
          find_path(*p, {cell_center(world.scenario(), 0, 0), cell_center(world.scenario(), 4, 2)});
      CHECK(r.status == SearchStatus::NoPath);
      CHECK(r.stats.expansions == 0);
      CHECK(r.message.find("regions") != std::string::npos);
    }
  }

  TEST_CASE("water connects only to water") {
    const PlanningWorld world(ascii_scenario({"..ww..", "..ww..", "......"}));
    auto p = make(world, "astar");
    auto r = find_path(*p, {cell_center(world.scenario(), 2, 0), cell_center(world.scenario(), 3, 1)});
    CHECK(r.status == SearchStatus::Found);
    r = find_path(*p, {cell_center(world.scenario(), 0, 0), cell_center(world.scenario(), 2, 0)});
    CHECK(r.status == SearchStatus::NoPath);
  }

  TEST_CASE("start == goal is found at cost 0") {
    const PlanningWorld world(ascii_scenario({"...", "..."}));
    for (const char* name : kExact) {
      auto p = make(world, name);
      const auto& r =
          find_path(*p, {cell_center(world.scenario(), 1, 1), cell_center(world.scenario(), 1, 1)});
      CHECK(r.status == SearchStatus::Found);
      CHECK(r.cost == 0);
      CHECK(r.nodes.size() == 1);
    }
  }

  TEST_CASE(
      "on an open map A* expands only the cells of its path: ties go deeper, the goal is never expanded") {
    // Every cell on an optimal path has f equal to the optimum; only exact ties, broken
    // towards the larger g, walk straight down one of them. Rounding noise in f would
    // send the search sideways into the band of equal f. A map of swamp alone (multiplier
    // 3 everywhere) checks that the exact keys scale with the one multiplier.
    for (const char ground : {'.', 's'}) {
      const std::string row(160, ground);
      const Scenario s = ascii_scenario(std::vector<std::string>(120, row));
      const PlanningWorld world(s);
      auto p = make(world, "astar");
      std::mt19937_64 rng(77);
      for (int q = 0; q < 200; ++q) {
        const int sx = int(rng() % 160), sy = int(rng() % 120), gx = int(rng() % 160), gy = int(rng() % 120);
        const PathResult& r = find_path(*p, {cell_center(s, sx, sy), cell_center(s, gx, gy)});
        CAPTURE(ground);
        CAPTURE(q);
        REQUIRE(r.status == SearchStatus::Found);
        CHECK(r.stats.expansions == r.nodes.size() - 1);
        const int dx = std::abs(gx - sx), dy = std::abs(gy - sy);
        const double octile = std::abs(dx - dy) + std::sqrt(2.0) * std::min(dx, dy);
        CHECK(r.cost == doctest::Approx(octile * (ground == 's' ? 3.0 : 1.0)).epsilon(1e-12));
      }
    }
  }

  TEST_CASE("exact planners agree with a brute-force Dijkstra on random maps") {
    std::mt19937_64 rng(20261121);
    int found = 0, unreachable = 0;
    for (int map = 0; map < 300; ++map) {
      const int w = 4 + int(rng() % 28), h = 4 + int(rng() % 28);
      const double density = 0.05 + 0.3 * double(rng() % 100) / 100.0;
      const bool terrain = map % 2 == 1;
      const Scenario s = ascii_scenario(test::random_rows(rng, w, h, density, terrain));
      const PlanningWorld world(s);
      std::vector<std::unique_ptr<Planner>> planners;
      for (const char* name : kExact) planners.push_back(make(world, name));
      auto weighted = make(world, "weighted_astar", {2.0});
      for (int q = 0; q < 4; ++q) {
        const int sx = int(rng() % unsigned(w)), sy = int(rng() % unsigned(h));
        const int gx = int(rng() % unsigned(w)), gy = int(rng() % unsigned(h));
        const double expected = test::reference_cost(s, sx, sy, gx, gy);
        const PathQuery query{cell_center(s, sx, sy), cell_center(s, gx, gy)};
        for (auto& p : planners) {
          const PathResult& r = find_path(*p, query);
          CAPTURE(p->name());
          CAPTURE(map);
          if (std::isinf(expected)) {
            CHECK(r.status != SearchStatus::Found);
          } else {
            REQUIRE(r.status == SearchStatus::Found);
            CHECK(r.cost == doctest::Approx(expected).epsilon(1e-9));
            // The path is a chain of legal moves whose summed cost is the reported cost.
            const CostGrid& g = world.grid(0);
            for (std::size_t i = 1; i < r.nodes.size(); ++i) {
              const glm::ivec2 a = g.cell(r.nodes[i - 1]), b = g.cell(r.nodes[i]);
              int d = 0;
              while (d < 8 && (kDirDx[d] != b.x - a.x || kDirDy[d] != b.y - a.y)) ++d;
              REQUIRE(d < 8);
              CHECK(((g.moves(r.nodes[i - 1]) >> d) & 1) == 1);
            }
          }
        }
        const PathResult& wr = find_path(*weighted, query);
        if (!std::isinf(expected)) {
          REQUIRE(wr.status == SearchStatus::Found);
          CHECK(wr.cost <= 2.0 * expected + 1e-9);
          ++found;
        } else {
          ++unreachable;
        }
      }
    }
    CHECK(found > 500);
    CHECK(unreachable > 20);
  }

  TEST_CASE("a path's length and points: its legs summed in order, bit for bit, at any cell size") {
    // The reported length against the legs of the reported points, summed here in order;
    // the points against the cells' centres; random points inside the end cells.
    std::mt19937_64 rng(20261129);
    const double sizes[] = {0.25, 0.5, 1.0, 2.0, 4.0, 2.5, 0.3, 10.0};
    const char* names[] = {"astar", "bidirectional", "jps", "jps_block", "jps_plus"};
    int checked = 0;
    for (int map = 0; map < 120; ++map) {
      const int w = 3 + int(rng() % 30), h = 3 + int(rng() % 30);
      const double cs = sizes[std::size_t(map) % std::size(sizes)];
      const Scenario s = ascii_scenario(test::random_rows(rng, w, h, 0.2, false), cs);
      const PlanningWorld world(s);
      const CostGrid& g = world.grid(0);
      for (int q = 0; q < 4; ++q) {
        const int sx = int(rng() % unsigned(w)), sy = int(rng() % unsigned(h));
        const int gx = int(rng() % unsigned(w)), gy = int(rng() % unsigned(h));
        const auto inside = [&](int x, int y) {
          return Vec2{(x + 0.05 + 0.9 * double(rng() % 1000) / 1000.0) * cs,
                      (y + 0.05 + 0.9 * double(rng() % 1000) / 1000.0) * cs};
        };
        const PathQuery query{inside(sx, sy), inside(gx, gy)};
        for (const char* name : names) {
          auto p = make(world, name);
          const PathResult& r = find_path(*p, query);
          if (r.status != SearchStatus::Found) continue;
          CAPTURE(name);
          CAPTURE(map);
          REQUIRE(r.points.size() == std::max<std::size_t>(r.nodes.size(), 2));
          CHECK(r.points.front() == query.start);
          CHECK(r.points.back() == query.goal);
          for (std::size_t i = 1; i + 1 < r.nodes.size(); ++i) {
            const glm::ivec2 c = g.cell(r.nodes[i]);
            CHECK(r.points[i] == Vec2{(c.x + 0.5) * cs, (c.y + 0.5) * cs});
          }
          double legs = 0;
          for (std::size_t i = 1; i < r.points.size(); ++i) {
            const double dx = r.points[i].x - r.points[i - 1].x, dy = r.points[i].y - r.points[i - 1].y;
            legs += std::sqrt(dx * dx + dy * dy);
          }
          CHECK(r.length == legs);
          ++checked;
        }
      }
    }
    CHECK(checked > 1000);
  }

  TEST_CASE("stepping one expansion at a time equals the one-shot answer") {
    std::mt19937_64 rng(7);
    for (int map = 0; map < 40; ++map) {
      const Scenario s = ascii_scenario(test::random_rows(rng, 24, 18, 0.25, true));
      const PlanningWorld world(s);
      for (const char* name : kExact) {
        auto one_shot = make(world, name);
        auto stepped = make(world, name);
        const PathQuery q{cell_center(s, int(rng() % 24), int(rng() % 18)),
                          cell_center(s, int(rng() % 24), int(rng() % 18))};
        const PathResult a = find_path(*one_shot, q);
        SearchStatus st = stepped->start(q);
        std::uint64_t calls = 0;
        while (!is_finished(st)) {
          st = stepped->step(1);
          ++calls;
        }
        const PathResult& b = stepped->result();
        CHECK(a.status == b.status);
        CHECK(a.nodes == b.nodes);
        CHECK(a.cost == b.cost);
        CHECK(a.stats.expansions == b.stats.expansions);
        CHECK(a.stats.pushes == b.stats.pushes);
        CHECK(calls >= b.stats.expansions);
      }
    }
  }

  TEST_CASE("reusing a planner across queries gives the same answers as a fresh one") {
    std::mt19937_64 rng(99);
    const Scenario s = ascii_scenario(test::random_rows(rng, 40, 30, 0.2, true));
    const PlanningWorld world(s);
    for (const char* name : kExact) {
      auto reused = make(world, name);
      for (int q = 0; q < 30; ++q) {
        const PathQuery query{cell_center(s, int(rng() % 40), int(rng() % 30)),
                              cell_center(s, int(rng() % 40), int(rng() % 30))};
        auto fresh = make(world, name);
        const PathResult a = find_path(*reused, query);
        const PathResult& b = find_path(*fresh, query);
        CHECK(a.status == b.status);
        CHECK(a.nodes == b.nodes);
        CHECK(a.stats.expansions == b.stats.expansions);
      }
    }
  }

  TEST_CASE("bidirectional paths are optimal where the searches meet (no bump)") {
    // An open field: any bump at the meeting point would make the path longer than octile.
    const PlanningWorld world(ascii_scenario(std::vector<std::string>(30, std::string(50, '.'))));
    auto p = make(world, "bidirectional");
    const auto& r =
        find_path(*p, {cell_center(world.scenario(), 1, 3), cell_center(world.scenario(), 47, 26)});
    REQUIRE(r.status == SearchStatus::Found);
    CHECK(r.cost == doctest::Approx(23 + 23 * std::sqrt(2.0)).epsilon(1e-12));
    bool has_meet = false;
    for (const auto& [k, v] : r.stats.extra) has_meet |= k == "meet_x";
    CHECK(has_meet);
  }

  TEST_CASE("search state stays within 24 bytes per cell") {
    CHECK(GridAStar::kStateBytesPerCell <= 24);
    CHECK(GridBidirectional::kStateBytesPerCell <= 24);
  }

  TEST_CASE("registry parameters are validated") {
    const PlannerInfo* w = find_planner("weighted_astar");
    REQUIRE(w);
    std::vector<PlannerParam> bad = {{"weight", 0.5}};
    auto r = resolve_params(*w, bad, "queries[2]");
    REQUIRE(!r.ok());
    CHECK(r.error().where == "queries[2].params.weight");
    std::vector<PlannerParam> unknown = {{"wieght", 2}};
    auto u = resolve_params(*w, unknown, "queries[0]");
    REQUIRE(!u.ok());
    CHECK(u.error().message.find("weight") != std::string::npos);
    CHECK(find_planner("nope") == nullptr);
  }

}  // TEST_SUITE
