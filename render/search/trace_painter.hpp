#pragma once

// Paints a recorded search (a SearchTrace replayed to some step by a TraceReplay) into a
// DrawList: closed nodes coloured by g, open nodes coloured by f, the node expanded last,
// the best partial path and, once reached, the final path. The map itself is drawn by
// paint_world() (scene_painter.hpp). No window code.
//
// Node sets can hold a million nodes, so they are painted as ONE image (one pixel per
// grid cell, open over closed), kept between frames and updated incrementally from the
// trace events as the replay moves forward; only the few special nodes are primitives.

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "planner/core/search.hpp"
#include "planner/core/search_trace.hpp"
#include "render/core/draw_list.hpp"
#include "render/core/layer_set.hpp"

namespace pathscope::render {

/// Where the nodes of a traced search sit in the world, as their planner declares it.
struct TraceGeometry {
  /// A node's shape (Planner::node_geometry). Must be set.
  std::function<NodeGeometry(NodeId)> node;
  /// Set when nodes are the cells of a uniform grid: node sets are then always one
  /// image with one pixel per cell.
  std::optional<NodeLattice> lattice;
  /// Typical size of a node, metres: the pixel size of the node-set image of graphs, and
  /// the marker size of point nodes.
  double node_extent = 1;
  /// World box holding every node (graphs: the extent of their image).
  Box2 bounds;

  /// World position of a node.
  Vec2 position(NodeId n) const { return node(n).position; }
};

/// The geometry a planner declares: its lattice if it has one, otherwise its nodes'
/// shapes, with node_extent the smallest box side among them (or, for point nodes, the
/// box `world` divided into about 512 pixels). `planner` must outlive the returned value.
TraceGeometry planner_trace_geometry(const Planner& planner, const Box2& world);

/// The geometry of a uniform grid of cells (node id = row-major cell index).
TraceGeometry lattice_trace_geometry(const NodeLattice& lattice);

/// Options of TracePainter::paint().
struct TracePaintParams {
  /// Identifies the recording: change it whenever the trace is recorded again, so that
  /// cached pixels are rebuilt (the trace object itself may be reused).
  std::uint64_t trace_version = 0;
  /// Camera zoom, pixels per metre. Graph nodes smaller than kImageNodePixels on screen
  /// are painted as an image; larger ones as rects.
  double pixels_per_metre = 1;
  /// The final path as a world polyline (the result's points, with the exact start and
  /// goal); empty = the positions of the replay's path nodes.
  std::span<const Vec2> path_points;
  /// Key of the node-set image (adapters cache its texture under this key).
  std::string key = "trace.nodes";
};

/// Colours of the search overlay, for legends.
namespace trace_palette {
inline constexpr Color kClosedLow{40, 70, 160, 150};         ///< Closed, side 0, g = 0.
inline constexpr Color kClosedHigh{120, 200, 255, 150};      ///< Closed, side 0, largest g.
inline constexpr Color kClosedBackLow{90, 40, 130, 150};     ///< Closed, side 1, g = 0.
inline constexpr Color kClosedBackHigh{230, 140, 255, 150};  ///< Closed, side 1, largest g.
inline constexpr Color kOpenLow{255, 235, 90, 190};          ///< Open, side 0, least f.
inline constexpr Color kOpenHigh{255, 120, 30, 190};         ///< Open, side 0, largest f.
inline constexpr Color kOpenBackLow{140, 255, 200, 190};     ///< Open, side 1, least f.
inline constexpr Color kOpenBackHigh{20, 170, 140, 190};     ///< Open, side 1, largest f.
inline constexpr Color kCurrent{255, 255, 255, 255};         ///< The node expanded last.
inline constexpr Color kCurrentOther{200, 200, 200, 200};    ///< The other side's last node.
inline constexpr Color kPartialPath{255, 160, 40, 255};      ///< Parent chain, side 0.
inline constexpr Color kPartialPathBack{80, 200, 255, 255};  ///< Parent chain, side 1.
inline constexpr Color kPath{255, 64, 200, 255};             ///< The final path.
inline constexpr Color kRefinement{120, 255, 120, 255};      ///< The latest refinement polyline.
inline constexpr Color kScanned{225, 235, 250,
                                120};              ///< A cell a jump scanned (PassOver events), not opened.
inline constexpr Color kPruned{235, 90, 90, 120};  ///< A neighbour pruning skipped, not opened.
inline constexpr Color kScanLine{200, 225, 255, 230};  ///< The current expansion's scans.
inline constexpr Color kJumpLine{255, 200, 60,
                                 255};  ///< The current expansion's jumps to the nodes it opened.
}  // namespace trace_palette

/// Graph nodes whose side is below this many pixels are painted as one image.
inline constexpr double kImageNodePixels = 2.0;

/// Paints a TraceReplay's state. Keeps the node-set image between calls and brings it to
/// the replay's step by applying only the new events (seeking backwards rebuilds it).
/// Colours are normalised over the whole trace (g from 0 to the largest g, f over its
/// whole range), so a pixel keeps its colour while the replay moves. Closed colours have
/// alpha kClosedLow.a, open ones kOpenLow.a.
class TracePainter {
 public:
  /// Appends the search overlay at replay.step() to `out`: the node sets as one image
  /// on layer Closed (on Open when Closed is hidden) in which an open node's pixel hides
  /// a closed one; Current (node outlines); PartialPath (one polyline per side while
  /// the final path is not reached); Refinement (the latest intermediate polyline, with
  /// its stage name on Labels, and its shapes on the layers of their roles, e.g. a
  /// secondary graph on RefinementGraph, a visibility region on RefinementRegion: see
  /// paint_structure_shape()); Path (one polyline once reached). On grids, the cells
  /// jumps scanned (PassOver events) and the neighbours pruning skipped (Prune events) that
  /// were never opened are drawn under the closed ones in kScanned and kPruned, and
  /// Current adds the current expansion's scans (kScanLine) and its jumps to the nodes
  /// it opened (kJumpLine). Only layers in
  /// `layers` are drawn. `replay` must replay `trace`. Graph nodes larger than
  /// kImageNodePixels on screen are drawn in their own shape (box, polygon, or a
  /// square marker for points) on Closed and Open instead.
  void paint(const SearchTrace& trace, const TraceReplay& replay, const TraceGeometry& geometry,
             const LayerSet& layers, DrawList& out, const TracePaintParams& params = {});

  /// Drops every cached pixel (the next paint() rebuilds them).
  void invalidate();

  /// Bytes held by the cached image and per-pixel state.
  std::size_t memory_bytes() const;

 private:
  struct Lut {
    std::uint32_t rgba[256];
  };

  void restart(const SearchTrace& trace, const TraceGeometry& geometry, std::uint64_t trace_version);
  void clear_pixels();
  void advance_to(const SearchTrace& trace, std::uint64_t step, const TraceGeometry& geometry);
  void apply(const SearchEvent& event, const TraceGeometry& geometry);
  void compose(std::size_t pixel);
  void set_shown(bool closed, bool open);
  std::int64_t pixel_of(NodeId node, const TraceGeometry& geometry) const;
  ImagePrim make_image(const std::string& key) const;
  void paint_graph_rects(const TraceReplay& replay, const TraceGeometry& geometry, const LayerSet& layers,
                         DrawList& out) const;
  std::uint32_t closed_color(std::uint8_t side, double g) const;
  std::uint32_t open_color(std::uint8_t side, double f) const;
  void paint_current_jumps(const SearchTrace& trace, const TraceReplay& replay, const TraceGeometry& geometry,
                           DrawList& out) const;

  // What the cached pixels were built from.
  const SearchTrace* trace_ = nullptr;
  std::uint64_t trace_version_ = 0;
  bool valid_ = false;
  bool two_sided_ = false;
  std::size_t applied_ = 0;  // trace events applied to the pixels
  std::uint64_t step_ = 0;   // expansions applied
  NodeId last_expanded_[2] = {kNoNode, kNoNode};

  // Image frame: pixel (x, y) covers min + (x, y) * pixel_size.
  int width_ = 0;
  int height_ = 0;
  Vec2 min_{0, 0};
  Vec2 max_{0, 0};

  // Normalisation over the whole trace.
  double g_max_[2] = {0, 0};
  double f_lo_[2] = {0, 0};
  double f_hi_[2] = {0, 0};
  Lut closed_lut_[2]{};
  Lut open_lut_[2]{};

  // Per pixel: bit 0/1 open on side 0/1, bit 2/3 closed on side 0/1, bit 4 scanned, bit 5 pruned.
  std::vector<std::uint8_t> flags_;
  std::vector<std::uint32_t> closed_px_;  // RGBA8 as bytes in memory order
  std::vector<std::uint32_t> open_px_;
  std::vector<std::uint32_t> open_side_px_[2];  // two-sided traces: each side's open colour
  std::vector<std::uint32_t> image_px_;         // what is drawn: open over closed over pruned over scanned
  bool show_closed_ = true;
  bool show_open_ = true;
  std::uint64_t version_ = 0;
  bool dirty_ = true;
};

}  // namespace pathscope::render
