#pragma once

// What the editor knows besides the document: the selection, the active query and
// tool, the settings of the painting tools, the layers shown and the camera. The
// per-frame UI reads this and changes it through commands (Document edits) or plain
// settings; it holds no planner state (see SearchDebugger).

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "app/editor/document.hpp"
#include "app/editor/message_log.hpp"
#include "app/editor/ui_probe.hpp"
#include "render/core/camera.hpp"
#include "render/core/layer_set.hpp"

namespace pathscope::sim {
class Recording;
}

namespace pathscope::app {

/// What is selected on the map.
struct Selection {
  enum class Kind { None, Feature, Threat, Ally, Road, Bridge, Unit, QueryStart, QueryGoal };
  Kind kind = Kind::None;
  std::uint32_t id = 0;  ///< Item id (features, threats, ...) or query index (QueryStart/QueryGoal).
  int vertex = -1;       ///< Selected vertex of a polygon or road, -1 for the whole item.
  bool empty() const { return kind == Kind::None; }
  friend bool operator==(const Selection&, const Selection&) = default;
};

/// Settings of the painting tools, edited in the tool options panel.
struct PaintSettings {
  std::size_t brush_terrain = 0;     ///< Terrain index painted by the brush.
  int brush_size = 1;                ///< Brush diameter in cells (1..64).
  bool brush_round = false;          ///< Round or square brush.
  std::size_t obstacle_terrain = 0;  ///< Terrain of new obstacle shapes (an impassable one).
  std::size_t region_terrain = 0;    ///< Terrain of new region polygons/circles.
  bool region_keeps_walls = true;    ///< New regions go beneath the wall shapes they meet.
  double influence_strength = 1;     ///< Strength of new threats and allies.
  double road_width = 4;             ///< Metres.
  double road_speed_factor = 1.5;
  double bridge_width = 6;  ///< Metres.
  bool bridge_intact = true;
  std::size_t query_class = 0;  ///< Movement class of new queries.
};

/// An edit the inspector refused, shown under its field until anything else changes
/// (another edit, an undo, another document).
struct FieldError {
  std::uint64_t doc_serial = 0;
  std::uint64_t revision = 0;
  std::string field;    ///< The field's ImGui id.
  std::string message;  ///< The validator's message.
};

/// Editor state around one open document.
struct EditorState {
  std::unique_ptr<Document> doc;
  std::uint64_t doc_serial = 0;  ///< Increases whenever another document is opened.
  Selection selection;
  std::size_t active_query = 0;        ///< Index into the scenario's queries (clamped on use).
  std::string active_tool = "select";  ///< Name in the tool registry.
  PaintSettings paint;
  render::LayerSet layers = render::LayerSet::defaults();
  render::Camera camera;
  bool show_grid_lines = false;
  /// The planner comparison's view is open (View > Compare planners).
  bool show_comparison = false;
  MessageLog messages;         ///< Message panel, newest last, and its pinned error.
  FieldError inspector_error;  ///< The inspector's last refused edit.
  UiProbe probe;               ///< Named widget rectangles for the window test.
  /// A recording just opened (File > Open of a .psrec), for the simulation player to
  /// take at its next update; the document is the recording's scenario.
  std::shared_ptr<sim::Recording> opened_recording;

  /// Replaces the document (New, Open, Import) and resets what depends on it.
  void open_document(std::unique_ptr<Document> next);
  /// Appends an info message (something done: opened, saved, exported).
  void report(std::string message) { messages.add(Severity::Info, std::move(message)); }
  /// Appends a warning (done, but not quite as asked).
  void report_warning(std::string message) { messages.add(Severity::Warning, std::move(message)); }
  /// Appends an error (a failed load or save, a refused edit) and pins it at the top of
  /// the message panel until dismissed.
  void report_error(std::string message) { messages.add(Severity::Error, std::move(message)); }
};

}  // namespace pathscope::app
