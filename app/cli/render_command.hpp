#pragma once

// `pathscope render`: draws a scenario and its search to a PNG with no display.

#include <optional>
#include <string>
#include <vector>

#include "app/editor/editor_state.hpp"
#include "planner/core/result.hpp"
#include "render/core/camera.hpp"

namespace pathscope::app {

/// Options of `pathscope render`.
struct RenderOptions {
  std::string scenario_path;
  std::string out_path;
  int width = 1280;                 ///< Pixels.
  int height = 800;                 ///< Pixels.
  std::string planner;              ///< "" = the query's own planner.
  std::vector<std::string> params;  ///< "name=value" overrides of the planner's parameters.
  int query = 0;                    ///< Index into the scenario's queries.
  long long step = -1;              ///< Trace step to show; -1 = the finished search.
  std::vector<std::string> layers;  ///< Empty = the default layers; {"all"} = every layer.
  int frames = 1;                   ///< > 1: draw that many frames and print ms per frame.
  double motion_seconds = 0;        ///< Moves the features with a velocity this long first (fixed steps).
  /// >= 0: builds the unit simulation from the scenario (after --motion), runs this many
  /// fixed steps and draws its units, paths, collisions and density; -1 = none.
  long long sim_steps = -1;
  /// A picked node: the planner's node at this world point (as a click picks the
  /// breakpoint's), its links highlighted; empty = none.
  std::optional<Vec2> pick;
};

/// Loads a scenario JSON or Moving AI .map (maps/default.json when `path` is empty)
/// into an editor state, as the window would. Errors name the file.
Result<EditorState> open_editor_state(const std::string& path);

/// The camera the window opens with: the whole world fitted into `viewport_size`
/// pixels, or the scenario's saved view.
render::Camera initial_camera(const Scenario& scenario, Vec2 viewport_size);

/// Runs the command and prints "wrote PATH (WxH)"; returns the exit code (0 ok, 1 bad
/// input or failure).
int run_render_command(const RenderOptions& options);

}  // namespace pathscope::app
