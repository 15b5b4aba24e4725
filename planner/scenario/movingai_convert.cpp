// Moving AI maps and problems as a Scenario.
//
// Map characters and the terrain types they become in a Scenario (one movement class,
// "ground"; every symbol is the Moving AI character, so tile rows read like the map):
//   '.'  ground           passable, cost 1; always terrain 0
//   'G'  ground_g         passable, cost 1
//   '@'  out_of_bounds    impassable
//   'O'  out_of_bounds_o  impassable
//   'T'  trees            impassable
//   'S'  swamp            passable, cost 1, same group as ground ("passable from regular terrain")
//   'W'  water            passable, cost 1, group "water": moves only between water
//                         cells ("traversable, but not passable from terrain")
//   Only the types that occur in the map are listed, in this order, ground first.
//   Movement between cells follows the cost grid rules: straight steps 1, diagonal
//   sqrt(2), no corner cutting, which is what the stored optimal lengths assume.

#include "planner/scenario/movingai_convert.hpp"
#include "planner/core/default_planner.hpp"

#include <algorithm>
#include <array>
#include <cassert>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>

namespace pathscope {

namespace {

/// A Moving AI character and the terrain type it becomes.
struct TerrainSpec {
  char symbol;
  const char* name;
  bool passable;
  const char* group;
  Color color;
};

constexpr std::array<TerrainSpec, 7> kTerrainSpecs = {{
    {'.', "ground", true, "", Color{216, 208, 184, 255}},
    {'G', "ground_g", true, "", Color{200, 214, 168, 255}},
    {'@', "out_of_bounds", false, "", Color{32, 32, 32, 255}},
    {'O', "out_of_bounds_o", false, "", Color{72, 72, 72, 255}},
    {'T', "trees", false, "", Color{47, 107, 47, 255}},
    {'S', "swamp", true, "", Color{107, 123, 58, 255}},
    {'W', "water", true, "water", Color{58, 111, 176, 255}},
}};

// The parser accepts exactly these characters, in this order.
constexpr bool specs_match_map_chars() {
  if (kTerrainSpecs.size() != kMovingAiMapChars.size()) return false;
  for (std::size_t i = 0; i < kTerrainSpecs.size(); ++i) {
    if (kTerrainSpecs[i].symbol != kMovingAiMapChars[i]) return false;
  }
  return true;
}
static_assert(specs_match_map_chars(), "kTerrainSpecs must list kMovingAiMapChars in order");

/// Per byte: index into kTerrainSpecs, or -1 for characters that are not map cells.
constexpr std::array<std::int8_t, 256> make_char_table() {
  std::array<std::int8_t, 256> table{};
  for (auto& entry : table) entry = -1;
  for (std::size_t i = 0; i < kTerrainSpecs.size(); ++i) {
    table[static_cast<unsigned char>(kTerrainSpecs[i].symbol)] = static_cast<std::int8_t>(i);
  }
  return table;
}
constexpr std::array<std::int8_t, 256> kCharTable = make_char_table();

}  // namespace

Scenario movingai_to_scenario(const MovingAiMap& map) {
  assert(map.width > 0 && map.height > 0);
  assert(map.cells.size() == static_cast<std::size_t>(map.width) * static_cast<std::size_t>(map.height));

  std::array<bool, kTerrainSpecs.size()> present{};
  present[0] = true;  // ground is always terrain 0
  for (const char c : map.cells) {
    const std::int8_t spec = kCharTable[static_cast<unsigned char>(c)];
    assert(spec >= 0);
    present[static_cast<std::size_t>(spec)] = true;
  }

  Scenario scenario;
  scenario.name = map.name;
  scenario.description =
      "Moving AI map " + map.name + " (" + std::to_string(map.width) + "x" + std::to_string(map.height) + ")";
  scenario.world = WorldInfo{static_cast<double>(map.width), static_cast<double>(map.height), 1.0};
  scenario.classes = {MovementClass{.name = "ground", .radius = 0.5, .speed = 1.0, .amphibious = false}};

  std::array<std::uint8_t, kTerrainSpecs.size()> terrain_of_spec{};
  for (std::size_t i = 0; i < kTerrainSpecs.size(); ++i) {
    if (!present[i]) continue;
    const TerrainSpec& spec = kTerrainSpecs[i];
    terrain_of_spec[i] = static_cast<std::uint8_t>(scenario.terrains.size());
    TerrainType terrain;
    terrain.name = spec.name;
    terrain.symbol = spec.symbol;
    terrain.color = spec.color;
    terrain.cost = {spec.passable ? std::optional<double>(1.0) : std::nullopt};
    terrain.group = spec.group;
    scenario.terrains.push_back(std::move(terrain));
  }

  TileGrid tiles;
  tiles.width = map.width;
  tiles.height = map.height;
  tiles.terrain.resize(map.cells.size());
  for (std::size_t i = 0; i < map.cells.size(); ++i) {
    tiles.terrain[i] =
        terrain_of_spec[static_cast<std::size_t>(kCharTable[static_cast<unsigned char>(map.cells[i])])];
  }
  scenario.tiles = std::move(tiles);
  return scenario;
}

Scenario movingai_to_scenario(const MovingAiMap& map, std::span<const MovingAiProblem> problems,
                              std::size_t max_queries) {
  Scenario scenario = movingai_to_scenario(map);
  const std::size_t count = std::min({problems.size(), max_queries, ScenarioLimits::kMaxItems});
  scenario.queries.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    const MovingAiProblem& p = problems[i];
    assert(p.start.x >= 0 && p.start.x < map.width && p.start.y >= 0 && p.start.y < map.height);
    assert(p.goal.x >= 0 && p.goal.x < map.width && p.goal.y >= 0 && p.goal.y < map.height);
    Query query;
    query.name = "scen line " + std::to_string(p.line);
    query.start = Vec2(p.start.x + 0.5, p.start.y + 0.5);
    query.goal = Vec2(p.goal.x + 0.5, p.goal.y + 0.5);
    query.movement_class = 0;
    query.planner = kDefaultPlanner;
    query.expected_length = p.optimal_length;
    scenario.queries.push_back(std::move(query));
  }
  return scenario;
}

}  // namespace pathscope
