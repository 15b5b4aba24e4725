// The tool registry: every editing tool, once, in toolbar order. The window builds its
// toolbar and its letter shortcuts from this list.

#include "app/editor/tool.hpp"
#include "app/editor/tools/tool_factories.hpp"

#include <vector>

namespace pathscope::app {

std::span<const ToolInfo> tool_registry() {
  using namespace tools;
  static const std::vector<ToolInfo> kTools = {
      {"select", "Select", 'v',
       "Select (V): click an item, drag to move it or its vertices, Shift+click an edge to add a vertex, "
       "Delete removes",
       make_select_tool},
      {"polygon", "Polygon", 'p',
       "Obstacle polygon (P): click vertices; click the first one, double-click or press Enter to close; "
       "Escape "
       "cancels",
       make_polygon_tool},
      {"rect", "Rect", 'r', "Obstacle rectangle (R): drag from corner to corner", make_rect_tool},
      {"circle", "Circle", 'c', "Obstacle circle (C): press the centre, drag the radius", make_circle_tool},
      {"brush", "Brush", 'b', "Terrain brush (B): paint tiles; one drag is one undo step", make_brush_tool},
      {"region", "Region", 'g',
       "Terrain region (G): click a polygon like the obstacle tool; Shift+drag for a circle",
       make_region_tool},
      {"threat", "Threat", 't', "Threat zone (T): press the centre, drag the radius", make_threat_tool},
      {"ally", "Ally", 'a', "Ally zone (A): press the centre, drag the radius", make_ally_tool},
      {"road", "Road", 'o', "Road (O): click points; Enter or clicking the last point again ends it",
       make_road_tool},
      {"bridge", "Bridge", 'k', "Bridge (K): drag from one end to the other", make_bridge_tool},
      {"query", "Query", 'q', "Path query (Q): drag from the start to the goal", make_query_tool},
      {"units", "Units", 'u',
       "Units (U): click a unit to select it, drag a box round several; right-click orders them there, "
       "Shift+right-click adds a waypoint, a right drag sets a platoon's final heading; the first click "
       "starts the simulation",
       make_units_tool},
  };
  return kTools;
}

const ToolInfo* find_tool(std::string_view name) {
  for (const ToolInfo& info : tool_registry()) {
    if (info.name == name) return &info;
  }
  return nullptr;
}

}  // namespace pathscope::app
