#pragma once

// Paints the answers of many queries at once (layer AllPaths): one thin polyline per path
// found, with the query's label at its goal end, so a designer sees at a glance how every
// unit would move, not only the active query's. The answers come from the caller (the
// debugger keeps one per query); nothing is planned here. No window code.

#include <span>
#include <string>
#include <vector>

#include "planner/core/types.hpp"
#include "render/core/draw_list.hpp"
#include "render/core/layer_set.hpp"

namespace pathscope::render {

/// One query's path to draw.
struct QueryPath {
  std::span<const Vec2> points;  ///< World polyline, metres, start to goal (fewer than 2: not drawn).
  std::string label;             ///< Text at the goal end on Labels ("" = none), e.g. "query 3".
};

/// Colours of the other queries' paths, for legends.
namespace query_paths_palette {
inline constexpr Color kPath{255, 170, 235, 170};   ///< The active path's colour, lighter and see-through.
inline constexpr Color kLabel{255, 200, 240, 255};  ///< Its label.
}  // namespace query_paths_palette

/// Appends one polyline per entry of `paths` with at least two points on layer AllPaths,
/// 2 px wide, and each non-empty label at the path's last point on Labels. Only layers in
/// `layers` are drawn: nothing at all without AllPaths.
void paint_query_paths(std::span<const QueryPath> paths, const LayerSet& layers, DrawList& out);

}  // namespace pathscope::render
