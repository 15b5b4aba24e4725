#include "planner/world/terrain_raster.hpp"

#include <algorithm>
#include <cassert>

namespace pathscope {

TerrainRaster::TerrainRaster(int width_cells, int height_cells, double cell_metres, std::size_t terrain_count)
    : width(width_cells), height(height_cells), cell_size(cell_metres), terrain_count_(terrain_count) {
  assert(width > 0 && height > 0);
  assert(terrain_count >= 1 && terrain_count <= 256);
  ids_.assign(std::size_t(width) * std::size_t(height), 0);
  for (std::size_t t = 0; t < terrain_count; ++t) (void)intern(Surface{std::uint8_t(t), false, 1.0f});
  cells_with_[0] = std::uint32_t(ids_.size());
}

std::optional<SurfaceId> TerrainRaster::intern(const Surface& s) {
  const auto it = index_.find(s);
  if (it != index_.end()) return it->second;
  // A raster meets this many combinations of terrain, road speed factor, bridge and cost
  // factor only with thousands of distinct road factors; compact() runs before every update.
  if (table_.size() >= kMaxSurfaces) return std::nullopt;
  const SurfaceId id = SurfaceId(table_.size());
  table_.push_back(s);
  cells_with_.push_back(0);
  index_.emplace(s, id);
  return id;
}

void TerrainRaster::count_cells(CellRect rect, int sign) {
  const auto w = std::size_t(width);
  if (rect == CellRect{0, 0, width, height} && sign < 0) {
    std::fill(cells_with_.begin(), cells_with_.end(), 0);
    return;
  }
  for (int y = rect.y0; y < rect.y1; ++y) {
    const SurfaceId* row = ids_.data() + std::size_t(y) * w;
    for (int x = rect.x0; x < rect.x1; ++x) cells_with_[row[x]] += std::uint32_t(sign);
  }
}

void TerrainRaster::begin_cells(CellRect rect) {
  assert(rect.intersected(CellRect{0, 0, width, height}) == rect);
  count_cells(rect, -1);
}

void TerrainRaster::end_cells(CellRect rect) { count_cells(rect, +1); }

std::vector<SurfaceId> TerrainRaster::copy_cells(CellRect rect) const {
  std::vector<SurfaceId> out;
  out.reserve(std::size_t(rect.x1 - rect.x0) * std::size_t(rect.y1 - rect.y0));
  for (int y = rect.y0; y < rect.y1; ++y) {
    const SurfaceId* row = ids_.data() + std::size_t(y) * std::size_t(width);
    out.insert(out.end(), row + rect.x0, row + rect.x1);
  }
  return out;
}

void TerrainRaster::restore_cells(CellRect rect, std::span<const SurfaceId> saved) {
  const auto w = std::size_t(rect.x1 - rect.x0);
  assert(saved.size() == w * std::size_t(rect.y1 - rect.y0));
  for (int y = rect.y0; y < rect.y1; ++y) {
    const SurfaceId* from = saved.data() + std::size_t(y - rect.y0) * w;
    std::copy(from, from + w, ids_.data() + std::size_t(y) * std::size_t(width) + std::size_t(rect.x0));
  }
}

bool TerrainRaster::compact(std::size_t above) {
  if (table_.size() <= above) return false;
  std::vector<SurfaceId> renumber(table_.size(), 0);
  std::vector<Surface> table;
  std::vector<std::uint32_t> cells_with;
  index_.clear();
  for (std::size_t id = 0; id < table_.size(); ++id) {
    if (id >= terrain_count_ && cells_with_[id] == 0) continue;
    renumber[id] = SurfaceId(table.size());
    index_.emplace(table_[id], SurfaceId(table.size()));
    table.push_back(table_[id]);
    cells_with.push_back(cells_with_[id]);
  }
  table_ = std::move(table);
  cells_with_ = std::move(cells_with);
  for (SurfaceId& id : ids_) id = renumber[id];
  return true;
}

}  // namespace pathscope
