#include <algorithm>
#include <charconv>
#include <cmath>

#include "app/cli/cli_commands.hpp"
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

}  // namespace pathscope::app
