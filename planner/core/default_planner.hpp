#pragma once

// The planner used where none is named: a query or a movement class without a `planner`
// field, a query drawn in the window, the CLI without --planner.

namespace pathscope {

/// Registry name of the default planner: grid A*, exact on every terrain and every map.
inline constexpr char kDefaultPlanner[] = "astar";

}  // namespace pathscope
