// Recordings: capturing a run step by step (frames, the decision log, snapshots). The
// frame codec is recording_codec.cpp, the decision log recording_decisions.cpp, the
// timeline's queries recording_timeline.cpp and the file recording_file.cpp.

#include "planner/sim/recording.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "planner/scenario/scenario_io.hpp"
#include "planner/sim/json_text.hpp"
#include "planner/sim/recording_codec.hpp"

namespace pathscope::sim {

using namespace recording_detail;

namespace {

using Json = nlohmann::json;

}  // namespace

Recording::Recording(Scenario start, RecordingLimits limits) : start_(std::move(start)), limits_(limits) {
  limits_.keyframe_interval = std::max<std::uint32_t>(1, limits_.keyframe_interval);
}

std::size_t Recording::bytes() const {
  std::size_t n = data_.size() + offsets_.size() * sizeof(std::uint64_t) +
                  hashes_.size() * sizeof(std::uint64_t) + decisions_.size() * sizeof(Decision);
  for (const std::string& w : worlds_) n += w.size();
  for (const Snapshot& s : snapshots_) n += s.state.size() + sizeof(Snapshot);
  for (const RecordedStuck& s : stuck_) n += s.text.size() + sizeof(RecordedStuck);
  return n;
}

void Recording::stop(std::string message) {
  if (stop_message_.empty()) stop_message_ = std::move(message);
}

bool Recording::capture(const Simulation& simulation) {
  if (stopped()) return false;
  ++revision_;
  const std::uint64_t step = simulation.step_count();
  const bool first = empty();
  if (first) {
    first_step_ = step;
    live_ = true;
    detector_ = std::make_unique<StuckDetector>(stuck_params(simulation.scenario().sim));
    // A saved game with the detector's tracks flags units when the run it came from did.
    if (!start_.sim_state.empty()) {
      // (Not a state: the simulation was not restored from it either.)
      if (const ParsedJson parsed = parse_json_text(start_.sim_state);
          parsed.ok && parsed.value.is_object()) {
        if (const auto it = parsed.value.find("stuck_detector"); it != parsed.value.end())
          (void)detector_->restore_state(it->dump(), simulation.slots().size());
      }
    }
  } else if (!live_ || step != last_step() + 1) {
    stop(fmt("recording stopped at step %llu: the simulation is at step %llu, not the next one",
             static_cast<unsigned long long>(last_step()), static_cast<unsigned long long>(step)));
    return false;
  }
  const auto slots = simulation.slots();
  // Whether each path changed since the last frame: compared once, used by the stuck
  // detector, the log, the frame and the state hash.
  path_changed_.resize(slots.size());
  const bool same_units = simulation.restores() == base_restores_;
  for (std::size_t i = 0; i < slots.size(); ++i) {
    if (i >= base_.size()) {
      path_changed_[i] = !slots[i].route.path.empty();
    } else if (same_units && base_revisions_[i] == slots[i].route.path.revision() &&
               base_[i].id == slots[i].id) {
      path_changed_[i] = 0;  // the very path base_ took
    } else {
      path_changed_[i] = !same_path(base_[i].route.path, slots[i].route.path);
    }
  }
  if (!first) detector_->observe(simulation, path_changed_);
  log_changes(simulation);
  const std::size_t index = hashes_.size();
  const bool key = index % limits_.keyframe_interval == 0;
  offsets_.push_back(data_.size());
  const bool history = index % limits_.keyframe_interval >= 2;
  encode_frame(key, base_, history ? std::span<const Vec2>(before_) : std::span<const Vec2>(), slots,
               path_changed_,
               key ? std::span<const Collision>() : std::span<const Collision>(base_collisions_),
               simulation.collisions(), base_platoons_, simulation.platoons(), data_);
  base_collisions_.assign(simulation.collisions().begin(), simulation.collisions().end());
  base_platoons_.assign(simulation.platoons().begin(), simulation.platoons().end());
  // The frame just recorded becomes what the next is compared with; paths are copied (and
  // their digests for the state hash made) only when they changed.
  before_ = positions(base_);
  const std::size_t had = base_.size();
  base_.resize(slots.size());
  digests_.resize(slots.size(), path_digest({}));
  base_revisions_.resize(slots.size(), kUnknownRevision);
  for (std::size_t i = had; i < slots.size(); ++i) base_[i].id.index = static_cast<std::uint32_t>(i);
  for (std::size_t i = 0; i < slots.size(); ++i) {
    const std::uint64_t revision = slots[i].route.path.revision();
    if (path_changed_[i]) digests_[i] = path_digest(slots[i].route.path);
    // The same points under a new revision are taken too, once, so that the next step
    // knows them by revision.
    if (path_changed_[i] || base_revisions_[i] != revision || !same_units || !(base_[i].id == slots[i].id))
      base_[i].route.path = slots[i].route.path;
    project_but_path(slots[i], base_[i]);
    base_revisions_[i] = revision;
  }
  base_restores_ = simulation.restores();
  hashes_.push_back(hash_version_ == 1 ? state_hash_v1(step, slots, digests_)
                                       : state_hash(step, slots, digests_));
  if (first || simulation.time() - last_snapshot_time_ >= limits_.snapshot_seconds - 1e-9)
    take_snapshot(simulation, first);
  if (bytes() > limits_.max_bytes) {
    stop(
        fmt("recording stopped at step %llu (%.2f s): it reached its memory cap of %zu MB; the run goes on "
            "unrecorded",
            static_cast<unsigned long long>(step), simulation.time(), limits_.max_bytes >> 20));
  }
  return !stopped();
}

void Recording::take_snapshot(const Simulation& simulation, bool new_world) {
  if (new_world || worlds_.empty()) {
    Scenario world = saved_game(simulation);
    world.sim_state.clear();
    worlds_.push_back(scenario_to_json(world));
  }
  Snapshot s{simulation.step_count(), worlds_.size() - 1, simulation.state_json()};
  if (!snapshots_.empty() && snapshots_.back().step == s.step) {
    snapshots_.back() = std::move(s);
  } else {
    snapshots_.push_back(std::move(s));
  }
  last_snapshot_time_ = simulation.time();
}

void Recording::world_changed(const Simulation& simulation) {
  ++revision_;
  if (empty() || !live_ || stopped() || simulation.step_count() != last_step()) return;
  take_snapshot(simulation, true);
}

std::uint64_t Recording::hash_of(std::uint64_t step, std::span<const SimUnit> units) const {
  return hash_version_ == 1 ? state_hash_v1(step, units, {}) : state_hash(step, units);
}

bool Recording::matches(const Simulation& simulation) const {
  const std::uint64_t step = simulation.step_count();
  return has(step) && hash_of(step, simulation.slots()) == hash(step);
}

}  // namespace pathscope::sim
