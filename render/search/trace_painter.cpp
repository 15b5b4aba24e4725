// TracePainter: the search overlay of the debugger, drawn from a recorded trace.
//
// The node sets are kept as two RGBA buffers (closed, open) plus two flag bits per pixel
// and side, and composed into the one image that is drawn (open over closed). A trace is a list of events
// (push, relax, expand, path); the state after k expansions is the effect of the events before the (k+1)-th
// Expand event (search_trace.hpp), so moving the replay forward applies just the new events to the pixels,
// which is what playing does frame after frame. Seeking backwards clears the pixels and applies the events
// from the start again. Colours come from 256-entry tables normalised over the whole trace, so an event's
// colour never changes later.
//
// Grid planners map node ids straight to pixels (one pixel per cell). Other graphs bin
// node positions into an image of about one pixel per node extent when their nodes are
// small on screen, and are drawn as one square per touched node otherwise.

#include "render/search/trace_painter.hpp"

#include "render/core/color_ramp.hpp"
#include "render/search/structure_painter.hpp"

#include <glm/common.hpp>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <limits>

namespace pathscope::render {
namespace {

constexpr std::uint8_t kOpenBit[2] = {1, 2};
constexpr std::uint8_t kClosedBit[2] = {4, 8};
constexpr std::uint8_t kScannedBit = 16;
constexpr std::uint8_t kPrunedBit = 32;
constexpr int kMaxGraphImageSide = 2048;

// Image versions must never repeat for one key, even across painters that come and go
// (the adapter keeps textures by key): one process-wide counter hands them out.
std::uint64_t fresh_version() {
  static std::atomic<std::uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

std::uint32_t pack(Color c) {
  const std::uint8_t bytes[4] = {c.r, c.g, c.b, c.a};
  std::uint32_t v = 0;
  std::memcpy(&v, bytes, 4);
  return v;
}

Color unpack(std::uint32_t v) {
  std::uint8_t bytes[4];
  std::memcpy(bytes, &v, 4);
  return {bytes[0], bytes[1], bytes[2], bytes[3]};
}

std::uint8_t ramp_index(double t) {
  if (!(t > 0)) return 0;
  if (t >= 1) return 255;
  return static_cast<std::uint8_t>(std::lround(t * 255.0));
}

// Parent chain of `head` on `side`, as world points from the chain's root to the head.
std::vector<Vec2> chain_points(const TraceReplay& replay, std::uint8_t side, NodeId head,
                               const TraceGeometry& geometry, std::size_t limit) {
  std::vector<Vec2> points;
  for (const TraceNode* n = replay.find(side, head); n != nullptr;
       n = n->parent == kNoNode ? nullptr : replay.find(side, n->parent)) {
    points.push_back(geometry.position(n->node));
    if (points.size() > limit) break;  // a malformed trace must not loop forever
  }
  std::reverse(points.begin(), points.end());
  return points;
}

// A node drawn in its own shape: boxes and polygons as they are, points as squares of
// `extent` metres.
void node_shape(DrawList& out, Layer layer, Color color, const NodeGeometry& g, double extent, bool filled,
                float thickness) {
  if (g.shape == NodeShape::Polygon && g.polygon.size() >= 3) {
    std::vector<Vec2> points(g.polygon.begin(), g.polygon.end());
    if (filled) {
      out.polygon(layer, color, std::move(points));
    } else {
      out.polyline(layer, color, std::move(points), true, thickness);
    }
    return;
  }
  Box2 box = g.bounds;
  if (g.shape == NodeShape::Point || box.empty()) box = Box2::of(g.position).expanded(extent * 0.5);
  out.rect(layer, color, box.lo, box.hi, filled, thickness);
}

}  // namespace

TraceGeometry lattice_trace_geometry(const NodeLattice& lattice) {
  TraceGeometry g;
  const double s = lattice.cell_size;
  const int w = lattice.width;
  g.node = [s, w](NodeId n) {
    const double x = double(n % unsigned(w)), y = double(n / unsigned(w));
    return NodeGeometry{
        NodeShape::Box, {(x + 0.5) * s, (y + 0.5) * s}, Box2{{x * s, y * s}, {(x + 1) * s, (y + 1) * s}}, {}};
  };
  g.lattice = lattice;
  g.node_extent = s;
  g.bounds = Box2{{0, 0}, {lattice.width * s, lattice.height * s}};
  return g;
}

TraceGeometry planner_trace_geometry(const Planner& planner, const Box2& world) {
  if (const std::optional<NodeLattice> lattice = planner.node_lattice())
    return lattice_trace_geometry(*lattice);
  TraceGeometry g;
  g.node = [&planner](NodeId n) { return planner.node_geometry(n); };
  double smallest = std::numeric_limits<double>::infinity();
  Box2 bounds = world;
  for (NodeId n = 0; n < planner.node_count(); ++n) {
    const NodeGeometry ng = planner.node_geometry(n);
    bounds = bounds.united(ng.bounds).united(Box2::of(ng.position));
    if (ng.shape == NodeShape::Point) continue;
    const Vec2 size = ng.bounds.size();
    if (size.x > 0) smallest = std::min(smallest, size.x);
    if (size.y > 0) smallest = std::min(smallest, size.y);
  }
  const Vec2 size = bounds.size();
  const double fallback = std::max(std::max(size.x, size.y), 1e-9) / 512.0;
  g.node_extent = std::isfinite(smallest) ? smallest : fallback;
  g.bounds = bounds;
  return g;
}

void TracePainter::invalidate() {
  valid_ = false;
  trace_ = nullptr;
}

std::size_t TracePainter::memory_bytes() const {
  std::size_t n =
      flags_.capacity() + (closed_px_.capacity() + open_px_.capacity() + image_px_.capacity()) * 4;
  for (const auto& v : open_side_px_) n += v.capacity() * 4;
  return n;
}

std::uint32_t TracePainter::closed_color(std::uint8_t side, double g) const {
  const int s = side ? 1 : 0;
  return closed_lut_[s].rgba[ramp_index(g_max_[s] > 0 ? g / g_max_[s] : 0.0)];
}

std::uint32_t TracePainter::open_color(std::uint8_t side, double f) const {
  const int s = side ? 1 : 0;
  const double span = f_hi_[s] - f_lo_[s];
  return open_lut_[s].rgba[ramp_index(span > 0 ? (f - f_lo_[s]) / span : 0.0)];
}

void TracePainter::restart(const SearchTrace& trace, const TraceGeometry& geometry,
                           std::uint64_t trace_version) {
  trace_ = &trace;
  trace_version_ = trace_version;
  valid_ = true;

  // One pass over the whole trace for the colour ranges and the sides present.
  two_sided_ = false;
  for (int s = 0; s < 2; ++s) {
    g_max_[s] = 0;
    f_lo_[s] = std::numeric_limits<double>::infinity();
    f_hi_[s] = -std::numeric_limits<double>::infinity();
  }
  for (const SearchEvent& e : trace.events()) {
    const int s = e.side ? 1 : 0;
    if (s == 1) two_sided_ = true;
    if (e.kind == SearchEventKind::Expand) {
      g_max_[s] = std::max(g_max_[s], e.g);
    } else if (e.kind == SearchEventKind::Push || e.kind == SearchEventKind::Relax) {
      f_lo_[s] = std::min(f_lo_[s], e.g + e.h);
      f_hi_[s] = std::max(f_hi_[s], e.g + e.h);
    }
  }
  for (int s = 0; s < 2; ++s) {
    if (!(f_lo_[s] <= f_hi_[s])) f_lo_[s] = f_hi_[s] = 0;
    for (int i = 0; i < 256; ++i) {
      const double t = i / 255.0;
      closed_lut_[s].rgba[i] =
          pack(s == 0 ? mix(trace_palette::kClosedLow, trace_palette::kClosedHigh, t)
                      : mix(trace_palette::kClosedBackLow, trace_palette::kClosedBackHigh, t));
      open_lut_[s].rgba[i] = pack(s == 0 ? mix(trace_palette::kOpenLow, trace_palette::kOpenHigh, t)
                                         : mix(trace_palette::kOpenBackLow, trace_palette::kOpenBackHigh, t));
    }
  }

  // The image frame.
  if (geometry.lattice) {
    width_ = geometry.lattice->width;
    height_ = geometry.lattice->height;
    min_ = {0, 0};
    max_ = {width_ * geometry.lattice->cell_size, height_ * geometry.lattice->cell_size};
  } else {
    const Vec2 size = glm::max(geometry.bounds.size(), Vec2(1e-9, 1e-9));
    const double extent = geometry.node_extent > 0 ? geometry.node_extent : 1.0;
    width_ = std::clamp(static_cast<int>(std::ceil(size.x / extent)), 1, kMaxGraphImageSide);
    height_ = std::clamp(static_cast<int>(std::ceil(size.y / extent)), 1, kMaxGraphImageSide);
    min_ = geometry.bounds.lo;
    max_ = geometry.bounds.lo + size;
  }
  clear_pixels();
}

void TracePainter::clear_pixels() {
  const std::size_t n = static_cast<std::size_t>(width_) * static_cast<std::size_t>(height_);
  flags_.assign(n, 0);
  closed_px_.assign(n, 0);
  open_px_.assign(n, 0);
  image_px_.assign(n, 0);
  for (int s = 0; s < 2; ++s) {
    if (two_sided_) {
      open_side_px_[s].assign(n, 0);
    } else {
      open_side_px_[s].clear();
      open_side_px_[s].shrink_to_fit();
    }
  }
  applied_ = 0;
  step_ = 0;
  last_expanded_[0] = last_expanded_[1] = kNoNode;
  dirty_ = true;
}

void TracePainter::compose(std::size_t p) {
  const std::uint32_t open = show_open_ ? open_px_[p] : 0;
  if (open != 0) {
    image_px_[p] = open;
  } else if (!show_closed_) {
    image_px_[p] = 0;
  } else if (closed_px_[p] != 0) {
    image_px_[p] = closed_px_[p];
  } else {
    const std::uint8_t f = flags_[p];
    image_px_[p] = (f & kPrunedBit)    ? pack(trace_palette::kPruned)
                   : (f & kScannedBit) ? pack(trace_palette::kScanned)
                                       : 0;
  }
}

void TracePainter::set_shown(bool closed, bool open) {
  if (closed == show_closed_ && open == show_open_) return;
  show_closed_ = closed;
  show_open_ = open;
  for (std::size_t p = 0; p < image_px_.size(); ++p) compose(p);
  dirty_ = true;
}

std::int64_t TracePainter::pixel_of(NodeId node, const TraceGeometry& geometry) const {
  if (geometry.lattice) return node < flags_.size() ? std::int64_t(node) : -1;
  const Vec2 p = geometry.position(node);
  const Vec2 t = (p - min_) / (max_ - min_);
  if (!(t.x >= 0 && t.y >= 0 && t.x <= 1 && t.y <= 1)) return -1;
  const int x = std::min(width_ - 1, static_cast<int>(t.x * width_));
  const int y = std::min(height_ - 1, static_cast<int>(t.y * height_));
  return std::int64_t(y) * width_ + x;
}

void TracePainter::apply(const SearchEvent& e, const TraceGeometry& geometry) {
  const int s = e.side ? 1 : 0;
  if (e.kind == SearchEventKind::Expand) {
    ++step_;
    last_expanded_[s] = e.node;
  } else if (e.kind == SearchEventKind::Refine) {
    ++step_;
  }
  if (e.kind == SearchEventKind::Path || e.kind == SearchEventKind::Refine) return;
  if (e.kind == SearchEventKind::PassOver) {
    // The cells from the jump's origin (excluded) along its line to e.node (included).
    if (!geometry.lattice || e.parent >= flags_.size() || e.node >= flags_.size()) return;
    const int w = geometry.lattice->width;
    const int ax = int(e.parent % unsigned(w)), ay = int(e.parent / unsigned(w));
    const int bx = int(e.node % unsigned(w)), by = int(e.node / unsigned(w));
    const int dx = (bx > ax) - (bx < ax), dy = (by > ay) - (by < ay);
    if ((dx == 0 && dy == 0) || (dx != 0 && dy != 0 && std::abs(bx - ax) != std::abs(by - ay)) ||
        (dx == 0 && bx != ax) || (dy == 0 && by != ay)) {
      return;  // not a straight or diagonal line: nothing to draw
    }
    for (int x = ax, y = ay; x != bx || y != by;) {
      x += dx;
      y += dy;
      const std::size_t q = std::size_t(y) * std::size_t(w) + std::size_t(x);
      flags_[q] |= kScannedBit;
      compose(q);
    }
    dirty_ = true;
    return;
  }
  const std::int64_t p = pixel_of(e.node, geometry);
  if (p < 0) return;
  std::uint8_t& flags = flags_[std::size_t(p)];
  switch (e.kind) {
    case SearchEventKind::Push:
    case SearchEventKind::Relax: {
      // A node closed on this side stays closed, as TraceReplay counts it.
      if (flags & kClosedBit[s]) return;
      const std::uint32_t c = open_color(e.side, e.g + e.h);
      flags |= kOpenBit[s];
      open_px_[std::size_t(p)] = c;
      if (two_sided_) open_side_px_[s][std::size_t(p)] = c;
      break;
    }
    case SearchEventKind::Expand: {
      const int other = 1 - s;
      if (flags & kOpenBit[s]) {
        flags &= std::uint8_t(~kOpenBit[s]);
        // Still open on the other side: show that side's colour again.
        open_px_[std::size_t(p)] =
            (two_sided_ && (flags & kOpenBit[other])) ? open_side_px_[other][std::size_t(p)] : 0;
      }
      flags |= kClosedBit[s];
      closed_px_[std::size_t(p)] = closed_color(e.side, e.g);
      break;
    }
    case SearchEventKind::Prune:
      // Pruned nodes leave the open set; several nodes may share a graph pixel, so the
      // pixel keeps what it shows.
      if (geometry.lattice && (flags & kOpenBit[s])) {
        flags &= std::uint8_t(~kOpenBit[s]);
        open_px_[std::size_t(p)] =
            (two_sided_ && (flags & kOpenBit[1 - s])) ? open_side_px_[1 - s][std::size_t(p)] : 0;
      }
      if (geometry.lattice) flags |= kPrunedBit;
      break;
    case SearchEventKind::PassOver:
    case SearchEventKind::Refine:
    case SearchEventKind::Path: break;
  }
  compose(std::size_t(p));
  dirty_ = true;
}

void TracePainter::advance_to(const SearchTrace& trace, std::uint64_t step, const TraceGeometry& geometry) {
  step = std::min(step, trace.step_count());
  const std::size_t end = step < trace.step_count() ? trace.step_event(step) : trace.events().size();
  if (end < applied_) clear_pixels();
  const auto& events = trace.events();
  while (applied_ < end) apply(events[applied_++], geometry);
}

ImagePrim TracePainter::make_image(const std::string& key) const {
  const std::vector<std::uint32_t>& pixels = image_px_;
  ImagePrim img;
  img.key = key;
  img.version = version_;
  img.width = width_;
  img.height = height_;
  img.min = min_;
  img.max = max_;
  img.rgba.resize(pixels.size() * 4);
  if (!pixels.empty()) std::memcpy(img.rgba.data(), pixels.data(), pixels.size() * 4);
  return img;
}

void TracePainter::paint_graph_rects(const TraceReplay& replay, const TraceGeometry& geometry,
                                     const LayerSet& layers, DrawList& out) const {
  const bool closed = layers.contains(Layer::Closed), open = layers.contains(Layer::Open);
  if (!closed && !open) return;
  for (const TraceNode& n : replay.nodes()) {
    if (n.closed() && closed) {
      node_shape(out, Layer::Closed, unpack(closed_color(n.side, n.g)), geometry.node(n.node),
                 geometry.node_extent, true, 1);
    } else if (n.open() && open) {
      node_shape(out, Layer::Open, unpack(open_color(n.side, n.f())), geometry.node(n.node),
                 geometry.node_extent, true, 1);
    }
  }
}

void TracePainter::paint_current_jumps(const SearchTrace& trace, const TraceReplay& replay,
                                       const TraceGeometry& geometry, DrawList& out) const {
  // The events of the current step: from its Expand event to the next step's event.
  const std::uint64_t step = replay.step();
  if (step == 0 || step > trace.step_count()) return;
  const auto& events = trace.events();
  const std::size_t begin = trace.step_event(step - 1);
  const std::size_t end = step < trace.step_count() ? trace.step_event(step) : events.size();
  bool any_scan = false;
  for (std::size_t i = begin; i < end && !any_scan; ++i)
    any_scan = events[i].kind == SearchEventKind::PassOver;
  if (!any_scan) return;  // only planners that jump draw their jumps
  for (std::size_t i = begin + 1; i < end; ++i) {
    const SearchEvent& e = events[i];
    if (e.parent == kNoNode || e.node == kNoNode) continue;
    if (e.kind == SearchEventKind::PassOver) {
      out.line(Layer::Current, trace_palette::kScanLine, geometry.position(e.parent),
               geometry.position(e.node), 1);
    } else if (e.kind == SearchEventKind::Push || e.kind == SearchEventKind::Relax) {
      out.line(Layer::Current, trace_palette::kJumpLine, geometry.position(e.parent),
               geometry.position(e.node), 2);
    }
  }
}

void TracePainter::paint(const SearchTrace& trace, const TraceReplay& replay, const TraceGeometry& geometry,
                         const LayerSet& layers, DrawList& out, const TracePaintParams& params) {
  const bool grid = geometry.lattice.has_value();
  if (!valid_ || trace_ != &trace || trace_version_ != params.trace_version ||
      (grid && (width_ != geometry.lattice->width || height_ != geometry.lattice->height))) {
    restart(trace, geometry, params.trace_version);
  }
  advance_to(trace, replay.step(), geometry);

  // Node sets.
  const bool as_image = grid || geometry.node_extent * params.pixels_per_metre < kImageNodePixels;
  const bool closed = layers.contains(Layer::Closed), open = layers.contains(Layer::Open);
  if (as_image && (closed || open)) {
    set_shown(closed, open);
    if (dirty_) version_ = fresh_version();
    dirty_ = false;
    out.image(closed ? Layer::Closed : Layer::Open, Color{255, 255, 255, 255}, make_image(params.key));
  } else if (!as_image) {
    paint_graph_rects(replay, geometry, layers, out);
  }

  // The special nodes.
  const bool reached_path = !replay.path().empty();
  const std::size_t limit = trace.events().size();
  if (layers.contains(Layer::PartialPath) && !reached_path) {
    for (std::uint8_t side = 0; side < (two_sided_ ? 2 : 1); ++side) {
      if (last_expanded_[side] == kNoNode) continue;
      out.polyline(Layer::PartialPath,
                   side == 0 ? trace_palette::kPartialPath : trace_palette::kPartialPathBack,
                   chain_points(replay, side, last_expanded_[side], geometry, limit), false, 2);
    }
  }
  if (layers.contains(Layer::Current) && replay.current() != kNoNode) {
    const std::uint8_t side = replay.current_side() ? 1 : 0;
    const NodeId other = last_expanded_[1 - side];
    if (two_sided_ && other != kNoNode) {
      node_shape(out, Layer::Current, trace_palette::kCurrentOther, geometry.node(other),
                 geometry.node_extent, false, 1);
    }
    node_shape(out, Layer::Current, trace_palette::kCurrent, geometry.node(replay.current()),
               geometry.node_extent, false, 2);
    paint_current_jumps(trace, replay, geometry, out);
  }
  if (const Refinement* r = replay.refinement(); r != nullptr && !reached_path) {
    if (layers.contains(Layer::Refinement) && r->points.size() >= 2) {
      out.polyline(Layer::Refinement, trace_palette::kRefinement, r->points, false, 3);
    }
    // What the stage reasoned with at this step, each shape on its role's layer.
    const double arrow_metres =
        params.pixels_per_metre > 0 ? 9.0 / params.pixels_per_metre : geometry.node_extent;
    for (const RefinementShape& shape : r->shapes)
      paint_structure_shape(shape.view(), layers, out, arrow_metres);
    if (layers.contains(Layer::Labels) && !r->points.empty()) {
      out.text(Layer::Labels, trace_palette::kRefinement, r->points.front(), r->stage);
    }
  }
  if (layers.contains(Layer::Path) && reached_path) {
    std::vector<Vec2> points;
    if (!params.path_points.empty()) {
      points.assign(params.path_points.begin(), params.path_points.end());
    } else {
      for (const NodeId n : replay.path()) points.push_back(geometry.position(n));
    }
    out.polyline(Layer::Path, trace_palette::kPath, std::move(points), false, 3);
  }
}

}  // namespace pathscope::render
