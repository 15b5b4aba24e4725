#pragma once

// Paints any planner's search structure, read through Planner::visit_structure and
// Planner::visit_path_structure (the way Recast's debug draw reads Detour). Each item
// goes on the layer of its role (StructureRole): the planner's own cells on
// PlannerCells coloured by their value, their finer division (role Detail) outlined on
// PlannerDetail, its edges on PlannerEdges, its named auxiliary shapes on PlannerAux; the path's corridor on
// PlannerCorridor and its portals on PlannerPortals; a refinement stage's graph on RefinementGraph and its
// regions on RefinementRegion. The painter knows no planner family. Only what lies inside the view box is
// visited, and at most `max_primitives` are drawn, so a grid planner's million cells never flood a frame.

#include <cstddef>

#include "planner/core/search.hpp"
#include "render/core/draw_list.hpp"
#include "render/core/layer_set.hpp"

namespace pathscope::render {

/// Options of paint_structure() and paint_path_structure().
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
inline constexpr Color kCellLow{90, 200, 120, 70};     ///< Value at value_low.
inline constexpr Color kCellHigh{230, 120, 40, 110};   ///< Value at value_high.
inline constexpr Color kCellBlocked{40, 40, 40, 140};  ///< Infinite value.
inline constexpr Color kCellOutline{230, 230, 230, 120};
inline constexpr Color kEdge{150, 210, 255, 150};
inline constexpr Color kEdgeDirected{255, 210, 120, 200};  ///< One-way edges, with an arrow head.
inline constexpr Color kShape{255, 120, 220, 200};         ///< Auxiliary shapes (role Structure).
inline constexpr Color kDetail{170, 235, 255, 110};        ///< The cells' finer division (role Detail).
inline constexpr Color kCorridorFill{255, 255, 255, 40};   ///< The path's cells.
inline constexpr Color kCorridorOutline{255, 235, 110, 230};
inline constexpr Color kPortal{255, 150, 30, 240};     ///< The path's portals.
inline constexpr Color kGraph{110, 200, 255, 200};     ///< A refinement's graph (value 0).
inline constexpr Color kGraphAlt{200, 160, 255, 230};  ///< ... its items of value 1.
inline constexpr Color kRegionFill{255, 220, 60, 55};  ///< A refinement's region.
inline constexpr Color kRegion{255, 220, 60, 230};     ///< Its outlines and points (value 0).
inline constexpr Color kRegionAlt{255, 70, 70, 255};   ///< ... its items of value 1.
inline constexpr Color kPicked{255, 250, 90, 245};     ///< A picked node's links and the node.
}  // namespace structure_palette

/// The layer an item of `role` is drawn on. Structure items go on `own`, the layer of
/// their kind (PlannerCells, PlannerEdges or PlannerAux).
Layer role_layer(StructureRole role, Layer own);

/// Appends one shape on its role's layer (PlannerAux for role Structure), if `layers`
/// holds it; returns whether it drew. Links get arrow heads `arrow_metres` long (at
/// most 40% of the link).
bool paint_structure_shape(const StructureShape& shape, const LayerSet& layers, DrawList& out,
                           double arrow_metres);

/// Appends the planner's structure inside params.view to `out`: its Structure items on
/// the layers of `layers` among PlannerCells, PlannerEdges and PlannerAux, its Detail
/// shapes on PlannerDetail. Items of other roles a planner gives here are left to
/// paint_path_structure().
StructurePaintStats paint_structure(const Planner& planner, const LayerSet& layers, DrawList& out,
                                    const StructurePaintParams& params);

/// Appends the links of one node (the edges of the planner's structure with `node` at an
/// end, by id, or by position for edges without ids) on PlannerEdges, highlighted, and
/// a ring round the node; nothing if `layers` lacks PlannerEdges. Visits the structure
/// in a box round the node only (planners report an edge from an end inside the box).
/// Returns how many links it drew.
std::size_t paint_node_links(const Planner& planner, NodeId node, const LayerSet& layers, DrawList& out);

/// Appends the structure of the planner's last path (Planner::visit_path_structure) to
/// `out`, each item on its role's layer if `layers` holds it: the corridor's cells
/// outlined on PlannerCorridor, the portals on PlannerPortals. params.view is ignored
/// (the path is short); edges are not drawn.
StructurePaintStats paint_path_structure(const Planner& planner, const LayerSet& layers, DrawList& out,
                                         const StructurePaintParams& params = {});

}  // namespace pathscope::render
