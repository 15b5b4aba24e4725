#pragma once

// Constructors of the editing tools, one per app/tools/<name>_tool.cpp. The registry
// (tool_registry.cpp) lists them; tests create them directly.

#include <memory>

#include "app/editor/tool.hpp"

namespace pathscope::app::tools {

/// Select, move and delete items, vertices and query markers.
std::unique_ptr<Tool> make_select_tool();
/// Obstacle polygons: click vertices, close on the first point or with Enter.
std::unique_ptr<Tool> make_polygon_tool();
/// Obstacle rects: drag from corner to corner.
std::unique_ptr<Tool> make_rect_tool();
/// Obstacle circles: press the centre, drag the radius.
std::unique_ptr<Tool> make_circle_tool();
/// Terrain brush painting the tile grid.
std::unique_ptr<Tool> make_brush_tool();
/// Terrain region polygons (shift-drag: circles).
std::unique_ptr<Tool> make_region_tool();
/// Threat zones: press the centre, drag the radius.
std::unique_ptr<Tool> make_threat_tool();
/// Ally zones: press the centre, drag the radius.
std::unique_ptr<Tool> make_ally_tool();
/// Roads: click points, Enter or a second click on the last point ends.
std::unique_ptr<Tool> make_road_tool();
/// Bridges: drag from one end to the other.
std::unique_ptr<Tool> make_bridge_tool();
/// Queries: drag from start to goal.
std::unique_ptr<Tool> make_query_tool();
/// Simulated units: select (click, box), order to move (right click, Shift adds waypoints).
std::unique_ptr<Tool> make_units_tool();

}  // namespace pathscope::app::tools
