#include "app/editor/ui_probe.hpp"

#include <imgui.h>

namespace pathscope::app {

void UiProbe::last_item(const char* name) {
  if (!enabled_) return;
  const ImVec2 lo = ImGui::GetItemRectMin(), hi = ImGui::GetItemRectMax();
  items_.push_back({name, lo.x, lo.y, hi.x, hi.y});
}

}  // namespace pathscope::app
