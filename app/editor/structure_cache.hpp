#pragma once

// The planner's structure overlay (layers planner_cells, planner_edges, planner_aux and a
// picked node's links) kept as a draw list between frames, as the map images are: painted
// for a region larger than the view, and painted again only when what it shows changes
// (the world, the planner or its search, the layers, the picked node) or the view leaves
// that region or zooms past its level of detail. Stepping through a search, playing it
// and panning a little reuse the list. No window code.

#include <cmath>
#include <cstdint>
#include <functional>

#include "planner/core/types.hpp"
#include "render/core/draw_list.hpp"

namespace pathscope::app {

/// What the structure overlay's drawing depends on, apart from the view.
struct StructureKey {
  std::uint64_t doc_serial = 0;     ///< The document.
  std::uint64_t revision = 0;       ///< Its revision (the world).
  std::uint64_t trace_version = 0;  ///< The traced planner and its search.
  std::uint64_t layers = 0;         ///< render::LayerSet::bits().
  long long picked = -1;            ///< The picked node, -1: none.
  friend bool operator==(const StructureKey&, const StructureKey&) = default;
};

/// The structure overlay's draw list and the key and region it was painted for.
class StructureCache {
 public:
  /// The painted region is the view grown by this share of its size on every side.
  static constexpr double kMargin = 0.5;
  /// Zooming in or out by more than this factor paints again (another level of detail).
  static constexpr double kZoomRange = 2.0;

  /// Paints with `paint(region, list)` when `key` differs from the last one, `view`
  /// leaves the last region, or the view's size differs from the last by more than
  /// kZoomRange; otherwise keeps the list. Returns true when it painted.
  bool update(const StructureKey& key, const Box2& view,
              const std::function<void(const Box2& region, render::DrawList& out)>& paint) {
    if (painted_ && key == key_ && covers(view)) return false;
    key_ = key;
    view_size_ = view.size();
    const Vec2 grow = view_size_ * kMargin;
    region_ = view.empty() ? view : Box2{view.lo - grow, view.hi + grow};
    list_.clear();
    paint(region_, list_);
    painted_ = true;
    ++paints_;
    return true;
  }
  /// The overlay to draw.
  const render::DrawList& list() const { return list_; }
  /// The world box it was painted for.
  const Box2& region() const { return region_; }
  /// How many times update() painted.
  std::uint64_t paints() const { return paints_; }
  /// Forgets the list: the next update() paints.
  void clear() {
    list_.clear();
    painted_ = false;
  }

 private:
  bool covers(const Box2& view) const {
    if (view.empty() || region_.empty()) return view.empty() && region_.empty();
    const Vec2 s = view.size();
    const auto near = [](double a, double b) { return a <= b * kZoomRange && b <= a * kZoomRange; };
    return view.lo.x >= region_.lo.x && view.lo.y >= region_.lo.y && view.hi.x <= region_.hi.x &&
           view.hi.y <= region_.hi.y && near(s.x, view_size_.x) && near(s.y, view_size_.y);
  }

  StructureKey key_;
  Box2 region_;
  Vec2 view_size_{0, 0};
  render::DrawList list_;
  bool painted_ = false;
  std::uint64_t paints_ = 0;
};

}  // namespace pathscope::app
