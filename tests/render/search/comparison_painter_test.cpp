// The planner comparison's paths: one polyline per path in its colour on compared_paths;
// a highlighted one drawn last, wider, opaque and labelled, the others dimmed.

#include "render/search/comparison_painter.hpp"

#include <doctest/doctest.h>

#include <vector>

using namespace pathscope;
using namespace pathscope::render;

TEST_SUITE("render") {
  TEST_CASE("compared paths: each in its colour, the highlighted one last, wide, opaque and labelled") {
    const std::vector<Vec2> a{{0, 0}, {5, 0}, {5, 5}};
    const std::vector<Vec2> b{{1, 1}, {9, 9}};
    const std::vector<Vec2> none;
    const Color red{255, 0, 0, 230}, blue{0, 0, 255, 230}, green{0, 255, 0, 230};
    const std::vector<ComparedPath> paths{{a, red, "astar"}, {none, green, "jps"}, {b, blue, "hybrid"}};
    LayerSet layers = LayerSet::defaults();
    REQUIRE(layers.contains(Layer::ComparedPaths));

    DrawList all;
    paint_compared_paths(paths, std::nullopt, layers, all);
    auto lines = all.find(Layer::ComparedPaths, PrimitiveKind::Polyline);
    REQUIRE(lines.size() == 2);
    CHECK(lines[0]->color == red);
    CHECK(lines[1]->color == blue);
    CHECK(std::get<PolylinePrim>(lines[0]->shape).points == a);
    CHECK(std::get<PolylinePrim>(lines[1]->shape).thickness == kComparedPathWidth);
    CHECK(all.count(Layer::Labels) == 0);

    DrawList one;
    paint_compared_paths(paths, 0, layers, one);
    lines = one.find(Layer::ComparedPaths, PrimitiveKind::Polyline);
    REQUIRE(lines.size() == 2);
    CHECK(lines[0]->color == Color{0, 0, 255, kDimmedAlpha});
    CHECK(lines[1]->color == Color{255, 0, 0, 255});
    CHECK(std::get<PolylinePrim>(lines[1]->shape).points == a);
    CHECK(std::get<PolylinePrim>(lines[1]->shape).thickness == kHighlightedPathWidth);
    const auto labels = one.find(Layer::Labels, PrimitiveKind::Text);
    REQUIRE(labels.size() == 1);
    CHECK(std::get<TextPrim>(labels[0]->shape).text == "astar");

    // A highlighted row without a path dims nothing; without the layer nothing is drawn.
    DrawList empty_pick;
    paint_compared_paths(paths, 1, layers, empty_pick);
    for (const Primitive* p : empty_pick.find(Layer::ComparedPaths, PrimitiveKind::Polyline))
      CHECK(p->color.a == 230);
    layers.set(Layer::ComparedPaths, false);
    DrawList off;
    paint_compared_paths(paths, 0, layers, off);
    CHECK(off.empty());
    CHECK(Layer::Path < Layer::ComparedPaths);
  }
}  // TEST_SUITE
