#include "app/editor/messages_panel.hpp"

#include <imgui.h>

namespace pathscope::app {
namespace {

// Text colours on the dark style: a red and a yellow that read well on its grey.
ImVec4 severity_colour(Severity severity) {
  switch (severity) {
    case Severity::Error: return ImVec4(1.0f, 0.38f, 0.35f, 1.0f);
    case Severity::Warning: return ImVec4(1.0f, 0.82f, 0.3f, 1.0f);
    case Severity::Info: break;
  }
  return ImGui::GetStyleColorVec4(ImGuiCol_Text);
}

void message_text(const Message& message) {
  ImGui::PushStyleColor(ImGuiCol_Text, severity_colour(message.severity));
  ImGui::TextWrapped("%s", display_text(message).c_str());
  ImGui::PopStyleColor();
}

}  // namespace

void messages_panel(EditorState& state) {
  MessageLog& log = state.messages;
  // The latest error, outside the scrolling list so that later messages cannot push it
  // out of sight.
  if (const Message* pinned = log.pinned_error()) {
    const Message shown = *pinned;  // dismiss_error() below ends *pinned.
    if (ImGui::SmallButton("dismiss")) log.dismiss_error();
    ImGui::SameLine();
    message_text(shown);
    ImGui::Separator();
  }
  if (ImGui::SmallButton("Clear")) log.clear();  // Also dismisses the pinned error.
  if (ImGui::BeginChild("##message_list")) {
    for (const Message& m : log) message_text(m);
    if (ImGui::GetScrollY() >= ImGui::GetScrollMaxY()) ImGui::SetScrollHereY(1.0f);
  }
  ImGui::EndChild();
}

}  // namespace pathscope::app
