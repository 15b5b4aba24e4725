#pragma once

// What the app remembers between runs: recent files, the window's placement, its panel
// layout and the last folder of the file browser, in `settings.json`; and where Dear ImGui keeps its
// window layout (`imgui.ini`). Both live in one folder:
//   $PATHSCOPE_CONFIG_DIR (tests), else $XDG_CONFIG_HOME/pathscope, else ~/.config/pathscope.
// Nothing here ever fails loudly: an unwritable folder is skipped silently and a
// malformed settings file is ignored with a message.

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace pathscope::app {

/// Most recent files remembered.
inline constexpr std::size_t kMaxRecentFiles = 10;

/// Everything in settings.json.
struct AppSettings {
  std::vector<std::string> recent_files;  ///< Absolute paths, most recent first, at most kMaxRecentFiles.
  /// Window size when last closed, screen pixels; 0 = none saved (then the window
  /// placement fields mean nothing). Read clamped to 200..16384.
  int window_width = 0;
  int window_height = 0;  ///< Screen pixels; 0 = none saved.
  /// Left and top edge of the window manager's frame round the window (its title bar),
  /// screen pixels (|x|, |y| <= 65536); the window's own edge with no frame.
  int window_x = 0;
  int window_y = 0;
  /// The frame's width on each side when last closed, pixels (0..256; 0 = none).
  int frame_left = 0;
  int frame_top = 0;
  int frame_right = 0;
  int frame_bottom = 0;
  bool window_maximized = false;
  /// Widths of the editor's side columns, screen pixels; 0 = the default, negative = the
  /// column is collapsed (its width is the magnitude). Read clamped to |w| <= 4096.
  int left_column = 0;
  int right_column = 0;
  std::string last_directory;  ///< Where the file browser opens ("" = working directory).
  /// The layout preset last chosen from the View menu ("" = none; app/editor/layout_preset.hpp).
  std::string layout;
  /// Names of the panels open when last closed; nullopt = none saved (the defaults).
  std::optional<std::vector<std::string>> open_panels;
  friend bool operator==(const AppSettings&, const AppSettings&) = default;
};

/// The settings folder (see the top of this file); empty if no home folder is known.
/// Does not create it.
std::filesystem::path settings_dir();

/// Reads settings.json from settings_dir(). A missing file gives the defaults; a
/// malformed one (bad JSON, a field of the wrong type) gives the defaults and a message
/// naming the file and field, stored in `*message` when given, else printed to stderr.
/// Window sizes and positions out of range are clamped.
AppSettings load_settings(std::string* message = nullptr);

/// Writes settings.json atomically (temporary file, then rename), creating the folder.
/// Returns false, silently, when the folder or file cannot be written.
bool save_settings(const AppSettings& settings);

/// Path of imgui.ini in the settings folder, which is created; "" when it cannot be
/// (then keep ImGui's IniFilename null). ImGui borrows the string: keep it alive.
std::string imgui_ini_path();

/// Puts `path` (made absolute) first in `recent`, removing an older entry of it and
/// anything beyond kMaxRecentFiles.
void remember_recent_file(std::vector<std::string>& recent, const std::filesystem::path& path);

/// Removes `path` from `recent` (a file that has gone missing).
void forget_recent_file(std::vector<std::string>& recent, const std::string& path);

}  // namespace pathscope::app
