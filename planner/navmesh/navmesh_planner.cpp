// The navmesh planner: Detour's path query (DetourNavMeshQuery.h: the sliced query
// initSlicedFindPath / updateSlicedFindPath / finalizeSlicedFindPath, then
// findStraightPath), as RecastDemo's NavMeshTesterTool runs it, one frame's budget of
// iterations at a time.
//
// Trace. Detour's A* keeps its nodes in a pool (dtNavMeshQuery::getNodePool): a polygon's
// node holds g (cost), f (total), its parent's pool index and open/closed flags. One
// iteration pops the best open node, closes it and opens or improves its neighbours; new
// nodes take the next pool indices. With an observer attached, step() runs one iteration
// at a time and reads what changed: the node that left the open set (Expand), the new
// nodes (Push) and the neighbours of the expanded polygon whose f fell (Relax). Without an
// observer it hands Detour the whole budget at once; both run the same iterations. The g
// and h the trace and visit_nodes report are metres of world cost in every search
// (node_costs): Detour's own cost is over the smallest multiplier and, in a further search,
// raised to that search's power, so g is summed again along the node's parents between the
// positions Detour placed them at, in the plane, each leg times its polygon's multiplier
// (Detour's model at the first search's power), and h is the straight line to the search's
// end point times the smallest multiplier.
//
// Cost. Detour ranks corridors by the distances between portal midpoints times area
// costs; the path it returns is then string-pulled. The cost reported is the returned
// polyline's in the world's model (planner/world/path_cost: each piece of a leg inside one
// cell costs its length times that cell's multiplier; a piece along a cell line the
// cheaper passable side's).
//
// Slow ground (conformance worlds 206 and 401 cost 1.81 and 2.12 times the cheapest
// moves). Detour's string pulling weighs no cost: inside a corridor it takes the shortest
// path, so a start or goal on a slow polygon was left across it diagonally when leaving it
// at once for cheap ground beside it costs less. And Detour places a polygon's node at the
// midpoint of the portal it first reached it through, never moved: a goal's slow polygon
// touching the start's is costed from that portal, however far from the goal, so a
// corridor entering it next to the goal is never found. Two remedies, both only where
// the corridor crosses a polygon dearer than the cheapest ground (so never on ground of
// one cost):
//  - Weighted string pulling (weighted_string_pull): points on the corridor's portals
//    (each portal's ends and up to 15 points between, a voxel apart at least) chosen by
//    dynamic programming, each leg between consecutive portals lying in one convex
//    polygon and costing its length times the polygon's multiplier; then legs merged
//    greedily where the straight leg keeps the radius and the terrain group (exact cell
//    tests) and costs no more in the world's model. Of it and Detour's straight path, the
//    one of least world cost (path_cost) is kept, Detour's on ties.
//  - Further searches (`searches`): while the cheapest path so far has a corridor crossing
//    dearer ground, the next search of kSearches runs: from the goal to the start with
//    each area's cost (its multiplier over the smallest) squared, then forwards squared,
//    then from the goal cubed. A search from the goal places the goal's polygon's node at
//    the goal. Each corridor is pulled as above and the path of least world cost is the
//    result (the earliest on ties).
// On conformance worlds 1-1299 two searches bring the worst cost over the cheapest moves
// keeping the radius from 2.12 to 1.38; three and four find nothing cheaper there. All
// searches run inside step()'s budget (a search ending within it hands the rest to the
// next) and report to the same trace; a later search's node replaces an earlier one's (a
// replay shows the same), and the final Path events and "straight path" refinement are the
// result's.

#include "planner/navmesh/navmesh_planner.hpp"

#include <DetourNavMesh.h>
#include <DetourNavMeshQuery.h>
#include <DetourNode.h>

#include <algorithm>
#include <array>
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <tuple>
#include <utility>

#include "planner/core/geometry.hpp"
#include "planner/search/node_views.hpp"
#include "planner/world/path_cost.hpp"

namespace pathscope {
namespace {

// Nodes of Detour's pool (its limit: indices are 16 bits).
constexpr int kMaxNodes = 65535;

// Each search of a query: whether it runs from the goal to the start, and the power its
// area costs raise each area's multiplier over the smallest to (search 0: Detour's).
struct SearchPlan {
  bool backward;
  double power;
};
constexpr SearchPlan kSearches[kNavmeshMaxSearches] = {{false, 1}, {true, 2}, {false, 2}, {true, 3}};

// A coordinate Detour gave as a float put back on the voxel lattice when it lies within
// float rounding of it (polygon corners are whole voxels).
double on_lattice(double v, double voxel) {
  const double k = std::round(v / voxel) * voxel;
  const double tolerance = std::min(0.25 * voxel, std::max(1e-3 * voxel, 8.0 * std::abs(v) * FLT_EPSILON));
  return std::abs(k - v) <= tolerance ? k : v;
}

std::string describe_point(const char* what, Vec2 p) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "%s (%.6g, %.6g)", what, p.x, p.y);
  return buf;
}

// What a Found or NoPath answer read: the tiles it touched, the areas, the scale.
class NavmeshDependency final : public ResultDependency {
 public:
  NavmeshDependency(const PlanningWorld& world, std::size_t movement_class, std::vector<CellRect> rects,
                    double min_multiplier, std::vector<NavmeshArea> areas, bool exact)
      : world_(world),
        class_(movement_class),
        rects_(std::move(rects)),
        min_multiplier_(min_multiplier),
        areas_(std::move(areas)),
        exact_(exact) {}

  bool still_valid(const WorldChange& change) const override {
    if (change.rebuilt || class_ >= world_.class_count()) return false;
    if (change.cells.empty()) return true;
    if (!exact_) return false;
    const CostGrid& grid = world_.grid(class_);
    if (grid.min_multiplier() != min_multiplier_) return false;
    for (const CellRect& r : rects_) {
      if (!r.intersected(change.cells).empty()) return false;
    }
    // A new pair of cost and group anywhere changes the table of areas (and may merge
    // areas past 62 pairs): the answer is kept only when every changed cell's pair exists.
    const CellRect c = change.cells.intersected(CellRect{0, 0, grid.width(), grid.height()});
    for (int y = c.y0; y < c.y1; ++y) {
      for (int x = c.x0; x < c.x1; ++x) {
        const std::uint32_t i = grid.index(x, y);
        if (!grid.passable(i)) continue;
        const double m = grid.multiplier(i);
        const std::uint16_t key = grid.move_key(i);
        const bool known = std::any_of(areas_.begin() + 1, areas_.end(), [&](const NavmeshArea& a) {
          return a.multiplier == m && a.key == key;
        });
        if (!known) return false;
      }
    }
    return true;
  }

 private:
  const PlanningWorld& world_;
  std::size_t class_;
  std::vector<CellRect> rects_;
  double min_multiplier_;
  std::vector<NavmeshArea> areas_;
  bool exact_;
};

}  // namespace

void NavmeshPlanner::QueryDeleter::operator()(dtNavMeshQuery* q) const { dtFreeNavMeshQuery(q); }

NavmeshPlanner::NavmeshPlanner(const PlanningWorld& world, std::size_t movement_class,
                               NavmeshPlannerParams params, std::string name)
    : PlannerBase(std::move(name)),
      world_(world),
      class_(movement_class),
      params_(params),
      query_(dtAllocNavMeshQuery()),
      filter_(std::make_unique<dtQueryFilter>()) {
  params_.searches = std::clamp(params_.searches, 1, kNavmeshMaxSearches);
}

NavmeshPlanner::NavmeshPlanner(const PlanningWorld& world, std::size_t movement_class, NavmeshParams params,
                               std::string name)
    : NavmeshPlanner(world, movement_class, NavmeshPlannerParams{params}, std::move(name)) {}

NavmeshPlanner::~NavmeshPlanner() = default;

std::size_t NavmeshPlanner::node_count() const { return mesh().node_count(); }

Vec2 NavmeshPlanner::node_position(NodeId node) const { return mesh().centroid(node); }

NodeGeometry NavmeshPlanner::node_geometry(NodeId node) const {
  const Navmesh& m = mesh();
  const std::span<const Vec2> poly = m.polygon(node);
  if (poly.empty()) return Planner::node_geometry(node);
  Box2 box = Box2::of(poly.front());
  for (const Vec2& v : poly) box = box.united(Box2::of(v));
  return NodeGeometry{NodeShape::Polygon, m.centroid(node), box, poly};
}

NodeId NavmeshPlanner::node_at(Vec2 point, double tolerance) const {
  (void)tolerance;
  return mesh().polygon_at(point);
}

SearchStatus NavmeshPlanner::fail(SearchStatus status, std::string message) {
  searching_ = false;
  return PlannerBase::fail(status, std::move(message));
}

void NavmeshPlanner::nearest_clear_poly(const CostGrid& grid, std::uint16_t key, Vec2 point,
                                        const float* centre, const float* extents,
                                        const dtQueryFilter& filter, std::uint32_t& ref,
                                        float* nearest) const {
  ref = 0;
  constexpr int kMaxPolys = 256;
  dtPolyRef polys[kMaxPolys];
  int count = 0;
  query_->queryPolygons(centre, extents, &filter, polys, &count, kMaxPolys);
  double best = std::numeric_limits<double>::infinity();
  for (int i = 0; i < count; ++i) {
    float closest[3];
    if (dtStatusFailed(query_->closestPointOnPoly(polys[i], centre, closest, nullptr))) continue;
    const Vec2 c{double(closest[0]), double(closest[2])};
    const double d = std::hypot(c.x - point.x, c.y - point.y);
    // Detour's order on ties: the first polygon found.
    if (d >= best) continue;
    if (d > 0 && (!segment_keeps_clearance(grid, point, c, mesh_->radius()) ||
                  !segment_stays_in_group(grid, point, c, key)))
      continue;
    best = d;
    ref = polys[i];
    std::copy(closest, closest + 3, nearest);
  }
}

SearchStatus NavmeshPlanner::start(const PathQuery& query) {
  query_points_ = query;
  result_ = PathResult{};
  corridor_.clear();
  searching_ = false;
  start_ref_ = goal_ref_ = 0;
  open_.clear();
  search_ = 0;
  best_points_.clear();
  best_corridor_.clear();
  best_cost_ = 0;
  earlier_nodes_.clear();
  touched_tiles_.clear();
  if (observer_) observer_->on_start(query);
  mesh_ = &mesh();
  revision_ = world_.revision();
  if (!mesh_->ok()) return fail(SearchStatus::Invalid, mesh_->error().to_string());
  result_.stats.extra = {{"polygons", double(mesh_->polygon_count())},
                         {"tiles", double(mesh_->tiles_x() * mesh_->tiles_y())}};
  if (!query_ || dtStatusFailed(query_->init(&mesh_->mesh(), kMaxNodes))) {
    return fail(SearchStatus::Invalid, "Detour could not make its path query");
  }
  // Every group at first (the costs are each search's, begin_search).
  *filter_ = dtQueryFilter{};
  const std::vector<NavmeshArea>& areas = mesh_->areas();
  touched_tiles_.assign(std::size_t(mesh_->tiles_x() * mesh_->tiles_y()), 0);

  const CostGrid& grid = world_.grid(class_);
  const std::string& class_name = world_.scenario().classes[class_].name;
  const Vec2 points[2] = {query.start, query.goal};
  const char* names[2] = {"start", "goal"};
  Vec2 on_mesh[2];
  std::uint32_t refs[2] = {0, 0};
  std::uint16_t key = 0;  // the start's terrain group (move key)
  for (int k = 0; k < 2; ++k) {
    const std::optional<std::uint32_t> cell = grid.cell_at(points[k]);
    if (!cell)
      return fail(SearchStatus::Invalid, describe_point(names[k], points[k]) + " is outside the map");
    if (!grid.passable(*cell)) {
      const TerrainType& t = world_.scenario().terrains[world_.raster().terrain(*cell)];
      return fail(SearchStatus::Invalid, describe_point(names[k], points[k]) + " is inside terrain \"" +
                                             t.name + "\", which class \"" + class_name + "\" cannot enter");
    }
    // Start and goal in one terrain group (an amphibious class's grid has one), and only
    // that group's polygons: a point is never taken to a polygon of another group, nor
    // across a cell of one.
    if (k == 0) {
      key = grid.move_key(*cell);
      unsigned short flags = 0;
      for (std::size_t a = 1; a < areas.size(); ++a) {
        if (areas[a].key == key) flags = areas[a].flag;
      }
      filter_->setIncludeFlags(flags);
    } else if (grid.move_key(*cell) != key) {
      return fail(SearchStatus::NoPath, describe_point("goal", points[k]) +
                                            " is in another terrain group than the start (class \"" +
                                            class_name + "\" cannot cross between them)");
    }
    // A point nearer a wall than the mesh's radius: no path from it keeps the radius.
    if (!segment_keeps_clearance(grid, points[k], points[k], mesh_->radius())) {
      char buf[96];
      std::snprintf(buf, sizeof buf,
                    " is nearer than %.6g m (the navmesh's radius) to a wall or the map's edge",
                    mesh_->radius());
      return fail(SearchStatus::Invalid, describe_point(names[k], points[k]) + buf);
    }
    // The nearest polygon within the radius and a voxel and a half whose nearest point
    // the straight leg from the query point reaches keeping the radius (a point keeping
    // the radius but off the mesh's voxels is taken to the mesh's edge).
    const float reach = float(mesh_->radius() + 1.5 * mesh_->voxel_size());
    const float centre[3] = {float(points[k].x), 0.0f, float(points[k].y)};
    const float extents[3] = {reach, 1.0f, reach};
    float nearest[3] = {0, 0, 0};
    dtPolyRef ref = 0;
    nearest_clear_poly(grid, key, points[k], centre, extents, *filter_, ref, nearest);
    if (ref == 0) {
      return fail(SearchStatus::Invalid,
                  describe_point(names[k], points[k]) + " is off the navmesh of class \"" + class_name +
                      "\": no polygon within " + std::to_string(reach) + " m reached keeping its radius");
    }
    refs[k] = ref;
    on_mesh[k] = Vec2{double(nearest[0]), double(nearest[2])};
    // Snapping moved a point inside its polygon by float rounding only: keep ours.
    if (std::hypot(on_mesh[k].x - points[k].x, on_mesh[k].y - points[k].y) < 1e-4 * mesh_->voxel_size())
      on_mesh[k] = points[k];
  }
  start_ref_ = refs[0];
  goal_ref_ = refs[1];
  key_ = key;
  start_on_mesh_ = on_mesh[0];
  goal_on_mesh_ = on_mesh[1];
  begin_search();
  return result_.status;
}

void NavmeshPlanner::begin_search() {
  // Each area's multiplier over the smallest (Detour's costs), to the search's power.
  const std::vector<NavmeshArea>& areas = mesh_->areas();
  for (std::size_t a = 1; a < areas.size(); ++a) {
    const double ratio = areas[a].multiplier / mesh_->min_multiplier();
    filter_->setAreaCost(int(a), float(std::pow(ratio, kSearches[search_].power)));
  }
  const float s[3] = {float(start_on_mesh_.x), 0.0f, float(start_on_mesh_.y)};
  const float g[3] = {float(goal_on_mesh_.x), 0.0f, float(goal_on_mesh_.y)};
  const dtStatus st = kSearches[search_].backward
                          ? query_->initSlicedFindPath(goal_ref_, start_ref_, g, s, filter_.get(), 0)
                          : query_->initSlicedFindPath(start_ref_, goal_ref_, s, g, filter_.get(), 0);
  if (dtStatusFailed(st)) {
    // A later search refused (it never is: the same polygons and flags) leaves the path found.
    if (search_ > 0) {
      publish();
    } else {
      fail(SearchStatus::Invalid, "Detour refused the query");
    }
    return;
  }
  searching_ = true;
  result_.status = SearchStatus::Running;
  open_.clear();
  if (observer_) {
    // The start's node: initSlicedFindPath opens it.
    const dtNodePool* pool = query_->getNodePool();
    seen_total_.assign(std::size_t(kMaxNodes) + 1, 0);
    seen_open_.assign(std::size_t(kMaxNodes) + 1, 0);
    for (int i = 1; i <= pool->getNodeCount(); ++i) {
      const dtNode* n = pool->getNodeAtIdx(unsigned(i));
      seen_total_[std::size_t(i)] = n->total;
      seen_open_[std::size_t(i)] = (n->flags & DT_NODE_OPEN) ? 1 : 0;
      if (seen_open_[std::size_t(i)]) open_.push_back(unsigned(i));
      const auto [g_cost, h_cost] = node_costs(unsigned(i));
      observer_->on_event(
          SearchEvent{SearchEventKind::Push, 0, mesh_->node_of(n->id), kNoNode, g_cost, h_cost});
    }
  }
  if (dtStatusSucceed(st)) end_search();  // start and goal on one polygon
}

int NavmeshPlanner::traced_iteration() {
  dtNodePool* pool = query_->getNodePool();
  const int before = pool->getNodeCount();
  int done = 0;
  const dtStatus st = query_->updateSlicedFindPath(1, &done);
  (void)st;
  if (done == 0) return 0;
  const auto node_id = [&](const dtNode* n) { return mesh_->node_of(n->id); };
  const auto parent_id = [&](const dtNode* n) {
    const dtNode* p = pool->getNodeAtIdx(n->pidx);
    return p ? node_id(p) : kNoNode;
  };
  const auto emit = [&](SearchEventKind kind, const dtNode* n) {
    const auto [g_cost, h_cost] = node_costs(pool->getNodeIdx(n));
    observer_->on_event(SearchEvent{kind, 0, node_id(n), parent_id(n), g_cost, h_cost});
  };
  // The node that left the open set was expanded.
  const dtNode* expanded = nullptr;
  for (std::size_t k = 0; k < open_.size(); ++k) {
    const dtNode* n = pool->getNodeAtIdx(open_[k]);
    if (!(n->flags & DT_NODE_OPEN)) {
      expanded = n;
      seen_open_[open_[k]] = 0;
      open_.erase(open_.begin() + std::ptrdiff_t(k));
      break;
    }
  }
  if (expanded) emit(SearchEventKind::Expand, expanded);
  // Neighbours improved (they already had nodes).
  if (expanded) {
    const dtMeshTile* tile = nullptr;
    const dtPoly* poly = nullptr;
    mesh_->mesh().getTileAndPolyByRef(expanded->id, &tile, &poly);
    for (unsigned l = poly->firstLink; l != DT_NULL_LINK; l = tile->links[l].next) {
      dtNode* found[4];
      const unsigned count = pool->findNodes(tile->links[l].ref, found, 4);
      for (unsigned k = 0; k < count; ++k) {
        const unsigned idx = pool->getNodeIdx(found[k]);
        if (int(idx) > before || found[k]->total >= seen_total_[idx]) continue;
        seen_total_[idx] = found[k]->total;
        emit(SearchEventKind::Relax, found[k]);
        if ((found[k]->flags & DT_NODE_OPEN) && !seen_open_[idx]) {
          seen_open_[idx] = 1;
          open_.push_back(idx);
        }
      }
    }
  }
  // New nodes.
  for (int i = before + 1; i <= pool->getNodeCount(); ++i) {
    const dtNode* n = pool->getNodeAtIdx(unsigned(i));
    seen_total_[std::size_t(i)] = n->total;
    emit(SearchEventKind::Push, n);
    if (n->flags & DT_NODE_OPEN) {
      seen_open_[std::size_t(i)] = 1;
      open_.push_back(unsigned(i));
    }
  }
  return done;
}

SearchStatus NavmeshPlanner::step(std::uint64_t max_expansions) {
  if (!searching_) return result_.status;
  ++result_.stats.steps;
  std::uint64_t left = max_expansions;
  // A search that ends within the budget hands what is left to the next one.
  while (searching_ && left > 0) {
    const int budget = int(std::min<std::uint64_t>(left, INT_MAX));
    int done = 0;
    if (observer_) {
      for (int i = 0; i < budget && dtStatusInProgress(query_->updateSlicedFindPath(0, nullptr)); ++i) {
        const int d = traced_iteration();
        done += d;
        if (d == 0) break;
      }
    } else {
      query_->updateSlicedFindPath(budget, &done);
    }
    done = std::max(done, 0);
    result_.stats.expansions += std::uint64_t(done);
    left -= std::min<std::uint64_t>(left, std::uint64_t(done));
    const dtStatus st = query_->updateSlicedFindPath(0, nullptr);
    if (dtStatusFailed(st)) return fail(SearchStatus::Invalid, "Detour's search failed");
    if (dtStatusInProgress(st)) break;
    end_search();
  }
  return result_.status;
}

void NavmeshPlanner::mark_pool_tiles(std::vector<std::uint8_t>& tiles) const {
  const dtNodePool* pool = query_->getNodePool();
  const dtNavMesh& nav = mesh_->mesh();
  for (int i = 1; i <= pool->getNodeCount(); ++i) {
    const dtMeshTile* tile = nullptr;
    const dtPoly* poly = nullptr;
    if (dtStatusFailed(nav.getTileAndPolyByRef(pool->getNodeAtIdx(unsigned(i))->id, &tile, &poly))) continue;
    tiles[std::size_t(tile->header->y * mesh_->tiles_x() + tile->header->x)] = 1;
  }
}

std::pair<double, double> NavmeshPlanner::node_costs(unsigned idx, std::vector<double>* memo) const {
  const dtNodePool* pool = query_->getNodePool();
  const dtNavMesh& nav = mesh_->mesh();
  const bool backward = kSearches[search_].backward;
  const dtPolyRef end_ref = backward ? start_ref_ : goal_ref_;
  const Vec2 end_point = backward ? start_on_mesh_ : goal_on_mesh_;
  const float end[3] = {float(end_point.x), 0.0f, float(end_point.y)};  // Detour's, a float
  const auto multiplier = [&](dtPolyRef ref) {
    const dtMeshTile* tile = nullptr;
    const dtPoly* poly = nullptr;
    if (dtStatusFailed(nav.getTileAndPolyByRef(ref, &tile, &poly))) return mesh_->min_multiplier();
    return mesh_->areas()[std::min<std::size_t>(poly->getArea(), mesh_->areas().size() - 1)].multiplier;
  };
  // In the plane: Recast's polygons lie a little above the ground (height 0) that the
  // query points are on, and Detour's 3D distances count that step; the world is flat.
  const auto leg = [](const float* a, const float* b) {
    const double dx = double(b[0]) - double(a[0]), dz = double(b[2]) - double(a[2]);
    return std::sqrt(dx * dx + dz * dz);
  };
  // The parents up to the search's first node (pidx 0), or to one whose g `memo` holds;
  // bounded by the pool's size, as a parent chain is.
  std::vector<unsigned> chain;
  double g = 0;
  for (unsigned i = idx; i != 0 && chain.size() <= std::size_t(pool->getNodeCount());) {
    if (memo && !std::isnan((*memo)[i])) {
      g = (*memo)[i];
      break;
    }
    chain.push_back(i);
    i = pool->getNodeAtIdx(i)->pidx;
  }
  // Summed from the origin, leg by leg, as Detour sums its cost.
  for (std::size_t k = chain.size(); k-- > 0;) {
    const dtNode* n = pool->getNodeAtIdx(chain[k]);
    if (n->pidx != 0) {
      const dtNode* p = pool->getNodeAtIdx(n->pidx);
      g += leg(p->pos, n->pos) * multiplier(p->id);
    }
    if (memo) (*memo)[chain[k]] = g;
  }
  // The search's last polygon, reached from a parent, costs the leg to the end point too
  // (never a parent: reaching it ends the search), and its h is 0, as in Detour.
  const dtNode* n = pool->getNodeAtIdx(idx);
  if (n->pidx != 0 && n->id == end_ref) return {g + leg(n->pos, end) * multiplier(n->id), 0.0};
  return {g, leg(n->pos, end) * mesh_->min_multiplier()};
}

std::vector<NodeView> NavmeshPlanner::pool_views() const {
  const dtNodePool* pool = query_->getNodePool();
  std::vector<double> memo(std::size_t(pool->getNodeCount()) + 1, std::numeric_limits<double>::quiet_NaN());
  // A polygon's best node by the search's own total.
  std::map<NodeId, std::pair<float, NodeView>> best;
  for (int i = 1; i <= pool->getNodeCount(); ++i) {
    const dtNode* n = pool->getNodeAtIdx(unsigned(i));
    const dtNode* p = pool->getNodeAtIdx(n->pidx);
    NodeView v;
    v.node = mesh_->node_of(n->id);
    std::tie(v.g, v.h) = node_costs(unsigned(i), &memo);
    v.parent = p ? mesh_->node_of(p->id) : kNoNode;
    v.closed = (n->flags & DT_NODE_CLOSED) != 0;
    auto it = best.find(v.node);
    if (it == best.end() || n->total < it->second.first) best[v.node] = {n->total, v};
  }
  std::vector<NodeView> out;
  out.reserve(best.size());
  for (const auto& [node, entry] : best) out.push_back(entry.second);
  return out;
}

void NavmeshPlanner::end_search() {
  searching_ = false;
  // Detour's corridor, in a buffer kept across searches (65,535 references).
  std::vector<dtPolyRef>& buffer = corridor_buffer_;
  buffer.resize(std::size_t{kMaxNodes});
  int count = 0;
  // Detour's finalize reverses the parent links along the path it returns (it walks them
  // back from the goal); the search's nodes keep their own, as the search and its trace
  // left them, for visit_nodes.
  dtNodePool* pool = query_->getNodePool();
  std::vector<std::pair<unsigned, unsigned>> links(std::size_t(pool->getNodeCount()) + 1);
  for (int i = 1; i <= pool->getNodeCount(); ++i) {
    const dtNode* n = pool->getNodeAtIdx(unsigned(i));
    links[std::size_t(i)] = {n->pidx, n->flags};
  }
  const dtStatus st = query_->finalizeSlicedFindPath(buffer.data(), &count, int(buffer.size()));
  for (int i = 1; i <= pool->getNodeCount() && std::size_t(i) < links.size(); ++i) {
    dtNode* n = pool->getNodeAtIdx(unsigned(i));
    n->pidx = links[std::size_t(i)].first;
    n->flags = links[std::size_t(i)].second;
  }
  result_.stats.pushes += std::uint64_t(pool->getNodeCount());
  // The tiles this search touched, for result_dependency.
  mark_pool_tiles(touched_tiles_);
  const dtNavMesh& nav = mesh_->mesh();
  // A later search that fails (it never should: the same polygons and flags as the first)
  // leaves the path found.
  if (search_ > 0 &&
      (dtStatusFailed(st) || count == 0 ||
       buffer[std::size_t(count) - 1] != (kSearches[search_].backward ? start_ref_ : goal_ref_))) {
    publish();
    return;
  }
  if (dtStatusFailed(st) || count == 0) {
    fail(SearchStatus::Invalid, "Detour's search returned no corridor");
    return;
  }
  std::vector<dtPolyRef> path(buffer.begin(), buffer.begin() + count);
  // A search from the goal: its corridor, start first.
  if (kSearches[search_].backward) std::reverse(path.begin(), path.end());
  if (path.back() != goal_ref_) {
    if (dtStatusDetail(st, DT_OUT_OF_NODES)) {
      fail(SearchStatus::Invalid, "Detour's search ran out of its 65,535 nodes before reaching the goal");
    } else {
      fail(SearchStatus::NoPath,
           describe_point("goal", query_points_.goal) + " cannot be reached from the start on the navmesh");
    }
    return;
  }
  const float s[3] = {float(start_on_mesh_.x), 0.0f, float(start_on_mesh_.y)};
  const float g[3] = {float(goal_on_mesh_.x), 0.0f, float(goal_on_mesh_.y)};
  const int max_points = 2 * count + 4;
  std::vector<float> straight(std::size_t(max_points) * 3);
  int points = 0;
  const dtStatus sp = query_->findStraightPath(s, g, path.data(), count, straight.data(), nullptr, nullptr,
                                               &points, max_points, 0);
  if (dtStatusFailed(sp) || points == 0) {
    if (search_ > 0) {
      publish();
    } else {
      fail(SearchStatus::Invalid, "Detour could not string-pull the corridor");
    }
    return;
  }
  std::vector<Vec2> out;
  if (start_on_mesh_ != query_points_.start) out.push_back(query_points_.start);
  // The points between the ends are polygon corners, which lie on the voxel lattice (Recast's
  // vertices are whole voxels): Detour's floats are put back on it, so that a corner of a
  // wall is the wall's corner and not a float's width inside it.
  const double voxel = mesh_->voxel_size();
  for (int i = 0; i < points; ++i) {
    Vec2 p{double(straight[std::size_t(3 * i)]), double(straight[std::size_t(3 * i + 2)])};
    if (i > 0 && i + 1 < points) p = Vec2{on_lattice(p.x, voxel), on_lattice(p.y, voxel)};
    if (out.empty() || out.back() != p) out.push_back(p);
  }
  // The exact query points at both ends (Detour's are floats).
  const auto with_ends = [&](std::vector<Vec2>& pts) {
    pts.front() = query_points_.start;
    if (goal_on_mesh_ != query_points_.goal) {
      pts.push_back(query_points_.goal);
    } else {
      pts.back() = query_points_.goal;
    }
    if (pts.size() == 1) pts.push_back(query_points_.goal);
  };
  with_ends(out);
  const CostGrid& grid = world_.grid(class_);
  // A corridor crossing a polygon dearer than the cheapest ground: its path weighing the
  // polygons' costs too, the cheaper of the two kept (Detour's on ties).
  bool dear = false;
  for (const dtPolyRef r : path) {
    const dtMeshTile* tile = nullptr;
    const dtPoly* poly = nullptr;
    if (dtStatusFailed(nav.getTileAndPolyByRef(r, &tile, &poly))) continue;
    const std::size_t area = std::min<std::size_t>(poly->getArea(), mesh_->areas().size() - 1);
    if (mesh_->areas()[area].multiplier > mesh_->min_multiplier()) dear = true;
  }
  double cost = polyline_cost(grid, out);
  if (dear && params_.weighted_pull) {
    std::vector<Vec2> weighted = weighted_string_pull(path);
    if (!weighted.empty()) {
      if (start_on_mesh_ != query_points_.start) weighted.insert(weighted.begin(), query_points_.start);
      with_ends(weighted);
      const double c = polyline_cost(grid, weighted);
      if (c < cost) {
        cost = c;
        out = std::move(weighted);
      }
    }
  }
  if (search_ == 0 || cost < best_cost_) {
    best_points_ = std::move(out);
    best_corridor_.assign(path.begin(), path.end());
    best_cost_ = cost;
    best_dear_ = dear;
  }
  // The next search while the cheapest corridor so far crosses a polygon dearer than the
  // cheapest ground.
  if (best_dear_ && start_ref_ != goal_ref_ && search_ + 1 < params_.searches) {
    earlier_nodes_ = merge_node_views(earlier_nodes_, pool_views());
    ++search_;
    begin_search();
    return;
  }
  publish();
}

std::vector<Vec2> NavmeshPlanner::weighted_string_pull(const std::vector<std::uint32_t>& path) const {
  const dtNavMesh& nav = mesh_->mesh();
  const double voxel = mesh_->voxel_size();
  const std::size_t n = path.size();
  // Each polygon's multiplier, and the portal between it and the next (Detour's portal:
  // the shared edge, or its part a link across a tile border names).
  std::vector<double> cost(n);
  std::vector<std::array<Vec2, 2>> portal(n - 1);
  for (std::size_t i = 0; i < n; ++i) {
    const dtMeshTile* tile = nullptr;
    const dtPoly* poly = nullptr;
    if (dtStatusFailed(nav.getTileAndPolyByRef(path[i], &tile, &poly))) return {};
    cost[i] = mesh_->areas()[std::min<std::size_t>(poly->getArea(), mesh_->areas().size() - 1)].multiplier;
    if (i + 1 == n) break;
    bool found = false;
    for (unsigned l = poly->firstLink; l != DT_NULL_LINK; l = tile->links[l].next) {
      const dtLink& link = tile->links[l];
      if (link.ref != path[i + 1]) continue;
      const float* va = &tile->verts[std::size_t(poly->verts[link.edge]) * 3];
      const float* vb = &tile->verts[std::size_t(poly->verts[(link.edge + 1u) % poly->vertCount]) * 3];
      Vec2 a{on_lattice(double(va[0]), voxel), on_lattice(double(va[2]), voxel)};
      Vec2 b{on_lattice(double(vb[0]), voxel), on_lattice(double(vb[2]), voxel)};
      if (link.side != 0xff && (link.bmin != 0 || link.bmax != 255)) {
        const double t0 = link.bmin / 255.0, t1 = link.bmax / 255.0;
        const Vec2 d{b.x - a.x, b.y - a.y};
        const Vec2 a2{a.x + d.x * t0, a.y + d.y * t0};
        b = Vec2{a.x + d.x * t1, a.y + d.y * t1};
        a = a2;
      }
      portal[i] = {a, b};
      found = true;
      break;
    }
    if (!found) return {};
  }
  // Dynamic programming over points on the portals: layer 0 the start, layer i + 1 points
  // of portal i (its ends and up to 15 between, at least a voxel apart), the goal last; a
  // leg between layers lies in one convex polygon and costs its length times the
  // polygon's multiplier.
  constexpr int kMaxIntervals = 16;
  std::vector<std::vector<Vec2>> layer(n + 1);
  layer[0] = {start_on_mesh_};
  for (std::size_t i = 0; i + 1 < n; ++i) {
    const auto [a, b] = portal[i];
    const double len = std::hypot(b.x - a.x, b.y - a.y);
    const int k = std::clamp(int(std::floor(len / voxel)), 1, kMaxIntervals);
    for (int j = 0; j <= k; ++j) {
      const double t = double(j) / k;
      layer[i + 1].push_back(j == k ? b : Vec2{a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t});
    }
  }
  layer[n] = {goal_on_mesh_};
  std::vector<std::vector<double>> best(n + 1);
  std::vector<std::vector<int>> from(n + 1);
  best[0] = {0.0};
  from[0] = {-1};
  for (std::size_t i = 1; i <= n; ++i) {
    best[i].assign(layer[i].size(), std::numeric_limits<double>::infinity());
    from[i].assign(layer[i].size(), -1);
    for (std::size_t q = 0; q < layer[i].size(); ++q) {
      const Vec2 b = layer[i][q];
      for (std::size_t p = 0; p < layer[i - 1].size(); ++p) {
        const Vec2 a = layer[i - 1][p];
        const double dx = b.x - a.x, dy = b.y - a.y;
        const double c = best[i - 1][p] + std::sqrt(dx * dx + dy * dy) * cost[i - 1];
        if (c < best[i][q]) {  // the first on ties
          best[i][q] = c;
          from[i][q] = int(p);
        }
      }
    }
  }
  std::vector<Vec2> pts(n + 1);
  int at = 0;
  for (std::size_t i = n + 1; i-- > 0;) {
    pts[i] = layer[i][std::size_t(at)];
    at = from[i][std::size_t(at)];
  }
  pts.erase(std::unique(pts.begin(), pts.end()), pts.end());
  // Legs merged: from each kept point, the farthest point the straight leg reaches keeping
  // the radius and the group, costing no more than the points between.
  const CostGrid& grid = world_.grid(class_);
  std::vector<Vec2> out{pts.front()};
  std::size_t anchor = 0;
  while (anchor + 1 < pts.size()) {
    std::size_t reach = anchor + 1;
    double along = polyline_cost(grid, std::span<const Vec2>(&pts[anchor], 2));
    for (std::size_t j = anchor + 2; j < pts.size(); ++j) {
      along += polyline_cost(grid, std::span<const Vec2>(&pts[j - 1], 2));
      const Vec2 leg[2] = {pts[anchor], pts[j]};
      // (A clearance above 0 even at radius 0: a leg through the point where two blocked
      // cells touch would keep 0.)
      if (polyline_cost(grid, leg) > along ||
          !segment_keeps_clearance(grid, leg[0], leg[1], std::max(mesh_->radius(), 1e-6)) ||
          !segment_stays_in_group(grid, leg[0], leg[1], key_))
        break;
      reach = j;
    }
    out.push_back(pts[reach]);
    anchor = reach;
  }
  return out;
}

void NavmeshPlanner::publish() {
  searching_ = false;
  corridor_ = best_corridor_;
  result_.points = best_points_;
  result_.nodes.clear();
  for (const std::uint32_t r : corridor_) result_.nodes.push_back(mesh_->node_of(r));
  result_.length = polyline_length(result_.points);
  result_.cost = best_cost_;
  result_.stats.extra.push_back({"searches", double(search_ + 1)});
  result_.status = SearchStatus::Found;
  if (observer_) {
    for (std::size_t i = 0; i < result_.nodes.size(); ++i) {
      observer_->on_event(SearchEvent{SearchEventKind::Path, 0, result_.nodes[i],
                                      i == 0 ? kNoNode : result_.nodes[i - 1], 0, 0});
    }
    observer_->on_refine("straight path", result_.points);
  }
}

void NavmeshPlanner::visit_nodes(const std::function<void(const NodeView&)>& fn) const {
  if (!mesh_ || world_.revision() != revision_ || result_.status == SearchStatus::Idle || start_ref_ == 0)
    return;
  for (const NodeView& v : merge_node_views(earlier_nodes_, pool_views())) fn(v);
}

void NavmeshPlanner::visit_structure(const Box2& bounds, StructureVisitor& visitor) const {
  if (bounds.empty()) return;
  const Navmesh& m = mesh();
  if (!m.ok()) return;
  const dtNavMesh& nav = m.mesh();
  for (int t = 0; t < nav.getMaxTiles(); ++t) {
    const dtMeshTile* tile = nav.getTile(t);
    if (!tile || !tile->header) continue;
    const Box2 tile_box{{tile->header->bmin[0], tile->header->bmin[2]},
                        {tile->header->bmax[0], tile->header->bmax[2]}};
    if (!tile_box.overlaps(bounds)) continue;
    const dtPolyRef base = nav.getPolyRefBase(tile);
    for (int i = 0; i < tile->header->polyCount; ++i) {
      if (visitor.full()) return;
      const NodeId id = m.node_of(base | dtPolyRef(i));
      const NodeGeometry geo = node_geometry(id);
      if (!geo.bounds.overlaps(bounds)) continue;
      const dtPoly& poly = tile->polys[i];
      const double mult = m.areas()[std::min<std::size_t>(poly.getArea(), m.areas().size() - 1)].multiplier;
      visitor.cell(
          StructureCell{NodeShape::Polygon, geo.bounds, geo.polygon, mult, id, StructureRole::Structure});
      // Its detail triangles, on their own layer.
      for (const std::array<Vec2, 3>& tri : m.detail_triangles(id)) {
        if (visitor.full()) return;
        visitor.shape(StructureShape{StructureShape::Kind::Polygon, "detail triangle", tri, 0, 0,
                                     StructureRole::Detail});
      }
      for (unsigned l = poly.firstLink; l != DT_NULL_LINK; l = tile->links[l].next) {
        const dtLink& link = tile->links[l];
        const NodeId other = m.node_of(link.ref);
        if (other == kNoNode || other < id) continue;  // each pair once
        const std::span<const Vec2> pv = geo.polygon;
        const Vec2 edge[2] = {pv[link.edge], pv[(link.edge + 1u) % pv.size()]};
        if (visitor.full()) return;
        visitor.shape(
            StructureShape{StructureShape::Kind::Polyline, "portal", edge, 0, 0, StructureRole::Structure});
        if (visitor.full()) return;
        visitor.edge(StructureEdge{id, other, m.centroid(id), m.centroid(other), "portal", 0, false});
      }
    }
  }
}

void NavmeshPlanner::visit_path_structure(StructureVisitor& visitor) const {
  if (result_.status != SearchStatus::Found || world_.revision() != revision_ || !mesh_) return;
  for (std::size_t i = 0; i < result_.nodes.size(); ++i) {
    if (visitor.full()) return;
    const NodeGeometry geo = node_geometry(result_.nodes[i]);
    visitor.cell(StructureCell{NodeShape::Polygon, geo.bounds, geo.polygon, 0, result_.nodes[i],
                               StructureRole::Corridor});
  }
  for (std::size_t i = 0; i + 1 < corridor_.size(); ++i) {
    if (visitor.full()) return;
    const dtNavMesh& nav = mesh_->mesh();
    // The shared edge, from the link between the two polygons.
    const dtMeshTile* tile = nullptr;
    const dtPoly* poly = nullptr;
    if (dtStatusFailed(nav.getTileAndPolyByRef(corridor_[i], &tile, &poly))) continue;
    for (unsigned l = poly->firstLink; l != DT_NULL_LINK; l = tile->links[l].next) {
      if (tile->links[l].ref != corridor_[i + 1]) continue;
      const std::span<const Vec2> pv = mesh_->polygon(result_.nodes[i]);
      const Vec2 edge[2] = {pv[tile->links[l].edge], pv[(tile->links[l].edge + 1u) % pv.size()]};
      visitor.shape(
          StructureShape{StructureShape::Kind::Polyline, "portal", edge, 0, 0, StructureRole::Portal});
      break;
    }
  }
}

std::unique_ptr<ResultDependency> NavmeshPlanner::result_dependency() const {
  if (!mesh_ || world_.revision() != revision_ || searching_ ||
      (result_.status != SearchStatus::Found && result_.status != SearchStatus::NoPath) || start_ref_ == 0) {
    return nullptr;
  }
  // Every tile holding a touched polygon, and the grid's changes a tile's build reads.
  // The earlier searches' tiles, and the current one's.
  std::vector<std::uint8_t> touched = touched_tiles_;
  touched.resize(std::size_t(mesh_->tiles_x() * mesh_->tiles_y()), 0);
  mark_pool_tiles(touched);
  const dtNavMesh& nav = mesh_->mesh();
  // The polygons the answer stands on, searched or not (start and goal on one polygon
  // are answered without a search).
  for (const dtPolyRef ref : {dtPolyRef(start_ref_), dtPolyRef(goal_ref_)}) {
    const dtMeshTile* tile = nullptr;
    const dtPoly* poly = nullptr;
    if (ref == 0 || dtStatusFailed(nav.getTileAndPolyByRef(ref, &tile, &poly))) continue;
    touched[std::size_t(tile->header->y * mesh_->tiles_x() + tile->header->x)] = 1;
  }
  std::vector<CellRect> rects;
  for (int ty = 0; ty < mesh_->tiles_y(); ++ty) {
    for (int tx = 0; tx < mesh_->tiles_x(); ++tx) {
      if (!touched[std::size_t(ty * mesh_->tiles_x() + tx)]) continue;
      // Grown by a ring of tiles: a change along a touched tile's border may open links
      // into its neighbours, whose polygons the search would then reach.
      for (int dy = -1; dy <= 1; ++dy) {
        for (int dx = -1; dx <= 1; ++dx) {
          if (tx + dx < 0 || ty + dy < 0 || tx + dx >= mesh_->tiles_x() || ty + dy >= mesh_->tiles_y())
            continue;
          rects.push_back(mesh_->tile_input_cells(tx + dx, ty + dy));
        }
      }
    }
  }
  std::sort(rects.begin(), rects.end(),
            [](const CellRect& a, const CellRect& b) { return std::tie(a.y0, a.x0) < std::tie(b.y0, b.x0); });
  rects.erase(std::unique(rects.begin(), rects.end()), rects.end());
  return std::make_unique<NavmeshDependency>(world_, class_, std::move(rects), mesh_->min_multiplier(),
                                             mesh_->areas(), mesh_->exact_areas());
}

}  // namespace pathscope
