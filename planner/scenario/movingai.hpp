#pragma once

// Moving AI Lab grid benchmarks, all of it: for callers that read the files, check the
// problems and convert them (the batch runner, the ground-truth tests). Each part has
// its own header:
//   movingai_parse.hpp    .map and .scen files -> MovingAiMap, MovingAiProblem
//   movingai_check.hpp    problems against their map; found lengths against the optimum
//   movingai_convert.hpp  a map and its problems -> Scenario

#include "planner/scenario/movingai_check.hpp"
#include "planner/scenario/movingai_convert.hpp"
#include "planner/scenario/movingai_parse.hpp"
