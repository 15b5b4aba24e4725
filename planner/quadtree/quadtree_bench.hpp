#pragma once

// What `pathscope bench quadtree` measures of the quadtree family, as plain figures, so
// that a benchmark reads them without the family's internals: per movement class, the
// tree's size and what building it costs (bottom-up, and seed 000's region insertion);
// on a whole map, the incremental update of tree, links and regions against a full
// rebuild. The planner library reads no clock: the caller passes one, and the times it
// gives are figures only, never part of a result.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

namespace pathscope {

class PlanningWorld;
struct Scenario;

/// A monotonic clock in nanoseconds, supplied by the caller; read for timings only.
using BenchClock = std::function<std::uint64_t()>;

/// One movement class's quadtree: its size, and the time to build it.
struct QuadtreeBuildFigures {
  std::size_t leaves = 0;             ///< Leaves of the class's tree.
  std::size_t cells = 0;              ///< Cells of its cost grid (uniform cells at the same resolution).
  std::size_t links = 0;              ///< Directed neighbour links.
  std::size_t one_way_links = 0;      ///< Of which links out of impassable leaves.
  std::uint32_t regions = 0;          ///< Connected regions.
  double tree_ms = 0;                 ///< Bottom-up build of the tree, in the fastest run of tree + links.
  double links_ms = 0;                ///< Links and regions of that tree, in the same run.
  double insertion_ms = 0;            ///< Seed 000's top-down build by region insertion, fastest run.
  std::size_t insertion_regions = 0;  ///< Regions it inserted (tile runs count as one).
  std::size_t insertion_splits = 0;   ///< Cells it split in four.
  std::size_t insertion_cell_decisions = 0;  ///< Grid cells the coverage rule decided one by one.
  std::size_t insertion_merges = 0;          ///< Cells whose four equal quarters it merged.
  bool insertion_same = false;               ///< Region insertion gave the bottom-up build's leaves.
};

/// Counts `movement_class`'s tree and links in `world` (the world's own, built at first
/// use), and times building them from the class's cost grid, and by region insertion from
/// the world's scenario: the fastest of `repeat` (>= 1) runs each.
QuadtreeBuildFigures measure_quadtree_build(const PlanningWorld& world, std::size_t movement_class,
                                            int repeat, const BenchClock& clock);

/// The incremental update of movement class 0's tree, links and regions against a full
/// rebuild from the same grid, per world update. Times are medians over `updates`.
struct QuadtreeUpdateFigures {
  bool timed = false;           ///< False: no terrain is impassable for class 0; nothing below is set.
  int width = 0;                ///< Map width, cells.
  int height = 0;               ///< Map height, cells.
  std::size_t leaves = 0;       ///< Leaves of the updated tree after the last update.
  std::string wall_terrain;     ///< The circle's terrain: the first one impassable for class 0.
  double covered_pct = 0;       ///< Share of the map's area the circle covers, percent.
  int updates = 0;              ///< World updates timed: the circle added, then removed, at each place.
  double cells_per_update = 0;  ///< Cells re-read per update (WorldChange::cells, mean).
  double incremental_ms = 0;    ///< Tree and links (regions included) updated in place.
  double tree_ms = 0;           ///< Of which the tree's update.
  double links_ms = 0;          ///< Of which the links' update, regions included.
  double regions_ms = 0;        ///< Of which the regions' update.
  double rebuild_ms = 0;        ///< Tree and links built from scratch.
  double world_ms = 0;          ///< PlanningWorld::update itself.
  bool equal = true;            ///< After every update: leaves, links and regions equal the rebuilt ones.
};

/// On `scenario` (valid), adds a circle of impassable terrain covering about 1% of the
/// map at `places` (>= 1) random places (from the scenario's seed) and removes it after
/// each; after every world update, times the update of a tree and links kept up to date
/// against building them again, and compares the two (leaves matched by corner, links by
/// their targets' corners, regions as a partition).
QuadtreeUpdateFigures time_quadtree_update(const Scenario& scenario, int places, const BenchClock& clock);

}  // namespace pathscope
