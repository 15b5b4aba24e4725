#pragma once

// The File menu's actions: New, Open, Open Recent, Save, Save As, Save Game As, Import
// Moving AI map, Export PNG and Quit, and the unsaved-changes flow around them. No ImGui here: tests
// drive these headless. An action that needs the user (a file to choose, a form, the
// unsaved-changes prompt) leaves a FileDialogRequest, which the dialogs (file_dialogs.hpp)
// open on their next frame; what the user then chooses comes back through the actions
// below (open_chosen, save_as_chosen, create_new, import_movingai, export_image, ...).

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "app/editor/editor_state.hpp"
#include "app/platform/settings.hpp"
#include "planner/core/result.hpp"
#include "planner/scenario/new_scenario.hpp"
#include "planner/scenario/scenario.hpp"

namespace pathscope::app {

class FileDialogs;

/// The step of the simulation on screen (live or a recorded step), or nullopt when none is.
using GameStepFn = std::function<std::optional<std::uint64_t>()>;
/// The saved game of the step on screen (sim::saved_game), or an error saying why it
/// cannot be made.
using GameSourceFn = std::function<Result<Scenario>()>;

/// Repaints the scene and writes it to `out` as a width x height PNG (the window loop
/// implements it with export_png).
using ExportRequestFn = std::function<Status(int width, int height, const std::filesystem::path& out)>;

/// The modal dialogs of the File menu.
enum class FileDialog { None, Unsaved, New, Browser, Import, Export };

/// What the file browser chooses a file for.
enum class BrowseFor { Open, SaveAs, SaveGame, ImportMap, ImportScen, ExportPng };

/// A dialog an action asks for; the dialogs open it on their next frame, with a fresh
/// form (no error left from before).
struct FileDialogRequest {
  FileDialog dialog = FileDialog::None;
  BrowseFor browse_for = BrowseFor::Open;  ///< For FileDialog::Browser.
  std::string scen_path;                   ///< For FileDialog::Import: a .scen to list ("" = keep the form).
  std::string document_name;               ///< For FileDialog::Unsaved: the document asked about.
};

/// The File menu of one window: its actions, the settings they remember (recent files,
/// last folder) and the dialog they ask for next.
class FileActions {
 public:
  /// Works with `settings` (recent files, last folder). With `persist`, writes them with
  /// save_settings whenever they change.
  explicit FileActions(AppSettings settings = {}, bool persist = false);
  ~FileActions();
  FileActions(const FileActions&) = delete;
  FileActions& operator=(const FileActions&) = delete;

  // [SECTION] UI: ImGui calls, inside a frame; they forward to FileDialogs ----------

  /// The menu's items; call between BeginMenu("File") and EndMenu().
  void menu_items(EditorState& state);
  /// Every frame, at the root of the frame (not inside another window or menu): the
  /// modal dialogs. `export_request` is called by Export PNG.
  void dialogs(EditorState& state, const ExportRequestFn& export_request);
  /// The menu's shortcuts: Ctrl+N, Ctrl+O, Ctrl+S, Ctrl+Shift+S, Ctrl+Q. Does nothing
  /// while a menu or modal is open. Call once per frame (or call the request_ functions
  /// from your own key handling instead).
  void shortcuts(EditorState& state);
  /// True while one of this object's dialogs is open or asked for (canvas shortcuts
  /// should pause).
  bool dialog_open() const;

  // [SECTION] Actions: no ImGui ----------------------------------------------------

  /// New...: asks about unsaved changes, then shows the New dialog.
  void request_new(EditorState& state);
  /// Open...: asks about unsaved changes, then shows the file browser.
  void request_open_dialog(EditorState& state);
  /// Save As...: shows the file browser for a .json file (nothing without a document).
  void request_save_as(EditorState& state);
  /// Save Game As...: shows the file browser for a .json file when a simulation or a
  /// recorded step is on screen (game_step()); else says that there is nothing to save.
  void request_save_game(EditorState& state);
  /// Import Moving AI map...: asks about unsaved changes, then shows the import dialog.
  void request_import(EditorState& state);
  /// Export PNG...: shows the export dialog (nothing without a document).
  void request_export(EditorState& state);

  /// Window close or Quit: true when it is fine to close now (nothing unsaved, or the
  /// user already answered the prompt). Otherwise opens the unsaved-changes prompt; when
  /// it is answered, quit_confirmed() turns true and an SDL_QUIT event is pushed.
  bool request_quit(EditorState& state);
  /// The Quit command (menu, Ctrl+Q): quits now if request_quit allows it.
  void quit(EditorState& state);
  /// True once quitting has been agreed to.
  bool quit_confirmed() const { return quit_confirmed_; }

  /// Opens a file chosen in the menu, dropped on the window or given on the command
  /// line, asking about unsaved changes first: .json scenarios, Moving AI .map files
  /// (imported as an untitled document, unsaved until saved as a scenario), .scen files
  /// (the import dialog, prefilled).
  void open_path(EditorState& state, const std::string& path);
  /// As open_path, once unsaved changes have been dealt with (a file chosen in the
  /// Open browser): a .scen opens the import dialog, anything else load_path.
  void open_chosen(EditorState& state, const std::string& path);
  /// Opens `path` now, without asking. A loading error goes to state.report_error() (naming
  /// the file and the field or line) and leaves the current document as it was.
  /// Returns true if a document was opened.
  bool load_path(EditorState& state, const std::filesystem::path& path);
  /// A recent file: opened like open_path, or dropped from the list with a message if
  /// it no longer exists.
  void open_recent(EditorState& state, const std::string& path);

  /// New: opens a new untitled document made by make_new_scenario. On bad input returns
  /// its error (naming the field) and changes nothing.
  Status create_new(EditorState& state, const NewScenarioParams& params);

  /// Save: writes the document to its file, or opens Save As when it has none. Returns
  /// true if written. Errors go to state.report_error().
  bool save(EditorState& state);
  /// Writes the document to `path` atomically and makes it the document's file.
  /// Returns true if written. Errors go to state.report_error().
  bool save_as(EditorState& state, const std::filesystem::path& path);
  /// The Save As browser closed: with a file, save_as it and, if that worked, continue
  /// the action that waited for the save (the unsaved-changes prompt's Save); without
  /// one (cancelled), or if saving failed, that action is dropped.
  void save_as_chosen(EditorState& state, const std::optional<std::filesystem::path>& chosen);

  /// Where Save Game As finds the step on screen and its saved game (the window's
  /// SimPlayer: the step the timeline shows, not the live end of the run).
  void set_game_source(GameStepFn step, GameSourceFn game) {
    game_step_ = std::move(step);
    game_source_ = std::move(game);
  }
  /// The step on screen that Save Game As would save, or nullopt (also without a source).
  std::optional<std::uint64_t> game_step() const { return game_step_ ? game_step_() : std::nullopt; }
  /// Writes the saved game of the step on screen (the world, the units as they are then,
  /// the whole state) to `path` atomically; the document and its file stay as they are.
  /// Reports the file and step, or the error, in the messages (the status bar shows the
  /// newest). Returns true if written.
  bool save_game_as(EditorState& state, const std::filesystem::path& path);

  /// Imports a Moving AI map as an untitled document, unsaved (modified) until saved as
  /// a scenario; the problems of `scen` (may be empty) whose indices are in `chosen`
  /// become its queries. Errors (file and line) go to state.report_error(); the current
  /// document stays. Returns true if imported.
  bool import_movingai(EditorState& state, const std::filesystem::path& map,
                       const std::filesystem::path& scen, std::span<const std::size_t> chosen);

  /// Export PNG: writes a width x height picture of the view to `out` (".png" appended
  /// when missing) through `export_request`, reports it and remembers its folder.
  /// Returns the file written, or the error to show in the dialog (also reported when
  /// the export itself failed).
  Result<std::filesystem::path> export_image(EditorState& state, const ExportRequestFn& export_request,
                                             int width, int height, const std::filesystem::path& out);

  /// How the unsaved-changes prompt was answered.
  enum class UnsavedAnswer { Save, Discard, Cancel };
  /// True while the unsaved-changes prompt waits for an answer.
  bool asking_unsaved() const;
  /// Answers the prompt (what its buttons do): Save saves first (through Save As if the
  /// document has no file) and continues only if that worked.
  void answer_unsaved(EditorState& state, UnsavedAnswer answer);

  /// The dialog asked for since the last call, if any; the dialogs take it each frame.
  std::optional<FileDialogRequest> take_dialog_request();

  /// Recent files, most recent first (also in settings()).
  const std::vector<std::string>& recent() const { return settings_.recent_files; }
  /// Replaces the recent files (kept to the first kMaxRecentFiles).
  void set_recent(std::vector<std::string> files);
  /// Empties the recent files.
  void clear_recent();
  /// Remembers `dir` as the folder the file browser starts in.
  void set_last_directory(const std::filesystem::path& dir);
  /// The settings kept here; the window loop stores its placement into them on exit.
  const AppSettings& settings() const { return settings_; }
  AppSettings& settings() { return settings_; }

 private:
  enum class Next { None, New, Open, Import, OpenPath, Quit };
  struct Pending {
    Next next = Next::None;
    std::string path;
  };

  void when_saved_or_discarded(EditorState& state, Pending action);
  void run(EditorState& state, const Pending& action);
  void ask(FileDialogRequest request);
  void confirm_quit();
  void remember(const std::filesystem::path& path);
  void persist();

  AppSettings settings_;
  bool persist_ = false;
  bool quit_confirmed_ = false;
  Pending pending_;                       // Waits for the unsaved-changes prompt.
  std::optional<Pending> after_save_as_;  // Continues once Save As (from the prompt) has written.
  FileDialogRequest request_;             // The dialog asked for; None once taken.
  std::unique_ptr<FileDialogs> dialogs_;  // The dialogs' state between frames.
  GameStepFn game_step_;                  // The step on screen, for Save Game As.
  GameSourceFn game_source_;              // Its saved game.
};

}  // namespace pathscope::app
