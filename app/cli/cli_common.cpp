#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

#include "app/cli/cli_commands.hpp"
#include "planner/core/planner_registry.hpp"
#include "planner/scenario/movingai_convert.hpp"
#include "planner/scenario/movingai_parse.hpp"
#include "planner/scenario/scenario_io.hpp"

namespace pathscope::app {

Result<Scenario> load_any_scenario(const std::string& path) {
  if (path.size() >= 4 && path.compare(path.size() - 4, 4, ".map") == 0) {
    auto map = load_movingai_map(path);
    if (!map) return map.error();
    return movingai_to_scenario(*map);
  }
  return load_scenario(path);
}

Result<std::vector<PlannerParam>> parse_param_overrides(const std::vector<std::string>& items) {
  std::vector<PlannerParam> out;
  for (const std::string& item : items) {
    const auto eq = item.find('=');
    double value = 0;
    const char* first = eq == std::string::npos ? nullptr : item.data() + eq + 1;
    const char* last = item.data() + item.size();
    if (eq == std::string::npos || eq == 0 || std::from_chars(first, last, value).ptr != last ||
        !std::isfinite(value)) {
      return make_error(ErrorCode::Value, "--param " + item, "expected name=number");
    }
    out.push_back(PlannerParam{item.substr(0, eq), value});
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return out;
}

std::optional<std::array<int, 2>> parse_pixel_size(const std::string& text) {
  int w = 0, h = 0;
  char extra = 0;
  if (std::sscanf(text.c_str(), "%dx%d%c", &w, &h, &extra) != 2 || w <= 0 || h <= 0 || w > 16384 || h > 16384)
    return std::nullopt;
  return std::array<int, 2>{w, h};
}

std::string planner_help() {
  std::string help = "planner name:";
  for (const PlannerInfo& p : planner_registry()) {
    help += "\n  " + p.name + ": " + p.summary;
    for (const ParamSpec& s : p.params) {
      char buf[200];
      std::snprintf(buf, sizeof buf, "\n      %s = %g in [%g, %g]: %s", s.name.c_str(), s.default_value,
                    s.min_value, s.max_value, s.description.c_str());
      help += buf;
    }
  }
  return help;
}

int fail_command(const char* command, const std::string& message) {
  std::fprintf(stderr, "pathscope %s: %s\n", command, message.c_str());
  return kExitFailed;
}

}  // namespace pathscope::app
