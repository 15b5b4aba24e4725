// The editor's panels: the menu bar; the left column (tools with their options, layers);
// the right column (inspector, search debugger); the message strip under the canvas and
// the status bar. The columns are fixed to the window's sides, so the canvas between them
// shows the whole map; each can be resized by dragging its inner edge, or collapsed.
// They read state and issue commands; no algorithms here.

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "app/debugger/comparison_panel.hpp"
#include "app/editor/editor_app.hpp"
#include "app/editor/inspector.hpp"
#include "app/editor/messages_panel.hpp"
#include "app/sim/sim_panel.hpp"
#include "app/sim/sim_timeline.hpp"
#include "render/core/draw_list.hpp"

namespace pathscope::app {

void EditorApp::menu_bar() {
  if (!ImGui::BeginMainMenuBar()) return;
  menu_height_ = ImGui::GetWindowSize().y;
  const bool file_menu = ImGui::BeginMenu("File");
  state_.probe.last_item("menu_file");
  if (file_menu) {
    files_.menu_items(state_);
    ImGui::EndMenu();
  }
  Document& doc = *state_.doc;
  if (ImGui::BeginMenu("Edit")) {
    const std::string undo = doc.can_undo() ? "Undo " + doc.undo_label() : std::string("Undo");
    const std::string redo = doc.can_redo() ? "Redo " + doc.redo_label() : std::string("Redo");
    if (ImGui::MenuItem(undo.c_str(), "Ctrl+Z", false, doc.can_undo())) {
      motion_.pause(state_);
      doc.undo();
    }
    if (ImGui::MenuItem(redo.c_str(), "Ctrl+Y", false, doc.can_redo())) {
      motion_.pause(state_);
      doc.redo();
    }
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("View")) {
    // The layout presets (app/editor/layout_preset.hpp), one click each.
    for (const LayoutPreset& preset : layout_presets()) {
      const std::string label = "Layout: " + std::string(preset.label);
      if (ImGui::MenuItem(label.c_str(), std::string(preset.shortcut).c_str(), layout_ == preset.name))
        choose_layout(preset);
    }
    ImGui::Separator();
    if (ImGui::MenuItem("Fit map", "F")) fit_pending_ = true;
    ImGui::MenuItem("Grid lines", nullptr, &state_.show_grid_lines);
    ImGui::Separator();
    bool left = panels_.left_column > 0, right = panels_.right_column > 0;
    if (ImGui::MenuItem("Left column (tools, layers)", nullptr, &left))
      panels_.left_column = -panels_.left_column;
    if (ImGui::MenuItem("Right column (inspector, simulation, debugger)", nullptr, &right)) {
      panels_.right_column = -panels_.right_column;
    }
    ImGui::MenuItem("Inspector", nullptr, &panels_.inspector);
    ImGui::MenuItem("Simulation", nullptr, &panels_.simulation);
    ImGui::MenuItem("Search debugger", nullptr, &panels_.debugger);
    if (ImGui::MenuItem("Compare planners", nullptr, &state_.show_comparison) && state_.show_comparison)
      debugger_.compare_planners();
    ImGui::MenuItem("Layers", nullptr, &panels_.layers);
    ImGui::MenuItem("Messages", nullptr, &panels_.messages);
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("Help")) {
    ImGui::TextUnformatted(
        "Pan: right or middle drag, or Space + drag.  Zoom: wheel.  Fit: F or Home.\n"
        "Tools: the letters on the toolbar.  Enter closes a polygon or road, Escape cancels,\n"
        "Delete removes the selection.  Undo: Ctrl+Z.  Redo: Ctrl+Y or Ctrl+Shift+Z.\n"
        "Search: F10 step (Shift+F10 back), F5 run/pause, F6 reset, F9 breakpoint at the cursor.\n"
        "Motion: M plays or pauses the features that have a velocity (set it in the inspector).\n"
        "Units (U): click or box-select units, right-click to move them, Shift+right-click adds a waypoint,\n"
        "  a right drag orders a platoon to face the way it goes.\n"
        "Simulation: play, step and reset in the right column's Simulation section.");
    ImGui::EndMenu();
  }
  ImGui::EndMainMenuBar();
}

namespace {

constexpr ImGuiWindowFlags kColumnFlags =
    ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
    ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_NoTitleBar;
constexpr float kCollapsedStrip = 18;  // a collapsed column leaves this strip with its ">" button
constexpr int kMinColumn = 160;

// A section header that fills the column, open at first; ImGui keeps its state.
bool section(const char* label) { return ImGui::CollapsingHeader(label, ImGuiTreeNodeFlags_DefaultOpen); }

}  // namespace

void EditorApp::layout_columns() {
  const ImGuiIO& io = ImGui::GetIO();
  const float width = io.DisplaySize.x, height = io.DisplaySize.y;
  status_height_ = ImGui::GetFrameHeight();
  // The columns never take more than the window minus a canvas of 200 pixels.
  const int room = std::max(0, int(width) - 200);
  auto fit = [&](int& w, int other) {
    if (w > 0)
      w = std::clamp(w, std::min(kMinColumn, room / 2), std::max(kMinColumn, room - std::max(other, 0)));
  };
  fit(panels_.left_column, panels_.right_column);
  fit(panels_.right_column, panels_.left_column);
  const float left = panels_.left_column > 0 ? float(panels_.left_column) : kCollapsedStrip;
  const float right = panels_.right_column > 0 ? float(panels_.right_column) : kCollapsedStrip;
  // The strip opens by itself for a new warning or error; information waits in it for
  // whoever opens it (View > Messages).
  if (state_.messages.size() != messages_seen_) {
    for (std::size_t i = messages_seen_; i < state_.messages.size(); ++i) {
      if (state_.messages.entries()[i].severity != Severity::Info) panels_.messages = true;
    }
    messages_seen_ = state_.messages.size();
  }
  // Open, the strip shows even with nothing in it (a layout opened it to watch).
  messages_height_ = panels_.messages ? std::min(130.0f, height * 0.2f) : 0.0f;
  // The planner comparison spans the window's width above the status bar (the columns
  // end above it), up to kMaxComparisonFraction of the window's height: the map keeps
  // most of it, the table scrolls inside.
  comparison_height_ = state_.show_comparison && state_.doc
                           ? float(comparison_strip_height(comparison_panel_height(debugger_), int(height)))
                           : 0.0f;
  canvas_lo_ = {left, menu_height_};
  timeline_height_ = sim_timeline_height(sim_);
  canvas_hi_ = {std::max(left + 1.0f, width - right),
                std::max(menu_height_ + 1.0f,
                         height - status_height_ - comparison_height_ - messages_height_ - timeline_height_)};
}

// The drag handle on a column's inner edge: drag to resize, double-click to collapse.
// `direction` is +1 for the left column (dragging right widens it), -1 for the right one.
void EditorApp::column_splitter(const char* id, float x, int& width, int direction) {
  const ImGuiIO& io = ImGui::GetIO();
  const float grip = 6;
  const float top = menu_height_, bottom = io.DisplaySize.y - status_height_ - comparison_height_;
  ImGui::SetNextWindowPos(ImVec2(x - grip * 0.5f, top));
  ImGui::SetNextWindowSize(ImVec2(grip, bottom - top));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0, 0));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowMinSize, ImVec2(1, 1));
  // Without NoBringToFrontOnFocus: ImGui puts windows with that flag below all others
  // when they are created, and the handle must stay above its column.
  const ImGuiWindowFlags flags = (kColumnFlags & ~ImGuiWindowFlags_NoBringToFrontOnFocus) |
                                 ImGuiWindowFlags_NoBackground | ImGuiWindowFlags_NoScrollbar;
  if (ImGui::Begin(id, nullptr, flags)) {
    ImGui::InvisibleButton("##grip", ImVec2(grip, bottom - top));
    if (ImGui::IsItemHovered() || ImGui::IsItemActive()) ImGui::SetMouseCursor(ImGuiMouseCursor_ResizeEW);
    if (ImGui::IsItemActive() && io.MouseDelta.x != 0)
      width = std::max(kMinColumn, width + direction * int(io.MouseDelta.x));
    if (ImGui::IsItemHovered() && ImGui::IsMouseDoubleClicked(0)) width = -width;
  }
  ImGui::End();
  ImGui::PopStyleVar(2);
}

void EditorApp::left_column() {
  const ImGuiIO& io = ImGui::GetIO();
  const float top = menu_height_, height = io.DisplaySize.y - status_height_ - comparison_height_ - top;
  if (panels_.left_column <= 0) {
    ImGui::SetNextWindowPos(ImVec2(0, top));
    ImGui::SetNextWindowSize(ImVec2(kCollapsedStrip, height));
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(1, 4));
    if (ImGui::Begin("##left_collapsed", nullptr, kColumnFlags | ImGuiWindowFlags_NoScrollbar)) {
      if (ImGui::ArrowButton("##open_left", ImGuiDir_Right)) panels_.left_column = -panels_.left_column;
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("Show the tools and layers");
    }
    ImGui::End();
    ImGui::PopStyleVar();
    return;
  }
  ImGui::SetNextWindowPos(ImVec2(0, top));
  ImGui::SetNextWindowSize(ImVec2(float(panels_.left_column), height));
  if (ImGui::Begin("##left_column", nullptr, kColumnFlags)) {
    if (ImGui::ArrowButton("##close_left", ImGuiDir_Left)) panels_.left_column = -panels_.left_column;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Hide this column (View menu, or double-click its edge)");
    ImGui::SameLine();
    ImGui::TextUnformatted("Tools");
    const float button =
        std::max(56.0f, (ImGui::GetContentRegionAvail().x - 2 * ImGui::GetStyle().ItemSpacing.x) / 3);
    int column = 0;
    for (const ToolInfo& info : tool_registry()) {
      const bool active = info.name == state_.active_tool;
      if (active) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
      if (ImGui::Button(info.label.c_str(), ImVec2(button, 0))) select_tool(info.name);
      if (active) ImGui::PopStyleColor();
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", info.tooltip.c_str());
      if (++column % 3 != 0) ImGui::SameLine();
    }
    if (column % 3 != 0) ImGui::NewLine();
    ImGui::Separator();
    if (Tool* tool = active_tool()) {
      ToolContext ctx{state_, *state_.doc, state_.camera.zoom(), &sim_};
      tool->options_ui(ctx);
    }
    motion_section();
    if (panels_.layers && section("Layers")) {
      for (render::Layer layer : render::all_layers()) {
        bool on = state_.layers.contains(layer);
        if (ImGui::Checkbox(render::to_string(layer), &on)) state_.layers.set(layer, on);
      }
      ImGui::Checkbox("grid lines", &state_.show_grid_lines);
    }
  }
  ImGui::End();
  column_splitter("##left_split", float(panels_.left_column), panels_.left_column, +1);
}

// Play, pause, step and speed of the features' motion; the world time played.
void EditorApp::motion_section() {
  if (!section("Motion")) return;
  const std::size_t moving = moving_feature_count(state_.doc->scenario());
  const float half = (ImGui::GetContentRegionAvail().x - ImGui::GetStyle().ItemSpacing.x) * 0.5f;
  ImGui::BeginDisabled(moving == 0);
  if (ImGui::Button(motion_.playing() ? "Pause##motion" : "Play##motion", ImVec2(half, 0))) {
    if (motion_.playing()) {
      motion_.pause(state_);
    } else {
      motion_.play(state_);
    }
  }
  state_.probe.last_item("motion_play");
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
    ImGui::SetTooltip("Move the features that have a velocity (M); each play is one undo step");
  }
  ImGui::SameLine();
  if (ImGui::Button("Step##motion", ImVec2(half, 0))) motion_.step(state_);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("One step of 1/30 s");
  float speed = float(motion_.speed());
  ImGui::SetNextItemWidth(-1);
  if (ImGui::SliderFloat("##motion_speed", &speed, 0.05f, 20.0f, "speed %.2fx",
                         ImGuiSliderFlags_Logarithmic)) {
    motion_.set_speed(speed);
  }
  ImGui::EndDisabled();
  if (moving == 0) {
    ImGui::TextDisabled("No feature moves: give one a velocity in the inspector.");
  } else {
    ImGui::Text("%zu moving, t = %.2f s", moving, motion_.time());
  }
}

// The unit simulation: controls, figures, the selected units.
void EditorApp::simulation_section() {
  ImGui::PushID("simulation");
  sim_panel(sim_, state_, unit_log_);
  ImGui::PopID();
}

void EditorApp::right_column() {
  const ImGuiIO& io = ImGui::GetIO();
  const float top = menu_height_, height = io.DisplaySize.y - status_height_ - comparison_height_ - top;
  if (panels_.right_column <= 0) {
    ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x - kCollapsedStrip, top));
    ImGui::SetNextWindowSize(ImVec2(kCollapsedStrip, height));
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(1, 4));
    if (ImGui::Begin("##right_collapsed", nullptr, kColumnFlags | ImGuiWindowFlags_NoScrollbar)) {
      if (ImGui::ArrowButton("##open_right", ImGuiDir_Left)) panels_.right_column = -panels_.right_column;
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("Show the inspector and the search debugger");
    }
    ImGui::End();
    ImGui::PopStyleVar();
    return;
  }
  const float x = io.DisplaySize.x - float(panels_.right_column);
  ImGui::SetNextWindowPos(ImVec2(x, top));
  ImGui::SetNextWindowSize(ImVec2(float(panels_.right_column), height));
  if (ImGui::Begin("##right_column", nullptr, kColumnFlags | ImGuiWindowFlags_NoScrollbar)) {
    if (ImGui::ArrowButton("##close_right", ImGuiDir_Right)) panels_.right_column = -panels_.right_column;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Hide this column (View menu, or double-click its edge)");
    ImGui::SameLine();
    ImGui::TextUnformatted(state_.doc ? state_.doc->display_name().c_str() : "");
    // The inspector takes what it needs up to a third of the column; the debugger the rest.
    if (panels_.inspector && section("Inspector")) {
      const float inspector =
          panels_.debugger ? std::max(120.0f, ImGui::GetContentRegionAvail().y * 0.33f) : 0.0f;
      if (ImGui::BeginChild("##inspector", ImVec2(0, inspector))) inspector_panel(state_);
      ImGui::EndChild();
    }
    if (panels_.simulation && section("Simulation")) simulation_section();
    if (panels_.debugger && section("Search debugger")) {
      if (ImGui::BeginChild("##debugger", ImVec2(0, 0))) debugger_panel(debugger_, state_);
      ImGui::EndChild();
    }
  }
  ImGui::End();
  column_splitter("##right_split", x, panels_.right_column, -1);
}

void EditorApp::timeline_strip() {
  if (timeline_height_ <= 0) return;
  ImGui::SetNextWindowPos(ImVec2(float(canvas_lo_.x), float(canvas_hi_.y)));
  ImGui::SetNextWindowSize(ImVec2(float(canvas_hi_.x - canvas_lo_.x), timeline_height_));
  if (ImGui::Begin("##timeline", nullptr, kColumnFlags | ImGuiWindowFlags_NoScrollbar))
    sim_timeline(sim_, state_, timeline_events_);
  ImGui::End();
}

void EditorApp::messages_strip() {
  if (messages_height_ <= 0) return;
  ImGui::SetNextWindowPos(ImVec2(float(canvas_lo_.x), float(canvas_hi_.y + timeline_height_)));
  ImGui::SetNextWindowSize(ImVec2(float(canvas_hi_.x - canvas_lo_.x), messages_height_));
  if (ImGui::Begin("Messages", &panels_.messages, kColumnFlags & ~ImGuiWindowFlags_NoTitleBar))
    messages_panel(state_);
  ImGui::End();
}

void EditorApp::comparison_strip() {
  if (comparison_height_ <= 0) return;
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(0, io.DisplaySize.y - status_height_ - comparison_height_));
  ImGui::SetNextWindowSize(ImVec2(io.DisplaySize.x, comparison_height_));
  if (ImGui::Begin("Compare planners", &state_.show_comparison, kColumnFlags & ~ImGuiWindowFlags_NoTitleBar))
    comparison_panel(debugger_, state_);
  ImGui::End();
}

void EditorApp::status_bar() {
  const ImGuiIO& io = ImGui::GetIO();
  const float height = ImGui::GetFrameHeight();
  ImGui::SetNextWindowPos(ImVec2(0, io.DisplaySize.y - height));
  ImGui::SetNextWindowSize(ImVec2(io.DisplaySize.x, height));
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                                 ImGuiWindowFlags_NoBringToFrontOnFocus;
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(8, 2));
  if (ImGui::Begin("##status", nullptr, flags)) {
    const Scenario& s = state_.doc->scenario();
    if (auto w = canvas_.hover_world()) {
      const int cx = int(std::floor(w->x / s.world.cell_size)),
                cy = int(std::floor(w->y / s.world.cell_size));
      ImGui::Text("x %.2f  y %.2f m   cell (%d, %d)", w->x, w->y, cx, cy);
    } else {
      ImGui::TextUnformatted("-");
    }
    ImGui::SameLine(300);
    ImGui::Text("zoom %.3g px/m", state_.camera.zoom());
    ImGui::SameLine(420);
    if (debugger_.busy()) {
      ImGui::Text("planning... %zu left", debugger_.pending_queries() + (debugger_.searching() ? 1 : 0));
    } else {
      ImGui::Text("re-plan %.2f ms", debugger_.last_plan_ms());
    }
    ImGui::SameLine(560);
    ImGui::Text("%s  %s", state_.active_tool.c_str(), state_.doc->modified() ? "(modified)" : "");
    // The newest message (a save, a refused edit), where the eye is while working: the
    // Messages strip opens by itself only for warnings and errors.
    if (!state_.messages.empty()) {
      const Message& m = state_.messages.back();
      ImGui::SameLine(0, 24);
      const ImVec4 colour = m.severity == Severity::Error     ? ImVec4(1.0f, 0.45f, 0.4f, 1)
                            : m.severity == Severity::Warning ? ImVec4(1.0f, 0.85f, 0.3f, 1)
                                                              : ImVec4(0.55f, 0.9f, 0.55f, 1);
      ImGui::TextColored(colour, "%s", display_text(m).c_str());
      state_.probe.last_item("status_message");
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s\n(View > Messages lists them all)", m.text.c_str());
    }
  }
  ImGui::End();
  ImGui::PopStyleVar();
}

}  // namespace pathscope::app
