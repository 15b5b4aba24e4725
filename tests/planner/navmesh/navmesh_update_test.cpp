// Navmesh::update(): after edits the mesh, rebuilt tile by tile, equals one built fresh from
// the edited world (every polygon's vertices, area, flags and links in order, and the paths
// of random queries); an edit rebuilds only the tiles whose input cells it changed (hand-
// counted from the tile size and border); a pair of cost and group that appears or vanishes
// rebuilds every tile.

#include <doctest/doctest.h>

#include <DetourNavMesh.h>

#include <array>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "planner/navmesh/navmesh.hpp"
#include "planner/navmesh/navmesh_planner.hpp"
#include "planner/world/planning_world.hpp"
#include "tests/test_maps.hpp"

using namespace pathscope;

namespace navmesh_update_test {

// Terrain indices of test::ascii_scenario.
constexpr std::uint8_t kGround = 0, kWall = 1, kSwamp = 3, kWater = 4;

void set_cell(Scenario& s, int x, int y, std::uint8_t terrain) {
  s.tiles->terrain[std::size_t(y * s.tiles->width + x)] = terrain;
}

// One polygon as Detour holds it: tile, vertices, area, flags, and its links in list
// order (neighbour node id, edge, side).
struct PolygonView {
  int tile_x = 0, tile_y = 0;
  std::vector<Vec2> vertices;
  int area = 0;
  int flags = 0;
  std::vector<std::tuple<NodeId, int, int>> links;
};

PolygonView view(const Navmesh& m, NodeId n) {
  PolygonView v;
  const std::span<const Vec2> poly = m.polygon(n);
  v.vertices.assign(poly.begin(), poly.end());
  const dtMeshTile* tile = nullptr;
  const dtPoly* p = nullptr;
  if (dtStatusFailed(m.mesh().getTileAndPolyByRef(m.ref_of(n), &tile, &p))) return v;
  v.tile_x = tile->header->x;
  v.tile_y = tile->header->y;
  v.area = p->getArea();
  v.flags = p->flags;
  for (unsigned int l = p->firstLink; l != DT_NULL_LINK; l = tile->links[l].next) {
    const dtLink& link = tile->links[l];
    v.links.emplace_back(m.node_of(link.ref), int(link.edge), int(link.side));
  }
  return v;
}

// `got` (updated) equals `want` (built fresh): tiles, areas, every polygon.
void check_same_mesh(const Navmesh& got, const Navmesh& want) {
  REQUIRE(got.ok());
  REQUIRE(want.ok());
  REQUIRE(got.tiles_x() == want.tiles_x());
  REQUIRE(got.tiles_y() == want.tiles_y());
  REQUIRE(got.areas().size() == want.areas().size());
  for (std::size_t a = 0; a < got.areas().size(); ++a) {
    CHECK(got.areas()[a].multiplier == want.areas()[a].multiplier);
    CHECK(got.areas()[a].key == want.areas()[a].key);
    CHECK(got.areas()[a].flag == want.areas()[a].flag);
  }
  CHECK(got.min_multiplier() == want.min_multiplier());
  CHECK(got.exact_areas() == want.exact_areas());
  REQUIRE(got.polygon_count() == want.polygon_count());
  int differing = 0;
  for (NodeId n = 0; n < NodeId(got.polygon_count()); ++n) {
    const PolygonView a = view(got, n), b = view(want, n);
    const bool same = a.tile_x == b.tile_x && a.tile_y == b.tile_y && a.vertices == b.vertices &&
                      a.area == b.area && a.flags == b.flags && a.links == b.links;
    if (!same && differing++ < 3) {
      CAPTURE(n);
      CAPTURE(a.tile_x);
      CAPTURE(a.tile_y);
      CHECK(a.vertices == b.vertices);
      CHECK(a.area == b.area);
      CHECK(a.flags == b.flags);
      CHECK(a.links == b.links);
    }
  }
  CHECK(differing == 0);
}

// A random passable cell's centre.
Vec2 random_open_point(std::mt19937_64& rng, const Scenario& s) {
  for (;;) {
    const int x = int(rng() % unsigned(s.tiles->width)), y = int(rng() % unsigned(s.tiles->height));
    if (s.terrains[s.tiles->terrain[std::size_t(y * s.tiles->width + x)]].cost[0].has_value())
      return test::cell_center(s, x, y);
  }
}

}  // namespace navmesh_update_test

using namespace navmesh_update_test;

TEST_SUITE("navmesh") {
  TEST_CASE("update: random edits on random maps give the mesh and the paths of a fresh build") {
    std::mt19937_64 rng(4201);
    int partial = 0, full = 0, queries = 0, found = 0;
    for (int map = 0; map < 4; ++map) {
      const int w = 36 + int(rng() % 20), h = 30 + int(rng() % 20);
      Scenario s = test::ascii_scenario(test::random_rows(rng, w, h, 0.2, true));
      NavmeshParams p;
      p.tile_cells = 8 + int(rng() % 6);
      p.radius = std::array{0.0, -1.0, 0.9, 0.3}[std::size_t(map)];
      p.voxels_per_cell = map % 2 == 0 ? 3 : 2;
      PlanningWorld world(s);
      const Navmesh* mesh = &Navmesh::of(world, 0, p);
      REQUIRE(mesh->ok());
      const int tiles = mesh->tiles_x() * mesh->tiles_y();
      CHECK(mesh->tiles_built() == tiles);
      for (int edit = 0; edit < 12; ++edit) {
        CAPTURE(map);
        CAPTURE(edit);
        const int bw = 1 + int(rng() % 4), bh = 1 + int(rng() % 4);
        const int x0 = int(rng() % unsigned(w - bw)), y0 = int(rng() % unsigned(h - bh));
        const std::uint8_t t = std::uint8_t(rng() % 5);
        for (int y = y0; y < y0 + bh; ++y) {
          for (int x = x0; x < x0 + bw; ++x) set_cell(s, x, y, t);
        }
        const WorldChange change = world.update(s).value();
        REQUIRE_FALSE(change.rebuilt);
        // Kept and updated in place, not dropped and built again.
        REQUIRE(world.derived_count() == 1);
        REQUIRE(&Navmesh::of(world, 0, p) == mesh);
        if (change.cells.empty()) continue;
        (mesh->tiles_built() == tiles ? full : partial) += 1;
        const PlanningWorld fresh_world(s);
        const Navmesh fresh(fresh_world, 0, p);
        check_same_mesh(*mesh, fresh);
        NavmeshPlanner updated(world, 0, p), built(fresh_world, 0, p);
        for (int k = 0; k < 6; ++k) {
          const PathQuery q{random_open_point(rng, s), random_open_point(rng, s)};
          const PathResult a = find_path(updated, q);
          const PathResult& b = find_path(built, q);
          CAPTURE(k);
          CHECK(a.status == b.status);
          CHECK(a.points == b.points);
          CHECK(a.nodes == b.nodes);
          CHECK(a.cost == b.cost);
          ++queries;
          found += a.status == SearchStatus::Found ? 1 : 0;
        }
      }
    }
    // Most small edits touch a few tiles only; many random points lie within the radius of a
    // wall (refused), the rest mostly join.
    CHECK(partial > 30);
    CHECK(queries == 6 * (partial + full));
    CHECK(found > 60);
  }

  TEST_CASE("update: an edit rebuilds only the tiles whose input cells it changed") {
    // 64 x 64 cells of ground in tiles of 16: 4 x 4 tiles. Radius 0, three voxels a cell:
    // Recast's border is 3 voxels, so a tile reads one cell beyond its square (tile (0, 0)
    // reads cells [0, 17)).
    Scenario s = test::ascii_scenario(std::vector<std::string>(64, std::string(64, '.')));
    s.tiles->terrain[std::size_t(30 * 64 + 30)] = kWall;
    NavmeshParams p;
    p.radius = 0;
    p.tile_cells = 16;
    PlanningWorld world(s);
    const Navmesh& mesh = Navmesh::of(world, 0, p);
    REQUIRE(mesh.ok());
    CHECK(mesh.tiles_built() == 16);
    struct Edit {
      int x, y;
      int tiles;
    };
    // (1, 1): tile (0, 0) only. (15, 15): the four tiles round the corner. (16, 1): tiles
    // (0, 0) and (1, 0). (17, 1): tile (1, 0) only, though the world's changed cells (a
    // ring round the edit) reach tile (0, 0)'s input. (62, 62): tile (3, 3).
    for (const Edit e : {Edit{1, 1, 1}, Edit{15, 15, 4}, Edit{16, 1, 2}, Edit{17, 1, 1}, Edit{62, 62, 1}}) {
      CAPTURE(e.x);
      CAPTURE(e.y);
      set_cell(s, e.x, e.y, kWall);
      const WorldChange change = world.update(s).value();
      REQUIRE(change.cells.contains(e.x, e.y));
      REQUIRE(world.derived_count() == 1);
      CHECK(mesh.tiles_built() == e.tiles);
      const PlanningWorld fresh_world(s);
      check_same_mesh(mesh, Navmesh(fresh_world, 0, p));
    }
    // The class's radius (0.4 m, kept 0.4 - 1/6): one voxel of margin, a border of 4
    // voxels, so a tile reads two cells beyond its square: (17, 1) is tile (0, 0)'s too.
    NavmeshParams wide = p;
    wide.radius = -1;
    const Navmesh& round = Navmesh::of(world, 0, wide);
    REQUIRE(round.ok());
    CHECK(round.radius_voxels() == 1);
    set_cell(s, 17, 1, kGround);
    world.update(s).value();
    REQUIRE(world.derived_count() == 2);
    CHECK(round.tiles_built() == 2);
    const PlanningWorld fresh_world(s);
    check_same_mesh(round, Navmesh(fresh_world, 0, wide));
  }

  TEST_CASE("update: a new or vanished pair of cost and group rebuilds every tile") {
    // 48 x 48 cells, tiles of 16: 3 x 3 tiles; ground and walls only.
    std::mt19937_64 rng(4202);
    Scenario s = test::ascii_scenario(test::random_rows(rng, 48, 48, 0.15, false));
    set_cell(s, 1, 1, kGround);
    NavmeshParams p;
    p.radius = 0;
    p.tile_cells = 16;
    PlanningWorld world(s);
    const Navmesh& mesh = Navmesh::of(world, 0, p);
    REQUIRE(mesh.ok());
    CHECK(mesh.areas().size() == 2);
    const auto edit = [&](std::uint8_t terrain, int tiles, std::size_t areas) {
      set_cell(s, 1, 1, terrain);
      world.update(s).value();
      REQUIRE(world.derived_count() == 1);
      CHECK(mesh.tiles_built() == tiles);
      CHECK(mesh.areas().size() == areas);
      const PlanningWorld fresh_world(s);
      check_same_mesh(mesh, Navmesh(fresh_world, 0, p));
    };
    edit(kSwamp, 9, 3);   // a new multiplier: a new area
    edit(kGround, 9, 2);  // the only swamp gone: its area with it
    edit(kWater, 9, 3);   // a new group: a new area and flag
    edit(kWall, 9, 2);    // the water gone
    edit(kGround, 1, 2);  // a wall opened: tile (0, 0) only
  }
  TEST_CASE("update: past 62 pairs, a multiplier moving within its shared area rebuilds no tile") {
    // 32 x 32 cells of ground in tiles of 8 (4 x 4 tiles), a cost overlay of 100 factors
    // 1.00, 1.01, ..., 1.99 (cell i: 1 + (i mod 100) / 100): one group, 100 pairs, 62
    // areas by rank (rank r in bin r * 62 / 100): 1.00 and 1.01 share area 1, 1.02 has 2.
    const Scenario s = test::ascii_scenario(std::vector<std::string>(32, std::string(32, '.')));
    NavmeshParams p;
    p.radius = 0;
    p.tile_cells = 8;
    const auto factor = [](std::size_t k) { return 1.0f + float(k) / 100.0f; };
    std::vector<float> factors(32 * 32);
    for (std::size_t i = 0; i < factors.size(); ++i) factors[i] = factor(i % 100);
    PlanningWorld world(s);
    (void)world.set_cost_overlay(factors).value();
    const Navmesh& mesh = Navmesh::of(world, 0, p);
    REQUIRE(mesh.ok());
    CHECK_FALSE(mesh.exact_areas());
    CHECK(mesh.areas().size() == 63);
    // Cell (12, 9) (index 300, factor 1.00) lies inside tile (1, 1) and no other's input.
    const std::size_t cell = 9 * 32 + 12;
    const auto edit = [&](float factor, int tiles) {
      factors[cell] = factor;
      (void)world.set_cost_overlay(factors).value();
      REQUIRE(world.derived_count() == 1);
      CHECK(mesh.tiles_built() == tiles);
      PlanningWorld fresh_world(s);
      (void)fresh_world.set_cost_overlay(factors).value();
      check_same_mesh(mesh, Navmesh(fresh_world, 0, p));
    };
    edit(factor(1), 0);  // the same area
    edit(factor(2), 1);  // area 2: tile (1, 1)
    edit(2.5f, 16);      // a new multiplier: every tile
  }
}
