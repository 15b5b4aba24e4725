// The navmesh keeps its declared clearance: on random maps (walls, slow ground, round
// and triangular obstacles off the cell lines), random radii, voxel sizes and tile sizes,
// and random queries, every path found is legal for the path referee at the clearance the
// registry declares (the radius less half a voxel), and comes no nearer a wall. With
// radius half a cell and an odd number of voxels per cell, it answers every query between
// cell centres that grid moves join (each such move keeps half a cell from every wall).
// For every voxels_per_cell from 1 to 8, no polygon covers a blocked cell and every path
// is legal.

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "planner/core/planner_registry.hpp"
#include "planner/navmesh/navmesh.hpp"
#include "planner/referee/path_referee.hpp"
#include "planner/world/planning_world.hpp"
#include "tests/planner/navmesh/navmesh_test_support.hpp"
#include "tests/test_maps.hpp"

using namespace pathscope;

namespace navmesh_clearance_test {

// Round and triangular walls placed at random, off the cell lines.
void add_obstacles(std::mt19937_64& rng, Scenario& s, int count) {
  std::uniform_real_distribution<double> u(0, 1);
  std::size_t wall = 0;
  while (s.terrains[wall].symbol != '#') ++wall;
  const double w = s.world.width, h = s.world.height;
  for (int k = 0; k < count; ++k) {
    Shape shape;
    const Vec2 c{1 + u(rng) * (w - 2), 1 + u(rng) * (h - 2)};
    if (k % 2 == 0) {
      shape.kind = ShapeKind::Circle;
      shape.center = c;
      shape.radius = 0.4 + 1.6 * u(rng);
    } else {
      shape.points = {c + Vec2{-1.7 * u(rng) - 0.3, 1.1}, c + Vec2{1.9 * u(rng) + 0.3, 1.4},
                      c + Vec2{0.2, -1.8 * u(rng) - 0.3}};
    }
    s.features.push_back(Feature{std::uint32_t(1000 + k), "", wall, shape});
  }
}

// A random point of the map (anywhere, not only cell centres).
Vec2 random_point(std::mt19937_64& rng, const Scenario& s) {
  std::uniform_real_distribution<double> u(0, 1);
  return {u(rng) * s.world.width, u(rng) * s.world.height};
}

// Blocked cells of which some point of a 7 x 7 lattice inside lies on a polygon of the mesh.
int covered_blocked_cells(const Scenario& s, const Navmesh& mesh) {
  int covered = 0;
  for (int y = 0; y < s.tiles->height; ++y) {
    for (int x = 0; x < s.tiles->width; ++x) {
      if (test::tile_passable(s, x, y)) continue;
      bool hit = false;
      for (int i = 1; i < 8 && !hit; ++i) {
        for (int j = 1; j < 8 && !hit; ++j)
          hit = mesh.polygon_at(test::cell_center(s, x, y) + Vec2{i / 8.0 - 0.5, j / 8.0 - 0.5}) != kNoNode;
      }
      covered += hit ? 1 : 0;
    }
  }
  return covered;
}

}  // namespace navmesh_clearance_test

TEST_SUITE("navmesh") {
  TEST_CASE("random maps, radii and voxels: every path keeps the declared clearance (path referee)") {
    namespace t = navmesh_clearance_test;
    const PlannerInfo* info = find_planner("navmesh");
    REQUIRE(info != nullptr);
    std::mt19937_64 rng(5301);
    int found = 0, refused = 0, checked_near = 0;
    double worst_margin = 1e9;  // least (referee's clearance - declared) over paths near a wall
    for (int round = 0; round < 40; ++round) {
      const int w = 12 + int(rng() % 28), h = 12 + int(rng() % 28);
      std::vector<std::string> rows =
          test::random_rows(rng, w, h, 0.08 + 0.05 * double(rng() % 3), round % 2 == 1);
      // One terrain group: paths are judged on clearance, walls and costs.
      for (std::string& row : rows) std::replace(row.begin(), row.end(), 'w', 's');
      Scenario s = test::ascii_scenario(rows);
      t::add_obstacles(rng, s, int(rng() % 5));
      const double radii[] = {0.2, 0.35, 0.5, 0.75, 1.0, 1.5};
      const double vpcs[] = {2, 3, 4, 5, 3};
      s.classes[0].radius = radii[rng() % 6];
      const double vpc = vpcs[rng() % 5];
      const double tile = double(8 + rng() % 24);
      const PlanningWorld world(s);
      auto values =
          resolve_params(*info, std::vector<PlannerParam>{{"voxels_per_cell", vpc}, {"tile_cells", tile}});
      REQUIRE(values.ok());
      const QueryContext context{world, 0, std::nullopt, *values};
      auto planner = info->create(context);
      const referee::RefereeParams rp = referee::params_for(*info, *values, world, 0);
      const double declared = declared_clearance(*info, context);
      CHECK(rp.clearance == declared);
      CHECK(declared == doctest::Approx(std::max(0.0, s.classes[0].radius - 0.5 * s.world.cell_size / vpc)));
      for (int k = 0; k < 25; ++k) {
        const PathQuery q =
            k % 2 == 0 ? PathQuery{test::random_cell_center(rng, s), test::random_cell_center(rng, s)}
                       : PathQuery{t::random_point(rng, s), t::random_point(rng, s)};
        const PathResult r = find_path(*planner, q);
        CAPTURE(round);
        CAPTURE(k);
        CAPTURE(s.classes[0].radius);
        CAPTURE(vpc);
        CAPTURE(tile);
        CAPTURE(r.message);
        if (r.status != SearchStatus::Found) {
          ++refused;
          continue;
        }
        ++found;
        const auto verdict = referee::referee_path(world, 0, r.points, rp);
        REQUIRE(verdict.ok());
        CHECK_MESSAGE(verdict->legal,
                      (verdict->violations.empty() ? std::string() : verdict->violations.front().message));
        if (declared > 0 && std::isfinite(verdict->min_clearance)) {
          ++checked_near;
          worst_margin = std::min(worst_margin, verdict->min_clearance - declared);
        }
      }
    }
    MESSAGE(found << " found, " << refused
                  << " refused; least clearance beyond the declared: " << worst_margin);
    CHECK(found > 250);
    CHECK(checked_near > 150);
    CHECK(worst_margin > -1.0 / 512);
  }

  TEST_CASE(
      "every voxels_per_cell from 1 to 8: no polygon over a blocked cell, every path legal (path referee)") {
    // With one voxel a cell every wall cell is a single voxel: Recast's watershed regions
    // hold such walls as holes, and merging them into the outline left outlines its ear
    // clipping could not triangulate, whose triangles covered the walls (about half the
    // wall cells of these maps). Radius 0 checks the polygons' corners: they lie on wall
    // corners exactly, not a float's width inside.
    namespace t = navmesh_clearance_test;
    const PlannerInfo* info = find_planner("navmesh");
    REQUIRE(info != nullptr);
    std::mt19937_64 rng(5303);
    for (int vpc = 1; vpc <= 8; ++vpc) {
      int found = 0, covered = 0, blocked = 0;
      for (int round = 0; round < 8; ++round) {
        const int w = 12 + int(rng() % 24), h = 12 + int(rng() % 24);
        Scenario s =
            test::ascii_scenario(test::random_rows(rng, w, h, 0.1 + 0.05 * double(rng() % 4), false));
        s.classes[0].radius = std::array{0.0, 0.2, 0.5, 0.75, 1.0}[rng() % 5];
        const PlanningWorld world(s);
        auto values =
            resolve_params(*info, std::vector<PlannerParam>{{"voxels_per_cell", double(vpc)},
                                                            {"tile_cells", double(8 + rng() % 24)}});
        REQUIRE(values.ok());
        const QueryContext context{world, 0, std::nullopt, *values};
        auto planner = info->create(context);
        const referee::RefereeParams rp = referee::params_for(*info, *values, world, 0);
        for (int k = 0; k < 30; ++k) {
          const PathQuery q =
              k % 2 == 0 ? PathQuery{test::random_cell_center(rng, s), test::random_cell_center(rng, s)}
                         : PathQuery{t::random_point(rng, s), t::random_point(rng, s)};
          const PathResult r = find_path(*planner, q);
          if (r.status != SearchStatus::Found) continue;
          ++found;
          const auto verdict = referee::referee_path(world, 0, r.points, rp);
          REQUIRE(verdict.ok());
          CAPTURE(vpc);
          CAPTURE(round);
          CAPTURE(k);
          CAPTURE(s.classes[0].radius);
          CHECK_MESSAGE(verdict->legal,
                        (verdict->violations.empty() ? std::string() : verdict->violations.front().message));
        }
        NavmeshParams p;
        p.voxels_per_cell = vpc;
        p.radius = 0;
        const Navmesh mesh(world, 0, p);
        REQUIRE(mesh.ok());
        covered += t::covered_blocked_cells(s, mesh);
        for (const std::uint8_t c : s.tiles->terrain) blocked += s.terrains[c].cost[0] ? 0 : 1;
      }
      CAPTURE(vpc);
      MESSAGE("voxels_per_cell " << vpc << ": " << found << " paths found, " << covered << " of " << blocked
                                 << " blocked cells under a polygon");
      CHECK(covered == 0);
      CHECK(found > 60);
    }
  }

  TEST_CASE("radius half a cell, odd voxels per cell: found exactly where grid moves join the cells") {
    std::mt19937_64 rng(5302);
    int found = 0, none = 0;
    for (int round = 0; round < 24; ++round) {
      const int w = 10 + int(rng() % 30), h = 10 + int(rng() % 30);
      Scenario s = test::ascii_scenario(test::random_rows(rng, w, h, 0.3 + 0.05 * double(rng() % 3), false));
      s.classes[0].radius = 0.5 * s.world.cell_size;
      const PlanningWorld world(s);
      const double vpc = round % 2 == 0 ? 3 : 5;
      auto planner = test::make_planner(world, "navmesh",
                                        {{"voxels_per_cell", vpc}, {"tile_cells", double(8 + rng() % 24)}});
      REQUIRE(planner != nullptr);
      for (int k = 0; k < 25; ++k) {
        const int sx = int(rng() % unsigned(w)), sy = int(rng() % unsigned(h));
        const int gx = int(rng() % unsigned(w)), gy = int(rng() % unsigned(h));
        if (!test::tile_passable(s, sx, sy) || !test::tile_passable(s, gx, gy)) continue;
        const PathResult r =
            find_path(*planner, {test::cell_center(s, sx, sy), test::cell_center(s, gx, gy)});
        const bool joined = std::isfinite(test::reference_cost(s, sx, sy, gx, gy));
        CAPTURE(round);
        CAPTURE(k);
        CAPTURE(r.message);
        CHECK((r.status == SearchStatus::Found) == joined);
        (joined ? found : none) += 1;
      }
    }
    MESSAGE(found << " joined, " << none << " not");
    CHECK(found > 150);
    CHECK(none > 20);
  }
}
