#include "app/editor/tools/tool_widgets.hpp"

#include "planner/core/planner_registry.hpp"

#include <imgui.h>

#include <algorithm>
#include <cstdarg>
#include <string_view>

namespace pathscope::app::tools {
namespace {

bool impassable_for_all(const TerrainType& t) {
  for (const auto& c : t.cost) {
    if (c) return false;
  }
  return true;
}

std::string terrain_label(const TerrainType& t) {
  return impassable_for_all(t) ? t.name + " (impassable)" : t.name;
}

}  // namespace

void item_tooltip(const char* text) {
  if (text && *text && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", text);
}

std::string fit_field(const char* label) {
  const std::string_view text(label);
  const std::string_view shown = text.substr(0, text.find("##"));
  const ImGuiStyle& style = ImGui::GetStyle();
  const float avail = ImGui::GetContentRegionAvail().x;
  const float label_width = shown.empty() ? 0
                                          : ImGui::CalcTextSize(shown.data(), shown.data() + shown.size()).x +
                                                style.ItemInnerSpacing.x;
  if (avail - label_width >= kMinFieldWidth) {
    ImGui::SetNextItemWidth(avail - label_width);
    return label;
  }
  // Too narrow for both: the whole label on its own line, the field under it.
  ImGui::TextUnformatted(shown.data(), shown.data() + shown.size());
  ImGui::SetNextItemWidth(std::max(avail, 1.0f));
  return "##" + std::string(text);
}

void hint(const char* format, ...) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  va_list args;
  va_start(args, format);
  ImGui::TextWrappedV(format, args);
  va_end(args);
  ImGui::PopStyleColor();
}

namespace {

// A combo over items 0..count-1 choosing `index`; item(i) draws anything in front of the
// entry and returns its text.
template <typename Item>
bool index_combo(const char* label, const std::string& preview, std::size_t count, std::size_t& index,
                 const char* tooltip, Item item) {
  bool changed = false;
  if (ImGui::BeginCombo(fit_field(label).c_str(), preview.c_str())) {
    for (std::size_t i = 0; i < count; ++i) {
      ImGui::PushID(int(i));
      const std::string text = item(i);
      if (ImGui::Selectable(text.c_str(), i == index)) {
        changed = i != index;
        index = i;
      }
      ImGui::PopID();
    }
    ImGui::EndCombo();
  }
  item_tooltip(tooltip);
  return changed;
}

}  // namespace

bool terrain_combo(const char* label, const Scenario& s, std::size_t& index, const char* tooltip) {
  const std::string preview = index < s.terrains.size() ? terrain_label(s.terrains[index]) : "(none)";
  return index_combo(label, preview, s.terrains.size(), index, tooltip, [&](std::size_t i) {
    const TerrainType& t = s.terrains[i];
    // A colour swatch in front of the name.
    ImGui::ColorButton("##swatch", ImVec4(t.color.r / 255.f, t.color.g / 255.f, t.color.b / 255.f, 1.f),
                       ImGuiColorEditFlags_NoTooltip,
                       ImVec2(ImGui::GetTextLineHeight(), ImGui::GetTextLineHeight()));
    ImGui::SameLine();
    return terrain_label(t);
  });
}

bool class_combo(const char* label, const Scenario& s, std::size_t& index, const char* tooltip) {
  const std::string preview = index < s.classes.size() ? s.classes[index].name : "(none)";
  return index_combo(label, preview, s.classes.size(), index, tooltip,
                     [&](std::size_t i) { return s.classes[i].name; });
}

bool faction_combo(const char* label, const Scenario& s, std::string& name, bool allow_none,
                   const char* tooltip) {
  bool changed = false;
  const char* preview = name.empty() ? "(none)" : name.c_str();
  if (ImGui::BeginCombo(fit_field(label).c_str(), preview)) {
    if (allow_none && ImGui::Selectable("(none)", name.empty())) {
      changed = !name.empty();
      name.clear();
    }
    for (std::size_t i = 0; i < s.factions.size(); ++i) {
      ImGui::PushID(int(i));
      if (ImGui::Selectable(s.factions[i].name.c_str(), s.factions[i].name == name)) {
        changed = s.factions[i].name != name;
        name = s.factions[i].name;
      }
      ImGui::PopID();
    }
    ImGui::EndCombo();
  }
  item_tooltip(tooltip);
  return changed;
}

bool planner_combo(const char* label, std::string& name, const char* tooltip) {
  bool changed = false;
  if (ImGui::BeginCombo(fit_field(label).c_str(), name.c_str())) {
    for (const PlannerInfo& p : planner_registry()) {
      if (ImGui::Selectable(p.name.c_str(), p.name == name)) {
        changed = p.name != name;
        name = p.name;
      }
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", p.summary.c_str());
    }
    ImGui::EndCombo();
  }
  item_tooltip(tooltip);
  return changed;
}

}  // namespace pathscope::app::tools
