#pragma once

// A new, empty scenario from a world size and a cell size (File > New in the editor).

#include <cstddef>

#include "planner/core/result.hpp"
#include "planner/scenario/scenario.hpp"

namespace pathscope {

/// Settings of a new scenario.
struct NewScenarioParams {
  double width = 128;       ///< World width, metres (0 < width <= ScenarioLimits::kMaxWorldSide).
  double height = 96;       ///< World height, metres.
  double cell_size = 1;     ///< Metres (>= kMinCellSize; at most kMaxGridSide cells per side).
  std::size_t terrain = 0;  ///< Index into default_terrain_types() filling the tile grid.
};

/// A new scenario named "untitled": default classes and terrains, no items, and a tile
/// grid of `params.terrain` over every whole cell of the world (a partial last row or
/// column is ground). The result is valid. Bad input is a Value or Limit error whose
/// `where` names the field ("world.width", "world.height", "world.cell_size", "terrain").
Result<Scenario> make_new_scenario(const NewScenarioParams& params);

}  // namespace pathscope
