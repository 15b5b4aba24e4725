#include "app/editor/default_scenario.hpp"

#include <system_error>

namespace pathscope::app {

std::optional<std::filesystem::path> find_default_scenario() {
  const std::filesystem::path relative = std::filesystem::path("maps") / "default.json";
  std::error_code ec;
  if (std::filesystem::is_regular_file(relative, ec)) return relative;
#ifdef PATHSCOPE_SOURCE_DIR
  const std::filesystem::path in_source = std::filesystem::path(PATHSCOPE_SOURCE_DIR) / relative;
  if (std::filesystem::is_regular_file(in_source, ec)) return in_source;
#endif
  return std::nullopt;
}

}  // namespace pathscope::app
