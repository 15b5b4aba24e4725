#pragma once

// The scenario: everything a Pathscope test case holds, as plain value types.
//
// Coordinates are world units (metres). The world spans [0, width] x [0, height];
// x grows to the right and y grows downwards, so row 0 of a tile grid is the top row,
// as in Moving AI maps. Grids derived from a scenario have square cells of
// `world.cell_size` metres; cell (cx, cy) covers [cx*s, (cx+1)*s) x [cy*s, (cy+1)*s).

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <glm/vec2.hpp>

#include "planner/core/default_planner.hpp"
#include "planner/core/types.hpp"

namespace pathscope {

/// Documented limits of the scenario format; loading rejects anything beyond them.
struct ScenarioLimits {
  static constexpr int kMaxGridSide = 8192;                  ///< Cells per side of any grid.
  static constexpr double kMaxWorldSide = 1.0e6;             ///< Metres per side of the world.
  static constexpr double kMinCellSize = 1.0e-3;             ///< Metres.
  static constexpr std::size_t kMaxTerrainTypes = 64;        ///< Terrain types per scenario.
  static constexpr std::size_t kMaxMovementClasses = 16;     ///< Movement classes per scenario.
  static constexpr std::size_t kMaxItems = 1'000'000;        ///< Entries in any one array.
  static constexpr std::size_t kMaxPolygonPoints = 100'000;  ///< Vertices of one polygon or polyline.
  /// Distinct road speed factors (as floats). With at most 64 terrains and a bridge flag
  /// this bounds the raster's terrain/road/bridge combinations well below its 16-bit ids.
  static constexpr std::size_t kMaxRoadSpeedFactors = 255;
  static constexpr double kMaxCostMultiplier = 1.0e6;  ///< Largest finite terrain multiplier.
};

/// An RGBA colour, 8 bits per channel. Written "#rrggbb" or "#rrggbbaa" in files.
struct Color {
  std::uint8_t r = 0, g = 0, b = 0, a = 255;
  friend bool operator==(const Color&, const Color&) = default;
};

/// How a class's units steer when they drive in a platoon (seed 004, "5 Vehicle-Level
/// Pathfinding"). Outside platoons every class moves as infantry.
enum class VehicleModel : std::uint8_t {
  Infantry,  ///< Seed 002's units: turn on the spot, never reverse.
  Tracked,   ///< Turn in place, reverse; slow.
  Wheeled,   ///< Cannot turn when stopped; a minimum turning radius; reverse (three-point turns).
  Rotary,    ///< Helicopters: turn in place; over ground obstacles and terrain.
};

/// How a unit class moves; terrain costs are given per class.
struct MovementClass {
  std::string name;         ///< Unique, e.g. "infantry".
  double radius = 0.5;      ///< Body radius in metres (> 0).
  double speed = 1.0;       ///< Top speed on cost-1 terrain, metres per second (> 0).
  bool amphibious = false;  ///< May move between cells of different terrain groups (land/water).
  // Simulation (format version 2). An absent value is derived: see sim/unit_motion.hpp.
  std::optional<double> acceleration{};  ///< Metres per second squared (> 0); default 2 x speed.
  std::optional<double> deceleration{};  ///< Metres per second squared (> 0); default 4 x speed.
  std::optional<double> turn_rate{};     ///< Radians per second (> 0); default 2 pi.
  std::optional<double> hard_radius{};   ///< Metres no other unit may enter (> 0); default radius.
  std::optional<double> soft_radius{};   ///< Metres others should keep out of (>= hard); default 1.5 x hard.
  /// Hard shape across / along the heading (Armada's shield ellipses): 1 is a circle,
  /// 0.5 an ellipse half as wide as long. In (0, 1].
  double hard_aspect = 1;
  int priority = 0;                       ///< Higher priority units give way less (seed 002).
  std::string planner = kDefaultPlanner;  ///< The registry planner its units' paths come from.
  // Vehicles (format version 3).
  VehicleModel vehicle = VehicleModel::Infantry;  ///< How it steers in a platoon.
  std::optional<double> min_turn_radius{};        ///< Metres (> 0), wheeled; default 2 x radius.
  std::optional<double> reverse_speed{};          ///< Metres per second (> 0); default half its speed.
  friend bool operator==(const MovementClass&, const MovementClass&) = default;
};

/// A kind of ground. Moving onto it costs the base distance times its multiplier.
struct TerrainType {
  std::string name;   ///< Unique, e.g. "swamp".
  char symbol = '.';  ///< One printable, non-digit ASCII character used in tile rows.
  Color color;        ///< Display colour.
  /// Multiplier per movement class, in the order of Scenario::classes; nullopt = impassable.
  std::vector<std::optional<double>> cost;
  /// Cells of different groups are not connected (Moving AI's land vs water), except
  /// for amphibious classes. Empty string is the default "ground" group.
  std::string group;
  friend bool operator==(const TerrainType&, const TerrainType&) = default;
};

/// A base tile grid: one terrain index per cell, row-major, row 0 at the top.
/// Its cells are world.cell_size metres, so width*cell_size <= world.width.
struct TileGrid {
  int width = 0;                      ///< Cells.
  int height = 0;                     ///< Cells.
  std::vector<std::uint8_t> terrain;  ///< width*height indices into Scenario::terrains.
  friend bool operator==(const TileGrid&, const TileGrid&) = default;
};

/// The shape of a vector feature, in world units.
enum class ShapeKind { Polygon, Rect, Circle };

/// A polygon (simple, >= 3 points, either winding), an axis-aligned rectangle or a circle.
struct Shape {
  ShapeKind kind = ShapeKind::Polygon;
  std::vector<Vec2> points;  ///< Polygon vertices (Polygon only).
  Vec2 min{0, 0};            ///< Rect corner with the smallest x and y (Rect only).
  Vec2 max{0, 0};            ///< Rect corner with the largest x and y (Rect only).
  Vec2 center{0, 0};         ///< Circle centre (Circle only).
  double radius = 0;         ///< Circle radius, metres (Circle only).
  friend bool operator==(const Shape&, const Shape&) = default;

  /// A rect spanning the corners `a` and `b` (any two opposite corners).
  static Shape rect(Vec2 a, Vec2 b) {
    Shape s;
    s.kind = ShapeKind::Rect;
    s.min = {std::min(a.x, b.x), std::min(a.y, b.y)};
    s.max = {std::max(a.x, b.x), std::max(a.y, b.y)};
    return s;
  }
  /// A circle of `radius` metres round `center`.
  static Shape circle(Vec2 center, double radius) {
    Shape s;
    s.kind = ShapeKind::Circle;
    s.center = center;
    s.radius = radius;
    return s;
  }
};

/// A vector feature painted over the tile grid: an obstacle (impassable terrain) or a
/// terrain region such as a nebula or a swamp. Later features paint over earlier ones.
struct Feature {
  std::uint32_t id = 0;     ///< Unique among features; stable across edits.
  std::string name;         ///< Optional label.
  std::size_t terrain = 0;  ///< Index into Scenario::terrains.
  Shape shape;
  /// Metres per second while the world's motion plays (advance_features); bounces off
  /// the world's edges. {0, 0}: stays put.
  Vec2 velocity{0, 0};
  /// A container (seed 004): the shape bounds walkable space. When a scenario has
  /// containers, everything outside all of them takes their terrain (one for all), after
  /// the tiles and before the other features; the inside keeps what lies there.
  bool container = false;
  friend bool operator==(const Feature&, const Feature&) = default;
};

/// A bridge: a segment with a width; when intact its deck is passable ground.
struct Bridge {
  std::uint32_t id = 0;
  Vec2 a{0, 0};
  Vec2 b{0, 0};
  double width = 6;  ///< Metres (> 0).
  bool intact = true;
  friend bool operator==(const Bridge&, const Bridge&) = default;
};

/// A side in the game. Threats, allies and units belong to one.
struct Faction {
  std::string name;  ///< Unique.
  Color color;
  /// Metres each of its units sees around it. 0: no fog of war (the faction knows the
  /// world as it is); > 0: it knows features, bridges and tiles through `memory`,
  /// `bridges` and `tiles`, and a unit sees a point within this distance when the segment
  /// to it crosses no cell that blocks sight (seed 003; planner/world/README.md).
  double sight = 0;
  /// How a feature partly in view is believed: false, whole (seed 003's first option);
  /// true, only the parts seen (its second: the corners seen, plus corners where the
  /// feature leaves the view).
  bool partial = false;
  /// With fog of war: the features as the faction last saw them (partial pieces share
  /// their feature's id).
  std::vector<Feature> memory;
  /// With fog of war: the bridges as the faction last saw them (intact or destroyed;
  /// seed 004, "Bridges": a faction that has not seen a bridge destroyed still plans over
  /// it). A bridge it has never seen is not in its world.
  std::vector<Bridge> bridges;
  /// With fog of war and a tile grid: the tiles as the faction last saw them, row-major
  /// like TileGrid::terrain, kUnseenTile where it has seen nothing; empty: nothing seen
  /// yet. An unseen tile is believed terrain 0 (seed 003: plan with what has been seen).
  std::vector<std::uint8_t> tiles;
  /// The value of a tile the faction has never seen, in `tiles`.
  static constexpr std::uint8_t kUnseenTile = 255;
  friend bool operator==(const Faction&, const Faction&) = default;
};

/// A circular zone of danger (threat) or safety (ally) for threat-aware planners.
struct Influence {
  std::uint32_t id = 0;
  Vec2 center{0, 0};
  double radius = 1;    ///< Metres (> 0).
  double strength = 1;  ///< Relative weight (>= 0).
  std::string faction;  ///< Optional faction name ("" = none).
  friend bool operator==(const Influence&, const Influence&) = default;
};

/// A road: a polyline of given width that speeds movement up.
struct Road {
  std::uint32_t id = 0;
  std::vector<Vec2> points;   ///< >= 2 points.
  double width = 4;           ///< Metres (> 0).
  double speed_factor = 1.5;  ///< Cost multipliers on the road are divided by this (>= 1).
  friend bool operator==(const Road&, const Road&) = default;
};

/// What a unit or a group is told to do (seed 002).
enum class OrderKind : std::uint8_t {
  None,       ///< No order: the unit stands (and may be pushed aside).
  Move,       ///< Go to points[0].
  Waypoints,  ///< Go through points in order, stop at the last.
  Patrol,     ///< Go through points forever (PatrolMode says how).
  Stop,       ///< Stop where it is.
};

/// How a patrol goes round its points.
enum class PatrolMode : std::uint8_t {
  Loop,       ///< ... last, first, second, ...
  BackForth,  ///< ... last, last but one, ..., first, second, ...
};

/// An order: a kind and its points (world metres).
struct Order {
  OrderKind kind = OrderKind::None;
  std::vector<Vec2> points;  ///< Move: 1; Waypoints: >= 1; Patrol: >= 2; None, Stop: 0.
  PatrolMode patrol = PatrolMode::Loop;
  friend bool operator==(const Order&, const Order&) = default;
};

/// A unit on the map.
struct Unit {
  std::uint32_t id = 0;
  std::string faction;             ///< Faction name.
  std::size_t movement_class = 0;  ///< Index into Scenario::classes.
  Vec2 position{0, 0};
  double heading = 0;  ///< Radians, 0 = +x, counter-clockwise towards -y.
  Order order{};       ///< Its own order (format version 2).
  friend bool operator==(const Unit&, const Unit&) = default;
};

/// A formation the scenario defines (seed 004, "Formation movement"), beside the
/// built-in "column", "line", "wedge" and "echelon".
struct FormationDef {
  std::string name;  ///< Unique, not a built-in formation's name.
  std::vector<Vec2>
      offsets;  ///< Metres per slot in the platoon's frame (x forward, y left); slot 0 the lead.
  friend bool operator==(const FormationDef&, const FormationDef&) = default;
};

/// How a group moves as a platoon (seed 004): its own position and heading on one path,
/// its units (in the group's order: slot 0 first) driving to their slots of a formation.
struct PlatoonSpec {
  std::string formation = "wedge";  ///< A built-in formation's name or a FormationDef's.
  double spacing = 8;               ///< Metres between neighbouring slots of a built-in formation (> 0).
  std::optional<double>
      heading{};  ///< Radians to face at the end (as Unit::heading); default: the path's last way.
  /// With no path for the platoon, it breaks: each vehicle goes to its slot at the
  /// ordered point on a path of its own, where the formation forms again (seed 002).
  bool break_when_blocked = false;
  friend bool operator==(const PlatoonSpec&, const PlatoonSpec&) = default;
};

/// Units given one order together (seed 002's group). A unit's own order, if any, is
/// replaced by its group's, unless the group has none (kind None: a saved game's groups,
/// whose orders were handed to the units).
struct UnitGroup {
  std::uint32_t id = 0;
  std::string name;                  ///< Optional label.
  std::vector<std::uint32_t> units;  ///< Unit ids (each in at most one group).
  Order order{};
  /// Moves as a platoon in formation (format version 3); a plain group when absent.
  std::optional<PlatoonSpec> platoon{};
  friend bool operator==(const UnitGroup&, const UnitGroup&) = default;
};

/// Reactive avoidance (seed 000, "Support Systems"), on top of the cooperation rules.
enum class AvoidanceMode : std::uint8_t {
  None,
  PotentialField,  ///< Steering forces away from nearby units.
  SteeringArcs,    ///< The best of a fan of arcs: obstacles weigh against, the next path point for.
};

/// How the simulation of units runs (format version 2).
struct SimSettings {
  double dt = 1.0 / 30.0;   ///< Seconds per step (fixed; 1e-4 to 1).
  bool continuous = true;   ///< Move lines (true) or sub-sampled discrete moves (false).
  bool prevention = true;   ///< Separate overlapping hard shapes at the end of each step.
  bool cooperation = true;  ///< Seed 002's resolution rules between units.
  bool passages = true;     ///< Narrow passages one direction of travel at a time.
  /// Two crowds locked head-on on wider ground make a passage there while the knot lasts
  /// (sim/knots.hpp); only with `passages`. Off by default: it unties two crowds in a
  /// street, but on a town's random goals it can move the jam (sim/README.md).
  bool knots = false;
  /// A move (or waypoints) order given to several units at once sends each to its own
  /// slot of a formation round the ordered point (sim/formation.hpp), not all to the point.
  bool formation_goals = true;
  /// A unit held up by other units (no progress for a few seconds, another unit touching
  /// it) looks for a way round them on a small lattice where they stand (sim/detours.cpp).
  bool detours = true;
  AvoidanceMode avoidance = AvoidanceMode::None;
  double memory_seconds = 2;      ///< How long resolved collisions are remembered (>= 0).
  double prediction_seconds = 1;  ///< Horizon of predicted positions (> 0, <= 10).
  int path_budget = 64;           ///< Path requests answered per step (>= 1).
  /// Stuck detection (sim/stuck_detector.hpp): a unit with an order that gets less than
  /// `stuck_progress` metres closer to its order point in `stuck_seconds` is stuck. It
  /// only observes: units move the same whatever these are.
  double stuck_seconds = 10;    ///< Seconds (> 0).
  double stuck_progress = 0.5;  ///< Metres (> 0).
  /// Collision density as planning cost (seed 002: later paths avoid areas where
  /// collisions keep happening): every `density_refresh` seconds each cell's cost is
  /// multiplied by 1 + density_cost x the density around it (itself and its 8
  /// neighbours, the densest) relative to the densest cell, rounded down to eighths (so
  /// cells under an eighth of the densest add nothing), for every planner that reads the
  /// cost grids. It is planning cost only: units move as fast.
  double density_cost = 0;     ///< Weight (0 = off, <= 100).
  double density_refresh = 1;  ///< Seconds between updates of that cost (> 0, <= 60).
  /// Seconds in which the collision density (and so its cost) halves: each step every
  /// cell's density is multiplied by 2^(-dt / density_half_life). 0 = never decays; <= 3600.
  double density_half_life = 30;
  friend bool operator==(const SimSettings&, const SimSettings&) = default;
};

/// What a regression run expects of a simulation (the scenario's `expect` blocks).
enum class ExpectKind : std::uint8_t {
  Arrive,        ///< The units arrive (Move, Waypoints orders) within `within` seconds.
  NoOverlaps,    ///< No two units' hard shapes overlap at the end of any step.
  NoTunnelling,  ///< No unit crosses an obstacle or another unit's hard shape in a step.
  NoStuck,       ///< No unit is flagged stuck (SimSettings::stuck_seconds, stuck_progress).
  Passes,        ///< Each unit comes within `radius` of `point`.
  Avoids,        ///< No unit's centre enters `area` (a rect or a circle).
};

/// One expectation. Checked by sim/expectations.hpp; decided at the simulated time it
/// fails, or when it can no longer fail.
struct Expectation {
  ExpectKind kind = ExpectKind::NoOverlaps;
  std::string name;  ///< Optional label for messages.
  /// Unit ids it is about; empty: every unit (Arrive: every unit with a Move or
  /// Waypoints order). Not used by NoOverlaps and NoTunnelling.
  std::vector<std::uint32_t> units;
  /// Seconds of simulated time (> 0). Arrive, Passes: the deadline (required for Arrive;
  /// Passes without one: by the end of the run). The others: checked over the first
  /// `within` seconds (absent: the whole run).
  std::optional<double> within;
  Vec2 point{0, 0};   ///< Passes: the point, metres.
  double radius = 1;  ///< Passes: how near, metres (> 0).
  Shape area{};       ///< Avoids: a Rect or a Circle.
  friend bool operator==(const Expectation&, const Expectation&) = default;
};

/// snake_case name as in files ("arrive", "no_overlaps", ...).
const char* to_string(ExpectKind kind);

/// A path query: from start to goal for one movement class with one planner.
struct Query {
  std::string name;  ///< Optional label.
  Vec2 start{0, 0};
  Vec2 goal{0, 0};
  std::size_t movement_class = 0;         ///< Index into Scenario::classes.
  std::string planner = kDefaultPlanner;  ///< A name in the planner registry.
  std::vector<PlannerParam> params;       ///< Overrides of the planner's defaults, sorted by name.
  std::optional<double> expected_length;  ///< Known optimal length (metres), if any.
  /// The faction whose knowledge the query plans with ("": the world as it is).
  std::string faction;
  friend bool operator==(const Query&, const Query&) = default;
};

/// Hints for the viewer; they never affect planning.
struct ViewerHints {
  std::optional<Vec2> center;       ///< World point at the centre of the view.
  std::optional<double> zoom;       ///< Pixels per metre.
  std::vector<std::string> layers;  ///< Overlays shown on open.
  friend bool operator==(const ViewerHints&, const ViewerHints&) = default;
};

/// World extent and grid resolution.
struct WorldInfo {
  double width = 64;     ///< Metres.
  double height = 64;    ///< Metres.
  double cell_size = 1;  ///< Metres per grid cell.
  friend bool operator==(const WorldInfo&, const WorldInfo&) = default;
};

/// A whole scenario, as stored in one JSON file.
struct Scenario {
  std::string name;
  std::string description;
  WorldInfo world;
  std::uint64_t seed = 1;  ///< Seed for anything random in simulations.
  std::vector<MovementClass> classes;
  std::vector<TerrainType> terrains;  ///< Index 0 is the default ground.
  std::optional<TileGrid> tiles;
  std::vector<Feature> features;
  std::vector<Influence> threats;
  std::vector<Influence> allies;
  std::vector<Road> roads;
  std::vector<Bridge> bridges;
  std::vector<Faction> factions;
  std::vector<Unit> units;
  std::vector<UnitGroup> groups;
  std::vector<FormationDef> formations;  ///< Formations of its own (format version 3).
  SimSettings sim{};
  std::vector<Query> queries;
  ViewerHints viewer;
  std::vector<Expectation> expect;  ///< What a regression run checks (may be empty).
  /// A saved game: the unit simulation's whole state as JSON text (opaque here; written
  /// and read by sim::Simulation::state_json and restore_state), or empty.
  std::string sim_state;
  friend bool operator==(const Scenario&, const Scenario&) = default;

  /// Grid size in cells for the world at world.cell_size (ceil of width / cell_size).
  glm::ivec2 grid_size() const;
  /// Index of the terrain named `name`, or nullopt.
  std::optional<std::size_t> find_terrain(std::string_view name) const;
  /// Index of the movement class named `name`, or nullopt.
  std::optional<std::size_t> find_class(std::string_view name) const;
  /// Index of the faction named `name`, or nullopt ("" too).
  std::optional<std::size_t> find_faction(std::string_view name) const;
};

/// True when the class flies (VehicleModel::Rotary, seed 004's helicopters): terrain,
/// obstacles and terrain groups do not hold it, only the world's edge does.
bool flies(const MovementClass& movement_class);

/// The multiplier of terrain `terrain` for class `movement_class` (nullopt: impassable):
/// the terrain table's entry, or 1 for a class that flies. Every reader of terrain costs
/// goes through this, so a flying class is the same to every planner.
std::optional<double> terrain_cost(const Scenario& scenario, std::size_t terrain, std::size_t movement_class);

/// True when the class crosses between terrain groups (amphibious, or it flies).
bool crosses_groups(const MovementClass& movement_class);

/// The default movement classes: infantry, tracked, wheeled, hover, rotary.
std::vector<MovementClass> default_movement_classes();

/// The default terrain types for the default classes: ground, rough, forest, swamp,
/// nebula, shallow water, deep water (group "water"), wall. Roads are overlays, not terrain.
std::vector<TerrainType> default_terrain_types();

/// An empty scenario of the given size with the default classes and terrains.
Scenario make_empty_scenario(double width, double height, double cell_size);

}  // namespace pathscope
