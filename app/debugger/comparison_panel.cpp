// The planner comparison's view: the table (one row per planner, selectable) and the
// reasons for large differences under it. Widgets only; the rows, notes and reasons come
// from PlannerComparison.

#include "app/debugger/comparison_panel.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "app/editor/tools/item_edit.hpp"
#include "app/editor/tools/tool_widgets.hpp"

namespace pathscope::app {
namespace {

using tools::item_tooltip;
using tools::kErrorColor;
using tools::kWarningColor;

constexpr int kColumns = 11;

ImVec4 to_imgui(Color c) { return ImVec4(c.r / 255.0f, c.g / 255.0f, c.b / 255.0f, 1.0f); }

float row_height() { return ImGui::GetTextLineHeight() + 2 * ImGui::GetStyle().CellPadding.y; }

// "query 1: across (astar, infantry r 0.50 m)".
std::string query_line(const SearchDebugger& dbg) {
  const PlanningWorld* w = dbg.world();
  const std::optional<std::size_t> q = dbg.active_query();
  if (!w || !q || *q >= w->scenario().queries.size()) return "no query";
  const Scenario& s = w->scenario();
  std::string line = tools::query_label(s, *q);
  const std::size_t c = s.queries[*q].movement_class;
  if (c < s.classes.size()) {
    char radius[32];
    std::snprintf(radius, sizeof radius, "%.2f", s.classes[c].radius);
    line += ", class " + s.classes[c].name + " (radius " + radius + " m)";
  }
  return line;
}

void table(SearchDebugger& dbg, UiProbe& probe) {
  const PlannerComparison& cmp = dbg.comparison();
  const std::vector<ComparisonRow>& rows = cmp.rows();
  const std::optional<std::size_t> base = cmp.baseline();
  const ImGuiTableFlags flags =
      ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingFixedFit;
  if (!ImGui::BeginTable("comparison", kColumns, flags)) return;
  ImGui::TableSetupColumn("planner");
  ImGui::TableSetupColumn("status");
  ImGui::TableSetupColumn("radius");
  ImGui::TableSetupColumn("terrain cost");
  ImGui::TableSetupColumn("vs base");
  ImGui::TableSetupColumn("own cost");
  ImGui::TableSetupColumn("own model");
  ImGui::TableSetupColumn("length m");
  ImGui::TableSetupColumn("expanded");
  ImGui::TableSetupColumn("ms");
  ImGui::TableSetupColumn("note", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
  const char* help[kColumns] = {
      "the planner (~: not exact); its colour is its path on the map; click a row to highlight it",
      "how its search ended",
      "metres it keeps from walls (a point: none; -1 in its parameters is the class's radius)",
      "the path's cost in the world's one model, by the path referee: metres x terrain multiplier "
      "(grid paths between cell centres)",
      "terrain cost against the baseline's (the selected row, else the first exact planner that found a "
      "path)",
      "the cost the planner reports, in its own model",
      "what its own cost measures: terrain (metres x multiplier, as the terrain cost) or another model "
      "(see the note)",
      "Euclidean length of the path",
      "nodes expanded",
      "wall time of find_path, milliseconds",
      "why the row is not comparable with the baseline"};
  for (int c = 0; c < kColumns; ++c) {
    ImGui::TableSetColumnIndex(c);
    ImGui::TableHeader(ImGui::TableGetColumnName(c));
    item_tooltip(help[c]);
  }
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const ComparisonRow& r = rows[i];
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    ImGui::PushID(int(i));
    const float swatch = ImGui::GetTextLineHeight();
    ImGui::ColorButton("##colour", to_imgui(r.color),
                       ImGuiColorEditFlags_NoTooltip | ImGuiColorEditFlags_NoDragDrop,
                       ImVec2(swatch, swatch));
    ImGui::SameLine();
    const std::string label = r.name + (r.exact ? "" : " ~") + (base == i ? " (base)" : "");
    const bool selected = cmp.selected() == i;
    if (ImGui::Selectable(label.c_str(), selected, ImGuiSelectableFlags_SpanAllColumns)) {
      dbg.select_compared(selected ? std::nullopt : std::optional<std::size_t>(i));
    }
    probe.last_item(("compare_row " + r.name).c_str());
    item_tooltip(selected ? "click again to show every path alike"
                          : "highlight this planner's path; compare the others with it");
    ImGui::PopID();
    ImGui::TableSetColumnIndex(1);
    if (r.found()) {
      ImGui::TextUnformatted(to_string(r.status));
    } else {
      ImGui::TextColored(kErrorColor, "%s", to_string(r.status));
    }
    ImGui::TableSetColumnIndex(2);
    if (r.radius > 0) {
      ImGui::Text("%.2f m", r.radius);
    } else {
      ImGui::TextDisabled("point");
    }
    ImGui::TableSetColumnIndex(3);
    if (r.terrain_cost) ImGui::Text("%.3f", *r.terrain_cost);
    ImGui::TableSetColumnIndex(4);
    if (const std::optional<double> rel = cmp.relative_cost(i); rel && base != i) {
      const double percent = std::abs(*rel) < 5e-4 ? 0.0 : 100 * *rel;  // no "-0.0 %"
      if (std::abs(*rel) > kMarkedDifference) {
        ImGui::TextColored(kWarningColor, "%+.1f %%", percent);
      } else {
        ImGui::Text("%+.1f %%", percent);
      }
    }
    ImGui::TableSetColumnIndex(5);
    if (r.found()) ImGui::Text("%.3f", r.cost);
    ImGui::TableSetColumnIndex(6);
    if (r.cost_model == CostModel::Terrain) {
      ImGui::TextUnformatted("terrain");
    } else {
      ImGui::TextColored(kWarningColor, "other");
    }
    item_tooltip(r.cost_units.c_str());
    ImGui::TableSetColumnIndex(7);
    if (r.found()) ImGui::Text("%.3f", r.length);
    ImGui::TableSetColumnIndex(8);
    ImGui::Text("%llu", static_cast<unsigned long long>(r.expansions));
    ImGui::TableSetColumnIndex(9);
    ImGui::Text("%.2f", r.micros / 1000.0);
    ImGui::TableSetColumnIndex(10);
    const std::string note = cmp.note(i);
    if (!note.empty()) {
      ImGui::TextWrapped("%s", note.c_str());
      const std::string full = r.message.empty() ? note : note + "\n\n" + r.message;
      item_tooltip(full.c_str());
    }
  }
  ImGui::EndTable();
  probe.last_item("compare_table");
}

}  // namespace

float comparison_panel_height(const SearchDebugger& dbg) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const std::size_t rows = std::max<std::size_t>(dbg.comparison().rows().size(), 1);
  // The reasons wrap at the window's width.
  const float wrap = ImGui::GetIO().DisplaySize.x - 2 * style.WindowPadding.x - 2 * ImGui::GetFontSize();
  float reasons = ImGui::GetTextLineHeightWithSpacing();
  for (const std::string& line : dbg.comparison().differences()) {
    reasons += ImGui::CalcTextSize(line.c_str(), nullptr, false, wrap).y + style.ItemSpacing.y;
  }
  // Notes wrap in the last column: about the width the other columns leave.
  const float note_width = std::max(200.0f, wrap - 52 * ImGui::CalcTextSize("0").x);
  float notes = 0;
  for (std::size_t i = 0; i < dbg.comparison().rows().size(); ++i) {
    const std::string note = dbg.comparison().note(i);
    notes += ImGui::CalcTextSize(note.c_str(), nullptr, false, note_width).y - ImGui::GetTextLineHeight();
  }
  // Title bar, the line above the table, the table (header and rows), the reasons.
  return ImGui::GetFrameHeight() + 2 * style.WindowPadding.y + ImGui::GetFrameHeightWithSpacing() +
         float(rows + 1) * row_height() + std::max(0.0f, notes) + style.ItemSpacing.y + reasons;
}

void comparison_panel(SearchDebugger& dbg, EditorState& state) {
  if (!state.doc || !dbg.world() || !dbg.active_query()) {
    ImGui::TextDisabled("no query to compare planners on");
    return;
  }
  // After an edit, only the planners whose answers it may change run again.
  if (dbg.comparison().needs_run() && !dbg.busy()) dbg.refresh_comparison();
  if (ImGui::Button("run again")) dbg.compare_planners();
  state.probe.last_item("compare_run");
  item_tooltip(
      "run every registered planner with its default parameters on the active query again (times change)");
  ImGui::SameLine();
  if (ImGui::Button("close")) state.show_comparison = false;
  state.probe.last_item("compare_close");
  item_tooltip(
      "close this view (and its paths on the map); \"compare planners\" or View > Compare planners opens it");
  ImGui::SameLine();
  ImGui::Text("%s.", query_line(dbg).c_str());
  ImGui::SameLine();
  ImGui::TextDisabled(
      "Terrain cost: metres x multiplier (the path referee). Click a row to highlight its path.");
  table(dbg, state.probe);
  const std::vector<std::string> differences = dbg.comparison().differences();
  const std::optional<std::size_t> base = dbg.comparison().baseline();
  if (!base) {
    ImGui::TextDisabled("No planner found a path: nothing to compare.");
    return;
  }
  const std::string& name = dbg.comparison().rows()[*base].name;
  if (differences.empty()) {
    ImGui::TextDisabled("Every terrain cost is within %.0f %% of %s's.", 100 * kMarkedDifference,
                        name.c_str());
    return;
  }
  ImGui::TextDisabled("Why they differ from %s by more than %.0f %%:", name.c_str(), 100 * kMarkedDifference);
  for (const std::string& line : differences) {
    ImGui::Bullet();
    ImGui::SameLine();
    ImGui::TextWrapped("%s", line.c_str());
  }
  state.probe.last_item("compare_reasons");
}

}  // namespace pathscope::app
