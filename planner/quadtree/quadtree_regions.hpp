#pragma once

// Connected regions of a quadtree's leaves (seed 000, footnote 1: a path query between
// regions is refused at once), kept up to date edit by edit without a pass over the
// whole map.

#include <cstdint>
#include <span>
#include <vector>

#include "planner/quadtree/quadtree.hpp"

namespace pathscope {

class QuadLinks;

/// Region labels of the passable leaves: two leaves share a region exactly when two-way
/// links join them. Labels are arbitrary (not dense, not a fresh build's numbers); only
/// equality means something.
///
/// A label is an index into a union-find over labels: regions joined by an edit merge by
/// one union; a region an edit cuts is found by searching from the cut's sides at once,
/// in lock step, until all but one side have been searched to their end (the largest
/// part keeps its label, so the work is that of the smaller parts); the local graph of
/// the leaves around the edit decides which sides are still joined there.
class QuadRegions {
 public:
  /// Names no region (impassable leaves).
  static constexpr std::uint32_t kNoRegion = 0xFFFFFFFFu;

  /// Labels every leaf from scratch: O(leaves + links).
  void build(const Quadtree& tree, const QuadLinks& links);

  /// Brings the labels up to date after Quadtree::update gave `edit` and the links were
  /// brought up to date: `dirty[id]` is non-zero for the leaves whose links were found
  /// again (the new leaves and their neighbours). O(leaves) of sequential copying plus
  /// the work around the edit and in the parts it cut off.
  void update(const Quadtree& tree, const QuadtreeEdit& edit, std::span<const std::uint8_t> dirty,
              const QuadLinks& links);

  /// Region of a leaf, kNoRegion for impassable leaves.
  std::uint32_t region(std::uint32_t leaf) const {
    const std::uint32_t l = label_[leaf];
    return l == kNoRegion ? kNoRegion : parent_[l];
  }
  /// Regions now.
  std::uint32_t count() const { return count_; }

  /// Bytes held.
  std::size_t memory_bytes() const;

 private:
  std::uint32_t find(std::uint32_t l);
  std::uint32_t fresh_label();
  std::uint32_t join(std::uint32_t a, std::uint32_t b);
  // Splits label `g`, carried by the local components `seeds` (leaf lists), into the
  // parts the links still join. False, half done, when it would visit more than `budget`
  // leaves (the budget is spent as it goes).
  bool split(std::uint32_t g, std::vector<std::vector<std::uint32_t>>& seeds, const QuadLinks& links,
             std::size_t& budget);
  // Makes parent_ point at roots and counts the regions with leaves.
  void flatten();

  std::vector<std::uint32_t> label_;   // per leaf: its label, or kNoRegion
  std::vector<std::uint32_t> parent_;  // per label: union-find parent (a root after flatten)
  std::vector<std::uint32_t> size_;    // per root label: its leaves
  std::uint32_t count_ = 0;
  // Scratch, kept between updates so that memory already touched is reused.
  std::vector<std::uint32_t> spare_label_;
  std::vector<std::uint32_t> slot_;    // per leaf: index among the local leaves, or none
  std::vector<std::uint32_t> stamp_;   // per leaf: which search visited it (split)
  std::uint32_t next_stamp_ = 1;
};

}  // namespace pathscope
