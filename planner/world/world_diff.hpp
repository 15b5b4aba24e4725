#pragma once

// The items that differ between two versions of a scenario, by stable id, and the
// world-space box they cover before and after: the item part of a WorldChange.

#include <vector>

#include "planner/core/types.hpp"
#include "planner/scenario/scenario.hpp"

namespace pathscope {

/// Items added, removed or changed between `before` and `after` (features, roads,
/// bridges, threats, allies, units by id; the tile grid as one item), sorted by
/// (kind, id). `area` is set to the world box of their old and new extents.
std::vector<ItemRef> diff_items(const Scenario& before, const Scenario& after, Box2& area);

/// World-space bounding box of a feature's shape.
Box2 feature_box(const Feature& feature);

}  // namespace pathscope
