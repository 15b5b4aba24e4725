#pragma once

// What `pathscope bench navmesh` measures of the navmesh family, as plain figures, so that
// the command reads them without the family's internals: on a generated map, a full build
// of the mesh, then small random edits each applied with Navmesh::update (the tiles whose
// input cells changed, rebuilt), and after the edits whether the updated mesh equals one
// built fresh from the edited world and answers the same queries. The planner library
// reads no clock: the caller passes one, and the times it gives are figures only, never
// part of a result.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "planner/navmesh/navmesh.hpp"
#include "planner/scenario/scenario.hpp"

namespace pathscope {

/// A monotonic clock in nanoseconds, supplied by the caller; read for timings only (the
/// same type as quadtree_bench.hpp's).
using BenchClock = std::function<std::uint64_t()>;

/// What to measure.
struct NavmeshBenchParams {
  int size = 512;          ///< Cells per side of the generated map (navmesh_bench_scenario).
  std::uint64_t seed = 1;  ///< Seed of the map, the edits and the queries.
  int edits = 20;          ///< Random edits, each applied with Navmesh::update.
  int edit_cells = 3;      ///< Side of an edit's square of cells, each toggled (wall <-> ground).
  int queries = 8;         ///< Queries between random open cells, updated against fresh mesh.
  NavmeshParams mesh{};    ///< Build parameters (the registry's defaults; radius: the class's).
  /// A planted fault for tests: the edit (from 0) whose update is left out, so that the
  /// mesh misses it; -1: none.
  int skip_update = -1;
};

/// The figures of one run. Times are wall-clock figures of the caller's clock.
struct NavmeshBenchFigures {
  std::string error;                   ///< Why the run stopped (a build or update failed); empty: it ran.
  int size = 0;                        ///< Cells per side.
  int tiles = 0;                       ///< Tiles of the mesh.
  std::size_t polygons = 0;            ///< Polygons after the full build.
  double full_build_s = 0;             ///< The full build (Navmesh constructed), seconds.
  std::vector<double> update_ms;       ///< Each edit's Navmesh::update, milliseconds.
  std::vector<int> tiles_rebuilt;      ///< Tiles each update rebuilt (Navmesh::tiles_built).
  double update_median_ms = 0;         ///< Median of update_ms (the upper one of an even count).
  double update_p95_ms = 0;            ///< 95th percentile of update_ms (nearest rank).
  double tiles_rebuilt_mean = 0;       ///< Mean of tiles_rebuilt.
  int tiles_rebuilt_max = 0;           ///< Largest of tiles_rebuilt.
  double fresh_build_s = 0;            ///< The build from the edited world, seconds.
  std::size_t polygon_mismatches = 0;  ///< Polygons (or a count) that differ from the fresh build.
  int queries = 0;                     ///< Queries compared.
  int query_mismatches = 0;            ///< Queries answered differently by the two meshes.
  std::string first_mismatch;          ///< The first difference found, in words.
  /// The updated mesh equals the fresh one (every polygon's vertices, area, flags and links
  /// in order) and answers every query the same.
  bool equal() const { return error.empty() && polygon_mismatches == 0 && query_mismatches == 0; }
};

/// A square map of `size` cells a side (1 m cells) for the bench, from `seed`: each cell
/// is a wall with probability 0.15, else rough (1.5) 0.10, swamp (3) 0.05, water (1, group
/// "water") 0.02, else ground; one class "unit" of radius 0.4 m that cannot swim.
Scenario navmesh_bench_scenario(int size, std::uint64_t seed);

/// Builds class 0's mesh on navmesh_bench_scenario(size, seed) (timed), then applies
/// `edits` random edits: a square of edit_cells a side at a random place, each of its
/// cells toggled between wall and ground, the world updated, then Navmesh::update (timed,
/// with the tiles it rebuilt). Then builds a mesh from the edited world and compares the
/// two, polygon by polygon and on `queries` queries run by Detour on each (nearest
/// polygons, findPath, findStraightPath with the planner's area costs).
NavmeshBenchFigures time_navmesh_update(const NavmeshBenchParams& params, const BenchClock& clock);

}  // namespace pathscope
