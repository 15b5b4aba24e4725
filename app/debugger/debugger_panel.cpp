// The debugger window's widgets, laid out to fit a narrow side column without scrolling:
// the controls on top (query and planner, stepping, timeline, where the search stands,
// breakpoint, the button of the planner comparison's view), then tabs that share the
// height left (open list, all queries, stats). Sections:
//  [SECTION] Layout helpers
//  [SECTION] Query and planner choice (registry-driven: a parameters section from ParamSpec)
//  [SECTION] Controls (buttons, speed, timeline, breakpoint) and shortcuts
//  [SECTION] Where the search stands, and the stats
//  [SECTION] Open list table (clipped, so 100k rows cost only the visible ones)
//  [SECTION] Per-query results
//  [SECTION] The panel
//  [SECTION] Hover tooltip

#include "app/debugger/debugger_panel.hpp"

#include "app/editor/tools/item_edit.hpp"
#include "app/editor/tools/tool_widgets.hpp"
#include "planner/core/planner_registry.hpp"

#include <SDL.h>
#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

namespace pathscope::app {
namespace {

using tools::item_tooltip;
using tools::kErrorColor;
using tools::kWarningColor;

using tools::fit_field;

// Rows a tab's table shows at least, however little height is left (the column scrolls).
constexpr float kMinTableRows = 4;

unsigned long long ull(std::uint64_t v) { return static_cast<unsigned long long>(v); }

// [SECTION] Layout helpers -----------------------------------------------------------

// Width of a button labelled `label`.
float button_width(const char* label) {
  return ImGui::CalcTextSize(label, nullptr, true).x + 2 * ImGui::GetStyle().FramePadding.x;
}

// Continues the line when `width` pixels still fit on it, else starts a new one.
void same_line_if_fits(float width) {
  ImGui::SameLine();
  if (ImGui::GetContentRegionAvail().x < width) ImGui::NewLine();
}

// Height of a table with a header and `rows` rows, pixels: rows of text, or of framed
// widgets (`framed`) such as progress bars.
float table_height(std::size_t rows, bool framed = false) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const float text = ImGui::GetTextLineHeight() + 2 * style.CellPadding.y;
  const float row = (framed ? ImGui::GetFrameHeight() : ImGui::GetTextLineHeight()) + 2 * style.CellPadding.y;
  return text + float(rows) * row + 2 * style.FramePadding.y + style.ScrollbarSize;
}

// The height left in the current window for a tab's content, at least kMinTableRows rows.
float tab_height() {
  return std::max(ImGui::GetContentRegionAvail().y, table_height(std::size_t(kMinTableRows)));
}

// [SECTION] Query and planner choice ------------------------------------------------

// "query 2: both ways (bidirectional, infantry)": query_label() with the planner and class.
std::string query_entry(const Scenario& s, std::size_t i) {
  const Query& q = s.queries[i];
  std::string label = tools::query_label(s, i) + " (" + q.planner;
  if (q.movement_class < s.classes.size()) label += ", " + s.classes[q.movement_class].name;
  return label + ")";
}

void query_combo(EditorState& state) {
  const Scenario& s = state.doc->scenario();
  const std::size_t current = std::min(state.active_query, s.queries.size() - 1);
  if (ImGui::BeginCombo(fit_field("query").c_str(), query_entry(s, current).c_str())) {
    for (std::size_t i = 0; i < s.queries.size(); ++i) {
      ImGui::PushID(static_cast<int>(i));
      if (ImGui::Selectable(query_entry(s, i).c_str(), i == current)) state.active_query = i;
      ImGui::PopID();
    }
    ImGui::EndCombo();
  }
}

// One planner parameter: an enumeration is a list of its choices, a number a slider.
// Returns true when the user changed `value`.
bool param_widget(const ParamSpec& spec, double& value, UiProbe& probe) {
  const std::string probe_name = "param " + spec.name;
  if (spec.choices.empty()) {
    const bool log_scale = spec.min_value > 0 && spec.max_value >= 100 * spec.min_value;
    const bool changed = ImGui::SliderScalar(
        fit_field(spec.name.c_str()).c_str(), ImGuiDataType_Double, &value, &spec.min_value, &spec.max_value,
        "%.3g", log_scale ? ImGuiSliderFlags_Logarithmic : ImGuiSliderFlags_None);
    probe.last_item(probe_name.c_str());
    item_tooltip(spec.description.c_str());
    return changed;
  }
  const int count = static_cast<int>(spec.choices.size());
  const int shown = std::clamp(static_cast<int>(std::lround(value - spec.min_value)), 0, count - 1);
  bool changed = false;
  const bool open = ImGui::BeginCombo(fit_field(spec.name.c_str()).c_str(), spec.choices[shown].c_str());
  probe.last_item(probe_name.c_str());
  item_tooltip(spec.description.c_str());
  if (open) {
    for (int i = 0; i < count; ++i) {
      if (ImGui::Selectable(spec.choices[i].c_str(), i == shown) && i != shown) {
        value = spec.min_value + i;
        changed = true;
      }
      probe.last_item((probe_name + " = " + spec.choices[i]).c_str());
      if (i == shown) ImGui::SetItemDefaultFocus();
    }
    ImGui::EndCombo();
  }
  return changed;
}

void planner_widgets(SearchDebugger& dbg, EditorState& state) {
  const Scenario& s = state.doc->scenario();
  const Query& q = s.queries[std::min(state.active_query, s.queries.size() - 1)];
  const std::string own = "query's own: " + q.planner;
  const std::string& chosen = dbg.planner_override();
  if (ImGui::BeginCombo(fit_field("planner").c_str(), chosen.empty() ? own.c_str() : chosen.c_str())) {
    if (ImGui::Selectable(own.c_str(), chosen.empty())) dbg.clear_planner_override();
    for (const PlannerInfo& p : planner_registry()) {
      if (ImGui::Selectable(p.name.c_str(), p.name == chosen)) {
        ParamValues defaults;
        for (const ParamSpec& spec : p.params) defaults.push_back(spec.default_value);
        dbg.set_planner_override(p.name, defaults);
      }
      item_tooltip(p.summary.c_str());
    }
    ImGui::EndCombo();
  }
  item_tooltip(
      "planner of the active query; another one here overrides the query's own until you revert it or "
      "open another document (the per-query results keep the queries' own planners)");
  // The planner's parameters, in a section of their own (closed at first, so that a
  // planner with many of them leaves the controls below in view); changing one
  // overrides the query's values.
  if (const PlannerInfo* info = find_planner(dbg.active_planner()); info && !info->params.empty()) {
    const std::string header = "parameters (" + std::to_string(info->params.size()) + ")###planner_params";
    const bool open = ImGui::TreeNodeEx(header.c_str(), ImGuiTreeNodeFlags_SpanAvailWidth);
    state.probe.last_item("planner_params");
    item_tooltip("the planner's parameters; changing one overrides the query's own values");
    if (open) {
      ParamValues values = dbg.active_params();
      values.resize(info->params.size(), 0.0);
      bool changed = false;
      for (std::size_t i = 0; i < info->params.size(); ++i) {
        changed |= param_widget(info->params[i], values[i], state.probe);
      }
      if (changed) dbg.set_planner_override(info->name, values);
      ImGui::TreePop();
    }
  }
  // An override is easy to forget: say so in a warning colour, after the way back.
  const std::string note = dbg.override_note();
  if (note.empty()) return;
  if (ImGui::SmallButton("revert")) dbg.clear_planner_override();
  item_tooltip("plan the query with its own planner and parameters again");
  ImGui::SameLine();
  ImGui::PushStyleColor(ImGuiCol_Text, kWarningColor);
  ImGui::TextWrapped("%s", note.c_str());
  ImGui::PopStyleColor();
}

// [SECTION] Controls ---------------------------------------------------------------

void control_widgets(SearchDebugger& dbg, UiProbe& probe) {
  if (ImGui::Button("|<")) dbg.reset();
  item_tooltip("reset to step 0 (F6)");
  ImGui::SameLine();
  if (ImGui::Button("<")) dbg.step_back(1);
  item_tooltip("one expansion back (Shift+F10; Shift+F11: N back)");
  ImGui::SameLine();
  if (ImGui::Button(">")) dbg.step(1);
  item_tooltip("one expansion (F10)");
  ImGui::SameLine();
  if (ImGui::Button(">>")) dbg.step(dbg.step_size());
  item_tooltip("N expansions (F11)");
  ImGui::SameLine();
  if (ImGui::Button(dbg.playing() ? "pause" : "run ")) dbg.play(!dbg.playing());
  item_tooltip("play the search at the speed below; stops at the end or at the breakpoint (F5)");
  ImGui::SameLine();
  if (ImGui::Button(">|")) dbg.seek(dbg.total_steps());
  item_tooltip("to the end: the finished search (F7)");

  // "N" and "speed" share one line: N takes a third of it.
  std::uint64_t n = dbg.step_size();
  ImGui::SetNextItemWidth(std::max(60.0f, ImGui::GetContentRegionAvail().x * 0.3f));
  if (ImGui::InputScalar("N", ImGuiDataType_U64, &n, nullptr, nullptr, "%llu")) dbg.set_step_size(n);
  item_tooltip("expansions per >> step (F11)");
  same_line_if_fits(tools::kMinFieldWidth + ImGui::CalcTextSize("speed").x);
  double speed = dbg.speed();
  const double lo = SearchDebugger::kMinSpeed, hi = SearchDebugger::kMaxSpeed;
  if (ImGui::SliderScalar(fit_field("speed").c_str(), ImGuiDataType_Double, &speed, &lo, &hi, "%.0f exp/s",
                          ImGuiSliderFlags_Logarithmic)) {
    dbg.set_speed(speed);
  }
  item_tooltip("expansions per second while running");

  const std::uint64_t total = dbg.total_steps();
  if (total == 0) {
    ImGui::TextDisabled("no expansions to replay");
    return;
  }
  std::uint64_t k = dbg.step();
  const std::uint64_t zero = 0;
  char fmt[64];
  std::snprintf(fmt, sizeof fmt, "step %%llu / %llu", ull(total));
  ImGui::SetNextItemWidth(-FLT_MIN);
  if (ImGui::SliderScalar("##timeline", ImGuiDataType_U64, &k, &zero, &total, fmt)) dbg.seek(k);
  probe.last_item("timeline");
  item_tooltip("drag to scrub the recorded search back and forth");
}

void breakpoint_widgets(SearchDebugger& dbg) {
  // Breakpoints name a node of any planner: picked on the map (its cell, polygon or
  // point, as the planner declares it), with F9 under the mouse, or from the open list.
  const bool armed = dbg.breakpoint_pick_armed();
  if (armed) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
  if (ImGui::Button(armed ? "click a node..." : "pick on map")) dbg.arm_breakpoint_pick(!armed);
  if (armed) ImGui::PopStyleColor();
  item_tooltip(
      "then click a node on the map to break when it is expanded (F9 toggles one at the node under the "
      "mouse; "
      "right-click a row of the open list, too)");
  same_line_if_fits(button_width("clear"));
  if (ImGui::Button("clear")) dbg.set_breakpoint(std::nullopt);
  item_tooltip("remove the breakpoint");
  same_line_if_fits(button_width("run to break"));
  ImGui::BeginDisabled(!dbg.breakpoint());
  if (ImGui::Button("run to break")) dbg.run_to_breakpoint();
  ImGui::EndDisabled();
  item_tooltip("jump to the step that expands the breakpoint's node (F8)");
  if (const auto node = dbg.breakpoint()) {
    if (const auto at = dbg.breakpoint_step()) {
      ImGui::TextDisabled("break at %s: expanded at step %llu", dbg.node_label(*node).c_str(), ull(*at));
    } else {
      ImGui::TextDisabled("break at %s: never expanded in this search", dbg.node_label(*node).c_str());
    }
  }
}

// Opens (or closes) the planner comparison's view, which runs the comparison.
void compare_button(SearchDebugger& dbg, EditorState& state) {
  const bool open = state.show_comparison;
  if (open) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
  const bool pressed = ImGui::Button("compare planners");
  if (open) ImGui::PopStyleColor();
  state.probe.last_item("compare_planners");
  item_tooltip(
      "run every registered planner with its default parameters on the active query: a table across the "
      "bottom of the window and every path on the map in its colour (View > Compare planners)");
  if (pressed) {
    state.show_comparison = !open;
    if (state.show_comparison) dbg.compare_planners();
  }
  // Every query's path at once: the all_paths layer, also in the Layers list.
  bool all = state.layers.contains(render::Layer::AllPaths);
  same_line_if_fits(ImGui::GetFrameHeight() + ImGui::CalcTextSize("all paths").x +
                    ImGui::GetStyle().ItemInnerSpacing.x);
  if (ImGui::Checkbox("all paths", &all)) state.layers.set(render::Layer::AllPaths, all);
  item_tooltip("draw every query's path, not only the active one's (layer all_paths)");
}

// [SECTION] Where the search stands, and the stats ------------------------------------

// "running, step 12 of 340" while scrubbing, the final status at the end, and the answer.
void status_line(const SearchDebugger& dbg) {
  if (dbg.searching()) {
    ImGui::Text("searching with %s...", dbg.active_planner().c_str());
    return;
  }
  const PathResult* r = dbg.result();
  if (!r) return;
  const SearchStatus at = dbg.status_at_step();
  const ImVec4 color = at == SearchStatus::Running ? kWarningColor
                       : at == SearchStatus::Found ? ImGui::GetStyleColorVec4(ImGuiCol_Text)
                                                   : kErrorColor;
  ImGui::TextDisabled("status");
  ImGui::SameLine();
  ImGui::TextColored(color, "%s", dbg.step_status().c_str());
  item_tooltip("where the search stands at the step shown; the final status at the last step");
  if (r->status == SearchStatus::Found) {
    const bool final = at != SearchStatus::Running;
    char line[160];
    std::snprintf(line, sizeof line, "%s length %.3f m, cost %.3f, %llu expanded",
                  final ? "path:" : "at the end:", r->length, r->cost, ull(r->stats.expansions));
    if (final) {
      ImGui::TextWrapped("%s", line);
    } else {
      ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
      ImGui::TextWrapped("%s", line);
      ImGui::PopStyleColor();
    }
  } else if (!r->message.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, kErrorColor);
    ImGui::TextWrapped("%s", r->message.c_str());
    ImGui::PopStyleColor();
  }
}

// One "name  value" row of the stats table.
template <typename... Args>
void stat_row(const char* name, const char* fmt, Args... args) {
  ImGui::TableNextRow();
  ImGui::TableSetColumnIndex(0);
  ImGui::TextDisabled("%s", name);
  ImGui::TableSetColumnIndex(1);
  ImGui::TextWrapped(fmt, args...);
}

void stats_table(const SearchDebugger& dbg, const Query& q) {
  const PathResult* r = dbg.result();
  if (dbg.searching()) {
    ImGui::Text("searching with %s...", dbg.active_planner().c_str());
    return;
  }
  if (!r) {
    ImGui::TextDisabled("no search recorded");
    return;
  }
  const ImGuiTableFlags flags =
      ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg;
  if (!ImGui::BeginTable("stats", 2, flags, ImVec2(0, tab_height()))) return;
  ImGui::TableSetupColumn("name", ImGuiTableColumnFlags_WidthFixed);
  ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch);
  stat_row("planner", "%s", dbg.active_planner().c_str());
  stat_row("status", "%s", dbg.step_status().c_str());
  stat_row("final", "%s", to_string(r->status));
  if (r->status == SearchStatus::Found) {
    stat_row("length", "%.3f m", r->length);
    stat_row("cost", "%.3f", r->cost);
  }
  if (q.expected_length) stat_row("expected", "%.3f m", *q.expected_length);
  stat_row("expansions", "%llu", ull(r->stats.expansions));
  stat_row("pushes", "%llu", ull(r->stats.pushes));
  for (const auto& [name, value] : r->stats.extra) stat_row(name.c_str(), "%g", value);
  stat_row("search", "%.0f us (traced)", dbg.active_micros());
  stat_row("re-plan", "%.2f ms", dbg.last_plan_ms());
  item_tooltip(
      "computing time of the last edit's re-plan: the world update, the traced search and every "
      "query whose answer could change (the others keep theirs)");
  if (const SearchTrace* t = dbg.trace()) {
    stat_row("trace", "%llu events, %.1f MB", ull(t->events().size()), t->memory_bytes() / 1048576.0);
  }
  const render::StructurePaintStats& shown = dbg.last_structure();
  if (shown.cells + shown.edges + shown.shapes > 0) {
    stat_row("structure", "%zu cells, %zu edges, %zu shapes%s", shown.cells, shown.edges, shown.shapes,
             shown.truncated ? " (limit: zoom in)" : "");
    item_tooltip(
        "the planner's structure drawn in the view (layers planner_cells, planner_edges, planner_aux); "
        "at most a set number of primitives per frame");
  }
  if (!r->message.empty()) stat_row("message", "%s", r->message.c_str());
  ImGui::EndTable();
}

// [SECTION] Open list table ----------------------------------------------------------

void open_list_table(SearchDebugger& dbg, EditorState& state) {
  const std::vector<TraceNode>& open = dbg.open_nodes();
  ImGui::TextDisabled("%zu open at step %llu, by f then h", open.size(), ull(dbg.step()));
  // Fixed-fit columns keep every header whole; a narrow column scrolls sideways.
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV |
                                ImGuiTableFlags_ScrollY | ImGuiTableFlags_ScrollX |
                                ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_Resizable;
  if (!ImGui::BeginTable("open_list", 6, flags, ImVec2(0, tab_height()))) return;
  ImGui::TableSetupScrollFreeze(1, 1);
  ImGui::TableSetupColumn("#");
  ImGui::TableSetupColumn("node");
  ImGui::TableSetupColumn("g");
  ImGui::TableSetupColumn("h");
  ImGui::TableSetupColumn("f");
  ImGui::TableSetupColumn("parent");
  ImGui::TableHeadersRow();
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(std::min<std::size_t>(open.size(), std::numeric_limits<int>::max())));
  while (clipper.Step()) {
    for (int row = clipper.DisplayStart; row < clipper.DisplayEnd; ++row) {
      const TraceNode& n = open[static_cast<std::size_t>(row)];
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      ImGui::PushID(row);
      char label[32];
      std::snprintf(label, sizeof label, "%d%s", row, n.side ? " b" : "");
      if (ImGui::Selectable(label, dbg.breakpoint() == n.node, ImGuiSelectableFlags_SpanAllColumns)) {
        if (const auto p = dbg.node_position(n.node)) state.camera.set_center(*p);
      }
      if (ImGui::BeginPopupContextItem("row_menu")) {
        if (ImGui::MenuItem("break when expanded")) dbg.set_breakpoint(n.node);
        if (ImGui::MenuItem("centre the view")) {
          if (const auto p = dbg.node_position(n.node)) state.camera.set_center(*p);
        }
        ImGui::EndPopup();
      }
      ImGui::PopID();
      ImGui::TableSetColumnIndex(1);
      ImGui::TextUnformatted(dbg.node_label(n.node).c_str());
      ImGui::TableSetColumnIndex(2);
      ImGui::Text("%.2f", n.g);
      ImGui::TableSetColumnIndex(3);
      ImGui::Text("%.2f", n.h);
      ImGui::TableSetColumnIndex(4);
      ImGui::Text("%.2f", n.f());
      ImGui::TableSetColumnIndex(5);
      ImGui::TextUnformatted(dbg.node_label(n.parent).c_str());
    }
  }
  ImGui::EndTable();
}

// [SECTION] Per-query results --------------------------------------------------------

void query_table(const SearchDebugger& dbg, EditorState& state) {
  const std::vector<QueryOutcome>& rows = dbg.query_results();
  const Scenario& s = state.doc->scenario();
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV |
                                ImGuiTableFlags_ScrollY | ImGuiTableFlags_ScrollX |
                                ImGuiTableFlags_SizingFixedFit;
  if (!ImGui::BeginTable("queries", 7, flags, ImVec2(0, tab_height()))) return;
  ImGui::TableSetupScrollFreeze(1, 1);
  for (const char* name : {"query", "planner", "status", "length", "cost", "expansions", "us"}) {
    ImGui::TableSetupColumn(name);
  }
  ImGui::TableHeadersRow();
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(rows.size()));
  while (clipper.Step()) {
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      const std::size_t index = static_cast<std::size_t>(i);
      const QueryOutcome& o = rows[index];
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      ImGui::PushID(i);
      const std::string label = index < s.queries.size()
                                    ? tools::query_label(s, index)
                                    : "query " + std::to_string(tools::query_number(index));
      if (ImGui::Selectable(label.c_str(), dbg.active_query() == index,
                            ImGuiSelectableFlags_SpanAllColumns)) {
        state.active_query = index;
      }
      if (!o.message.empty()) item_tooltip(o.message.c_str());
      ImGui::PopID();
      ImGui::TableSetColumnIndex(1);
      ImGui::TextUnformatted(o.planner.c_str());
      ImGui::TableSetColumnIndex(2);
      ImGui::TextUnformatted(o.status == SearchStatus::Idle ? "planning..." : to_string(o.status));
      ImGui::TableSetColumnIndex(3);
      if (o.status == SearchStatus::Found) ImGui::Text("%.3f", o.length);
      ImGui::TableSetColumnIndex(4);
      if (o.status == SearchStatus::Found) ImGui::Text("%.3f", o.cost);
      ImGui::TableSetColumnIndex(5);
      ImGui::Text("%llu", ull(o.expansions));
      ImGui::TableSetColumnIndex(6);
      ImGui::Text("%.0f%s", o.micros, o.traced ? "*" : "");
      if (o.traced) item_tooltip("* timed with the trace recording attached");
    }
  }
  ImGui::EndTable();
}

}  // namespace

// [SECTION] The panel ------------------------------------------------------------------

void debugger_panel(SearchDebugger& dbg, EditorState& state) {
  if (!state.doc) {
    ImGui::TextDisabled("no document open");
    return;
  }
  dbg.sync(state);
  const Scenario& s = state.doc->scenario();
  if (s.queries.empty()) {
    ImGui::TextWrapped("No queries in this scenario: add one with the query tool.");
    return;
  }
  query_combo(state);
  planner_widgets(dbg, state);
  dbg.sync(state);  // show this frame what the widgets above asked for
  if (!dbg.error().empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, kErrorColor);
    ImGui::TextWrapped("%s", dbg.error().c_str());
    ImGui::PopStyleColor();
  }

  ImGui::Separator();
  control_widgets(dbg, state.probe);
  status_line(dbg);
  breakpoint_widgets(dbg);
  compare_button(dbg, state);

  // The rest of the height goes to one tab at a time.
  ImGui::Separator();
  if (!ImGui::BeginTabBar("debugger_tabs")) return;
  if (ImGui::BeginTabItem("Open list")) {
    open_list_table(dbg, state);
    ImGui::EndTabItem();
  }
  if (ImGui::BeginTabItem("Queries")) {
    query_table(dbg, state);
    ImGui::EndTabItem();
  }
  if (ImGui::BeginTabItem("Stats")) {
    stats_table(dbg, s.queries[std::min(state.active_query, s.queries.size() - 1)]);
    ImGui::EndTabItem();
  }
  ImGui::EndTabBar();
}

void debugger_shortcuts(SearchDebugger& dbg, std::optional<Vec2> hover_world) {
  const ImGuiIO& io = ImGui::GetIO();
  if (io.WantTextInput || io.KeyCtrl || io.KeyAlt) return;
  // The SDL backend indexes ImGui's key state by SDL scancode.
  auto pressed = [](SDL_Scancode key, bool repeat) { return ImGui::IsKeyPressed(key, repeat); };
  if (pressed(SDL_SCANCODE_F5, false)) dbg.play(!dbg.playing());
  if (pressed(SDL_SCANCODE_F6, false)) dbg.reset();
  if (pressed(SDL_SCANCODE_F10, true)) io.KeyShift ? dbg.step_back(1) : dbg.step(1);
  if (pressed(SDL_SCANCODE_F11, true))
    io.KeyShift ? dbg.step_back(dbg.step_size()) : dbg.step(dbg.step_size());
  if (pressed(SDL_SCANCODE_F8, false)) dbg.run_to_breakpoint();
  if (pressed(SDL_SCANCODE_F7, false)) dbg.seek(dbg.total_steps());
  if (pressed(SDL_SCANCODE_F9, false) && hover_world) {
    const std::optional<NodeId> node = dbg.node_at(*hover_world);
    dbg.set_breakpoint(node == dbg.breakpoint() ? std::nullopt : node);
  }
}

// [SECTION] Hover tooltip ------------------------------------------------------------

void debugger_hover_tooltip(const SearchDebugger& dbg, Vec2 world) {
  const std::optional<NodeId> node = dbg.node_at(world);
  if (!node) return;
  ImGui::BeginTooltip();
  ImGui::TextUnformatted(dbg.describe_node(*node).c_str());
  ImGui::EndTooltip();
}

}  // namespace pathscope::app
