#include "app/viewer_panel.hpp"

#include "planner/planner_registry.hpp"
#include "render/draw_list.hpp"

#include <imgui.h>

#include <cmath>
#include <string>

namespace pathscope::app {
namespace {

std::string query_label(const Scenario& s, std::size_t i) {
  const Query& q = s.queries[i];
  std::string label = std::to_string(i);
  if (!q.name.empty()) label += ": " + q.name;
  label += " (" + q.planner;
  if (q.movement_class < s.classes.size()) label += ", " + s.classes[q.movement_class].name;
  return label + ")";
}

void query_widgets(const PanelView& view, PanelRequest& req) {
  const SceneSession& session = *view.session;
  const Scenario& s = session.scenario();
  if (s.queries.empty()) {
    ImGui::TextDisabled("no queries in this scenario");
    return;
  }
  const std::size_t current = session.query().value_or(0);
  if (ImGui::BeginCombo("query", query_label(s, current).c_str())) {
    for (std::size_t i = 0; i < s.queries.size(); ++i) {
      if (ImGui::Selectable(query_label(s, i).c_str(), i == current)) req.query = i;
    }
    ImGui::EndCombo();
  }
  const std::string shown = view.planner_override.empty() ? "(query's own)" : view.planner_override;
  if (ImGui::BeginCombo("planner", shown.c_str())) {
    if (ImGui::Selectable("(query's own)", view.planner_override.empty())) req.planner = "";
    for (const PlannerInfo& p : planner_registry()) {
      if (ImGui::Selectable(p.name.c_str(), p.name == view.planner_override)) req.planner = p.name;
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", p.summary.c_str());
    }
    ImGui::EndCombo();
  }
}

void result_widgets(const SceneSession& session, PanelRequest& req) {
  const PathResult* r = session.result();
  if (!r || !session.planner()) return;
  const std::string planner(session.planner()->name());
  ImGui::Text("planner     %s", planner.c_str());
  ImGui::Text("status      %s", to_string(r->status));
  if (r->status == SearchStatus::Found) {
    ImGui::Text("length      %.3f m", r->length);
    ImGui::Text("cost        %.3f", r->cost);
  }
  const Query& q = session.scenario().queries[*session.query()];
  if (q.expected_length) ImGui::Text("expected    %.3f m", *q.expected_length);
  ImGui::Text("expansions  %llu", static_cast<unsigned long long>(r->stats.expansions));
  ImGui::Text("pushes      %llu", static_cast<unsigned long long>(r->stats.pushes));
  for (const auto& [name, value] : r->stats.extra) ImGui::Text("%-11s %g", name.c_str(), value);
  if (!r->message.empty()) ImGui::TextWrapped("%s", r->message.c_str());

  std::uint64_t step = session.shown_expansions();
  const std::uint64_t lo = 0, hi = session.total_expansions();
  if (hi > 0) {
    if (ImGui::SliderScalar("step", ImGuiDataType_U64, &step, &lo, &hi, "%llu expansions")) req.step = step;
    ImGui::SameLine();
    if (ImGui::ArrowButton("##back", ImGuiDir_Left) && step > 0) req.step = step - 1;
    ImGui::SameLine();
    if (ImGui::ArrowButton("##fwd", ImGuiDir_Right) && step < hi) req.step = step + 1;
  }
}

void layer_widgets(render::LayerSet& layers, PanelRequest& req) {
  if (!ImGui::CollapsingHeader("layers")) return;
  int column = 0;
  for (const render::Layer layer : render::all_layers()) {
    bool on = layers.contains(layer);
    if (column++ % 2 == 1) ImGui::SameLine(150);
    if (ImGui::Checkbox(render::to_string(layer), &on)) {
      layers.set(layer, on);
      req.layers_changed = true;
    }
  }
}

}  // namespace

PanelRequest viewer_panel(const PanelView& view, render::LayerSet& layers) {
  PanelRequest req;
  const SceneSession& session = *view.session;
  const Scenario& s = session.scenario();
  ImGui::SetNextWindowPos(ImVec2(10, 10), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(360, 0), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowBgAlpha(0.85f);
  if (ImGui::Begin("Pathscope")) {
    ImGui::TextUnformatted(s.name.empty() ? session.source().c_str() : s.name.c_str());
    if (!s.description.empty() && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", s.description.c_str());
    ImGui::TextDisabled("%.0f x %.0f m, cell %.3g m", s.world.width, s.world.height, s.world.cell_size);
    ImGui::Separator();
    query_widgets(view, req);
    result_widgets(session, req);
    if (!view.error.empty()) ImGui::TextColored(ImVec4(1, 0.4f, 0.4f, 1), "%s", view.error.c_str());
    ImGui::Separator();
    layer_widgets(layers, req);
    if (view.hover_valid) {
      const double cs = s.world.cell_size;
      ImGui::Text("cursor (%.2f, %.2f) m, cell (%d, %d)", view.hover_world.x, view.hover_world.y,
                  static_cast<int>(std::floor(view.hover_world.x / cs)),
                  static_cast<int>(std::floor(view.hover_world.y / cs)));
    } else {
      ImGui::TextDisabled("cursor -");
    }
    ImGui::Text("zoom %.3g px/m", view.zoom);
    if (ImGui::Button("fit (F)")) req.fit = true;
    ImGui::SameLine();
    ImGui::TextDisabled("drag: right/middle, zoom: wheel");
  }
  ImGui::End();
  return req;
}

}  // namespace pathscope::app
