#pragma once

// The File menu: New, Open, Open Recent, Save, Save As, Import Moving AI map, Export
// PNG and Quit, with their modal dialogs (files are chosen in app/file_browser, since
// SDL2 has no native dialog) and the unsaved-changes prompt. The actions (open_path,
// save, ...) need no ImGui and are what tests drive; only menu_items() and dialogs() draw.

#include <cstddef>
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

/// Repaints the scene and writes it to `out` as a width x height PNG (the window loop
/// implements it with export_png).
using ExportRequestFn = std::function<Status(int width, int height, const std::filesystem::path& out)>;

/// The File menu and its dialogs for one window.
class FileActions {
 public:
  /// Works with `settings` (recent files, last folder). With `persist`, writes them with
  /// save_settings whenever they change.
  explicit FileActions(AppSettings settings = {}, bool persist = false);
  ~FileActions();
  FileActions(const FileActions&) = delete;
  FileActions& operator=(const FileActions&) = delete;

  // [SECTION] UI: ImGui calls, inside a frame ---------------------------------------

  /// The menu's items; call between BeginMenu("File") and EndMenu().
  void menu_items(EditorState& state);
  /// Every frame, at the root of the frame (not inside another window or menu): the
  /// modal dialogs. `export_request` is called by Export PNG.
  void dialogs(EditorState& state, const ExportRequestFn& export_request);
  /// The menu's shortcuts: Ctrl+N, Ctrl+O, Ctrl+S, Ctrl+Shift+S, Ctrl+Q. Does nothing
  /// while a menu or modal is open. Call once per frame (or call the request_ functions
  /// from your own key handling instead).
  void shortcuts(EditorState& state);
  /// True while one of this object's dialogs is open (canvas shortcuts should pause).
  bool dialog_open() const;

  // [SECTION] Actions: no ImGui ----------------------------------------------------

  /// New...: asks about unsaved changes, then shows the New dialog.
  void request_new(EditorState& state);
  /// Open...: asks about unsaved changes, then shows the file browser.
  void request_open_dialog(EditorState& state);
  /// Save As...: shows the file browser for a .json file (nothing without a document).
  void request_save_as(EditorState& state);
  /// Import Moving AI map...: asks about unsaved changes, then shows the import dialog.
  void request_import(EditorState& state);
  /// Export PNG...: shows the export dialog (nothing without a document).
  void request_export(EditorState& state);

  /// Window close or Quit: true when it is fine to close now (nothing unsaved, or the
  /// user already answered the prompt). Otherwise opens the unsaved-changes prompt; when
  /// it is answered, quit_confirmed() turns true and an SDL_QUIT event is pushed.
  bool request_quit(EditorState& state);
  /// True once quitting has been agreed to.
  bool quit_confirmed() const { return quit_confirmed_; }

  /// Opens a file chosen in the menu, dropped on the window or given on the command
  /// line, asking about unsaved changes first: .json scenarios, Moving AI .map files
  /// (imported as an untitled document), .scen files (the import dialog, prefilled).
  void open_path(EditorState& state, const std::string& path);
  /// Opens `path` now, without asking. A loading error goes to state.report() (naming
  /// the file and the field or line) and leaves the current document as it was.
  /// Returns true if a document was opened.
  bool load_path(EditorState& state, const std::filesystem::path& path);
  /// A recent file: opened like open_path, or dropped from the list with a message if
  /// it no longer exists.
  void open_recent(EditorState& state, const std::string& path);

  /// Save: writes the document to its file, or opens Save As when it has none. Returns
  /// true if written. Errors go to state.report().
  bool save(EditorState& state);
  /// Writes the document to `path` atomically and makes it the document's file.
  /// Returns true if written. Errors go to state.report().
  bool save_as(EditorState& state, const std::filesystem::path& path);

  /// Imports a Moving AI map as an untitled document; the problems of `scen` (may be
  /// empty) whose indices are in `chosen` become its queries. Errors (file and line)
  /// go to state.report(); the current document stays. Returns true if imported.
  bool import_movingai(EditorState& state, const std::filesystem::path& map, const std::filesystem::path& scen,
                       std::span<const std::size_t> chosen);

  /// How the unsaved-changes prompt was answered.
  enum class UnsavedAnswer { Save, Discard, Cancel };
  /// True while the unsaved-changes prompt waits for an answer.
  bool asking_unsaved() const;
  /// Answers the prompt (what its buttons do): Save saves first (through Save As if the
  /// document has no file) and continues only if that worked.
  void answer_unsaved(EditorState& state, UnsavedAnswer answer);

  /// Recent files, most recent first (also in settings()).
  const std::vector<std::string>& recent() const { return settings_.recent_files; }
  /// Replaces the recent files (kept to the first kMaxRecentFiles).
  void set_recent(std::vector<std::string> files);
  /// The settings kept here; the window loop stores its placement into them on exit.
  const AppSettings& settings() const { return settings_; }
  AppSettings& settings() { return settings_; }

 private:
  enum class Next { None, New, Open, Import, OpenPath, Quit };
  struct Pending {
    Next next = Next::None;
    std::string path;
  };
  struct Ui;

  void when_saved_or_discarded(EditorState& state, Pending action);
  void run(EditorState& state, const Pending& action);
  void confirm_quit();
  void remember(const std::filesystem::path& path);
  void set_last_directory(const std::filesystem::path& dir);
  void persist();

  void unsaved_dialog(EditorState& state);
  void new_dialog(EditorState& state);
  void browser_dialog(EditorState& state);
  void import_dialog(EditorState& state);
  void export_dialog(EditorState& state, const ExportRequestFn& export_request);
  // The Cancel button (or Escape) that ends a form dialog, then EndPopup. Closes the
  // dialog when `close` or cancelled, if `may_close` (false when the form's action put
  // another dialog in its place).
  void end_form(bool close, bool may_close = true);

  AppSettings settings_;
  bool persist_ = false;
  bool quit_confirmed_ = false;
  Pending pending_;                  // Waits for the unsaved-changes prompt.
  std::optional<Pending> after_save_as_;  // Continues once Save As (from the prompt) has written.
  std::unique_ptr<Ui> ui_;           // Dialog state.
};

}  // namespace pathscope::app
