#pragma once

// Paints any planner's search structure, read through Planner::visit_structure (the
// way Recast's debug draw reads Detour): cells on layer PlannerCells coloured by their
// value, edges on PlannerEdges, named auxiliary shapes on PlannerAux. The painter knows
// no planner family. Only what lies inside the view box is visited, and at most
// `max_primitives` are drawn, so a grid planner's million cells never flood a frame.

#include <cstddef>

#include "planner/core/search.hpp"
#include "render/core/draw_list.hpp"
#include "render/core/layer_set.hpp"

namespace pathscope::render {

/// Options of paint_structure().
struct StructurePaintParams {
  /// World box to paint (the visible part of the map).
  Box2 view;
  /// Stop after this many primitives in all (the result says whether it stopped).
  std::size_t max_primitives = 20000;
  /// Values at or below this are painted with the ramp's low end; at or above `value_high` its high end.
  double value_low = 1;
  /// See value_low.
  double value_high = 4;
};

/// What paint_structure() drew.
struct StructurePaintStats {
  std::size_t cells = 0;
  std::size_t edges = 0;
  std::size_t shapes = 0;
  bool truncated = false;  ///< max_primitives was reached.
};

/// Colours of the structure layers.
namespace structure_palette {
inline constexpr Color kCellLow{90, 200, 120, 70};       ///< Value at value_low.
inline constexpr Color kCellHigh{230, 120, 40, 110};     ///< Value at value_high.
inline constexpr Color kCellBlocked{40, 40, 40, 140};    ///< Infinite value.
inline constexpr Color kCellOutline{230, 230, 230, 120};
inline constexpr Color kEdge{150, 210, 255, 150};
inline constexpr Color kEdgeDirected{255, 210, 120, 170};
inline constexpr Color kShape{255, 120, 220, 200};
}  // namespace structure_palette

/// Appends the planner's structure inside params.view to `out`, on the layers of
/// `layers` among PlannerCells, PlannerEdges and PlannerAux.
StructurePaintStats paint_structure(const Planner& planner, const LayerSet& layers, DrawList& out,
                                    const StructurePaintParams& params);

}  // namespace pathscope::render
