#pragma once

// What every planner keeps whatever its search: the registry name it reports, the result
// of the current query, the attached observer, and the two things each does with them:
// send a trace event and end a query that cannot go on.

#include <string>
#include <string_view>
#include <utility>

#include "planner/core/search.hpp"

namespace pathscope {

/// Base of the planners: name(), result() and set_observer() of the Planner interface,
/// and the members behind them. A family derives from it and implements the search.
class PlannerBase : public Planner {
 public:
  std::string_view name() const override { return name_; }
  const PathResult& result() const override { return result_; }
  void set_observer(SearchObserver* observer) override { observer_ = observer; }

 protected:
  /// `name` is the registry name the planner reports.
  explicit PlannerBase(std::string name) : name_(std::move(name)) {}

  /// Sends a trace event to the observer, which must be attached (test observer_ first:
  /// with none, a search pays one branch and builds no event). g and h as the family
  /// reports them (metres).
  void emit(SearchEventKind kind, int side, NodeId node, NodeId parent, double g, double h) const {
    observer_->on_event(SearchEvent{kind, std::uint8_t(side), node, parent, g, h});
  }
  /// Ends the current query with `status` (NoPath or Invalid) and says why; returns `status`.
  SearchStatus fail(SearchStatus status, std::string message) {
    result_.status = status;
    result_.message = std::move(message);
    return status;
  }

  std::string name_;
  PathResult result_;
  SearchObserver* observer_ = nullptr;
};

}  // namespace pathscope
