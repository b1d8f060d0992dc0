#include "host/backends/detour_backend.h"

#include "cuda/kernels/fault_guard.h"
#include "host/navmesh/navmesh.h"
#include "host/navmesh/nearest_polygon.h"
#include "host/navmesh/query_filter_check.h"

#include <DetourCommon.h>
#include <DetourCrowd.h>
#include <DetourNavMesh.h>
#include <DetourNavMeshQuery.h>
#include <DetourNode.h>
#include <DetourObstacleAvoidance.h>
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace crowd {
namespace {

// RecastDemo's crowd tool flags (RecastDemo/Source/Tool_Crowd.cpp, CrowdToolState::addAgent
// with every option of the tool's panel on).
constexpr unsigned char kUpdateFlags = DT_CROWD_ANTICIPATE_TURNS | DT_CROWD_OPTIMIZE_VIS |
                                       DT_CROWD_OPTIMIZE_TOPO | DT_CROWD_OBSTACLE_AVOIDANCE |
                                       DT_CROWD_SEPARATION;

// Corridor capacity and node pools that dtCrowd::init allocates (DetourCrowd.cpp:
// m_maxPathResult = 256, MAX_PATHQUEUE_NODES = 4096, MAX_COMMON_NODES = 512), used only for
// the memory estimate.
constexpr std::size_t kCorridorPolys = 256;
constexpr std::size_t kPathQueueNodes = 4096;
constexpr std::size_t kCommonNodes = 512;

/// Whether a target state is one of a path request not answered yet.
bool is_searching(unsigned char state) {
  return state == DT_CROWDAGENT_TARGET_REQUESTING ||
         state == DT_CROWDAGENT_TARGET_WAITING_FOR_QUEUE ||
         state == DT_CROWDAGENT_TARGET_WAITING_FOR_PATH;
}

unsigned char to_uchar(std::int32_t value) {
  return static_cast<unsigned char>(std::clamp<std::int32_t>(value, 0, 255));
}

std::size_t next_pow2(std::size_t v) {
  std::size_t p = 1;
  while (p < v) {
    p <<= 1;
  }
  return p;
}

// Bytes of one dtNavMeshQuery's A* pools for `max_nodes` nodes (DetourNode.cpp: dtNodePool
// keeps the nodes, a hash of nextPow2(max_nodes / 4) heads and one next link per node;
// dtNodeQueue keeps max_nodes + 1 pointers), plus the small tiny-node pool of 64 nodes.
std::size_t query_bytes(std::size_t max_nodes) {
  const std::size_t hash = next_pow2(std::max<std::size_t>(max_nodes / 4, 1));
  const std::size_t pool = max_nodes * sizeof(dtNode) + (hash + max_nodes) * sizeof(dtNodeIndex);
  const std::size_t queue = (max_nodes + 1) * sizeof(dtNode*);
  const std::size_t tiny = 64 * sizeof(dtNode) + (32 + 64) * sizeof(dtNodeIndex);
  return sizeof(dtNavMeshQuery) + pool + queue + tiny;
}

} // namespace

void DetourCrowdBackend::CrowdDeleter::operator()(dtCrowd* crowd) const {
  dtFreeCrowd(crowd);
}

DetourCrowdBackend::DetourCrowdBackend(const NavMesh& navmesh, int capacity, float max_agent_radius)
    : navmesh_(&navmesh), capacity_(capacity) {
  if (capacity < 0) {
    throw std::runtime_error("DetourCrowd backend: capacity must be >= 0, got " +
                             std::to_string(capacity));
  }
  // DetourCrowd's proximity grid (DetourProximityGrid.h) stores agent ids and pool links as
  // unsigned short, 0xffff meaning "none", and dtCrowd::init sizes its pool at 4 items per
  // agent. Above 16,383 agents the links would silently wrap (field notes 1a), so refuse.
  if (static_cast<long long>(capacity) * 4 > 65535) {
    throw std::runtime_error(
        "DetourCrowd backend: " + std::to_string(capacity) +
        " agents is more than DetourCrowd can hold (at most " + std::to_string(kMaxCapacity) +
        "): its proximity grid keeps agent ids and links as 16-bit unsigned short in a pool of "
        "4 items per agent; use the cpu or cuda backend for larger crowds");
  }
  if (!(max_agent_radius > 0.0f)) {
    throw std::runtime_error("DetourCrowd backend: max agent radius must be > 0, got " +
                             std::to_string(max_agent_radius));
  }
  crowd_.reset(dtAllocCrowd());
  if (!crowd_) {
    throw std::runtime_error("DetourCrowd backend: dtAllocCrowd failed (out of memory)");
  }
  // dtCrowd::init takes a non-const dtNavMesh* but only reads it: it hands the mesh to
  // dtNavMeshQuery::init (which stores a const pointer) and to its path queue. The navmesh is
  // never modified through this pointer.
  auto* nav = const_cast<dtNavMesh*>(&navmesh.detour());
  // dtCrowd::init needs maxAgents >= 1 (dtAlloc of zero-sized arrays may fail); an empty scene
  // still refuses add_agent through capacity_.
  if (!crowd_->init(std::max(capacity, 1), max_agent_radius, nav)) {
    throw std::runtime_error("DetourCrowd backend: dtCrowd::init failed for " +
                             std::to_string(capacity) + " agents");
  }
  crowd_index_.reserve(static_cast<std::size_t>(capacity));
  positions_.reserve(static_cast<std::size_t>(capacity));
  velocities_.reserve(static_cast<std::size_t>(capacity));
}

DetourCrowdBackend::~DetourCrowdBackend() = default;

dtObstacleAvoidanceParams to_detour_params(const AvoidanceParams& params) {
  dtObstacleAvoidanceParams p{};
  p.velBias = params.vel_bias;
  p.weightDesVel = params.weight_des_vel;
  p.weightCurVel = params.weight_cur_vel;
  p.weightSide = params.weight_side;
  p.weightToi = params.weight_toi;
  p.horizTime = params.horiz_time;
  // Unused: dtCrowd::update hard-codes adaptive sampling (field notes 1b); 33 is init's value.
  p.gridSize = 33;
  // sampleVelocityAdaptive clamps divs and rings to DT_MAX_PATTERN_DIVS / RINGS itself.
  p.adaptiveDivs = to_uchar(params.adaptive_divs);
  p.adaptiveRings = to_uchar(params.adaptive_rings);
  p.adaptiveDepth = to_uchar(params.adaptive_depth);
  return p;
}

int DetourCrowdBackend::avoidance_slot(const AvoidanceParams& params) {
  for (std::size_t k = 0; k < avoidance_slots_.size(); ++k) {
    if (avoidance_slots_[k] == params) {
      return static_cast<int>(k);
    }
  }
  if (avoidance_slots_.size() >= DT_CROWD_MAX_OBSTAVOIDANCE_PARAMS) {
    throw std::runtime_error(
        "DetourCrowd backend: more than " + std::to_string(DT_CROWD_MAX_OBSTAVOIDANCE_PARAMS) +
        " distinct avoidance parameter sets; DetourCrowd has only " +
        std::to_string(DT_CROWD_MAX_OBSTAVOIDANCE_PARAMS) +
        " dtObstacleAvoidanceParams slots (DT_CROWD_MAX_OBSTAVOIDANCE_PARAMS)");
  }
  const dtObstacleAvoidanceParams p = to_detour_params(params);
  const int slot = static_cast<int>(avoidance_slots_.size());
  crowd_->setObstacleAvoidanceParams(slot, &p);
  avoidance_slots_.push_back(params);
  return slot;
}

dtCrowdAgentParams DetourCrowdBackend::detour_params(const AgentParams& ap) {
  dtCrowdAgentParams params{};
  params.radius = ap.radius;
  params.height = navmesh_->settings().agent_height;
  params.maxAcceleration = ap.max_accel;
  params.maxSpeed = ap.max_speed;
  params.collisionQueryRange = ap.query_range();
  params.pathOptimizationRange = 30.0f * ap.radius; // RecastDemo Tool_Crowd.cpp
  params.separationWeight = ap.separation_weight;
  params.updateFlags = kUpdateFlags;
  params.obstacleAvoidanceType = static_cast<unsigned char>(avoidance_slot(ap.avoidance));
  params.queryFilterType = static_cast<unsigned char>(ap.query_filter_type);
  params.userData = nullptr;
  return params;
}

int DetourCrowdBackend::add_agent(const AgentSetup& setup) {
  if (active_agents_ >= capacity_) {
    throw std::runtime_error("DetourCrowd backend: cannot add agent " +
                             std::to_string(crowd_index_.size()) + ": the crowd is full (" +
                             std::to_string(capacity_) +
                             " agents, the capacity it was created with)");
  }
  const dtCrowdAgentParams params = detour_params(setup.params);
  const float pos[3] = {setup.position.x, setup.position.y, setup.position.z};
  const int index = crowd_->addAgent(pos, &params);
  if (index < 0) {
    throw std::runtime_error("DetourCrowd backend: dtCrowd::addAgent failed for agent " +
                             std::to_string(crowd_index_.size()) + " (no free slot)");
  }
  ++active_agents_;
  const int id = static_cast<int>(crowd_index_.size());
  crowd_index_.push_back(index);
  const dtCrowdAgent* agent = crowd_->getAgent(index);
  // addAgent snaps the position onto the navmesh (findNearestPoly with the crowd's extents).
  positions_.emplace_back(agent->npos[0], agent->npos[1], agent->npos[2]);
  frozen_.push_back(0);
  velocity_request_.push_back(0);
  on_link_.push_back(0);
  velocities_.emplace_back(0.0f, 0.0f);
  goals_.emplace_back(setup.goal);
  request_goal(index, setup.goal);
  return id;
}

void DetourCrowdBackend::request_goal(int index, const glm::vec3& goal) {
  // As RecastDemo's CrowdToolState::setMoveTarget: snap the target with the crowd's own
  // placement half extents, (2, 1.5, 2) x max agent radius (dtCrowd::init).
  const dtNavMeshQuery* query = crowd_->getNavMeshQuery();
  const dtQueryFilter* filter = crowd_->getFilter(crowd_->getAgent(index)->params.queryFilterType);
  const float target[3] = {goal.x, goal.y, goal.z};
  dtPolyRef ref = 0;
  float nearest[3] = {goal.x, goal.y, goal.z};
  const dtStatus status =
      query->findNearestPoly(target, crowd_->getQueryHalfExtents(), filter, &ref, nearest);
  if (dtStatusFailed(status) || ref == 0) {
    // Nothing within the crowd's extents: the spec has the agent walk to the nearest
    // reachable point, so search further out (as our solver does).
    glm::vec3 point{0.0f};
    ref = nearest_polygon_anywhere(*navmesh_, *query, goal, navmesh_->placement_extents(), point,
                                   filter);
    nearest[0] = point.x, nearest[1] = point.y, nearest[2] = point.z;
  }
  if (ref == 0 || !crowd_->requestMoveTarget(index, ref, nearest)) {
    // An empty navmesh: leave the agent standing (see stop_agent for why this is a zero
    // velocity request rather than resetMoveTarget).
    const float zero[3] = {0.0f, 0.0f, 0.0f};
    crowd_->requestMoveVelocity(index, zero);
  }
}

void DetourCrowdBackend::set_query_filter(int type, const dtQueryFilter& filter) {
  static_assert(kQueryFilterTypes == DT_CROWD_MAX_QUERY_FILTER_TYPE);
  if (const std::string problem = query_filter_problem(type, filter); !problem.empty())
    throw std::invalid_argument("query filter: " + problem);
  *crowd_->getEditableFilter(type) = filter;
}

int DetourCrowdBackend::crowd_index(int id) const {
  if (id < 0 || id >= static_cast<int>(crowd_index_.size())) {
    throw std::out_of_range("DetourCrowd backend: unknown agent id " + std::to_string(id));
  }
  return crowd_index_[static_cast<std::size_t>(id)];
}

void DetourCrowdBackend::remove_agent(int id) {
  const int index = crowd_index(id);
  if (index < 0) {
    return;
  }
  // dtCrowd::removeAgent only clears `active`; the slot may be reused by a later addAgent,
  // which is why our ids map to dtCrowd indices instead of being them.
  crowd_->removeAgent(index);
  crowd_index_[static_cast<std::size_t>(id)] = -1;
  velocities_[static_cast<std::size_t>(id)] = glm::vec2(0.0f);
  --active_agents_;
}

void DetourCrowdBackend::set_goal(int id, const glm::vec3& goal) {
  const int index = crowd_index(id);
  if (index >= 0 && !frozen_[static_cast<std::size_t>(id)]) {
    goals_[static_cast<std::size_t>(id)] = goal;
    velocity_request_[static_cast<std::size_t>(id)] = 0;
    request_goal(index, goal);
  }
}

void DetourCrowdBackend::stop_agent(int id) {
  const int index = crowd_index(id);
  if (index < 0) {
    return;
  }
  // resetMoveTarget would NOT stop a DetourCrowd agent: it sets targetState to
  // DT_CROWDAGENT_TARGET_NONE, and dtCrowd::update's steering loop skips such agents
  // ("if (ag->targetState == DT_CROWDAGENT_TARGET_NONE) continue;"), leaving their dvel
  // from the last step unchanged. Velocity planning and integrate still run for every
  // walking agent, so the agent keeps walking at its old desired velocity. A zero velocity
  // request (DT_CROWDAGENT_TARGET_VELOCITY) makes the steering loop set dvel = 0 and
  // desiredSpeed = 0, so the agent decelerates (at maxAcceleration) and stands, still an
  // obstacle for the others and still pushed by collision resolution.
  const float zero[3] = {0.0f, 0.0f, 0.0f};
  crowd_->requestMoveVelocity(index, zero);
  goals_[static_cast<std::size_t>(id)].reset();
  velocity_request_[static_cast<std::size_t>(id)] = 0;
}

void DetourCrowdBackend::set_velocity(int id, const glm::vec3& velocity) {
  const int index = crowd_index(id);
  if (index < 0 || frozen_[static_cast<std::size_t>(id)])
    return;
  const float vel[3] = {velocity.x, velocity.y, velocity.z};
  crowd_->requestMoveVelocity(index, vel);
  goals_[static_cast<std::size_t>(id)].reset();
  velocity_request_[static_cast<std::size_t>(id)] = 1;
}

void DetourCrowdBackend::set_agent_params(int id, const AgentParams& params) {
  const int index = crowd_index(id);
  if (index < 0)
    return;
  const dtCrowdAgentParams detour = detour_params(params);
  crowd_->updateAgentParameters(index, &detour);
}

const dtQueryFilter& DetourCrowdBackend::query_filter(int type) const {
  return *crowd_->getFilter(type);
}

const dtCrowdAgent* DetourCrowdBackend::agent_of(int id) const {
  const int index = crowd_index(id);
  return index < 0 ? nullptr : crowd_->getAgent(index);
}

TargetState DetourCrowdBackend::target_state(int id) const {
  const dtCrowdAgent* agent = agent_of(id);
  if (agent == nullptr)
    return TargetState::None;
  if (is_searching(agent->targetState))
    return TargetState::WaitingForPath;
  switch (agent->targetState) {
  case DT_CROWDAGENT_TARGET_FAILED:
    return TargetState::Failed;
  case DT_CROWDAGENT_TARGET_VALID:
    return TargetState::Valid;
  case DT_CROWDAGENT_TARGET_VELOCITY:
    return velocity_request_[static_cast<std::size_t>(id)] ? TargetState::Velocity
                                                           : TargetState::None;
  default:
    return TargetState::None;
  }
}

std::vector<PathCorner> DetourCrowdBackend::corners(int id) const {
  std::vector<PathCorner> corners;
  const dtCrowdAgent* agent = agent_of(id);
  if (agent == nullptr || agent->targetState != DT_CROWDAGENT_TARGET_VALID)
    return corners;
  for (int k = 0; k < agent->ncorners; ++k)
    corners.push_back({glm::vec3(agent->cornerVerts[3 * k], agent->cornerVerts[3 * k + 1],
                                 agent->cornerVerts[3 * k + 2]),
                       agent->cornerFlags[k]});
  return corners;
}

glm::vec2 DetourCrowdBackend::desired_velocity(int id) const {
  const dtCrowdAgent* agent = agent_of(id);
  return agent == nullptr ? glm::vec2(0.0f) : glm::vec2(agent->dvel[0], agent->dvel[2]);
}

void DetourCrowdBackend::move_agent(int id, const glm::vec3& position) {
  const int index = crowd_index(id);
  if (index < 0) {
    return;
  }
  // DetourCrowd has no call for this; its class documentation and memononen (RN #534) advise
  // removing and adding the agent, which would reset its velocity. Instead this sets what
  // dtCrowd::addAgent sets up from a position (DetourCrowd.cpp: findNearestPoly with the
  // crowd's half extents, corridor.reset, boundary.reset, npos) on the live agent, keeping
  // vel, dvel and nvel, then requests its goal again so that a path is planned from there.
  const dtNavMeshQuery* query = crowd_->getNavMeshQuery();
  const float pos[3] = {position.x, position.y, position.z};
  dtPolyRef ref = 0;
  float nearest[3];
  const dtStatus status = query->findNearestPoly(pos, crowd_->getQueryHalfExtents(),
                                                 crowd_->getFilter(0), &ref, nearest);
  if (dtStatusFailed(status) || ref == 0) {
    return;
  }
  dtCrowdAgent* agent = crowd_->getEditableAgent(index);
  agent->corridor.reset(ref, nearest);
  agent->boundary.reset();
  agent->partial = false;
  agent->topologyOptTime = 0.0f;
  agent->targetReplanTime = 0.0f;
  agent->nneis = 0;
  agent->ncorners = 0;
  dtVcopy(agent->npos, nearest);
  positions_[static_cast<std::size_t>(id)] = {nearest[0], nearest[1], nearest[2]};
  if (const auto& goal = goals_[static_cast<std::size_t>(id)];
      goal && !frozen_[static_cast<std::size_t>(id)]) {
    request_goal(index, *goal);
  }
}

void DetourCrowdBackend::step(float dt) {
  stages_.clear();
  {
    // dtCrowd::update runs all of its stages (field notes 1c) with no hook in between, so the
    // whole update is one stage.
    ScopedStage stage(stages_, "detour_update");
    searching_.assign(crowd_index_.size(), 0);
    for (std::size_t id = 0; id < crowd_index_.size(); ++id)
      if (const int index = crowd_index_[id]; index >= 0)
        searching_[id] = is_searching(crowd_->getAgent(index)->targetState) ? 1 : 0;
    crowd_->update(dt, nullptr);
    for (std::size_t id = 0; id < crowd_index_.size(); ++id)
      if (const int index = crowd_index_[id]; index >= 0 && searching_[id])
        path_searches_ += is_searching(crowd_->getAgent(index)->targetState) ? 0 : 1;
  }
  ScopedStage stage(stages_, "copy_out");
  health_ = {};
  for (std::size_t id = 0; id < crowd_index_.size(); ++id) {
    const int index = crowd_index_[id];
    if (index < 0) {
      continue;
    }
    dtCrowdAgent* agent = crowd_->getEditableAgent(index);
    const bool on_link = agent->state == DT_CROWDAGENT_STATE_OFFMESH;
    health_.link_traversals += on_link && !on_link_[id] ? 1 : 0;
    on_link_[id] = on_link ? 1 : 0;
    const glm::vec3 position(agent->npos[0], agent->npos[1], agent->npos[2]);
    const glm::vec2 velocity(agent->vel[0], agent->vel[2]);
    if (is_finite(position) && is_finite(velocity)) {
      positions_[id] = position;
      velocities_[id] = velocity;
      continue;
    }
    // Back to the last finite position, at rest, standing from now on.
    dtVcopy(agent->npos, &positions_[id].x);
    dtVset(agent->vel, 0.0f, 0.0f, 0.0f);
    dtVset(agent->dvel, 0.0f, 0.0f, 0.0f);
    dtVset(agent->nvel, 0.0f, 0.0f, 0.0f);
    agent->corridor.reset(agent->corridor.getFirstPoly(), agent->npos);
    stop_agent(static_cast<int>(id));
    velocities_[id] = glm::vec2(0.0f);
    if (!frozen_[id]) {
      frozen_[id] = 1;
      health_.new_faults.push_back({static_cast<int>(id), "update"});
    }
  }
}

std::size_t DetourCrowdBackend::host_memory_bytes() const {
  // An estimate of what dtCrowd::init allocates for `capacity` agents (DetourCrowd.cpp), not
  // a measurement: the agent pool (dtCrowdAgent embeds its local boundary and neighbours), one
  // 256-poly corridor per agent, the active-agent list, the off-mesh animations, the proximity
  // grid (pool of 4 x capacity 8-byte items and nextPow2 of that many 16-bit buckets,
  // DetourProximityGrid.cpp), the shared path result, the crowd's own query (512 nodes) and
  // the path queue's query (4096 nodes). Plus our id map and output arrays.
  const std::size_t cap = static_cast<std::size_t>(std::max(capacity_, 1));
  const std::size_t agents = cap * (sizeof(dtCrowdAgent) + kCorridorPolys * sizeof(dtPolyRef) +
                                    sizeof(dtCrowdAgent*) + sizeof(dtCrowdAgentAnimation));
  const std::size_t grid_pool = 4 * cap;
  const std::size_t grid =
      grid_pool * 4 * sizeof(unsigned short) + next_pow2(grid_pool) * sizeof(unsigned short);
  const std::size_t shared = sizeof(dtCrowd) + kCorridorPolys * sizeof(dtPolyRef) +
                             query_bytes(kCommonNodes) + query_bytes(kPathQueueNodes);
  const std::size_t ours = crowd_index_.capacity() * sizeof(int) +
                           positions_.capacity() * sizeof(glm::vec3) +
                           velocities_.capacity() * sizeof(glm::vec2) +
                           avoidance_slots_.capacity() * sizeof(AvoidanceParams);
  return agents + grid + shared + ours;
}

} // namespace crowd
