#pragma once

// Detour's tile cache (DetourTileCache) over a Navmesh's ground: the way game engines
// add and remove obstacles at run time, kept beside Navmesh::update as a baseline. Each
// tile's ground (Navmesh::tile_ground, the same walkable voxels the Navmesh builds from)
// is stored as Recast heightfield layers; a box obstacle marks the voxels it covers
// unwalkable in the layers of the tiles it touches, which the cache rebuilds.

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "planner/core/geometry.hpp"
#include "planner/core/result.hpp"
#include "planner/navmesh/navmesh.hpp"

class dtNavMesh;
class dtTileCache;

namespace pathscope {

/// An obstacle of a NavmeshTileCache: Detour's obstacle reference (index and salt), so a
/// removed obstacle's id stays invalid. 0 names none.
enum class TileCacheObstacle : std::uint32_t { kNone = 0 };

/// Limits of a NavmeshTileCache.
struct NavmeshTileCacheParams {
  int max_obstacles = 1024;  ///< Obstacles standing (or waiting for update()) at once.
};

/// Detour's tile cache and the dtNavMesh it keeps, built over a Navmesh's tiles (the same
/// tiling, voxels, radius, areas and flags). Polygons differ from the Navmesh's: the cache
/// builds each tile from its layer with its own monotone regions (at most 255 a layer), no
/// edge-length limit and no border, where Navmesh uses watershed regions.
class NavmeshTileCache {
 public:
  /// Builds the cache and its mesh from every tile of `mesh` (which must be ok()).
  /// Failures (a layer wider than 255 voxels, more than 255 regions in a tile's layer,
  /// Detour's limits) are kept in error(), naming the tile.
  explicit NavmeshTileCache(const Navmesh& mesh, const NavmeshTileCacheParams& params = {});
  ~NavmeshTileCache();
  NavmeshTileCache(const NavmeshTileCache&) = delete;
  NavmeshTileCache& operator=(const NavmeshTileCache&) = delete;

  bool ok() const { return error_.message.empty(); }
  /// Why the build or an update failed.
  const Error& error() const { return error_; }
  /// The mesh the cache keeps (ok() only).
  const dtNavMesh& mesh() const { return *mesh_; }
  /// Polygons in the mesh now.
  std::size_t polygon_count() const;
  /// Layers the cache holds (one a tile with ground, on flat ground).
  int layers() const { return layers_; }

  /// Adds a building over the world rectangle [lo, hi] (metres, x-y): every layer voxel
  /// whose square comes nearer the rectangle than the Navmesh's radius is marked
  /// unwalkable (the rectangle grown by the radius as an axis-aligned box, Detour's
  /// addBoxObstacle: square corners where Navmesh's margin is round; the same voxels while
  /// the margin is under one voxel). Takes effect at update().
  Result<TileCacheObstacle> add_box(Vec2 lo, Vec2 hi);
  /// Removes an obstacle (removeObstacle). Takes effect at update().
  Status remove(TileCacheObstacle id);
  /// Runs dtTileCache::update until it is up to date: the tiles the obstacles added or
  /// removed since the last update touch are built again from their layers. On failure
  /// the cache is left as Detour left it and error() says why.
  Status update();
  /// Tiles (layers) the last update() rebuilt: the tiles its obstacles touch, counted once.
  int tiles_built() const { return tiles_built_; }
  /// The tiles (x, y) an obstacle touches, as Detour found them at the update after its
  /// addition (at most 8; empty before that update or for an unknown id).
  std::vector<std::array<int, 2>> touched_tiles(TileCacheObstacle id) const;

 private:
  struct Parts;  // the compressor, allocator and mesh process Detour borrows (.cpp)
  struct CacheDeleter {
    void operator()(dtTileCache* cache) const;
  };
  struct MeshDeleter {
    void operator()(dtNavMesh* mesh) const;
  };

  Status build(const Navmesh& mesh, const NavmeshTileCacheParams& params);

  double radius_ = 0;
  double voxel_ = 1;
  std::unique_ptr<Parts> parts_;
  std::unique_ptr<dtTileCache, CacheDeleter> cache_;
  std::unique_ptr<dtNavMesh, MeshDeleter> mesh_;
  std::vector<std::uint32_t> pending_;  // obstacles added or removed since the last update()
  int layers_ = 0;
  int tiles_built_ = 0;
  Error error_;
};

}  // namespace pathscope
