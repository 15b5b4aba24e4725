// The simulation panel. Buttons are recorded in the UI probe (sim_play, sim_step,
// sim_reset, sim_close, the settings' node sim_settings and its checkbox
// sim_passages_setting, the DetourCrowd combo sim_crowd_mode and its entries) for the
// window tests.

#include "app/sim/sim_panel.hpp"

#include <imgui.h>

#include "app/editor/inspector_fields.hpp"
#include "render/sim/crowd_painter.hpp"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

namespace pathscope::app {
namespace {

// Units of the scenario with an order to carry out (their own or their group's).
std::size_t ordered_units(const Scenario& s) {
  std::size_t n = 0;
  for (const Unit& u : s.units) {
    bool ordered = u.order.kind != OrderKind::None;
    for (const UnitGroup& g : s.groups) {
      if (g.order.kind != OrderKind::None &&
          std::find(g.units.begin(), g.units.end(), u.id) != g.units.end()) {
        ordered = true;
      }
    }
    n += ordered ? 1 : 0;
  }
  return n;
}

void controls(SimPlayer& sim, EditorState& state) {
  const float quarter = (ImGui::GetContentRegionAvail().x - 3 * ImGui::GetStyle().ItemSpacing.x) / 4;
  if (ImGui::Button(sim.playing() ? "Pause##sim" : "Play##sim", ImVec2(quarter, 0))) {
    if (sim.playing()) {
      sim.pause();
    } else {
      sim.play(state);
    }
  }
  state.probe.last_item("sim_play");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Run the unit simulation (built from the scenario if not yet)");
  ImGui::SameLine();
  if (ImGui::Button("Step##sim", ImVec2(quarter, 0))) sim.step(state);
  state.probe.last_item("sim_step");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("One fixed step of the scenario's dt");
  ImGui::SameLine();
  if (ImGui::Button("Reset##sim", ImVec2(quarter, 0))) sim.reset(state);
  state.probe.last_item("sim_reset");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Build the simulation afresh from the scenario, paused");
  ImGui::SameLine();
  ImGui::BeginDisabled(sim.simulation() == nullptr);
  if (ImGui::Button("Close##sim", ImVec2(quarter, 0))) sim.stop();
  state.probe.last_item("sim_close");
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
    ImGui::SetTooltip("Discard the simulation: the scenario's units show again, as edited");
  }
  ImGui::EndDisabled();
  float speed = float(sim.speed());
  ImGui::SetNextItemWidth(-1);
  if (ImGui::SliderFloat("##sim_speed", &speed, float(SimPlayer::kMinSpeed), float(SimPlayer::kMaxSpeed),
                         "speed %.2fx", ImGuiSliderFlags_Logarithmic)) {
    sim.set_speed(speed);
  }
}

// Which run the window shows (ours, DetourCrowd's, both), the legend and the crowd's
// figures by its referee. The combo and its entries are recorded in the UI probe
// (sim_crowd_mode, sim_crowd_mode_<ours|detour|both>) for the window test.
void crowd_section(SimPlayer& sim, EditorState& state) {
  static constexpr const char* kModes[] = {"ours", "DetourCrowd", "both side by side"};
  static constexpr const char* kProbe[] = {"sim_crowd_mode_ours", "sim_crowd_mode_detour",
                                           "sim_crowd_mode_both"};
  const int current = static_cast<int>(sim.crowd_mode());
  ImGui::SetNextItemWidth(-1);
  const bool open = ImGui::BeginCombo("##sim_crowd", (std::string("units: ") + kModes[current]).c_str());
  state.probe.last_item("sim_crowd_mode");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "Run the scenario's units under DetourCrowd (Recast/Detour's crowd) as well: two runs, the same\n"
        "orders, stepped together. Turning it on resets the run so that both start from the scenario.");
  if (open) {
    for (int m = 0; m < 3; ++m) {
      if (ImGui::Selectable(kModes[m], m == current) && m != current)
        (void)sim.set_crowd_mode(static_cast<SimPlayer::CrowdMode>(m), state);
      state.probe.last_item(kProbe[m]);
    }
    ImGui::EndCombo();
  }
  if (sim.crowd_mode() == SimPlayer::CrowdMode::Ours) return;
  const auto swatch = [](Color c) {
    ImGui::ColorButton("##swatch", ImVec4(c.r / 255.f, c.g / 255.f, c.b / 255.f, 1.f),
                       ImGuiColorEditFlags_NoTooltip | ImGuiColorEditFlags_NoDragDrop,
                       ImVec2(ImGui::GetTextLineHeight(), ImGui::GetTextLineHeight()));
    ImGui::SameLine();
  };
  swatch(render::crowd_palette::kAgent);
  ImGui::TextUnformatted(sim.crowd_mode() == SimPlayer::CrowdMode::Both
                             ? "DetourCrowd's agents: rings over ours"
                             : "DetourCrowd's agents (ours hidden)");
  const CrowdRun* crowd = sim.crowd();
  if (!crowd) {
    if (!sim.crowd_note().empty()) {
      ImGui::TextWrapped("DetourCrowd stopped: %s. Reset starts both again.", sim.crowd_note().c_str());
    } else {
      ImGui::TextDisabled("DetourCrowd starts with the run (Play, Step or Reset).");
    }
    return;
  }
  const CrowdCounts& c = crowd->counts();
  const CrowdGoals g = crowd->goals();
  ImGui::Text("DetourCrowd: step %" PRIu64 "   agents %zu   moved %zu", crowd->steps(),
              crowd->agents().size(), crowd->moved(0.5));
  ImGui::Text("arrived %zu / %zu ordered (%.1f%%, within %.2f m)", g.at_goal, g.ordered, g.at_goal_pct,
              g.tolerance_m);
  ImGui::Text("overlapping pairs %" PRIu64 " (max %.3f m)", c.hard_overlaps, c.max_overlap_m);
  ImGui::Text("tunnelled %" PRIu64 "   inside walls %" PRIu64 "   jumps %" PRIu64, c.tunnelled,
              c.inside_walls, c.jumps);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "Checked after every step by the crowd referee (planner/navmesh/crowd_referee.hpp), which shares no\n"
        "code with DetourCrowd: all pairs of circles, each move against closed cells, moves longer than the\n"
        "speed allows (jumps), goal errors");
  if (!sim.crowd_shown()) ImGui::TextDisabled("(not drawn while a recorded step is shown)");
}

// What the stuck detector counts, for the tooltips of its figures.
void stuck_definition_tooltip(const SimPlayer& sim) {
  if (!ImGui::IsItemHovered()) return;
  const Scenario* s = sim.shown_scenario();
  const SimSettings set = s ? s->sim : SimSettings{};
  ImGui::SetTooltip(
      "Stuck now: units with an order that got less than %.2f m closer to their order point in %.3g s\n"
      "and no closer since (the stuck detector, planner/sim/stuck_detector.hpp; Settings: stuck after,\n"
      "stuck progress). `pathscope simulate` reports the same number at the same step.",
      set.stuck_progress, set.stuck_seconds);
}

// "   stuck now N" after the line before, or that the step shown was not watched.
void stuck_figure(const SimPlayer& sim) {
  ImGui::SameLine(0, 0);
  if (const auto stuck = sim.stuck_shown()) {
    ImGui::Text("   stuck now %zu", stuck->size());
  } else {
    ImGui::TextDisabled("   stuck now ? (not recorded)");
  }
}

// What the timeline shows of a recorded step: its figures from the frame.
void recorded_figures(const SimPlayer& sim) {
  std::size_t alive = 0, arrived = 0;
  for (const sim::SimUnit& u : sim.shown_units()) {
    alive += u.alive ? 1 : 0;
    arrived += u.alive && u.goal.arrived ? 1 : 0;
  }
  ImGui::Text("recorded step %" PRIu64 "   t = %.2f s", sim.shown_step(), sim.shown_time());
  ImGui::Text("units %zu   arrived %zu", alive, arrived);
  stuck_figure(sim);
  stuck_definition_tooltip(sim);
  ImGui::Text("collisions %zu", sim.shown_collisions().size());
  ImGui::Text("hash %016" PRIx64 " %s", sim.shown_hash(),
              sim.shown_verified() ? "(as recorded)" : "(DIFFERS)");
}

void figures(const SimPlayer& sim) {
  const sim::Simulation& s = *sim.simulation();
  const sim::SimReferee& referee = sim.referee();
  const sim::SimCounters& c = s.counters();
  const sim::RefereeCounts& r = referee.counts();
  const sim::GoalErrors goals = referee.goal_errors(s);
  ImGui::Text("step %" PRIu64 "   t = %.2f s   dt %.4g s", s.step_count(), s.time(), s.scenario().sim.dt);
  ImGui::Text("units %zu   arrived %zu / %zu ordered", s.unit_count(), s.arrived_count(), s.ordered_count());
  stuck_figure(sim);
  stuck_definition_tooltip(sim);
  ImGui::Text("collisions now %zu   found %" PRIu64, s.collisions().size(), c.collisions_found);
  // The referee's figures: it shares no code with the step it checks.
  ImGui::Text("overlapping pairs %" PRIu64 " (max %.3f m)   tunnelled %" PRIu64 "   inside walls %" PRIu64,
              r.hard_overlaps, r.max_overlap_m, r.tunnelled, r.inside_walls);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "Checked after every step by the referee (planner/sim/sim_referee.hpp), since the run "
        "was started, restored or taken up again");
  ImGui::Text("at goal %.1f%% (within %.2f m)   goal error max %.2f m", goals.at_goal_pct, goals.tolerance_m,
              goals.max_goal_error_m);
  ImGui::Text("paths %" PRIu64 "   repaths %" PRIu64, c.path_requests, c.repaths);
  ImGui::Text("hash %016" PRIx64, s.state_hash());
}

void selected_units(SimPlayer& sim) {
  const std::size_t n = sim.selected().size();
  if (n == 0) {
    ImGui::TextDisabled("No unit selected (Units tool: click or drag a box).");
    return;
  }
  ImGui::Text("%zu selected", n);
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV |
                                ImGuiTableFlags_ScrollY | ImGuiTableFlags_SizingStretchProp;
  const float rows = float(std::min<std::size_t>(n, 8) + 1);
  if (!ImGui::BeginTable("##sim_selected", 6, flags,
                         ImVec2(0, rows * ImGui::GetTextLineHeightWithSpacing() + 4))) {
    return;
  }
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn("unit");
  ImGui::TableSetupColumn("state");
  ImGui::TableSetupColumn("m/s");
  ImGui::TableSetupColumn("path m");
  ImGui::TableSetupColumn("yield");
  ImGui::TableSetupColumn("coll.");
  ImGui::TableHeadersRow();
  for (const sim::UnitId id : sim.selected()) {
    const sim::SimUnit* u = sim.shown_unit(id);
    if (!u) continue;
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::Text("%u", u->scenario_id);
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(sim::to_string(u->route.state));
    ImGui::TableNextColumn();
    ImGui::Text("%.2f", u->body.speed);
    ImGui::TableNextColumn();
    ImGui::Text("%.1f", remaining_path_length(*u));
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(yield_name(u->coop.yield));
    ImGui::TableNextColumn();
    ImGui::Text("%zu", collision_count(sim.shown_collisions(), id));
  }
  ImGui::EndTable();
}

// The name of platoon `p`'s formation: a built-in shape's, the scenario's formation
// with its offsets, or "custom".
std::string formation_label(const sim::PlatoonRun& p, const Scenario& scenario) {
  if (p.to.shape != sim::FormationShape::Custom) return std::string(sim::formation_shape_name(p.to.shape));
  for (const FormationDef& f : scenario.formations) {
    if (f.offsets == p.to.offsets) return f.name;
  }
  return "custom";
}

const char* platoon_order_name(sim::PlatoonOrderState s) {
  switch (s) {
    case sim::PlatoonOrderState::None: return "none";
    case sim::PlatoonOrderState::WaitingForPath: return "waiting for its path";
    case sim::PlatoonOrderState::Driving: return "driving";
    case sim::PlatoonOrderState::Failed: return "no path";
  }
  return "?";
}

// The platoons one of whose vehicles is selected: their state and formation (a combo
// that changes it, blended over the platoon's formation change time). The first one's
// combo and its entries are recorded in the UI probe (platoon_formation,
// platoon_formation_<name>) for the window test.
void selected_platoons(SimPlayer& sim, EditorState& state) {
  const std::vector<std::uint32_t> groups = sim.selected_platoons();
  const Scenario* scenario = sim.shown_scenario();
  if (groups.empty() || !scenario) return;
  bool first = true;
  for (const std::uint32_t g : groups) {
    const sim::PlatoonRun* p = sim.platoon(g);
    if (!p) continue;
    ImGui::PushID(int(g));
    std::string name = "group " + std::to_string(g);
    for (const UnitGroup& group : scenario->groups) {
      if (group.id == g && !group.name.empty()) name = group.name;
    }
    std::size_t present = 0;
    for (const sim::UnitId id : p->slots) present += sim.shown_unit(id) ? 1 : 0;
    ImGui::Text("Platoon %s: %zu of %zu vehicles", name.c_str(), present, p->slots.size());
    const sim::PlatoonMotion& m = p->motion;
    ImGui::Text("order %s, %s, %.2f m/s", platoon_order_name(p->order),
                std::string(sim::platoon_phase_name(m.phase)).c_str(), m.speed);
    if (p->order == sim::PlatoonOrderState::Driving || m.phase != sim::PlatoonPhase::Idle) {
      ImGui::Text(
          "to (%.1f, %.1f), facing %s", p->goal.x, p->goal.y,
          p->final_heading
              ? (std::to_string(int(std::lround(*p->final_heading * 180 / 3.14159265358979))) + " deg")
                    .c_str()
              : "the path's last way");
    }
    const std::string current = formation_label(*p, *scenario);
    std::vector<std::string> names = {"column", "line", "wedge", "echelon"};
    for (const FormationDef& f : scenario->formations) names.push_back(f.name);
    ImGui::SetNextItemWidth(-1);
    const bool open = ImGui::BeginCombo("##formation", ("formation: " + current).c_str());
    if (first) state.probe.last_item("platoon_formation");
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("The platoon's formation; a change moves each slot over %.3g s",
                        p->params.formation_change_seconds);
    if (open) {
      for (const std::string& n : names) {
        if (ImGui::Selectable(n.c_str(), n == current) && n != current) {
          const Status changed = sim.change_formation(g, n);
          if (!changed.ok()) state.report_error("Formation refused: " + changed.error().to_string());
        }
        if (first) state.probe.last_item(("platoon_formation_" + n).c_str());
      }
      ImGui::EndCombo();
    }
    first = false;
    ImGui::PopID();
  }
}

// The scenario's simulation settings, edited with undo; a running simulation keeps the
// settings it was built with until Reset.
void settings_section(EditorState& state) {
  const bool open = ImGui::TreeNode("Settings##sim");
  state.probe.last_item("sim_settings");
  if (!open) return;
  const SimSettings& set = state.doc->scenario().sim;
  InspectorFields f(state, "simulation settings");
  f.boolean("continuous checks", set.continuous,
            "Move lines (on) or sub-sampled discrete moves (off): a fast unit hops over thin walls and units "
            "with the discrete check",
            [](Scenario& s, bool v) { s.sim.continuous = v; });
  f.boolean("collision prevention", set.prevention,
            "Separate overlapping hard shapes at the end of each step (seed 000)",
            [](Scenario& s, bool v) { s.sim.prevention = v; });
  f.boolean("cooperation", set.cooperation, "Seed 002's resolution rules between units",
            [](Scenario& s, bool v) { s.sim.cooperation = v; });
  f.boolean("narrow passages one way", set.passages,
            "Gaps, doorways and short corridors go one direction of travel at a time",
            [](Scenario& s, bool v) { s.sim.passages = v; });
  state.probe.last_item("sim_passages_setting");
  f.boolean("head-on knots one way", set.knots,
            "Two crowds locked head-on in a street wider than a passage make a passage of the knot while it "
            "lasts (needs narrow passages on)",
            [](Scenario& s, bool v) { s.sim.knots = v; });
  f.boolean("formation goals", set.formation_goals,
            "A move order given to several units sends each to its own slot of a formation round the point; "
            "the column's head takes the farthest",
            [](Scenario& s, bool v) { s.sim.formation_goals = v; });
  f.boolean("detours round units", set.detours,
            "A unit held up by other units for 2 s looks for a way round them, where they stand",
            [](Scenario& s, bool v) { s.sim.detours = v; });
  static constexpr const char* kAvoidance[] = {"none", "potential field", "steering arcs"};
  int mode = static_cast<int>(set.avoidance);
  const bool mode_changed = ImGui::Combo("avoidance", &mode, kAvoidance, IM_ARRAYSIZE(kAvoidance));
  f.choice("avoidance", mode_changed,
           [mode](Scenario& s) { s.sim.avoidance = static_cast<AvoidanceMode>(mode); });
  f.number(
      "dt (s)", set.dt, "Seconds per fixed step", [](Scenario& s, double v) { s.sim.dt = v; }, "%.4f");
  f.number("memory (s)", set.memory_seconds, "How long resolved collisions are remembered",
           [](Scenario& s, double v) { s.sim.memory_seconds = v; });
  f.number("prediction (s)", set.prediction_seconds, "Horizon of predicted positions",
           [](Scenario& s, double v) { s.sim.prediction_seconds = v; });
  f.number(
      "path budget", set.path_budget, "Path requests answered per step",
      [](Scenario& s, double v) { s.sim.path_budget = static_cast<int>(std::lround(v)); }, "%.0f");
  f.number("stuck after (s)", set.stuck_seconds,
           "A unit that gets less than 'stuck progress' closer to its order point in this time is stuck",
           [](Scenario& s, double v) { s.sim.stuck_seconds = v; });
  f.number("stuck progress (m)", set.stuck_progress, "How much closer a unit must get to count as moving",
           [](Scenario& s, double v) { s.sim.stuck_progress = v; });
  f.number("density cost", set.density_cost,
           "Collision density as extra path cost: 0 off; 1 makes the densest cells cost twice as much to "
           "plan through",
           [](Scenario& s, double v) { s.sim.density_cost = v; });
  state.probe.last_item("sim_density_cost_setting");
  f.number("density refresh (s)", set.density_refresh, "Seconds between updates of the density cost",
           [](Scenario& s, double v) { s.sim.density_refresh = v; });
  f.number("density half-life (s)", set.density_half_life,
           "Seconds in which a cell's collision density halves, so that old jams stop costing (0: never)",
           [](Scenario& s, double v) { s.sim.density_half_life = v; });
  ImGui::TextDisabled("Changes apply at Reset.");
  ImGui::TreePop();
}

// The stuck flags of the run: a click selects the unit and shows the moment before it
// got stuck (its last progress). The header counts the units stuck at the step shown, as
// the figures above do; each row says whether its unit is stuck then.
void stuck_units(SimPlayer& sim, EditorState& state) {
  const sim::Recording* rec = sim.recording();
  if (!rec || rec->stuck().empty()) return;
  const auto now = sim.stuck_shown();
  const std::uint64_t shown = sim.shown_step();
  char label[96];
  if (now) {
    std::snprintf(label, sizeof label, "Stuck units: %zu now, %zu flags in the run###sim_stuck", now->size(),
                  rec->stuck().size());
  } else {
    std::snprintf(label, sizeof label, "Stuck units: %zu flags in the run###sim_stuck", rec->stuck().size());
  }
  const bool open = ImGui::TreeNode(label);
  state.probe.last_item("sim_stuck");
  stuck_definition_tooltip(sim);
  if (!open) return;
  const float rows = float(std::min<std::size_t>(rec->stuck().size(), 6));
  if (ImGui::BeginChild("##sim_stuck_list", ImVec2(0, rows * ImGui::GetTextLineHeightWithSpacing() + 4))) {
    for (std::size_t i = 0; i < rec->stuck().size(); ++i) {
      const sim::RecordedStuck& e = rec->stuck()[i];
      // Whether the unit is stuck at the step shown, got going again, or is flagged later.
      char then[48];
      if (shown < e.step) {
        std::snprintf(then, sizeof then, "later");
      } else if (shown < e.until) {
        std::snprintf(then, sizeof then, "stuck now");
      } else {
        std::snprintf(then, sizeof then, "moving at %.2f s", double(e.until) * rec->dt());
      }
      char row[128];
      std::snprintf(row, sizeof row, "unit %u flagged at %.2f s, %s##stuck%zu", e.who, e.time, then, i);
      if (ImGui::Selectable(row, shown >= e.step && shown < e.until)) {
        const auto before = static_cast<std::uint64_t>(std::max(0.0, std::floor(e.since / rec->dt() + 1e-9)));
        sim.scrub(std::clamp(before, rec->first_step(), rec->last_step()));
        const sim::UnitId id = e.unit;
        sim.select(std::span<const sim::UnitId>(&id, 1));
      }
      if (i == 0) state.probe.last_item("sim_stuck_first");
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", e.text.c_str());
    }
  }
  ImGui::EndChild();
  ImGui::TreePop();
}

// Whether a decision names a place worth marking.
bool has_point(const sim::Decision& d) {
  switch (d.kind) {
    case sim::DecisionKind::State:
    case sim::DecisionKind::Removed:
    case sim::DecisionKind::BridgeWait:
    case sim::DecisionKind::PassageWait:
    case sim::DecisionKind::Avoided:
    case sim::DecisionKind::Pushed: return false;
    case sim::DecisionKind::Yield: {
      const auto y = static_cast<sim::Yield>(d.to);
      return y == sim::Yield::MoveAside || y == sim::Yield::Detour || y == sim::Yield::Return;
    }
    default: return true;
  }
}

// Lays out `rec`'s log of `unit` at `width` pixels: each entry's time, its text wrapped in
// the room beside the time column, and where each row begins.
void layout_log(const sim::Recording& rec, sim::UnitId unit, float width, UnitLogLayout& log) {
  log.recording = &rec;
  log.revision = rec.revision();
  log.unit = unit;
  log.width = width;
  log.entries = rec.decisions_of(unit);
  log.time.clear();
  log.text.clear();
  log.top.assign(1, 0.0f);
  const ImGuiStyle& style = ImGui::GetStyle();
  const float column = ImGui::CalcTextSize("0000.00 s").x + style.ItemSpacing.x;
  const float wrap = std::max(40.0f, width - column);
  for (const std::size_t i : log.entries) {
    const sim::Decision& d = rec.decisions()[i];
    char time[32];
    std::snprintf(time, sizeof time, "%.2f s", double(d.step) * rec.dt());
    log.time.emplace_back(time);
    log.text.push_back(sim::describe(d));
    const float height = ImGui::CalcTextSize(log.text.back().c_str(), nullptr, false, wrap).y;
    log.top.push_back(log.top.back() + height + style.ItemSpacing.y);
  }
}

// The first selected unit's log of decisions: a click shows the step it was logged at,
// with the unit and the other one it names selected and the entry's point marked. Each
// entry wraps to the column's width, so that it reads whole at any width.
void unit_log(SimPlayer& sim, EditorState& state, UnitLogLayout& log) {
  const sim::Recording* rec = sim.recording();
  if (!rec || sim.selected().empty()) return;
  const sim::UnitId id = sim.selected().front();
  const sim::SimUnit* u = sim.shown_unit(id);
  const std::size_t count = rec->decisions_of(id).size();
  char label[64];
  std::snprintf(label, sizeof label, "Log of unit %u (%zu)###sim_log", u ? u->scenario_id : 0u, count);
  const bool open = ImGui::TreeNodeEx(label, ImGuiTreeNodeFlags_DefaultOpen);
  state.probe.last_item("sim_log");
  if (!open) return;
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const float height = std::min(12.0f, float(count) + 1) * line;
  if (ImGui::BeginChild("##sim_log_list", ImVec2(0, height), true)) {
    const float width = ImGui::GetContentRegionAvail().x;
    if (log.recording != rec || log.revision != rec->revision() || !(log.unit == id) || log.width != width)
      layout_log(*rec, id, width, log);
    const ImGuiStyle& style = ImGui::GetStyle();
    const float column = ImGui::CalcTextSize("0000.00 s").x + style.ItemSpacing.x;
    const std::uint64_t shown = sim.shown_step();
    const ImVec2 origin = ImGui::GetCursorPos();
    const float scroll = ImGui::GetScrollY(), view = ImGui::GetWindowHeight();
    // Only the rows in view are drawn: the first whose bottom is below the top of the
    // view, up to the first whose top is below its bottom.
    const auto first =
        std::size_t(std::upper_bound(log.top.begin(), log.top.end(), scroll) - log.top.begin());
    const std::size_t rows = log.entries.size();
    float widest = 0;
    ImVec2 widest_lo{0, 0};
    for (std::size_t row = first > 0 ? first - 1 : 0; row < rows && log.top[row] < scroll + view; ++row) {
      const sim::Decision& d = rec->decisions()[log.entries[row]];
      const float row_height = log.top[row + 1] - log.top[row] - style.ItemSpacing.y;
      ImGui::SetCursorPos(ImVec2(origin.x, origin.y + log.top[row]));
      const ImVec2 lo = ImGui::GetCursorScreenPos();
      ImGui::PushID(int(row));
      if (ImGui::Selectable("##log", d.step == shown, ImGuiSelectableFlags_AllowItemOverlap,
                            ImVec2(width, row_height))) {
        sim.scrub(d.step);
        std::vector<sim::UnitId> ids{id};
        if (d.has_other) ids.push_back(d.other);
        sim.select(ids);
        sim.set_focus(has_point(d) ? std::optional<Vec2>(d.point) : std::nullopt);
      }
      ImGui::PopID();
      if (row == 0) state.probe.last_item("sim_log_first");
      // The time right-aligned in its column, the text wrapped beside it.
      const char* time = log.time[row].c_str();
      const float time_width = ImGui::CalcTextSize(time).x;
      ImGui::SetCursorScreenPos(ImVec2(lo.x + column - style.ItemSpacing.x - time_width, lo.y));
      ImGui::TextUnformatted(time);
      ImGui::SetCursorScreenPos(ImVec2(lo.x + column, lo.y));
      ImGui::PushTextWrapPos(ImGui::GetCursorPos().x + std::max(40.0f, width - column));
      ImGui::TextUnformatted(log.text[row].c_str());
      ImGui::PopTextWrapPos();
      // The widest text drawn, for the window test: it must end inside the list.
      const ImVec2 text_lo = ImGui::GetItemRectMin(), text_hi = ImGui::GetItemRectMax();
      if (text_hi.x - text_lo.x > widest) {
        widest = text_hi.x - text_lo.x;
        widest_lo = text_lo;
      }
    }
    if (widest > 0)
      state.probe.rect("sim_log_widest", widest_lo.x, widest_lo.y, widest_lo.x + widest, widest_lo.y + line);
    // The content's full height, so that the scroll bar spans every row.
    ImGui::SetCursorPos(ImVec2(origin.x, origin.y + log.top.back()));
    ImGui::Dummy(ImVec2(0, 0));
    // Where the list's text may go (inside its padding and scroll bar).
    const ImVec2 at = ImGui::GetWindowPos(), lo = ImGui::GetWindowContentRegionMin(),
                 hi = ImGui::GetWindowContentRegionMax();
    state.probe.rect("sim_log_list", at.x + lo.x, at.y + lo.y, at.x + hi.x, at.y + hi.y);
  }
  ImGui::EndChild();
  ImGui::TreePop();
}

}  // namespace

bool sim_hover_tooltip(const SimPlayer& sim, Vec2 world, double tolerance) {
  const std::optional<sim::UnitId> id = sim.unit_at(world, tolerance);
  const sim::SimUnit* u = id ? sim.shown_unit(*id) : nullptr;
  if (!u) return false;
  const Scenario& scenario = *sim.shown_scenario();
  const char* class_name =
      u->movement_class < scenario.classes.size() ? scenario.classes[u->movement_class].name.c_str() : "?";
  ImGui::BeginTooltip();
  ImGui::Text("unit %u (%s), %s", u->scenario_id, class_name, sim::to_string(u->route.state));
  ImGui::Text("%.2f m/s, path left %.1f m, yield %s, collisions %zu", u->body.speed,
              remaining_path_length(*u), yield_name(u->coop.yield),
              collision_count(sim.shown_collisions(), u->id));
  ImGui::EndTooltip();
  return true;
}

void sim_panel(SimPlayer& sim, EditorState& state, UnitLogLayout& log) {
  controls(sim, state);
  crowd_section(sim, state);
  settings_section(state);
  if (!sim.active()) {
    const Scenario& scenario = state.doc->scenario();
    ImGui::TextDisabled("Not running: %zu units, %zu with orders.", scenario.units.size(),
                        ordered_units(scenario));
    ImGui::TextDisabled("Play, Step or the Units tool (U) start it.");
    return;
  }
  if (sim.viewing_recording()) {
    recorded_figures(sim);
  } else {
    figures(sim);
  }
  stuck_units(sim, state);
  selected_units(sim);
  selected_platoons(sim, state);
  unit_log(sim, state, log);
}

}  // namespace pathscope::app
