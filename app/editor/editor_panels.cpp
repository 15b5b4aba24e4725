// The editor's panels: menu bar, toolbar with tool options, layers, messages and the
// status bar. They read state and issue commands; no algorithms here.

#include <imgui.h>

#include <cmath>
#include <cstdio>

#include "app/editor/editor_app.hpp"
#include "app/editor/messages_panel.hpp"
#include "render/core/draw_list.hpp"

namespace pathscope::app {

void EditorApp::menu_bar() {
  if (!ImGui::BeginMainMenuBar()) return;
  if (ImGui::BeginMenu("File")) {
    files_.menu_items(state_);
    ImGui::EndMenu();
  }
  Document& doc = *state_.doc;
  if (ImGui::BeginMenu("Edit")) {
    const std::string undo = doc.can_undo() ? "Undo " + doc.undo_label() : std::string("Undo");
    const std::string redo = doc.can_redo() ? "Redo " + doc.redo_label() : std::string("Redo");
    if (ImGui::MenuItem(undo.c_str(), "Ctrl+Z", false, doc.can_undo())) doc.undo();
    if (ImGui::MenuItem(redo.c_str(), "Ctrl+Y", false, doc.can_redo())) doc.redo();
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("View")) {
    if (ImGui::MenuItem("Fit map", "F")) fit_pending_ = true;
    ImGui::MenuItem("Grid lines", nullptr, &state_.show_grid_lines);
    ImGui::Separator();
    ImGui::MenuItem("Inspector", nullptr, &show_inspector_);
    ImGui::MenuItem("Search debugger", nullptr, &show_debugger_);
    ImGui::MenuItem("Layers", nullptr, &show_layers_);
    ImGui::MenuItem("Messages", nullptr, &show_messages_);
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("Help")) {
    ImGui::TextUnformatted(
        "Pan: right or middle drag, or Space + drag.  Zoom: wheel.  Fit: F or Home.\n"
        "Tools: the letters on the toolbar.  Enter closes a polygon or road, Escape cancels,\n"
        "Delete removes the selection.  Undo: Ctrl+Z.  Redo: Ctrl+Y or Ctrl+Shift+Z.\n"
        "Search: F10 step (Shift+F10 back), F5 run/pause, F6 reset, F9 breakpoint at the cursor.");
    ImGui::EndMenu();
  }
  ImGui::EndMainMenuBar();
}

void EditorApp::tools_window() {
  ImGui::SetNextWindowPos(ImVec2(8, 30), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(230, 330), ImGuiCond_FirstUseEver);
  if (ImGui::Begin("Tools")) {
    int column = 0;
    for (const ToolInfo& info : tool_registry()) {
      const bool active = info.name == state_.active_tool;
      if (active) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
      if (ImGui::Button(info.label.c_str(), ImVec2(64, 0))) select_tool(info.name);
      if (active) ImGui::PopStyleColor();
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", info.tooltip.c_str());
      if (++column % 3 != 0) ImGui::SameLine();
    }
    if (column % 3 != 0) ImGui::NewLine();
    ImGui::Separator();
    if (Tool* tool = active_tool()) {
      ToolContext ctx{state_, *state_.doc, state_.camera.zoom()};
      tool->options_ui(ctx);
    }
  }
  ImGui::End();
}

void EditorApp::layers_window() {
  if (!show_layers_) return;
  ImGui::SetNextWindowPos(ImVec2(8, 370), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(230, 380), ImGuiCond_FirstUseEver);
  if (ImGui::Begin("Layers", &show_layers_)) {
    for (render::Layer layer : render::all_layers()) {
      bool on = state_.layers.contains(layer);
      if (ImGui::Checkbox(render::to_string(layer), &on)) state_.layers.set(layer, on);
    }
    ImGui::Separator();
    ImGui::Checkbox("grid lines", &state_.show_grid_lines);
  }
  ImGui::End();
}

void EditorApp::messages_window() {
  if (state_.messages.size() != messages_seen_) {
    show_messages_ = show_messages_ || state_.messages.size() > messages_seen_;
    messages_seen_ = state_.messages.size();
  }
  if (!show_messages_ || state_.messages.empty()) return;
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(250, io.DisplaySize.y - 170), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(560, 130), ImGuiCond_FirstUseEver);
  if (ImGui::Begin("Messages", &show_messages_)) {
    messages_panel(state_);
  }
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
      const int cx = int(std::floor(w->x / s.world.cell_size)), cy = int(std::floor(w->y / s.world.cell_size));
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
  }
  ImGui::End();
  ImGui::PopStyleVar();
}

}  // namespace pathscope::app
