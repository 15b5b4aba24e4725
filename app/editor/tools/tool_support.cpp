#include "app/editor/tools/tool_support.hpp"

#include <algorithm>
#include <cstdio>

namespace pathscope::app::tools {

Vec2 clamp_to_world(const WorldInfo& world, Vec2 p) {
  return {std::clamp(p.x, 0.0, world.width), std::clamp(p.y, 0.0, world.height)};
}

bool accept_or_report(EditorState& state, std::string_view what, const Status& status) {
  if (status) return true;
  state.report_error(std::string(what) + " refused: " + status.error().to_string());
  return false;
}

std::string format_metres(double metres) {
  char text[64];
  std::snprintf(text, sizeof text, "%.4g m", metres);
  return text;
}

std::size_t index_or_zero(std::size_t index, std::size_t count) { return index < count ? index : 0; }

}  // namespace pathscope::app::tools
