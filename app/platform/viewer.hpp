#pragma once

// The interactive window (SDL2 + Dear ImGui): `pathscope` and `pathscope open FILE`.

#include <string>

namespace pathscope::app {

/// Options of the window.
struct ViewerOptions {
  std::string scenario_path;  ///< Scenario to open ("" = the default scenario).
  int quit_after_frames = 0;  ///< > 0: close by itself after that many frames (smoke tests).
};

/// Opens the window and runs until it is closed. Returns the process exit code; with no
/// display, prints a message pointing to the headless commands and returns 1.
int run_viewer(const ViewerOptions& options);

}  // namespace pathscope::app
