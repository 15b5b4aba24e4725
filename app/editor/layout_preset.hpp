#pragma once

// The editor's panel arrangement (which panels are open, how wide the side columns are)
// and the presets for its three kinds of user, one click each from the View menu:
//   design      map editing: tools and layers on the left, the inspector, the map large;
//   debug       search debugging: the debugger wide on the right, the planner comparison
//               across the bottom, the left column folded away;
//   simulation  simulation and QA: the simulation panel (its run, recordings, stuck
//               units), the units tool, the message strip.
// A preset is data: its columns' widths are fractions of the window's width, so one
// description serves every window size. The arrangement is saved in settings.json as
// the column widths and the names of the open panels.

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace pathscope::app {

/// The panels of the window and the widths of its side columns.
struct PanelLayout {
  /// Side columns' widths, screen pixels; negative = collapsed (the magnitude is the
  /// width it opens at again).
  int left_column = 250;
  int right_column = 390;
  bool layers = true;       ///< The left column's Layers section.
  bool inspector = true;    ///< The right column's Inspector section.
  bool simulation = true;   ///< The right column's Simulation section.
  bool debugger = true;     ///< The right column's Search debugger section.
  bool messages = false;    ///< The message strip under the canvas.
  bool comparison = false;  ///< The planner comparison across the bottom.
  friend bool operator==(const PanelLayout&, const PanelLayout&) = default;
};

/// One arrangement, as data.
struct LayoutPreset {
  std::string_view name;      ///< Saved in settings.json: "design", "debug", "simulation".
  std::string_view label;     ///< The View menu's item.
  std::string_view shortcut;  ///< Shown in the menu ("Ctrl+1"); the digit is the key.
  /// Side columns' widths as fractions of the window's width; 0 = collapsed. Clamped to
  /// kMinPresetColumn..kMaxPresetColumn pixels.
  double left_fraction = 0;
  double right_fraction = 0;
  bool layers = false, inspector = false, simulation = false, debugger = false, messages = false,
       comparison = false;  ///< Panels open (PanelLayout's fields); the others close.
  std::string_view tool;    ///< The tool it selects (tool registry name); "" = unchanged.
};

/// Narrowest and widest a preset makes an open column, pixels.
inline constexpr int kMinPresetColumn = 200;  // three tool buttons side by side
inline constexpr int kMaxPresetColumn = 720;

/// The planner comparison's strip across the bottom takes at most this fraction of the
/// window's height (the map keeps the rest), and never less than kMinComparisonHeight
/// pixels (its title, header and a few rows) when its contents need that much.
inline constexpr double kMaxComparisonFraction = 0.28;
inline constexpr int kMinComparisonHeight = 120;

/// Pixels of height the comparison strip gets in a window `window_height` pixels high
/// when its contents need `wanted` pixels (it scrolls inside when they need more).
int comparison_strip_height(double wanted, int window_height);

/// The presets, in menu order (Ctrl+1, Ctrl+2, Ctrl+3).
std::span<const LayoutPreset> layout_presets();

/// The preset called `name`; nullptr if none is.
const LayoutPreset* find_layout_preset(std::string_view name);

/// The arrangement `preset` gives a window `window_width` pixels wide. A column it
/// collapses keeps `current`'s width to open at again.
PanelLayout arrange(const LayoutPreset& preset, int window_width, const PanelLayout& current = {});

/// Names of the panels open in `layout` ("layers", "inspector", "simulation",
/// "debugger", "messages", "comparison"), as settings.json keeps them.
std::vector<std::string> open_panel_names(const PanelLayout& layout);

/// `layout` with exactly the panels named in `names` open (unknown names are ignored).
PanelLayout with_open_panels(PanelLayout layout, const std::vector<std::string>& names);

}  // namespace pathscope::app
