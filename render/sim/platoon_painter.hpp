#pragma once

// Turns a simulation's platoons (seed 004) into drawing on the SimPlatoons layer (world
// metres): each platoon's path with its lead-in, its position and heading, its phase, and
// per slot the formation position, the column position it is pulled towards, the
// drive-to point and the line from its vehicle to it; per vehicle crew its heading case,
// its steering, the vehicle it avoids and any private path. Reads through spans only.

#include <span>

#include "planner/sim/platoon_drive.hpp"
#include "planner/sim/simulation.hpp"
#include "render/core/draw_list.hpp"

namespace pathscope::render {

/// Draws `platoons` (their vehicles looked up in `units` by slot) on Layer::SimPlatoons:
/// the path walked (faint, the lead-in dashed as a thinner line), a triangle at the
/// platoon's position along its heading with its phase as a label, and for each slot with
/// drive-to points: its formation position (a hollow ring), its column position when it
/// is pulled in (a small dot and a line to the drive-to point), the drive-to point (a dot
/// coloured from white, in formation, to orange, pulled to its column position) and a line
/// from its vehicle to it; an empty slot (its vehicle gone) a dashed ring. Per vehicle
/// crew: its heading case (1-4) as a label, its steering velocity (an arrow of one
/// second), a red line to the vehicle it avoids (a cross when avoidance stopped it) and its
/// private path (a polyline).
void paint_platoons(std::span<const sim::PlatoonRun> platoons, std::span<const sim::SimUnit> units,
                    DrawList& out);

/// Colours of the platoons' drawing, for legends and tests.
namespace platoon_palette {
inline constexpr Color kPath{200, 220, 255, 120};     ///< The platoon's path.
inline constexpr Color kPlatoon{120, 200, 255, 255};  ///< Its position and heading.
inline constexpr Color kSlot{255, 255, 255, 200};     ///< A formation position.
inline constexpr Color kPulled{255, 150, 40, 255};  ///< A drive-to point pulled fully to its column position.
inline constexpr Color kAvoid{235, 60, 60, 230};    ///< The vehicle a crew avoids.
inline constexpr Color kPrivatePath{255, 230, 90, 220};  ///< A crew's private path.
inline constexpr Color kSteering{150, 255, 150, 220};    ///< A crew's steering velocity.
}  // namespace platoon_palette

}  // namespace pathscope::render
