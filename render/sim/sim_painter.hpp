#pragma once

// Turns a unit simulation into drawing (world metres): the units with their hard and
// soft shapes, headings and velocities; their remaining paths, current waypoints and
// predicted positions; the collisions of the last step; what cooperation asks of each
// unit (move-aside targets, homes, get-to points); and the collision density heat map.
// Reads the simulation's state through spans; no window code.

#include <optional>
#include <span>
#include <vector>

#include "planner/scenario/scenario.hpp"
#include "planner/sim/platoon_drive.hpp"
#include "planner/sim/simulation.hpp"
#include "render/core/draw_list.hpp"
#include "render/core/layer_set.hpp"

namespace pathscope::render {

/// What paint_sim() draws: borrowed views of a simulation's state (or of values a test
/// makes). Every span must outlive the call.
struct SimScene {
  /// The scenario the units come from: its classes give the shapes, its factions the
  /// colours. Must not be null.
  const Scenario* scenario = nullptr;
  /// Unit slots, index = UnitId::index; slots with alive == false are skipped.
  std::span<const sim::SimUnit> units;
  /// The last step's collisions; pairs naming a unit not in `units` are skipped.
  std::span<const sim::Collision> collisions;
  /// The collision density; null or empty draws no heat map.
  const sim::DensityMap* density = nullptr;
  /// Units drawn highlighted (ids of dead or unknown units are ignored).
  std::span<const sim::UnitId> selected;
  /// Narrow passages, per movement class, and the grid their cells index (width in
  /// cells, cell size in metres).
  std::vector<std::span<const sim::Passage>> passages;
  int grid_width = 0;
  double cell_size = 1;
  /// A point to mark (a log entry's: where a collision happened, a path went, a unit was
  /// pushed), drawn on SimTargets as a ring with a cross; none if empty.
  std::optional<Vec2> focus;
  /// Units the stuck detector holds stuck (ids of dead or unknown units are ignored),
  /// ringed in red on Units.
  std::vector<sim::UnitId> stuck;
  /// The planning cost made from the density (PlanningWorld::cost_overlay: a factor per
  /// cell of the grid above, >= 1); empty when none.
  std::span<const float> density_cost;
  /// Per movement class, the cells claimed as the way out of a held passage (may be empty).
  std::vector<std::span<const std::uint8_t>> claimed;
  /// The platoons (SimPlatoons: platoon_painter.hpp); may be empty.
  std::span<const sim::PlatoonRun> platoons;
};

/// The scene of `simulation` as it stands, with `selected` highlighted.
SimScene sim_scene(const sim::Simulation& simulation, std::span<const sim::UnitId> selected = {});

/// Draws the scene: the heat map (SimDensity: one image, a pixel per density cell,
/// scaled by max_value, empty cells transparent; cells that carry density cost outlined,
/// one rectangle per run of them along a row), the narrow passages (SimPassages: their
/// cells, tinted when held; an arrow the way units go through, and one the way others
/// wait to; a label with the units inside and waiting), each alive unit's remaining path from
/// its position and a ring on its current waypoint (SimPaths), its predicted positions as
/// a polyline with a dot per point (SimPredicted), one line per collision between its two
/// units in the colour of its state, 3 px when immediate and 1.5 px when predicted
/// (SimCollisions), move-aside targets, homes and get-to points (SimTargets), the points
/// groups were ordered to (a ring with a cross, once per point) and each unit's slot goal
/// round it (a ring of its hard radius, thicker once it arrived, and a faint line from the
/// ordered point; SimFormation), and on
/// Units per unit: a faint soft-radius ring, the hard shape (a filled circle, or a filled
/// ellipse along the heading when its class's hard_aspect < 1) with its outline, the
/// heading line, the velocity (an arrow to where one second at its speed takes it) and,
/// when selected, a highlight ring. Only layers in `layers` are drawn.
void paint_sim(const SimScene& scene, const LayerSet& layers, DrawList& out);

/// Colours of the simulation's drawing, for legends and tests.
namespace sim_palette {
inline constexpr Color kUnresolved{235, 55, 55, 255};     ///< A collision not handled yet.
inline constexpr Color kResolving{250, 175, 40, 255};     ///< A collision being resolved.
inline constexpr Color kResolved{90, 205, 110, 255};      ///< A collision resolved.
inline constexpr Color kPath{235, 235, 235, 150};         ///< A unit's remaining path.
inline constexpr Color kWaypoint{255, 255, 255, 230};     ///< The waypoint a unit heads for.
inline constexpr Color kPredicted{110, 210, 255, 200};    ///< Predicted positions.
inline constexpr Color kVelocity{255, 255, 255, 255};     ///< Velocity arrows.
inline constexpr Color kSelected{190, 255, 70, 255};      ///< The highlight ring of a selected unit.
inline constexpr Color kAside{200, 120, 255, 255};        ///< Move-aside and detour targets.
inline constexpr Color kHome{150, 150, 255, 255};         ///< Where a unit returns after moving aside.
inline constexpr Color kGetTo{255, 120, 200, 255};        ///< The other unit's get-to point.
inline constexpr Color kOutline{15, 15, 15, 255};         ///< Unit outlines and heading lines.
inline constexpr Color kNoFaction{200, 200, 200, 255};    ///< Units of no known faction.
inline constexpr Color kPassage{120, 200, 255, 45};       ///< A free passage's cells.
inline constexpr Color kPassageHeld{90, 230, 140, 80};    ///< A held passage's cells.
inline constexpr Color kPassageFlow{90, 230, 140, 255};   ///< The way units go through it.
inline constexpr Color kPassageQueue{250, 175, 40, 255};  ///< The way units wait to go through.
inline constexpr Color kPassageClaim{90, 230, 140,
                                     40};  ///< Cells claimed as the way out: waiting units step off them.
inline constexpr Color kFocus{255, 235, 60, 255};    ///< The point a log entry is about.
inline constexpr Color kStuck{255, 60, 60, 255};     ///< The ring round a stuck unit.
inline constexpr Color kOrdered{255, 210, 90, 255};  ///< The point a group was ordered to.
inline constexpr Color kSlot{255, 210, 90, 200};     ///< A unit's slot goal in its group's formation.
}  // namespace sim_palette

/// The colour of a collision in `state`.
Color collision_color(sim::CollisionState state);

}  // namespace pathscope::render
