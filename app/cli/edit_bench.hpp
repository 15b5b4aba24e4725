#pragma once

// `pathscope edit-bench`: times what the window does after each edit, with no display:
// the world update, the re-plan of the queries, repainting the map and the search, and
// drawing the frame (texture uploads included) in the software renderer.

#include <cstdint>
#include <string>

namespace pathscope::app {

/// Options of `pathscope edit-bench`.
struct EditBenchOptions {
  std::string scenario_path;  ///< Scenario JSON or Moving AI .map ("" = maps/default.json).
  int edits = 60;             ///< Edits to make and time.
  std::uint64_t seed = 1;     ///< Where the edits go (same seed, same edits).
  int brush = 3;              ///< Brush half-size in cells (a stroke is 2 * brush + 1 wide).
  int width = 1280;           ///< Frame size, pixels.
  int height = 800;
  bool all_layers = false;  ///< Draw every layer (cost heat map and regions too).
};

/// Runs the benchmark and prints a table; returns the exit code.
int run_edit_bench(const EditBenchOptions& options);

}  // namespace pathscope::app
