#pragma once

// The obstacles a visibility graph is built on: every shape a movement class cannot
// enter (impassable tiles, obstacle features), inflated by the class's radius and merged
// where they overlap, as closed rings of world points (seed 004, "Buildings and
// forests"; seed 003, "Cutting corners": obstacles made larger by the unit's size).

#include <cstddef>
#include <string>
#include <vector>

#include "planner/core/result.hpp"
#include "planner/core/types.hpp"
#include "planner/scenario/scenario.hpp"

namespace pathscope {

class PlanningWorld;

namespace visgraph {

/// Integer coordinates Clipper works in: 1024 per metre (a power of two, so every
/// integer coordinate is an exact double in world units). Inputs are rounded to it.
inline constexpr double kScale = 1024.0;

/// How obstacles become polygons.
struct ObstacleParams {
  /// Metres the centre of a unit keeps from every obstacle (the class's radius).
  double radius = 0;
  /// Largest distance, metres, by which a circle or a rounded corner is overstated
  /// (never understated): circles and the round joins of the inflation are polygons
  /// whose edges stay within max_error outside the true curve. Plus 1/kScale rounding.
  double max_error = 0.05;
};

/// One obstacle to inflate, or an opening: a shape, and a name for messages
/// ("features[3] (id 7)"). Inputs apply in order, later over earlier.
struct ObstacleInput {
  std::string name;
  Shape shape;
  /// Passable ground cut out of the obstacles before it in the list (a passable feature
  /// painted over them, an intact bridge's deck), before inflation.
  bool opening = false;
  /// A container (seed 004: "an outer boundary with holes"): the containers of the list,
  /// which follow one another, bound free space together; what they stand for is the
  /// world outside all of them (an obstacle, or with `opening` an opening). Rectangles
  /// and circles are rounded so that the outside is overstated when it is an obstacle;
  /// polygons go to the nearest 1/kScale, as obstacles do.
  bool container = false;
};

/// A closed ring of the merged, inflated obstacles. The obstacle's inside is on the left
/// of every edge (cross(b - a, x - a) > 0 for inside points x near edge a -> b): outer
/// boundaries and the boundaries of holes in an obstacle alike.
struct Ring {
  std::vector<Vec2> points;  ///< World coordinates, multiples of 1/kScale; >= 3, no repeats.
  bool hole = false;         ///< Bounds a hole of an obstacle (free space inside; the world's frame too).
  bool frame = false;        ///< The outer ring of the world's frame, beyond the world (not drawn).
};

/// The merged, inflated obstacles of one world for one radius.
struct ObstacleSet {
  Box2 world;                        ///< The world box; its outside counts as an obstacle.
  Box2 free_box;                     ///< The box a unit's centre may use: the world shrunk by the radius.
  std::vector<Ring> rings;           ///< Obstacle boundaries, the world's frame (outside free_box) included.
  std::vector<std::string> repairs;  ///< What was repaired in the input, one line each, naming the item.
  std::size_t input_count = 0;       ///< Obstacles taken in (a tile grid's blocked runs count each).
  /// Built with openings (inputs applied in order): the rings differ slightly from the
  /// build without (circles are inflated with the rest), so a graph update across the
  /// two builds them afresh.
  bool ordered = false;
};

/// Merges and inflates `inputs` inside `world`. Bad input geometry is repaired when the
/// repair is unambiguous (repeated consecutive points are dropped; noted in `repairs`),
/// and refused otherwise: fewer than 3 distinct points, zero area, a self-intersection,
/// a non-positive circle radius or an empty rectangle is an Error whose `where` names the item.
Result<ObstacleSet> build_obstacle_set(const std::vector<ObstacleInput>& inputs, Box2 world,
                                       const ObstacleParams& params);

/// The blocked cells of a tile grid (`blocked[y * width + x]`, cells of `cell_size`
/// metres from the origin) as obstacle inputs: one rectangle per horizontal run of
/// blocked cells, plus a small diamond (4/kScale metres from its centre to each vertex) at every corner where
/// two blocked cells touch diagonally with both other cells free, so the gap is closed as the grid's
/// no-corner-cutting rule closes it.
std::vector<ObstacleInput> grid_obstacles(const std::vector<std::uint8_t>& blocked, int width, int height,
                                          double cell_size);

/// True when terrain `terrain` blocks `movement_class`: impassable to it, or (for a
/// class that is not amphibious) of another terrain group than terrain 0.
bool blocks_class(const Scenario& scenario, std::size_t terrain, std::size_t movement_class);

/// Everything `movement_class` cannot enter in `world`, as the world's raster has it (the
/// one model the grid planners and the path referee share): every cell whose terrain
/// blocks the class (blocks_class) and that no intact bridge deck covers, as
/// grid_obstacles. Obstacle features thus count by the cells they cover (the coverage
/// rule), openings and containers as the raster paints them. Roads only change costs.
std::vector<ObstacleInput> world_obstacles(const PlanningWorld& world, std::size_t movement_class);

/// The vertices world_obstacles would hand over (4 per run of blocked cells and per
/// diamond), counted without building them: the size of the work a build of the
/// obstacles and their graph starts from.
std::uint64_t world_obstacle_vertices(const PlanningWorld& world, std::size_t movement_class);

}  // namespace visgraph
}  // namespace pathscope
