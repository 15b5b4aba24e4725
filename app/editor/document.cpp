// Undo/redo as a list of steps. A vector edit stores the scenario without its tile grid
// before and after (vector data is small next to a 1024 x 1024 grid); a brush stroke
// stores only the cells it changed. Undo restores 'before', redo restores 'after'.

#include "app/editor/document.hpp"

#include <algorithm>
#include <limits>
#include <unordered_map>

#include "planner/scenario/scenario_validate.hpp"
#include "planner/world/belief.hpp"

namespace pathscope::app {
namespace {

constexpr std::size_t kMaxHistory = 500;  // oldest steps are dropped beyond this
constexpr std::size_t kMaxTileTouches = 64;

// A copy of `s` without its tile grid (the grid itself is never copied).
Scenario copy_without_tiles(Scenario& s) {
  std::optional<TileGrid> tiles = std::move(s.tiles);
  s.tiles.reset();
  Scenario copy = s;
  s.tiles = std::move(tiles);
  return copy;
}

}  // namespace

void TileRect::include(int x, int y) {
  if (empty()) {
    x0 = x1 = x;
    y0 = y1 = y;
    return;
  }
  x0 = std::min(x0, x);
  y0 = std::min(y0, y);
  x1 = std::max(x1, x);
  y1 = std::max(y1, y);
}

void TileRect::include(const TileRect& o) {
  if (o.empty()) return;
  include(o.x0, o.y0);
  include(o.x1, o.y1);
}

Document::Document(Scenario scenario, std::filesystem::path path)
    : scenario_(std::move(scenario)), path_(std::move(path)) {
  // Factions with fog of war look once with their units as they stand (as solve does).
  observe_all(scenario_);
}

std::string Document::display_name() const {
  return path_.empty() ? std::string("untitled") : path_.filename().string();
}

TileRect Document::tiles_changed_since(std::uint64_t revision) const {
  TileRect r;
  if (revision >= revision_) return r;
  if (revision < touches_complete_since_) {  // older than what is recorded: everything
    if (scenario_.tiles) r = TileRect{0, 0, scenario_.tiles->width - 1, scenario_.tiles->height - 1};
    return r;
  }
  for (const TileTouch& t : tile_touches_) {
    if (t.revision > revision) r.include(t.rect);
  }
  return r;
}

void Document::touch_tiles(const TileRect& rect) {
  tile_touches_.push_back(TileTouch{revision_, rect});
  if (tile_touches_.size() > kMaxTileTouches) {
    touches_complete_since_ = tile_touches_.front().revision;
    tile_touches_.erase(tile_touches_.begin());
  }
}

void Document::push(Step step) {
  history_.resize(undo_pos_);  // a new edit drops the redo branch
  step.serial = next_serial_++;
  history_.push_back(std::move(step));
  if (history_.size() > kMaxHistory) history_.erase(history_.begin());
  undo_pos_ = history_.size();
}

Status Document::apply(const std::string& label, const std::function<void(Scenario&)>& change,
                       std::uint64_t merge_key) {
  Scenario before = copy_without_tiles(scenario_);
  Scenario edited = before;
  change(edited);
  // The grid changes only through apply_tiles(); it is lent to the edit (not copied)
  // for the factions' look and the validation.
  edited.tiles = std::move(scenario_.tiles);
  // Factions with fog of war see the edited world: what changed in view of their units
  // (or what their units moved to see), tiles included, enters their memory in the same
  // step.
  observe_all(edited);
  scenario_.tiles = std::move(edited.tiles);
  edited.tiles.reset();
  if (edited == before) return Ok{};
  // Validate the whole scenario, tiles included, without copying the grid.
  Scenario after = edited;
  edited.tiles = std::move(scenario_.tiles);
  const Status valid = validate_scenario(edited);
  if (!valid) {
    scenario_.tiles = std::move(edited.tiles);
    return valid;
  }
  scenario_ = std::move(edited);
  ++revision_;
  ++vector_revision_;

  const bool merge = merge_open_ && merge_key != 0 && undo_pos_ > 0 && undo_pos_ == history_.size() &&
                     !history_.back().tiles && history_.back().merge_key == merge_key;
  if (merge) {
    history_.back().after = std::move(after);
    history_.back().serial = next_serial_++;  // the step changed: a save of it is stale
  } else {
    Step step;
    step.label = label;
    step.merge_key = merge_key;
    step.before = std::move(before);
    step.after = std::move(after);
    push(std::move(step));
  }
  merge_open_ = merge_key != 0;
  return Ok{};
}

Status Document::apply_tiles(const std::string& label, const std::vector<TileChange>& changes,
                             std::uint64_t merge_key) {
  if (!scenario_.tiles) {
    return make_error(ErrorCode::Value, "tiles", "the scenario has no tile grid to paint");
  }
  TileGrid& grid = *scenario_.tiles;
  std::vector<TileChange> applied;
  TileRect rect;
  for (const TileChange& c : changes) {
    if (c.cell >= grid.terrain.size()) {
      return make_error(ErrorCode::Value, "tiles",
                        "cell " + std::to_string(c.cell) + " is outside the tile grid");
    }
    if (c.after >= scenario_.terrains.size()) {
      return make_error(ErrorCode::Value, "tiles",
                        "terrain index " + std::to_string(c.after) + " does not exist");
    }
  }
  for (const TileChange& c : changes) {
    const std::uint8_t old = grid.terrain[c.cell];
    if (old == c.after) continue;
    grid.terrain[c.cell] = c.after;
    applied.push_back(TileChange{c.cell, old, c.after});
    rect.include(int(c.cell % unsigned(grid.width)), int(c.cell / unsigned(grid.width)));
  }
  if (applied.empty()) return Ok{};
  ++revision_;
  touch_tiles(rect);

  const bool merge = merge_open_ && merge_key != 0 && undo_pos_ > 0 && undo_pos_ == history_.size() &&
                     history_.back().tiles && history_.back().merge_key == merge_key;
  if (merge) {
    Step& step = history_.back();
    // Keep the first 'before' of each cell; the newest 'after' wins.
    std::unordered_map<std::uint32_t, std::size_t> where;  // lookup only
    for (std::size_t i = 0; i < step.changes.size(); ++i) where[step.changes[i].cell] = i;
    for (const TileChange& c : applied) {
      auto it = where.find(c.cell);
      if (it == where.end()) {
        where[c.cell] = step.changes.size();
        step.changes.push_back(c);
      } else {
        step.changes[it->second].after = c.after;
      }
    }
    step.rect.include(rect);
    step.serial = next_serial_++;
  } else {
    Step step;
    step.label = label;
    step.merge_key = merge_key;
    step.tiles = true;
    step.changes = std::move(applied);
    step.rect = rect;
    push(std::move(step));
  }
  merge_open_ = merge_key != 0;
  return Ok{};
}

Status Document::ensure_tile_grid(const std::string& label) {
  if (scenario_.tiles) return Ok{};
  // The validator wants width * cell_size <= world width (up to rounding): drop the
  // partial last column and row that grid_size() counts.
  const double cs = scenario_.world.cell_size;
  constexpr double kSlack = 1 + 1e-9;
  glm::ivec2 size = scenario_.grid_size();
  if (size.x > 0 && size.x * cs > scenario_.world.width * kSlack) --size.x;
  if (size.y > 0 && size.y * cs > scenario_.world.height * kSlack) --size.y;
  if (size.x <= 0 || size.y <= 0) {
    return make_error(ErrorCode::Value, "world.cell_size",
                      "the world is smaller than one cell; no tile grid fits");
  }
  TileGrid grid;
  grid.width = size.x;
  grid.height = size.y;
  grid.terrain.assign(std::size_t(size.x) * std::size_t(size.y), 0);
  scenario_.tiles = std::move(grid);
  if (const Status valid = validate_scenario(scenario_); !valid) {
    scenario_.tiles.reset();
    return valid;
  }
  const TileRect whole{0, 0, size.x - 1, size.y - 1};
  Step step;
  step.label = label;
  step.creates_grid = true;
  step.rect = whole;
  push(std::move(step));
  merge_open_ = false;
  ++revision_;
  ++vector_revision_;  // the grid's existence is structure, not just cell values
  touch_tiles(whole);
  return Ok{};
}

void Document::restore(const Step& step, bool forward) {
  merge_open_ = false;
  ++revision_;
  if (step.creates_grid) {
    if (forward) {
      TileGrid grid;
      grid.width = step.rect.x1 + 1;
      grid.height = step.rect.y1 + 1;
      grid.terrain.assign(std::size_t(grid.width) * std::size_t(grid.height), 0);
      scenario_.tiles = std::move(grid);
    } else {
      scenario_.tiles.reset();
    }
    ++vector_revision_;
    touch_tiles(step.rect);
    return;
  }
  if (step.tiles) {
    TileGrid& grid = *scenario_.tiles;
    for (const TileChange& c : step.changes) grid.terrain[c.cell] = forward ? c.after : c.before;
    touch_tiles(step.rect);
    return;
  }
  std::optional<TileGrid> tiles = std::move(scenario_.tiles);
  scenario_ = forward ? step.after : step.before;
  scenario_.tiles = std::move(tiles);
  ++vector_revision_;
}

std::string Document::undo_label() const {
  return can_undo() ? history_[undo_pos_ - 1].label : std::string();
}

std::string Document::redo_label() const { return can_redo() ? history_[undo_pos_].label : std::string(); }

void Document::undo() {
  if (!can_undo()) return;
  --undo_pos_;
  restore(history_[undo_pos_], false);
}

void Document::redo() {
  if (!can_redo()) return;
  restore(history_[undo_pos_], true);
  ++undo_pos_;
}

void Document::mark_saved(std::filesystem::path path) {
  path_ = std::move(path);
  saved_serial_ = applied_serial();
}

void Document::mark_unsaved() {
  // Step serials start at 1 and only grow: no state of the history has this one.
  saved_serial_ = std::numeric_limits<std::uint64_t>::max();
}

std::uint32_t Document::next_id(const std::vector<std::uint32_t>& used) {
  std::uint32_t id = 1;
  for (std::uint32_t u : used) id = std::max(id, u + 1);
  return id;
}

}  // namespace pathscope::app
