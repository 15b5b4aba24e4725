#include "app/editor/layout_preset.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace pathscope::app {
namespace {

// The three users' arrangements. Fractions are of the window's width.
constexpr std::array<LayoutPreset, 3> kPresets{{
    // Design: tools and layers on the left, the inspector on a narrow right, the map large.
    {.name = "design",
     .label = "Design",
     .shortcut = "Ctrl+1",
     .left_fraction = 0.2,
     .right_fraction = 0.22,
     .layers = true,
     .inspector = true,
     .tool = "select"},
    // Debug search: the debugger (stepping, breakpoints, node inspection) wide on the
    // right, the planner comparison across the bottom; the tools folded away.
    {.name = "debug",
     .label = "Debug search",
     .shortcut = "Ctrl+2",
     .left_fraction = 0,
     .right_fraction = 0.32,
     .debugger = true,
     .comparison = true,
     .tool = ""},
    // Simulation/QA: the units tool on a narrow left, the simulation panel (run,
    // recordings, stuck units, a unit's log) wide on the right, the messages open.
    {.name = "simulation",
     .label = "Simulation / QA",
     .shortcut = "Ctrl+3",
     .left_fraction = 0.16,
     .right_fraction = 0.3,
     .simulation = true,
     .messages = true,
     .tool = "units"},
}};

// Panel names as settings.json keeps them, with their field.
struct PanelField {
  const char* name;
  bool PanelLayout::*field;
};
constexpr std::array<PanelField, 6> kPanels{{
    {"layers", &PanelLayout::layers},
    {"inspector", &PanelLayout::inspector},
    {"simulation", &PanelLayout::simulation},
    {"debugger", &PanelLayout::debugger},
    {"messages", &PanelLayout::messages},
    {"comparison", &PanelLayout::comparison},
}};

int column_width(double fraction, int window_width, int current) {
  if (fraction <= 0) return -std::abs(current == 0 ? kMinPresetColumn : current);
  const int w = int(std::lround(fraction * std::max(window_width, 0)));
  return std::clamp(w, kMinPresetColumn, kMaxPresetColumn);
}

}  // namespace

std::span<const LayoutPreset> layout_presets() { return kPresets; }

const LayoutPreset* find_layout_preset(std::string_view name) {
  for (const LayoutPreset& p : kPresets) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

PanelLayout arrange(const LayoutPreset& preset, int window_width, const PanelLayout& current) {
  PanelLayout out;
  out.left_column = column_width(preset.left_fraction, window_width, current.left_column);
  out.right_column = column_width(preset.right_fraction, window_width, current.right_column);
  out.layers = preset.layers;
  out.inspector = preset.inspector;
  out.simulation = preset.simulation;
  out.debugger = preset.debugger;
  out.messages = preset.messages;
  out.comparison = preset.comparison;
  return out;
}

int comparison_strip_height(double wanted, int window_height) {
  if (wanted <= 0 || window_height <= 0) return 0;
  const int cap = std::max(kMinComparisonHeight, int(std::lround(kMaxComparisonFraction * window_height)));
  return std::min({int(std::ceil(wanted)), cap, window_height});
}

std::vector<std::string> open_panel_names(const PanelLayout& layout) {
  std::vector<std::string> names;
  for (const PanelField& p : kPanels) {
    if (layout.*p.field) names.emplace_back(p.name);
  }
  return names;
}

PanelLayout with_open_panels(PanelLayout layout, const std::vector<std::string>& names) {
  for (const PanelField& p : kPanels) {
    layout.*p.field = std::find(names.begin(), names.end(), p.name) != names.end();
  }
  return layout;
}

}  // namespace pathscope::app
