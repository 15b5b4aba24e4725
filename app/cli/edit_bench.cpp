// `pathscope edit-bench`: the editor's per-edit work, timed phase by phase.
//
// The edits cycle through the kinds a designer makes: a brush stroke of a random
// terrain, a wall rectangle dropped on the map, and an undo of the last one. After each
// edit the same objects as the window's frame run: SearchDebugger::sync (world update
// and every re-plan, to the end: no frame budget), the map and search painting, and one
// frame of the offscreen canvas, whose adapter uploads only the changed pixels.

#include "app/cli/edit_bench.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "app/cli/bench_support.hpp"
#include "app/cli/cli_commands.hpp"
#include "app/cli/command_table.hpp"
#include "app/cli/render_command.hpp"
#include "app/debugger/search_debugger.hpp"
#include "app/platform/imgui_draw_adapter.hpp"
#include "app/platform/png_export.hpp"
#include "render/core/layer_set.hpp"

namespace pathscope::app {
namespace {

using bench::Clock;
using bench::ms_since;

struct Phase {
  const char* name;
  std::vector<double> ms;
};

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, std::size_t(p * double(v.size() - 1) + 0.5))];
}

// The first terrain no class can enter, for wall rectangles.
std::optional<std::size_t> wall_terrain(const Scenario& s) {
  for (std::size_t t = 0; t < s.terrains.size(); ++t) {
    if (std::none_of(s.terrains[t].cost.begin(), s.terrains[t].cost.end(),
                     [](const auto& c) { return c.has_value(); }))
      return t;
  }
  return std::nullopt;
}

// Makes edit number k; an error says why it could not be made (the caller reports it
// and goes on with the next one).
Status make_edit(int k, std::mt19937_64& rng, const EditBenchOptions& o, Document& doc) {
  const Scenario& s = doc.scenario();
  const glm::ivec2 size = s.grid_size();
  std::uniform_int_distribution<int> ux(0, size.x - 1), uy(0, size.y - 1);
  switch (k % 3) {
    case 0: {  // brush stroke
      if (!s.tiles) return make_error(ErrorCode::Value, "tiles", "the scenario has no tile grid to paint");
      const TileGrid& t = *s.tiles;
      const auto terrain = std::uint8_t(rng() % s.terrains.size());
      const int cx = ux(rng), cy = uy(rng);
      std::vector<TileChange> changes;
      for (int y = std::max(0, cy - o.brush); y <= std::min(t.height - 1, cy + o.brush); ++y) {
        for (int x = std::max(0, cx - o.brush); x <= std::min(t.width - 1, cx + o.brush); ++x) {
          const auto cell = std::uint32_t(y * t.width + x);
          changes.push_back(TileChange{cell, t.terrain[cell], terrain});
        }
      }
      return doc.apply_tiles("bench brush", changes);
    }
    case 1: {  // wall rectangle
      const std::optional<std::size_t> wall = wall_terrain(s);
      if (!wall) return make_error(ErrorCode::Value, "terrains", "no impassable terrain for walls");
      std::uint32_t id = 1;
      for (const Feature& f : s.features) id = std::max(id, f.id + 1);
      const double cell = s.world.cell_size;
      const int x = ux(rng), y = uy(rng);
      const int w = 1 + int(rng() % 10), h = 1 + int(rng() % 10);
      Feature f;
      f.id = id;
      f.terrain = *wall;
      f.shape.kind = ShapeKind::Rect;
      f.shape.min = {x * cell, y * cell};
      f.shape.max = {std::min(s.world.width, (x + w) * cell), std::min(s.world.height, (y + h) * cell)};
      return doc.apply("bench wall", [&](Scenario& sc) { sc.features.push_back(f); });
    }
    default:
      if (!doc.can_undo()) return Ok{};
      doc.undo();
      return Ok{};
  }
}

}  // namespace

int run_edit_bench(const EditBenchOptions& o) {
  if (o.edits <= 0) return fail_command("edit-bench", "--edits must be positive");
  if (o.brush < 0) return fail_command("edit-bench", "--brush must be >= 0");
  Result<EditorState> opened = open_editor_state(o.scenario_path);
  if (!opened) return fail_command("edit-bench", opened.error().to_string());
  EditorState& state = *opened;
  const render::LayerSet layers = o.all_layers ? render::LayerSet::all() : render::LayerSet::defaults();
  Result<std::unique_ptr<OffscreenCanvas>> canvas = OffscreenCanvas::create(o.width, o.height);
  if (!canvas) return fail_command("edit-bench", canvas.error().to_string());
  const render::Camera camera = initial_camera(state.doc->scenario(), {double(o.width), double(o.height)});

  SearchDebugger dbg;
  render::DrawList below, search, above;
  const auto paint = [&] {
    below.clear();
    search.clear();
    above.clear();
    dbg.paint_map(render::map_layers(layers, false), below);
    dbg.paint(layers, search);
    dbg.paint_map(render::map_layers(layers, true), above);
  };
  const render::DrawList* lists[] = {&below, &search, &above};
  const Clock::time_point t_open = Clock::now();
  dbg.sync(state);
  paint();
  (*canvas)->draw_frame(lists, camera);
  const double open_ms = ms_since(t_open);

  Phase world{"world update", {}}, plan{"re-plan", {}}, painting{"paint", {}}, frame{"frame", {}},
      total{"total", {}};
  std::mt19937_64 rng(o.seed);
  std::uint64_t planned = dbg.queries_planned();
  const std::uint64_t uploaded0 = (*canvas)->adapter().pixels_uploaded();
  int failed = 0;
  for (int k = 0; k < o.edits; ++k) {
    if (Status made = make_edit(k, rng, o, *state.doc); !made) {
      if (++failed == 1) std::fprintf(stderr, "pathscope edit-bench: %s\n", made.error().to_string().c_str());
      continue;
    }
    const Clock::time_point t0 = Clock::now();
    dbg.sync(state);
    const double sync_ms = ms_since(t0);
    const Clock::time_point t1 = Clock::now();
    paint();
    const double paint_ms = ms_since(t1);
    const Clock::time_point t2 = Clock::now();
    (*canvas)->draw_frame(lists, camera);
    const double frame_ms = ms_since(t2);
    world.ms.push_back(dbg.last_world_ms());
    plan.ms.push_back(std::max(0.0, sync_ms - dbg.last_world_ms()));
    painting.ms.push_back(paint_ms);
    frame.ms.push_back(frame_ms);
    total.ms.push_back(sync_ms + paint_ms + frame_ms);
  }
  if (total.ms.empty()) return fail_command("edit-bench", "no edit could be made");

  const Scenario& s = state.doc->scenario();
  const glm::ivec2 size = s.grid_size();
  const double frame_limit = 1000.0 / 60.0;
  const auto within =
      std::count_if(total.ms.begin(), total.ms.end(), [&](double v) { return v <= frame_limit; });
  std::printf("%s: %d x %d cells, %zu queries, %zu edits (brush %d, walls, undo), %s layers\n",
              state.doc->display_name().c_str(), size.x, size.y, s.queries.size(), total.ms.size(),
              2 * o.brush + 1, o.all_layers ? "all" : "default");
  std::printf("open (world, every query, first frame): %.1f ms\n", open_ms);
  std::printf("%-14s %9s %9s %9s  (ms per edit)\n", "phase", "median", "p95", "max");
  for (const Phase* p : {&world, &plan, &painting, &frame, &total}) {
    std::printf("%-14s %9.2f %9.2f %9.2f\n", p->name, percentile(p->ms, 0.5), percentile(p->ms, 0.95),
                *std::max_element(p->ms.begin(), p->ms.end()));
  }
  std::printf("queries planned again: %.1f per edit; pixels uploaded: %.0f per edit\n",
              double(dbg.queries_planned() - planned) / double(total.ms.size()),
              double((*canvas)->adapter().pixels_uploaded() - uploaded0) / double(total.ms.size()));
  std::printf("edits within one 60 Hz frame (%.1f ms): %lld of %zu\n", frame_limit,
              static_cast<long long>(within), total.ms.size());
  return kExitOk;
}

namespace {

// The command line of `edit-bench`: the options, and the frame size as typed.
struct EditBenchArgs {
  EditBenchOptions options;
  std::string size = "1280x800";  // WxH, checked before the run
};

CliRunner add_edit_bench_options(CLI::App& command) {
  auto args = std::make_shared<EditBenchArgs>();
  EditBenchOptions& o = args->options;
  command.add_option("file", o.scenario_path, "scenario JSON or Moving AI .map (default: maps/default.json)");
  command.add_option("--edits", o.edits, "number of edits (brush stroke, wall, undo, ...)");
  command.add_option("--seed", o.seed, "where the edits go");
  command.add_option("--brush", o.brush, "brush half-size in cells");
  command.add_option("--size", args->size, "frame size WxH in pixels");
  command.add_flag("--all-layers", o.all_layers, "draw every layer (heat map and regions too)");
  return [args] {
    const auto size = parse_pixel_size(args->size);
    if (!size) {
      std::fprintf(stderr, "pathscope edit-bench: --size %s: expected WxH with 1..16384 pixels per side\n",
                   args->size.c_str());
      return kExitUsage;
    }
    EditBenchOptions options = args->options;
    options.width = (*size)[0];
    options.height = (*size)[1];
    return run_edit_bench(options);
  };
}

}  // namespace

const CliCommand kEditBenchCommand{"edit-bench",
                                   "time the editor's work per edit (re-plan, repaint, frame), headless",
                                   add_edit_bench_options};

}  // namespace pathscope::app
