#pragma once

// What one update of the planning world changed, in terms every planner family can use:
// a world-space box, the grid cells whose terrain or moves changed, and the items added,
// removed or changed. Planners answer from it whether their last result still holds;
// derived structures (quadtrees, visibility graphs, threat fields) update from it.

#include <vector>

#include "planner/core/cell_rect.hpp"
#include "planner/core/types.hpp"

namespace pathscope {

/// The difference between two versions of a planning world.
struct WorldChange {
  /// The grid size, the terrain table or the movement classes changed: the world was
  /// built again, and planners borrowing it must be created again.
  bool rebuilt = false;
  /// Cells (at the scenario's cell size) whose terrain, cost or moves may differ, one
  /// ring of cells around the re-rasterised ones included (every cell when rebuilt).
  CellRect cells;
  /// World-space box of everything that changed: the changed cells and the old and new
  /// extent of every changed item (threats and allies included). Empty when nothing did.
  Box2 area;
  /// The items added, removed or changed, sorted by (kind, id).
  std::vector<ItemRef> items;

  /// Nothing any planner reads changed (queries, names and view hints may have).
  bool none() const { return !rebuilt && cells.empty() && items.empty(); }
  /// True when an item of this kind changed.
  bool touches(ItemKind kind) const {
    for (const ItemRef& r : items) {
      if (r.kind == kind) return true;
    }
    return false;
  }
};

}  // namespace pathscope
