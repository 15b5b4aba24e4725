// Recordings as a timeline: frames decoded at any step, the decisions of a unit, the stuck
// flags at a step, a run taken up again from the snapshot before a step, and recording
// taken up again after a step (truncate_after).

#include "planner/scenario/scenario_io.hpp"
#include "planner/sim/recording.hpp"
#include "planner/sim/recording_codec.hpp"

namespace pathscope::sim {

using namespace recording_detail;

std::vector<UnitId> Recording::stuck_at(std::uint64_t step) const {
  std::vector<UnitId> out;
  for (const RecordedStuck& r : stuck_) {
    if (r.step <= step && step < r.until) out.push_back(r.unit);
  }
  return out;
}

void Recording::truncate_after(std::uint64_t step) {
  if (empty() || step < first_step_) return;
  ++revision_;
  if (step < last_step()) {
    const std::size_t n = step - first_step_ + 1;
    data_.resize(offsets_[n]);
    offsets_.resize(n);
    hashes_.resize(n);
    std::erase_if(snapshots_, [&](const Snapshot& s) { return s.step > step; });
    std::erase_if(decisions_, [&](const Decision& d) { return d.step > step; });
    std::erase_if(stuck_, [&](const RecordedStuck& s) { return s.step > step; });
    for (RecordedStuck& s : stuck_) {
      if (s.until != RecordedStuck::kStillStuck && s.until > step) s.until = RecordedStuck::kStillStuck;
    }
    const std::size_t worlds = snapshots_.empty() ? 0 : snapshots_.back().world + 1;
    worlds_.resize(std::max<std::size_t>(worlds, 1));
  }
  // The detector starts afresh: flags still open end here (it flags them again if they
  // stay stuck).
  for (RecordedStuck& s : stuck_) {
    if (s.until == RecordedStuck::kStillStuck) s.until = step + 1;
  }
  // Take up recording from `step`: what capture() compares the next step with.
  stop_message_.clear();
  auto frame_then = frame(step);
  base_ = frame_then ? std::move(frame_then->units) : std::vector<SimUnit>{};
  digests_.resize(base_.size());
  for (std::size_t i = 0; i < base_.size(); ++i) digests_[i] = path_digest(base_[i].route.path);
  base_revisions_.assign(base_.size(), kUnknownRevision);
  before_.clear();
  if (step > first_step_ && (step - first_step_) % limits_.keyframe_interval >= 1) {
    if (auto earlier = frame(step - 1)) before_ = positions(earlier->units);
  }
  contacts_.clear();
  base_collisions_.clear();
  base_platoons_.clear();
  if (frame_then) {
    base_collisions_ = frame_then->collisions;
    base_platoons_ = frame_then->platoons;
    for (const Collision& c : frame_then->collisions) {
      contacts_.emplace(
          pair_key(c.a, c.b),
          static_cast<std::uint16_t>(static_cast<int>(c.rule) << 8 | static_cast<int>(c.state) << 2 |
                                     (c.hard ? 1 : 0) | (c.immediate ? 2 : 0)));
    }
  }
  avoiding_.assign(base_.size(), 0);
  pushing_.assign(base_.size(), 0);
  detector_ = std::make_unique<StuckDetector>(stuck_params(start_.sim));
  stuck_seen_ = 0;
  stuck_watched_from_ = stuck_.size();
  last_snapshot_time_ = snapshots_.empty() ? -1 : static_cast<double>(snapshots_.back().step) * dt();
  live_ = true;
}

std::string Recording::at(const std::string& field) const {
  return source_.empty() ? field : field.empty() ? source_ : source_ + ": " + field;
}

Status Recording::decode_next(std::size_t j, Frame& f, std::vector<Vec2>& before) const {
  const std::size_t key = j - j % limits_.keyframe_interval;
  const std::uint64_t begin = offsets_[j];
  const std::uint64_t end = j + 1 < offsets_.size() ? offsets_[j + 1] : data_.size();
  std::vector<Vec2> next_before = positions(f.units);
  const bool history = j - key >= 2;
  f.step = first_step_ + j;
  const auto damaged = [&](const std::string& why) {
    return make_error(
        ErrorCode::Parse,
        at(fmt("frames, bytes %llu to %llu", static_cast<unsigned long long>(begin),
               static_cast<unsigned long long>(end))),
        fmt("the frame of step %llu is damaged: ", static_cast<unsigned long long>(f.step)) + why);
  };
  if (!decode_frame(std::string_view(data_).substr(begin, end - begin), f.units,
                    history ? std::span<const Vec2>(before) : std::span<const Vec2>(), f.collisions,
                    f.platoons)) {
    return damaged("its bytes do not decode");
  }
  if (const std::string field = frame_value_error(f.units); !field.empty())
    return damaged(field + " is not a finite number");
  if (const std::string field = platoons_value_error(f.platoons); !field.empty())
    return damaged(field + " is not a finite number");
  before.swap(next_before);
  return Ok{};
}

Result<Frame> Recording::frame(std::uint64_t step) const {
  if (!has(step)) {
    return make_error(
        ErrorCode::Value, at("step"),
        empty()
            ? fmt("step %llu was not recorded: the recording is empty", static_cast<unsigned long long>(step))
            : fmt("step %llu was not recorded (steps %llu to %llu were)",
                  static_cast<unsigned long long>(step), static_cast<unsigned long long>(first_step_),
                  static_cast<unsigned long long>(last_step())));
  }
  const std::size_t i = step - first_step_;
  Frame f;
  std::vector<Vec2> before;
  for (std::size_t j = i - i % limits_.keyframe_interval; j <= i; ++j) {
    if (Status decoded = decode_next(j, f, before); !decoded) return decoded.error();
  }
  return f;
}

Status Recording::for_each_frame(const std::function<bool(const Frame&)>& visit) const {
  Frame f;
  std::vector<Vec2> before;
  for (std::size_t j = 0; j < offsets_.size(); ++j) {
    if (Status decoded = decode_next(j, f, before); !decoded) return decoded;
    if (!visit(f)) break;
  }
  return Ok{};
}

std::vector<std::size_t> Recording::decisions_of(UnitId unit) const {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < decisions_.size(); ++i) {
    if (decisions_[i].unit == unit) out.push_back(i);
  }
  return out;
}

const Snapshot* Recording::snapshot_before(std::uint64_t step) const {
  const Snapshot* best = nullptr;
  for (const Snapshot& s : snapshots_) {
    if (s.step <= step) best = &s;
  }
  return best;
}

Result<std::unique_ptr<Simulation>> Recording::resume(std::uint64_t step) const {
  if (!has(step)) return frame(step).error();
  const Snapshot* snap = snapshot_before(step);
  if (!snap || snap->world >= worlds_.size())
    return make_error(ErrorCode::Value, at("snapshots"),
                      fmt("no snapshot at or before step %llu", static_cast<unsigned long long>(step)));
  const std::size_t index = static_cast<std::size_t>(snap - snapshots_.data());
  const std::string where =
      fmt("snapshots[%zu] (step %llu)", index, static_cast<unsigned long long>(snap->step));
  auto world = parse_scenario(worlds_[snap->world], at(fmt("worlds[%zu]", snap->world)));
  if (!world) return world.error();
  world->sim_state.clear();
  auto simulation = std::make_unique<Simulation>(std::move(*world));
  if (Status restored = simulation->restore_state(snap->state); !restored.ok()) {
    Error e = restored.error();
    e.where = at(where + " " + e.where);
    return e;
  }
  // The state's own step must be the snapshot's: running on from an earlier one would
  // take as many steps as the state says, not as the recording holds.
  if (simulation->step_count() != snap->step) {
    return make_error(ErrorCode::Value, at(where + ".state"),
                      fmt("the state is at step %llu, not at the snapshot's step",
                          static_cast<unsigned long long>(simulation->step_count())));
  }
  while (simulation->step_count() < step) simulation->step();
  if (!matches(*simulation)) {
    return make_error(
        ErrorCode::Value, at("hashes"),
        fmt("running on from the snapshot of step %llu does not give the recorded state at step %llu "
            "(was the recording made by another version of Pathscope?)",
            static_cast<unsigned long long>(snap->step), static_cast<unsigned long long>(step)));
  }
  return simulation;
}

}  // namespace pathscope::sim
