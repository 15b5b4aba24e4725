#pragma once

// Which drawing layers are shown: parsed from "a,b,c", "all" or "default".

#include <bitset>
#include <span>
#include <string>
#include <string_view>

#include "planner/core/result.hpp"
#include "render/core/draw_list.hpp"

namespace pathscope::render {

/// A set of layers. The painter draws only the layers in the set.
class LayerSet {
 public:
  /// The empty set.
  LayerSet() = default;

  /// Every layer.
  static LayerSet all();
  /// The layers shown when nothing is asked for: everything but cost_heat, regions,
  /// planner_cells, planner_edges, all_paths (a scenario may hold thousands of
  /// queries; by default only the active query's search and path are drawn) and
  /// sim_density.
  static LayerSet defaults();
  /// Parses comma-separated layer names; "all" and "default" stand for those sets and
  /// "none" for the empty set. Spaces around names are ignored. An unknown name is an
  /// Error (code Value, where "layers") that lists the known names.
  static Result<LayerSet> parse(std::string_view text);
  /// parse() of each entry, united; an empty list gives defaults().
  static Result<LayerSet> parse(std::span<const std::string> entries);

  /// True if `layer` is in the set.
  bool contains(Layer layer) const { return bits_.test(static_cast<std::size_t>(layer)); }
  /// Adds or removes one layer.
  void set(Layer layer, bool on = true) { bits_.set(static_cast<std::size_t>(layer), on); }
  /// Number of layers in the set.
  std::size_t size() const { return bits_.count(); }
  /// The set as a bit mask (bit i = layer i), for change detection.
  unsigned long long bits() const { return bits_.to_ullong(); }
  /// Comma-separated names in drawing order ("" when empty).
  std::string to_string() const;

  friend bool operator==(const LayerSet&, const LayerSet&) = default;

 private:
  std::bitset<kLayerCount> bits_;
};

/// The map layers of `layers` that are drawn below the search overlay (tiles up to
/// influences) or, with `above_search`, above it (units, markers, labels). Drawn as
/// separate lists, the map need not be painted again when only the search changes.
LayerSet map_layers(const LayerSet& layers, bool above_search);

/// "tiles, cost_heat, ..., labels": the known layer names, for messages and --help.
std::string known_layer_names();

}  // namespace pathscope::render
