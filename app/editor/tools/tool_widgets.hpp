#pragma once

// ImGui widgets shared by the tools' option panels and the inspector: combos over the
// scenario's terrains, movement classes, factions and planners, each with a tooltip.
// UI only: call inside an open ImGui window.

#include <cstddef>
#include <string>

#include "planner/scenario/scenario.hpp"

#include <imgui.h>

namespace pathscope::app::tools {

/// The colour of error text in every panel, and of warnings.
inline const ImVec4 kErrorColor{1.0f, 0.4f, 0.4f, 1.0f};
inline const ImVec4 kWarningColor{1.0f, 0.75f, 0.25f, 1.0f};

/// Shows `text` as the tooltip of the last widget when it is hovered.
void item_tooltip(const char* text);

/// Narrowest field, pixels, that fit_field() puts beside its label.
inline constexpr float kMinFieldWidth = 90;

/// Lays out the next widget labelled `label` (an ImGui label: what follows "##" is not
/// shown) to fit the rest of the line, however narrow the panel: the field takes the
/// width the label leaves, at least kMinFieldWidth; below that the label is printed on
/// its own line and the field spans the line under it. Returns the label to give the
/// widget: `label`, or "##" + label when it was printed above.
std::string fit_field(const char* label);

/// Help text in the disabled colour, wrapped at the panel's edge (printf format).
void hint(const char* format, ...) IM_FMTARGS(1);

/// A combo listing the scenario's terrains (with "impassable" when no class can cross
/// one), laid out by fit_field(). Returns true when `index` changed.
bool terrain_combo(const char* label, const Scenario& s, std::size_t& index, const char* tooltip);

/// A combo listing the scenario's movement classes, laid out by fit_field(). Returns true
/// when `index` changed.
bool class_combo(const char* label, const Scenario& s, std::size_t& index, const char* tooltip);

/// A combo listing the scenario's factions, with "(none)" first when `allow_none`, laid
/// out by fit_field(). Returns true when `name` changed.
bool faction_combo(const char* label, const Scenario& s, std::string& name, bool allow_none,
                   const char* tooltip);

/// A combo listing the planner registry, laid out by fit_field(). Returns true when `name`
/// changed.
bool planner_combo(const char* label, std::string& name, const char* tooltip);

}  // namespace pathscope::app::tools
