// Detour's tile cache over a Navmesh's ground.
//
// Sources: the DetourTileCache API (DetourTileCache.h: dtTileCacheParams, dtTileCache::
// init, addTile, buildNavMeshTilesAt, addBoxObstacle, removeObstacle, update;
// DetourTileCacheBuilder.h: dtTileCacheLayerHeader, dtBuildTileCacheLayer,
// dtTileCacheCompressor, dtTileCacheMeshProcess), Recast's rcBuildHeightfieldLayers, and
// RecastDemo's "Sample_TempObstacles" (a tile's compact heightfield cut into layers, each
// layer compressed and added to the cache, the cache building the navmesh's tiles).
//
// The ground is the Navmesh's own (Navmesh::tile_ground: the same voxels, margin and area
// ids), so the two start from the same walkable input; the layers drop the tile's border
// and keep, per voxel at a tile edge, whether its neighbour outside is walkable (the
// portal). The cache stores layers through a compressor; ours copies bytes (no
// compression: the comparison is of the rebuild, and Pathscope bundles no LZ code).
// On update, Detour decompresses each touched tile's layer, marks every obstacle touching
// it as null area (dtMarkBoxArea: voxels whose index range the box covers), builds
// monotone regions (at most 255 a layer), contours and polygons, and replaces the tile in
// the dtNavMesh. Our mesh process gives each polygon its area's group flag, as the
// Navmesh does, and a BV tree, as the Navmesh's tiles have.

#include "planner/navmesh/navmesh_tile_cache.hpp"

#include <DetourNavMesh.h>
#include <DetourNavMeshBuilder.h>
#include <DetourTileCache.h>
#include <DetourTileCacheBuilder.h>
#include <Recast.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>

namespace pathscope {
namespace {

// Voxel heights as the Navmesh's field has them: the ground at 0, a field from -1 m in
// 0.5 m steps; a walkable height of 2 voxels and a climb of 1.
constexpr float kVoxelHeight = 0.5f;
constexpr int kWalkableHeightVoxels = 2;
// Layers a tile may have: one on flat ground; a few more allowed for slack.
constexpr int kLayersPerTile = 4;
// update() calls before giving up (each rebuilds one tile).
constexpr int kMaxUpdateCalls = 1 << 16;

Error fail(std::string message) {
  return make_error(ErrorCode::Limit, "navmesh tile cache", std::move(message));
}

std::string tile_name(int tx, int ty) {
  return "tile (" + std::to_string(tx) + ", " + std::to_string(ty) + ")";
}

// Stores layers as they are: the cache's compression step, with no compression.
class PassThroughCompressor final : public dtTileCacheCompressor {
 public:
  int maxCompressedSize(const int bufferSize) override { return bufferSize; }
  dtStatus compress(const unsigned char* buffer, const int bufferSize, unsigned char* compressed,
                    const int maxCompressedSize, int* compressedSize) override {
    if (bufferSize > maxCompressedSize) return DT_FAILURE | DT_BUFFER_TOO_SMALL;
    std::memcpy(compressed, buffer, std::size_t(bufferSize));
    *compressedSize = bufferSize;
    return DT_SUCCESS;
  }
  dtStatus decompress(const unsigned char* compressed, const int compressedSize, unsigned char* buffer,
                      const int maxBufferSize, int* bufferSize) override {
    if (compressedSize > maxBufferSize) return DT_FAILURE | DT_BUFFER_TOO_SMALL;
    std::memcpy(buffer, compressed, std::size_t(compressedSize));
    *bufferSize = compressedSize;
    return DT_SUCCESS;
  }
};

// Gives each polygon of a tile the cache builds its area's group flag (the Navmesh's
// table) and asks for a BV tree.
class AreaFlags final : public dtTileCacheMeshProcess {
 public:
  explicit AreaFlags(std::vector<NavmeshArea> areas) : areas_(std::move(areas)) {}
  void process(dtNavMeshCreateParams* params, unsigned char* polyAreas, unsigned short* polyFlags) override {
    for (int i = 0; i < params->polyCount; ++i) {
      const unsigned char a = polyAreas[i];
      polyFlags[i] = a < areas_.size() ? areas_[a].flag : 0;
    }
    params->buildBvTree = true;
  }

 private:
  std::vector<NavmeshArea> areas_;
};

// Keeps Recast's last error, for messages.
class LayerContext final : public rcContext {
 public:
  LayerContext() : rcContext(true) {}
  std::string last_error;

 protected:
  void doLog(const rcLogCategory category, const char* msg, const int len) override {
    if (category == RC_LOG_ERROR) last_error.assign(msg, std::size_t(std::max(len, 0)));
  }
};

struct LayerSetDeleter {
  void operator()(rcHeightfieldLayerSet* p) const { rcFreeHeightfieldLayerSet(p); }
};

}  // namespace

struct NavmeshTileCache::Parts {
  PassThroughCompressor compressor;
  dtTileCacheAlloc alloc;  // Detour's default: dtAlloc and dtFree
  AreaFlags process;
  explicit Parts(std::vector<NavmeshArea> areas) : process(std::move(areas)) {}
};

void NavmeshTileCache::CacheDeleter::operator()(dtTileCache* cache) const { dtFreeTileCache(cache); }
void NavmeshTileCache::MeshDeleter::operator()(dtNavMesh* mesh) const { dtFreeNavMesh(mesh); }

NavmeshTileCache::NavmeshTileCache(const Navmesh& mesh, const NavmeshTileCacheParams& params) {
  if (Status s = build(mesh, params); !s.ok()) {
    error_ = s.error();
    if (error_.message.empty()) error_.message = "failed";
  }
}

NavmeshTileCache::~NavmeshTileCache() {
  // The cache borrows the parts: free it first.
  cache_.reset();
  mesh_.reset();
}

Status NavmeshTileCache::build(const Navmesh& mesh, const NavmeshTileCacheParams& params) {
  if (!mesh.ok()) return fail("the navmesh was not built: " + mesh.error().to_string());
  radius_ = mesh.radius();
  voxel_ = mesh.voxel_size();
  const int tile_voxels = mesh.tile_cells() * mesh.voxels_per_cell();
  if (tile_voxels > 255) {
    return fail(
        "a tile is " + std::to_string(tile_voxels) +
        " voxels a side, more than the 255 of a tile cache layer: lower tile_cells or voxels_per_cell");
  }
  const int tiles = mesh.tiles_x() * mesh.tiles_y();
  int tile_bits = 0;
  while ((1 << tile_bits) < tiles * kLayersPerTile) ++tile_bits;
  if (tile_bits > 12)
    return fail(std::to_string(tiles) + " tiles, more than the tile cache's 1,024: raise tile_cells");
  parts_ = std::make_unique<Parts>(mesh.areas());

  dtTileCacheParams tp{};
  tp.orig[0] = 0;
  tp.orig[1] = -1;
  tp.orig[2] = 0;
  tp.cs = float(voxel_);
  tp.ch = kVoxelHeight;
  tp.width = tile_voxels;
  tp.height = tile_voxels;
  tp.walkableHeight = kWalkableHeightVoxels * kVoxelHeight;
  tp.walkableRadius = float(radius_);
  tp.walkableClimb = kVoxelHeight;
  // As the Navmesh passes it to rcBuildContours.
  tp.maxSimplificationError = float(mesh.params().max_error * mesh.cell_size());
  tp.maxTiles = 1 << tile_bits;
  tp.maxObstacles = std::max(1, params.max_obstacles);
  cache_.reset(dtAllocTileCache());
  if (!cache_ || dtStatusFailed(cache_->init(&tp, &parts_->alloc, &parts_->compressor, &parts_->process)))
    return fail("Detour could not make the tile cache");

  dtNavMeshParams np{};
  np.orig[0] = 0;
  np.orig[1] = -1;
  np.orig[2] = 0;
  np.tileWidth = float(tile_voxels * voxel_);
  np.tileHeight = float(tile_voxels * voxel_);
  np.maxTiles = 1 << tile_bits;
  np.maxPolys = 1 << (22 - tile_bits);
  mesh_.reset(dtAllocNavMesh());
  if (!mesh_ || dtStatusFailed(mesh_->init(&np))) return fail("Detour could not make the navmesh");

  const int border = mesh.border_voxels();
  for (int ty = 0; ty < mesh.tiles_y(); ++ty) {
    for (int tx = 0; tx < mesh.tiles_x(); ++tx) {
      Result<CompactFieldPtr> ground = mesh.tile_ground(tx, ty);
      if (!ground.ok()) return ground.error();
      if (!*ground) continue;  // no ground: no layer
      LayerContext ctx;
      std::unique_ptr<rcHeightfieldLayerSet, LayerSetDeleter> lset(rcAllocHeightfieldLayerSet());
      if (!lset || !rcBuildHeightfieldLayers(&ctx, **ground, border, kWalkableHeightVoxels, *lset)) {
        return fail("Recast could not cut " + tile_name(tx, ty) + " into layers: " + ctx.last_error +
                    " (a tile cache layer holds at most 255 row-swept regions)");
      }
      if (lset->nlayers > kLayersPerTile)
        return fail(tile_name(tx, ty) + " has " + std::to_string(lset->nlayers) + " layers");
      for (int i = 0; i < lset->nlayers; ++i) {
        const rcHeightfieldLayer& layer = lset->layers[i];
        dtTileCacheLayerHeader header{};
        header.magic = DT_TILECACHE_MAGIC;
        header.version = DT_TILECACHE_VERSION;
        header.tx = tx;
        header.ty = ty;
        header.tlayer = i;
        std::copy(layer.bmin, layer.bmin + 3, header.bmin);
        std::copy(layer.bmax, layer.bmax + 3, header.bmax);
        header.width = static_cast<unsigned char>(layer.width);
        header.height = static_cast<unsigned char>(layer.height);
        header.minx = static_cast<unsigned char>(layer.minx);
        header.maxx = static_cast<unsigned char>(layer.maxx);
        header.miny = static_cast<unsigned char>(layer.miny);
        header.maxy = static_cast<unsigned char>(layer.maxy);
        header.hmin = static_cast<unsigned short>(layer.hmin);
        header.hmax = static_cast<unsigned short>(layer.hmax);
        unsigned char* data = nullptr;
        int size = 0;
        if (dtStatusFailed(dtBuildTileCacheLayer(&parts_->compressor, &header, layer.heights, layer.areas,
                                                 layer.cons, &data, &size)))
          return fail("Detour could not store the layer of " + tile_name(tx, ty));
        if (dtStatusFailed(cache_->addTile(data, size, DT_COMPRESSEDTILE_FREE_DATA, nullptr))) {
          dtFree(data);
          return fail("the tile cache could not take the layer of " + tile_name(tx, ty));
        }
        ++layers_;
      }
      if (dtStatusFailed(cache_->buildNavMeshTilesAt(tx, ty, mesh_.get())))
        return fail("the tile cache could not build " + tile_name(tx, ty) + " (more than 255 regions?)");
    }
  }
  return Ok{};
}

std::size_t NavmeshTileCache::polygon_count() const {
  if (!mesh_) return 0;
  const dtNavMesh& m = *mesh_;
  std::size_t n = 0;
  for (int i = 0; i < m.getMaxTiles(); ++i) {
    const dtMeshTile* tile = m.getTile(i);
    if (tile && tile->header) n += std::size_t(tile->header->polyCount);
  }
  return n;
}

Result<TileCacheObstacle> NavmeshTileCache::add_box(Vec2 lo, Vec2 hi) {
  if (!cache_) return fail("the tile cache was not built");
  // Grown by the radius; the upper faces a hair inside, so that a voxel whose square only
  // reaches the grown box's edge stays (Navmesh keeps a voxel at exactly the radius).
  const double r = radius_, hair = voxel_ * 1e-3;
  const float bmin[3] = {float(lo.x - r), -1.0f, float(lo.y - r)};
  const float bmax[3] = {float(hi.x + r - hair), 1.0f, float(hi.y + r - hair)};
  dtObstacleRef ref = 0;
  if (dtStatusFailed(cache_->addBoxObstacle(bmin, bmax, &ref)))
    return fail(
        "the tile cache could not take another obstacle (its request queue or max_obstacles is full)");
  pending_.push_back(ref);
  return TileCacheObstacle{ref};
}

Status NavmeshTileCache::remove(TileCacheObstacle id) {
  if (!cache_) return fail("the tile cache was not built");
  const dtObstacleRef ref = static_cast<dtObstacleRef>(id);
  if (cache_->getObstacleByRef(ref) == nullptr) return fail("no obstacle " + std::to_string(ref));
  if (dtStatusFailed(cache_->removeObstacle(ref))) return fail("the tile cache's request queue is full");
  pending_.push_back(ref);
  return Ok{};
}

Status NavmeshTileCache::update() {
  tiles_built_ = 0;
  if (!cache_) return fail("the tile cache was not built");
  // The tiles the pending obstacles touch: a removed obstacle's list is read before
  // Detour frees it, an added one's after Detour has found it (first call).
  std::vector<dtCompressedTileRef> touched;
  const auto collect = [&](dtObstacleRef ref) {
    const dtTileCacheObstacle* ob = cache_->getObstacleByRef(ref);
    if (ob == nullptr) return;
    for (int j = 0; j < int(ob->ntouched); ++j) {
      if (std::find(touched.begin(), touched.end(), ob->touched[j]) == touched.end())
        touched.push_back(ob->touched[j]);
    }
  };
  for (const std::uint32_t ref : pending_) collect(ref);
  bool up_to_date = false;
  bool first = true;
  for (int calls = 0; !up_to_date; ++calls) {
    if (calls >= kMaxUpdateCalls) {
      error_ = fail("the tile cache was still not up to date after " + std::to_string(calls) + " updates");
      return error_;
    }
    if (dtStatusFailed(cache_->update(0, mesh_.get(), &up_to_date))) {
      error_ = fail("the tile cache could not rebuild a tile (more than 255 regions?)");
      return error_;
    }
    if (first) {
      for (const std::uint32_t ref : pending_) collect(ref);
      first = false;
    }
  }
  pending_.clear();
  tiles_built_ = int(touched.size());
  return Ok{};
}

std::vector<std::array<int, 2>> NavmeshTileCache::touched_tiles(TileCacheObstacle id) const {
  std::vector<std::array<int, 2>> out;
  if (!cache_) return out;
  const dtTileCacheObstacle* ob = cache_->getObstacleByRef(static_cast<dtObstacleRef>(id));
  if (ob == nullptr) return out;
  for (int j = 0; j < int(ob->ntouched); ++j) {
    const dtCompressedTile* tile = cache_->getTileByRef(ob->touched[j]);
    if (tile && tile->header) out.push_back({tile->header->tx, tile->header->ty});
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace pathscope
