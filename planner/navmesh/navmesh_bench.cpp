// The figures of `pathscope bench navmesh` that need the family's internals.
//
// Update: a mesh kept up to date by Navmesh::update after each edit of the world, against
// a mesh built from scratch from the edited world at the end. Polygons are compared by
// node id (tile index, then polygon): vertices, area, flags, and links in list order by
// the node ids they lead to (Detour's polygon references carry a tile's salt, which an
// update moves on, so they differ between the two). Queries run through Detour directly
// on each mesh (dtNavMeshQuery: findNearestPoly, findPath, findStraightPath, the area
// costs the planner gives), so that the updated mesh is queried as built, not through the
// world's cache.

#include "planner/navmesh/navmesh_bench.hpp"

#include <DetourNavMesh.h>
#include <DetourNavMeshQuery.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>
#include <tuple>
#include <utility>

#include "planner/world/planning_world.hpp"

namespace pathscope {
namespace {

// Terrain indices of navmesh_bench_scenario.
constexpr std::uint8_t kGround = 0, kWall = 1;
// Corridor and straight-path lengths Detour may return per query.
constexpr int kMaxCorridor = 8192;

double ms_between(std::uint64_t t0, std::uint64_t t1) { return double(t1 - t0) / 1e6; }

// One polygon as Detour holds it: its tile, vertices, area, flags and links in list order
// (neighbour node id, edge, side).
struct PolygonView {
  int tile_x = 0, tile_y = 0;
  std::vector<Vec2> vertices;
  int area = 0;
  int flags = 0;
  std::vector<std::tuple<NodeId, int, int>> links;
  friend bool operator==(const PolygonView&, const PolygonView&) = default;
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

// What Detour answers for a query on one mesh: the corridor's node ids and the straight
// path's points (empty when a point has no polygon or no path joins them).
struct Answer {
  std::vector<NodeId> corridor;
  std::vector<float> points;
  friend bool operator==(const Answer&, const Answer&) = default;
};

struct QueryDeleter {
  void operator()(dtNavMeshQuery* q) const { dtFreeNavMeshQuery(q); }
};

Answer detour_answer(const Navmesh& mesh, Vec2 a, Vec2 b) {
  Answer out;
  std::unique_ptr<dtNavMeshQuery, QueryDeleter> query(dtAllocNavMeshQuery());
  if (!query || dtStatusFailed(query->init(&mesh.mesh(), 65535))) return out;
  dtQueryFilter filter;
  for (std::size_t k = 1; k < mesh.areas().size(); ++k)
    filter.setAreaCost(int(k), float(mesh.areas()[k].multiplier / mesh.min_multiplier()));
  const float reach = float(mesh.radius() + 1.5 * mesh.voxel_size());
  const float extents[3] = {reach, 1.0f, reach};
  const float pa[3] = {float(a.x), 0.0f, float(a.y)}, pb[3] = {float(b.x), 0.0f, float(b.y)};
  dtPolyRef ra = 0, rb = 0;
  float na[3] = {0, 0, 0}, nb[3] = {0, 0, 0};
  query->findNearestPoly(pa, extents, &filter, &ra, na);
  query->findNearestPoly(pb, extents, &filter, &rb, nb);
  if (ra == 0 || rb == 0) return out;
  std::vector<dtPolyRef> path(kMaxCorridor);
  int count = 0;
  if (dtStatusFailed(query->findPath(ra, rb, na, nb, &filter, path.data(), &count, kMaxCorridor)) ||
      count == 0)
    return out;
  for (int i = 0; i < count; ++i) out.corridor.push_back(mesh.node_of(path[std::size_t(i)]));
  std::vector<float> straight(std::size_t(kMaxCorridor) * 3);
  int points = 0;
  query->findStraightPath(na, nb, path.data(), count, straight.data(), nullptr, nullptr, &points,
                          kMaxCorridor, 0);
  out.points.assign(straight.begin(), straight.begin() + std::ptrdiff_t(points) * 3);
  return out;
}

// A random open cell's centre of `s` (the centre of the map if none is found).
Vec2 random_open_centre(std::mt19937_64& rng, const Scenario& s) {
  const TileGrid& t = *s.tiles;
  for (int attempt = 0; attempt < 10000; ++attempt) {
    const int x = int(rng() % std::uint64_t(t.width)), y = int(rng() % std::uint64_t(t.height));
    if (t.terrain[std::size_t(y) * std::size_t(t.width) + std::size_t(x)] != kWall)
      return Vec2{x + 0.5, y + 0.5};
  }
  return Vec2{t.width * 0.5, t.height * 0.5};
}

}  // namespace

Scenario navmesh_bench_scenario(int size, std::uint64_t seed) {
  Scenario s;
  s.name = "navmesh bench";
  s.world = WorldInfo{double(size), double(size), 1.0};
  s.seed = seed;
  s.classes = {MovementClass{.name = "unit", .radius = 0.4, .speed = 1.0, .amphibious = false}};
  s.terrains = {
      TerrainType{"ground", '.', Color{120, 160, 90, 255}, {1.0}, ""},
      TerrainType{"wall", '#', Color{60, 60, 60, 255}, {std::nullopt}, ""},
      TerrainType{"rough", 'r', Color{150, 130, 90, 255}, {1.5}, ""},
      TerrainType{"swamp", 's', Color{90, 110, 70, 255}, {3.0}, ""},
      TerrainType{"water", 'w', Color{60, 90, 200, 255}, {1.0}, "water"},
  };
  TileGrid t;
  t.width = size;
  t.height = size;
  t.terrain.resize(std::size_t(size) * std::size_t(size));
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  for (std::uint8_t& c : t.terrain) {
    const double r = u(rng);
    c = r < 0.15 ? 1 : r < 0.25 ? 2 : r < 0.30 ? 3 : r < 0.32 ? 4 : 0;
  }
  s.tiles = std::move(t);
  return s;
}

NavmeshBenchFigures time_navmesh_update(const NavmeshBenchParams& params, const BenchClock& clock) {
  NavmeshBenchFigures f;
  f.size = params.size;
  Scenario s = navmesh_bench_scenario(params.size, params.seed);
  PlanningWorld world(s);
  (void)world.grid(0);  // the cost grid is the world's, not the mesh's: built before the clock

  std::uint64_t t0 = clock();
  auto mesh = std::make_unique<Navmesh>(world, 0, params.mesh);
  f.full_build_s = ms_between(t0, clock()) / 1e3;
  if (!mesh->ok()) {
    f.error = "the full build failed: " + mesh->error().to_string();
    return f;
  }
  f.tiles = mesh->tiles_x() * mesh->tiles_y();
  f.polygons = mesh->polygon_count();

  // Edits: a square toggled between wall and ground, anywhere on the map.
  std::mt19937_64 rng(params.seed ^ 0x9e3779b97f4a7c15ull);
  const int side = std::clamp(params.edit_cells, 1, params.size);
  for (int e = 0; e < params.edits; ++e) {
    const int x0 = int(rng() % std::uint64_t(params.size - side + 1));
    const int y0 = int(rng() % std::uint64_t(params.size - side + 1));
    for (int y = y0; y < y0 + side; ++y) {
      for (int x = x0; x < x0 + side; ++x) {
        std::uint8_t& c = s.tiles->terrain[std::size_t(y) * std::size_t(params.size) + std::size_t(x)];
        c = c == kWall ? kGround : kWall;
      }
    }
    const Result<WorldChange> change = world.update(s);
    if (!change.ok()) {
      f.error = "edit " + std::to_string(e) + ": " + change.error().to_string();
      return f;
    }
    if (e == params.skip_update) continue;
    t0 = clock();
    const bool updated = mesh->update(world, *change);
    f.update_ms.push_back(ms_between(t0, clock()));
    f.tiles_rebuilt.push_back(mesh->tiles_built());
    if (!updated) {
      f.error = "the update of edit " + std::to_string(e) + " failed (the mesh was dropped)";
      return f;
    }
  }
  if (!f.update_ms.empty()) {
    std::vector<double> v = f.update_ms;
    std::sort(v.begin(), v.end());
    f.update_median_ms = v[v.size() / 2];
    f.update_p95_ms = v[std::size_t(std::ceil(0.95 * double(v.size()))) - 1];
    double sum = 0;
    for (int n : f.tiles_rebuilt) sum += n;
    f.tiles_rebuilt_mean = sum / double(f.tiles_rebuilt.size());
    f.tiles_rebuilt_max = *std::max_element(f.tiles_rebuilt.begin(), f.tiles_rebuilt.end());
  }

  // The mesh of the edited world, built from scratch.
  t0 = clock();
  const Navmesh fresh(world, 0, params.mesh);
  f.fresh_build_s = ms_between(t0, clock()) / 1e3;
  if (!fresh.ok()) {
    f.error = "the build from the edited world failed: " + fresh.error().to_string();
    return f;
  }
  if (mesh->polygon_count() != fresh.polygon_count()) {
    f.polygon_mismatches = std::max(mesh->polygon_count(), fresh.polygon_count());
    f.first_mismatch = "updated mesh has " + std::to_string(mesh->polygon_count()) +
                       " polygons, a fresh build " + std::to_string(fresh.polygon_count());
  } else {
    for (NodeId n = 0; n < NodeId(fresh.polygon_count()); ++n) {
      if (view(*mesh, n) == view(fresh, n)) continue;
      if (f.polygon_mismatches++ == 0) f.first_mismatch = "polygon " + std::to_string(n) + " differs";
    }
  }
  for (int k = 0; k < params.queries; ++k) {
    const Vec2 a = random_open_centre(rng, s), b = random_open_centre(rng, s);
    ++f.queries;
    if (detour_answer(*mesh, a, b) == detour_answer(fresh, a, b)) continue;
    if (f.query_mismatches++ == 0 && f.first_mismatch.empty()) {
      char buf[128];
      std::snprintf(buf, sizeof buf, "query (%.1f, %.1f) -> (%.1f, %.1f) answered differently", a.x, a.y, b.x,
                    b.y);
      f.first_mismatch = buf;
    }
  }
  return f;
}

}  // namespace pathscope
