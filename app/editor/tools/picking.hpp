#pragma once

// Hit-testing: which item, or which handle of the selected item, lies under a world
// point. Distances are world metres; callers pass ToolContext::pick_radius().

#include <optional>

#include "app/editor/editor_state.hpp"
#include "planner/scenario/scenario.hpp"

namespace pathscope::app::tools {

/// The part of an item that was hit.
enum class Handle {
  Body,    ///< The item itself: dragging moves it.
  Vertex,  ///< Control point `index`: a polygon or road vertex, a bridge end (0 = a, 1 = b).
  Edge,    ///< Edge `index` (from vertex index to index + 1) of a polygon or road.
  Corner,  ///< Rect corner `index`: 0 (min.x, min.y), 1 (max.x, min.y), 2 max, 3 (min.x, max.y).
  Rim,     ///< The outline of a circle feature, threat or ally: dragging sets the radius.
};

/// What lies under the pointer.
struct Pick {
  Selection target;  ///< The item (vertex = -1).
  Handle handle = Handle::Body;
  int index = -1;  ///< Vertex, edge or corner index; -1 for Body and Rim.
  Vec2 at{0, 0};   ///< The handle's position (for edges: the nearest point on it).
};

/// Radius of the query markers as drawn, metres, for a pick radius of `radius`.
double marker_radius(const Scenario& s, double radius);

/// A handle of the selected item within `radius` of `p`: vertices, rect corners, rims
/// and bridge ends before edges. nullopt if none (or nothing is selected).
std::optional<Pick> pick_handle(const Scenario& s, const Selection& selected, Vec2 p, double radius);

/// The topmost item at `p`: query markers, units, threat and ally centres and rims,
/// bridges, roads, then features (the last drawn first). Threat and ally discs are
/// picked by their centre or rim only, so the features under them stay reachable.
std::optional<Pick> pick_item(const Scenario& s, Vec2 p, double radius);

/// pick_handle() on the selection, else pick_item().
std::optional<Pick> pick(const Scenario& s, const Selection& selected, Vec2 p, double radius);

}  // namespace pathscope::app::tools
