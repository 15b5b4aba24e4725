// The draw-list adapter's texture cache: after an edit, only the changed pixels are
// uploaded (alone or composited with the other map images), and the picture equals one
// drawn from scratch.

#include "app/platform/imgui_draw_adapter.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <memory>

#include "app/debugger/search_debugger.hpp"
#include "app/editor/document.hpp"
#include "app/editor/editor_state.hpp"
#include "app/platform/png_export.hpp"
#include "planner/scenario/scenario_io.hpp"
#include "render/core/camera.hpp"
#include "render/core/layer_set.hpp"

namespace pathscope::app {
namespace {

constexpr int kAdapterWidth = 640, kAdapterHeight = 480;

RgbaImage draw(OffscreenCanvas& canvas, const render::DrawList& list, const render::Camera& camera) {
  canvas.draw_frame(list, camera);
  Result<RgbaImage> pixels = canvas.read_pixels();
  REQUIRE(pixels);
  return std::move(pixels).value();
}

void check_partial_uploads(const render::LayerSet& layers) {
  Result<Scenario> loaded =
      load_scenario(std::filesystem::path(PATHSCOPE_SOURCE_DIR) / "maps" / "default.json");
  REQUIRE(loaded);
  EditorState state;
  state.open_document(std::make_unique<Document>(std::move(loaded).value()));
  SearchDebugger dbg;
  dbg.sync(state);
  render::Camera camera;
  camera.set_viewport({0, 0}, {kAdapterWidth, kAdapterHeight});
  const WorldInfo& w = state.doc->scenario().world;
  camera.fit({0, 0}, {w.width, w.height});

  Result<std::unique_ptr<OffscreenCanvas>> kept = OffscreenCanvas::create(kAdapterWidth, kAdapterHeight);
  REQUIRE(kept);
  render::DrawList list;
  dbg.paint_map(layers, list);
  draw(**kept, list, camera);
  const ImGuiDrawAdapter& adapter = (*kept)->adapter();
  const std::uint64_t full_pixels = adapter.pixels_uploaded();
  CHECK(full_pixels > 0);

  // A brush stroke of swamp, then a wall across a road: both small next to the map.
  std::vector<TileChange> stroke;
  const TileGrid& tiles = *state.doc->scenario().tiles;
  for (int y = 40; y < 46; ++y) {
    for (int x = 20; x < 27; ++x) {
      const auto cell = std::uint32_t(y * tiles.width + x);
      stroke.push_back(TileChange{cell, tiles.terrain[cell],
                                  std::uint8_t(state.doc->scenario().find_terrain("swamp").value())});
    }
  }
  REQUIRE(state.doc->apply_tiles("paint", stroke).ok());
  REQUIRE(state.doc
              ->apply("wall",
                      [](Scenario& s) {
                        Feature f;
                        f.id = 9000;
                        f.terrain = s.find_terrain("wall").value();
                        f.shape.kind = ShapeKind::Rect;
                        f.shape.min = {60, 30};
                        f.shape.max = {64, 70};
                        s.features.push_back(f);
                      })
              .ok());
  dbg.sync(state);
  list.clear();
  dbg.paint_map(layers, list);
  const std::uint64_t partial_before = adapter.partial_upload_count();
  const std::uint64_t pixels_before = adapter.pixels_uploaded();
  const RgbaImage updated = draw(**kept, list, camera);
  CHECK(adapter.partial_upload_count() > partial_before);
  CHECK(adapter.pixels_uploaded() - pixels_before < full_pixels / 4);

  Result<std::unique_ptr<OffscreenCanvas>> fresh = OffscreenCanvas::create(kAdapterWidth, kAdapterHeight);
  REQUIRE(fresh);
  const RgbaImage reference = draw(**fresh, list, camera);
  CHECK((*fresh)->adapter().partial_upload_count() == 0);
  CHECK(updated.pixels == reference.pixels);
}

}  // namespace

TEST_CASE("an edited terrain image uploads only its changed pixels and looks the same") {
  render::LayerSet layers;
  layers.set(render::Layer::Tiles);
  check_partial_uploads(layers);
}

TEST_CASE("composited map images update only their changed pixels and look the same") {
  check_partial_uploads(render::map_layers(render::LayerSet::all(), false));
}

}  // namespace pathscope::app
