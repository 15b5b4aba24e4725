// Checks of Moving AI problems: against their map, and a found length against the
// stored optimum.
//
// Comparison tolerance. The lengths are printed with 8 decimals, 6 significant digits or
// 2 decimals depending on the release (../shared/benchmarks/movingai/README.md), and the
// printed value is not always the exact length rounded: some published files truncate
// it, or print a length summed in single precision, so an exact 3175.91500578 can be
// stored as 3175.91. Half a unit of the last printed digit covers rounding only; one unit
// covers truncation as well, and a single-precision sum whose error is small against the
// printed digit. The check stays symmetric because such a sum may land on either side of
// the exact length. So each problem carries
//   max(1e-3, one unit of its last printed digit) + 1e-9:
// the 1e-3 floor is the tolerance the benchmark README gives for the 8-decimal files
// (they agree with an exact double computation to better than 2e-7), and 1e-9 absorbs
// the binary representation of the parsed decimals.
//
// A length printed without trailing zeros (the 6-significant-digit release prints
// 1084.00 as "1084") is taken at its printed precision, coarser than it needs to be: the
// field alone cannot tell which release wrote it, and erring coarse never fails a
// correct path.

#include "planner/scenario/movingai_check.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <system_error>
#include <utility>

#include <glm/geometric.hpp>

namespace pathscope {

namespace {

bool parse_int(std::string_view text, int& out) {
  if (text.empty()) return false;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && ptr == text.data() + text.size();
}

}  // namespace

double movingai_length_tolerance(std::string_view printed_length) {
  constexpr double kFloor = 1e-3;
  constexpr double kSlack = 1e-9;
  std::size_t i = 0;
  if (i < printed_length.size() && (printed_length[i] == '+' || printed_length[i] == '-')) ++i;
  int decimals = 0;
  bool after_point = false;
  for (; i < printed_length.size(); ++i) {
    const char c = printed_length[i];
    if (c == '.') {
      after_point = true;
    } else if (c >= '0' && c <= '9') {
      if (after_point) ++decimals;
    } else {
      break;
    }
  }
  int exponent = 0;
  if (i < printed_length.size() && (printed_length[i] == 'e' || printed_length[i] == 'E')) {
    std::string_view rest = printed_length.substr(i + 1);
    if (!rest.empty() && rest.front() == '+') rest.remove_prefix(1);
    if (!parse_int(rest, exponent)) exponent = 0;
  }
  const double unit = std::pow(10.0, static_cast<double>(exponent - decimals));
  return std::max(kFloor, unit) + kSlack;
}

Status check_movingai_problems(const MovingAiMap& map, std::span<const MovingAiProblem> problems,
                               const std::string& scen_source) {
  for (const MovingAiProblem& p : problems) {
    const std::string where = scen_source + ":" + std::to_string(p.line);
    if (p.map_width != map.width || p.map_height != map.height) {
      return make_error(ErrorCode::Value, where,
                        "declares a " + std::to_string(p.map_width) + "x" + std::to_string(p.map_height) +
                            " map, but " + map.name + " is " + std::to_string(map.width) + "x" +
                            std::to_string(map.height));
    }
    for (const glm::ivec2 cell : {p.start, p.goal}) {
      if (cell.x < 0 || cell.x >= map.width || cell.y < 0 || cell.y >= map.height) {
        return make_error(ErrorCode::Value, where,
                          "cell (" + std::to_string(cell.x) + ", " + std::to_string(cell.y) +
                              ") is outside the " + std::to_string(map.width) + "x" +
                              std::to_string(map.height) + " map");
      }
    }
  }
  return Ok{};
}

Result<MovingAiSet> load_movingai_set(const std::filesystem::path& scen_path) {
  auto problems = load_movingai_scen(scen_path);
  if (!problems) return problems.error();
  MovingAiSet set;
  set.problems = std::move(*problems);
  if (set.problems.empty()) return set;
  set.map_path = scen_map_path(scen_path, set.problems.front());
  auto map = load_movingai_map(set.map_path);
  if (!map) {
    Error e = map.error();
    e.message += " (map of " + scen_path.string() + ")";
    return e;
  }
  set.map = std::move(*map);
  if (Status ok = check_movingai_problems(set.map, set.problems, scen_path.string()); !ok) return ok.error();
  return set;
}

bool movingai_length_matches(double length, const MovingAiProblem& problem) {
  return std::abs(length - problem.optimal_length) <= problem.tolerance;
}

bool movingai_length_within(double length, const MovingAiProblem& problem, double max_ratio) {
  const double straight = glm::length(glm::dvec2(problem.goal - problem.start));
  return length <= max_ratio * problem.optimal_length + problem.tolerance &&
         length >= straight - problem.tolerance;
}

}  // namespace pathscope
