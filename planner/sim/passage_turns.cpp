// Narrow passages in the simulation: one direction of travel at a time (see passages.hpp).
//
// Each step, after the bridges: every unit following its path finds the passage it is in
// or whose cells its way reaches within PassageRules::look_ahead metres, and the way it
// goes through (from where its path enters the passage to where it leaves it). Inside,
// it holds the passage for its direction if nobody does. Before it, it asks: granted if
// the passage is free (and no other direction has been waiting for its turn) or held by
// its own direction (unless the other direction has waited turn_seconds, or
// crowd_turn_seconds while more than a trickle of units is inside); refused, it
// brakes and waits, giving way to everyone. Units are asked in slot order.
//
// A component: it sees the units, the passage maps, the grids and motions, and each
// unit's last passage (PassageUnit), and returns the units refused and where they wait
// (PassageWait); how a unit waits is the step's.

#include "planner/sim/passage_turns.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include <glm/common.hpp>
#include <glm/geometric.hpp>

#include "planner/sim/bridges.hpp"
#include "planner/sim/static_check.hpp"
#include "planner/sim/unit_motion.hpp"
#include "planner/world/cost_grid.hpp"

namespace pathscope::sim {

namespace {

// The diameters of a class's hard shape a run may hold and still be narrow, and the
// widths a passage may be long.
constexpr double kNarrowDiameters = 5;
constexpr double kLongestWidths = 6;

struct Traversal {
  std::uint32_t passage = 0;
  bool inside = false;
  bool known = false;  ///< `flow` is known (a unit with no path inside has none).
  Vec2 flow{0, 0};
  Vec2 entry{0, 0};     ///< Where its way enters the passage (its position when inside).
  double distance = 0;  ///< Metres along its way to the entry.
};

// Walks the unit's way (its position, then its path from its waypoint on) in steps of
// `step` metres; `visit(point)` returns true to stop. At most `limit` metres.
template <class Visit>
void walk_way(const SimUnit& u, double step, double limit, Visit&& visit) {
  Vec2 from = u.body.position;
  if (visit(from)) return;
  double walked = 0;
  double carry = step;  // metres to the next sample from `from`
  for (std::size_t k = u.route.waypoint; k < u.route.path.size() && walked < limit; ++k) {
    const Vec2 to = u.route.path[k];
    const double len = glm::length(to - from);
    double d = carry;
    for (; d <= len && walked + d <= limit; d += step) {
      if (visit(from + (to - from) * (d / len))) return;
    }
    carry = d - len;
    walked += len;
    from = to;
  }
}

std::optional<Traversal> traversal(const SimUnit& u, const CostGrid& grid, const PassageMap& map,
                                   const PassageRules& rules, double reach) {
  const auto here = grid.cell_at(u.body.position);
  if (!here) return std::nullopt;
  const double step = 0.5 * grid.cell_size();
  Traversal t;
  Vec2 entry = u.body.position;
  std::size_t entry_sample = 0;  // samples of the walk before the entry
  if (const auto p = map.passage_of(*here)) {
    t.passage = *p;
    t.inside = true;
  } else {
    bool found = false;
    walk_way(u, step, reach, [&](Vec2 q) {
      ++entry_sample;
      const auto c = grid.cell_at(q);
      if (!c) return false;
      if (const auto p = map.passage_of(*c)) {
        t.passage = *p;
        entry = q;
        --entry_sample;
        found = true;
      }
      return found;
    });
    if (!found) return std::nullopt;
  }
  // Where the way leaves the passage (or ends in it).
  Vec2 exit = entry;
  std::size_t sample = 0;
  walk_way(u, step, rules.look_ahead + 4 * rules.max_length, [&](Vec2 q) {
    if (sample++ < entry_sample) return false;
    const auto c = grid.cell_at(q);
    if (!c || map.passage_of(*c) != t.passage) return true;
    exit = q;
    return false;
  });
  t.entry = entry;
  t.distance = static_cast<double>(entry_sample) * step;
  const Vec2 d = exit - entry;
  const double len = glm::length(d);
  if (len > 1e-6) {
    t.flow = d / len;
    t.known = true;
  } else if (!u.route.path.empty()) {
    t.flow = direction(u.body.heading);
    t.known = true;
  }
  return t;
}

}  // namespace

static void claim_ways(std::span<const SimUnit> units, std::span<const PassageMap> maps,
                       std::span<const Motion> motions, std::span<const CostGrid* const> grids, double now,
                       std::span<const PassageUnit> track, PassageClaims& claims);
static bool step_off_claimed(const SimUnit& u, const CostGrid& grid, const PassageUnit& x,
                             const PassageClaims& claims, Vec2 back_from, Vec2& spot);

PassageRules passage_rules(const Motion& m) {
  PassageRules r;
  r.max_width = kNarrowDiameters * 2 * m.hard_radius;
  r.max_length = kLongestWidths * r.max_width;
  r.look_ahead = std::max(r.look_ahead, 4 * m.hard_radius);
  return r;
}

void keep_passages(std::span<const SimUnit> units, std::span<PassageMap> maps,
                   std::span<const Motion> motions, std::span<const CostGrid* const> grids, double now,
                   std::span<PassageUnit> track, PassageClaims& claims,
                   std::vector<std::vector<PassageTally>>& tallies, std::vector<PassageWait>& waits) {
  waits.clear();
  tallies.resize(maps.size());
  bool any = false;
  for (std::size_t c = 0; c < maps.size(); ++c) {
    tallies[c].assign(maps[c].passages().size(), PassageTally{});
    any = any || !tallies[c].empty();
  }
  if (!any) return;
  claim_ways(units, maps, motions, grids, now, track, claims);
  for (const SimUnit& u : units) {
    if (!u.alive || (u.route.state != MoveState::Moving && u.route.state != MoveState::WaitingForPath))
      continue;
    const bool stepping_aside = u.coop.yield == Yield::MoveAside || u.coop.yield == Yield::Return;
    PassageUnit& x = track[u.id.index];
    if (stepping_aside && !x.waiting) continue;
    PassageMap& map = maps[u.movement_class];
    if (map.passages().empty()) continue;
    const CostGrid& grid = *grids[u.movement_class];
    const PassageRules& rules = map.rules();
    const auto t = traversal(u, grid, map, rules, kQueueReach);
    if (stepping_aside) {
      // Stepping clear of the way to wait for this passage: still in its queue, so the
      // queue keeps its place in line (its time waited) while it steps aside.
      // (Inside a knot's passage too: its queue stands in it.)
      if (t && (!t->inside || map.passages()[t->passage].knot)) {
        const Passage& p = map.passages()[t->passage];
        PassageTally& tally = tallies[u.movement_class][t->passage];
        if (p.queued && glm::dot(t->flow, p.queue_flow) > 0) tally.queue_seen = true;
        ++tally.waiting;
      }
      continue;
    }
    // Out of a passage a moment ago and still near it: those queueing at this end wait
    // for it to clear their way.
    // (Not when its way goes back into it: then it asks again, as any unit does.)
    if (x.last_passage >= 0 &&
        (!t || (!t->inside && static_cast<std::int64_t>(t->passage) != x.last_passage)) &&
        now - x.passage_time <= kClearSeconds) {
      const auto k = static_cast<std::size_t>(x.last_passage);
      const Passage& out = map.passages()[k];
      const Vec2 nearest = glm::clamp(u.body.position, out.bounds.lo, out.bounds.hi);
      if (out.held && glm::dot(x.passage_flow, out.flow) > 0 &&
          glm::length(u.body.position - nearest) <= kQueueReach) {
        tallies[u.movement_class][k].holder_present = true;
      }
    }
    if (!t) continue;
    Passage& p = map.passages()[t->passage];
    PassageTally& tally = tallies[u.movement_class][t->passage];
    // Inside a knot's passage against its holders' way, a unit is refused as one before
    // it: the knot's other side waits there (knots.hpp).
    const bool against = p.knot && p.held && t->known && glm::dot(t->flow, p.flow) <= 0;
    if (t->inside && !against) {
      ++tally.inside;
      if (!p.held && t->known) {
        p.held = true;
        p.flow = t->flow;
      }
      if (!t->known || glm::dot(t->flow, p.flow) > 0) tally.holder_present = true;
      if (t->known) {
        x.last_passage = t->passage;
        x.passage_flow = t->flow;
        x.passage_time = now;
      }
      continue;
    }
    if (u.route.state != MoveState::Moving) continue;
    // Farther back than the look-ahead, it only queues, and only when units come the
    // other way: it waits clear of their way rather than walk up into it.
    const bool far = t->distance > rules.look_ahead;
    if (far && !(p.held && glm::dot(t->flow, p.flow) <= 0)) continue;
    if (u.route.state != MoveState::Moving) continue;
    bool granted;
    if (far) {
      granted = false;
    } else if (!p.held) {
      granted = !(p.queued && glm::dot(t->flow, p.queue_flow) <= 0);
    } else if (glm::dot(t->flow, p.flow) > 0) {
      // A crowd going through (more than a trickle inside) keeps its turn longer.
      const double turn = p.inside > rules.trickle ? rules.crowd_turn_seconds : rules.turn_seconds;
      granted = !(p.queued && now - p.queued_since >= turn);
    } else {
      granted = false;
    }
    if (granted) {
      if (!p.held) {
        p.held = true;
        p.flow = t->flow;
        if (p.queued && glm::dot(t->flow, p.queue_flow) > 0) p.queued = false;
      }
      tally.holder_present = true;
      ++tally.inside;
      continue;
    }
    // Refused: the other way holds it, or waits for its turn. Queue for ours.
    if (!p.held || glm::dot(t->flow, p.flow) <= 0) {
      if (!p.queued) {
        p.queued = true;
        p.queue_flow = t->flow;
        p.queued_since = now;
      }
      if (glm::dot(t->flow, p.queue_flow) > 0) tally.queue_seen = true;
    }
    ++tally.waiting;
    x.waiting = true;
    const auto cell = grid.cell_at(t->entry);
    const double width = cell ? static_cast<double>(map.widths()[*cell]) : 0.0;
    PassageWait w{u.id.index, false, {0, 0}, t->entry, t->flow, 0.5 * width};
    // Waiting for a knot's passage, it steps back the way it came, never through the
    // holders ahead of it.
    w.at_spot = step_off_claimed(u, grid, x, claims, p.knot ? t->flow : Vec2{0, 0}, w.spot);
    w.in_place = !w.at_spot && t->inside;
    waits.push_back(w);
  }
  for (std::size_t c = 0; c < maps.size(); ++c) {
    std::vector<Passage>& passages = maps[c].passages();
    for (std::size_t k = 0; k < passages.size(); ++k) {
      Passage& p = passages[k];
      const PassageTally& tally = tallies[c][k];
      if (!tally.holder_present) p.held = false;
      if (!tally.queue_seen) p.queued = false;
      p.inside = tally.inside;
      p.waiting = tally.waiting;
      if (tally.inside > 0 || tally.waiting > 0) p.seen = now;
    }
  }
}

// ---------------------------------------------------------------------------------------
// The way out, claimed. Units waiting for a passage step off the ways of the units
// coming through it: not only the line through it (wait_clear) but each such unit's path
// on from where it stands, out to kClaimReach metres. Two crowds swapping sides through
// one gap otherwise lock: the side waiting stands where the other side's goals are.

namespace {

constexpr double kClaimReach = 48;  // metres of each way claimed
constexpr int kStepOffCells = 40;   // cells searched round a waiting unit for a free one
constexpr double kMouthClear = 6;   // metres round a held passage kept clear

// A run of cells [lo, hi] of one row; empty when hi < lo.
struct CellSpan {
  int lo = 0;
  int hi = -1;
};

// Cell (x, y) has a point within `reach` of q (its nearest point: the test every claim makes).
bool cell_within(Vec2 q, int x, int y, double cell, double reach) {
  const Vec2 lo{x * cell, y * cell};
  const Vec2 nearest = glm::clamp(q, lo, lo + Vec2{cell, cell});
  return glm::length(nearest - q) <= reach;
}

// The cells of row y within `reach` of q, among columns [x0, x1]. The cells within reach
// of a point form one run per row (the distance grows away from q's column), so the run
// is found by arithmetic, a cell wider than it need be at each end, and its ends trimmed
// by cell_within: the same cells as testing each, at a cost of a few tests per row.
CellSpan disc_row(Vec2 q, int y, double cell, double reach, int x0, int x1) {
  const double top = y * cell, bottom = top + cell;
  const double dy = q.y < top ? top - q.y : (q.y > bottom ? q.y - bottom : 0.0);
  if (dy > reach * (1 + 1e-9)) return {};
  const double half = std::sqrt(std::max(0.0, reach * reach - dy * dy));
  CellSpan span{std::max(x0, static_cast<int>(std::floor((q.x - half) / cell)) - 1),
                std::min(x1, static_cast<int>(std::floor((q.x + half) / cell)) + 1)};
  while (span.lo <= span.hi && !cell_within(q, span.lo, y, cell, reach)) ++span.lo;
  while (span.hi >= span.lo && !cell_within(q, span.hi, y, cell, reach)) --span.hi;
  return span;
}

}  // namespace

void claim_ways(std::span<const SimUnit> units, std::span<const PassageMap> maps,
                std::span<const Motion> motions, std::span<const CostGrid* const> grids, double now,
                std::span<const PassageUnit> track, PassageClaims& claims) {
  const std::size_t classes = maps.size();
  claims.claimed.resize(classes);
  for (std::size_t c = 0; c < classes; ++c) {
    // Cleared only when the last step claimed something: most steps claim nothing.
    std::vector<std::uint8_t>& claimed = claims.claimed[c];
    const std::size_t cells = grids[c]->cell_count();
    if (claimed.size() != cells) {
      claimed.assign(cells, 0);
    } else if (c < claims.any_claimed.size() && claims.any_claimed[c]) {
      std::fill(claimed.begin(), claimed.end(), std::uint8_t{0});
    }
  }
  claims.any_claimed.assign(classes, 0);
  // Round a held passage, kMouthClear metres of both mouths: those coming out must not
  // find the queue standing there.
  for (std::size_t c = 0; c < classes; ++c) {
    const CostGrid& grid = *grids[c];
    std::vector<std::uint8_t>& claimed = claims.claimed[c];
    const double cell = grid.cell_size();
    for (const Passage& p : maps[c].passages()) {
      if (!p.held) continue;
      claims.any_claimed[c] = 1;
      // Clipped to the grid: the loops cover the cells that exist, whatever the bounds.
      const auto clip = [](double v, int cells) {
        return static_cast<int>(std::clamp(std::floor(v), 0.0, double(cells - 1)));
      };
      const int x0 = clip((p.bounds.lo.x - kMouthClear) / cell, grid.width());
      const int x1 = clip((p.bounds.hi.x + kMouthClear) / cell, grid.width());
      const int y0 = clip((p.bounds.lo.y - kMouthClear) / cell, grid.height());
      const int y1 = clip((p.bounds.hi.y + kMouthClear) / cell, grid.height());
      for (int y = y0; y <= y1; ++y) {
        for (int x = x0; x <= x1; ++x) {
          const Vec2 centre{(x + 0.5) * cell, (y + 0.5) * cell};
          const Vec2 nearest = glm::clamp(centre, p.bounds.lo, p.bounds.hi);
          if (glm::length(centre - nearest) <= kMouthClear) claimed[grid.index(x, y)] = 1;
        }
      }
    }
  }
  std::vector<CellSpan> previous;  // per row: the last span claimed in it for this unit
  for (const SimUnit& u : units) {
    if (!u.alive || u.route.state != MoveState::Moving || u.route.path.empty() ||
        u.route.waypoint >= u.route.path.size())
      continue;
    const PassageUnit& x = track[u.id.index];
    if (x.last_passage < 0 || now - x.passage_time > kClearSeconds) continue;
    const PassageMap& map = maps[u.movement_class];
    const Passage& p = map.passages()[static_cast<std::size_t>(x.last_passage)];
    if (!p.held || glm::dot(x.passage_flow, p.flow) <= 0) continue;
    const CostGrid& grid = *grids[u.movement_class];
    const Motion& m = motions[u.movement_class];
    std::vector<std::uint8_t>& claimed = claims.claimed[u.movement_class];
    const double cell = grid.cell_size();
    // Wide enough that a unit at the centre of an unclaimed cell clears the way's line.
    const double reach = 2 * m.hard_radius + kWaitMargin + 0.5 * std::sqrt(2.0) * cell;
    // Each point claims the cells within reach of it in the square of r cells round its
    // own, clipped to the grid. Row by row, only the cells the previous point's disc left
    // are written: the work per point is the rows, not the disc's area (a class of a
    // large hard radius on small cells claims millions of cells per point otherwise).
    const int w = grid.width(), h = grid.height();
    const int r = static_cast<int>(std::min(std::ceil(reach / cell), double(std::max(w, h))));
    previous.assign(static_cast<std::size_t>(h), CellSpan{});
    auto claim = [&](Vec2 q) {
      const int cx = static_cast<int>(std::floor(q.x / cell)), cy = static_cast<int>(std::floor(q.y / cell));
      const int x0 = std::max(0, cx - r), x1 = std::min(w - 1, cx + r);
      for (int y = std::max(0, cy - r); y <= std::min(h - 1, cy + r); ++y) {
        const CellSpan span = disc_row(q, y, cell, reach, x0, x1);
        CellSpan& done = previous[static_cast<std::size_t>(y)];  // claimed already
        for (int x = span.lo; x <= span.hi; ++x) {
          if (x >= done.lo && x <= done.hi) {
            x = done.hi;
            continue;
          }
          claimed[grid.index(x, y)] = 1;
        }
        if (span.lo <= span.hi) done = span;
      }
    };
    walk_way(u, 0.5 * cell, kClaimReach, [&](Vec2 q) {
      claim(q);
      return false;
    });
    claims.any_claimed[u.movement_class] = 1;
  }
}

// The nearest open, unclaimed cell a unit on a claimed cell can walk to in a straight line;
// with `back_from` not zero, only a cell not ahead of it along `back_from`.
bool step_off_claimed(const SimUnit& u, const CostGrid& grid, const PassageUnit& x,
                      const PassageClaims& claims, Vec2 back_from, Vec2& spot) {
  if (u.movement_class >= claims.any_claimed.size() || !claims.any_claimed[u.movement_class]) return false;
  const std::vector<std::uint8_t>& claimed = claims.claimed[u.movement_class];
  const auto here = grid.cell_at(u.body.position);
  if (!here || !claimed[*here]) return false;
  // The nearest cell open to it and off every claimed way, outwards ring by ring (a
  // breadth-first walk over open cells, so never through a wall).
  const glm::ivec2 start = grid.cell(*here);
  std::vector<std::uint32_t> frontier{*here}, next;
  constexpr int kSide = 2 * kStepOffCells + 1;
  std::vector<std::uint8_t> seen(kSide * kSide, 0);  // the square round the start
  seen[kStepOffCells * kSide + kStepOffCells] = 1;
  constexpr int kDx[4] = {1, -1, 0, 0};
  constexpr int kDy[4] = {0, 0, 1, -1};
  for (int ring = 0; ring < kStepOffCells && !frontier.empty(); ++ring) {
    next.clear();
    for (const std::uint32_t c : frontier) {
      const glm::ivec2 at = grid.cell(c);
      for (int k = 0; k < 4; ++k) {
        const int nx = at.x + kDx[k], ny = at.y + kDy[k];
        if (!grid.in_bounds(nx, ny) || std::abs(nx - start.x) > kStepOffCells ||
            std::abs(ny - start.y) > kStepOffCells)
          continue;
        const std::uint32_t n = grid.index(nx, ny);
        std::uint8_t& was = seen[(ny - start.y + kStepOffCells) * kSide + (nx - start.x + kStepOffCells)];
        if (was) continue;
        was = 1;
        if (point_blocked(grid, x.move_key, grid.center(n))) continue;
        if (!claimed[n] && glm::dot(grid.center(n) - u.body.position, back_from) <= 0 &&
            !segment_blocked(grid, x.move_key, u.body.position, grid.center(n))) {
          spot = grid.center(n);
          return true;
        }
        next.push_back(n);
      }
    }
    std::swap(frontier, next);
  }
  return false;
}

}  // namespace pathscope::sim
