#pragma once

// ImGui widgets shared by the tools' option panels and the inspector: combos over the
// scenario's terrains, movement classes, factions and planners, each with a tooltip.
// UI only: call inside an open ImGui window.

#include <cstddef>
#include <string>

#include "planner/scenario/scenario.hpp"

namespace pathscope::app::tools {

/// Shows `text` as the tooltip of the last widget when it is hovered.
void item_tooltip(const char* text);

/// A combo listing the scenario's terrains (with "impassable" when no class can cross
/// one). Returns true when `index` changed.
bool terrain_combo(const char* label, const Scenario& s, std::size_t& index, const char* tooltip);

/// A combo listing the scenario's movement classes. Returns true when `index` changed.
bool class_combo(const char* label, const Scenario& s, std::size_t& index, const char* tooltip);

/// A combo listing the scenario's factions, with "(none)" first when `allow_none`.
/// Returns true when `name` changed.
bool faction_combo(const char* label, const Scenario& s, std::string& name, bool allow_none,
                   const char* tooltip);

/// A combo listing the planner registry. Returns true when `name` changed.
bool planner_combo(const char* label, std::string& name, const char* tooltip);

}  // namespace pathscope::app::tools
