#pragma once

// The open document: the scenario being edited (the single source of truth), the file
// it belongs to, and the undo/redo history of every edit as commands.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "planner/core/result.hpp"
#include "planner/scenario/scenario.hpp"

namespace pathscope::app {

/// One tile changed by a brush stroke.
struct TileChange {
  std::uint32_t cell = 0;   ///< Row-major index into Scenario::tiles.
  std::uint8_t before = 0;  ///< Terrain index before the stroke.
  std::uint8_t after = 0;   ///< Terrain index after.
};

/// A rectangle of tiles, inclusive cell bounds; empty when x0 > x1.
struct TileRect {
  int x0 = 1, y0 = 1, x1 = 0, y1 = 0;
  bool empty() const { return x0 > x1 || y0 > y1; }
  void include(int x, int y);
  void include(const TileRect& other);
};

/// The scenario being edited, with its history.
///
/// Every change goes through apply() (everything but the tile grid) or apply_tiles()
/// (brush strokes), is validated with validate_scenario first, and becomes one undo
/// step. Consecutive edits with the same non-zero merge key (a drag) form a single step.
class Document {
 public:
  /// A document on `scenario`, saved at `path` ("" = never saved), unmodified.
  explicit Document(Scenario scenario, std::filesystem::path path = {});

  const Scenario& scenario() const { return scenario_; }
  const std::filesystem::path& path() const { return path_; }
  /// File name for titles: the path's file name, or "untitled".
  std::string display_name() const;
  /// True when the scenario differs from the last save or load (undoing back to the
  /// saved state counts as unmodified).
  bool modified() const { return applied_serial() != saved_serial_; }
  /// Increases on every change of the scenario (edit, undo, redo). Views compare it.
  std::uint64_t revision() const { return revision_; }
  /// Increases only when something other than the tile grid changed.
  std::uint64_t vector_revision() const { return vector_revision_; }
  /// Tiles changed since `revision` (empty if none; the whole grid if unknown).
  TileRect tiles_changed_since(std::uint64_t revision) const;

  /// Applies `change` to a copy of the scenario (the tile grid is not passed along:
  /// `change` must not touch Scenario::tiles). Returns the validation error and changes
  /// nothing if the result is invalid.
  Status apply(const std::string& label, const std::function<void(Scenario&)>& change,
               std::uint64_t merge_key = 0);
  /// Applies tile changes (no-ops are dropped). Merges with the previous step when the
  /// merge key matches (one brush stroke = one step).
  Status apply_tiles(const std::string& label, const std::vector<TileChange>& changes,
                     std::uint64_t merge_key = 0);
  /// Gives a scenario without a tile grid one of ground (terrain 0) as its own undo step:
  /// the largest grid of world.cell_size cells that fits in the world (a sliver narrower
  /// than a cell at the right or bottom edge stays outside it). Ok and no change if the
  /// scenario already has a grid; an error if not even one cell fits.
  Status ensure_tile_grid(const std::string& label = "Create tile grid");
  /// Ends any merging: the next edit starts a new undo step even with the same key.
  void end_merge() { merge_open_ = false; }

  bool can_undo() const { return undo_pos_ > 0; }
  bool can_redo() const { return undo_pos_ < history_.size(); }
  /// Label of the step undo() would revert ("" if none).
  std::string undo_label() const;
  /// Label of the step redo() would apply ("" if none).
  std::string redo_label() const;
  void undo();
  void redo();
  /// Number of steps in the history (undoable + redoable).
  std::size_t history_size() const { return history_.size(); }

  /// Records that the scenario now equals the file at `path`.
  void mark_saved(std::filesystem::path path);
  /// Records that the scenario is in no file yet although it holds work (an imported
  /// Moving AI map): modified() until mark_saved(), whatever is undone.
  void mark_unsaved();

  /// A fresh unique id for a new item in one of the scenario's id lists.
  static std::uint32_t next_id(const std::vector<std::uint32_t>& used);

 private:
  struct Step {
    std::string label;
    std::uint64_t merge_key = 0;
    std::uint64_t serial = 0;
    bool tiles = false;
    bool creates_grid = false;  // ensure_tile_grid(): 'rect' is the new grid
    Scenario before;            // !tiles: the scenario without its tile grid
    Scenario after;
    std::vector<TileChange> changes;  // tiles: first 'before' and last 'after' per cell
    TileRect rect;
  };
  void push(Step step);
  void restore(const Step& step, bool forward);
  void touch_tiles(const TileRect& rect);

  Scenario scenario_;
  std::filesystem::path path_;
  std::vector<Step> history_;
  std::size_t undo_pos_ = 0;  // steps [0, undo_pos_) are applied
  bool merge_open_ = false;
  std::uint64_t revision_ = 0;
  std::uint64_t saved_serial_ = 0;  // applied_serial() when last saved
  std::uint64_t next_serial_ = 1;   // every step gets a unique serial
  /// Serial of the newest applied step (0: none).
  std::uint64_t applied_serial() const { return undo_pos_ > 0 ? history_[undo_pos_ - 1].serial : 0; }
  std::uint64_t vector_revision_ = 0;
  struct TileTouch {
    std::uint64_t revision;
    TileRect rect;
  };
  std::vector<TileTouch> tile_touches_;       // recent tile changes, for incremental textures
  std::uint64_t touches_complete_since_ = 0;  // tile_touches_ covers every change after this
};

}  // namespace pathscope::app
