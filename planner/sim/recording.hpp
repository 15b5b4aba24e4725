#pragma once

// Recordings of a simulation run (issue "QA"): every step's unit states, kept compactly
// as keyframes plus deltas, so that a timeline scrubs the run back and forth and shows
// exactly the state the simulation had then (a decoded frame's state hash equals the hash
// the simulation had at that step); a log of each unit's decisions, in the spirit of
// Unreal's Visual Logger; the stuck-unit flags; and snapshots of the whole state now and
// then, so that the run can be taken up again from any recorded step.
//
// The recorder only watches the simulation after each step: a run is the same recorded or
// not. The log is derived from what the simulation shows between two steps (states,
// paths, yields, waits, collisions and the rules that handled them, the corrections made
// by avoidance and prevention), so it costs the simulation nothing.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "planner/core/result.hpp"
#include "planner/scenario/scenario.hpp"
#include "planner/sim/platoon_drive.hpp"
#include "planner/sim/sim_types.hpp"
#include "planner/sim/simulation.hpp"
#include "planner/sim/stuck_detector.hpp"

namespace pathscope::sim {

/// One recorded step: the unit slots, the step's collisions and the platoons. Each slot
/// holds the fields sim_fields.hpp marks kFramed (identity, position, heading, speed,
/// state, yield and whom to, order point, waypoint, arrived, goal taken, bridge and
/// passage waits, move-aside targets) and its path: what the state hash covers and the
/// window draws; the others keep their defaults. Each platoon is whole, every field as
/// Simulation::platoons() had it (doubles bit for bit), so a recorded step draws what the
/// live one drew; a recording made before platoons were recorded has none.
struct Frame {
  std::uint64_t step = 0;
  std::vector<SimUnit> units;         ///< Index = UnitId::index.
  std::vector<Collision> collisions;  ///< As Simulation::collisions() after that step.
  std::vector<PlatoonRun> platoons;   ///< As Simulation::platoons() after that step.
};

/// What a logged decision is about.
enum class DecisionKind : std::uint8_t {
  Appeared,       ///< The unit was added (or was there when recording began).
  Removed,        ///< The unit was removed.
  State,          ///< Its movement state changed: `from` -> `to` (MoveState).
  PathRequested,  ///< It asked for a path; `from` is the state it was in (re-path if moving).
  PathFound,      ///< A path arrived: `value` metres, to `point`; `count` points.
  PathFailed,     ///< No path to its order point (`point`).
  PathChanged,    ///< Its path changed without a request (a detour, a way round a corner).
  Collision,      ///< A collision with `other` found or handled: `to` = CooperationRule,
                  ///< `flags` = DecisionFlags, at `point`.
  Yield,          ///< What cooperation asks of it changed: `from` -> `to` (Yield), for
                  ///< `other`; `point` is where it goes aside or round to.
  BridgeWait,     ///< It began (`to` = 1) or stopped (0) waiting before a held bridge.
  PassageWait,    ///< It began (1) or stopped (0) waiting before a narrow passage.
  Avoided,        ///< Reactive avoidance began turning it, by `value` radians.
  Pushed,         ///< Collision prevention began pushing it, by `value` metres.
  Arrived,        ///< It reached the last point of its order.
  Stuck,          ///< The stuck detector flagged it; `value` = seconds since its last progress.
  Unstuck,        ///< It made progress again after a stuck flag.
  // A platoon's decisions are logged for the vehicle whose request carries its path
  // (PlatoonRun::requester), or its first vehicle present when that one is gone.
  PlatoonPathRequested,  ///< The platoon was ordered and asked for a path to `point`.
  PlatoonPathFound,      ///< Its path arrived: `value` metres, to `point`; `count` points.
  PlatoonPathFailed,     ///< No path to its ordered point (`point`): its vehicles stand.
  PlatoonWait,           ///< It began (`to` = 1) waiting for its straggler (`other`, `whom`,
                         ///< at `point`), `value` metres from its drive-to point, or went on
                         ///< (0) from `point`.
  PlatoonArrived,        ///< Its last turn is done, at `point`, facing `value` radians.
  PlatoonDone,           ///< Its vehicles now hold their slots as units of their own.
  // A vehicle's own decisions in its platoon, logged for the vehicle.
  VehiclePathRequested,  ///< Cut off from its drive-to point (`point`), it asked for a private path.
  VehiclePathFound,      ///< Its private path arrived: `value` metres, to `point`; `count` points.
  VehiclePathFailed,     ///< No private path came (it stood at `point`): it drives straight
                         ///< for its drive-to point again.
};

/// snake_case name ("path_requested", ...).
const char* to_string(DecisionKind kind);

/// Flags of a Collision decision.
enum DecisionFlags : std::uint8_t {
  kDecisionHard = 1,        ///< Hard shapes (else soft radii only).
  kDecisionImmediate = 2,   ///< Overlapping then (else predicted to).
  kDecisionDecides = 4,     ///< This unit decided (Collision::a).
  kDecisionStateShift = 3,  ///< CollisionState in bits 3-4.
};

/// One entry of a unit's log.
struct Decision {
  std::uint64_t step = 0;  ///< The step after which it was seen.
  UnitId unit;
  std::uint32_t who = 0;  ///< The unit's scenario id.
  DecisionKind kind = DecisionKind::State;
  std::uint8_t from = 0;
  std::uint8_t to = 0;
  std::uint8_t flags = 0;
  bool has_other = false;
  UnitId other;
  std::uint32_t whom = 0;  ///< The other unit's scenario id.
  std::uint32_t count = 0;
  Vec2 point{0, 0};
  double value = 0;
  friend bool operator==(const Decision&, const Decision&) = default;
};

/// One line: "waiting_for_path -> moving: path of 12.40 m (5 points) to (3.00, 4.00)".
std::string describe(const Decision& decision);

/// A stuck flag as recorded: the step it was flagged at and the detector's account.
struct RecordedStuck {
  std::uint64_t step = 0;
  UnitId unit;
  std::uint32_t who = 0;  ///< Scenario id.
  double time = 0;        ///< Seconds, when flagged.
  double since = 0;       ///< Seconds, its last progress.
  /// The step it made progress again at (it is stuck from `step` to before it), or
  /// kStillStuck.
  std::uint64_t until = kStillStuck;
  std::string text;  ///< describe(StuckEvent).
  static constexpr std::uint64_t kStillStuck = ~std::uint64_t{0};
  friend bool operator==(const RecordedStuck&, const RecordedStuck&) = default;
};

/// How much a recording may hold.
struct RecordingLimits {
  std::size_t max_bytes = std::size_t{256} << 20;  ///< Frames, snapshots and log together.
  std::uint32_t keyframe_interval = 64;            ///< Steps between full frames (>= 1).
  double snapshot_seconds = 10;                    ///< Simulated seconds between snapshots.
};

/// A whole-state snapshot: the world as it was (an index into the recording's worlds)
/// and Simulation::state_json() at `step`.
struct Snapshot {
  std::uint64_t step = 0;
  std::size_t world = 0;
  std::string state;
};

/// A recorded run. Record with capture() after every step; read any recorded step back.
class Recording {
 public:
  /// A recording of a run the caller is about to make of `start` (a saved game too).
  /// Nothing is recorded before the first capture().
  explicit Recording(Scenario start, RecordingLimits limits = {});

  /// Records the simulation as it is now: call it once before the first step watched
  /// and after every step. False once the memory cap is reached (then stopped() is set,
  /// stop_message() says so and nothing more is recorded), or if the simulation is not
  /// one step further on than the last capture (a different run).
  bool capture(const Simulation& simulation);
  /// The simulation's world changed between two steps (an edit while it runs): takes a
  /// snapshot of it now, so that the run can be taken up again past the edit.
  void world_changed(const Simulation& simulation);
  /// Forgets every step after `step` (the run is taken up again from there); the stuck
  /// detector starts afresh (units flagged before stay listed).
  void truncate_after(std::uint64_t step);

  bool empty() const { return hashes_.empty(); }
  /// Changes whenever what the recording holds changes (a capture, a world change, a
  /// truncation): the same recording at the same revision holds the same.
  std::uint64_t revision() const { return revision_; }
  std::uint64_t first_step() const { return first_step_; }
  /// The last recorded step (first_step() - 1 when empty).
  std::uint64_t last_step() const { return first_step_ + hashes_.size() - 1; }
  bool has(std::uint64_t step) const { return !empty() && step >= first_step_ && step <= last_step(); }
  double dt() const { return start_.sim.dt; }
  /// The recorded step's units and collisions; an error if it was not recorded, or if its
  /// bytes or those of the frames before it back to its keyframe are damaged (naming the
  /// file, the step and the frame's byte range).
  Result<Frame> frame(std::uint64_t step) const;
  /// Decodes every recorded frame once, in order of step (each from the one before, where
  /// frame() starts from its keyframe), and calls `visit` with each until it returns
  /// false. The error of the first damaged frame, as frame()'s.
  Status for_each_frame(const std::function<bool(const Frame&)>& visit) const;
  /// The state hash the simulation had at a recorded step.
  std::uint64_t hash(std::uint64_t step) const { return hashes_[step - first_step_]; }
  /// The state hash of `units` at `step` as this recording's hashes are made: state_hash,
  /// or state_hash_v1 for a file of the format's version 1 (steps captured onto such a
  /// recording are hashed as it is, and it is saved as version 1).
  std::uint64_t hash_of(std::uint64_t step, std::span<const SimUnit> units) const;
  /// Whether `simulation`'s state is the one recorded at its step.
  bool matches(const Simulation& simulation) const;

  /// Every decision, in order of step, then slot.
  std::span<const Decision> decisions() const { return decisions_; }
  /// Indices into decisions() of `unit`'s entries (by slot and generation).
  std::vector<std::size_t> decisions_of(UnitId unit) const;
  /// Every stuck flag, in order.
  std::span<const RecordedStuck> stuck() const { return stuck_; }
  /// Units stuck at `step` (flagged then or before, no progress since).
  std::vector<UnitId> stuck_at(std::uint64_t step) const;

  /// The stuck detector watching the run up to last_step(), or nullptr (before the first
  /// capture, or once stopped: then it no longer watches).
  const StuckDetector* detector() const { return live_ && !stopped() ? detector_.get() : nullptr; }

  /// The latest snapshot at or before `step`, or nullptr.
  const Snapshot* snapshot_before(std::uint64_t step) const;
  std::span<const Snapshot> snapshots() const { return snapshots_; }
  /// Takes the run up again at a recorded step: a simulation from the latest snapshot
  /// at or before it, run on to `step`. Its state hash equals hash(step); otherwise, or
  /// if the snapshot's world or state is refused, an error naming the file and the
  /// snapshot.
  Result<std::unique_ptr<Simulation>> resume(std::uint64_t step) const;

  /// The scenario the run began from.
  const Scenario& start() const { return start_; }
  const RecordingLimits& limits() const { return limits_; }
  /// Bytes held (frames, hashes, snapshots, log).
  std::size_t bytes() const;
  /// Bytes of the frames alone.
  std::size_t frame_bytes() const { return data_.size(); }
  bool stopped() const { return !stop_message_.empty(); }
  const std::string& stop_message() const { return stop_message_; }

  /// The name of what it was read from (the file; "" for a recording made here), which
  /// its errors name.
  const std::string& source() const { return source_; }

  /// The recording as bytes (CBOR, format "pathscope-recording") and back. Errors name
  /// `source_name` and the field, the list item or the byte offset; every size is checked
  /// against the data that holds it (README.md, Limits).
  std::string to_bytes() const;
  static Result<Recording> from_bytes(std::string_view bytes, const std::string& source_name);
  /// Writes it atomically (planner/core/atomic_write.hpp); reads it back.
  Status save(const std::filesystem::path& path) const;
  static Result<Recording> load(const std::filesystem::path& path);

 private:
  void stop(std::string message);
  void take_snapshot(const Simulation& simulation, bool new_world);
  void log_changes(const Simulation& simulation);
  // The platoons' decisions (recording_decisions.cpp): the simulation's platoons against
  // base_platoons_.
  void log_platoons(const Simulation& simulation);
  // `field` prefixed with the file's name, when it was read from one.
  std::string at(const std::string& field) const;
  // Decodes frame `j` into `f`, which holds frame j - 1 unless j is a keyframe; `before`:
  // positions of frame j - 2 (for frames two and more past their keyframe), then of j - 1.
  Status decode_next(std::size_t j, Frame& f, std::vector<Vec2>& before) const;

  Scenario start_;
  RecordingLimits limits_;
  std::string source_;  // what it was read from ("" when made here)
  std::uint64_t first_step_ = 0;
  std::uint64_t revision_ = 0;
  std::string data_;                    // every frame's bytes, one after another
  std::vector<std::uint64_t> offsets_;  // where each frame begins in data_
  int hash_version_ = 2;                // its hashes' version: state_hash_v1 (1) or state_hash (2)
  std::vector<std::uint64_t> hashes_;   // per frame
  std::vector<std::string> worlds_;     // scenario JSON, units as saved, no sim_state
  std::vector<Snapshot> snapshots_;
  std::vector<Decision> decisions_;
  std::vector<RecordedStuck> stuck_;
  std::string stop_message_;
  // What capture() compares the next step with (not saved: a loaded recording is read only).
  std::vector<SimUnit> base_;           // the last frame, as decoded
  std::vector<Vec2> before_;            // positions of the frame before it
  std::vector<std::uint64_t> digests_;  // path_digest of each slot of base_
  // Per slot of base_: the revision (UnitPath) of the live path its path was taken from, or
  // kUnknownRevision (decoded, not taken): an equal revision of the same unit id, with the
  // simulation's restores() still base_restores_, is the same path without comparing it.
  static constexpr std::uint64_t kUnknownRevision = ~std::uint64_t{0};
  std::vector<std::uint64_t> base_revisions_;
  std::uint64_t base_restores_ = 0;
  std::vector<std::uint8_t> path_changed_;  // per slot: its path changed in the step captured
  std::vector<Collision> base_collisions_;  // the last frame's collisions
  std::vector<PlatoonRun> base_platoons_;   // the last frame's platoons
  std::vector<std::uint8_t> avoiding_;      // per slot: avoidance turned it last step
  std::vector<std::uint8_t> pushing_;       // per slot: prevention pushed it last step
  std::unordered_map<std::uint64_t, std::uint16_t> contacts_;  // pair -> rule, state of last step
  std::unique_ptr<StuckDetector> detector_;
  std::size_t stuck_seen_ = 0;          // detector events already logged
  std::size_t stuck_watched_from_ = 0;  // stuck_ flags raised by the current detector
  double last_snapshot_time_ = -1;
  bool live_ = false;  // made by capture() (not loaded)
};

}  // namespace pathscope::sim
