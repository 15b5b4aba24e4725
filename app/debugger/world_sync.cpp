// WorldSync: the document's PlanningWorld, updated in place edit by edit
// (PlanningWorld::update) or built again for another document.

#include "app/debugger/world_sync.hpp"

#include <utility>

namespace pathscope::app {

WorldSync::~WorldSync() {
  planners_.clear();  // planners borrow the world: drop them first
}

bool WorldSync::outdated(const EditorState& state) const {
  return !world_ || !state.doc || state.doc->revision() != revision_ || state.doc_serial != doc_serial_;
}

WorldSyncResult WorldSync::sync(const EditorState& state) {
  WorldSyncResult r;
  if (!outdated(state)) return r;
  r.changed = true;
  const Scenario& scenario = state.doc->scenario();
  if (world_ && state.doc_serial == doc_serial_) {
    // The same document edited: update the world in place, cells the edit touched only.
    Result<WorldChange> updated = world_->update(scenario);
    if (updated) {
      r.change = *updated;
    } else {
      r.status = updated.error();
    }
    if (r.change.rebuilt) {
      planners_.clear();
      r.planners_dropped = true;
    }
  } else {
    planners_.clear();
    r.planners_dropped = true;
    world_.reset();  // free the old world's memory before building the new one
    world_ = std::make_unique<PlanningWorld>(scenario);
    r.replaced = true;
  }
  revision_ = state.doc->revision();
  doc_serial_ = state.doc_serial;
  return r;
}

void WorldSync::clear() {
  planners_.clear();
  world_.reset();
}

}  // namespace pathscope::app
