#include "app/editor/inspector_fields.hpp"

#include "app/editor/tools/tool_support.hpp"
#include "app/editor/tools/tool_widgets.hpp"

#include <imgui.h>
#include <imgui_stdlib.h>

namespace pathscope::app {
InspectorFields::InspectorFields(EditorState& state, std::string scope)
    : state_(state), scope_(std::move(scope)) {}

void InspectorFields::commit(const char* label, const std::function<void(Scenario&)>& change,
                             std::uint64_t merge_key) {
  Document& doc = *state_.doc;
  const std::string id = field_id(label);
  const Status status = doc.apply("Edit " + scope_ + " " + label, change, merge_key);
  FieldError& error = state_.inspector_error;
  if (status) {
    if (error.field == id) error = {};
    return;
  }
  error = FieldError{state_.doc_serial, doc.revision(), id, status.error().to_string()};
}

void InspectorFields::finish(const char* label, const char* tooltip) {
  if (ImGui::IsItemDeactivatedAfterEdit()) state_.doc->end_merge();
  tools::item_tooltip(tooltip);
  const FieldError& error = state_.inspector_error;
  if (error.field == field_id(label) && error.doc_serial == state_.doc_serial &&
      error.revision == state_.doc->revision()) {
    ImGui::PushStyleColor(ImGuiCol_Text, tools::kErrorColor);
    ImGui::TextWrapped("%s", error.message.c_str());
    ImGui::PopStyleColor();
  }
}

void InspectorFields::number(const char* label, double value, const char* tooltip,
                             const std::function<void(Scenario&, double)>& set, const char* format) {
  if (ImGui::InputDouble(tools::fit_field(label).c_str(), &value, 0, 0, format)) {
    commit(
        label, [&](Scenario& s) { set(s, value); }, tools::merge_key(field_id(label)));
  }
  finish(label, tooltip);
}

void InspectorFields::point(const char* label, Vec2 value, const char* tooltip,
                            const std::function<void(Scenario&, Vec2)>& set) {
  double xy[2] = {value.x, value.y};
  if (ImGui::InputScalarN(tools::fit_field(label).c_str(), ImGuiDataType_Double, xy, 2, nullptr, nullptr,
                          "%.3f")) {
    commit(
        label,
        [&](Scenario& s) {
          set(s, Vec2{xy[0], xy[1]});
        },
        tools::merge_key(field_id(label)));
  }
  finish(label, tooltip);
}

void InspectorFields::text(const char* label, const std::string& value, const char* tooltip,
                           const std::function<void(Scenario&, const std::string&)>& set, bool multiline) {
  std::string edited = value;
  const std::string shown = tools::fit_field(label);
  const bool changed =
      multiline ? ImGui::InputTextMultiline(shown.c_str(), &edited, ImVec2(0, ImGui::GetTextLineHeight() * 4))
                : ImGui::InputText(shown.c_str(), &edited);
  if (changed)
    commit(
        label, [&](Scenario& s) { set(s, edited); }, tools::merge_key(field_id(label)));
  finish(label, tooltip);
}

void InspectorFields::boolean(const char* label, bool value, const char* tooltip,
                              const std::function<void(Scenario&, bool)>& set) {
  if (ImGui::Checkbox(label, &value))
    commit(
        label, [&](Scenario& s) { set(s, value); }, 0);
  finish(label, tooltip);
}

void InspectorFields::choice(const char* label, bool changed, const std::function<void(Scenario&)>& change) {
  if (changed) {
    state_.doc->end_merge();
    commit(label, change, 0);
  }
  finish(label, nullptr);
}

void InspectorFields::read_only(const char* label, const std::string& value) {
  ImGui::TextDisabled("%s", label);
  ImGui::SameLine();
  // Long values wrap at the panel's edge instead of running past it.
  ImGui::PushTextWrapPos(0);
  ImGui::TextUnformatted(value.c_str());
  ImGui::PopTextWrapPos();
}

}  // namespace pathscope::app
