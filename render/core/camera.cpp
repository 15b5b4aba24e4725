#include "render/core/camera.hpp"

#include <glm/common.hpp>

#include <algorithm>

namespace pathscope::render {

Camera::Camera(Vec2 center, double pixels_per_metre) : center_(center) { set_zoom(pixels_per_metre); }

void Camera::set_viewport(Vec2 origin, Vec2 size) {
  origin_ = origin;
  size_ = glm::max(size, Vec2(1, 1));
}

void Camera::set_zoom(double pixels_per_metre) {
  // NaN compares false everywhere; keep the old zoom then.
  if (!(pixels_per_metre > 0)) return;
  zoom_ = std::clamp(pixels_per_metre, kMinZoom, kMaxZoom);
}

void Camera::pan_pixels(Vec2 delta) { center_ -= delta / zoom_; }

void Camera::zoom_at(Vec2 screen, double factor) {
  const Vec2 anchor = to_world(screen);
  set_zoom(zoom_ * factor);
  // Solve to_screen(anchor) == screen for the centre.
  center_ = anchor - (screen - origin_ - size_ * 0.5) / zoom_;
}

void Camera::fit(Vec2 world_min, Vec2 world_max, double margin_px) {
  const Vec2 extent = glm::max(world_max - world_min, Vec2(1e-9, 1e-9));
  const Vec2 room = glm::max(size_ - 2.0 * margin_px, Vec2(1, 1));
  set_zoom(std::min(room.x / extent.x, room.y / extent.y));
  center_ = (world_min + world_max) * 0.5;
}

}  // namespace pathscope::render
