// Golden images: small scenes rendered headless (the window's drawing path through the
// offscreen canvas) and compared with committed PNGs in tests/golden/, with a tolerance
// so that harmless rasterisation differences pass: the mean absolute channel difference
// must stay below 2, and fewer than 1% of the pixels may differ by more than 32 in any
// channel.
//
// To accept new pictures after an intended change: PATHSCOPE_UPDATE_GOLDEN=1 rewrites
// them (then look at them before committing). A failing comparison writes the actual
// picture next to the system temp folder and names it in the failure message.

#include <doctest/doctest.h>

#include <stb_image.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>

#include "app/debugger/search_debugger.hpp"
#include "app/editor/document.hpp"
#include "app/editor/editor_state.hpp"
#include "app/platform/png_export.hpp"
#include "planner/scenario/scenario_io.hpp"
#include "planner/world/planning_world.hpp"
#include "render/core/camera.hpp"
#include "render/core/draw_list.hpp"
#include "render/core/layer_set.hpp"
#include "render/map/scene_painter.hpp"

namespace fs = std::filesystem;
using namespace pathscope;
using namespace pathscope::app;

namespace {

constexpr int kGoldenWidth = 640;
constexpr int kGoldenHeight = 400;
constexpr double kMaxMeanDifference = 2.0;
constexpr double kMaxDifferingFraction = 0.01;
constexpr int kDifferingThreshold = 32;

fs::path golden_path(const std::string& name) {
  return fs::path(PATHSCOPE_SOURCE_DIR) / "tests" / "golden" / (name + ".png");
}

bool update_requested() {
  const char* v = std::getenv("PATHSCOPE_UPDATE_GOLDEN");
  return v && std::string(v) == "1";
}

Scenario load_map(const std::string& relative) {
  Result<Scenario> s = load_scenario(fs::path(PATHSCOPE_SOURCE_DIR) / relative);
  REQUIRE_MESSAGE(s, (s ? std::string() : s.error().to_string()));
  return std::move(s).value();
}

render::Camera whole_world(const Scenario& s) {
  render::Camera cam;
  cam.set_viewport({0, 0}, {kGoldenWidth, kGoldenHeight});
  cam.fit({0, 0}, {s.world.width, s.world.height});
  return cam;
}

// Renders `list` through `camera` and compares it with (or, when asked, writes) the golden.
void check_golden(const std::string& name, const render::DrawList& list, const render::Camera& camera) {
  Result<std::unique_ptr<OffscreenCanvas>> canvas = OffscreenCanvas::create(kGoldenWidth, kGoldenHeight);
  REQUIRE_MESSAGE(canvas, (canvas ? std::string() : canvas.error().to_string()));
  (*canvas)->draw_frame(list, camera);
  Result<RgbaImage> actual = (*canvas)->read_pixels();
  REQUIRE(actual);

  const fs::path golden = golden_path(name);
  if (update_requested()) {
    fs::create_directories(golden.parent_path());
    REQUIRE(write_png_file(*actual, golden));
    MESSAGE("rewrote " << golden.string());
    return;
  }
  int w = 0, h = 0, channels = 0;
  stbi_uc* expected = stbi_load(golden.string().c_str(), &w, &h, &channels, 4);
  REQUIRE_MESSAGE(expected != nullptr,
                  "cannot read " << golden.string() << " (PATHSCOPE_UPDATE_GOLDEN=1 writes it)");
  const std::unique_ptr<stbi_uc, void (*)(void*)> owned(expected, stbi_image_free);
  REQUIRE(w == actual->width);
  REQUIRE(h == actual->height);

  const std::size_t pixels = static_cast<std::size_t>(w) * static_cast<std::size_t>(h);
  double total = 0;
  std::size_t differing = 0;
  for (std::size_t i = 0; i < pixels; ++i) {
    int worst = 0;
    for (std::size_t c = 0; c < 4; ++c) {
      const int d = std::abs(int(expected[i * 4 + c]) - int(actual->pixels[i * 4 + c]));
      total += d;
      worst = std::max(worst, d);
    }
    if (worst > kDifferingThreshold) ++differing;
  }
  const double mean = total / static_cast<double>(pixels * 4);
  const double fraction = static_cast<double>(differing) / static_cast<double>(pixels);
  const bool ok = mean < kMaxMeanDifference && fraction < kMaxDifferingFraction;
  if (!ok) {
    const fs::path written = fs::temp_directory_path() / ("pathscope_golden_" + name + "_actual.png");
    (void)write_png_file(*actual, written);
    FAIL_CHECK(name << ": differs from " << golden.string() << ": mean channel difference " << mean
                    << ", pixels differing by more than " << kDifferingThreshold << ": " << fraction * 100
                    << "%; actual picture: " << written.string());
  }
  CHECK(mean < kMaxMeanDifference);
  CHECK(fraction < kMaxDifferingFraction);
}

// The map of a scenario with the search of query `query` shown after `step` expansions,
// painted as the editor paints it (map, then the debugger's trace overlay).
render::DrawList paint_search_scene(Scenario scenario, std::size_t query, std::uint64_t step,
                                    const render::LayerSet& layers) {
  EditorState state;
  state.open_document(std::make_unique<Document>(std::move(scenario)));
  state.active_query = query;
  SearchDebugger debugger;
  debugger.sync(state);
  REQUIRE(debugger.error().empty());
  REQUIRE(debugger.total_steps() > step);
  debugger.seek(step);
  REQUIRE(debugger.step() == step);
  render::DrawList list;
  render::paint_world(*debugger.world(), debugger.movement_class(), layers, list,
                      render::WorldPaintParams{debugger.active_query()});
  debugger.paint(layers, list);
  return list;
}

}  // namespace

TEST_SUITE("golden") {
  TEST_CASE("default map, whole world, default layers") {
    const Scenario s = load_map("maps/default.json");
    const PlanningWorld world(s);
    render::DrawList list;
    render::paint_world(world, 0, render::LayerSet::defaults(), list);
    check_golden("default_map", list, whole_world(s));
  }

  TEST_CASE("default map, A* of query 0 after 60 expansions, zoomed on the fort") {
    const Scenario s = load_map("maps/default.json");
    const render::DrawList list = paint_search_scene(s, 0, 60, render::LayerSet::defaults());
    render::Camera cam({44, 37}, 12);
    cam.set_viewport({0, 0}, {kGoldenWidth, kGoldenHeight});
    check_golden("default_astar_step60", list, cam);
  }

  TEST_CASE("default map, bidirectional query 1 after 400 expansions, whole world") {
    const Scenario s = load_map("maps/default.json");
    const render::DrawList list = paint_search_scene(s, 1, 400, render::LayerSet::defaults());
    check_golden("default_bidirectional_step400", list, whole_world(s));
  }
}
