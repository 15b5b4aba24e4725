// The draw-list adapter's texture cache: after an edit, only the changed pixels are
// uploaded (alone or composited with the other map images), and the picture equals one
// drawn from scratch. A kept list (the planner's structure) is rasterised once into a
// texture and copied while it and the zoom stay, and looks as if drawn directly.

#include "app/platform/imgui_draw_adapter.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
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

// Pixels whose colour differs from the reference's by more than `tolerance` in a channel,
// and the largest difference, leaving out the two pixels along the image's edges: a
// primitive that crosses the viewport's edge is clipped there by the software renderer,
// which rounds that row differently; in the texture it is whole.
struct KeptDifference {
  std::size_t pixels = 0;
  int largest = 0;
};
KeptDifference kept_difference(const RgbaImage& a, const RgbaImage& b, int tolerance) {
  REQUIRE(a.pixels.size() == b.pixels.size());
  REQUIRE(a.width == b.width);
  KeptDifference d;
  for (std::size_t i = 0; i < a.pixels.size(); i += 4) {
    const int x = int(i / 4 % std::size_t(a.width)), y = int(i / 4 / std::size_t(a.width));
    if (x < 2 || y < 2 || x >= a.width - 2 || y >= a.height - 2) continue;
    int worst = 0;
    for (std::size_t c = 0; c < 3; ++c)
      worst = std::max(worst, std::abs(int(a.pixels[i + c]) - int(b.pixels[i + c])));
    d.largest = std::max(d.largest, worst);
    d.pixels += worst > tolerance ? 1 : 0;
  }
  return d;
}

RgbaImage draw_kept_frame(OffscreenCanvas& canvas, const render::DrawList& map, const render::DrawList& kept,
                          std::uint64_t version, const Box2& region, const render::Camera& camera) {
  const render::DrawList* lists[] = {&map, &kept};
  canvas.draw_frame(lists, camera, {}, KeptList{&kept, version, region});
  Result<RgbaImage> pixels = canvas.read_pixels();
  REQUIRE(pixels);
  return std::move(pixels).value();
}

}  // namespace

TEST_CASE("a kept list is rasterised once, copied while the camera pans by whole pixels, and looks drawn") {
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
  // The map under it, and the planner's cells and links over a region larger than the view.
  render::DrawList map, structure;
  dbg.paint_map(render::map_layers(render::LayerSet::all(), false), map);
  render::LayerSet layers;
  layers.set(render::Layer::PlannerCells);
  layers.set(render::Layer::PlannerEdges);
  const Box2 view = Box2::spanning(camera.visible_min(), camera.visible_max());
  const Box2 region{view.lo - view.size() * 0.5, view.hi + view.size() * 0.5};
  dbg.paint_structure(layers, region, structure);
  REQUIRE(structure.size() > 1000);

  Result<std::unique_ptr<OffscreenCanvas>> kept = OffscreenCanvas::create(kAdapterWidth, kAdapterHeight);
  Result<std::unique_ptr<OffscreenCanvas>> direct = OffscreenCanvas::create(kAdapterWidth, kAdapterHeight);
  REQUIRE(kept);
  REQUIRE(direct);
  const ImGuiDrawAdapter& adapter = (*kept)->adapter();
  const auto reference = [&](const render::Camera& cam) {
    const render::DrawList* lists[] = {&map, &structure};
    (*direct)->draw_frame(lists, cam);
    Result<RgbaImage> pixels = (*direct)->read_pixels();
    REQUIRE(pixels);
    return std::move(pixels).value();
  };
  // Straight alpha kept in 8 bits: a channel may round off by a level or three.
  const auto looks_drawn = [&](const RgbaImage& shown, const render::Camera& cam) {
    const KeptDifference d = kept_difference(shown, reference(cam), 3);
    INFO("pixels off by more than 3 levels: " << d.pixels << ", largest difference " << d.largest);
    CHECK(d.pixels == 0);
  };

  const RgbaImage first = draw_kept_frame(**kept, map, structure, 1, region, camera);
  CHECK(adapter.raster_count() == 1);
  looks_drawn(first, camera);
  // Without the structure the picture differs: the check above sees the structure.
  CHECK(kept_difference(first, draw(**direct, map, camera), 3).pixels > 1000);

  // The same frame again, then panned by whole pixels inside the region: copies only.
  CHECK(draw_kept_frame(**kept, map, structure, 1, region, camera).pixels == first.pixels);
  render::Camera panned = camera;
  panned.pan_pixels({37, -21});
  const RgbaImage moved = draw_kept_frame(**kept, map, structure, 1, region, panned);
  CHECK(adapter.raster_count() == 1);
  looks_drawn(moved, panned);
  CHECK(moved.pixels != first.pixels);

  // A new version of the list is rasterised again.
  draw_kept_frame(**kept, map, structure, 2, region, panned);
  CHECK(adapter.raster_count() == 2);

  // While the zoom changes from frame to frame the list is drawn directly; once it
  // holds, rasterised at the new zoom.
  render::Camera zoomed = panned;
  zoomed.zoom_at({kAdapterWidth / 2.0, kAdapterHeight / 2.0}, 1.25);
  const RgbaImage zooming = draw_kept_frame(**kept, map, structure, 2, region, zoomed);
  CHECK(adapter.raster_count() == 2);
  const RgbaImage zoomed_reference = reference(zoomed);
  CHECK(zooming.pixels == zoomed_reference.pixels);
  looks_drawn(draw_kept_frame(**kept, map, structure, 2, region, zoomed), zoomed);
  CHECK(adapter.raster_count() == 3);
}

TEST_CASE("an edited terrain image uploads only its changed pixels and looks the same") {
  render::LayerSet layers;
  layers.set(render::Layer::Tiles);
  check_partial_uploads(layers);
}

TEST_CASE("composited map images update only their changed pixels and look the same") {
  check_partial_uploads(render::map_layers(render::LayerSet::all(), false));
}

}  // namespace pathscope::app
