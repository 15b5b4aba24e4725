// The other queries' paths: one polyline per path on layer all_paths, labelled at the
// goal end, nothing without the layer.

#include "render/search/query_paths_painter.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace pathscope;
using namespace pathscope::render;

TEST_SUITE("render") {
  TEST_CASE("query paths: one polyline per path of two points or more, labels on the labels layer") {
    const std::vector<Vec2> a{{0, 0}, {5, 0}, {5, 5}};
    const std::vector<Vec2> b{{1, 1}, {9, 9}};
    const std::vector<Vec2> lone{{3, 3}};
    const std::vector<QueryPath> paths{{a, "query 1"}, {lone, "query 2"}, {b, ""}};

    DrawList out;
    paint_query_paths(paths, LayerSet::all(), out);
    REQUIRE(out.count(Layer::AllPaths, PrimitiveKind::Polyline) == 2);
    CHECK(out.count(Layer::AllPaths) == 2);
    const auto lines = out.find(Layer::AllPaths, PrimitiveKind::Polyline);
    CHECK(std::get<PolylinePrim>(lines[0]->shape).points == a);
    CHECK(std::get<PolylinePrim>(lines[1]->shape).points == b);
    CHECK_FALSE(std::get<PolylinePrim>(lines[0]->shape).closed);
    CHECK(lines[0]->color == query_paths_palette::kPath);
    const auto labels = out.find(Layer::Labels, PrimitiveKind::Text);
    REQUIRE(labels.size() == 1);
    CHECK(std::get<TextPrim>(labels[0]->shape).text == "query 1");
    CHECK(std::get<TextPrim>(labels[0]->shape).anchor == a.back());

    LayerSet no_labels = LayerSet::all();
    no_labels.set(Layer::Labels, false);
    out.clear();
    paint_query_paths(paths, no_labels, out);
    CHECK(out.count(Layer::AllPaths) == 2);
    CHECK(out.count(Layer::Labels) == 0);

    LayerSet off = LayerSet::all();
    off.set(Layer::AllPaths, false);
    out.clear();
    paint_query_paths(paths, off, out);
    CHECK(out.empty());
  }

  TEST_CASE("all_paths is a search layer, drawn below the active path and off by default") {
    CHECK(std::string(to_string(Layer::AllPaths)) == "all_paths");
    CHECK(layer_from_string("all_paths") == Layer::AllPaths);
    CHECK(Layer::AllPaths < Layer::Path);
    CHECK_FALSE(LayerSet::defaults().contains(Layer::AllPaths));
    CHECK(LayerSet::all().contains(Layer::AllPaths));
    // The debugger paints it with the search, not the map painter.
    CHECK_FALSE(map_layers(LayerSet::all(), false).contains(Layer::AllPaths));
    CHECK_FALSE(map_layers(LayerSet::all(), true).contains(Layer::AllPaths));
  }
}  // TEST_SUITE
