#pragma once

// A small modal file browser drawn with ImGui (SDL2 has no native file dialog): a folder
// listing filtered by extension, a path field, and Open or Save. It only chooses a
// file; what happens to it is up to the caller. Also the folder listing it shows and the
// few ImGui helpers the File menu's dialogs share with it.

#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "planner/core/result.hpp"

namespace pathscope::app {

/// One entry of a folder listing.
struct DirEntry {
  std::string name;  ///< File name, no folder.
  bool is_dir = false;
  friend bool operator==(const DirEntry&, const DirEntry&) = default;
};

/// The folders (not hidden ones) and the files with one of `extensions` (".json", any
/// case) in `dir`, folders first, each group sorted by name. Errors (code Io) name `dir`.
Result<std::vector<DirEntry>> list_directory(const std::filesystem::path& dir,
                                             std::span<const std::string> extensions);

/// The extension of `path` in lower case, with its dot (".json"); "" if none.
std::string lower_extension(const std::filesystem::path& path);

/// Centres the next window on the display; a non-zero size (pixels) is applied on
/// appearing, shrunk to fit the display. Inside an ImGui frame.
void center_next_window(float width, float height);
/// True on the frame Escape is pressed. Inside an ImGui frame.
bool escape_pressed();
/// `error` wrapped, in red; nothing if empty. Inside an ImGui window.
void error_text(const std::string& error);

/// What one opening of the browser is for.
struct FileBrowserMode {
  /// Window title with the popup's id ("Open scenario###ps_browser").
  std::string title;
  /// Files listed (lower case, with dot); when saving, the first is appended to a name
  /// without it.
  std::vector<std::string> extensions;
  /// Saving: the file need not exist, and replacing one asks for a second Save.
  bool saving = false;
};

/// The browser's state between frames.
class FileBrowser {
 public:
  /// How a frame of draw() ended.
  enum class Outcome {
    Open,       ///< Still browsing.
    Chosen,     ///< A file was chosen (chosen() holds it); the popup is closed.
    Cancelled,  ///< Cancel or Escape; the popup is closed.
    Closed,     ///< Closed by its title bar button, or not open any more.
  };

  /// Starts a fresh opening in `dir` (if empty or missing, the caller picks another),
  /// with `name` in the path field (when saving). Call before ImGui::OpenPopup.
  void open(FileBrowserMode mode, const std::filesystem::path& dir, const std::string& name);
  /// The modal for one frame, at the root of the ImGui ID stack, after OpenPopup.
  Outcome draw();
  /// The file chosen by the last draw() that returned Chosen.
  const std::filesystem::path& chosen() const { return chosen_; }

 private:
  void refresh();
  void navigate(const std::filesystem::path& dir);
  std::optional<std::filesystem::path> submit();

  FileBrowserMode mode_;
  std::filesystem::path dir_;
  std::string path_text_;  // The text field: a file or folder, absolute or relative to dir_.
  std::vector<DirEntry> entries_;
  int selected_ = -1;
  std::string error_;
  std::string confirm_overwrite_;  // A file the user was warned about; Save again replaces it.
  int serial_ = 0;                 // Counts openings: a fresh text field each time.
  std::filesystem::path chosen_;
};

}  // namespace pathscope::app
