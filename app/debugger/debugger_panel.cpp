// The debugger window's widgets. Sections:
//  [SECTION] Query and planner choice (registry-driven: parameter sliders from ParamSpec)
//  [SECTION] Controls (buttons, speed, timeline, breakpoint) and shortcuts
//  [SECTION] Stats
//  [SECTION] Open list table (clipped, so 100k rows cost only the visible ones)
//  [SECTION] Per-query results and planner comparison
//  [SECTION] Hover tooltip

#include "app/debugger/debugger_panel.hpp"

#include "planner/core/planner_registry.hpp"

#include <SDL.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace pathscope::app {
namespace {

const ImVec4 kErrorColor(1.0f, 0.4f, 0.4f, 1.0f);

void tooltip(const char* text) {
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", text);
}

unsigned long long ull(std::uint64_t v) { return static_cast<unsigned long long>(v); }

// [SECTION] Query and planner choice ------------------------------------------------

std::string query_label(const Scenario& s, std::size_t i) {
  const Query& q = s.queries[i];
  std::string label = std::to_string(i);
  if (!q.name.empty()) label += ": " + q.name;
  label += " (" + q.planner;
  if (q.movement_class < s.classes.size()) label += ", " + s.classes[q.movement_class].name;
  return label + ")";
}

void query_combo(EditorState& state) {
  const Scenario& s = state.doc->scenario();
  const std::size_t current = std::min(state.active_query, s.queries.size() - 1);
  if (ImGui::BeginCombo("query", query_label(s, current).c_str())) {
    for (std::size_t i = 0; i < s.queries.size(); ++i) {
      ImGui::PushID(static_cast<int>(i));
      if (ImGui::Selectable(query_label(s, i).c_str(), i == current)) state.active_query = i;
      ImGui::PopID();
    }
    ImGui::EndCombo();
  }
}

void planner_widgets(SearchDebugger& dbg, const EditorState& state) {
  const Scenario& s = state.doc->scenario();
  const Query& q = s.queries[std::min(state.active_query, s.queries.size() - 1)];
  const std::string own = "(query's own: " + q.planner + ")";
  const std::string& chosen = dbg.planner_override();
  if (ImGui::BeginCombo("planner", chosen.empty() ? own.c_str() : chosen.c_str())) {
    if (ImGui::Selectable(own.c_str(), chosen.empty())) dbg.clear_planner_override();
    for (const PlannerInfo& p : planner_registry()) {
      if (ImGui::Selectable(p.name.c_str(), p.name == chosen)) {
        ParamValues defaults;
        for (const ParamSpec& spec : p.params) defaults.push_back(spec.default_value);
        dbg.set_planner_override(p.name, defaults);
      }
      tooltip(p.summary.c_str());
    }
    ImGui::EndCombo();
  }
  // Parameter sliders of the planner in use; moving one overrides the query's values.
  const PlannerInfo* info = find_planner(dbg.active_planner());
  if (!info || info->params.empty()) return;
  ParamValues values = dbg.active_params();
  values.resize(info->params.size(), 0.0);
  bool changed = false;
  for (std::size_t i = 0; i < info->params.size(); ++i) {
    const ParamSpec& spec = info->params[i];
    const bool log_scale = spec.min_value > 0 && spec.max_value >= 100 * spec.min_value;
    changed |= ImGui::SliderScalar(spec.name.c_str(), ImGuiDataType_Double, &values[i], &spec.min_value,
                                   &spec.max_value, "%.3g",
                                   log_scale ? ImGuiSliderFlags_Logarithmic : ImGuiSliderFlags_None);
    tooltip(spec.description.c_str());
  }
  if (changed) dbg.set_planner_override(info->name, values);
  if (!chosen.empty() && chosen == q.planner) {
    ImGui::SameLine();
    if (ImGui::SmallButton("revert")) dbg.clear_planner_override();
    tooltip("use the query's own parameters again");
  }
}

// [SECTION] Controls ---------------------------------------------------------------

void control_widgets(SearchDebugger& dbg) {
  if (ImGui::Button("|<")) dbg.reset();
  tooltip("reset to step 0 (F6)");
  ImGui::SameLine();
  if (ImGui::Button("<")) dbg.step_back(1);
  tooltip("one expansion back (Shift+F10; Shift+F11: N back)");
  ImGui::SameLine();
  if (ImGui::Button(">")) dbg.step(1);
  tooltip("one expansion (F10)");
  ImGui::SameLine();
  if (ImGui::Button(">>")) dbg.step(dbg.step_size());
  tooltip("N expansions (F11)");
  ImGui::SameLine();
  if (ImGui::Button(dbg.playing() ? "pause" : "run ")) dbg.play(!dbg.playing());
  tooltip("play the search at the speed below; stops at the end or at the breakpoint (F5)");
  ImGui::SameLine();
  if (ImGui::Button(">|")) dbg.seek(dbg.total_steps());
  tooltip("to the end: the finished search (F7)");
  ImGui::SameLine();
  std::uint64_t n = dbg.step_size();
  const std::uint64_t one = 1, hundred = 100;
  ImGui::SetNextItemWidth(90);
  if (ImGui::InputScalar("N", ImGuiDataType_U64, &n, &one, &hundred, "%llu")) dbg.set_step_size(n);
  tooltip("expansions per >> step");

  double speed = dbg.speed();
  const double lo = SearchDebugger::kMinSpeed, hi = SearchDebugger::kMaxSpeed;
  if (ImGui::SliderScalar("speed", ImGuiDataType_Double, &speed, &lo, &hi, "%.0f exp/s",
                          ImGuiSliderFlags_Logarithmic)) {
    dbg.set_speed(speed);
  }
  tooltip("expansions per second while running");

  const std::uint64_t total = dbg.total_steps();
  if (total == 0) {
    ImGui::TextDisabled("no expansions to replay");
    return;
  }
  std::uint64_t k = dbg.step();
  const std::uint64_t zero = 0;
  char fmt[64];
  std::snprintf(fmt, sizeof fmt, "step %%llu / %llu", ull(total));
  ImGui::SetNextItemWidth(-1);
  if (ImGui::SliderScalar("##timeline", ImGuiDataType_U64, &k, &zero, &total, fmt)) dbg.seek(k);
  tooltip("drag to scrub the recorded search back and forth");
}

void breakpoint_widgets(SearchDebugger& dbg, const EditorState& state) {
  (void)state;
  // Breakpoints name a node of any planner: picked on the map (its cell, polygon or
  // point, as the planner declares it), with F9 under the mouse, or from the open list.
  const bool armed = dbg.breakpoint_pick_armed();
  if (armed) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
  if (ImGui::Button(armed ? "click a node..." : "pick on map")) dbg.arm_breakpoint_pick(!armed);
  if (armed) ImGui::PopStyleColor();
  tooltip(
      "then click a node on the map to break when it is expanded (F9 toggles one at the node under the mouse; "
      "right-click a row of the open list, too)");
  ImGui::SameLine();
  if (ImGui::Button("clear")) dbg.set_breakpoint(std::nullopt);
  ImGui::SameLine();
  ImGui::BeginDisabled(!dbg.breakpoint());
  if (ImGui::Button("run to break")) dbg.run_to_breakpoint();
  ImGui::EndDisabled();
  tooltip("jump to the step that expands the breakpoint's node (F8)");
  if (const auto node = dbg.breakpoint()) {
    if (const auto at = dbg.breakpoint_step()) {
      ImGui::TextDisabled("break at %s: expanded at step %llu", dbg.node_label(*node).c_str(), ull(*at));
    } else {
      ImGui::TextDisabled("break at %s: never expanded in this search", dbg.node_label(*node).c_str());
    }
  }
}

// [SECTION] Stats ------------------------------------------------------------------

// One "name  value" row of the stats table.
template <typename... Args>
void stat_row(const char* name, const char* fmt, Args... args) {
  ImGui::TableNextRow();
  ImGui::TableSetColumnIndex(0);
  ImGui::TextDisabled("%s", name);
  ImGui::TableSetColumnIndex(1);
  ImGui::Text(fmt, args...);
}

void stats_widgets(const SearchDebugger& dbg, const Query& q) {
  const PathResult* r = dbg.result();
  if (dbg.searching()) {
    ImGui::Text("searching with %s...", dbg.active_planner().c_str());
    return;
  }
  if (!r) return;
  if (!ImGui::BeginTable("stats", 2, ImGuiTableFlags_SizingFixedFit)) return;
  stat_row("planner", "%s", dbg.active_planner().c_str());
  stat_row("status", "%s", to_string(r->status));
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
  tooltip("computing time of the last edit's re-plan: the world update, the traced search and every "
          "query whose answer could change (the others keep theirs)");
  if (const SearchTrace* t = dbg.trace()) {
    stat_row("trace", "%llu events, %.1f MB", ull(t->events().size()), t->memory_bytes() / 1048576.0);
  }
  const render::StructurePaintStats& shown = dbg.last_structure();
  if (shown.cells + shown.edges + shown.shapes > 0) {
    stat_row("structure", "%zu cells, %zu edges, %zu shapes%s", shown.cells, shown.edges, shown.shapes,
             shown.truncated ? " (limit: zoom in)" : "");
    tooltip("the planner's structure drawn in the view (layers planner_cells, planner_edges, planner_aux); "
            "at most a set number of primitives per frame");
  }
  ImGui::EndTable();
  if (!r->message.empty()) ImGui::TextWrapped("%s", r->message.c_str());
}

// [SECTION] Open list table ----------------------------------------------------------

void open_list_table(SearchDebugger& dbg, EditorState& state) {
  const std::vector<TraceNode>& open = dbg.open_nodes();
  ImGui::Text("%zu open at step %llu (sorted by f, then h)", open.size(), ull(dbg.step()));
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV |
                                ImGuiTableFlags_ScrollY | ImGuiTableFlags_SizingFixedFit |
                                ImGuiTableFlags_Resizable;
  if (!ImGui::BeginTable("open_list", 6, flags, ImVec2(0, 240))) return;
  ImGui::TableSetupScrollFreeze(0, 1);
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
      ImGui::Text("%.3f", n.g);
      ImGui::TableSetColumnIndex(3);
      ImGui::Text("%.3f", n.h);
      ImGui::TableSetColumnIndex(4);
      ImGui::Text("%.3f", n.f());
      ImGui::TableSetColumnIndex(5);
      ImGui::TextUnformatted(dbg.node_label(n.parent).c_str());
    }
  }
  ImGui::EndTable();
}

// [SECTION] Per-query results and planner comparison ---------------------------------

void query_table(const SearchDebugger& dbg, EditorState& state) {
  const std::vector<QueryOutcome>& rows = dbg.query_results();
  const Scenario& s = state.doc->scenario();
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV |
                                ImGuiTableFlags_ScrollY | ImGuiTableFlags_ScrollX |
                                ImGuiTableFlags_SizingFixedFit;
  if (!ImGui::BeginTable("queries", 7, flags, ImVec2(0, std::min(200.0f, 24.0f + 20.0f * rows.size()))))
    return;
  ImGui::TableSetupScrollFreeze(1, 1);
  for (const char* name : {"query", "planner", "status", "length", "cost", "expansions", "us"}) {
    ImGui::TableSetupColumn(name);
  }
  ImGui::TableHeadersRow();
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(rows.size()));
  while (clipper.Step()) {
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      const QueryOutcome& o = rows[static_cast<std::size_t>(i)];
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      ImGui::PushID(i);
      const std::string label = static_cast<std::size_t>(i) < s.queries.size() && !s.queries[i].name.empty()
                                    ? std::to_string(i) + ": " + s.queries[i].name
                                    : std::to_string(i);
      if (ImGui::Selectable(label.c_str(), dbg.active_query() == static_cast<std::size_t>(i),
                            ImGuiSelectableFlags_SpanAllColumns)) {
        state.active_query = static_cast<std::size_t>(i);
      }
      if (!o.message.empty()) tooltip(o.message.c_str());
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
      if (o.traced) tooltip("* timed with the trace recording attached");
    }
  }
  ImGui::EndTable();
}

void compare_widgets(SearchDebugger& dbg) {
  if (ImGui::Button("compare planners")) dbg.compare_planners();
  tooltip("run every registered planner with its default parameters on the active query");
  const std::vector<ComparisonRow>& rows = dbg.last_comparison();
  if (rows.empty()) return;
  // Exact planners must agree on the cost; a disagreement is shown in red.
  double best_exact = std::numeric_limits<double>::infinity();
  std::uint64_t most = 1;
  for (const ComparisonRow& r : rows) {
    if (r.exact && r.status == SearchStatus::Found) best_exact = std::min(best_exact, r.cost);
    most = std::max(most, r.expansions);
  }
  const ImGuiTableFlags flags =
      ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingFixedFit;
  if (ImGui::BeginTable("compare", 6, flags)) {
    for (const char* name : {"planner", "status", "length", "cost", "expansions", "us"})
      ImGui::TableSetupColumn(name);
    ImGui::TableHeadersRow();
    for (const ComparisonRow& r : rows) {
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      ImGui::Text("%s%s", r.name.c_str(), r.exact ? "" : " ~");
      if (!r.message.empty()) tooltip(r.message.c_str());
      ImGui::TableSetColumnIndex(1);
      ImGui::TextUnformatted(to_string(r.status));
      ImGui::TableSetColumnIndex(2);
      if (r.status == SearchStatus::Found) ImGui::Text("%.3f", r.length);
      ImGui::TableSetColumnIndex(3);
      if (r.status == SearchStatus::Found) {
        // Equal-cost paths may sum their moves in another order: allow rounding.
        const bool wrong = r.exact && std::isfinite(best_exact) &&
                           std::abs(r.cost - best_exact) > 1e-9 * std::max(1.0, best_exact);
        if (wrong) {
          ImGui::TextColored(kErrorColor, "%.3f", r.cost);
          tooltip("an exact planner disagrees with the best exact cost");
        } else {
          ImGui::Text("%.3f", r.cost);
        }
      }
      ImGui::TableSetColumnIndex(4);
      ImGui::Text("%llu", ull(r.expansions));
      ImGui::TableSetColumnIndex(5);
      ImGui::Text("%.0f", r.micros);
    }
    ImGui::EndTable();
  }
  ImGui::TextDisabled("expansions (~ = not exact)");
  for (const ComparisonRow& r : rows) {
    char overlay[96];
    std::snprintf(overlay, sizeof overlay, "%s  %llu", r.name.c_str(), ull(r.expansions));
    ImGui::ProgressBar(static_cast<float>(double(r.expansions) / double(most)), ImVec2(-1, 0), overlay);
  }
}

}  // namespace

void debugger_panel(SearchDebugger& dbg, EditorState& state) {
  if (!state.doc) {
    ImGui::TextDisabled("no document open");
    return;
  }
  dbg.sync(state);
  const Scenario& s = state.doc->scenario();
  if (s.queries.empty()) {
    ImGui::TextDisabled("no queries in this scenario: add one with the query tool");
    return;
  }
  query_combo(state);
  planner_widgets(dbg, state);
  dbg.sync(state);  // show this frame what the widgets above asked for
  if (!dbg.error().empty()) ImGui::TextColored(kErrorColor, "%s", dbg.error().c_str());

  ImGui::Separator();
  control_widgets(dbg);
  breakpoint_widgets(dbg, state);

  ImGui::Separator();
  stats_widgets(dbg, s.queries[std::min(state.active_query, s.queries.size() - 1)]);

  if (ImGui::CollapsingHeader("open list", ImGuiTreeNodeFlags_DefaultOpen)) open_list_table(dbg, state);
  if (ImGui::CollapsingHeader("all queries")) query_table(dbg, state);
  if (ImGui::CollapsingHeader("compare planners")) compare_widgets(dbg);
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
