#pragma once

// A unit's path, with a revision that every change bumps: an observer that kept what it
// made of a path (the stuck detector's segment lengths, a recording's last frame) learns
// that the path is the same by comparing two numbers, not every point (grid paths carry a
// point per cell: hundreds per unit). A copy keeps the revision: two copies with the same
// unit id and revision hold the same points (Simulation::restores() says when a saved
// state replaced the units wholesale, which breaks that).

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <vector>

#include "planner/core/types.hpp"

namespace pathscope::sim {

class UnitPath {
 public:
  using const_iterator = std::vector<Vec2>::const_iterator;

  UnitPath() = default;
  UnitPath(std::initializer_list<Vec2> points) : points_(points) {}
  explicit UnitPath(std::vector<Vec2> points) : points_(std::move(points)) {}

  UnitPath& operator=(std::vector<Vec2> points) {
    points_ = std::move(points);
    ++revision_;
    return *this;
  }
  UnitPath& operator=(std::initializer_list<Vec2> points) {
    points_.assign(points);
    ++revision_;
    return *this;
  }
  void clear() {
    points_.clear();
    ++revision_;
  }
  const_iterator insert(const_iterator at, Vec2 point) {
    ++revision_;
    return points_.insert(at, point);
  }
  const_iterator erase(const_iterator first, const_iterator last) {
    ++revision_;
    return points_.erase(first, last);
  }

  const std::vector<Vec2>& points() const { return points_; }
  operator const std::vector<Vec2>&() const { return points_; }  // NOLINT: reads as the points
  std::size_t size() const { return points_.size(); }
  bool empty() const { return points_.empty(); }
  const Vec2& operator[](std::size_t i) const { return points_[i]; }
  const Vec2& front() const { return points_.front(); }
  const Vec2& back() const { return points_.back(); }
  const Vec2* data() const { return points_.data(); }
  const_iterator begin() const { return points_.begin(); }
  const_iterator end() const { return points_.end(); }

  /// Changes with every change of the points (not compared by ==).
  std::uint64_t revision() const { return revision_; }

  /// The same points, bit for bit as floating-point values compare.
  friend bool operator==(const UnitPath& a, const UnitPath& b) { return a.points_ == b.points_; }
  friend bool operator==(const UnitPath& a, const std::vector<Vec2>& b) { return a.points_ == b; }

 private:
  std::vector<Vec2> points_;
  std::uint64_t revision_ = 0;
};

}  // namespace pathscope::sim
