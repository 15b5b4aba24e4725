#pragma once

// Keeping a PlanningWorld in step with the editor's document: an edit of the same
// document updates the world in place (only the cells the edit touched are rasterised
// again), another document gets a new world. The world owns-by-position the planners
// that borrow it (PlannerCache), so they are dropped here whenever it is rebuilt or
// replaced; the result tells the rest of the debugger what changed (which answers may
// be kept, which map image cells to repaint).

#include <cstdint>
#include <memory>

#include "app/debugger/planner_cache.hpp"
#include "app/editor/editor_state.hpp"
#include "planner/core/world_change.hpp"
#include "planner/world/planning_world.hpp"

namespace pathscope::app {

/// What WorldSync::sync() did.
struct WorldSyncResult {
  /// The document changed since the last sync (its revision or the document itself),
  /// even when nothing planners read did.
  bool changed = false;
  /// A new world object was built (another document, or the first sync).
  bool replaced = false;
  /// Every planner of WorldSync::planners() was destroyed: forget pointers to them.
  bool planners_dropped = false;
  /// What an in-place update changed (`rebuilt` also when the update had to rebuild the
  /// world); unused when `replaced`.
  WorldChange change;
  /// PlanningWorld::update()'s error, if any: then the world is as it was. (The editor's
  /// world has no cost overlay, so none comes today.)
  Status status = Ok{};
};

/// The document's PlanningWorld and the planners that borrow it.
class WorldSync {
 public:
  WorldSync() = default;
  ~WorldSync();
  WorldSync(const WorldSync&) = delete;
  WorldSync& operator=(const WorldSync&) = delete;

  /// True when the world was not built from `state`'s document at its current revision
  /// (no world yet, another document, or edits since).
  bool outdated(const EditorState& state) const;
  /// Brings the world in step with state.doc (must be set): nothing when up to date; the
  /// same document edited: PlanningWorld::update() in place, planners dropped only when it
  /// rebuilt; another document: planners dropped, the old world freed, a new one built.
  /// Either way the document counts as synced, also when the result holds an error.
  WorldSyncResult sync(const EditorState& state);
  /// Drops the planners and the world (no document open).
  void clear();

  /// The world of the document (nullptr before the first sync with a document).
  const PlanningWorld* world() const { return world_.get(); }
  /// The planners made for world() (cleared whenever it is rebuilt or replaced).
  PlannerCache& planners() { return planners_; }
  const PlannerCache& planners() const { return planners_; }

 private:
  // The cache borrows world_, so it is declared after it (destroyed first).
  std::unique_ptr<PlanningWorld> world_;
  PlannerCache planners_;
  std::uint64_t revision_ = 0;    // Document::revision() the world was built from
  std::uint64_t doc_serial_ = 0;  // EditorState::doc_serial of that document
};

}  // namespace pathscope::app
