#pragma once

// The buildings row of `pathscope bench navmesh`: buildings (box obstacles) built and
// destroyed one by one on a generated town map, each applied both by Navmesh::update (the
// building's cells made walls, or given back their terrain) and by Detour's tile cache
// over the same ground (NavmeshTileCache: addBoxObstacle / removeObstacle, then update()
// until up to date), timed side by side, with a sample of queries round each building
// answered by both meshes. The planner library reads no clock: the caller passes one.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "planner/navmesh/navmesh.hpp"
#include "planner/navmesh/navmesh_bench.hpp"
#include "planner/scenario/scenario.hpp"

namespace pathscope {

/// What to measure.
struct NavmeshBuildingsParams {
  int size = 512;            ///< Cells per side of the town map (navmesh_town_scenario).
  std::uint64_t seed = 1;    ///< Seed of the map, the buildings and the queries.
  int buildings = 20;        ///< Buildings, each built and later destroyed: 2 x buildings edits.
  int min_side = 3;          ///< Smallest side of a building, cells.
  int max_side = 10;         ///< Largest side of a building, cells.
  int queries_per_edit = 4;  ///< Queries after each edit, between open cells round the building.
  int query_window = 24;     ///< Cells from the building's centre a query's ends may lie.
  /// Largest relative difference of path lengths counted as agreeing: |a - b| / min(a, b).
  double length_tolerance = 0.05;
  NavmeshParams mesh{};  ///< Build parameters (the registry's defaults).
};

/// One engine's figures. Times are the caller's clock.
struct NavmeshEditFigures {
  double build_s = 0;               ///< The full build, seconds.
  std::vector<double> edit_us;      ///< Each edit's update, microseconds.
  std::vector<int> tiles_rebuilt;   ///< Tiles each edit rebuilt.
  double median_us = 0;             ///< Median of edit_us (the upper one of an even count).
  double p95_us = 0;                ///< 95th percentile of edit_us (nearest rank).
  double tiles_mean = 0;            ///< Mean of tiles_rebuilt.
  int tiles_max = 0;                ///< Largest of tiles_rebuilt.
  std::size_t polygons_before = 0;  ///< Polygons before the first building.
  std::size_t polygons_after = 0;   ///< Polygons once every building is destroyed.
};

/// The figures of one run.
struct NavmeshBuildingsFigures {
  std::string error;               ///< Why the run stopped; empty: it ran.
  int size = 0;                    ///< Cells per side.
  int tiles = 0;                   ///< Tiles of both meshes.
  int edits = 0;                   ///< Buildings built plus destroyed.
  NavmeshEditFigures ours;         ///< Navmesh::update.
  NavmeshEditFigures cache;        ///< NavmeshTileCache.
  double ratio_median = 0;         ///< ours.median_us / cache.median_us.
  double ratio_p95 = 0;            ///< ours.p95_us / cache.p95_us.
  int queries = 0;                 ///< Queries answered by both meshes.
  int found_both = 0;              ///< Found by both.
  int found_neither = 0;           ///< Found by neither.
  int found_disagree = 0;          ///< Found by one only.
  int length_outside = 0;          ///< Found by both, lengths differing by more than the tolerance.
  double length_tolerance = 0;     ///< The tolerance used (relative).
  double max_length_diff = 0;      ///< Largest relative length difference of queries found by both.
  double mean_length_ratio = 0;    ///< Mean of ours / cache's length over queries found by both.
  std::string first_disagreement;  ///< The first query answered differently, in words.
};

/// A square town map of `size` cells a side (1 m cells), from `seed`: ground with
/// rectangles of rough (1.5), swamp (3), water (group "water") and wall, each kind about
/// one rectangle per 32 x 32 cells (sides 2-16 cells); one class "unit" of radius 0.4 m
/// that cannot swim. Terrain indices as navmesh_bench_scenario's.
Scenario navmesh_town_scenario(int size, std::uint64_t seed);

/// Builds class 0's Navmesh and a NavmeshTileCache over it on the town map, then builds
/// and destroys `buildings` buildings (random rectangles not overlapping a standing one;
/// built while some are left to build and a coin says so or none stands, else a random
/// standing one destroyed), each edit timed in both; after each edit, queries between
/// random open cells round the building, run by Detour on both meshes (findNearestPoly,
/// findPath, findStraightPath; the areas' costs; the start polygon's group only).
NavmeshBuildingsFigures time_navmesh_buildings(const NavmeshBuildingsParams& params, const BenchClock& clock);

}  // namespace pathscope
