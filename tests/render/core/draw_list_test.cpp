#include "render/core/draw_list.hpp"

#include "planner/core/geometry.hpp"
#include "render/core/triangulate.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <vector>

using namespace pathscope;
using namespace pathscope::render;

namespace {

// Sum of the triangles' areas.
double triangles_area(const std::vector<Vec2>& pts, const std::vector<std::uint32_t>& tri) {
  double sum = 0;
  for (std::size_t k = 0; k + 2 < tri.size(); k += 3)
    sum += std::abs(cross(pts[tri[k]], pts[tri[k + 1]], pts[tri[k + 2]]));
  return sum / 2;
}

}  // namespace

TEST_SUITE("render") {
  TEST_CASE("layer names round-trip in drawing order") {
    const auto layers = all_layers();
    REQUIRE(layers.size() == kLayerCount);
    for (std::size_t i = 0; i < layers.size(); ++i) {
      CHECK(static_cast<std::size_t>(layers[i]) == i);
      CHECK(layer_from_string(to_string(layers[i])) == layers[i]);
    }
    CHECK(std::string(to_string(Layer::PartialPath)) == "partial_path");
    CHECK(std::string(to_string(Layer::CostHeat)) == "cost_heat");
    CHECK_FALSE(layer_from_string("Tiles").has_value());
    CHECK_FALSE(layer_from_string("").has_value());
  }

  TEST_CASE("primitives are kept per layer, in insertion order, and counted by kind") {
    DrawList list;
    CHECK(list.empty());
    list.line(Layer::Roads, {1, 2, 3, 4}, {0, 0}, {1, 1}, 2);
    list.polyline(Layer::Path, {}, {{0, 0}, {1, 0}, {1, 1}}, false, 3);
    list.polyline(Layer::Path, {}, {{0, 0}}, false);      // Fewer than 2 points: ignored.
    list.polygon(Layer::Features, {}, {{0, 0}, {1, 0}});  // Fewer than 3 points: ignored.
    list.polygon(Layer::Features, {}, {{0, 0}, {2, 0}, {2, 2}, {0, 2}});
    list.circle(Layer::Units, {}, {5, 5}, 0.5, true, 1, 4);
    list.rect(Layer::Closed, {}, {3, 4}, {1, 2}, true);
    list.text(Layer::Labels, {}, {1, 1}, "fort", TextAlign::Center);

    CHECK(list.size() == 6);
    CHECK(list.count(Layer::Path) == 1);
    CHECK(list.count(Layer::Path, PrimitiveKind::Polyline) == 1);
    CHECK(list.count(Layer::Features, PrimitiveKind::Polygon) == 1);
    CHECK(list.count(PrimitiveKind::Line) == 1);
    CHECK(list.count(Layer::Tiles) == 0);

    const auto& line = std::get<LinePrim>(list.layer(Layer::Roads).front().shape);
    CHECK(line.thickness == 2);
    CHECK(list.layer(Layer::Roads).front().color == Color{1, 2, 3, 4});
    const auto rects = list.find(Layer::Closed, PrimitiveKind::Rect);
    REQUIRE(rects.size() == 1);
    const auto& r = std::get<RectPrim>(rects[0]->shape);
    CHECK(r.min == Vec2(1, 2));  // Corners are normalised.
    CHECK(r.max == Vec2(3, 4));
    CHECK(list.summary() ==
          "features: 1 polygon\nroads: 1 line\nclosed: 1 rect\npath: 1 polyline\nunits: 1 circle\nlabels: 1 "
          "text\n");

    list.clear();
    CHECK(list.empty());
  }

  TEST_CASE("image primitives get a content version that changes with the pixels") {
    DrawList list;
    ImagePrim img;
    img.key = "tiles";
    img.width = 2;
    img.height = 1;
    img.rgba = {1, 2, 3, 255, 4, 5, 6, 255};
    img.max = {2, 1};
    list.image(Layer::Tiles, {255, 255, 255, 255}, img);
    img.rgba[0] = 9;
    list.image(Layer::Tiles, {255, 255, 255, 255}, img);
    img.version = 42;  // An explicit version is kept.
    list.image(Layer::Tiles, {255, 255, 255, 255}, img);
    const auto images = list.find(Layer::Tiles, PrimitiveKind::Image);
    REQUIRE(images.size() == 3);
    const auto v0 = std::get<ImagePrim>(images[0]->shape).version;
    const auto v1 = std::get<ImagePrim>(images[1]->shape).version;
    CHECK(v0 != 0);
    CHECK(v1 != 0);
    CHECK(v0 != v1);
    CHECK(std::get<ImagePrim>(images[2]->shape).version == 42);
  }

  TEST_CASE("polygons are triangulated when added: convex, concave, either winding") {
    const std::vector<Vec2> square = {{0, 0}, {2, 0}, {2, 2}, {0, 2}};
    const std::vector<Vec2> l_shape = {{0, 0}, {4, 0}, {4, 1}, {1, 1}, {1, 3}, {0, 3}};
    const std::vector<Vec2> l_reversed(l_shape.rbegin(), l_shape.rend());
    // A U with a collinear point on its base.
    const std::vector<Vec2> u_shape = {{0, 0}, {1.5, 0}, {3, 0}, {3, 3}, {2, 3},
                                       {2, 1}, {1, 1},   {1, 3}, {0, 3}};

    for (const auto* poly : {&square, &l_shape, &l_reversed, &u_shape}) {
      const auto tri = triangulate_polygon(*poly);
      CAPTURE(poly->size());
      CHECK(tri.size() % 3 == 0);
      CHECK(triangles_area(*poly, tri) == doctest::Approx(polygon_area(*poly)));
    }
    CHECK(triangulate_polygon(square).size() == 6);
    CHECK(triangulate_polygon(l_shape).size() == 12);

    DrawList list;
    list.polygon(Layer::Features, {}, l_shape);
    const auto& p = std::get<PolygonPrim>(list.layer(Layer::Features).front().shape);
    CHECK(p.points == l_shape);
    CHECK(p.triangles.size() == 12);
  }

  TEST_CASE("degenerate and self-intersecting polygons give no triangles") {
    CHECK(triangulate_polygon(std::vector<Vec2>{{0, 0}, {1, 1}}).empty());
    CHECK(triangulate_polygon(std::vector<Vec2>{{0, 0}, {1, 1}, {2, 2}}).empty());  // Zero area.
    // A bow tie: its signed area is 0, so nothing to fill.
    CHECK(triangulate_polygon(std::vector<Vec2>{{0, 0}, {2, 2}, {2, 0}, {0, 2}}).empty());
    // A self-crossing pentagram has no valid ear clipping either way; it must not hang.
    const std::vector<Vec2> star = {{0, 3}, {2, -3}, {-3, 1}, {3, 1}, {-2, -3}};
    const auto tri = triangulate_polygon(star);
    CHECK(tri.size() % 3 == 0);
  }
}
