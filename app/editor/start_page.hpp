#pragma once

// The start page: what `pathscope` with no file shows instead of a fixed scenario. It
// lists the recent files, the scenarios shipped in maps/ (name and description read from
// each file) and offers a new map; opening any of them leaves the page.

#include <cstddef>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "render/core/draw_list.hpp"

namespace pathscope::app {

class UiProbe;

/// A scenario file shipped in maps/, as the start page lists it.
struct ShippedScenario {
  std::filesystem::path path;  ///< The JSON file.
  std::string name;            ///< Its "name" (the file's stem when it has none).
  std::string description;     ///< Its "description"; or why it could not be read.
  bool readable = true;        ///< False when the file is not a scenario JSON.
};

/// The folder of the shipped scenarios: maps/ in the working directory, else in the
/// source tree the binary was built from; nullopt when neither exists.
std::optional<std::filesystem::path> find_shipped_maps_dir();

/// The scenario JSON files directly in `dir`, by file name, each with its name and
/// description. A file that is not JSON, or not an object, is listed as unreadable with
/// the reason naming the file. Reads only the top-level fields, not the whole scenario.
std::vector<ShippedScenario> list_shipped_scenarios(const std::filesystem::path& dir);

/// A scenario's map drawn small for the start page: painted once by the render layer.
struct Thumbnail {
  render::DrawList drawing;  ///< World metres; image keys unique to the file ("start/<stem>/...").
  double world_width = 0;    ///< Metres.
  double world_height = 0;   ///< Metres.
};

/// Loads `path` and paints its map for a thumbnail: terrain, regions, features, roads,
/// bridges, influences, units (not the query markers: pixel-sized, too big at this
/// scale). nullopt when it does not load.
std::optional<Thumbnail> paint_thumbnail(const std::filesystem::path& path);

/// Draws the thumbnail of shipped scenario `index` into the screen rectangle
/// (x0, y0)-(x1, y1) of the current ImGui window; false when it has none (yet).
using ThumbnailDrawer = std::function<bool(std::size_t index, float x0, float y0, float x1, float y1)>;

/// What the user picked on the start page this frame.
struct StartChoice {
  enum class Kind { None, NewMap, Open, Recent, Shipped };
  Kind kind = Kind::None;
  std::string path;  ///< The file, for Recent and Shipped.
};

/// The entry of the shipped scenarios chosen with the keyboard, kept between frames.
struct StartPageCursor {
  std::optional<std::size_t> selected;  ///< Index into the shipped scenarios; nullopt: none.
  bool scroll_to = false;               ///< Bring the selected entry into view next frame.
};

/// A key the start page's list answers.
enum class StartKey { Up, Down, PageUp, PageDown, Home, End };

/// The cursor after `key` over `count` entries, `page` entries to a page: it moves and
/// stays in 0..count-1 (the first key with none selected selects the first entry, or the
/// last for End), and asks to scroll the entry into view. Unchanged when `count` is 0.
StartPageCursor move_start_cursor(StartPageCursor cursor, StartKey key, std::size_t count, std::size_t page);

/// The start page, filling the rectangle (x, y, width, height) of the window: New map,
/// Open, the recent files (most recent first) and the shipped scenarios. Call inside an
/// ImGui frame. Widgets are recorded in `probe` ("start_new", "start_open",
/// "start_recent_<i>", "start_map_<file stem>"). `thumbnail` draws each scenario's picture.
/// The shipped scenarios' list scrolls with the mouse wheel over it, and with Up, Down,
/// Page Up, Page Down, Home and End, which move `cursor` (kept in view); Enter opens
/// the selected scenario.
StartChoice start_page_ui(float x, float y, float width, float height, const std::vector<std::string>& recent,
                          const std::vector<ShippedScenario>& shipped, const ThumbnailDrawer& thumbnail,
                          UiProbe& probe, StartPageCursor& cursor);

}  // namespace pathscope::app
