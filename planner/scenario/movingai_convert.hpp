#pragma once

// A Moving AI map, and optionally its problems, as a Scenario. Which terrain type each
// map character becomes is listed at the top of movingai_convert.cpp.

#include <cstddef>
#include <limits>
#include <span>

#include "planner/scenario/movingai_parse.hpp"
#include "planner/scenario/scenario.hpp"

namespace pathscope {

/// A scenario with the map as its tile grid (1 m cells), one movement class "ground"
/// and one terrain type per Moving AI character that occurs (ground always first). No queries.
Scenario movingai_to_scenario(const MovingAiMap& map);

/// As above, plus one A* query per problem, at most `max_queries`, in file order. Start
/// and goal are cell centres; expected_length is the optimal length. The problems must
/// lie inside the map (see check_movingai_problems in movingai_check.hpp); asserted.
Scenario movingai_to_scenario(const MovingAiMap& map, std::span<const MovingAiProblem> problems,
                              std::size_t max_queries = std::numeric_limits<std::size_t>::max());

}  // namespace pathscope
