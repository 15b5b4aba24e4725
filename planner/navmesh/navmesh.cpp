// A movement class's navigation mesh, built with Recast and held by Detour.
//
// Sources: the Recast and Detour API documentation (Recast.h, DetourNavMeshBuilder.h,
// DetourNavMesh.h; recastnav.com) and RecastDemo's tiled build ("Sample_TileMesh": a
// heightfield per tile grown by a border of walkableRadius + 3 voxels, watershed regions,
// contours, polygons, dtCreateNavMeshData, dtNavMesh::addTile).
//
// The world is flat. Each voxel of a passable cell of the class's cost grid whose square
// keeps the radius from every blocked cell (impassable tiles, obstacle features) and from
// the grid's edge becomes walkable ground at height 0: one span of its cell's area
// (rcAddSpan), so no voxel takes ground from the one beside it. The margin is ours, not Recast's
// (rcErodeWalkableArea erodes by a chamfer distance between voxels, which keeps voxels
// touching a wall's corner): distances between the voxel's square and a cell's are exact
// in whole voxels, so every point of the ground, and so of the mesh traced round it with
// max_error 0, keeps the radius. The radius kept is the asked one less half a voxel: a
// passage of whole cells that a point on its centre line passes keeping the radius keeps
// the voxel on that line (voxels_per_cell odd). Recast's world is y-up: our (x, y) is its
// (x, z).
//
// Areas: every distinct pair (multiplier, terrain group) of the passable cells is an area
// (Recast keeps polygons of different areas apart); the filter of a query gives each area
// its multiplier over the smallest one (Detour's heuristic is the plain distance, so no
// area may cost less than 1). Each terrain group is one polygon flag, and a query includes
// only its start's group: units never cross from land to water unless amphibious (then
// the grid gives every cell one group). Past 62 pairs the multipliers of a group share
// areas by rank, each costing the smallest of its cells.

#include "planner/navmesh/navmesh.hpp"

#include "planner/core/geometry.hpp"

#include <DetourNavMesh.h>
#include <DetourNavMeshBuilder.h>
#include <Recast.h>
#include <RecastAlloc.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <utility>

namespace pathscope {
namespace {

// Keeps the last error Recast logs, for the message of a failed build, and the first
// warning that says its polygons are wrong: a hole it could not merge into its region's
// outline (rcBuildContours: mergeHoles, the hole dropped) or an outline its ear clipping
// could not triangulate (rcBuildPolyMesh: "Bad triangulation", the triangles kept then
// overlap and cover walls). Its notes on growing its own arrays are not failures.
class BuildContext final : public rcContext {
 public:
  BuildContext() : rcContext(true) {}
  std::string last_error;
  std::string bad_polygons;

 protected:
  void doLog(const rcLogCategory category, const char* msg, const int len) override {
    const std::string text(msg, std::size_t(std::max(len, 0)));
    if (category == RC_LOG_ERROR) last_error = text;
    if (category == RC_LOG_WARNING && bad_polygons.empty() && text.find("Expanding") == std::string::npos)
      bad_polygons = text;
  }
};

struct HeightfieldDeleter {
  void operator()(rcHeightfield* p) const { rcFreeHeightField(p); }
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
// Bytes kept per cell: its pair (4) and area (1), what an update compares against.
constexpr std::uint64_t kBytesPerCell = 5;
// A tile and the four tiles it shares edges with (Detour links only across edges).
constexpr std::array<std::array<int, 2>, 5> kSelfAndSides{{{0, 0}, {1, 0}, {-1, 0}, {0, 1}, {0, -1}}};
constexpr const char* kBudgetAdvice = "raise memory_mib, or lower voxels_per_cell or tile_cells";

Status fail(std::string message) { return make_error(ErrorCode::Limit, "navmesh", std::move(message)); }

// The root of `i`'s tree in a union-find forest (paths halved on the way).
std::uint32_t piece_root(std::vector<std::uint32_t>& parent, std::uint32_t i) {
  while (parent[i] != i) {
    parent[i] = parent[parent[i]];
    i = parent[i];
  }
  return i;
}

// Pieces of walkable ground inside a tile: the compact field's spans less its border,
// joined across their sides where Recast connects them (4-neighbours). On flat ground a
// connection holds both ways, so each span joins its +x and +z neighbours only.
std::size_t ground_pieces(const rcCompactHeightfield& chf, int border) {
  const int w = chf.width, h = chf.height;
  std::vector<std::uint32_t> parent(chf.spanCount);
  for (std::uint32_t i = 0; i < parent.size(); ++i) parent[i] = i;
  const auto inside = [&](int x, int z) {
    return x >= border && z >= border && x < w - border && z < h - border;
  };
  std::size_t spans = 0, joins = 0;
  for (int z = border; z < h - border; ++z) {
    for (int x = border; x < w - border; ++x) {
      const rcCompactCell& c = chf.cells[x + z * w];
      for (std::uint32_t i = c.index; i < std::uint32_t(c.index) + std::uint32_t(c.count); ++i) {
        ++spans;
        const rcCompactSpan& s = chf.spans[i];
        for (const int dir : {1, 2}) {  // +z, +x
          if (rcGetCon(s, dir) == RC_NOT_CONNECTED) continue;
          const int nx = x + rcGetDirOffsetX(dir), nz = z + rcGetDirOffsetY(dir);
          if (!inside(nx, nz)) continue;
          const std::uint32_t a = piece_root(parent, i);
          const std::uint32_t b =
              piece_root(parent, chf.cells[nx + nz * w].index + std::uint32_t(rcGetCon(s, dir)));
          if (a != b) {
            parent[a] = b;
            ++joins;
          }
        }
      }
    }
  }
  return spans - joins;
}

// Pieces of a polygon mesh: polygons joined across the edges they share (not across the
// tile's edges, which Detour links later).
std::size_t polygon_pieces(const rcPolyMesh& mesh) {
  std::vector<std::uint32_t> parent(std::size_t(mesh.npolys));
  for (std::uint32_t i = 0; i < parent.size(); ++i) parent[i] = i;
  std::size_t joins = 0;
  for (int i = 0; i < mesh.npolys; ++i) {
    const unsigned short* p = &mesh.polys[std::size_t(i) * 2 * std::size_t(mesh.nvp)];
    for (int j = 0; j < mesh.nvp && p[j] != RC_MESH_NULL_IDX; ++j) {
      const unsigned short nei = p[mesh.nvp + j];
      if (nei & 0x8000) continue;  // none, or a portal to the tile's edge
      const std::uint32_t a = piece_root(parent, std::uint32_t(i)), b = piece_root(parent, nei);
      if (a != b) {
        parent[a] = b;
        ++joins;
      }
    }
  }
  return parent.size() - joins;
}

// Floor and ceiling of n / d for d > 0.
int floor_div(long long n, long long d) { return int(n >= 0 ? n / d : -((-n + d - 1) / d)); }
int ceil_div(long long n, long long d) { return -floor_div(-n, d); }

// Whether the open segment (ax, az)-(bx, bz), in the compact field's voxel corners, crosses
// only voxels holding ground of `area`. Walked column by column: in each column the voxels
// whose open square the segment crosses are those between its heights at the column's two
// sides. A segment along the voxels' sides crosses no square.
bool segment_on_ground(const rcCompactHeightfield& chf, int ax, int az, int bx, int bz, unsigned char area) {
  if (ax == bx || az == bz) return true;
  if (ax > bx) {
    std::swap(ax, bx);
    std::swap(az, bz);
  }
  const long long den = bx - ax;
  for (int x = ax; x < bx; ++x) {
    // z at the column's two sides, as n / den.
    const long long n0 = (long long)az * den + (long long)(bz - az) * (x - ax);
    const long long n1 = n0 + (bz - az);
    for (int z = floor_div(std::min(n0, n1), den); z < ceil_div(std::max(n0, n1), den); ++z) {
      if (x < 0 || z < 0 || x >= chf.width || z >= chf.height) return false;
      const rcCompactCell& c = chf.cells[x + z * chf.width];
      bool found = false;
      for (std::uint32_t i = c.index; i < std::uint32_t(c.index) + std::uint32_t(c.count); ++i)
        found = found || chf.areas[i] == area;
      if (!found) return false;
    }
  }
  return true;
}

// Recast traces each region's outline exactly along walls and area borders (max_error 0),
// but the side two regions of one area share is one straight segment between the points
// where the neighbour changes (rcBuildContours tessellates walls and area borders only).
// Where that border bends round a wall's corner, the segment cuts through the wall and both
// regions' polygons lie across it. Each such side is replaced here by the voxel border it
// stands for: the corners where the raw outline turns between its two ends. The region on
// the other side has the same side (the same ends, the same voxels), so it gets the same
// corners in reverse and the polygons still meet edge to edge. False when a side's raw run
// is not found, or a side still leaves the ground (the tile is then built another way).
bool follow_cut_sides(rcContourSet& cset, const rcCompactHeightfield& chf) {
  const int b = cset.borderSize;
  for (int ci = 0; ci < cset.nconts; ++ci) {
    rcContour& cont = cset.conts[ci];
    std::vector<int> out;
    bool changed = false;
    for (int j = 0; j < cont.nverts; ++j) {
      const int* p = &cont.verts[j * 4];
      const int* q = &cont.verts[((j + 1) % cont.nverts) * 4];
      out.insert(out.end(), p, p + 4);
      const int reg = p[3] & RC_CONTOUR_REG_MASK;
      if (reg == 0 || (p[3] & RC_AREA_BORDER) ||
          segment_on_ground(chf, p[0] + b, p[2] + b, q[0] + b, q[2] + b, cont.area))
        continue;
      // The raw run: from a raw point at p whose next edge borders `reg`, along edges that
      // all border it, to q. (Raw point k's region is the one across the edge ending at k.)
      const int n = cont.nrverts;
      const auto raw = [&](int k) { return &cont.rverts[((k % n + n) % n) * 4]; };
      const auto at = [](const int* v, const int* w) { return v[0] == w[0] && v[2] == w[2]; };
      std::vector<int> run;
      bool found = false;
      for (int k = 0; k < n && !found; ++k) {
        if (!at(raw(k), p) || (raw(k + 1)[3] & RC_CONTOUR_REG_MASK) != reg) continue;
        run.clear();
        for (int m = k + 1; m <= k + n; ++m) {
          if ((raw(m)[3] & RC_CONTOUR_REG_MASK) != reg) break;
          if (at(raw(m), q)) {
            found = true;
            break;
          }
          const int* a = raw(m - 1);
          const int* v = raw(m);
          const int* c = raw(m + 1);
          const bool turns = (v[0] - a[0]) * (c[2] - v[2]) != (v[2] - a[2]) * (c[0] - v[0]);
          if (!turns) continue;
          run.insert(run.end(),
                     {v[0], v[1], v[2],
                      (c[3] & (RC_CONTOUR_REG_MASK | RC_AREA_BORDER)) | (v[3] & RC_BORDER_VERTEX)});
        }
      }
      if (!found) return false;
      out.insert(out.end(), run.begin(), run.end());
      changed = true;
    }
    if (!changed) continue;
    int* verts = static_cast<int*>(rcAlloc(sizeof(int) * out.size(), RC_ALLOC_PERM));
    if (verts == nullptr) return false;
    std::copy(out.begin(), out.end(), verts);
    rcFree(cont.verts);
    cont.verts = verts;
    cont.nverts = int(out.size() / 4);
    for (int j = 0; j < cont.nverts; ++j) {
      const int* p = &cont.verts[j * 4];
      const int* q = &cont.verts[((j + 1) % cont.nverts) * 4];
      if ((p[3] & RC_CONTOUR_REG_MASK) != 0 && !(p[3] & RC_AREA_BORDER) &&
          !segment_on_ground(chf, p[0] + b, p[2] + b, q[0] + b, q[2] + b, cont.area))
        return false;
    }
  }
  return true;
}

// Recast's cell size: the scenario's cell size over voxels_per_cell (1..8).
double voxel_metres(double cell_size, const NavmeshParams& p) {
  return cell_size / std::clamp(p.voxels_per_cell, 1, 8);
}

// Metres the mesh keeps: `radius` less half a voxel, at least 0.
double kept_metres(double radius, double voxel) { return std::max(0.0, radius - 0.5 * voxel); }

// Least distance between the segment a-b and the closed box [lo, hi]: 0 when they meet,
// else at an end of the segment or a corner of the box (both convex).
double segment_box_distance(Vec2 a, Vec2 b, Vec2 lo, Vec2 hi) {
  if (segment_crosses_open_box(a, b, lo, hi)) return 0;
  const auto point_box = [&](Vec2 p) {
    const double dx = std::max({lo.x - p.x, 0.0, p.x - hi.x});
    const double dy = std::max({lo.y - p.y, 0.0, p.y - hi.y});
    return dx * dx + dy * dy;
  };
  double d = std::min(point_box(a), point_box(b));
  for (const Vec2 c : {lo, hi, Vec2{lo.x, hi.y}, Vec2{hi.x, lo.y}})
    d = std::min(d, distance_sq_to_segment(c, a, b));
  return std::sqrt(d);
}

}  // namespace

double kept_radius(const NavmeshParams& p, double cell_size, double class_radius) {
  return kept_metres(p.radius < 0 ? class_radius : p.radius, voxel_metres(cell_size, p));
}

bool segment_keeps_clearance(const CostGrid& grid, Vec2 a, Vec2 b, double clearance) {
  const double s = grid.cell_size();
  const double c = std::max(0.0, clearance);
  const double w = grid.width() * s, h = grid.height() * s;
  // A hair less than asked: the mesh's vertices are floats.
  const double keep = c - 1e-6;
  if (c > 0 && std::min({a.x, b.x, a.y, b.y, w - a.x, w - b.x, h - a.y, h - b.y}) < keep) return false;
  const int x0 = int(std::floor((std::min(a.x, b.x) - c) / s)),
            x1 = int(std::floor((std::max(a.x, b.x) + c) / s));
  const int y0 = int(std::floor((std::min(a.y, b.y) - c) / s)),
            y1 = int(std::floor((std::max(a.y, b.y) + c) / s));
  for (int y = y0; y <= y1; ++y) {
    for (int x = x0; x <= x1; ++x) {
      if (grid.in_bounds(x, y) && grid.passable(grid.index(x, y))) continue;
      const Vec2 lo{x * s, y * s}, hi{(x + 1) * s, (y + 1) * s};
      if (c <= 0) {
        if (segment_crosses_open_box(a, b, lo, hi)) return false;
      } else if (segment_box_distance(a, b, lo, hi) < keep) {
        return false;
      }
    }
  }
  return true;
}

bool segment_stays_in_group(const CostGrid& grid, Vec2 a, Vec2 b, std::uint16_t key) {
  const double s = grid.cell_size();
  const double w = grid.width() * s, h = grid.height() * s;
  if (std::min({a.x, b.x, a.y, b.y}) < 0 || std::max(a.x, b.x) > w || std::max(a.y, b.y) > h) return false;
  const int x0 = int(std::floor(std::min(a.x, b.x) / s)), x1 = int(std::floor(std::max(a.x, b.x) / s));
  const int y0 = int(std::floor(std::min(a.y, b.y) / s)), y1 = int(std::floor(std::max(a.y, b.y) / s));
  for (int y = y0; y <= y1; ++y) {
    for (int x = x0; x <= x1; ++x) {
      if (!grid.in_bounds(x, y)) continue;  // a segment on the grid only touches its edge
      const std::uint32_t i = grid.index(x, y);
      if (grid.passable(i) && grid.move_key(i) == key) continue;
      if (segment_crosses_open_box(a, b, Vec2{x * s, y * s}, Vec2{(x + 1) * s, (y + 1) * s})) return false;
    }
  }
  return true;
}

std::string NavmeshParams::key() const {
  char buf[160];
  std::snprintf(buf, sizeof buf, "navmesh:%d:%.17g:%.17g:%d:%.17g:%llu", voxels_per_cell, max_edge, max_error,
                tile_cells, radius, static_cast<unsigned long long>(memory.bytes));
  return buf;
}

void Navmesh::MeshDeleter::operator()(dtNavMesh* mesh) const { dtFreeNavMesh(mesh); }

void CompactFieldFree::operator()(rcCompactHeightfield* field) const { rcFreeCompactHeightfield(field); }

// One tile's Detour data, owned until the mesh takes it.
struct Navmesh::TileData {
  struct Free {
    void operator()(unsigned char* p) const { dtFree(p); }
  };
  std::unique_ptr<unsigned char, Free> data;  // null: the tile has no ground
  int size = 0;
  int polygons = 0;
};

Navmesh::Navmesh(const PlanningWorld& world, std::size_t movement_class, const NavmeshParams& params)
    : class_(movement_class), params_(params) {
  Status s = build(world);
  if (!s.ok()) {
    error_ = s.error();
    mesh_.reset();
    tile_polygons_.clear();
    tile_first_.clear();
    tile_bytes_.clear();
    pair_of_cell_ = {};
    area_of_cell_ = {};
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

// What an edit invalidates. A tile's build reads only the area ids of its input cells
// (tile_input_cells(): the tile, Recast's border and the kept margin) and the table of
// areas (their flags). That table is numbered from the set of distinct (group,
// multiplier) pairs over all passable cells: a pair that appears or vanishes anywhere
// renumbers the areas after it (ids run by group, then multiplier), may change the
// smallest multiplier (every area's cost is divided by it), the groups' flag bits, and
// past 62 pairs which multipliers share an area (bins by rank). Every tile carries area
// ids and flags, so then every tile is built again. While the set holds, a changed cell
// whose area id is the same (a multiplier moving within its shared area) changes no tile;
// one whose area id changed rebuilds the tiles whose input cells hold it.
bool Navmesh::update(const PlanningWorld& world, const WorldChange& change) {
  tiles_built_ = 0;
  if (change.cells.empty()) return true;
  if (!mesh_ || change.rebuilt || class_ >= world.class_count()) return false;
  const CostGrid& grid = world.grid(class_);
  if (grid.width() != grid_w_ || grid.height() != grid_h_) return false;
  const CellRect c = change.cells.intersected(CellRect{0, 0, grid_w_, grid_h_});
  // The new pair of each changed cell, and the cells each pair would then hold.
  std::vector<std::uint32_t> next(std::size_t(c.width()) * std::size_t(c.height()));
  std::vector<std::size_t> cells(pairs_.size());
  for (std::size_t k = 0; k < pairs_.size(); ++k) cells[k] = pairs_[k].cells;
  bool same_pairs = true;
  for (int y = c.y0; y < c.y1 && same_pairs; ++y) {
    for (int x = c.x0; x < c.x1; ++x) {
      const std::uint32_t i = grid.index(x, y);
      const std::uint32_t k = pair_index(grid, i);
      if (k >= pairs_.size()) {
        same_pairs = false;  // a pair the table does not have
        break;
      }
      next[std::size_t(y - c.y0) * std::size_t(c.width()) + std::size_t(x - c.x0)] = k;
      --cells[pair_of_cell_[i]];
      ++cells[k];
    }
  }
  for (std::size_t k = 1; k < cells.size() && same_pairs; ++k) same_pairs = cells[k] > 0;
  if (!same_pairs) return build(world).ok();

  // Same pairs, so the same areas: the cells whose area changed, and their tiles.
  std::vector<std::uint8_t> dirty(next.size(), 0);
  bool any = false;
  for (int y = c.y0; y < c.y1; ++y) {
    for (int x = c.x0; x < c.x1; ++x) {
      const std::uint32_t i = grid.index(x, y);
      const std::size_t j = std::size_t(y - c.y0) * std::size_t(c.width()) + std::size_t(x - c.x0);
      pair_of_cell_[i] = next[j];
      const std::uint8_t a = pairs_[next[j]].area;
      if (a != area_of_cell_[i]) {
        area_of_cell_[i] = a;
        dirty[j] = 1;
        any = true;
      }
    }
  }
  for (std::size_t k = 0; k < pairs_.size(); ++k) pairs_[k].cells = cells[k];
  if (!any) return true;
  std::vector<std::uint8_t> rebuild(std::size_t(tiles_x_) * std::size_t(tiles_y_), 0);
  for (int ty = 0; ty < tiles_y_; ++ty) {
    for (int tx = 0; tx < tiles_x_; ++tx) {
      const CellRect r = tile_input_cells(tx, ty).intersected(c);
      bool hit = false;
      for (int y = r.y0; y < r.y1 && !hit; ++y) {
        for (int x = r.x0; x < r.x1 && !hit; ++x)
          hit = dirty[std::size_t(y - c.y0) * std::size_t(c.width()) + std::size_t(x - c.x0)] != 0;
      }
      rebuild[std::size_t(ty * tiles_x_ + tx)] = hit ? 1 : 0;
    }
  }
  // In row order, as the full build adds them.
  for (int ty = 0; ty < tiles_y_; ++ty) {
    for (int tx = 0; tx < tiles_x_; ++tx) {
      if (!rebuild[std::size_t(ty * tiles_x_ + tx)]) continue;
      Result<TileData> data = build_tile(tx, ty);
      if (!data.ok()) return false;
      if (!install_tile(tx, ty, std::move(*data)).ok()) return false;
      ++tiles_built_;
    }
  }
  // Links changed in the rebuilt tiles and in the tiles beside them.
  for (int ty = 0; ty < tiles_y_; ++ty) {
    for (int tx = 0; tx < tiles_x_; ++tx) {
      bool near_rebuilt = false;
      for (const std::array<int, 2>& d : kSelfAndSides) {
        const int nx = tx + d[0], ny = ty + d[1];
        if (nx >= 0 && ny >= 0 && nx < tiles_x_ && ny < tiles_y_ && rebuild[std::size_t(ny * tiles_x_ + nx)])
          near_rebuilt = true;
      }
      if (near_rebuilt) order_links(tx, ty);
    }
  }
  number_nodes();
  return true;
}

std::uint32_t Navmesh::pair_index(const CostGrid& grid, std::uint32_t cell) const {
  if (!grid.passable(cell)) return 0;
  const std::uint16_t key = grid.move_key(cell);
  const double m = grid.multiplier(cell);
  const auto it = std::lower_bound(pairs_.begin() + 1, pairs_.end(), std::pair{key, m},
                                   [](const CellPair& a, const std::pair<std::uint16_t, double>& b) {
                                     return std::pair{a.key, a.multiplier} < b;
                                   });
  if (it == pairs_.end() || it->key != key || it->multiplier != m) return std::uint32_t(pairs_.size());
  return std::uint32_t(it - pairs_.begin());
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
  pairs_.assign(1, CellPair{});
  std::uint16_t flag_bit = 0;
  min_multiplier_ = pairs.empty() ? 1 : std::numeric_limits<double>::infinity();
  for (const auto& [key, ms] : pairs) {
    const std::uint16_t flag = std::uint16_t(1u << flag_bit++);
    const std::size_t bins = exact_areas_ ? ms.size() : std::min(ms.size(), per_group);
    std::size_t rank = 0;
    std::size_t bin_of_area = std::size_t(-1);
    for (const auto& [m, count] : ms) {
      const std::size_t bin = rank * bins / ms.size();
      if (bin != bin_of_area) {
        areas_.push_back(NavmeshArea{m, key, flag});  // the bin's smallest multiplier
        bin_of_area = bin;
      }
      pairs_.push_back(CellPair{key, m, std::uint8_t(areas_.size() - 1), count});
      min_multiplier_ = std::min(min_multiplier_, m);
      ++rank;
    }
  }
  pair_of_cell_.assign(n, 0);
  area_of_cell_.assign(n, 0);
  for (std::uint32_t i = 0; i < n; ++i) {
    pair_of_cell_[i] = pair_index(grid, i);
    area_of_cell_[i] = pairs_[pair_of_cell_[i]].area;
  }
  return Ok{};
}

CellRect Navmesh::tile_input_cells(int tile_x, int tile_y) const {
  const int vpc = std::max(1, int(std::lround(cell_size_ / voxel_)));
  const int border = (border_voxels() + radius_voxels_ + vpc - 1) / vpc;
  const CellRect r{tile_x * tile_cells_ - border, tile_y * tile_cells_ - border,
                   (tile_x + 1) * tile_cells_ + border, (tile_y + 1) * tile_cells_ + border};
  return r.intersected(CellRect{0, 0, grid_w_, grid_h_});
}

Status Navmesh::build(const PlanningWorld& world) {
  const NavmeshParams& p = params_;
  const CostGrid& grid = world.grid(class_);
  const MovementClass& mc = world.scenario().classes[class_];
  mesh_.reset();
  tile_polygons_.clear();
  tile_first_.clear();
  tile_bytes_.clear();
  polygon_count_ = 0;
  tiles_built_ = 0;
  cell_size_ = grid.cell_size();
  grid_w_ = grid.width();
  grid_h_ = grid.height();
  vpc_ = std::clamp(p.voxels_per_cell, 1, 8);
  voxel_ = voxel_metres(cell_size_, p);
  const double radius = p.radius < 0 ? mc.radius : p.radius;
  radius_ = kept_metres(radius, voxel_);
  radius_voxels_ = int(std::ceil(radius_ / voxel_ - 1e-9));
  if (radius_voxels_ > 250) {
    return fail("radius " + std::to_string(radius) + " m is " + std::to_string(radius_voxels_) +
                " voxels, more than 250: lower voxels_per_cell");
  }
  tile_cells_ = std::max(1, p.tile_cells);
  tiles_x_ = (grid_w_ + tile_cells_ - 1) / tile_cells_;
  tiles_y_ = (grid_h_ + tile_cells_ - 1) / tile_cells_;
  const int tile_voxels = tile_cells_ * vpc_;
  const int border = border_voxels();
  const int field = tile_voxels + 2 * border;
  const std::uint64_t tiles = std::uint64_t(tiles_x_) * std::uint64_t(tiles_y_);
  // Before anything: one tile's build, the cells' pairs and areas (five bytes a cell) and
  // the tiles' slots.
  build_bytes_ = std::uint64_t(field) * std::uint64_t(field) * kBytesPerBuildVoxel;
  const std::uint64_t fixed = build_bytes_ + kBytesPerCell * grid.cell_count() + tiles * 256;
  if (Status s = p.memory.check(fixed, "the navmesh", kBudgetAdvice, "navmesh"); !s.ok()) return s;
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
  tile_bytes_.assign(std::size_t(np.maxTiles), 0);
  bytes_ = tiles * 256 + sizeof(*this) + kBytesPerCell * grid.cell_count();

  for (int ty = 0; ty < tiles_y_; ++ty) {
    for (int tx = 0; tx < tiles_x_; ++tx) {
      Result<TileData> data = build_tile(tx, ty);
      if (!data.ok()) return data.error();
      if (Status s = install_tile(tx, ty, std::move(*data)); !s.ok()) return s;
      ++tiles_built_;
    }
  }
  for (int ty = 0; ty < tiles_y_; ++ty) {
    for (int tx = 0; tx < tiles_x_; ++tx) order_links(tx, ty);
  }
  number_nodes();
  return Ok{};
}

Result<CompactFieldPtr> Navmesh::tile_ground(int tx, int ty) const {
  const int vpc = vpc_;
  const int tile_voxels = tile_cells_ * vpc;
  const int border = border_voxels();
  const int field = tile_voxels + 2 * border;
  const std::string tile_name = "tile (" + std::to_string(tx) + ", " + std::to_string(ty) + ")";
  const auto cell_of = [&](int v) { return v >= 0 ? v / vpc : -((-v + vpc - 1) / vpc); };
  const int gx0 = tx * tile_voxels - border, gz0 = ty * tile_voxels - border;
  const CellRect grid_rect{0, 0, grid_w_, grid_h_};
  const auto area = [&](int x, int y) {
    return area_of_cell_[std::size_t(y) * std::size_t(grid_w_) + std::size_t(x)];
  };

  // The field's cells with a blocked cell or the grid's edge within the margin (a square
  // of reach cells round them): only their voxels need the exact test.
  const CellRect cells =
      CellRect{cell_of(gx0), cell_of(gz0), cell_of(gx0 + field - 1) + 1, cell_of(gz0 + field - 1) + 1}
          .intersected(grid_rect);
  const int reach = int(std::ceil(radius_ / cell_size_ - 1e-9));
  std::vector<std::uint8_t> near(std::size_t(cells.width()) * std::size_t(cells.height()), 0);
  const auto near_at = [&](int x, int y) -> std::uint8_t& {
    return near[std::size_t(y - cells.y0) * std::size_t(cells.width()) + std::size_t(x - cells.x0)];
  };
  if (radius_ > 0 && !cells.empty()) {
    // Blocked cells counted over rectangles by a summed-area table of the cells the
    // squares reach.
    const CellRect s = cells.expanded(reach).intersected(grid_rect);
    const int sw = s.width() + 1;
    std::vector<std::uint32_t> sum(std::size_t(sw) * std::size_t(s.height() + 1), 0);
    const auto at = [&](int x, int y) -> std::uint32_t& {
      return sum[std::size_t(y - s.y0) * std::size_t(sw) + std::size_t(x - s.x0)];
    };
    for (int y = s.y0; y < s.y1; ++y) {
      for (int x = s.x0; x < s.x1; ++x)
        at(x + 1, y + 1) = at(x, y + 1) + at(x + 1, y) - at(x, y) + (area(x, y) == 0 ? 1u : 0u);
    }
    for (int y = cells.y0; y < cells.y1; ++y) {
      for (int x = cells.x0; x < cells.x1; ++x) {
        const int x0 = x - reach, y0 = y - reach, x1 = x + reach + 1, y1 = y + reach + 1;
        if (x0 < 0 || y0 < 0 || x1 > grid_w_ || y1 > grid_h_) {
          near_at(x, y) = 1;
          continue;
        }
        near_at(x, y) = at(x1, y1) + at(x0, y0) - at(x0, y1) - at(x1, y0) > 0 ? 1 : 0;
      }
    }
  }
  // The area of the voxel (gx, gz) (global voxel coordinates) if its square keeps the
  // margin, else 0. Distances in voxels are whole along each axis.
  const double margin = radius_ / voxel_;
  const double margin_sq = margin * margin - 1e-9;
  const int vw = grid_w_ * vpc, vh = grid_h_ * vpc;
  const auto voxel_area = [&](int gx, int gz) -> std::uint8_t {
    if (gx < 0 || gz < 0 || gx >= vw || gz >= vh) return 0;
    const int x = gx / vpc, z = gz / vpc;
    const std::uint8_t a = area(x, z);
    if (a == 0 || !near_at(x, z)) return a;
    if (double(std::min({gx, gz, vw - 1 - gx, vh - 1 - gz})) < margin - 1e-9) return 0;
    const int cx0 = std::max(0, int(std::floor((gx - margin) / vpc))),
              cx1 = std::min(grid_w_ - 1, int(std::floor((gx + 1 + margin) / vpc)));
    const int cz0 = std::max(0, int(std::floor((gz - margin) / vpc))),
              cz1 = std::min(grid_h_ - 1, int(std::floor((gz + 1 + margin) / vpc)));
    for (int cz = cz0; cz <= cz1; ++cz) {
      for (int cx = cx0; cx <= cx1; ++cx) {
        if (area(cx, cz) != 0) continue;
        const int dx = std::max({0, cx * vpc - (gx + 1), gx - (cx + 1) * vpc});
        const int dz = std::max({0, cz * vpc - (gz + 1), gz - (cz + 1) * vpc});
        if (double(dx * dx + dz * dz) < margin_sq) return 0;
      }
    }
    return a;
  };

  BuildContext ctx;
  const float cs = float(voxel_);
  const double x0 = double(gx0) * voxel_;
  const double z0 = double(gz0) * voxel_;
  const float bmin[3] = {float(x0), -1.0f, float(z0)};
  const float bmax[3] = {float(x0 + field * voxel_), 1.0f, float(z0 + field * voxel_)};
  std::unique_ptr<rcHeightfield, HeightfieldDeleter> hf(rcAllocHeightfield());
  if (!hf || !rcCreateHeightfield(&ctx, *hf, field, field, bmin, bmax, cs, kVoxelHeight)) {
    return fail("Recast could not make a heightfield of " + std::to_string(field) + " voxels a side").error();
  }
  // Ground: one span per kept voxel, the flat ground at height 0 snapped to the height
  // grid as Recast's rasteriser snaps a flat triangle there (the floor of its height
  // above bmin, one step high). Added column by column, with no triangle to clip: each
  // voxel is its own column wherever the tile lies.
  const auto ground_min = static_cast<unsigned short>(std::floor((0.0f - bmin[1]) / kVoxelHeight));
  const auto ground_max = static_cast<unsigned short>(ground_min + 1);
  bool any_ground = false;
  for (int z = gz0; z < gz0 + field; ++z) {
    for (int x = gx0; x < gx0 + field; ++x) {
      const std::uint8_t a = voxel_area(x, z);
      if (a == 0) continue;
      if (!rcAddSpan(&ctx, *hf, x - gx0, z - gz0, ground_min, ground_max, a, 1)) {
        return fail("Recast could not add the ground of " + tile_name + ": " + ctx.last_error).error();
      }
      any_ground = true;
    }
  }
  if (!any_ground) return CompactFieldPtr{};

  CompactFieldPtr chf(rcAllocCompactHeightfield());
  if (!chf || !rcBuildCompactHeightfield(&ctx, 2, 1, *hf, *chf)) {
    return fail("Recast could not compact " + tile_name).error();
  }
  return chf;
}

Result<Navmesh::TileData> Navmesh::build_tile(int tx, int ty) const {
  const int vpc = vpc_;
  const int border = border_voxels();
  const float cs = float(voxel_);
  const std::string tile_name = "tile (" + std::to_string(tx) + ", " + std::to_string(ty) + ")";
  Result<CompactFieldPtr> ground = tile_ground(tx, ty);
  if (!ground.ok()) return ground.error();
  if (!*ground) return TileData{};
  CompactFieldPtr chf = std::move(*ground);
  BuildContext ctx;
  if (!rcBuildDistanceField(&ctx, *chf)) {
    return fail("Recast could not build the distance field of " + tile_name + ": " + ctx.last_error).error();
  }
  // Regions, contours and polygons: watershed regions first (RecastDemo's default, the
  // roundest polygons). Watershed regions may hold walls as holes, which Recast merges
  // into the region's outline; where walls are a voxel or two wide (every wall at
  // voxels_per_cell 1, now and then at more) the merged outline touches itself, and Recast
  // drops the hole or its ear clipping fails and keeps overlapping triangles over the walls. Then the tile is
  // built again from monotone regions (rcBuildRegionsMonotone: row-swept, never a hole),
  // which Recast triangulates cleanly. Watershed regions can also leave two polygons of
  // one piece of ground unlinked, with nothing logged (a path across the tile is then
  // refused): the tile is built again from monotone regions too when its polygons fall
  // into more pieces than its ground. The sides two regions share are traced again along
  // the voxels where they cut through a wall (follow_cut_sides), and the tile is built from
  // monotone regions where that fails. The choice depends on the tile's input only, so an
  // update builds the same tile as a full build.
  const int max_edge = int(std::lround(params_.max_edge * vpc));
  std::unique_ptr<rcPolyMesh, PolyMeshDeleter> pmesh, split;
  for (const bool monotone : {false, true}) {
    ctx.bad_polygons.clear();
    const bool regions = monotone ? rcBuildRegionsMonotone(&ctx, *chf, border, 0, 20)
                                  : rcBuildRegions(&ctx, *chf, border, 0, 20);
    if (!regions) {
      return fail("Recast could not build the regions of " + tile_name + ": " + ctx.last_error).error();
    }
    std::unique_ptr<rcContourSet, ContourDeleter> cset(rcAllocContourSet());
    if (!cset || !rcBuildContours(&ctx, *chf, float(params_.max_error * cell_size_), max_edge, *cset,
                                  RC_CONTOUR_TESS_WALL_EDGES)) {
      return fail("Recast could not trace the contours of " + tile_name + ": " + ctx.last_error).error();
    }
    if (cset->nconts == 0) return TileData{};
    const bool kept_to_ground = follow_cut_sides(*cset, *chf);
    pmesh.reset(rcAllocPolyMesh());
    if (!pmesh || !rcBuildPolyMesh(&ctx, *cset, DT_VERTS_PER_POLYGON, *pmesh)) {
      return fail("Recast could not build the polygons of " + tile_name + ": " + ctx.last_error +
                  "; lower tile_cells")
          .error();
    }
    if (!ctx.bad_polygons.empty()) continue;
    if (monotone || (kept_to_ground && polygon_pieces(*pmesh) <= ground_pieces(*chf, border))) break;
    split.swap(pmesh);  // kept should the monotone polygons be wrong
  }
  if (!ctx.bad_polygons.empty() && split) {
    pmesh.swap(split);  // split ground is better than wrong polygons
    ctx.bad_polygons.clear();
  }
  if (!ctx.bad_polygons.empty()) {
    return fail("Recast's polygons of " + tile_name + " are wrong (" + ctx.bad_polygons +
                "); change voxels_per_cell")
        .error();
  }
  if (pmesh->npolys == 0) return TileData{};
  if (std::uint32_t(pmesh->npolys) > polys_per_tile_ || pmesh->nverts >= 0xfffe) {
    return fail(tile_name + " has " + std::to_string(pmesh->npolys) + " polygons and " +
                std::to_string(pmesh->nverts) + " vertices, more than a tile may hold (" +
                std::to_string(polys_per_tile_) + ", 65,534): lower tile_cells")
        .error();
  }
  // No Recast detail mesh: the ground is flat, and Detour makes the tile's detail mesh
  // itself, a triangle fan per polygon (what the structure view draws).
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
  cp.walkableRadius = float(radius_);
  cp.walkableClimb = kVoxelHeight;
  cp.cs = cs;
  cp.ch = kVoxelHeight;
  cp.buildBvTree = true;
  unsigned char* data = nullptr;
  int size = 0;
  if (!dtCreateNavMeshData(&cp, &data, &size))
    return fail("Detour could not make the data of " + tile_name).error();
  TileData out;
  out.data.reset(data);
  out.size = size;
  out.polygons = pmesh->npolys;
  return out;
}

Status Navmesh::install_tile(int tx, int ty, TileData data) {
  const std::uint32_t it = std::uint32_t(ty * tiles_x_ + tx);
  dtNavMesh& m = *mesh_;
  const dtNavMesh& cm = m;
  if (const dtMeshTile* old = cm.getTileAt(tx, ty, 0); old != nullptr) {
    if (dtStatusFailed(m.removeTile(cm.getTileRef(old), nullptr, nullptr)))
      return fail("Detour could not remove tile (" + std::to_string(tx) + ", " + std::to_string(ty) + ")");
  }
  bytes_ -= tile_bytes_[it];
  tile_bytes_[it] = 0;
  tile_polygons_[it] = TilePolygons{};
  if (!data.data) return Ok{};
  tile_bytes_[it] = std::size_t(data.size) + std::size_t(data.polygons) * (kBytesPerPolygon / 2);
  bytes_ += tile_bytes_[it];
  if (Status s = params_.memory.check(bytes_ + build_bytes_, "the navmesh", kBudgetAdvice, "navmesh");
      !s.ok())
    return s;
  // The tile's fixed index, with the salt Detour left there (a removed tile's polygon
  // references stay invalid).
  const dtTileRef last = m.encodePolyId(cm.getTile(int(it))->salt, it, 0);
  dtTileRef ref = 0;
  if (dtStatusFailed(m.addTile(data.data.get(), data.size, DT_TILE_FREE_DATA, last, &ref)))
    return fail("Detour could not add tile (" + std::to_string(tx) + ", " + std::to_string(ty) + ")");
  data.data.release();  // the mesh frees it
  // Our copy of the polygons, in world (x, y).
  const dtMeshTile* tile = cm.getTileAt(tx, ty, 0);
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
  return Ok{};
}

void Navmesh::order_links(int tx, int ty) const {
  const dtMeshTile* tile = static_cast<const dtNavMesh&>(*mesh_).getTileAt(tx, ty, 0);
  if (!tile || !tile->header) return;
  // A full build adds tiles in row order, and Detour puts each new link at the head of
  // its polygon's list: a polygon's links then run to the tile below (side 2), to the
  // right (0), above (6), to the left (4), then its own tile's (side 0xff), each group in
  // the order Detour made it. Sorting by that rank, stably, gives the same lists whatever
  // order the tiles came in.
  const auto rank = [](unsigned char side) {
    switch (side) {
      case 2: return 0;
      case 0: return 1;
      case 6: return 2;
      case 4: return 3;
      default: return 4;
    }
  };
  std::vector<unsigned int> links;
  for (int i = 0; i < tile->header->polyCount; ++i) {
    dtPoly& poly = tile->polys[i];  // the tile's data is the mesh's, not const
    links.clear();
    for (unsigned int l = poly.firstLink; l != DT_NULL_LINK; l = tile->links[l].next) links.push_back(l);
    std::stable_sort(links.begin(), links.end(), [&](unsigned int a, unsigned int b) {
      return rank(tile->links[a].side) < rank(tile->links[b].side);
    });
    poly.firstLink = DT_NULL_LINK;
    for (auto l = links.rbegin(); l != links.rend(); ++l) {
      tile->links[*l].next = poly.firstLink;
      poly.firstLink = *l;
    }
  }
}

void Navmesh::number_nodes() {
  // Dense node ids: each tile's polygons after the previous tile's.
  tile_first_.assign(1, 0);
  for (const TilePolygons& tp : tile_polygons_) {
    const std::size_t n = tp.offset.empty() ? 0 : tp.offset.size() - 1;
    tile_first_.push_back(tile_first_.back() + NodeId(n));
  }
  polygon_count_ = std::size_t(tile_first_.back());
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

std::vector<std::array<Vec2, 3>> Navmesh::detail_triangles(NodeId node) const {
  std::vector<std::array<Vec2, 3>> out;
  std::uint32_t it = 0, ip = 0;
  if (!locate(node, it, ip)) return out;
  const dtMeshTile* tile = static_cast<const dtNavMesh&>(*mesh_).getTile(int(it));
  if (!tile || !tile->header || !tile->detailMeshes || int(ip) >= tile->header->detailMeshCount) return out;
  const dtPoly& poly = tile->polys[ip];
  const dtPolyDetail& pd = tile->detailMeshes[ip];
  for (unsigned t = 0; t < pd.triCount; ++t) {
    const unsigned char* tri = &tile->detailTris[(pd.triBase + t) * 4];
    std::array<Vec2, 3> corners{};
    for (int k = 0; k < 3; ++k) {
      // Indices below the polygon's vertex count name its vertices; the rest, the
      // detail mesh's own vertices.
      const float* v = tri[k] < poly.vertCount
                           ? &tile->verts[poly.verts[tri[k]] * 3]
                           : &tile->detailVerts[(pd.vertBase + tri[k] - poly.vertCount) * 3];
      corners[std::size_t(k)] = Vec2{double(v[0]), double(v[2])};
    }
    out.push_back(corners);
  }
  return out;
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
  NodeId best = kNoNode, best_flat = kNoNode;
  double flat_distance = std::numeric_limits<double>::infinity();
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
        if (poly.empty() || (pos && neg)) continue;
        // Recast leaves a few polygons of no area (collinear vertices, along other
        // polygons' edges, sometimes over each other): a point on one names it, as no
        // other point can; of several, the one whose vertex mean is nearest.
        if (std::abs(polygon_area(poly)) < 1e-9) {
          Box2 box = Box2::of(poly.front());
          for (const Vec2& v : poly) box = box.united(Box2::of(v));
          const Vec2 c = centroid(id);
          const double d = std::hypot(c.x - point.x, c.y - point.y);
          if (box.expanded(1e-9).contains(point) &&
              (d < flat_distance || (d == flat_distance && id < best_flat))) {
            best_flat = id;
            flat_distance = d;
          }
        } else if (id < best) {
          best = id;
        }
      }
    }
  }
  return best_flat != kNoNode ? best_flat : best;
}

}  // namespace pathscope
