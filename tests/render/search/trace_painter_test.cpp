// The trace painter: what each layer holds at a given replay step, the image cache and
// its versions, both sides of a bidirectional search, and large searches staying a few
// primitives.

#include "render/search/trace_painter.hpp"

#include "planner/core/planner_registry.hpp"
#include "planner/world/planning_world.hpp"
#include "tests/test_maps.hpp"

#include <doctest/doctest.h>

#include <memory>
#include <set>
#include <string>
#include <vector>

using namespace pathscope;
using namespace pathscope::render;

namespace {

Scenario painter_map() {
  return test::ascii_scenario({
      "....................",
      "....................",
      "........#...........",
      "...rr...#.....ss....",
      "...rr...#.....ss....",
      "........#...........",
      "........#...........",
      "....................",
  });
}

// A planner's search of one query, recorded.
struct Recorded {
  std::unique_ptr<PlanningWorld> world;
  std::unique_ptr<Planner> planner;
  SearchTrace trace;
  PathResult result;

  Recorded(Scenario s, const char* planner_name, Vec2 start, Vec2 goal)
      : world(std::make_unique<PlanningWorld>(std::move(s))) {
    const PlannerInfo* info = find_planner(planner_name);
    ParamValues values;
    for (const ParamSpec& p : info->params) values.push_back(p.default_value);
    planner = info->create(QueryContext{*world, 0, std::nullopt, values});
    planner->set_observer(&trace);
    result = find_path(*planner, PathQuery{start, goal});
    planner->set_observer(nullptr);
  }
};

const ImagePrim& image(const DrawList& out, Layer layer) {
  const auto found = out.find(layer, PrimitiveKind::Image);
  REQUIRE(found.size() == 1);
  return std::get<ImagePrim>(found.front()->shape);
}

Color pixel(const ImagePrim& img, std::size_t i) {
  return {img.rgba[i * 4], img.rgba[i * 4 + 1], img.rgba[i * 4 + 2], img.rgba[i * 4 + 3]};
}

// Pixels of the node-set image with the given alpha: closed colours all have
// kClosedLow.a, open ones kOpenLow.a.
std::size_t pixels_with_alpha(const ImagePrim& img, std::uint8_t alpha) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < img.rgba.size(); i += 4) n += img.rgba[i + 3] == alpha;
  return n;
}

std::size_t closed_pixels(const ImagePrim& img) {
  return pixels_with_alpha(img, trace_palette::kClosedLow.a);
}
std::size_t open_pixels(const ImagePrim& img) { return pixels_with_alpha(img, trace_palette::kOpenLow.a); }

struct Counts {
  std::size_t open = 0, closed = 0;
};

// Distinct cells open on some side, and cells closed on some side but open on none (an
// open pixel hides a closed one).
Counts replay_counts(const TraceReplay& replay) {
  std::set<NodeId> open, closed;
  for (const TraceNode& n : replay.nodes()) (n.closed() ? closed : open).insert(n.node);
  for (const NodeId n : open) closed.erase(n);
  return {open.size(), closed.size()};
}

DrawList paint_at(TracePainter& painter, const Recorded& r, TraceReplay& replay, std::uint64_t step,
                  const LayerSet& layers = LayerSet::all(), std::uint64_t version = 1) {
  replay.seek(step);
  DrawList out;
  TracePaintParams params;
  params.trace_version = version;
  params.pixels_per_metre = 10;
  params.path_points = r.result.points;
  const TraceGeometry geometry = planner_trace_geometry(*r.planner, Box2{});
  REQUIRE(geometry.lattice.has_value());  // grid planners declare their lattice
  painter.paint(r.trace, replay, geometry, layers, out, params);
  return out;
}

}  // namespace

TEST_SUITE("render") {
  TEST_CASE("trace painter: step 0, a middle step and the end") {
    const Scenario s = painter_map();
    const Recorded r(s, "astar", test::cell_center(s, 1, 4), test::cell_center(s, 18, 5));
    REQUIRE(r.result.status == SearchStatus::Found);
    const std::uint64_t total = r.trace.expansion_count();
    REQUIRE(total > 10);
    TraceReplay replay(r.trace);
    TracePainter painter;

    // Step 0: only the start is open; nothing closed, no current node, no paths.
    DrawList out = paint_at(painter, r, replay, 0);
    const ImagePrim& closed0 = image(out, Layer::Closed);
    CHECK(closed0.width == 20);
    CHECK(closed0.height == 8);
    CHECK(closed0.max == Vec2(20, 8));
    CHECK(closed_pixels(closed0) == 0);
    CHECK(open_pixels(image(out, Layer::Closed)) == 1);
    CHECK(out.count(Layer::Current) == 0);
    CHECK(out.count(Layer::PartialPath) == 0);
    CHECK(out.count(Layer::Path) == 0);

    // A middle step: one pixel per open and per closed node, the current node outlined and
    // its parent chain drawn.
    const std::uint64_t mid = total / 2;
    out = paint_at(painter, r, replay, mid);
    const Counts counts = replay_counts(replay);
    CHECK(closed_pixels(image(out, Layer::Closed)) == counts.closed);
    CHECK(open_pixels(image(out, Layer::Closed)) == counts.open);
    const auto current = out.find(Layer::Current, PrimitiveKind::Rect);
    REQUIRE(current.size() == 1);
    const RectPrim& rect = std::get<RectPrim>(current.front()->shape);
    CHECK_FALSE(rect.filled);
    CHECK((rect.min + rect.max) * 0.5 == r.world->grid(0).center(replay.current()));
    const auto partial = out.find(Layer::PartialPath, PrimitiveKind::Polyline);
    REQUIRE(partial.size() == 1);
    std::vector<Vec2> chain;
    for (const NodeId n : replay.partial_path()) chain.push_back(r.world->grid(0).center(n));
    CHECK(std::get<PolylinePrim>(partial.front()->shape).points == chain);
    CHECK(out.count(Layer::Path) == 0);
    // The start cell was closed first, at g = 0: the low end of the closed ramp.
    const NodeId start = *r.world->grid(0).cell_at(r.result.points.front());
    CHECK(pixel(image(out, Layer::Closed), start) == trace_palette::kClosedLow);

    // The end: the path, as the result's points; no partial path any more.
    out = paint_at(painter, r, replay, total);
    const auto path = out.find(Layer::Path, PrimitiveKind::Polyline);
    REQUIRE(path.size() == 1);
    CHECK(std::get<PolylinePrim>(path.front()->shape).points == r.result.points);
    CHECK(out.count(Layer::PartialPath) == 0);
    const Counts end_counts = replay_counts(replay);
    CHECK(end_counts.closed == total);
    CHECK(closed_pixels(image(out, Layer::Closed)) == end_counts.closed);
    CHECK(open_pixels(image(out, Layer::Closed)) == end_counts.open);

    // Back to the middle: the pixels are rebuilt and equal what they were.
    const DrawList again = paint_at(painter, r, replay, mid);
    CHECK(closed_pixels(image(again, Layer::Closed)) == counts.closed);
    CHECK(open_pixels(image(again, Layer::Closed)) == counts.open);

    // Another painter seeking straight to the middle draws the same pixels.
    TracePainter fresh;
    TraceReplay replay2(r.trace);
    const DrawList direct = paint_at(fresh, r, replay2, mid);
    CHECK(image(direct, Layer::Closed).rgba == image(again, Layer::Closed).rgba);
  }

  TEST_CASE("trace painter: image versions change only with the pixels, layers are filtered") {
    const Scenario s = painter_map();
    const Recorded r(s, "dijkstra", test::cell_center(s, 1, 1), test::cell_center(s, 18, 6));
    TraceReplay replay(r.trace);
    TracePainter painter;
    const DrawList a = paint_at(painter, r, replay, 5);
    const DrawList b = paint_at(painter, r, replay, 5);
    CHECK(a.count(PrimitiveKind::Image) == 1);  // both node sets in one image
    CHECK(image(a, Layer::Closed).key == "trace.nodes");
    CHECK(image(a, Layer::Closed).version == image(b, Layer::Closed).version);
    const DrawList c = paint_at(painter, r, replay, 6);
    CHECK(image(c, Layer::Closed).version != image(b, Layer::Closed).version);
    // A new recording (another version) starts from scratch.
    const DrawList d = paint_at(painter, r, replay, 6, LayerSet::all(), 2);
    CHECK(image(d, Layer::Closed).version != image(c, Layer::Closed).version);
    CHECK(image(d, Layer::Closed).rgba == image(c, Layer::Closed).rgba);

    // Only the open set shown: the image moves to the Open layer and holds no closed pixel.
    LayerSet only_open;
    only_open.set(Layer::Open);
    const DrawList f = paint_at(painter, r, replay, 6, only_open, 2);
    CHECK(f.count(Layer::Closed) == 0);
    CHECK(closed_pixels(image(f, Layer::Open)) == 0);
    CHECK(open_pixels(image(f, Layer::Open)) == open_pixels(image(d, Layer::Closed)));
    CHECK(image(f, Layer::Open).version != image(d, Layer::Closed).version);

    LayerSet only_path;
    only_path.set(Layer::Path);
    const DrawList e = paint_at(painter, r, replay, r.trace.expansion_count(), only_path);
    CHECK(e.count(PrimitiveKind::Image) == 0);
    CHECK(e.size() == 1);
    CHECK(e.count(Layer::Path) == 1);
    const DrawList none = paint_at(painter, r, replay, 3, LayerSet());
    CHECK(none.empty());
  }

  TEST_CASE("trace painter: both sides of a bidirectional search, side 1 in its own hue") {
    const Scenario s = painter_map();
    const Recorded r(s, "bidirectional", test::cell_center(s, 1, 4), test::cell_center(s, 18, 5));
    REQUIRE(r.result.status == SearchStatus::Found);
    TraceReplay replay(r.trace);
    TracePainter painter;
    const std::uint64_t mid = r.trace.expansion_count() / 2;
    const DrawList out = paint_at(painter, r, replay, mid);
    // One parent chain per side.
    CHECK(out.count(Layer::PartialPath, PrimitiveKind::Polyline) == 2);
    CHECK(out.count(Layer::Current, PrimitiveKind::Rect) == 2);

    const ImagePrim& closed = image(out, Layer::Closed);
    const Counts counts = replay_counts(replay);
    CHECK(closed_pixels(closed) == counts.closed);
    CHECK(open_pixels(image(out, Layer::Closed)) == counts.open);
    int forward = 0, backward = 0;
    for (const TraceNode& n : replay.nodes()) {
      if (!n.closed()) continue;
      // Touched by the other side too: open (drawn over) or closed by both (either colour).
      if (replay.find(std::uint8_t(1 - n.side), n.node)) continue;
      const Color c = pixel(closed, n.node);
      CHECK(c.a == trace_palette::kClosedLow.a);
      // Side 0 ramps blue (g > r), side 1 violet (r > g).
      if (n.side == 0) {
        CHECK(c.g > c.r);
        ++forward;
      } else {
        CHECK(c.r > c.g);
        ++backward;
      }
    }
    CHECK(forward > 0);
    CHECK(backward > 0);
  }

  TEST_CASE("trace painter: a large grid search is one image and a handful of primitives") {
    std::vector<std::string> rows(256, std::string(256, '.'));
    const Scenario s = test::ascii_scenario(rows);
    const Recorded r(s, "dijkstra", test::cell_center(s, 0, 0), test::cell_center(s, 255, 255));
    REQUIRE(r.trace.expansion_count() > 60000);
    TraceReplay replay(r.trace);
    TracePainter painter;
    for (const std::uint64_t step : {r.trace.expansion_count() / 2, r.trace.expansion_count()}) {
      const DrawList out = paint_at(painter, r, replay, step);
      CHECK(out.count(PrimitiveKind::Image) == 1);
      CHECK(out.size() <= 3);
      CHECK(closed_pixels(image(out, Layer::Closed)) == replay_counts(replay).closed);
    }
    CHECK(painter.memory_bytes() >= 256u * 256u * 13u);
  }

  TEST_CASE("trace painter: graph nodes are rects when large on screen, one image when small") {
    const Scenario s = painter_map();
    const Recorded r(s, "astar", test::cell_center(s, 1, 4), test::cell_center(s, 18, 5));
    TraceReplay replay(r.trace);
    replay.seek(r.trace.expansion_count() / 2);
    // The grid planner's cells seen as a graph of box nodes (no lattice): the general path.
    TraceGeometry geometry;
    geometry.node = [&](NodeId n) { return r.planner->node_geometry(n); };
    geometry.node_extent = 1.0;
    geometry.bounds = Box2{{0, 0}, {20, 8}};
    TracePainter painter;
    TracePaintParams params;
    params.trace_version = 1;

    params.pixels_per_metre = 20;  // nodes 20 px wide: one rect per node
    DrawList big;
    painter.paint(r.trace, replay, geometry, LayerSet::all(), big, params);
    const Counts counts = replay_counts(replay);
    CHECK(big.count(Layer::Closed, PrimitiveKind::Rect) == counts.closed);
    CHECK(big.count(Layer::Open, PrimitiveKind::Rect) == counts.open);
    CHECK(big.count(PrimitiveKind::Image) == 0);

    params.pixels_per_metre = 1;  // nodes 1 px wide: one image per set
    DrawList small;
    painter.paint(r.trace, replay, geometry, LayerSet::all(), small, params);
    CHECK(small.count(Layer::Closed, PrimitiveKind::Rect) == 0);
    CHECK(closed_pixels(image(small, Layer::Closed)) == counts.closed);
    CHECK(open_pixels(image(small, Layer::Closed)) == counts.open);
  }

  TEST_CASE("trace painter: a jump point search's scanned cells, pruned neighbours and jumps") {
    const Scenario s = test::ascii_scenario({
        "....................",
        "....................",
        "........#...........",
        "........#...........",
        "........#.......#...",
        "........#...........",
        "....................",
        "....................",
    });
    const Recorded r(s, "jps", test::cell_center(s, 1, 4), test::cell_center(s, 18, 5));
    REQUIRE(r.result.status == SearchStatus::Found);
    TraceReplay replay(r.trace);
    TracePainter painter;
    const auto count = [](const ImagePrim& img, Color c) {
      std::size_t n = 0;
      for (std::size_t i = 0; i * 4 < img.rgba.size(); ++i) {
        const Color p = pixel(img, i);
        n += p.r == c.r && p.g == c.g && p.b == c.b && p.a == c.a;
      }
      return n;
    };
    // After the first expansion (the start): its jumps scanned cells; nothing pruned.
    const DrawList first = paint_at(painter, r, replay, 1);
    CHECK(count(image(first, Layer::Closed), trace_palette::kScanned) > 0);
    CHECK(count(image(first, Layer::Closed), trace_palette::kPruned) == 0);
    // The current expansion's scans and jumps are lines on Current.
    std::size_t jump_lines = 0, scan_lines = 0;
    for (const Primitive* p : first.find(Layer::Current, PrimitiveKind::Line)) {
      jump_lines += p->color == trace_palette::kJumpLine;
      scan_lines += p->color == trace_palette::kScanLine;
    }
    CHECK(jump_lines > 0);
    CHECK(scan_lines > 0);
    // Later expansions prune neighbours; stepping back and forth gives the same image.
    const std::uint64_t total = r.trace.step_count();
    const DrawList end = paint_at(painter, r, replay, total);
    CHECK(count(image(end, Layer::Closed), trace_palette::kPruned) > 0);
    paint_at(painter, r, replay, 1);
    const DrawList again = paint_at(painter, r, replay, total);
    CHECK(image(again, Layer::Closed).rgba == image(end, Layer::Closed).rgba);
    // A planner without jumps draws no lines on Current.
    const Recorded a(s, "astar", test::cell_center(s, 1, 4), test::cell_center(s, 18, 5));
    TraceReplay ra(a.trace);
    TracePainter pa;
    CHECK(paint_at(pa, a, ra, 3).find(Layer::Current, PrimitiveKind::Line).empty());
  }

}  // TEST_SUITE
