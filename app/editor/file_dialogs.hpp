#pragma once

// The File menu drawn with ImGui: its items, its shortcuts and its modal dialogs
// (unsaved changes, New, the file browser for Open / Save As / Import / Export, Moving
// AI import, Export PNG). Files are chosen in app/editor/file_browser, since SDL2 has no
// native dialog. The dialogs keep only what the user is typing; everything they do goes
// through FileActions (file_actions.hpp), which tests drive without ImGui.

#include <memory>

#include "app/editor/editor_state.hpp"
#include "app/editor/file_actions.hpp"

namespace pathscope::app {

/// The File menu's dialogs for one window: their state between frames.
class FileDialogs {
 public:
  FileDialogs();
  ~FileDialogs();
  FileDialogs(const FileDialogs&) = delete;
  FileDialogs& operator=(const FileDialogs&) = delete;

  /// The menu's items; call between BeginMenu("File") and EndMenu().
  void menu_items(FileActions& actions, EditorState& state);
  /// Every frame, at the root of the frame (not inside another window or menu): opens
  /// the dialog `actions` asks for, then draws the open one. `export_request` is called
  /// by Export PNG.
  void draw(FileActions& actions, EditorState& state, const ExportRequestFn& export_request);
  /// Ctrl+N, Ctrl+O, Ctrl+S, Ctrl+Shift+S, Ctrl+Q; nothing while a menu or modal is open.
  void shortcuts(FileActions& actions, EditorState& state);
  /// True while a dialog is shown or about to be (one dialog asked for another).
  bool showing() const;

 private:
  struct Ui;

  void open_requested(FileActions& actions, EditorState& state);
  void unsaved_dialog(FileActions& actions, EditorState& state);
  void new_dialog(FileActions& actions, EditorState& state);
  void browser_dialog(FileActions& actions, EditorState& state);
  void import_dialog(FileActions& actions, EditorState& state);
  void export_dialog(FileActions& actions, EditorState& state, const ExportRequestFn& export_request);
  // The Cancel button (or Escape) that ends a form dialog, then EndPopup. Closes the
  // dialog when `close` or cancelled, if `may_close` (false when the form's action put
  // another dialog in its place).
  void end_form(bool close, bool may_close = true);

  std::unique_ptr<Ui> ui_;
};

}  // namespace pathscope::app
