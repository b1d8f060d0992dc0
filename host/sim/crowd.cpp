#include "host/sim/crowd.h"

#include "cuda/kernels/fault_guard.h"
#include "host/checkpoint/archive.h"
#include "host/checkpoint/checkpoint_file.h"
#include "host/checkpoint/solver_options_archive.h"
#include "host/navmesh/navmesh_fingerprint.h"
#include "host/navmesh/query_filter_check.h"
#include "host/scenario/agent_params_check.h"
#include "host/scenario/agent_params_table.h"
#include "host/scenario/agent_setup_archive.h"
#include "host/sim/moving_target.h"

#include <DetourNavMeshQuery.h>
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

namespace crowd {
namespace {

std::string text(const glm::vec3& v) {
  return "(" + std::to_string(v.x) + ", " + std::to_string(v.y) + ", " + std::to_string(v.z) + ")";
}

std::shared_ptr<NavMesh> adopt_or_refuse(const dtNavMesh& navmesh) {
  try {
    return std::make_shared<NavMesh>(NavMesh::adopt(navmesh));
  } catch (const NavmeshError& e) {
    throw ApiError(std::string("Crowd: ") + e.what());
  }
}

std::shared_ptr<NavMesh> adopt_or_refuse(dtNavMesh& navmesh, dtTileCache& tile_cache) {
  try {
    return std::make_shared<NavMesh>(NavMesh::adopt(navmesh, tile_cache));
  } catch (const NavmeshError& e) {
    throw ApiError(std::string("Crowd: ") + e.what());
  }
}

std::unique_ptr<CrowdBackend> make_crowd_backend(const NavMesh& navmesh,
                                                 const CrowdOptions& options) {
  const float detour_radius =
      options.max_agent_radius > 0.0f ? options.max_agent_radius : navmesh.settings().agent_radius;
  std::unique_ptr<CrowdBackend> backend =
      make_backend(options.backend, navmesh, options.solver, options.max_agents, detour_radius,
                   options.cuda_device);
  if (options.agent_share != nullptr)
    backend->split_across_processes(options.agent_share);
  return backend;
}

} // namespace

/// What an agent's target does between updates.
struct TargetRecord {
  glm::vec3 requested{0.0f}; ///< The last target asked for, on the navmesh.
  glm::vec3 planned{0.0f};   ///< The target its last path search was for.
  float since_plan = 0.0f;   ///< Seconds since that search was asked for.
  int leader = -1;           ///< request_follow's leader, or -1.
  glm::vec3 offset{0.0f};    ///< request_follow's offset from the leader.
};

struct Crowd::Impl {
  Impl(std::shared_ptr<NavMesh> shared_navmesh, const CrowdOptions& crowd_options)
      : options(crowd_options), navmesh_owner(std::move(shared_navmesh)), navmesh(*navmesh_owner),
        backend(make_crowd_backend(navmesh, crowd_options)) {}

  CrowdOptions options;
  /// Shared with the crowd a restore() replaces this one with (before backend, which keeps a
  /// reference to it).
  std::shared_ptr<NavMesh> navmesh_owner;
  NavMesh& navmesh;
  std::unique_ptr<CrowdBackend> backend;
  AgentParamsTable params;
  std::vector<TargetRecord> targets;
  std::vector<std::uint8_t> removed;
  /// Obstacles by id (add_obstacle): the navmesh's id of each, 0 once removed, and its shape.
  std::vector<unsigned int> obstacle_refs;
  std::vector<NavObstacle> obstacles;
  bool obstacles_queued = false; ///< Obstacle changes wait for the next update.

  void check_obstacle(const char* call, int obstacle) const {
    if (obstacle < 0 || obstacle >= static_cast<int>(obstacle_refs.size()) ||
        obstacle_refs[static_cast<std::size_t>(obstacle)] == 0)
      throw ApiError(std::string(call) + ": no obstacle " + std::to_string(obstacle) +
                     " stands (ids come from add_obstacle; a removed one is gone)");
  }
  /// Throws ApiError naming `call` when the navmesh would refuse `obstacle`.
  void check_placement(const char* call, const NavObstacle& obstacle) const {
    if (const std::string problem = navmesh.obstacle_problem(obstacle); !problem.empty())
      throw ApiError(std::string(call) + ": " + problem);
  }
  /// Puts `obstacle` down, checked (check_placement first, so a refusal changes nothing).
  unsigned int put_down(const char* call, const NavObstacle& obstacle) {
    // Queued for the next update whatever comes: a full queue or full slots make the tile cache
    // apply what was queued before (ObstacleTileCache::add), which the update reports.
    obstacles_queued = true;
    try {
      return navmesh.add_obstacle(obstacle);
    } catch (const NavmeshError& e) {
      throw ApiError(std::string(call) + ": " + e.what());
    }
  }

  /// Half extents of the box searched for the navmesh around an agent of `radius`
  /// (Crowd::query_extents).
  glm::vec3 extents_for(float radius) const {
    const glm::vec3 detour_crowd(2.0f * radius, 1.5f * radius, 2.0f * radius);
    return glm::max(detour_crowd, navmesh.placement_extents());
  }
  /// The navmesh point nearest `point` for agent `id`: within its search box, through its query
  /// filter. Reads the two numbers it needs of the agent's parameters, not the whole record.
  std::optional<glm::vec3> nearest_for(int id, const glm::vec3& point) const {
    const auto k = static_cast<std::size_t>(id);
    return navmesh.nearest_point(point, extents_for(params.radius(k)),
                                 &backend->query_filter(params.query_filter_type(k)));
  }

  /// Points agent id at `target` (on the navmesh): a new path search when it has no corridor,
  /// or when the target moved more than the replan distance since the last search and the
  /// replan delay has passed; otherwise the corridor's end moves to it (CrowdSolver::move_goal),
  /// and a search follows where that cannot reach it and the delay has passed.
  void aim(int id, const glm::vec3& target) {
    TargetRecord& t = targets[static_cast<std::size_t>(id)];
    t.requested = target;
    const TargetState state = backend->target_state(id);
    // A search queued or failed waits for the replan delay too.
    const bool has_request = state == TargetState::Valid || state == TargetState::WaitingForPath ||
                             state == TargetState::Failed;
    if (!target_search_due(target, t.planned, t.since_plan, options.target_replan_distance,
                           options.target_replan_delay, has_request, [&] {
                             return state == TargetState::Valid && backend->move_goal(id, target);
                           }))
      return;
    search(id, target);
  }

  /// A new path search for agent id toward `target`.
  void search(int id, const glm::vec3& target) {
    TargetRecord& t = targets[static_cast<std::size_t>(id)];
    t.requested = t.planned = target;
    t.since_plan = 0.0f;
    backend->set_goal(id, target);
  }

  /// Bookkeeping of a new agent `id` (the backend's) with `params`, heading for `target`.
  void record_agent(const AgentParams& agent_params, const glm::vec3& target) {
    params.push_back(agent_params);
    TargetRecord record;
    record.requested = record.planned = target;
    targets.push_back(record);
    removed.push_back(0);
  }

  void check_id(const char* call, int id) const {
    if (id < 0 || id >= static_cast<int>(params.size()))
      throw ApiError(std::string(call) + ": unknown agent id " + std::to_string(id) +
                     " (ids are 0.." + std::to_string(static_cast<int>(params.size()) - 1) + ")");
  }
  void check_active(const char* call, int id) const {
    check_id(call, id);
    if (removed[static_cast<std::size_t>(id)])
      throw ApiError(std::string(call) + ": agent " + std::to_string(id) + " was removed");
  }
};

Crowd::Crowd(std::shared_ptr<NavMesh> navmesh, const CrowdOptions& options)
    : impl_(std::make_unique<Impl>(std::move(navmesh), options)) {}

namespace {

const CrowdOptions& checked(const CrowdOptions& options) {
  if (!(options.target_replan_distance > 0.0f) || !std::isfinite(options.target_replan_distance))
    throw ApiError("Crowd: target_replan_distance must be a positive number of metres");
  if (!(options.target_replan_delay >= 0.0f) || !std::isfinite(options.target_replan_delay))
    throw ApiError("Crowd: target_replan_delay must be zero or a positive number of seconds");
  if (options.max_agents < 1)
    throw ApiError("Crowd: max_agents must be at least 1");
  if (!(options.max_agent_radius >= 0.0f) || !std::isfinite(options.max_agent_radius))
    throw ApiError("Crowd: max_agent_radius must be zero or a positive number of metres");
  return options;
}

/// `make` (a Crowd's construction, an agent's addition) with its errors as ApiError naming
/// `call`: the backend's refusals (no CUDA device, a capacity DetourCrowd cannot hold, no
/// navmesh near) and CrowdSolver's check of the solver options.
template <typename Make> auto refusals_as_api_errors(const char* call, Make make) {
  try {
    return make();
  } catch (const ApiError&) {
    throw;
  } catch (const std::exception& e) {
    throw ApiError(std::string(call) + ": " + e.what());
  }
}

} // namespace

Crowd::Crowd(const dtNavMesh& navmesh, const CrowdOptions& options)
    : Crowd(refusals_as_api_errors(
          "Crowd", [&] { return Crowd(adopt_or_refuse(navmesh), checked(options)); })) {}

Crowd::Crowd(dtNavMesh& navmesh, dtTileCache& tile_cache, const CrowdOptions& options)
    : Crowd(refusals_as_api_errors("Crowd", [&] {
        return Crowd(adopt_or_refuse(navmesh, tile_cache), checked(options));
      })) {}

Crowd::Crowd(NavMesh navmesh, const CrowdOptions& options)
    : Crowd(refusals_as_api_errors("Crowd", [&] {
        return Crowd(std::make_shared<NavMesh>(std::move(navmesh)), checked(options));
      })) {}

CrowdBackend& Crowd::backend() {
  return *impl_->backend;
}
const CrowdBackend& Crowd::backend() const {
  return *impl_->backend;
}

int Crowd::add_obstacle(const NavObstacle& obstacle) {
  Impl& m = *impl_;
  m.check_placement("add_obstacle", obstacle);
  const unsigned int ref = m.put_down("add_obstacle", obstacle);
  m.obstacle_refs.push_back(ref);
  m.obstacles.push_back(obstacle);
  return static_cast<int>(m.obstacle_refs.size()) - 1;
}

void Crowd::move_obstacle(int obstacle, const glm::vec3& position, float yaw) {
  Impl& m = *impl_;
  m.check_obstacle("move_obstacle", obstacle);
  const auto k = static_cast<std::size_t>(obstacle);
  NavObstacle moved = m.obstacles[k];
  moved.position = position;
  moved.yaw = yaw;
  m.check_placement("move_obstacle", moved);
  // DetourTileCache has no move: a removal and an addition, rebuilt together.
  m.navmesh.remove_obstacle(m.obstacle_refs[k]);
  m.obstacle_refs[k] = m.put_down("move_obstacle", moved);
  m.obstacles[k] = moved;
}

void Crowd::remove_obstacle(int obstacle) {
  Impl& m = *impl_;
  m.check_obstacle("remove_obstacle", obstacle);
  const auto k = static_cast<std::size_t>(obstacle);
  m.navmesh.remove_obstacle(m.obstacle_refs[k]);
  m.obstacle_refs[k] = 0;
  m.obstacles_queued = true;
}

void Crowd::navmesh_changed() {
  impl_->navmesh.tiles_changed();
  impl_->backend->navmesh_changed();
}
Crowd::Crowd(Crowd&&) noexcept = default;
Crowd& Crowd::operator=(Crowd&&) noexcept = default;
Crowd::~Crowd() = default;

glm::vec3 Crowd::query_extents(const AgentParams& params) const {
  return impl_->extents_for(params.radius);
}

int Crowd::add_agent(const glm::vec3& position, const AgentParams& params) {
  if (!is_finite(position))
    throw ApiError("add_agent: position must be finite");
  if (const auto problem = agent_params_problem(params))
    throw ApiError("add_agent: " + *problem);
  const auto placed =
      impl_->navmesh.nearest_point(position, query_extents(params), &filter_of(params));
  if (!placed)
    throw ApiError("add_agent: no navmesh near " + text(position));
  AgentSetup setup;
  setup.position = *placed;
  setup.goal = *placed;
  setup.params = params;
  setup.json_path = "api";
  const int id =
      refusals_as_api_errors("add_agent", [&] { return impl_->backend->add_agent(setup); });
  // Standing without a target, as dtCrowd::addAgent leaves an agent.
  impl_->backend->stop_agent(id);
  impl_->record_agent(params, *placed);
  return id;
}

void Crowd::reserve_agents(std::size_t agents) {
  impl_->params.reserve(agents);
  impl_->targets.reserve(agents);
  impl_->removed.reserve(agents);
  impl_->backend->reserve_agents(agents);
}

int Crowd::add_agent(const AgentSetup& setup) {
  if (!is_finite(setup.position) || !is_finite(setup.goal))
    throw ApiError("add_agent: position and goal must be finite");
  if (const auto problem = agent_params_problem(setup.params))
    throw ApiError("add_agent: " + *problem);
  // Checked here as our solver places it (NavMesh::placement_extents, the agent's filter): the
  // solver would otherwise keep the agent it refuses, to keep its ids dense.
  if (!impl_->navmesh.nearest_point(setup.position, impl_->navmesh.placement_extents(),
                                    &filter_of(setup.params)))
    throw ApiError("add_agent: no navmesh near " + text(setup.position) +
                   (setup.json_path.empty() ? "" : " (" + setup.json_path + ")"));
  const int id =
      refusals_as_api_errors("add_agent", [&] { return impl_->backend->add_agent(setup); });
  impl_->record_agent(setup.params, setup.goal);
  return id;
}

void Crowd::remove_agent(int id) {
  impl_->check_active("remove_agent", id);
  impl_->backend->remove_agent(id);
  impl_->removed[static_cast<std::size_t>(id)] = 1;
}

void Crowd::request_move_target(int id, const glm::vec3& target) {
  impl_->check_active("request_move_target", id);
  if (!is_finite(target))
    throw ApiError("request_move_target: target must be finite");
  const auto placed = impl_->nearest_for(id, target);
  if (!placed)
    throw ApiError("request_move_target: no navmesh near " + text(target));
  impl_->targets[static_cast<std::size_t>(id)].leader = -1;
  impl_->aim(id, *placed);
}

void Crowd::request_move_velocity(int id, const glm::vec3& velocity) {
  impl_->check_active("request_move_velocity", id);
  if (!is_finite(velocity))
    throw ApiError("request_move_velocity: velocity must be finite");
  impl_->targets[static_cast<std::size_t>(id)].leader = -1;
  impl_->backend->set_velocity(id, velocity);
}

void Crowd::request_follow(int id, int leader, const glm::vec3& offset) {
  impl_->check_active("request_follow", id);
  impl_->check_active("request_follow", leader);
  if (leader == id)
    throw ApiError("request_follow: agent " + std::to_string(id) + " cannot follow itself");
  if (!is_finite(offset))
    throw ApiError("request_follow: offset must be finite");
  TargetRecord& t = impl_->targets[static_cast<std::size_t>(id)];
  t.leader = leader;
  t.offset = offset;
  t.since_plan = impl_->options.target_replan_delay; // the first aim may search at once
  impl_->backend->stop_agent(id);                    // no corridor: the first aim searches
}

void Crowd::update_agent_parameters(int id, const AgentParams& params) {
  impl_->check_active("update_agent_parameters", id);
  if (const auto problem = agent_params_problem(params))
    throw ApiError("update_agent_parameters: " + *problem);
  refusals_as_api_errors("update_agent_parameters", [&] {
    impl_->backend->set_agent_params(id, params); // detour: a ninth avoidance set is refused
    return 0;
  });
  impl_->params.set(static_cast<std::size_t>(id), params);
}

AgentParams Crowd::agent_parameters(int id) const {
  impl_->check_id("agent_parameters", id);
  return impl_->params[static_cast<std::size_t>(id)];
}

void Crowd::reset_move_target(int id) {
  impl_->check_active("reset_move_target", id);
  impl_->targets[static_cast<std::size_t>(id)].leader = -1;
  impl_->backend->stop_agent(id);
}

void Crowd::request_path(int id, const glm::vec3& target) {
  impl_->check_active("request_path", id);
  if (!is_finite(target))
    throw ApiError("request_path: target must be finite");
  impl_->targets[static_cast<std::size_t>(id)].leader = -1;
  impl_->search(id, target);
}

bool Crowd::adjust_move_target(int id, const glm::vec3& target) {
  impl_->check_active("adjust_move_target", id);
  if (!is_finite(target))
    throw ApiError("adjust_move_target: target must be finite");
  if (!impl_->backend->move_goal(id, target))
    return false;
  impl_->targets[static_cast<std::size_t>(id)].requested = target;
  return true;
}

void Crowd::move_agent(int id, const glm::vec3& position) {
  impl_->check_active("move_agent", id);
  if (!is_finite(position))
    throw ApiError("move_agent: position must be finite");
  impl_->backend->move_agent(id, position);
}

void Crowd::set_query_filter(int type, const dtQueryFilter& filter) {
  if (const std::string problem = query_filter_problem(type, filter); !problem.empty())
    throw ApiError("set_query_filter: " + problem);
  impl_->backend->set_query_filter(type, filter);
}

const dtQueryFilter& Crowd::query_filter(int type) const {
  if (const std::string problem = query_filter_type_problem(type); !problem.empty())
    throw ApiError("query_filter: " + problem);
  return impl_->backend->query_filter(type);
}

const dtQueryFilter& Crowd::filter_of(const AgentParams& params) const {
  return impl_->backend->query_filter(params.query_filter_type);
}

bool Crowd::update_obstacles() {
  Impl& m = *impl_;
  if (!m.obstacles_queued)
    return false;
  m.obstacles_queued = false;
  try {
    if (m.navmesh.update_obstacles() == 0)
      return false;
  } catch (const NavmeshError& e) {
    throw ApiError(std::string("update: ") + e.what());
  }
  m.backend->navmesh_changed();
  return true;
}

void Crowd::update(float dt) {
  if (!(dt > 0.0f && dt <= 1.0f))
    throw ApiError("update: dt must be in (0, 1] seconds, got " + std::to_string(dt));
  Impl& m = *impl_;
  // The obstacles changed since the last update, first: the tiles they touch rebuilt, and the
  // corridors through them cut and planned again.
  update_obstacles();
  for (int id = 0; id < agent_count(); ++id) {
    TargetRecord& t = m.targets[static_cast<std::size_t>(id)];
    if (m.removed[static_cast<std::size_t>(id)])
      continue;
    t.since_plan += dt;
    if (t.leader < 0)
      continue;
    if (m.removed[static_cast<std::size_t>(t.leader)]) {
      t.leader = -1;
      m.backend->stop_agent(id);
      continue;
    }
    const std::size_t l = static_cast<std::size_t>(t.leader);
    const auto k = static_cast<std::size_t>(id);
    const glm::vec3 wanted = follow_point(m.backend->positions()[l], m.backend->velocities()[l],
                                          t.offset, m.params.radius(k), m.params.max_speed(k));
    // Where the leader's offset point is off the navmesh (beyond a wall), the nearest point.
    if (const auto placed = m.nearest_for(id, wanted))
      m.aim(id, *placed);
  }
  m.backend->step(dt);
}

const CrowdOptions& Crowd::options() const {
  return impl_->options;
}

int Crowd::agent_count() const {
  return static_cast<int>(impl_->params.size());
}

bool Crowd::is_active(int id) const {
  return id >= 0 && id < agent_count() && !impl_->removed[static_cast<std::size_t>(id)];
}

glm::vec3 Crowd::position(int id) const {
  impl_->check_id("position", id);
  return impl_->backend->positions()[static_cast<std::size_t>(id)];
}

glm::vec2 Crowd::velocity(int id) const {
  impl_->check_id("velocity", id);
  return impl_->backend->velocities()[static_cast<std::size_t>(id)];
}

std::span<const glm::vec3> Crowd::positions() const {
  return impl_->backend->positions();
}

std::span<const glm::vec2> Crowd::velocities() const {
  return impl_->backend->velocities();
}

glm::vec2 Crowd::desired_velocity(int id) const {
  impl_->check_id("desired_velocity", id);
  if (impl_->removed[static_cast<std::size_t>(id)])
    return glm::vec2(0.0f);
  return impl_->backend->desired_velocity(id);
}

std::vector<CrowdCorner> Crowd::corners(int id) const {
  impl_->check_id("corners", id);
  std::vector<CrowdCorner> corners;
  if (impl_->removed[static_cast<std::size_t>(id)])
    return corners;
  for (const PathCorner& c : impl_->backend->corners(id))
    corners.push_back({c.position, (c.flags & DT_STRAIGHTPATH_END) != 0,
                       (c.flags & DT_STRAIGHTPATH_OFFMESH_CONNECTION) != 0});
  return corners;
}

bool Crowd::is_on_link(int id) const {
  impl_->check_id("is_on_link", id);
  const std::span<const std::uint8_t> on_links = impl_->backend->on_links();
  return static_cast<std::size_t>(id) < on_links.size() &&
         on_links[static_cast<std::size_t>(id)] != 0;
}

glm::vec3 Crowd::target(int id) const {
  impl_->check_id("target", id);
  return impl_->targets[static_cast<std::size_t>(id)].requested;
}

CrowdTargetState Crowd::target_state(int id) const {
  impl_->check_id("target_state", id);
  if (impl_->removed[static_cast<std::size_t>(id)])
    return CrowdTargetState::None;
  switch (impl_->backend->target_state(id)) {
  case TargetState::None:
    return CrowdTargetState::None;
  case TargetState::WaitingForPath:
    return CrowdTargetState::Requesting;
  case TargetState::Valid:
    return CrowdTargetState::Valid;
  case TargetState::Failed:
    return CrowdTargetState::Failed;
  case TargetState::Velocity:
    return CrowdTargetState::Velocity;
  }
  return CrowdTargetState::None;
}

namespace {

/// What a Crowd's checkpoint body starts with, so that another kind of checkpoint is refused:
/// "CROWDAPI" read as a little-endian u64.
constexpr std::uint64_t kCrowdCheckpointKind = 0x49504144574f5243ull;

// One field list for save and restore (host/checkpoint/archive.h).
constexpr auto kTargetFields = [](auto& archive, auto& t) {
  archive.fields(t.requested, t.planned, t.since_plan, t.leader, t.offset);
};

} // namespace

void Crowd::save_state(ArchiveWriter& out) const {
  const Impl& m = *impl_;
  out.put(static_cast<std::uint64_t>(m.params.size()));
  for (std::size_t id = 0; id < m.params.size(); ++id) {
    AgentSetup setup;
    setup.params = m.params[id];
    save_agent_setup(out, setup);
  }
  out.put(m.removed);
  out.put_records(m.targets, kTargetFields);
  m.backend->save(out);
}

void Crowd::restore_state(ArchiveReader& in) {
  Impl& m = *impl_;
  const std::size_t count = in.count();
  AgentParamsTable params;
  for (std::size_t k = 0; k < count; ++k) {
    params.push_back(restore_agent_setup(in, k).params);
  }
  m.params = std::move(params);
  in.get(m.removed);
  in.expect(m.removed.size(), count, "the removed flags' count");
  in.get_records(m.targets, kTargetFields);
  in.expect(m.targets.size(), count, "the targets' count");
  for (const TargetRecord& t : m.targets)
    if (t.leader < -1 || t.leader >= static_cast<int>(count))
      in.fail("a follower's leader is not an agent");
  m.backend->restore(in);
  in.expect(m.backend->positions().size(), count, "the backend's agent count");
}

void Crowd::save(const std::filesystem::path& file) const {
  const Impl& m = *impl_;
  try {
    ArchiveWriter out;
    // The options first: GCC 12 warns (-Wstringop-overflow, falsely) of an inlined first write
    // into the writer's empty buffer.
    save_solver_options(out, m.options.solver);
    out.put(kCrowdCheckpointKind);
    out.put(navmesh_fingerprint(m.navmesh.detour()));
    out.fields(m.options.target_replan_distance, m.options.target_replan_delay);
    save_state(out); // the detour backend refuses: DetourCrowd's state cannot be saved
    write_checkpoint_file(file, out);
  } catch (const std::exception& e) {
    throw ApiError(std::string("save: ") + e.what());
  }
}

void Crowd::restore(const std::filesystem::path& file) {
  try {
    const CheckpointBody body(file);
    ArchiveReader in = body.reader();
    CrowdOptions options = impl_->options;
    options.solver = restore_solver_options(in);
    options.solver.threads = impl_->options.solver.threads;
    std::uint64_t kind = 0;
    in.get(kind);
    if (kind != kCrowdCheckpointKind)
      in.fail("not a crowd::Crowd checkpoint");
    std::uint64_t fingerprint = 0;
    in.get(fingerprint);
    if (fingerprint != navmesh_fingerprint(impl_->navmesh.detour()))
      in.fail("it was saved on another navmesh (other tiles, or the same tiles added in another "
              "order)");
    in.get(options.target_replan_distance);
    in.get(options.target_replan_delay);
    std::optional<Crowd> fresh;
    try {
      fresh.emplace(Crowd(impl_->navmesh_owner, checked(options)));
    } catch (const std::exception& e) { // options out of range (ApiError, CrowdSolver's check)
      in.fail(std::string("its options are refused: ") + e.what());
    }
    fresh->restore_state(in);
    if (!in.at_end())
      in.fail("bytes after the crowd's state");
    // The obstacles are the navmesh's (the tile cache's), not saved: they stay as they stand.
    Impl& m = *fresh->impl_;
    m.obstacle_refs = std::move(impl_->obstacle_refs);
    m.obstacles = std::move(impl_->obstacles);
    m.obstacles_queued = impl_->obstacles_queued;
    impl_ = std::move(fresh->impl_);
  } catch (const CheckpointError& e) {
    throw ApiError(std::string("restore: ") + e.what());
  }
}

std::size_t Crowd::path_searches() const {
  return impl_->backend->path_searches();
}

std::string Crowd::executor_name() const {
  return impl_->backend->name();
}

const NavMesh& Crowd::navmesh() const {
  return impl_->navmesh;
}

} // namespace crowd
