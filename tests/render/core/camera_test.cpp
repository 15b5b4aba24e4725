#include "render/core/camera.hpp"

#include <doctest/doctest.h>

using namespace pathscope;
using namespace pathscope::render;

TEST_SUITE("render") {
  TEST_CASE("camera maps world to screen and back") {
    Camera cam({50, 40}, 4);
    cam.set_viewport({10, 20}, {800, 600});
    CHECK(cam.to_screen({50, 40}) == Vec2(410, 320));  // The centre is mid-viewport.
    CHECK(cam.to_screen({51, 41}) == Vec2(414, 324));  // y down in both spaces.
    const Vec2 p{12.5, -3.25};
    CHECK(cam.to_world(cam.to_screen(p)).x == doctest::Approx(p.x));
    CHECK(cam.to_world(cam.to_screen(p)).y == doctest::Approx(p.y));
  }

  TEST_CASE("zooming at the cursor keeps the world point under it") {
    Camera cam({0, 0}, 2);
    cam.set_viewport({0, 0}, {640, 480});
    const Vec2 cursor{100, 50};
    const Vec2 before = cam.to_world(cursor);
    cam.zoom_at(cursor, 1.5);
    CHECK(cam.zoom() == doctest::Approx(3));
    CHECK(cam.to_world(cursor).x == doctest::Approx(before.x));
    CHECK(cam.to_world(cursor).y == doctest::Approx(before.y));
    cam.zoom_at(cursor, 1e30);  // Clamped.
    CHECK(cam.zoom() == Camera::kMaxZoom);
    cam.set_zoom(0);  // Ignored.
    CHECK(cam.zoom() == Camera::kMaxZoom);
  }

  TEST_CASE("panning moves the world with the mouse, fit shows the whole rectangle") {
    Camera cam({0, 0}, 2);
    cam.set_viewport({0, 0}, {400, 300});
    const Vec2 under = cam.to_world({200, 150});
    cam.pan_pixels({20, -10});
    CHECK(cam.to_screen(under) == Vec2(220, 140));

    cam.fit({0, 0}, {128, 96}, 10);
    CHECK(cam.center() == Vec2(64, 48));
    CHECK(cam.zoom() == doctest::Approx(280.0 / 96.0));  // Height is the tighter side.
    CHECK(cam.visible_min().y == doctest::Approx(-10 / cam.zoom()));
  }
}
