#pragma once

// A scenario made ready for planning: its raster and, per movement class, the cost grid
// and the connected regions. Built once, then brought up to date edit by edit: update()
// re-rasterises only the cells an edit can change. Planners borrow from it.
//
// A cost overlay (set_cost_overlay) adds planning cost to cells without changing the
// scenario: every cost grid multiplies it in, and it survives edits (update() puts it
// back on the cells it re-rasterises). The simulation feeds collision density through it.
//
// Memory per cell: 2 bytes of raster (a surface id: terrain, road, bridge), plus 1 byte
// of legal moves for each class with a cost grid; region labels are kept per run of a
// row (regions.hpp), a few bytes per row on open maps. Classes nobody plans for cost
// nothing.

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "planner/core/result.hpp"
#include "planner/core/world_change.hpp"
#include "planner/scenario/scenario.hpp"
#include "planner/world/cost_grid.hpp"
#include "planner/world/rasterize.hpp"
#include "planner/world/regions.hpp"

namespace pathscope {

class PlanningWorld;

/// A structure a planner family derives from the world (a quadtree, a visibility graph,
/// a threat field), cached by the world per family and movement class and handed every
/// change so that it can update itself incrementally.
class DerivedStructure {
 public:
  virtual ~DerivedStructure() = default;
  /// Brings the structure up to date with `world` after `change` (never a rebuilt one:
  /// then every structure is dropped); world.revision() is already the revision after
  /// the change. Returns false to be dropped and made again at its next use instead.
  virtual bool update(const PlanningWorld& world, const WorldChange& change) = 0;
  /// Bytes held, for memory reports.
  virtual std::size_t memory_bytes() const = 0;
};

/// Everything planners need about one scenario. The raster is built at once; a class's
/// cost grid and its regions are each built on first use (an editor that re-plans one
/// query after each edit pays for that class only). Not thread-safe; planners keep const references,
/// so it must outlive them, and references stay valid for its lifetime.
class PlanningWorld {
 public:
  /// Rasterises the scenario. The scenario must be valid; a valid scenario always fits the
  /// raster's surface table (rasterize.hpp), so this cannot fail.
  explicit PlanningWorld(Scenario scenario);
  /// Not copied or moved: cost grids point into the raster, planners into the world.
  PlanningWorld(const PlanningWorld&) = delete;
  PlanningWorld& operator=(const PlanningWorld&) = delete;

  /// Takes the next version of the scenario (valid) and updates what depends on it:
  /// the raster and the built cost grids in the changed cells only, the regions of built
  /// classes at their next use. The result equals a world built from `next` from scratch.
  /// Unless the result says `rebuilt`, references handed out before stay valid and
  /// planners may keep them (they must read grid values again at their next start()).
  /// A Limit error ("cost overlay") when the cost overlay on `next`'s cells needs more
  /// surfaces than a raster holds (rasterize.hpp): then nothing changed, the world still
  /// holds the scenario it held. Without an overlay it always succeeds.
  Result<WorldChange> update(Scenario next);

  /// Sets the cost overlay: extra planning cost per cell, as factors (finite, >= 1;
  /// row-major over the raster's cells), or empty for none. Every class's multiplier on a
  /// passable cell is multiplied by its cell's factor, so every planner that reads cost
  /// grids steers clear of those cells; CostGrid::ground_multiplier() (speed) ignores it.
  /// Only the cells whose factor changed are updated, as update() updates edited cells;
  /// returns what changed. The overlay is kept across update() (cleared only when a
  /// rebuild changes the number of cells). A Limit error ("cost overlay") when the
  /// factors need more surfaces than a raster holds: then nothing changed.
  Result<WorldChange> set_cost_overlay(std::vector<float> factors);
  /// The overlay's factors (empty when none).
  const std::vector<float>& cost_overlay() const { return overlay_; }

  /// Increases with every update() that changed something a planner reads.
  std::uint64_t revision() const { return revision_; }

  const Scenario& scenario() const { return scenario_; }
  const TerrainRaster& raster() const { return raster_; }
  std::size_t class_count() const { return classes_.size(); }
  /// The cost grid of a class (index into Scenario::classes; asserted in range).
  const CostGrid& grid(std::size_t movement_class) const { return data(movement_class).grid; }
  /// The connected regions of a class.
  const RegionMap& regions(std::size_t movement_class) const;

  /// The structure a family keeps under `key` for a movement class, made by `make` on
  /// first use and updated by every later update(). References stay valid until the
  /// next update(); planners fetch it again at each start().
  template <class T>
  const T& derived(std::string_view key, std::size_t movement_class,
                   const std::function<std::unique_ptr<T>(const PlanningWorld&, std::size_t)>& make) const {
    auto it = derived_.find(DerivedKey{std::string(key), movement_class});
    if (it == derived_.end()) {
      it = derived_.emplace(DerivedKey{std::string(key), movement_class}, make(*this, movement_class)).first;
    }
    return static_cast<const T&>(*it->second);
  }
  /// Number of derived structures cached now.
  std::size_t derived_count() const { return derived_.size(); }

 private:
  struct ClassData {
    CostGrid grid;
    RegionMap regions;
    bool regions_stale = false;  // labelled again at the next regions() call
  };
  const ClassData& data(std::size_t movement_class) const;
  // Hands `change` (cells and area set) to the derived structures; counts a revision.
  void changed(WorldChange& change);

  Scenario scenario_;
  TerrainRaster raster_;
  mutable std::vector<std::unique_ptr<ClassData>> classes_;                  // built on first use
  using DerivedKey = std::pair<std::string, std::size_t>;                    // family key, movement class
  mutable std::map<DerivedKey, std::unique_ptr<DerivedStructure>> derived_;  // made on first use
  std::vector<float> overlay_;                                               // per cell, >= 1; empty: none
  std::uint64_t revision_ = 0;
};

}  // namespace pathscope
