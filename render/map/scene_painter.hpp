#pragma once

// Turns the map into drawing: reads a PlanningWorld through a const reference and appends
// world-space primitives to a DrawList. Searches are drawn by render/trace_painter from
// their recorded traces. No window code.

#include <cstddef>
#include <optional>

#include "planner/world/planning_world.hpp"
#include "render/core/draw_list.hpp"
#include "render/core/layer_set.hpp"
#include "render/map/map_images.hpp"

namespace pathscope::render {

/// Options of paint_world().
struct WorldPaintParams {
  /// Query whose start and goal are marked (index into Scenario::queries); nullopt = all.
  std::optional<std::size_t> query;
  /// Keeps the raster images between calls and repaints only changed cells (the caller
  /// invalidates it as the world changes); nullptr paints them afresh.
  MapImages* images = nullptr;
};

/// Draws the map: terrain raster (Tiles), cost multipliers and regions of
/// `movement_class` (CostHeat, Regions), features, roads, bridges, threats and allies
/// (Influences), units, query markers and labels. Only layers in `layers` are drawn.
/// `movement_class` must be < world.class_count().
void paint_world(const PlanningWorld& world, std::size_t movement_class, const LayerSet& layers,
                 DrawList& out, const WorldPaintParams& params = {});

/// Colours used by the painter, exposed so panels can show a legend.
namespace palette {
inline constexpr Color kThreat{220, 40, 40, 255};
inline constexpr Color kAlly{40, 180, 70, 255};
inline constexpr Color kRoad{196, 170, 120, 230};
inline constexpr Color kBridge{130, 92, 56, 255};
inline constexpr Color kBridgeDestroyed{230, 40, 40, 255};
inline constexpr Color kStart{60, 220, 90, 255};
inline constexpr Color kGoal{235, 60, 60, 255};
inline constexpr Color kPath{255, 64, 200, 255};
inline constexpr Color kPartialPath{255, 160, 40, 255};
inline constexpr Color kCurrent{255, 255, 255, 255};
inline constexpr Color kLabel{245, 245, 245, 255};
}  // namespace palette

}  // namespace pathscope::render
