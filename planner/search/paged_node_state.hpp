#pragma once

// Per-node search state, reused across queries and paged: what a best-first search keeps
// of each node (its g, parent and closed bits per side, whatever else its family needs),
// for graphs whose node ids are dense (grid cells, quadtree leaves, corners).
//
// Reuse: a generation counter marks the nodes of the current search, so a new query
// clears nothing and allocates nothing; a node whose generation is old reads as untouched.
// Paging: nodes are grouped in pages of kPageCells consecutive ids (on a grid, a strip of
// a row). Up to kEagerCells nodes every page is allocated at once, as one block (a few
// long searches touch all of it anyway, and queries do not pay for allocations); above, a
// page is allocated the first time a search writes to one of its nodes, so a short query
// on a huge map touches a few pages, while a search over the whole map ends up with every
// page. Pages not allocated yet point at one shared page of never-touched nodes, so
// reading needs no test for a missing page: find() costs one load more than an array
// (the page pointer, from a table that stays in cache). The names say "cell" for a node.

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#include "planner/core/search.hpp"

namespace pathscope {

/// The per-node states of one planner: paged, generation-stamped. `Node` is the family's
/// state of one node (g, parent, closed bits per side, ...): trivially copyable, with a
/// member `std::uint32_t generation` and `static Node fresh(std::uint32_t generation)`,
/// the state of a node the search `generation` has just reached.
template <class Node>
class PagedNodeState {
 public:
  using Cell = Node;
  /// log2 of the nodes per page: 1024 nodes per page (16 KB for a 16-byte state).
  static constexpr int kPageBits = 10;
  static constexpr std::uint32_t kPageCells = 1u << kPageBits;
  /// Bytes of state per cell once its page is allocated.
  static constexpr std::size_t kBytesPerCell = sizeof(Cell);
  /// Graphs of up to this many nodes (a 512 x 512 grid: every Moving AI benchmark map) get
  /// every page at construction (4 MB for a 16-byte state).
  static constexpr std::size_t kEagerCells = std::size_t(1) << 18;

  /// State for `cell_count` nodes: every page at once up to kEagerCells nodes, otherwise
  /// only the page table and the shared empty page.
  explicit PagedNodeState(std::size_t cell_count)
      : cell_count_(cell_count),
        empty_(std::make_unique_for_overwrite<Cell[]>(kPageCells)),
        pages_((cell_count + kPageCells - 1) / kPageCells, empty_.get()),
        owned_(pages_.size()) {
    for (std::uint32_t i = 0; i < kPageCells; ++i) empty_[i] = Cell::fresh(0);  // generation 0: never current
    if (cell_count > kEagerCells) return;
    block_ = std::make_unique_for_overwrite<Cell[]>(pages_.size() * kPageCells);
    for (std::size_t i = 0; i < pages_.size() * kPageCells; ++i) block_[i] = Cell::fresh(0);
    for (std::size_t p = 0; p < pages_.size(); ++p) pages_[p] = block_.get() + p * kPageCells;
    allocated_ = pages_.size();
  }

  std::size_t cell_count() const { return cell_count_; }

  /// Begins a new search: every cell reads as untouched. Returns the new generation.
  std::uint32_t next_search() {
    if (++generation_ == 0) {  // wrapped: stale generations could alias, so reset once
      for (Cell* page : pages_) {
        if (page == empty_.get()) continue;
        for (std::uint32_t i = 0; i < kPageCells; ++i) page[i].generation = 0;
      }
      generation_ = 1;
    }
    return generation_;
  }
  /// The current search's generation.
  std::uint32_t generation() const { return generation_; }

  /// The cell's state if the current search has reached it, else nullptr.
  Cell* find(NodeId cell) {
    Cell& c = pages_[cell >> kPageBits][cell & (kPageCells - 1)];
    return c.generation == generation_ ? &c : nullptr;
  }
  const Cell* find(NodeId cell) const {
    const Cell& c = pages_[cell >> kPageBits][cell & (kPageCells - 1)];
    return c.generation == generation_ ? &c : nullptr;
  }

  /// find() with the page table and the generation copied out, for a search loop to hold
  /// in registers: valid until the next next_search().
  class Finder {
   public:
    Cell* find(NodeId cell) const {
      Cell& c = pages_[cell >> kPageBits][cell & (kPageCells - 1)];
      return c.generation == generation_ ? &c : nullptr;
    }
    /// Asks the cache for a cell's state ahead of find(): a search starts the loads of
    /// the rows above and below a cell before it tests the neighbours one by one.
    void prefetch(NodeId cell) const {
      __builtin_prefetch(&pages_[cell >> kPageBits][cell & (kPageCells - 1)]);
    }

   private:
    friend class PagedNodeState;
    Finder(Cell* const* pages, std::uint32_t generation) : pages_(pages), generation_(generation) {}
    Cell* const* pages_;
    std::uint32_t generation_;
  };
  Finder finder() { return Finder(pages_.data(), generation_); }

  /// Marks a cell the current search has not reached (find() == nullptr) as reached,
  /// with fresh state, allocating its page if needed.
  Cell& add(NodeId cell) {
    assert(cell < cell_count_);
    Cell* page = pages_[cell >> kPageBits];
    if (page == empty_.get()) page = allocate(cell >> kPageBits);
    Cell& c = page[cell & (kPageCells - 1)];
    c = Cell::fresh(generation_);
    return c;
  }

  /// The state of a cell the current search has reached (asserted).
  Cell& at(NodeId cell) {
    Cell& c = pages_[cell >> kPageBits][cell & (kPageCells - 1)];
    assert(c.generation == generation_);
    return c;
  }
  const Cell& at(NodeId cell) const {
    const Cell& c = pages_[cell >> kPageBits][cell & (kPageCells - 1)];
    assert(c.generation == generation_);
    return c;
  }

  /// Calls fn(cell id, state) for every cell the current search reached, in increasing id.
  template <typename Fn>
  void for_each_reached(Fn fn) const {
    for (std::size_t p = 0; p < pages_.size(); ++p) {
      const Cell* page = pages_[p];
      if (page == empty_.get()) continue;
      const std::size_t base = p << kPageBits;
      const std::size_t end = std::min<std::size_t>(kPageCells, cell_count_ - base);
      for (std::size_t i = 0; i < end; ++i) {
        if (page[i].generation == generation_) fn(NodeId(base + i), page[i]);
      }
    }
  }

  /// Pages allocated so far (memory held: pages * kPageCells * kBytesPerCell).
  std::size_t pages_allocated() const { return allocated_; }
  /// Bytes held: allocated pages, the empty page and the page table.
  std::size_t memory_bytes() const {
    return (allocated_ + 1) * kPageCells * sizeof(Cell) + pages_.size() * (sizeof(Cell*) + sizeof(owned_[0]));
  }

 private:
  Cell* allocate(std::size_t p) {
    owned_[p] = std::make_unique_for_overwrite<Cell[]>(kPageCells);
    Cell* page = owned_[p].get();
    for (std::uint32_t i = 0; i < kPageCells; ++i) page[i] = Cell::fresh(0);
    pages_[p] = page;
    ++allocated_;
    return page;
  }

  std::size_t cell_count_;
  std::unique_ptr<Cell[]> empty_;               // shared by pages not yet allocated; never written
  std::vector<Cell*> pages_;                    // page -> its cells (or empty_)
  std::unique_ptr<Cell[]> block_;               // every page, on small maps
  std::vector<std::unique_ptr<Cell[]>> owned_;  // page -> storage, null until allocated (large maps)
  std::uint32_t generation_ = 1;                // never 0, the generation of untouched cells
  std::size_t allocated_ = 0;
};

}  // namespace pathscope
