#include "planner/core/search_trace.hpp"

#include <algorithm>

namespace pathscope {
namespace {
std::uint64_t key(std::uint8_t side, NodeId node) { return (std::uint64_t(side) << 32) | node; }
}  // namespace

void SearchTrace::on_start(const PathQuery& query) {
  query_ = query;
  events_.clear();
  step_index_.clear();
  expansions_ = 0;
  refinements_.clear();
}

void SearchTrace::on_event(const SearchEvent& event) {
  if (event.kind == SearchEventKind::Expand) {
    step_index_.push_back(events_.size());
    ++expansions_;
  }
  events_.push_back(event);
}

RefinementShape RefinementShape::of(const StructureShape& shape) {
  return RefinementShape{shape.kind,
                         shape.role,
                         std::string(shape.name),
                         std::vector<Vec2>(shape.points.begin(), shape.points.end()),
                         shape.radius,
                         shape.value};
}

StructureShape RefinementShape::view() const {
  return StructureShape{kind, name, points, radius, value, role};
}

void SearchTrace::on_refine(std::string_view stage, std::span<const Vec2> polyline,
                            std::span<const StructureShape> shapes) {
  step_index_.push_back(events_.size());
  SearchEvent e;
  e.kind = SearchEventKind::Refine;
  e.node = NodeId(refinements_.size());
  events_.push_back(e);
  Refinement r{std::string(stage), std::vector<Vec2>(polyline.begin(), polyline.end()), {}};
  r.shapes.reserve(shapes.size());
  for (const StructureShape& shape : shapes) r.shapes.push_back(RefinementShape::of(shape));
  refinements_.push_back(std::move(r));
}

std::size_t SearchTrace::memory_bytes() const {
  std::size_t bytes = events_.capacity() * sizeof(SearchEvent) + step_index_.capacity() * sizeof(std::size_t);
  for (const Refinement& r : refinements_) {
    bytes += sizeof(Refinement) + r.points.capacity() * sizeof(Vec2) +
             r.shapes.capacity() * sizeof(RefinementShape);
    for (const RefinementShape& shape : r.shapes) bytes += shape.points.capacity() * sizeof(Vec2);
  }
  return bytes;
}

TraceReplay::TraceReplay(const SearchTrace& trace) : trace_(trace) { reset(); }

void TraceReplay::reset() {
  step_ = 0;
  applied_ = 0;
  index_.clear();
  records_.clear();
  current_ = kNoNode;
  current_side_ = 0;
  path_.clear();
  undo_.clear();
  closed_undo_.clear();
  current_undo_.clear();
  pruned_undo_.clear();
  refinement_undo_.clear();
  refinement_ = kNoNode;
}

const Refinement* TraceReplay::refinement() const {
  return refinement_ == kNoNode ? nullptr : &trace_.refinements()[refinement_];
}

void TraceReplay::apply(const SearchEvent& e) {
  switch (e.kind) {
    case SearchEventKind::Push:
    case SearchEventKind::Relax: {
      auto [it, inserted] = index_.try_emplace(key(e.side, e.node), records_.size());
      if (inserted) {
        TraceNode n;
        n.node = e.node;
        n.side = e.side;
        n.opened_at = step_;
        records_.push_back(n);
      }
      TraceNode& n = records_[it->second];
      undo_.push_back(Undo{inserted, n.g, n.h, n.parent});
      n.g = e.g;
      n.h = e.h;
      n.parent = e.parent;
      break;
    }
    case SearchEventKind::Expand: {
      ++step_;
      auto it = index_.find(key(e.side, e.node));
      closed_undo_.push_back(it != index_.end() ? records_[it->second].closed_at : kNeverStep);
      if (it != index_.end()) records_[it->second].closed_at = step_;
      current_undo_.push_back(Current{current_, current_side_});
      current_ = e.node;
      current_side_ = e.side;
      break;
    }
    case SearchEventKind::Prune: {
      auto it = index_.find(key(e.side, e.node));
      pruned_undo_.push_back(it != index_.end() ? records_[it->second].pruned_at : kNeverStep);
      if (it != index_.end()) records_[it->second].pruned_at = step_;
      break;
    }
    case SearchEventKind::Refine:
      ++step_;
      refinement_undo_.push_back(refinement_);
      refinement_ = e.node;
      break;
    case SearchEventKind::Path: path_.push_back(e.node); break;
    case SearchEventKind::PassOver: break;  // changes no node's state
  }
}

void TraceReplay::unapply(const SearchEvent& e) {
  switch (e.kind) {
    case SearchEventKind::Push:
    case SearchEventKind::Relax: {
      const Undo u = undo_.back();
      undo_.pop_back();
      const auto it = index_.find(key(e.side, e.node));
      if (u.inserted) {  // records are appended in order, so it is the last one
        records_.pop_back();
        index_.erase(it);
      } else {
        TraceNode& n = records_[it->second];
        n.g = u.g;
        n.h = u.h;
        n.parent = u.parent;
      }
      break;
    }
    case SearchEventKind::Expand: {
      auto it = index_.find(key(e.side, e.node));
      if (it != index_.end()) records_[it->second].closed_at = closed_undo_.back();
      closed_undo_.pop_back();
      --step_;
      current_ = current_undo_.back().node;
      current_side_ = current_undo_.back().side;
      current_undo_.pop_back();
      break;
    }
    case SearchEventKind::Prune: {
      auto it = index_.find(key(e.side, e.node));
      if (it != index_.end()) records_[it->second].pruned_at = pruned_undo_.back();
      pruned_undo_.pop_back();
      break;
    }
    case SearchEventKind::Refine:
      --step_;
      refinement_ = refinement_undo_.back();
      refinement_undo_.pop_back();
      break;
    case SearchEventKind::Path: path_.pop_back(); break;
    case SearchEventKind::PassOver: break;
  }
}

void TraceReplay::seek(std::uint64_t step) {
  step = std::min(step, trace_.step_count());
  if (step < step_) {
    // Undo back to the target, unless replaying from the start applies fewer events.
    const std::size_t target = trace_.step_event(step);  // events kept: [0, target)
    const auto& events = trace_.events();
    if (applied_ - target > target) {
      reset();
    } else {
      while (applied_ > target) unapply(events[--applied_]);
      return;
    }
  }
  // Apply up to (not including) the event of step + 1, or everything at the end.
  const std::size_t end = step < trace_.step_count() ? trace_.step_event(step) : trace_.events().size();
  const auto& events = trace_.events();
  while (applied_ < end) apply(events[applied_++]);
}

std::vector<TraceNode> TraceReplay::nodes() const {
  std::vector<TraceNode> out = records_;
  std::sort(out.begin(), out.end(), [](const TraceNode& a, const TraceNode& b) {
    return a.side != b.side ? a.side < b.side : a.node < b.node;
  });
  return out;
}

const TraceNode* TraceReplay::find(std::uint8_t side, NodeId node) const {
  auto it = index_.find(key(side, node));
  return it == index_.end() ? nullptr : &records_[it->second];
}

std::vector<TraceNode> TraceReplay::open_nodes() const {
  std::vector<TraceNode> out;
  for (const TraceNode& n : records_) {
    if (n.open()) out.push_back(n);
  }
  std::sort(out.begin(), out.end(), [](const TraceNode& a, const TraceNode& b) {
    if (a.f() != b.f()) return a.f() < b.f();
    if (a.h != b.h) return a.h < b.h;
    if (a.node != b.node) return a.node < b.node;
    return a.side < b.side;
  });
  return out;
}

std::vector<NodeId> TraceReplay::partial_path() const {
  std::vector<NodeId> out;
  for (const TraceNode* n = current_ == kNoNode ? nullptr : find(current_side_, current_); n != nullptr;
       n = n->parent == kNoNode ? nullptr : find(current_side_, n->parent)) {
    out.push_back(n->node);
    if (out.size() > records_.size()) break;  // a malformed trace must not loop forever
  }
  std::reverse(out.begin(), out.end());
  return out;
}

}  // namespace pathscope
