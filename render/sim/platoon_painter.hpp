#pragma once

// Turns the simulation's platoons (seed 004, "Formation movement") into drawing (world
// metres): each platoon's path and lead-in, its pose, every slot's formation and column
// positions and drive-to point, the straggler wait, and per vehicle its crew's heading
// case, steering and avoidance. Reads PlatoonRun values; no window code.

#include <span>

#include "planner/sim/platoon_drive.hpp"
#include "render/core/draw_list.hpp"

namespace pathscope::render {

/// Draws on Layer::SimPlatoons, per platoon with a walk (an order under way or done):
/// the lead-in (faint line) and the planned path (polyline); the platoon's position (a
/// ring) and heading (an arrow); per slot, its formation position (a hollow ring), its
/// column position (a faint dot, only while the slot is pulled in, morph > 0), its
/// drive-to point (a filled dot) with a line to it from its vehicle, both coloured from
/// kDriveTo (morph 0) to kPulledIn (morph 1); a slot whose vehicle is gone is a dashed
/// cross on its formation position and has no line. Per vehicle present, from its
/// CrewState: its heading case (text "1".."4", none when still; "R" appended while
/// reversing), its steering vector (a line from the vehicle, one second of it), a line to
/// the vehicle it avoids, its private path while it drives one (a polyline from the
/// vehicle), and a red cross when avoidance stopped it. A waiting platoon
/// gets the label "waiting: N.N m" at its position (the straggler distance).
/// `units`: the simulation's slots (index = UnitId::index).
void paint_platoons(std::span<const sim::PlatoonRun> platoons, std::span<const sim::SimUnit> units,
                    DrawList& out);

/// Colours of the platoon drawing, for legends and tests.
namespace platoon_palette {
inline constexpr Color kPath{120, 230, 255, 200};        ///< The platoon's planned path.
inline constexpr Color kLeadIn{120, 230, 255, 90};       ///< Its lead-in before the path.
inline constexpr Color kPose{120, 230, 255, 255};        ///< Its position ring and heading arrow.
inline constexpr Color kFormation{255, 255, 255, 200};   ///< A slot's formation position.
inline constexpr Color kColumn{255, 255, 255, 70};       ///< A slot's column position (morphing).
inline constexpr Color kDriveTo{90, 230, 140, 255};      ///< A drive-to point at its formation position.
inline constexpr Color kPulledIn{250, 120, 40, 255};     ///< A drive-to point pulled fully into the column.
inline constexpr Color kEmpty{160, 160, 160, 200};       ///< A slot whose vehicle is gone.
inline constexpr Color kCase{255, 255, 160, 255};        ///< A crew's heading case number.
inline constexpr Color kSteering{200, 140, 255, 255};    ///< A crew's steering vector.
inline constexpr Color kAvoid{255, 170, 60, 220};        ///< The line to the vehicle avoided.
inline constexpr Color kStopped{255, 60, 60, 255};       ///< Avoidance stopped the vehicle.
inline constexpr Color kWaiting{255, 210, 90, 255};      ///< The waiting label.
inline constexpr Color kPrivatePath{255, 230, 90, 220};  ///< A crew's private path (bad-position check).
inline constexpr Color kArea{200, 220, 255, 110};        ///< Its area while it drives (kept clear of others).
}  // namespace platoon_palette

/// The colour of a drive-to point pulled in by `morph` (0..1, clamped).
Color drive_to_color(double morph);

}  // namespace pathscope::render
