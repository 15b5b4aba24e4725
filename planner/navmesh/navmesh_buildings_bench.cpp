// The buildings row of `pathscope bench navmesh`: Navmesh::update against Detour's tile
// cache on the same map and the same buildings.
//
// Each building is a rectangle of cells. For the Navmesh it is terrain: its cells become
// walls (built) or get their terrain back (destroyed), the world is updated (not timed:
// the cost grid is the world's), and Navmesh::update rebuilds the tiles whose input cells
// changed (timed). For the tile cache it is a box obstacle over the same rectangle,
// grown by the mesh's radius (NavmeshTileCache::add_box / remove), then update() until
// up to date (timed together). Both start from the same ground (Navmesh::tile_ground).
//
// Queries run through Detour directly on each mesh, as navmesh_bench.cpp's do: the
// nearest polygons within the radius and a voxel and a half, findPath (a partial result
// is no path), findStraightPath; the filter gives each area its multiplier over the
// smallest and includes only the start polygon's group flag.

#include "planner/navmesh/navmesh_buildings_bench.hpp"

#include <DetourNavMesh.h>
#include <DetourNavMeshQuery.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <random>
#include <utility>

#include "planner/navmesh/navmesh_tile_cache.hpp"
#include "planner/world/planning_world.hpp"

namespace pathscope {
namespace {

// Terrain indices (navmesh_bench_scenario's).
constexpr std::uint8_t kGround = 0, kWall = 1, kRough = 2, kSwamp = 3, kWater = 4;
constexpr int kMaxCorridor = 8192;

double us_between(std::uint64_t t0, std::uint64_t t1) { return double(t1 - t0) / 1e3; }

struct QueryDeleter {
  void operator()(dtNavMeshQuery* q) const { dtFreeNavMeshQuery(q); }
};

// Detour's straight path from a to b on `mesh`, or no value when a point has no polygon
// or no path joins them.
struct PathLength {
  bool found = false;
  double length = 0;
};

PathLength detour_length(const dtNavMesh& mesh, const Navmesh& areas, Vec2 a, Vec2 b) {
  PathLength out;
  std::unique_ptr<dtNavMeshQuery, QueryDeleter> query(dtAllocNavMeshQuery());
  if (!query || dtStatusFailed(query->init(&mesh, 65535))) return out;
  dtQueryFilter filter;
  for (std::size_t k = 1; k < areas.areas().size(); ++k)
    filter.setAreaCost(int(k), float(areas.areas()[k].multiplier / areas.min_multiplier()));
  const float reach = float(areas.radius() + 1.5 * areas.voxel_size());
  const float extents[3] = {reach, 1.0f, reach};
  const float pa[3] = {float(a.x), 0.0f, float(a.y)}, pb[3] = {float(b.x), 0.0f, float(b.y)};
  dtPolyRef ra = 0, rb = 0;
  float na[3] = {0, 0, 0}, nb[3] = {0, 0, 0};
  query->findNearestPoly(pa, extents, &filter, &ra, na);
  if (ra == 0) return out;
  unsigned short flags = 0;
  mesh.getPolyFlags(ra, &flags);
  filter.setIncludeFlags(flags);
  query->findNearestPoly(pb, extents, &filter, &rb, nb);
  if (rb == 0) return out;
  std::vector<dtPolyRef> path(kMaxCorridor);
  int count = 0;
  const dtStatus s = query->findPath(ra, rb, na, nb, &filter, path.data(), &count, kMaxCorridor);
  if (dtStatusFailed(s) || (s & DT_PARTIAL_RESULT) != 0 || count == 0) return out;
  std::vector<float> straight(std::size_t(kMaxCorridor) * 3);
  int points = 0;
  query->findStraightPath(na, nb, path.data(), count, straight.data(), nullptr, nullptr, &points,
                          kMaxCorridor, 0);
  out.found = points > 0;
  for (int i = 1; i < points; ++i) {
    const float* p = &straight[std::size_t(i - 1) * 3];
    const float* q = &straight[std::size_t(i) * 3];
    out.length += std::hypot(double(q[0]) - double(p[0]), double(q[2]) - double(p[2]));
  }
  return out;
}

void summarise(NavmeshEditFigures& f) {
  if (f.edit_us.empty()) return;
  std::vector<double> v = f.edit_us;
  std::sort(v.begin(), v.end());
  f.median_us = v[v.size() / 2];
  f.p95_us = v[std::size_t(std::ceil(0.95 * double(v.size()))) - 1];
  double sum = 0;
  for (int n : f.tiles_rebuilt) sum += n;
  f.tiles_mean = sum / double(f.tiles_rebuilt.size());
  f.tiles_max = *std::max_element(f.tiles_rebuilt.begin(), f.tiles_rebuilt.end());
}

struct Building {
  int x0 = 0, y0 = 0, x1 = 0, y1 = 0;  // cells [x0, x1) x [y0, y1)
  TileCacheObstacle obstacle = TileCacheObstacle::kNone;
  bool overlaps(const Building& o) const { return x0 < o.x1 && o.x0 < x1 && y0 < o.y1 && o.y0 < y1; }
};

}  // namespace

Scenario navmesh_town_scenario(int size, std::uint64_t seed) {
  Scenario s = navmesh_bench_scenario(size, seed);
  s.name = "navmesh town";
  TileGrid& t = *s.tiles;
  std::fill(t.terrain.begin(), t.terrain.end(), kGround);
  std::mt19937_64 rng(seed ^ 0x5851f42d4c957f2dull);
  const int per_kind = std::max(1, size * size / 1024);
  for (const std::uint8_t kind : {kRough, kSwamp, kWater, kWall}) {
    for (int k = 0; k < per_kind; ++k) {
      const int w = 2 + int(rng() % 15), h = 2 + int(rng() % 15);
      const int x0 = int(rng() % std::uint64_t(std::max(1, size - w + 1)));
      const int y0 = int(rng() % std::uint64_t(std::max(1, size - h + 1)));
      for (int y = y0; y < std::min(size, y0 + h); ++y) {
        for (int x = x0; x < std::min(size, x0 + w); ++x)
          t.terrain[std::size_t(y) * std::size_t(size) + std::size_t(x)] = kind;
      }
    }
  }
  return s;
}

NavmeshBuildingsFigures time_navmesh_buildings(const NavmeshBuildingsParams& params,
                                               const BenchClock& clock) {
  NavmeshBuildingsFigures f;
  f.size = params.size;
  f.length_tolerance = params.length_tolerance;
  const Scenario base = navmesh_town_scenario(params.size, params.seed);
  Scenario s = base;
  PlanningWorld world(s);
  (void)world.grid(0);  // the world's cost grid, built before the clock

  std::uint64_t t0 = clock();
  auto mesh = std::make_unique<Navmesh>(world, 0, params.mesh);
  f.ours.build_s = us_between(t0, clock()) / 1e6;
  if (!mesh->ok()) {
    f.error = "the navmesh build failed: " + mesh->error().to_string();
    return f;
  }
  f.tiles = mesh->tiles_x() * mesh->tiles_y();
  f.ours.polygons_before = mesh->polygon_count();
  t0 = clock();
  NavmeshTileCache cache(*mesh);
  f.cache.build_s = us_between(t0, clock()) / 1e6;
  if (!cache.ok()) {
    f.error = "the tile cache build failed: " + cache.error().to_string();
    return f;
  }
  f.cache.polygons_before = cache.polygon_count();

  std::mt19937_64 rng(params.seed ^ 0x2545f4914f6cdd1dull);
  const int n = params.size;
  const int lo_side = std::clamp(params.min_side, 1, n), hi_side = std::clamp(params.max_side, lo_side, n);
  std::vector<Building> standing;
  int to_build = std::max(0, params.buildings);
  while (to_build > 0 || !standing.empty()) {
    const bool build = to_build > 0 && (standing.empty() || rng() % 2 == 0);
    Building b;
    if (build) {
      for (int attempt = 0;; ++attempt) {
        const int w = lo_side + int(rng() % std::uint64_t(hi_side - lo_side + 1));
        const int h = lo_side + int(rng() % std::uint64_t(hi_side - lo_side + 1));
        b.x0 = int(rng() % std::uint64_t(n - w + 1));
        b.y0 = int(rng() % std::uint64_t(n - h + 1));
        b.x1 = b.x0 + w;
        b.y1 = b.y0 + h;
        if (std::none_of(standing.begin(), standing.end(), [&](const Building& o) { return b.overlaps(o); }))
          break;
        if (attempt > 1000) {
          f.error = "no room for another building";
          return f;
        }
      }
      --to_build;
    } else {
      const std::size_t k = std::size_t(rng() % standing.size());
      b = standing[k];
      standing.erase(standing.begin() + std::ptrdiff_t(k));
    }
    const std::string what = (build ? "building " : "destroying ") + std::to_string(b.x0) + "," +
                             std::to_string(b.y0) + "-" + std::to_string(b.x1) + "," + std::to_string(b.y1);
    for (int y = b.y0; y < b.y1; ++y) {
      for (int x = b.x0; x < b.x1; ++x) {
        const std::size_t i = std::size_t(y) * std::size_t(n) + std::size_t(x);
        s.tiles->terrain[i] = build ? kWall : base.tiles->terrain[i];
      }
    }
    const Result<WorldChange> change = world.update(s);
    if (!change.ok()) {
      f.error = what + ": " + change.error().to_string();
      return f;
    }
    t0 = clock();
    const bool updated = mesh->update(world, *change);
    f.ours.edit_us.push_back(us_between(t0, clock()));
    f.ours.tiles_rebuilt.push_back(mesh->tiles_built());
    if (!updated) {
      f.error = what + ": the navmesh update failed";
      return f;
    }
    t0 = clock();
    Status requested = Ok{};
    if (build) {
      Result<TileCacheObstacle> id =
          cache.add_box(Vec2{double(b.x0), double(b.y0)}, Vec2{double(b.x1), double(b.y1)});
      if (id.ok())
        b.obstacle = *id;
      else
        requested = id.error();
    } else {
      requested = cache.remove(b.obstacle);
    }
    const Status done = requested.ok() ? cache.update() : requested;
    f.cache.edit_us.push_back(us_between(t0, clock()));
    f.cache.tiles_rebuilt.push_back(cache.tiles_built());
    if (!done.ok()) {
      f.error = what + ": " + done.error().to_string();
      return f;
    }
    if (build) standing.push_back(b);
    ++f.edits;

    // Queries round the building, on both meshes.
    const int cx = (b.x0 + b.x1) / 2, cy = (b.y0 + b.y1) / 2, r = std::max(1, params.query_window);
    const auto open_cell = [&]() -> Vec2 {
      for (int attempt = 0; attempt < 1000; ++attempt) {
        const int x = std::clamp(cx - r + int(rng() % std::uint64_t(2 * r + 1)), 0, n - 1);
        const int y = std::clamp(cy - r + int(rng() % std::uint64_t(2 * r + 1)), 0, n - 1);
        if (s.tiles->terrain[std::size_t(y) * std::size_t(n) + std::size_t(x)] != kWall)
          return Vec2{x + 0.5, y + 0.5};
      }
      return Vec2{cx + 0.5, cy + 0.5};
    };
    for (int q = 0; q < params.queries_per_edit; ++q) {
      const Vec2 a = open_cell(), c = open_cell();
      const PathLength ours = detour_length(mesh->mesh(), *mesh, a, c);
      const PathLength theirs = detour_length(cache.mesh(), *mesh, a, c);
      ++f.queries;
      char buf[200];
      if (ours.found != theirs.found) {
        ++f.found_disagree;
        if (f.first_disagreement.empty()) {
          std::snprintf(buf, sizeof buf, "after %s: (%.1f, %.1f) -> (%.1f, %.1f) found by %s only",
                        what.c_str(), a.x, a.y, c.x, c.y, ours.found ? "the navmesh" : "the tile cache");
          f.first_disagreement = buf;
        }
        continue;
      }
      if (!ours.found) {
        ++f.found_neither;
        continue;
      }
      ++f.found_both;
      const double shorter = std::min(ours.length, theirs.length);
      const double diff = shorter > 0 ? std::abs(ours.length - theirs.length) / shorter : 0.0;
      f.max_length_diff = std::max(f.max_length_diff, diff);
      f.mean_length_ratio += theirs.length > 0 ? ours.length / theirs.length : 1.0;
      if (diff > params.length_tolerance) {
        ++f.length_outside;
        if (f.first_disagreement.empty()) {
          std::snprintf(buf, sizeof buf, "after %s: (%.1f, %.1f) -> (%.1f, %.1f) %.2f m against %.2f m",
                        what.c_str(), a.x, a.y, c.x, c.y, ours.length, theirs.length);
          f.first_disagreement = buf;
        }
      }
    }
  }
  if (f.found_both > 0) f.mean_length_ratio /= double(f.found_both);
  f.ours.polygons_after = mesh->polygon_count();
  f.cache.polygons_after = cache.polygon_count();
  summarise(f.ours);
  summarise(f.cache);
  if (f.cache.median_us > 0) f.ratio_median = f.ours.median_us / f.cache.median_us;
  if (f.cache.p95_us > 0) f.ratio_p95 = f.ours.p95_us / f.cache.p95_us;
  return f;
}

}  // namespace pathscope
