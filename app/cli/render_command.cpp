// `pathscope render`: the window's drawing path with no window. The scenario is planned
// by the same SearchDebugger as the editor and --step K seeks its recorded trace, drawn
// by the same trace painter. SDL's software renderer draws into a surface; Dear ImGui's
// SDL_Renderer backend renders the same draw data the window shows; the pixels are read
// back and written as PNG.

#include "app/cli/render_command.hpp"
#include "app/editor/tools/item_edit.hpp"
#include "planner/core/default_planner.hpp"

#include "app/cli/cli_commands.hpp"
#include "app/cli/command_table.hpp"
#include "app/debugger/search_debugger.hpp"
#include "app/editor/default_scenario.hpp"
#include "app/editor/editor_state.hpp"
#include "app/platform/png_export.hpp"
#include "planner/core/planner_registry.hpp"
#include "planner/scenario/feature_motion.hpp"
#include "planner/sim/simulation.hpp"
#include "render/core/draw_list.hpp"
#include "render/core/layer_set.hpp"
#include "render/map/scene_painter.hpp"
#include "render/sim/sim_painter.hpp"

#include <cmath>

#include <imgui.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace pathscope::app {
namespace {

std::string status_text(const SearchDebugger& dbg) {
  const PathResult* r = dbg.result();
  if (!r) return dbg.error().empty() ? "no query run" : dbg.error();
  const auto expansions = static_cast<unsigned long long>(r->stats.expansions);
  char buf[256];
  if (r->status == SearchStatus::Found) {
    std::snprintf(buf, sizeof buf, "%s: found, length %.2f m, cost %.2f, %llu expansions",
                  dbg.active_planner().c_str(), r->length, r->cost, expansions);
  } else {
    std::snprintf(buf, sizeof buf, "%s: %s, %llu expansions", dbg.active_planner().c_str(),
                  to_string(r->status), expansions);
  }
  return buf;
}

// "step 120, t = 4.00 s, 3/5 arrived, hash 0123456789abcdef": the simulation's line.
std::string sim_line(const sim::Simulation& s) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "simulation: step %llu, t = %.2f s, %zu/%zu arrived, hash %016llx",
                static_cast<unsigned long long>(s.step_count()), s.time(), s.arrived_count(),
                s.ordered_count(), static_cast<unsigned long long>(s.state_hash()));
  return buf;
}

void status_overlay(const EditorState& state, const SearchDebugger& dbg, bool show_step,
                    const sim::Simulation* sim) {
  ImGui::SetNextWindowPos(ImVec2(8, 8));
  ImGui::SetNextWindowBgAlpha(0.65f);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                                 ImGuiWindowFlags_NoInputs | ImGuiWindowFlags_NoSavedSettings;
  if (ImGui::Begin("##status", nullptr, flags)) {
    const Scenario& s = state.doc->scenario();
    ImGui::TextUnformatted(s.name.empty() ? state.doc->display_name().c_str() : s.name.c_str());
    if (const auto q = dbg.active_query()) {
      ImGui::TextUnformatted(tools::query_label(s, *q).c_str());  // numbered from 1, as in the window
    }
    ImGui::TextUnformatted(status_text(dbg).c_str());
    if (show_step) {
      ImGui::Text("step %llu of %llu", static_cast<unsigned long long>(dbg.step()),
                  static_cast<unsigned long long>(dbg.total_steps()));
    }
    if (sim) ImGui::TextUnformatted(sim_line(*sim).c_str());
  }
  ImGui::End();
}

}  // namespace

Result<EditorState> open_editor_state(const std::string& path) {
  std::string file = path;
  if (file.empty()) {
    const auto found = find_default_scenario();
    if (!found) {
      return make_error(ErrorCode::Io, "maps/default.json",
                        "no default scenario in the working directory or the source tree; give a file");
    }
    file = found->string();
  }
  Result<Scenario> loaded = load_any_scenario(file);
  if (!loaded) return loaded.error();
  EditorState state;
  state.open_document(std::make_unique<Document>(std::move(loaded).value(), file));
  return state;
}

render::Camera initial_camera(const Scenario& s, Vec2 viewport_size) {
  render::Camera cam;
  cam.set_viewport({0, 0}, viewport_size);
  cam.fit({0, 0}, {s.world.width, s.world.height});
  if (s.viewer.zoom) cam.set_zoom(*s.viewer.zoom);
  if (s.viewer.center) cam.set_center(*s.viewer.center);
  return cam;
}

int run_render_command(const RenderOptions& options) {
  if (options.out_path.empty()) return fail_command("render", "no output file (--out)");
  if (options.width <= 0 || options.height <= 0)
    return fail_command("render", "the image size must be positive");
  Result<render::LayerSet> layers = render::LayerSet::parse(options.layers);
  if (!layers) return fail_command("render", layers.error().to_string());

  Result<EditorState> opened = open_editor_state(options.scenario_path);
  if (!opened) return fail_command("render", opened.error().to_string());
  EditorState& state = *opened;
  if (options.motion_seconds > 0) {
    // As the window's Play would: whole fixed steps, so the picture matches it.
    if (options.motion_seconds > 3600) {
      char text[96];
      std::snprintf(text, sizeof text, "--motion %g: at most 3600 s", options.motion_seconds);
      return fail_command("render", text);
    }
    const auto steps = static_cast<long long>(std::llround(options.motion_seconds / kFeatureMotionStep));
    const Status moved = state.doc->apply("Move features", [steps](Scenario& s) {
      for (long long i = 0; i < steps; ++i) advance_features(s, kFeatureMotionStep);
    });
    if (!moved) return fail_command("render", moved.error().to_string());
  }
  const Scenario& scenario = state.doc->scenario();
  const std::size_t query_count = scenario.queries.size();
  if (query_count > 0 || options.query != 0) {
    if (options.query < 0)
      return fail_command("render", "--query " + std::to_string(options.query) + ": must be >= 0");
    if (static_cast<std::size_t>(options.query) >= query_count) {
      return fail_command("render", "queries[" + std::to_string(options.query) +
                                        "]: no such query (the scenario has " + std::to_string(query_count) +
                                        ")");
    }
    state.active_query = static_cast<std::size_t>(options.query);
  }
  SearchDebugger debugger;
  if (!options.planner.empty() || !options.params.empty()) {
    // The chosen planner (or the query's own) with the given parameters over its defaults.
    const std::string name = !options.planner.empty() ? options.planner
                             : query_count > 0        ? scenario.queries[state.active_query].planner
                                                      : std::string(kDefaultPlanner);
    auto info = require_planner(name, options.planner.empty()
                                          ? "queries[" + std::to_string(state.active_query) + "].planner"
                                          : "--planner");
    if (!info) return fail_command("render", info.error().to_string());
    auto overrides = parse_param_overrides(options.params);
    if (!overrides) return fail_command("render", overrides.error().to_string());
    auto values = resolve_params(**info, *overrides, "--param");
    if (!values) return fail_command("render", values.error().to_string());
    debugger.set_planner_override((*info)->name, *values);
  }
  debugger.sync(state);
  if (!debugger.error().empty()) return fail_command("render", debugger.error());
  // The replay of the recorded search at step K: the same trace painter as the window.
  if (options.step >= 0) debugger.seek(static_cast<std::uint64_t>(options.step));

  // The unit simulation, N fixed steps from the scenario, as the window's Step would.
  std::unique_ptr<sim::Simulation> simulation;
  render::DrawList sim_drawing;
  if (options.sim_steps >= 0) {
    constexpr long long kMaxSimSteps = 1000000;
    if (options.sim_steps > kMaxSimSteps) {
      return fail_command("render", "--sim-steps " + std::to_string(options.sim_steps) + ": at most " +
                                        std::to_string(kMaxSimSteps));
    }
    Result<std::unique_ptr<sim::Simulation>> created = sim::Simulation::create(scenario);
    if (!created) return fail_command("render", options.scenario_path + ": " + created.error().to_string());
    simulation = std::move(*created);
    for (long long i = 0; i < options.sim_steps; ++i) simulation->step();
    render::paint_sim(render::sim_scene(*simulation), *layers, sim_drawing);
    std::printf("%s\n", sim_line(*simulation).c_str());
  }

  // The map is painted once, as the window does until the document changes; the search
  // overlay is painted every frame. Map layers above the search (units, markers,
  // labels) go into a second list so that the drawing order stays that of Layer.
  render::DrawList below, structure, overlay, above;
  debugger.paint_map(render::map_layers(*layers, false), below);
  render::LayerSet above_layers = render::map_layers(*layers, true);
  // The simulation's units stand in for the scenario's, as in the window.
  if (simulation) above_layers.set(render::Layer::Units, false);
  debugger.paint_map(above_layers, above);

  // Offscreen: SDL's software renderer with its own ImGui context (app/png_export.hpp).
  Result<std::unique_ptr<OffscreenCanvas>> canvas = OffscreenCanvas::create(options.width, options.height);
  if (!canvas) return fail_command("render", canvas.error().to_string());
  const render::Camera camera = initial_camera(scenario, {options.width, options.height});
  const render::DrawList* lists[] = {&below, &structure, &overlay, &sim_drawing, &above};
  // The planner's structure (planner_cells, planner_edges, planner_aux) in the view.
  const render::StructurePaintStats shown = debugger.paint_structure(
      *layers, Box2::spanning(camera.visible_min(), camera.visible_max()), structure);
  if (options.pick) {
    const std::optional<NodeId> node = debugger.node_at(*options.pick);
    if (!node) {
      char text[160];
      std::snprintf(text, sizeof text, "--pick %g,%g: no node of the planner there", options.pick->x,
                    options.pick->y);
      return fail_command("render", text);
    }
    const std::size_t n = debugger.paint_node_links(*node, *layers, structure);
    std::printf("picked %s: %zu links\n", debugger.node_label(*node).c_str(), n);
  }
  if (shown.truncated) {
    std::printf(
        "planner structure: %zu cells, %zu edges, %zu shapes drawn, then the primitive limit was reached\n",
        shown.cells, shown.edges, shown.shapes);
  }
  double overlay_ms = 0;

  // One whole frame: the search overlay painted from the replay, every list replayed
  // into ImGui, the status window, the software rasterisation.
  auto frame = [&] {
    const auto p0 = std::chrono::steady_clock::now();
    overlay.clear();
    debugger.paint(*layers, overlay, camera.zoom());
    overlay_ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - p0).count();
    // The structure is painted once, as the window keeps it between frames: drawn
    // through its texture.
    (*canvas)->draw_frame(
        lists, camera, [&] { status_overlay(state, debugger, options.step >= 0, simulation.get()); },
        KeptList{&structure, 1, {}});
  };
  // ImGui sizes auto-fitting windows on their first frame, and the overlay's images
  // are built and uploaded then; that frame is not timed.
  frame();
  overlay_ms = 0;
  const int frames = std::max(1, options.frames);
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < frames; ++i) frame();
  const auto t1 = std::chrono::steady_clock::now();
  if (options.frames > 1) {
    const double ms = std::chrono::duration<double, std::milli>(t1 - t0).count() / frames;
    std::printf("%d frames, mean %.2f ms/frame\n", frames, ms);
    std::printf("search overlay painting: mean %.2f ms/frame (re-plan %.2f ms)\n", overlay_ms / frames,
                debugger.last_plan_ms());
  }
  if (Status written = (*canvas)->write_png(options.out_path); !written)
    return fail_command("render", written.error().to_string());
  std::printf("wrote %s (%dx%d)\n", options.out_path.c_str(), options.width, options.height);
  return kExitOk;
}

namespace {

// The command line of `render`: the options, and the text of those checked before the
// run (size, layers, picked point).
struct RenderArgs {
  RenderOptions options;
  std::string size = "1280x800";  // WxH
  std::string layers;             // comma-separated
  std::string pick;               // X,Y in metres
};

// Fills `o` from the text of `args` once checked; returns kExitOk, or kExitUsage after
// saying what is wrong.
int parse_typed(const RenderArgs& args, RenderOptions& o) {
  const auto size = parse_pixel_size(args.size);
  if (!size) {
    std::fprintf(stderr, "pathscope render: --size %s: expected WxH with 1..16384 pixels per side\n",
                 args.size.c_str());
    return kExitUsage;
  }
  o.width = (*size)[0];
  o.height = (*size)[1];
  const std::string& layers = args.layers;
  for (std::size_t pos = 0; !layers.empty() && pos <= layers.size();) {
    const std::size_t comma = std::min(layers.find(',', pos), layers.size());
    if (comma > pos) o.layers.push_back(layers.substr(pos, comma - pos));
    pos = comma + 1;
  }
  if (!args.pick.empty()) {
    double x = 0, y = 0;
    char extra = 0;
    if (std::sscanf(args.pick.c_str(), "%lf,%lf%c", &x, &y, &extra) != 2 || !std::isfinite(x) ||
        !std::isfinite(y)) {
      std::fprintf(stderr, "pathscope render: --pick %s: expected X,Y in metres\n", args.pick.c_str());
      return kExitUsage;
    }
    o.pick = Vec2{x, y};
  }
  return kExitOk;
}

CliRunner add_render_options(CLI::App& command) {
  auto args = std::make_shared<RenderArgs>();
  RenderOptions& o = args->options;
  command.add_option("file", o.scenario_path, "scenario JSON or Moving AI .map")->required();
  command.add_option("--out", o.out_path, "PNG file to write")->required();
  command.add_option("--size", args->size, "image size WxH in pixels");
  command.add_option("--planner", o.planner, planner_help());
  command.add_option("--query", o.query, "query index (0-based)");
  command.add_option("--step", o.step, "show the search after K expansions");
  command.add_option("--layers", args->layers, "comma-separated layers, or all");
  command.add_option("--param", o.params, "planner parameter override, name=value (repeatable)");
  command.add_option("--frames", o.frames, "draw N frames and print the mean ms per frame");
  command.add_option("--motion", o.motion_seconds,
                     "first move the features that have a velocity for this many seconds (steps of 1/30 s)");
  command.add_option("--sim-steps", o.sim_steps,
                     "run the unit simulation N fixed steps and draw it (layers sim_*, units)");
  command.add_option("--pick", args->pick,
                     "X,Y: highlight the links of the planner's node at this world point");
  return [args] {
    RenderOptions options = args->options;
    if (const int rc = parse_typed(*args, options); rc != kExitOk) return rc;
    return run_render_command(options);
  };
}

}  // namespace

const CliCommand kRenderCommand{"render", "draw a scenario and its search to a PNG, with no display",
                                add_render_options};

}  // namespace pathscope::app
