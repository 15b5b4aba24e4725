#pragma once

// Moving AI problems checked against their map, and a found path length checked against
// a problem's stored optimal length. How the tolerance follows the printed length is
// described at the top of movingai_check.cpp.

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "planner/core/result.hpp"
#include "planner/scenario/movingai_parse.hpp"

namespace pathscope {

/// The comparison tolerance implied by a printed length: one unit of its last printed
/// digit, at least 1e-3, plus 1e-9 of slack. E.g. "371.752" (1e-3), "1007.22" (0.01),
/// "2628.3" (0.1), "1084" (1), "12.12345678" (1e-3).
double movingai_length_tolerance(std::string_view printed_length);

/// Checks that every problem declares the map's size and has its start and goal inside
/// it. `scen_source` names the scen file in errors ("file:line").
Status check_movingai_problems(const MovingAiMap& map, std::span<const MovingAiProblem> problems,
                               const std::string& scen_source);

/// A .scen file's problems and the map they are on, checked against each other.
struct MovingAiSet {
  std::vector<MovingAiProblem> problems;  ///< In file order.
  std::filesystem::path map_path;         ///< The map the first problem names (scen_map_path).
  MovingAiMap map;                        ///< Empty when there are no problems.
};

/// Reads a .scen file and the map its first problem names, and checks that every problem
/// fits the map (check_movingai_problems). A file of no problems reads no map. Errors name
/// the file and line; a map's errors also say whose map it is.
Result<MovingAiSet> load_movingai_set(const std::filesystem::path& scen_path);

/// True when `length` (cells) is the problem's optimal length within its tolerance: the
/// check for exact planners.
bool movingai_length_matches(double length, const MovingAiProblem& problem);

/// True when `length` (cells) is at most `max_ratio` times the optimal length and at
/// least the straight line between the start and goal cell centres, both within the
/// problem's tolerance: the check for inexact planners.
bool movingai_length_within(double length, const MovingAiProblem& problem, double max_ratio);

}  // namespace pathscope
