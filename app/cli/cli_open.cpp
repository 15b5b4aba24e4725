// `pathscope [FILE]` and `pathscope open [FILE]`: the window (app/platform/viewer.hpp).
// `pathscope FILE` is `pathscope open FILE`: CLI11 tries sub-command names before
// positionals, so `solve`, `render`, ... still name their sub-commands.

#include <memory>
#include <string>

#include <CLI/CLI.hpp>

#include "app/cli/command_table.hpp"
#include "app/platform/viewer.hpp"

namespace pathscope::app {
namespace {

CliRunner add_window_options(CLI::App& command) {
  auto options = std::make_shared<ViewerOptions>();
  command.add_option("file", options->scenario_path, "scenario JSON or Moving AI .map to open in the window");
  command.add_option("--quit-after-frames", options->quit_after_frames,
                     "close by itself after N frames (tests)");
  return [options] { return run_viewer(*options); };
}

CliRunner add_open_options(CLI::App& command) {
  auto options = std::make_shared<ViewerOptions>();
  command.add_option("file", options->scenario_path, "scenario JSON or Moving AI .map");
  const CLI::Option* frames = command.add_option("--quit-after-frames", options->quit_after_frames,
                                                 "close by itself after N frames (tests)");
  // `pathscope --quit-after-frames N open FILE`: the option of `pathscope` itself, given
  // before `open`, counts when `open` has none of its own.
  const CLI::Option* frames_before = command.get_parent()->get_option_no_throw("--quit-after-frames");
  return [options, frames, frames_before] {
    ViewerOptions viewer = *options;
    if (frames->count() == 0 && frames_before != nullptr && frames_before->count() > 0)
      viewer.quit_after_frames = frames_before->as<int>();
    return run_viewer(viewer);
  };
}

}  // namespace

const CliCommand kWindowCommand{
    "", "Pathscope: plan, watch and debug unit paths for real-time strategy games", add_window_options};
const CliCommand kOpenCommand{"open", "open a scenario in the window (the default)", add_open_options};

}  // namespace pathscope::app
