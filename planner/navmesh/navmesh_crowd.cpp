#include "planner/navmesh/navmesh_crowd.hpp"

#include <DetourCrowd.h>
#include <DetourNavMesh.h>
#include <DetourNavMeshQuery.h>

#include <algorithm>
#include <bit>
#include <cstdio>
#include <optional>
#include <string>

namespace pathscope {

namespace {

struct CrowdDeleter {
  void operator()(dtCrowd* c) const { dtFreeCrowd(c); }
};

// The point an order leads to: its last point (Move, Waypoints), none otherwise.
std::optional<Vec2> order_goal(const Order& order) {
  if ((order.kind == OrderKind::Move || order.kind == OrderKind::Waypoints) && !order.points.empty())
    return order.points.back();
  return std::nullopt;
}

std::string unit_name(const Unit& u) { return "unit " + std::to_string(u.id); }

}  // namespace

struct NavmeshCrowd::ClassCrowd {
  std::size_t movement_class = 0;
  const Navmesh* mesh = nullptr;
  std::unique_ptr<dtCrowd, CrowdDeleter> crowd;
  std::vector<std::size_t> agents;  // per crowd agent index: index into agents_
  std::vector<std::uint16_t> keys;  // per crowd agent index: its terrain group (move key)
  float extents[3] = {0, 0, 0};     // how far a target may be taken to the mesh
};

namespace {

// The crowd's query filter of terrain group `flag` (one bit): DetourCrowd keeps 16
// filters, one per group, each including only its group's polygons.
int filter_type(std::uint16_t flag) { return flag == 0 ? 0 : std::countr_zero(flag); }

// The polygon flag of move key `key` on `mesh`, 0 if no area has it.
std::uint16_t group_flag(const Navmesh& mesh, std::uint16_t key) {
  const std::vector<NavmeshArea>& areas = mesh.areas();
  for (std::size_t a = 1; a < areas.size(); ++a) {
    if (areas[a].key == key) return areas[a].flag;
  }
  return 0;
}

}  // namespace

bool NavmeshCrowd::target(ClassCrowd& cc, int idx, Vec2 goal) const {
  // A goal in another terrain group than the agent's is no target (the navmesh planner's
  // no_path): DetourCrowd would take it to the nearest polygon of the agent's group.
  const CostGrid& grid = world_.grid(cc.movement_class);
  const std::optional<std::uint32_t> cell = grid.cell_at(goal);
  const std::uint16_t key = cc.keys[std::size_t(idx)];
  if (!cell || !grid.passable(*cell) || grid.move_key(*cell) != key) {
    cc.crowd->resetMoveTarget(idx);
    return false;
  }
  const dtQueryFilter* filter = cc.crowd->getFilter(cc.crowd->getAgent(idx)->params.queryFilterType);
  const float at[3] = {float(goal.x), 0.0f, float(goal.y)};
  dtPolyRef ref = 0;
  float nearest[3] = {0, 0, 0};
  cc.crowd->getNavMeshQuery()->findNearestPoly(at, cc.extents, filter, &ref, nearest);
  if (ref == 0 || !cc.crowd->requestMoveTarget(idx, ref, nearest)) {
    cc.crowd->resetMoveTarget(idx);
    return false;
  }
  return true;
}

Result<std::unique_ptr<NavmeshCrowd>> NavmeshCrowd::create(const PlanningWorld& world,
                                                           const CrowdSettings& settings) {
  const Scenario& s = world.scenario();
  std::unique_ptr<NavmeshCrowd> out(new NavmeshCrowd(world));
  // A unit's goal: its own order's, else its group's.
  std::vector<std::optional<Vec2>> goals(s.units.size());
  for (std::size_t i = 0; i < s.units.size(); ++i) goals[i] = order_goal(s.units[i].order);
  for (const UnitGroup& g : s.groups) {
    const std::optional<Vec2> goal = order_goal(g.order);
    if (!goal) continue;
    for (std::size_t i = 0; i < s.units.size(); ++i) {
      if (std::find(g.units.begin(), g.units.end(), s.units[i].id) != g.units.end()) goals[i] = goal;
    }
  }
  const int quality = std::clamp(settings.avoidance_quality, 0, 3);
  for (std::size_t c = 0; c < s.classes.size(); ++c) {
    std::vector<std::size_t> members;
    for (std::size_t i = 0; i < s.units.size(); ++i) {
      if (s.units[i].movement_class == c) members.push_back(i);
    }
    if (members.empty()) continue;
    const MovementClass& mc = s.classes[c];
    const Navmesh& mesh = Navmesh::of(world, c, settings.mesh);
    if (!mesh.ok()) {
      return make_error(ErrorCode::Limit, "crowd", "class \"" + mc.name + "\": " + mesh.error().to_string());
    }
    auto cc = std::make_unique<ClassCrowd>();
    cc->movement_class = c;
    cc->mesh = &mesh;
    cc->crowd.reset(dtAllocCrowd());
    const double radius = mc.hard_radius.value_or(mc.radius);
    // DetourCrowd only reads the mesh (its queries are const); init takes it mutable.
    if (!cc->crowd ||
        !cc->crowd->init(int(members.size()), float(radius), const_cast<dtNavMesh*>(&mesh.mesh()))) {
      return make_error(ErrorCode::Limit, "crowd",
                        "class \"" + mc.name + "\": DetourCrowd could not start (" +
                            std::to_string(members.size()) + " agents)");
    }
    // Obstacle avoidance: DetourCrowd's adaptive sampling, coarse to fine.
    dtObstacleAvoidanceParams oa = *cc->crowd->getObstacleAvoidanceParams(0);
    constexpr unsigned char kDivs[4] = {5, 5, 7, 7}, kRings[4] = {2, 2, 2, 3}, kDepth[4] = {1, 2, 3, 3};
    oa.velBias = 0.5f;
    oa.adaptiveDivs = kDivs[quality];
    oa.adaptiveRings = kRings[quality];
    oa.adaptiveDepth = kDepth[quality];
    cc->crowd->setObstacleAvoidanceParams(0, &oa);
    // Costs per area, as the navmesh planner weighs them; one filter per terrain group
    // (its flag's bit), including only that group's polygons, so that an agent is never
    // placed on, steered onto nor routed across another group's polygons (land and water
    // polygons share the shore).
    const std::vector<NavmeshArea>& areas = mesh.areas();
    for (std::size_t a = 1; a < areas.size(); ++a) {
      dtQueryFilter* filter = cc->crowd->getEditableFilter(filter_type(areas[a].flag));
      filter->setIncludeFlags(areas[a].flag);
      for (std::size_t b = 1; b < areas.size(); ++b)
        filter->setAreaCost(int(b), float(areas[b].multiplier / mesh.min_multiplier()));
    }
    dtCrowdAgentParams ap{};
    ap.radius = float(radius);
    ap.height = 2.0f;
    ap.maxSpeed = float(mc.speed);
    ap.maxAcceleration = float(mc.acceleration.value_or(2 * mc.speed));
    ap.collisionQueryRange = float(radius * 12);
    ap.pathOptimizationRange = float(radius * 30);
    ap.separationWeight = float(settings.separation_weight);
    ap.updateFlags = DT_CROWD_ANTICIPATE_TURNS | DT_CROWD_OPTIMIZE_VIS | DT_CROWD_OPTIMIZE_TOPO |
                     DT_CROWD_OBSTACLE_AVOIDANCE | DT_CROWD_SEPARATION;
    ap.obstacleAvoidanceType = 0;
    const float reach = float(mesh.radius() + 1.5 * mesh.voxel_size());
    cc->extents[0] = cc->extents[2] = reach;
    cc->extents[1] = 1.0f;
    const CostGrid& grid = world.grid(c);
    for (const std::size_t i : members) {
      const Unit& u = s.units[i];
      char at[64];
      std::snprintf(at, sizeof at, " at (%.6g, %.6g)", u.position.x, u.position.y);
      const std::optional<std::uint32_t> cell = grid.cell_at(u.position);
      if (!cell || !grid.passable(*cell)) {
        return make_error(ErrorCode::Query, "crowd",
                          unit_name(u) + at + " stands where class \"" + mc.name + "\" cannot (" +
                              (cell ? "a blocked cell" : "outside the map") + ")");
      }
      const float pos[3] = {float(u.position.x), 0.0f, float(u.position.y)};
      const std::uint16_t key = grid.move_key(*cell);
      ap.queryFilterType = static_cast<unsigned char>(filter_type(group_flag(mesh, key)));
      const int idx = cc->crowd->addAgent(pos, &ap);
      if (idx < 0)
        return make_error(ErrorCode::Limit, "crowd", unit_name(u) + ": DetourCrowd has no room for it");
      const dtCrowdAgent* agent = cc->crowd->getAgent(idx);
      if (agent->state == DT_CROWDAGENT_STATE_INVALID || agent->corridor.getFirstPoly() == 0) {
        return make_error(ErrorCode::Query, "crowd",
                          unit_name(u) + at + " stands off the navmesh of class \"" + mc.name + "\"");
      }
      if (std::size_t(idx) >= cc->agents.size()) {
        cc->agents.resize(std::size_t(idx) + 1);
        cc->keys.resize(std::size_t(idx) + 1);
      }
      cc->agents[std::size_t(idx)] = i;
      cc->keys[std::size_t(idx)] = key;
      // Its target, on its group's polygons; the agents are listed below, whether it took or not.
      if (goals[i]) (void)out->target(*cc, idx, *goals[i]);
    }
    out->crowds_.push_back(std::move(cc));
  }
  // Agents in the scenario's unit order.
  out->agents_.resize(s.units.size());
  out->where_.resize(s.units.size());
  for (std::size_t k = 0; k < out->crowds_.size(); ++k) {
    const auto& cc = out->crowds_[k];
    for (std::size_t idx = 0; idx < cc->agents.size(); ++idx) {
      const std::size_t i = cc->agents[idx];
      out->where_[i] = {k, int(idx)};
      const dtCrowdAgent* agent = cc->crowd->getAgent(int(idx));
      CrowdAgent& a = out->agents_[i];
      a.unit = i;
      a.movement_class = cc->movement_class;
      const MovementClass& mc = s.classes[cc->movement_class];
      a.radius = mc.hard_radius.value_or(mc.radius);
      a.position = a.previous = Vec2{double(agent->npos[0]), double(agent->npos[2])};
      const std::optional<Vec2> goal = goals[i];
      a.has_goal = goal.has_value() && agent->targetState != DT_CROWDAGENT_TARGET_NONE &&
                   agent->targetState != DT_CROWDAGENT_TARGET_FAILED;
      if (a.has_goal) a.goal = *goal;
    }
  }
  return out;
}

NavmeshCrowd::NavmeshCrowd(const PlanningWorld& world) : world_(world) {}
NavmeshCrowd::~NavmeshCrowd() = default;

void NavmeshCrowd::step(double dt) {
  for (const auto& cc : crowds_) {
    cc->crowd->update(float(dt), nullptr);
    for (std::size_t idx = 0; idx < cc->agents.size(); ++idx) {
      const dtCrowdAgent* agent = cc->crowd->getAgent(int(idx));
      CrowdAgent& a = agents_[cc->agents[idx]];
      a.previous = a.position;
      a.position = Vec2{double(agent->npos[0]), double(agent->npos[2])};
    }
  }
  ++steps_;
}

bool NavmeshCrowd::move_to(std::size_t unit, Vec2 goal) {
  if (unit >= agents_.size()) return false;
  const auto [k, idx] = where_[unit];
  CrowdAgent& a = agents_[unit];
  a.has_goal = target(*crowds_[k], idx, goal);
  a.goal = a.has_goal ? goal : Vec2{0, 0};
  return a.has_goal;
}

}  // namespace pathscope
