#pragma once

// The viewer's side panel: reads the session and returns what the user asked for. It
// changes nothing itself except the layer checkboxes it is handed.

#include <cstdint>
#include <optional>
#include <string>

#include "app/scene_session.hpp"
#include "render/layer_set.hpp"

namespace pathscope::app {

/// What the panel's widgets asked for this frame.
struct PanelRequest {
  std::optional<std::size_t> query;    ///< Run this query.
  std::optional<std::string> planner;  ///< Use this planner ("" = the query's own).
  std::optional<std::uint64_t> step;   ///< Show the search after this many expansions.
  bool layers_changed = false;         ///< A layer checkbox changed.
  bool fit = false;                    ///< Fit the world into the window.
};

/// State the panel shows but does not own.
struct PanelView {
  const SceneSession* session = nullptr;
  std::string planner_override;  ///< "" = the query's own planner.
  std::string error;             ///< Last error of a request, shown in red.
  Vec2 hover_world{0, 0};        ///< World point under the mouse.
  bool hover_valid = false;      ///< The mouse is over the map, not a panel.
  double zoom = 1;               ///< Pixels per metre.
};

/// Draws the panel (inside an ImGui frame); `layers` is edited in place.
PanelRequest viewer_panel(const PanelView& view, render::LayerSet& layers);

}  // namespace pathscope::app
