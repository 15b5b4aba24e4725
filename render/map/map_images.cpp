// MapImages: raster layers painted once, then repainted only where the world changed.
//
// Terrain pixels depend on their own cell only, so the world's changed cells are exactly
// the pixels to repaint. The heat map's colours are scaled to the smallest and largest
// multiplier on the map, so a change of either repaints it whole. Region labels are
// numbered over the whole map and an edit can renumber regions far from it, so the
// regions image repaints the bounding box of the labels that differ from the ones shown.

#include "render/map/map_images.hpp"

#include <algorithm>
#include <cmath>

#include "render/core/color_ramp.hpp"

namespace pathscope::render {
namespace {

constexpr Color kBlockedHeat{20, 20, 20, 170};

void put(ImagePrim& img, std::size_t i, Color c) {
  img.rgba[i * 4 + 0] = c.r;
  img.rgba[i * 4 + 1] = c.g;
  img.rgba[i * 4 + 2] = c.b;
  img.rgba[i * 4 + 3] = c.a;
}

// Calls fn(cell index) for the cells of `rect`; returns their number.
template <typename Fn>
std::uint64_t for_cells(CellRect rect, int width, Fn fn) {
  for (int y = rect.y0; y < rect.y1; ++y) {
    for (int x = rect.x0; x < rect.x1; ++x) fn(std::size_t(y) * std::size_t(width) + std::size_t(x));
  }
  return std::uint64_t(rect.width()) * std::uint64_t(rect.height());
}

}  // namespace

void MapImages::invalidate(CellRect cells) {
  for (Slot* s : {&tiles_, &heat_, &regions_}) s->dirty = s->dirty.united(cells);
}

void MapImages::invalidate_all() {
  for (Slot* s : {&tiles_, &heat_, &regions_}) s->valid = false;
}

CellRect MapImages::prepare(Slot& slot, const char* key, int width, int height, double cell_size,
                            std::size_t movement_class) {
  ImagePrim& img = slot.image;
  if (slot.valid && img.width == width && img.height == height && slot.movement_class == movement_class &&
      img.max == Vec2(width * cell_size, height * cell_size)) {
    return slot.dirty.intersected(CellRect{0, 0, width, height});
  }
  img.key = key;
  img.width = width;
  img.height = height;
  img.min = {0, 0};
  img.max = {width * cell_size, height * cell_size};
  img.rgba.assign(std::size_t(width) * std::size_t(height) * 4, 0);
  img.version = 0;  // no base: the next version is uploaded whole
  slot.valid = true;
  slot.movement_class = movement_class;
  return CellRect{0, 0, width, height};
}

void MapImages::commit(Slot& slot, CellRect painted) {
  slot.dirty = {};
  if (painted.empty()) return;
  ImagePrim& img = slot.image;
  img.base_version = img.version;
  img.changed = img.version == 0 ? CellRect{0, 0, img.width, img.height} : painted;
  img.version = next_version_++;
}

void MapImages::refresh_tiles(const PlanningWorld& world) {
  const Scenario& s = world.scenario();
  const TerrainRaster& r = world.raster();
  const CellRect rect = prepare(tiles_, "tiles", r.width, r.height, r.cell_size, 0);
  pixels_painted_ += for_cells(rect, r.width, [&](std::size_t i) {
    const std::size_t t = r.terrain(i);
    put(tiles_.image, i, t < s.terrains.size() ? s.terrains[t].color : Color{255, 0, 255, 255});
  });
  commit(tiles_, rect);
}

void MapImages::refresh_heat(const PlanningWorld& world, std::size_t movement_class) {
  const CostGrid& grid = world.grid(movement_class);
  CellRect rect = prepare(heat_, "cost_heat", grid.width(), grid.height(), grid.cell_size(), movement_class);
  if (rect.empty()) return commit(heat_, rect);
  double lo = 0, hi = 0;
  for (std::uint32_t i = 0; i < grid.cell_count(); ++i) {
    if (!grid.passable(i)) continue;
    const double m = grid.multiplier(i);
    lo = lo == 0 ? m : std::min(lo, m);
    hi = std::max(hi, m);
  }
  if (lo != heat_lo_ || hi != heat_hi_) rect = CellRect{0, 0, grid.width(), grid.height()};
  heat_lo_ = lo;
  heat_hi_ = hi;
  // Log scale: multipliers span orders of magnitude (road 0.5, swamp 3, nebula 10).
  const double span = hi > lo && lo > 0 ? std::log(hi / lo) : 0;
  const Color low{60, 200, 80, 150}, mid{240, 220, 60, 150}, high{220, 50, 40, 150};
  pixels_painted_ += for_cells(rect, grid.width(), [&](std::size_t i) {
    if (!grid.passable(std::uint32_t(i))) return put(heat_.image, i, kBlockedHeat);
    const double t = span > 0 ? std::log(grid.multiplier(std::uint32_t(i)) / lo) / span : 0;
    put(heat_.image, i, t < 0.5 ? mix(low, mid, t * 2) : mix(mid, high, t * 2 - 1));
  });
  commit(heat_, rect);
}

void MapImages::refresh_regions(const PlanningWorld& world, std::size_t movement_class) {
  const CostGrid& grid = world.grid(movement_class);
  const RegionMap& regions = world.regions(movement_class);
  CellRect rect = prepare(regions_, "regions", grid.width(), grid.height(), grid.cell_size(), movement_class);
  const std::size_t n = grid.cell_count();
  if (labels_.size() != n) labels_.assign(n, RegionMap::kBlocked);
  if (rect.empty()) return commit(regions_, rect);
  if (rect != CellRect{0, 0, grid.width(), grid.height()}) {
    // Any label may have changed: repaint the box of those that did.
    rect = {};
    for (int y = 0; y < grid.height(); ++y) {
      const std::size_t row = std::size_t(y) * std::size_t(grid.width());
      int x0 = -1, x1 = -1;
      for (int x = 0; x < grid.width(); ++x) {
        if (regions.region(std::uint32_t(row + std::size_t(x))) == labels_[row + std::size_t(x)]) continue;
        if (x0 < 0) x0 = x;
        x1 = x + 1;
      }
      if (x0 >= 0) rect = rect.united(CellRect{x0, y, x1, y + 1});
    }
  }
  pixels_painted_ += for_cells(rect, grid.width(), [&](std::size_t i) {
    const std::uint32_t label = regions.region(std::uint32_t(i));
    labels_[i] = label;
    put(regions_.image, i, label == RegionMap::kBlocked ? Color{0, 0, 0, 0} : label_color(label, 120));
  });
  commit(regions_, rect);
}

void MapImages::paint(const PlanningWorld& world, std::size_t movement_class, const LayerSet& layers,
                      DrawList& out) {
  const TerrainRaster& r = world.raster();
  if (r.width <= 0 || r.height <= 0) return;
  if (layers.contains(Layer::Tiles)) {
    refresh_tiles(world);
    out.image(Layer::Tiles, {255, 255, 255, 255}, tiles_.image);
  }
  if (movement_class >= world.class_count()) return;
  if (layers.contains(Layer::CostHeat)) {
    refresh_heat(world, movement_class);
    out.image(Layer::CostHeat, {255, 255, 255, 255}, heat_.image);
  }
  if (layers.contains(Layer::Regions)) {
    refresh_regions(world, movement_class);
    out.image(Layer::Regions, {255, 255, 255, 255}, regions_.image);
  }
}

}  // namespace pathscope::render
