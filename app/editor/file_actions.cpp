// The File menu's actions. Index:
//   [SECTION] Requests and settings
//   [SECTION] Open, save, new, import, export
//   [SECTION] The unsaved-changes flow and quitting
//   [SECTION] UI entry points (forwarded to FileDialogs)
//
// An action that needs the user stores a FileDialogRequest; only the last one asked for
// in a frame is opened (an action asking for a dialog replaces one asked for before).

#include "app/editor/file_actions.hpp"

#include "app/editor/document.hpp"
#include "app/editor/file_browser.hpp"
#include "app/editor/file_dialogs.hpp"
#include "planner/scenario/movingai_check.hpp"
#include "planner/scenario/movingai_convert.hpp"
#include "planner/scenario/movingai_parse.hpp"
#include "planner/scenario/scenario_io.hpp"
#include "planner/sim/recording.hpp"

#include <SDL.h>

#include <cstdio>
#include <system_error>
#include <utility>

namespace pathscope::app {

namespace fs = std::filesystem;

namespace {

std::string format_number(double value) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%g", value);
  return buf;
}

}  // namespace

// [SECTION] Requests and settings -----------------------------------------------------

FileActions::FileActions(AppSettings settings, bool persist)
    : settings_(std::move(settings)), persist_(persist), dialogs_(std::make_unique<FileDialogs>()) {
  if (settings_.recent_files.size() > kMaxRecentFiles) settings_.recent_files.resize(kMaxRecentFiles);
}

FileActions::~FileActions() = default;

void FileActions::ask(FileDialogRequest request) { request_ = std::move(request); }

std::optional<FileDialogRequest> FileActions::take_dialog_request() {
  if (request_.dialog == FileDialog::None) return std::nullopt;
  return std::exchange(request_, FileDialogRequest{});
}

void FileActions::set_recent(std::vector<std::string> files) {
  settings_.recent_files = std::move(files);
  if (settings_.recent_files.size() > kMaxRecentFiles) settings_.recent_files.resize(kMaxRecentFiles);
}

void FileActions::clear_recent() {
  settings_.recent_files.clear();
  persist();
}

void FileActions::request_new(EditorState& state) { when_saved_or_discarded(state, {Next::New, {}}); }

void FileActions::request_open_dialog(EditorState& state) {
  when_saved_or_discarded(state, {Next::Open, {}});
}

void FileActions::request_import(EditorState& state) { when_saved_or_discarded(state, {Next::Import, {}}); }

void FileActions::request_save_as(EditorState& state) {
  if (!state.doc) return;
  ask({FileDialog::Browser, BrowseFor::SaveAs, {}, {}});
}

void FileActions::request_export(EditorState& state) {
  if (!state.doc) return;
  ask({FileDialog::Export, BrowseFor::Open, {}, {}});
}

void FileActions::persist() {
  if (persist_) save_settings(settings_);
}

void FileActions::remember(const fs::path& path) {
  remember_recent_file(settings_.recent_files, path);
  std::error_code ec;
  const fs::path absolute = fs::absolute(path, ec);
  if (!ec) settings_.last_directory = absolute.parent_path().string();
  persist();
}

void FileActions::set_last_directory(const fs::path& dir) {
  if (settings_.last_directory == dir.string()) return;
  settings_.last_directory = dir.string();
  persist();
}

// [SECTION] Open, save, new, import, export ---------------------------------------------

void FileActions::open_path(EditorState& state, const std::string& path) {
  when_saved_or_discarded(state, {Next::OpenPath, path});
}

void FileActions::open_chosen(EditorState& state, const std::string& path) {
  run(state, {Next::OpenPath, path});
}

void FileActions::open_recent(EditorState& state, const std::string& path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) {
    state.report_error(path + ": no longer exists; removed from the recent files");
    forget_recent_file(settings_.recent_files, path);
    persist();
    return;
  }
  open_path(state, path);
}

bool FileActions::load_path(EditorState& state, const fs::path& path) {
  const std::string ext = lower_extension(path);
  if (ext == ".json") {
    Result<Scenario> loaded = load_scenario(path);
    if (!loaded) {
      state.report_error(loaded.error().to_string());
      return false;
    }
    state.open_document(std::make_unique<Document>(std::move(loaded).value(), path));
  } else if (ext == ".map") {
    Result<MovingAiMap> map = load_movingai_map(path);
    if (!map) {
      state.report_error(map.error().to_string());
      return false;
    }
    // A .map is imported, not edited in place: saving asks for a scenario file. Opened
    // here (Open, a drop, a recent file, the command line) it is the same untitled
    // scenario as File > Import without problems, so it counts as unsaved work in the
    // same way: the title shows "*" and quitting asks, even before any edit.
    state.open_document(std::make_unique<Document>(movingai_to_scenario(*map)));
    state.doc->mark_unsaved();
  } else if (ext == ".psrec") {
    // A recorded run: its scenario opens (untitled: saving asks where), and the timeline
    // shows the run from its first step.
    Result<sim::Recording> loaded = sim::Recording::load(path);
    if (!loaded) {
      state.report_error(loaded.error().to_string());
      return false;
    }
    auto recording = std::make_shared<sim::Recording>(std::move(loaded).value());
    state.open_document(std::make_unique<Document>(recording->start()));
    state.opened_recording = std::move(recording);
  } else {
    state.report_error(
        path.string() +
        ": unknown file type; Pathscope opens .json scenarios, Moving AI .map files and .psrec "
        "recordings (.scen files through File > Import Moving AI map)");
    return false;
  }
  remember(path);
  state.report("opened " + path.string());
  return true;
}

Status FileActions::create_new(EditorState& state, const NewScenarioParams& params) {
  Result<Scenario> made = make_new_scenario(params);
  if (!made) return made.error();
  state.open_document(std::make_unique<Document>(std::move(made).value()));
  state.report("new scenario: " + format_number(params.width) + " x " + format_number(params.height) + " m");
  return Ok{};
}

bool FileActions::save(EditorState& state) {
  if (!state.doc) return false;
  const fs::path& path = state.doc->path();
  if (path.empty() || lower_extension(path) != ".json") {
    request_save_as(state);
    return false;
  }
  return save_as(state, path);
}

void FileActions::request_save_game(EditorState& state) {
  if (!game_step()) {
    state.report_error("Save game: no simulation is running (Play or Step it first)");
    return;
  }
  ask({FileDialog::Browser, BrowseFor::SaveGame, {}, {}});
}

bool FileActions::save_game_as(EditorState& state, const fs::path& path) {
  const std::optional<std::uint64_t> step = game_step();
  if (!step || !game_source_) {
    state.report_error("Save game: no simulation is running (Play or Step it first)");
    return false;
  }
  Result<Scenario> game = game_source_();
  if (!game) {
    state.report_error("cannot save the game of step " + std::to_string(*step) + ": " +
                       game.error().to_string());
    return false;
  }
  if (Status saved = save_scenario(*game, path); !saved) {
    state.report_error("cannot save the game: " + saved.error().to_string());
    return false;
  }
  remember(path);  // reopened from Open Recent to run on from there
  char when[64];
  std::snprintf(when, sizeof when, " (step %llu, %.2f s)", static_cast<unsigned long long>(*step),
                static_cast<double>(*step) * game->sim.dt);
  state.report("saved game " + path.string() + when);
  return true;
}

bool FileActions::save_as(EditorState& state, const fs::path& path) {
  if (!state.doc) return false;
  if (Status saved = save_scenario(state.doc->scenario(), path); !saved) {
    state.report_error("cannot save: " + saved.error().to_string());
    return false;
  }
  state.doc->mark_saved(path);
  remember(path);
  state.report("saved " + path.string());
  return true;
}

void FileActions::save_as_chosen(EditorState& state, const std::optional<fs::path>& chosen) {
  if (chosen && save_as(state, *chosen)) {
    if (after_save_as_) run(state, *std::exchange(after_save_as_, std::nullopt));
  } else {
    after_save_as_.reset();
  }
}

bool FileActions::import_movingai(EditorState& state, const fs::path& map_path, const fs::path& scen_path,
                                  std::span<const std::size_t> chosen) {
  Result<MovingAiMap> map = load_movingai_map(map_path);
  if (!map) {
    state.report_error("cannot import: " + map.error().to_string());
    return false;
  }
  Scenario scenario;
  if (scen_path.empty()) {
    scenario = movingai_to_scenario(*map);
  } else {
    Result<std::vector<MovingAiProblem>> problems = load_movingai_scen(scen_path);
    if (!problems) {
      state.report_error("cannot import: " + problems.error().to_string());
      return false;
    }
    std::vector<MovingAiProblem> picked;
    for (const std::size_t i : chosen) {
      if (i < problems->size()) picked.push_back((*problems)[i]);
    }
    if (Status fits = check_movingai_problems(*map, picked, scen_path.string()); !fits) {
      state.report_error("cannot import: " + fits.error().to_string());
      return false;
    }
    scenario = movingai_to_scenario(*map, picked);
  }
  const std::size_t queries = scenario.queries.size();
  state.open_document(std::make_unique<Document>(std::move(scenario)));
  // The scenario (with the problems chosen) exists in no file yet: quitting asks.
  state.doc->mark_unsaved();
  remember(map_path);
  state.report("imported " + map_path.string() + " with " + std::to_string(queries) + " queries");
  return true;
}

Result<fs::path> FileActions::export_image(EditorState& state, const ExportRequestFn& export_request,
                                           int width, int height, const fs::path& requested) {
  fs::path out = requested;
  if (lower_extension(out) != ".png" && !out.empty()) out += ".png";
  if (out.empty()) return make_error(ErrorCode::Value, "", "choose a file");
  if (!export_request) return make_error(ErrorCode::Value, "", "exporting is not available here");
  if (Status written = export_request(width, height, out); !written) {
    state.report_error("cannot export: " + written.error().to_string());
    return written.error();
  }
  std::error_code ec;
  if (const fs::path absolute = fs::absolute(out, ec); !ec) set_last_directory(absolute.parent_path());
  state.report("exported " + out.string() + " (" + std::to_string(width) + " x " + std::to_string(height) +
               ")");
  return out;
}

// [SECTION] The unsaved-changes flow and quitting ---------------------------------------

bool FileActions::request_quit(EditorState& state) {
  if (quit_confirmed_ || !state.doc || !state.doc->modified()) return true;
  when_saved_or_discarded(state, {Next::Quit, {}});
  return false;
}

void FileActions::quit(EditorState& state) {
  if (request_quit(state)) confirm_quit();
}

void FileActions::confirm_quit() {
  quit_confirmed_ = true;
  // The window loop ends on SDL_QUIT; with no event queue (tests) this does nothing.
  SDL_Event quit{};
  quit.type = SDL_QUIT;
  SDL_PushEvent(&quit);
}

bool FileActions::asking_unsaved() const { return pending_.next != Next::None; }

void FileActions::when_saved_or_discarded(EditorState& state, Pending action) {
  if (state.doc && state.doc->modified()) {
    pending_ = std::move(action);
    ask({FileDialog::Unsaved, BrowseFor::Open, {}, state.doc->display_name()});
    return;
  }
  run(state, action);
}

void FileActions::answer_unsaved(EditorState& state, UnsavedAnswer answer) {
  const Pending action = std::exchange(pending_, Pending{});
  if (request_.dialog == FileDialog::Unsaved) request_ = FileDialogRequest{};
  if (action.next == Next::None) return;
  switch (answer) {
    case UnsavedAnswer::Cancel: return;
    case UnsavedAnswer::Discard: run(state, action); return;
    case UnsavedAnswer::Save:
      if (!state.doc) {
        run(state, action);
      } else if (!state.doc->path().empty() && lower_extension(state.doc->path()) == ".json") {
        if (save_as(state, state.doc->path())) run(state, action);
      } else {
        after_save_as_ = action;  // Continues in save_as_chosen once a file is written.
        ask({FileDialog::Browser, BrowseFor::SaveAs, {}, {}});
      }
      return;
  }
}

void FileActions::run(EditorState& state, const Pending& action) {
  switch (action.next) {
    case Next::None: return;
    case Next::New: ask({FileDialog::New, BrowseFor::Open, {}, {}}); return;
    case Next::Open: ask({FileDialog::Browser, BrowseFor::Open, {}, {}}); return;
    case Next::Import: ask({FileDialog::Import, BrowseFor::Open, {}, {}}); return;
    case Next::OpenPath:
      if (lower_extension(action.path) == ".scen") {
        ask({FileDialog::Import, BrowseFor::Open, action.path, {}});
        return;
      }
      load_path(state, action.path);
      return;
    case Next::Quit: confirm_quit(); return;
  }
}

// [SECTION] UI entry points ---------------------------------------------------------------

void FileActions::menu_items(EditorState& state) { dialogs_->menu_items(*this, state); }

void FileActions::dialogs(EditorState& state, const ExportRequestFn& export_request) {
  dialogs_->draw(*this, state, export_request);
}

void FileActions::shortcuts(EditorState& state) { dialogs_->shortcuts(*this, state); }

bool FileActions::dialog_open() const { return request_.dialog != FileDialog::None || dialogs_->showing(); }

}  // namespace pathscope::app
