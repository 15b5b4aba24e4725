// A new scenario: the checks name the field the user typed into, so that the New dialog
// can show them next to the form; the result is also run through validate_scenario.

#include "planner/scenario/new_scenario.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "planner/scenario/scenario_validate.hpp"

namespace pathscope {

namespace {

Error field_error(ErrorCode code, const char* field, std::string message) {
  return make_error(code, field, std::move(message));
}

std::string format_number(double value) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%g", value);
  return buf;
}

}  // namespace

Result<Scenario> make_new_scenario(const NewScenarioParams& params) {
  using L = ScenarioLimits;
  const std::string limit = " (0 < value <= " + format_number(L::kMaxWorldSide) + " m)";
  if (!(params.width > 0 && params.width <= L::kMaxWorldSide)) {
    return field_error(ErrorCode::Value, "world.width", "must be a width in metres" + limit);
  }
  if (!(params.height > 0 && params.height <= L::kMaxWorldSide)) {
    return field_error(ErrorCode::Value, "world.height", "must be a height in metres" + limit);
  }
  if (!(params.cell_size >= L::kMinCellSize) || !std::isfinite(params.cell_size)) {
    return field_error(ErrorCode::Value, "world.cell_size",
                       "must be at least " + format_number(L::kMinCellSize) + " m");
  }
  const std::vector<TerrainType> terrains = default_terrain_types();
  if (params.terrain >= terrains.size()) {
    return field_error(ErrorCode::Value, "terrain",
                       "no default terrain number " + std::to_string(params.terrain));
  }
  Scenario s = make_empty_scenario(params.width, params.height, params.cell_size);
  s.name = "untitled";
  const glm::ivec2 cells = s.grid_size();
  if (cells.x > L::kMaxGridSide || cells.y > L::kMaxGridSide) {
    return field_error(ErrorCode::Limit, "world.cell_size",
                       "gives " + std::to_string(cells.x) + " x " + std::to_string(cells.y) +
                           " cells; at most " + std::to_string(L::kMaxGridSide) + " per side");
  }
  // Tiles must fit inside the world: only whole cells get the chosen terrain.
  auto whole = [&](int n, double side) { return n * params.cell_size <= side * (1 + 1e-9) ? n : n - 1; };
  TileGrid tiles;
  tiles.width = whole(cells.x, params.width);
  tiles.height = whole(cells.y, params.height);
  if (tiles.width < 1 || tiles.height < 1) {
    return field_error(ErrorCode::Value, "world.cell_size", "is larger than the world");
  }
  tiles.terrain.assign(static_cast<std::size_t>(tiles.width) * static_cast<std::size_t>(tiles.height),
                       static_cast<std::uint8_t>(params.terrain));
  s.tiles = std::move(tiles);
  if (Status valid = validate_scenario(s); !valid) return valid.error();
  return s;
}

}  // namespace pathscope
