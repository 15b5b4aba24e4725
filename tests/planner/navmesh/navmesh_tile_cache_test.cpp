// NavmeshTileCache (Detour's tile cache over a Navmesh's ground): a box rebuilds only the
// tiles it overlaps, grown by the radius (hand-counted from the tile size), leaves every
// other tile's polygons as they were and takes the ground under it away; removing it gives
// back every tile's polygons; a tile wider than a layer's 255 voxels, or one with more than
// 255 regions, is refused. And the
// buildings row of the bench (time_navmesh_buildings) on a small town map.

#include <doctest/doctest.h>

#include <DetourNavMesh.h>
#include <DetourNavMeshQuery.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "planner/navmesh/navmesh.hpp"
#include "planner/navmesh/navmesh_buildings_bench.hpp"
#include "planner/navmesh/navmesh_tile_cache.hpp"
#include "planner/world/planning_world.hpp"
#include "tests/test_maps.hpp"

using namespace pathscope;

namespace navmesh_tile_cache_test {

// Every polygon's vertices of tile (tx, ty) of `mesh`, in order (empty: no tile).
std::vector<float> tile_vertices(const dtNavMesh& mesh, int tx, int ty) {
  std::vector<float> out;
  const dtMeshTile* tile = mesh.getTileAt(tx, ty, 0);
  if (!tile || !tile->header) return out;
  for (int i = 0; i < tile->header->polyCount; ++i) {
    const dtPoly& p = tile->polys[i];
    out.push_back(float(p.vertCount));
    for (int k = 0; k < p.vertCount; ++k)
      out.insert(out.end(), &tile->verts[p.verts[k] * 3], &tile->verts[p.verts[k] * 3] + 3);
  }
  return out;
}

using Snapshot = std::vector<std::vector<float>>;  // per tile, row order

Snapshot snapshot(const dtNavMesh& mesh, int tiles_x, int tiles_y) {
  Snapshot s;
  for (int ty = 0; ty < tiles_y; ++ty) {
    for (int tx = 0; tx < tiles_x; ++tx) s.push_back(tile_vertices(mesh, tx, ty));
  }
  return s;
}

struct QueryDeleter {
  void operator()(dtNavMeshQuery* q) const { dtFreeNavMeshQuery(q); }
};

// Whether some polygon of `mesh` comes within `reach` metres (along each axis) of the point.
bool ground_near(const dtNavMesh& mesh, Vec2 p, float reach) {
  std::unique_ptr<dtNavMeshQuery, QueryDeleter> q(dtAllocNavMeshQuery());
  REQUIRE(q);
  REQUIRE(dtStatusSucceed(q->init(&mesh, 1024)));
  dtQueryFilter filter;
  const float pos[3] = {float(p.x), 0.0f, float(p.y)}, ext[3] = {reach, 1.0f, reach};
  dtPolyRef ref = 0;
  float nearest[3];
  q->findNearestPoly(pos, ext, &filter, &ref, nearest);
  // Detour's nearest polygon is among those whose bounds meet the box: check the point.
  return ref != 0 && std::max(std::abs(nearest[0] - pos[0]), std::abs(nearest[2] - pos[2])) <= reach;
}

}  // namespace navmesh_tile_cache_test

TEST_SUITE("navmesh") {
  TEST_CASE("tile cache: a box rebuilds only the tiles it overlaps, and its removal gives the mesh back") {
    namespace t = navmesh_tile_cache_test;
    // 48 x 48 cells of ground (two walls) in tiles of 16 cells: 3 x 3 tiles of 48 voxels.
    // The class's radius 0.4 m keeps 0.4 - 1/6 = 0.233 m, so a box over whole cells is
    // grown by 0.233 m: it touches a tile when the grown box reaches the tile's square.
    std::vector<std::string> rows(48, std::string(48, '.'));
    rows[8][8] = '#';
    rows[40][24] = '#';
    Scenario s = test::ascii_scenario(rows);
    NavmeshParams p;
    p.tile_cells = 16;
    PlanningWorld world(s);
    const Navmesh mesh(world, 0, p);
    REQUIRE(mesh.ok());
    NavmeshTileCache cache(mesh);
    CAPTURE(cache.error().to_string());
    REQUIRE(cache.ok());
    CHECK(cache.layers() == 9);
    const std::size_t polygons = cache.polygon_count();
    CHECK(polygons > 9);
    const t::Snapshot before = t::snapshot(cache.mesh(), 3, 3);
    for (const std::vector<float>& tile : before) CHECK_FALSE(tile.empty());

    struct Box {
      Vec2 lo, hi;
      std::vector<std::array<int, 2>> tiles;  // by hand
    };
    const std::vector<Box> boxes = {
        // Inside tile (1, 1): [19.77, 24.23] in both axes, within [16, 32].
        {{20, 20}, {24, 24}, {{1, 1}}},
        // Across x = 32: tiles (1, 0) and (2, 0).
        {{30, 4}, {34, 8}, {{1, 0}, {2, 0}}},
        // Across x = 16 and y = 32: the four tiles round that corner.
        {{14, 30}, {18, 34}, {{0, 1}, {0, 2}, {1, 1}, {1, 2}}},
        // Up to x = 31: grown to 31.23, short of tile (2, 2) (the Navmesh, whose tile
        // (2, 2) reads two cells beyond its square, rebuilds it too: checked below).
        {{26, 40}, {31, 45}, {{1, 2}}},
    };
    for (const Box& b : boxes) {
      CAPTURE(b.lo.x);
      CAPTURE(b.lo.y);
      const Result<TileCacheObstacle> id = cache.add_box(b.lo, b.hi);
      REQUIRE(id.ok());
      REQUIRE(cache.update().ok());
      CHECK(cache.tiles_built() == int(b.tiles.size()));
      CHECK(cache.touched_tiles(*id) == b.tiles);
      const t::Snapshot with_box = t::snapshot(cache.mesh(), 3, 3);
      for (int ty = 0; ty < 3; ++ty) {
        for (int tx = 0; tx < 3; ++tx) {
          const bool touched =
              std::find(b.tiles.begin(), b.tiles.end(), std::array<int, 2>{tx, ty}) != b.tiles.end();
          CAPTURE(tx);
          CAPTURE(ty);
          if (!touched) CHECK(with_box[std::size_t(ty * 3 + tx)] == before[std::size_t(ty * 3 + tx)]);
        }
      }
      // No ground under the box (a point inside it, half a cell from its sides), ground
      // beside it.
      const Vec2 centre = (b.lo + b.hi) * 0.5;
      CHECK_FALSE(t::ground_near(cache.mesh(), centre, 0.5f));
      CHECK(t::ground_near(cache.mesh(), Vec2{b.lo.x - 1.0, centre.y}, 0.3f));
      CHECK(cache.polygon_count() != 0);

      REQUIRE(cache.remove(*id).ok());
      REQUIRE(cache.update().ok());
      CHECK(cache.tiles_built() == int(b.tiles.size()));
      CHECK(cache.touched_tiles(*id).empty());  // the id is dead
      CHECK(cache.polygon_count() == polygons);
      CHECK(t::snapshot(cache.mesh(), 3, 3) == before);
      CHECK(t::ground_near(cache.mesh(), centre, 0.5f));
    }
    // A dead id is refused.
    CHECK_FALSE(cache.remove(TileCacheObstacle{12345}).ok());

    // The last box as cells made walls: the Navmesh rebuilds tiles (1, 2) and (2, 2).
    for (int y = 40; y < 45; ++y) {
      for (int x = 26; x < 31; ++x) s.tiles->terrain[std::size_t(y * 48 + x)] = 1;
    }
    Navmesh ours(world, 0, p);
    const WorldChange change = world.update(s).value();
    REQUIRE(ours.update(world, change));
    CHECK(ours.tiles_built() == 2);
  }

  TEST_CASE("tile cache: a tile wider than a layer's 255 voxels is refused") {
    Scenario s = test::ascii_scenario(std::vector<std::string>(70, std::string(70, '.')));
    NavmeshParams p;
    p.tile_cells = 64;
    p.voxels_per_cell = 4;  // 256 voxels a tile
    PlanningWorld world(s);
    const Navmesh mesh(world, 0, p);
    REQUIRE(mesh.ok());
    const NavmeshTileCache cache(mesh);
    CHECK_FALSE(cache.ok());
    CHECK(cache.error().message.find("255") != std::string::npos);
  }

  TEST_CASE("tile cache: a tile of busy ground (more than 255 regions in its layer) is refused, naming it") {
    // The update bench's map: a wall, rough or swamp cell in about one of three; one tile
    // of 64 cells (192 voxels), which the Navmesh builds.
    const Scenario s = navmesh_bench_scenario(64, 1);
    PlanningWorld world(s);
    const Navmesh mesh(world, 0, NavmeshParams{});
    REQUIRE(mesh.ok());
    const NavmeshTileCache cache(mesh);
    CHECK_FALSE(cache.ok());
    CHECK(cache.error().message.find("tile (0, 0)") != std::string::npos);
  }

  TEST_CASE("bench: buildings built and destroyed in the navmesh and in the tile cache") {
    NavmeshBuildingsParams p;
    p.size = 64;
    p.seed = 5;
    p.buildings = 4;
    p.mesh.tile_cells = 16;  // 4 x 4 tiles
    auto ns = std::make_shared<std::uint64_t>(0);
    // One millisecond per reading: each timed span is exactly 1,000 us.
    const NavmeshBuildingsFigures f = time_navmesh_buildings(p, [ns] { return *ns += 1'000'000; });
    CAPTURE(f.error);
    CAPTURE(f.first_disagreement);
    REQUIRE(f.error.empty());
    CHECK(f.tiles == 16);
    CHECK(f.edits == 8);
    for (const NavmeshEditFigures* e : {&f.ours, &f.cache}) {
      REQUIRE(e->edit_us.size() == 8);
      CHECK(e->median_us == doctest::Approx(1000));
      CHECK(e->p95_us == doctest::Approx(1000));
      for (const int n : e->tiles_rebuilt) {
        CHECK(n >= 1);
        CHECK(n <= 4);  // a building of at most 10 cells in tiles of 16
      }
      // Every building destroyed: the mesh has its polygons back.
      CHECK(e->polygons_after == e->polygons_before);
    }
    CHECK(f.ratio_median == doctest::Approx(1.0));
    CHECK(f.queries == 32);
    CHECK(f.found_both + f.found_neither + f.found_disagree == f.queries);
    CHECK(f.found_both > 0);
  }
}
