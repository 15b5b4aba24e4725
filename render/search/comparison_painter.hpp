#pragma once

// Paints the planner comparison (layer compared_paths): every planner's path on the same
// query, each in its own colour, so that where they part is seen on the map. A highlighted
// path (the row chosen in the comparison's table) is drawn last, wider and opaque, with its
// planner's name at its middle; the others are then dimmed. The paths come from the caller
// (the debugger's comparison); nothing is planned here. No window code.

#include <cstddef>
#include <optional>
#include <span>
#include <string>

#include "planner/core/types.hpp"
#include "render/core/draw_list.hpp"
#include "render/core/layer_set.hpp"

namespace pathscope::render {

/// One planner's path to draw.
struct ComparedPath {
  std::span<const Vec2> points;  ///< World polyline, metres, start to goal (fewer than 2: not drawn).
  Color color;                   ///< The planner's colour (its swatch in the comparison's legend).
  std::string label;             ///< The planner's name, drawn at the highlighted path's middle on Labels.
};

/// Width of a compared path, pixels, and of the highlighted one.
inline constexpr float kComparedPathWidth = 2.5f;
inline constexpr float kHighlightedPathWidth = 5.0f;
/// Alpha of the other paths while one is highlighted (they stay visible, behind it).
inline constexpr std::uint8_t kDimmedAlpha = 80;

/// Appends one polyline per entry of `paths` with at least two points on layer
/// ComparedPaths, in its colour, in order; entry `highlighted` (if any, and drawable) last,
/// kHighlightedPathWidth wide, its label at its middle point on Labels, and the others at
/// kDimmedAlpha. Nothing at all without ComparedPaths in `layers`.
void paint_compared_paths(std::span<const ComparedPath> paths, std::optional<std::size_t> highlighted,
                          const LayerSet& layers, DrawList& out);

}  // namespace pathscope::render
