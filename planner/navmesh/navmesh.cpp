// A movement class's navigation mesh, built with Recast and held by Detour.
//
// Sources: the Recast and Detour API documentation (Recast.h, DetourNavMeshBuilder.h,
// DetourNavMesh.h; recastnav.com) and RecastDemo's tiled build ("Sample_TileMesh": a
// heightfield per tile grown by a border of walkableRadius + 3 voxels, watershed regions,
// contours, polygons, dtCreateNavMeshData, dtNavMesh::addTile).
//
// The world is flat. Each passable cell of the class's cost grid becomes walkable ground
// at height 0: runs of cells of one area along a row are rasterised as two triangles
// (inset by a hair, so that Recast's clipping never gives a voxel of the blocked cell
// beside them a sliver of ground). Blocked cells (impassable tiles, obstacle features)
// get no ground, so Recast sees them as holes and erodes the class's radius round them.
// Recast's world is y-up: our (x, y) is its (x, z).
//
// Areas: every distinct pair (multiplier, terrain group) of the passable cells is an area
// (Recast keeps polygons of different areas apart); the filter of a query gives each area
// its multiplier over the smallest one (Detour's heuristic is the plain distance, so no
// area may cost less than 1). Each terrain group is one polygon flag, and a query includes
// only its start's group: units never cross from land to water unless amphibious (then
// the grid gives every cell one group). Past 62 pairs the multipliers of a group share
// areas by rank, each costing the smallest of its cells.

#include "planner/navmesh/navmesh.hpp"

#include <DetourNavMesh.h>
#include <DetourNavMeshBuilder.h>
#include <Recast.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <utility>

namespace pathscope {
namespace {

// Keeps the last error Recast logs, for the message of a failed build.
class BuildContext final : public rcContext {
 public:
  BuildContext() : rcContext(true) {}
  std::string last_error;

 protected:
  void doLog(const rcLogCategory category, const char* msg, const int len) override {
    if (category == RC_LOG_ERROR) last_error.assign(msg, std::size_t(std::max(len, 0)));
  }
};

struct HeightfieldDeleter {
  void operator()(rcHeightfield* p) const { rcFreeHeightField(p); }
};
struct CompactDeleter {
  void operator()(rcCompactHeightfield* p) const { rcFreeCompactHeightfield(p); }
};
struct ContourDeleter {
  void operator()(rcContourSet* p) const { rcFreeContourSet(p); }
};
struct PolyMeshDeleter {
  void operator()(rcPolyMesh* p) const { rcFreePolyMesh(p); }
};

// Areas Recast may use: 1..62 (0 is no ground, 63 its default walkable area).
constexpr std::size_t kMaxAreas = 62;
// Groups, one polygon flag each.
constexpr std::size_t kMaxGroups = 16;
// Voxel heights: the ground lies at 0, in a field from -1 to 1 metres.
constexpr float kVoxelHeight = 0.5f;
// Bytes a voxel column of a tile's build takes (heightfield, compact field, regions).
constexpr std::uint64_t kBytesPerBuildVoxel = 64;
// Bytes a polygon of the finished mesh takes, about (Detour's and our copy).
constexpr std::uint64_t kBytesPerPolygon = 400;

Status fail(std::string message) { return make_error(ErrorCode::Limit, "navmesh", std::move(message)); }

// Recast's cell size: the scenario's cell size over voxels_per_cell (1..8).
double voxel_metres(double cell_size, const NavmeshParams& p) {
  return cell_size / std::clamp(p.voxels_per_cell, 1, 8);
}

// Recast's erosion radius: `radius` metres rounded up to whole voxels.
int erosion_voxels(double radius, double voxel) { return int(std::ceil(radius / voxel - 1e-9)); }

}  // namespace

double kept_radius(const NavmeshParams& p, double cell_size, double class_radius) {
  const double voxel = voxel_metres(cell_size, p);
  return erosion_voxels(p.radius < 0 ? class_radius : p.radius, voxel) * voxel;
}

std::string NavmeshParams::key() const {
  char buf[160];
  std::snprintf(buf, sizeof buf, "navmesh:%d:%.17g:%.17g:%d:%.17g:%llu", voxels_per_cell, max_edge, max_error,
                tile_cells, radius, static_cast<unsigned long long>(memory.bytes));
  return buf;
}

void Navmesh::MeshDeleter::operator()(dtNavMesh* mesh) const { dtFreeNavMesh(mesh); }

Navmesh::Navmesh(const PlanningWorld& world, std::size_t movement_class, const NavmeshParams& params) {
  Status s = build(world, movement_class, params);
  area_of_cell_ = {};
  area_of_cell_.shrink_to_fit();
  if (!s.ok()) {
    error_ = s.error();
    mesh_.reset();
    tile_polygons_.clear();
    tile_first_.clear();
    polygon_count_ = 0;
    bytes_ = 0;
  }
}

Navmesh::~Navmesh() = default;

const Navmesh& Navmesh::of(const PlanningWorld& world, std::size_t movement_class,
                           const NavmeshParams& params) {
  return world.derived<Navmesh>(
      params.key(), movement_class,
      [&params](const PlanningWorld& w, std::size_t c) { return std::make_unique<Navmesh>(w, c, params); });
}

bool Navmesh::update(const PlanningWorld& world, const WorldChange& change) {
  (void)world;
  return change.cells.empty();
}

Status Navmesh::assign_areas(const CostGrid& grid) {
  // Distinct (group, multiplier) pairs, in order: the same inputs give the same ids.
  std::map<std::uint16_t, std::map<double, std::size_t>> pairs;  // group -> multiplier -> count
  const std::size_t n = grid.cell_count();
  for (std::uint32_t i = 0; i < n; ++i) {
    if (!grid.passable(i)) continue;
    ++pairs[grid.move_key(i)][grid.multiplier(i)];
  }
  if (pairs.size() > kMaxGroups) {
    return fail("the class's cells fall in " + std::to_string(pairs.size()) +
                " terrain groups, more than the 16 polygon flags of the navmesh");
  }
  std::size_t distinct = 0;
  for (const auto& [key, ms] : pairs) distinct += ms.size();
  exact_areas_ = distinct <= kMaxAreas;
  const std::size_t per_group = pairs.empty() ? 1 : std::max<std::size_t>(1, kMaxAreas / pairs.size());
  areas_.assign(1, NavmeshArea{});
  // group -> multiplier -> area id
  std::map<std::uint16_t, std::map<double, std::uint8_t>> area_of;
  std::uint16_t flag_bit = 0;
  min_multiplier_ = pairs.empty() ? 1 : std::numeric_limits<double>::infinity();
  for (const auto& [key, ms] : pairs) {
    const std::uint16_t flag = std::uint16_t(1u << flag_bit++);
    const std::size_t bins = exact_areas_ ? ms.size() : std::min(ms.size(), per_group);
    std::size_t rank = 0;
    std::size_t bin_of_area = std::size_t(-1);
    for (const auto& [m, count] : ms) {
      (void)count;
      const std::size_t bin = rank * bins / ms.size();
      if (bin != bin_of_area) {
        areas_.push_back(NavmeshArea{m, key, flag});  // the bin's smallest multiplier
        bin_of_area = bin;
      }
      area_of[key][m] = std::uint8_t(areas_.size() - 1);
      min_multiplier_ = std::min(min_multiplier_, m);
      ++rank;
    }
  }
  area_of_cell_.assign(n, 0);
  for (std::uint32_t i = 0; i < n; ++i) {
    if (grid.passable(i)) area_of_cell_[i] = area_of[grid.move_key(i)][grid.multiplier(i)];
  }
  return Ok{};
}

CellRect Navmesh::tile_input_cells(int tile_x, int tile_y) const {
  const int vpc = std::max(1, int(std::lround(cell_size_ / voxel_)));
  const int border = (border_voxels() + vpc - 1) / vpc;
  const CellRect r{tile_x * tile_cells_ - border, tile_y * tile_cells_ - border,
                   (tile_x + 1) * tile_cells_ + border, (tile_y + 1) * tile_cells_ + border};
  return r.intersected(CellRect{0, 0, grid_w_, grid_h_});
}

Status Navmesh::build(const PlanningWorld& world, std::size_t movement_class, const NavmeshParams& p) {
  const CostGrid& grid = world.grid(movement_class);
  const MovementClass& mc = world.scenario().classes[movement_class];
  cell_size_ = grid.cell_size();
  grid_w_ = grid.width();
  grid_h_ = grid.height();
  const int vpc = std::clamp(p.voxels_per_cell, 1, 8);
  voxel_ = voxel_metres(cell_size_, p);
  const double radius = p.radius < 0 ? mc.radius : p.radius;
  radius_voxels_ = erosion_voxels(radius, voxel_);
  if (radius_voxels_ > 250) {
    return fail("radius " + std::to_string(radius) + " m is " + std::to_string(radius_voxels_) +
                " voxels, more than Recast's 250: lower voxels_per_cell");
  }
  tile_cells_ = std::max(1, p.tile_cells);
  tiles_x_ = (grid_w_ + tile_cells_ - 1) / tile_cells_;
  tiles_y_ = (grid_h_ + tile_cells_ - 1) / tile_cells_;
  const int tile_voxels = tile_cells_ * vpc;
  const int border = border_voxels();
  const int field = tile_voxels + 2 * border;
  const std::uint64_t tiles = std::uint64_t(tiles_x_) * std::uint64_t(tiles_y_);
  const std::string advice = "raise memory_mib, or lower voxels_per_cell or tile_cells";
  // Before anything: one tile's build, the area table (a byte a cell) and the tiles' slots.
  const std::uint64_t build_bytes = std::uint64_t(field) * std::uint64_t(field) * kBytesPerBuildVoxel;
  const std::uint64_t fixed = build_bytes + grid.cell_count() + tiles * 256;
  if (Status s = p.memory.check(fixed, "the navmesh", advice, "navmesh"); !s.ok()) return s;
  if (tiles == 0) return fail("the map has no cells");
  if (tile_voxels + 2 * border > 0xfff0)
    return fail("tile_cells is too large: a tile would exceed 65,520 voxels");
  // Tile and polygon bits of a 32-bit polygon reference: Detour needs 10 for the salt.
  int tile_bits = 0;
  while ((std::uint64_t(1) << tile_bits) < tiles) ++tile_bits;
  if (tile_bits > 14) {
    return fail(std::to_string(tiles) + " tiles, more than the 16,384 a navmesh may hold: raise tile_cells");
  }
  const int poly_bits = 22 - tile_bits;
  polys_per_tile_ = std::uint32_t(1) << poly_bits;

  if (Status s = assign_areas(grid); !s.ok()) return s;

  dtNavMeshParams np{};
  np.orig[0] = 0;
  np.orig[1] = -1;
  np.orig[2] = 0;
  np.tileWidth = float(tile_voxels * voxel_);
  np.tileHeight = float(tile_voxels * voxel_);
  np.maxTiles = int(std::uint64_t(1) << tile_bits);
  np.maxPolys = int(polys_per_tile_);
  mesh_.reset(dtAllocNavMesh());
  if (!mesh_ || dtStatusFailed(mesh_->init(&np))) return fail("Detour could not make the navmesh");
  tile_polygons_.assign(std::size_t(np.maxTiles), TilePolygons{});
  bytes_ = tiles * 256 + sizeof(*this);

  BuildContext ctx;
  std::vector<float> verts;
  std::vector<unsigned char> tri_areas;
  const float cs = float(voxel_);
  const float eps = float(voxel_ * 1e-3);
  for (int ty = 0; ty < tiles_y_; ++ty) {
    for (int tx = 0; tx < tiles_x_; ++tx) {
      const double x0 = double(tx * tile_voxels - border) * voxel_;
      const double z0 = double(ty * tile_voxels - border) * voxel_;
      const float bmin[3] = {float(x0), -1.0f, float(z0)};
      const float bmax[3] = {float(x0 + field * voxel_), 1.0f, float(z0 + field * voxel_)};
      // Ground: row runs of one area over the tile's input cells.
      verts.clear();
      tri_areas.clear();
      const CellRect in = tile_input_cells(tx, ty);
      for (int y = in.y0; y < in.y1; ++y) {
        int x = in.x0;
        while (x < in.x1) {
          const std::uint8_t a = area_of_cell_[grid.index(x, y)];
          int e = x + 1;
          while (e < in.x1 && area_of_cell_[grid.index(e, y)] == a) ++e;
          if (a != 0) {
            const float ax = float(x * cell_size_) + eps, bx = float(e * cell_size_) - eps;
            const float az = float(y * cell_size_) + eps, bz = float((y + 1) * cell_size_) - eps;
            const float quad[12] = {ax, 0, az, ax, 0, bz, bx, 0, bz, bx, 0, az};
            for (int k : {0, 1, 2, 0, 2, 3}) verts.insert(verts.end(), quad + 3 * k, quad + 3 * k + 3);
            tri_areas.push_back(a);
            tri_areas.push_back(a);
          }
          x = e;
        }
      }
      if (tri_areas.empty()) continue;

      std::unique_ptr<rcHeightfield, HeightfieldDeleter> hf(rcAllocHeightfield());
      if (!hf || !rcCreateHeightfield(&ctx, *hf, field, field, bmin, bmax, cs, kVoxelHeight)) {
        return fail("Recast could not make a heightfield of " + std::to_string(field) + " voxels a side");
      }
      if (!rcRasterizeTriangles(&ctx, verts.data(), tri_areas.data(), int(tri_areas.size()), *hf, 1)) {
        return fail("Recast could not rasterise tile (" + std::to_string(tx) + ", " + std::to_string(ty) +
                    "): " + ctx.last_error);
      }
      std::unique_ptr<rcCompactHeightfield, CompactDeleter> chf(rcAllocCompactHeightfield());
      if (!chf || !rcBuildCompactHeightfield(&ctx, 2, 1, *hf, *chf)) {
        return fail("Recast could not compact tile (" + std::to_string(tx) + ", " + std::to_string(ty) + ")");
      }
      hf.reset();
      if (radius_voxels_ > 0 && !rcErodeWalkableArea(&ctx, radius_voxels_, *chf)) {
        return fail("Recast could not erode tile (" + std::to_string(tx) + ", " + std::to_string(ty) + ")");
      }
      if (!rcBuildDistanceField(&ctx, *chf) || !rcBuildRegions(&ctx, *chf, border, 0, 20)) {
        return fail("Recast could not build the regions of tile (" + std::to_string(tx) + ", " +
                    std::to_string(ty) + "): " + ctx.last_error);
      }
      std::unique_ptr<rcContourSet, ContourDeleter> cset(rcAllocContourSet());
      const int max_edge = int(std::lround(p.max_edge * vpc));
      if (!cset || !rcBuildContours(&ctx, *chf, float(p.max_error * cell_size_), max_edge, *cset,
                                    RC_CONTOUR_TESS_WALL_EDGES)) {
        return fail("Recast could not trace the contours of tile (" + std::to_string(tx) + ", " +
                    std::to_string(ty) + "): " + ctx.last_error);
      }
      if (cset->nconts == 0) continue;
      std::unique_ptr<rcPolyMesh, PolyMeshDeleter> pmesh(rcAllocPolyMesh());
      if (!pmesh || !rcBuildPolyMesh(&ctx, *cset, DT_VERTS_PER_POLYGON, *pmesh)) {
        return fail("Recast could not build the polygons of tile (" + std::to_string(tx) + ", " +
                    std::to_string(ty) + "): " + ctx.last_error + "; lower tile_cells");
      }
      cset.reset();
      if (pmesh->npolys == 0) continue;
      if (std::uint32_t(pmesh->npolys) > polys_per_tile_ || pmesh->nverts >= 0xfffe) {
        return fail("tile (" + std::to_string(tx) + ", " + std::to_string(ty) + ") has " +
                    std::to_string(pmesh->npolys) + " polygons and " + std::to_string(pmesh->nverts) +
                    " vertices, more than a tile may hold (" + std::to_string(polys_per_tile_) +
                    ", 65,534): lower tile_cells");
      }
      // No detail mesh: the ground is flat, and Detour makes one triangle fan per polygon
      // when none is given.
      chf.reset();
      std::vector<unsigned short> flags(std::size_t(pmesh->npolys));
      for (int i = 0; i < pmesh->npolys; ++i) {
        const unsigned char a = pmesh->areas[i];
        flags[std::size_t(i)] = a < areas_.size() ? areas_[a].flag : 0;
      }
      dtNavMeshCreateParams cp{};
      cp.verts = pmesh->verts;
      cp.vertCount = pmesh->nverts;
      cp.polys = pmesh->polys;
      cp.polyAreas = pmesh->areas;
      cp.polyFlags = flags.data();
      cp.polyCount = pmesh->npolys;
      cp.nvp = pmesh->nvp;
      cp.tileX = tx;
      cp.tileY = ty;
      cp.tileLayer = 0;
      std::copy(pmesh->bmin, pmesh->bmin + 3, cp.bmin);
      std::copy(pmesh->bmax, pmesh->bmax + 3, cp.bmax);
      cp.walkableHeight = 2 * kVoxelHeight;
      cp.walkableRadius = float(radius_voxels_ * voxel_);
      cp.walkableClimb = kVoxelHeight;
      cp.cs = cs;
      cp.ch = kVoxelHeight;
      cp.buildBvTree = true;
      unsigned char* data = nullptr;
      int size = 0;
      if (!dtCreateNavMeshData(&cp, &data, &size)) {
        return fail("Detour could not make the data of tile (" + std::to_string(tx) + ", " +
                    std::to_string(ty) + ")");
      }
      bytes_ += std::size_t(size) + std::size_t(pmesh->npolys) * (kBytesPerPolygon / 2);
      if (Status s = p.memory.check(bytes_ + build_bytes, "the navmesh", advice, "navmesh"); !s.ok()) {
        dtFree(data);
        return s;
      }
      dtTileRef ref = 0;
      if (dtStatusFailed(mesh_->addTile(data, size, DT_TILE_FREE_DATA, 0, &ref))) {
        dtFree(data);
        return fail("Detour could not add tile (" + std::to_string(tx) + ", " + std::to_string(ty) + ")");
      }
      // Our copy of the polygons, in world (x, y).
      const dtNavMesh& m = *mesh_;
      const dtMeshTile* tile = m.getTileAt(tx, ty, 0);
      const unsigned int it = m.decodePolyIdTile(m.getPolyRefBase(tile));
      TilePolygons& tp = tile_polygons_[it];
      for (int i = 0; i < tile->header->polyCount; ++i) {
        const dtPoly& poly = tile->polys[i];
        tp.offset.push_back(std::uint32_t(tp.vertices.size()));
        for (int k = 0; k < poly.vertCount; ++k) {
          const float* v = &tile->verts[poly.verts[k] * 3];
          tp.vertices.push_back(Vec2{double(v[0]), double(v[2])});
        }
      }
      tp.offset.push_back(std::uint32_t(tp.vertices.size()));
      polygon_count_ += std::size_t(tile->header->polyCount);
    }
  }
  // Dense node ids: each tile's polygons after the previous tile's.
  tile_first_.assign(1, 0);
  for (const TilePolygons& tp : tile_polygons_) {
    const std::size_t n = tp.offset.empty() ? 0 : tp.offset.size() - 1;
    tile_first_.push_back(tile_first_.back() + NodeId(n));
  }
  return Ok{};
}

bool Navmesh::locate(NodeId node, std::uint32_t& tile, std::uint32_t& poly) const {
  if (!mesh_ || node == kNoNode || tile_first_.empty() || node >= tile_first_.back()) return false;
  // The last tile whose first id is at most `node` (empty tiles share their first id).
  const auto it = std::upper_bound(tile_first_.begin(), tile_first_.end(), node) - 1;
  tile = std::uint32_t(it - tile_first_.begin());
  poly = node - *it;
  return true;
}

NodeId Navmesh::node_of(std::uint32_t ref) const {
  if (!mesh_ || ref == 0) return kNoNode;
  unsigned int salt = 0, it = 0, ip = 0;
  mesh_->decodePolyId(ref, salt, it, ip);
  if (it >= tile_polygons_.size() || ip + 1 >= tile_polygons_[it].offset.size()) return kNoNode;
  return tile_first_[it] + NodeId(ip);
}

std::uint32_t Navmesh::ref_of(NodeId node) const {
  std::uint32_t it = 0, ip = 0;
  if (!locate(node, it, ip)) return 0;
  const dtMeshTile* tile = static_cast<const dtNavMesh&>(*mesh_).getTile(int(it));
  return tile && tile->header ? mesh_->getPolyRefBase(tile) | ip : 0;
}

std::span<const Vec2> Navmesh::polygon(NodeId node) const {
  std::uint32_t it = 0, ip = 0;
  if (!locate(node, it, ip)) return {};
  const TilePolygons& tp = tile_polygons_[it];
  if (ip + 1 >= tp.offset.size()) return {};
  return std::span<const Vec2>(tp.vertices.data() + tp.offset[ip], tp.offset[ip + 1] - tp.offset[ip]);
}

Vec2 Navmesh::centroid(NodeId node) const {
  const std::span<const Vec2> poly = polygon(node);
  Vec2 c{0, 0};
  for (const Vec2& v : poly) c += v;
  return poly.empty() ? c : c / double(poly.size());
}

NodeId Navmesh::polygon_at(Vec2 point) const {
  if (!mesh_) return kNoNode;
  const double tile_size = tile_cells_ * cell_size_;
  const int tx = int(std::floor(point.x / tile_size)), ty = int(std::floor(point.y / tile_size));
  NodeId best = kNoNode;
  for (int dy = -1; dy <= 1; ++dy) {
    for (int dx = -1; dx <= 1; ++dx) {
      const dtMeshTile* tile = mesh_->getTileAt(tx + dx, ty + dy, 0);
      if (!tile || !tile->header) continue;
      const std::uint32_t it = mesh_->decodePolyIdTile(mesh_->getPolyRefBase(tile));
      for (int i = 0; i < tile->header->polyCount; ++i) {
        const NodeId id = tile_first_[it] + NodeId(i);
        const std::span<const Vec2> poly = polygon(id);
        // Detour's polygons wind clockwise in (x, z) seen from above (+y): with our y
        // downwards every edge has the point on the same side, or on it.
        bool pos = false, neg = false;
        for (std::size_t k = 0; k < poly.size(); ++k) {
          const Vec2 a = poly[k], b = poly[(k + 1) % poly.size()];
          const double cross = (b.x - a.x) * (point.y - a.y) - (b.y - a.y) * (point.x - a.x);
          pos |= cross > 0;
          neg |= cross < 0;
        }
        if (!poly.empty() && !(pos && neg) && id < best) best = id;
      }
    }
  }
  return best;
}

}  // namespace pathscope
