#include "app/editor/messages_panel.hpp"

#include <imgui.h>

namespace pathscope::app {

void messages_panel(EditorState& state) {
  if (ImGui::SmallButton("Clear")) state.messages.clear();
  for (const std::string& m : state.messages) ImGui::TextWrapped("%s", m.c_str());
  if (ImGui::GetScrollY() >= ImGui::GetScrollMaxY()) ImGui::SetScrollHereY(1.0f);
}

}  // namespace pathscope::app
