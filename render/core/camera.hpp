#pragma once

// The view: which world point is at the centre of the viewport and how many pixels a
// metre covers. World y grows downwards like screen y, so the mapping is a scale and a
// translation with no flip.

#include "planner/scenario/scenario.hpp"

namespace pathscope::render {

/// A 2D camera over a viewport of the screen (pixels, or ImGui points).
class Camera {
 public:
  /// Smallest and largest zoom, pixels per metre.
  static constexpr double kMinZoom = 1.0e-4;
  static constexpr double kMaxZoom = 1.0e4;

  Camera() = default;
  /// A camera looking at `center` with `pixels_per_metre` (clamped to the zoom range).
  Camera(Vec2 center, double pixels_per_metre);

  Vec2 center() const { return center_; }           ///< World point at the viewport centre.
  double zoom() const { return zoom_; }             ///< Pixels per metre.
  Vec2 viewport_origin() const { return origin_; }  ///< Screen position of the viewport's top-left.
  Vec2 viewport_size() const { return size_; }      ///< Pixels.

  /// Places the viewport on the screen (size clamped to at least 1 x 1 pixel).
  void set_viewport(Vec2 origin, Vec2 size);
  /// Moves the view so that `center` is in the middle.
  void set_center(Vec2 center) { center_ = center; }
  /// Sets the zoom (clamped), keeping the centre.
  void set_zoom(double pixels_per_metre);

  /// World point -> screen point.
  Vec2 to_screen(Vec2 world) const { return origin_ + size_ * 0.5 + (world - center_) * zoom_; }
  /// Screen point -> world point.
  Vec2 to_world(Vec2 screen) const { return center_ + (screen - origin_ - size_ * 0.5) / zoom_; }

  /// Drags the view by a screen delta in pixels (the world follows the mouse).
  void pan_pixels(Vec2 delta);
  /// Multiplies the zoom by `factor`, keeping the world point under `screen` still.
  void zoom_at(Vec2 screen, double factor);
  /// Centres [world_min, world_max] and zooms so that it fits with `margin_px` free on
  /// every side.
  void fit(Vec2 world_min, Vec2 world_max, double margin_px = 16);

  /// World rectangle visible in the viewport.
  Vec2 visible_min() const { return to_world(origin_); }
  Vec2 visible_max() const { return to_world(origin_ + size_); }

 private:
  Vec2 center_{0, 0};
  double zoom_ = 1;
  Vec2 origin_{0, 0};
  Vec2 size_{1, 1};
};

}  // namespace pathscope::render
