#pragma once

// A movement class's navigation mesh, built by Recast from the world's cost grid and
// kept as a Detour dtNavMesh: one derived structure per class and build parameters.

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "planner/core/cell_rect.hpp"
#include "planner/core/memory_budget.hpp"
#include "planner/core/result.hpp"
#include "planner/core/search.hpp"
#include "planner/world/planning_world.hpp"

class dtNavMesh;
struct rcCompactHeightfield;

namespace pathscope {

/// How Recast builds the mesh. Lengths are in the scenario's cells, so the defaults suit
/// any cell size.
struct NavmeshParams {
  /// Recast voxels per scenario cell along each axis: Recast's cell size is the
  /// scenario's cell_size / voxels_per_cell (1..8). Odd values centre a voxel on each
  /// cell's centre lines, so a passage one cell wide keeps a voxel for a radius of half a
  /// cell.
  int voxels_per_cell = 3;
  /// Longest polygon edge along walls, in scenario cells (0: no limit).
  double max_edge = 12;
  /// How far simplified walls may stray from the voxel outline, in scenario cells. 0 keeps
  /// every corner, so the mesh never covers a blocked cell.
  double max_error = 0;
  /// Side of a square tile, in scenario cells (each tile is built and held apart).
  int tile_cells = 64;
  /// Metres to keep from walls, less half a voxel (the mesh's tolerance); < 0: the
  /// movement class's radius.
  double radius = -1;
  /// The most memory the mesh may take while built and held (planner parameter memory_mib).
  MemoryBudget memory{};

  /// A text naming every field, the key of the world's cached structure.
  std::string key() const;
};

/// Metres a navmesh for `p` keeps from walls and the world's edge on cells of `cell_size`
/// metres, for a class of radius `class_radius`: p.radius (or the class's) less half a
/// voxel, at least 0, as Navmesh::radius() reports it. Every point of the mesh keeps it
/// exactly (its voxels are kept by their squares' distance to blocked cells).
double kept_radius(const NavmeshParams& p, double cell_size, double class_radius);

/// Whether the segment a-b keeps `clearance` metres from every cell the grid blocks and
/// from the grid's edge (exact distances; clearance 0: it crosses no blocked cell's
/// inside and stays on the grid).
bool segment_keeps_clearance(const CostGrid& grid, Vec2 a, Vec2 b, double clearance);

/// Whether the segment a-b crosses only the insides of passable cells of move key `key`
/// (its terrain group) and stays on the grid: a leg a unit of that group may take. Touching
/// another group's cell along a side or at a corner is allowed.
bool segment_stays_in_group(const CostGrid& grid, Vec2 a, Vec2 b, std::uint16_t key);

/// Frees a Recast compact heightfield (rcFreeCompactHeightfield).
struct CompactFieldFree {
  void operator()(rcCompactHeightfield* field) const;
};
/// A Recast compact heightfield, owned.
using CompactFieldPtr = std::unique_ptr<rcCompactHeightfield, CompactFieldFree>;

/// One Recast area: polygons of one terrain group and one cost.
struct NavmeshArea {
  double multiplier = 1;   ///< The cost grid's multiplier (the smallest of its cells).
  std::uint16_t key = 0;   ///< The cost grid's move key (terrain group), >= 1.
  std::uint16_t flag = 0;  ///< Detour polygon flag of its group (one bit).
};

/// The navigation mesh of one movement class. Tile (x, y) has Detour's tile index
/// y * tiles_x() + x, built or not. Node ids name polygons densely, in [0, polygon_count()):
/// the polygons of tile index 0 first, then of tile 1, ...
class Navmesh final : public DerivedStructure {
 public:
  /// Builds the mesh of `movement_class` over `world`. Failures (budget, Recast limits)
  /// are kept in error(), never thrown.
  Navmesh(const PlanningWorld& world, std::size_t movement_class, const NavmeshParams& params);
  ~Navmesh() override;
  Navmesh(const Navmesh&) = delete;
  Navmesh& operator=(const Navmesh&) = delete;

  /// The mesh of a class for these parameters, cached by the world.
  static const Navmesh& of(const PlanningWorld& world, std::size_t movement_class,
                           const NavmeshParams& params);

  bool ok() const { return mesh_ != nullptr; }
  /// Why the build failed (ok() false).
  const Error& error() const { return error_; }
  /// The Detour mesh (ok() only).
  const dtNavMesh& mesh() const { return *mesh_; }

  /// The build parameters (as given; voxels_per_cell as clamped in voxels_per_cell()).
  const NavmeshParams& params() const { return params_; }
  /// Recast voxels per scenario cell along each axis (params().voxels_per_cell, 1..8).
  int voxels_per_cell() const { return vpc_; }
  /// The scenario's cell size, metres.
  double cell_size() const { return cell_size_; }
  /// Recast's cell size, metres.
  double voxel_size() const { return voxel_; }
  /// Metres every point of the mesh keeps from blocked cells and the world's edge
  /// (kept_radius()).
  double radius() const { return radius_; }
  /// Voxels the kept margin reaches: radius() / voxel_size(), rounded up.
  int radius_voxels() const { return radius_voxels_; }
  /// Extra voxels round each tile in its heightfield (Recast's border size).
  int border_voxels() const { return radius_voxels_ + 3; }
  /// Scenario cells per tile side.
  int tile_cells() const { return tile_cells_; }
  /// Tiles along x and y.
  int tiles_x() const { return tiles_x_; }
  int tiles_y() const { return tiles_y_; }
  /// The scenario cells whose content a tile's build reads (its square grown by its
  /// border and the kept margin), clipped to the grid.
  CellRect tile_input_cells(int tile_x, int tile_y) const;

  /// Recast areas, indexed by area id (0 unused: no walkable area).
  const std::vector<NavmeshArea>& areas() const { return areas_; }
  /// Every area has a multiplier of its own (false when more than 62 pairs of cost and
  /// group had to share areas: each area then costs the smallest multiplier of its cells).
  bool exact_areas() const { return exact_areas_; }
  /// Smallest multiplier of any area; Detour's area costs are multipliers divided by it,
  /// so that its straight-line heuristic stays a lower bound.
  double min_multiplier() const { return min_multiplier_; }

  /// Polygons in the mesh.
  std::size_t polygon_count() const { return polygon_count_; }
  /// Node ids range: polygon_count().
  std::size_t node_count() const { return polygon_count_; }
  /// Node id of a polygon reference (kNoNode for 0 or an unknown one).
  NodeId node_of(std::uint32_t ref) const;
  /// Polygon reference of a node id (0 when it names no polygon).
  std::uint32_t ref_of(NodeId node) const;
  /// A polygon's vertices in world coordinates (empty when it names none); valid while
  /// the mesh lives.
  std::span<const Vec2> polygon(NodeId node) const;
  /// A polygon's detail triangles, as Detour keeps them with the tile (with no Recast
  /// detail mesh on flat ground, a fan from its first vertex): they cover the polygon.
  std::vector<std::array<Vec2, 3>> detail_triangles(NodeId node) const;
  /// The mean of a polygon's vertices.
  Vec2 centroid(NodeId node) const;
  /// The polygon holding a world point, the smallest node id if on an edge; kNoNode if none.
  NodeId polygon_at(Vec2 point) const;

  /// The ground tile (tx, ty) is built from: a Recast compact heightfield over the tile's
  /// field (the tile grown by border_voxels() a side, origin at voxel (tx, ty) * tile
  /// voxels - border, heights from -1 m in 0.5 m steps), one span at height 0 for each voxel
  /// of a passable cell that keeps radius(), carrying the cell's area id. Null when the field
  /// has no ground. Reads the areas the mesh was last built or updated from (ok() only).
  Result<CompactFieldPtr> tile_ground(int tx, int ty) const;

  /// Tiles Recast built in the last build or update(): every tile for a full build, the
  /// tiles whose input cells changed for an update, 0 when no cell of the class changed.
  int tiles_built() const { return tiles_built_; }

  /// Bytes held (tiles, the polygon copies and the per-cell inputs).
  std::size_t memory_bytes() const override { return bytes_; }
  /// Rebuilds the tiles whose input cells (tile_input_cells()) changed area, or every tile
  /// when the set of (multiplier, group) pairs of the class's cells changed (see the .cpp).
  /// The result equals a mesh built from the world now. Returns false (dropped, built again
  /// at its next use) when a tile's build fails.
  bool update(const PlanningWorld& world, const WorldChange& change) override;

 private:
  struct TilePolygons {
    std::vector<Vec2> vertices;         // every polygon's, in order
    std::vector<std::uint32_t> offset;  // per polygon, plus one past the end
  };
  struct MeshDeleter {
    void operator()(dtNavMesh* mesh) const;
  };
  // One distinct (group, multiplier) pair of the passable cells.
  struct CellPair {
    std::uint16_t key = 0;  // move key (group)
    double multiplier = 0;  // the cost grid's multiplier
    std::uint8_t area = 0;  // its Recast area
    std::size_t cells = 0;  // passable cells holding it
  };
  struct TileData;  // one tile's Detour data (navmesh.cpp)

  // Builds every tile from `world` (the class and parameters kept), replacing all state.
  Status build(const PlanningWorld& world);
  // The pairs of the grid's passable cells, their areas, and each cell's pair and area.
  Status assign_areas(const CostGrid& grid);
  // The pair of a cell in pairs_ (0: blocked), or pairs_.size() when the pair is not there.
  std::uint32_t pair_index(const CostGrid& grid, std::uint32_t cell) const;
  // Recast's build of tile (tx, ty) from area_of_cell_: heightfield, compact field,
  // regions, contours, polygons, then dtCreateNavMeshData (no data: no ground).
  Result<TileData> build_tile(int tx, int ty) const;
  // Removes tile (tx, ty) from the mesh (if there) and adds `data` at its fixed index,
  // copying its polygons; accounts its bytes against the budget.
  Status install_tile(int tx, int ty, TileData data);
  // Puts each polygon's links of tile (tx, ty) in the order a full build in row order
  // leaves them, whatever order the tiles were added in (Detour's A* reads links in
  // order, so ties depend on it).
  void order_links(int tx, int ty) const;
  // Node ids again: each tile's first polygon's id and polygon_count_.
  void number_nodes();

  std::size_t class_ = 0;
  NavmeshParams params_;
  int vpc_ = 1;                    // voxels per cell
  std::uint64_t build_bytes_ = 0;  // one tile's build, for the budget
  int tiles_built_ = 0;

  std::unique_ptr<dtNavMesh, MeshDeleter> mesh_;
  Error error_;
  double cell_size_ = 1;
  double voxel_ = 0.5;
  double radius_ = 0;
  int radius_voxels_ = 0;
  int tile_cells_ = 64;
  int tiles_x_ = 0, tiles_y_ = 0;
  int grid_w_ = 0, grid_h_ = 0;
  std::vector<NavmeshArea> areas_;
  std::vector<CellPair> pairs_;              // [0] blocked, then sorted by (key, multiplier)
  std::vector<std::uint32_t> pair_of_cell_;  // per cell: index into pairs_ (0 blocked)
  std::vector<std::uint8_t> area_of_cell_;   // per cell: its pair's area (0 blocked)
  bool exact_areas_ = true;
  double min_multiplier_ = 1;
  std::size_t polygon_count_ = 0;
  std::uint32_t polys_per_tile_ = 1;
  std::vector<TilePolygons> tile_polygons_;  // per tile index of the Detour mesh
  std::vector<NodeId> tile_first_;           // per tile index: its first polygon's node id, plus the end
  std::vector<std::size_t> tile_bytes_;      // per tile index: bytes of its data and copies
  /// The tile index and polygon index of a node id (false when it names none).
  bool locate(NodeId node, std::uint32_t& tile, std::uint32_t& poly) const;
  std::size_t bytes_ = 0;
};

}  // namespace pathscope
