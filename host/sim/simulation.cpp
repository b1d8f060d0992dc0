#include "host/sim/simulation.h"

#include "cuda/core/parallel_agents.h"
#include "cuda/kernels/fault_guard.h"
#include "host/backends/detour_backend.h"
#include "host/checkpoint/archive.h"
#include "host/navmesh/ground_surface.h"
#include "host/navmesh/scenario_geometry.h"
#include "host/output/deadlock_monitor.h"
#include "host/output/lane_order.h"
#include "host/paths/walking_direction.h"
#include "host/scenario/agent_params_check.h"
#include "host/scenario/agent_setup_archive.h"
#include "host/scenario/agent_setup_table.h"
#include "host/sim/agent_schedule.h"
#include "host/sim/crowd_solver.h"
#include "host/sim/moving_target.h"
#include "host/sim/obstacle_events.h"
#include "host/sim/periodic_wrap.h"
#include "host/sim/setup_routes.h"
#include "host/sim/stuck_detector.h"

#include <DetourNavMeshQuery.h>
#include <charconv>
#include <chrono>
#include <cmath>
#include <optional>

namespace crowd {

StandoffRule parse_standoff_rule(const std::string& name) {
  if (name == "keep_right")
    return StandoffRule::KeepRight;
  if (name == "keep_left")
    return StandoffRule::KeepLeft;
  if (name == "off")
    return StandoffRule::Off;
  throw std::invalid_argument("unknown standoff rule '" + name +
                              "' (use keep_right, keep_left or off)");
}

AvoidanceModel parse_avoidance_model(const std::string& name) {
  if (const AvoidanceModelName* known = find_avoidance_model(name))
    return known->model;
  throw std::invalid_argument("unknown avoidance model '" + name +
                              "' (use detour, ttc, mass or orca)");
}

ArrivalRule parse_arrival_rule(const std::string& name) {
  if (name == "contact")
    return ArrivalRule::Contact;
  if (name == "radius")
    return ArrivalRule::Radius;
  throw std::invalid_argument("unknown arrival rule '" + name + "' (use contact or radius)");
}

namespace {

/// Scenario extension `query_filters`: one filter as Detour's.
dtQueryFilter detour_filter(const QueryFilterSpec& spec) {
  static_assert(QueryFilterSpec::kAreas == DT_MAX_AREAS);
  dtQueryFilter filter;
  filter.setIncludeFlags(spec.include_flags);
  filter.setExcludeFlags(spec.exclude_flags);
  for (int area = 0; area < QueryFilterSpec::kAreas; ++area)
    filter.setAreaCost(area, spec.area_costs[static_cast<std::size_t>(area)]);
  return filter;
}

/// The options of the crowd that runs `scene_agents` agents of `scenario` on `navmesh`.
/// DetourCrowd cannot grow after init: room for the scene plus some agents added through the
/// API, within what its 16-bit grid allows (a larger scene is refused with the reason).
CrowdOptions crowd_options(const SimulationOptions& options, const Scenario& scenario,
                           const NavMesh& navmesh, std::size_t scene_agents) {
  CrowdOptions crowd;
  crowd.backend = options.backend;
  crowd.solver = options.solver;
  crowd.agent_share = options.agent_share;
  crowd.cuda_device = options.cuda_device;
  const int scene = static_cast<int>(scene_agents);
  crowd.max_agents =
      scene > DetourCrowdBackend::kMaxCapacity
          ? scene
          : std::min(DetourCrowdBackend::kMaxCapacity, scene + std::max(64, scene / 8));
  crowd.max_agent_radius = std::max(scenario.max_agent_radius(), navmesh.settings().agent_radius);
  return crowd;
}

/// The agents with the rules the options impose on all of them.
std::vector<AgentSetup> with_overrides(std::vector<AgentSetup> setups,
                                       const SimulationOptions& options) {
  for (AgentSetup& setup : setups) {
    setup.params.standoff = options.standoff.value_or(setup.params.standoff);
    setup.params.arrival = options.arrival.value_or(setup.params.arrival);
    if (options.avoidance_model && setup.params.avoidance.model != *options.avoidance_model) {
      const AvoidanceModel model = *options.avoidance_model;
      setup.params.avoidance = avoidance_defaults(model);
      // DetourCrowd's sampling by its preset's name, the others by the model's.
      setup.params.avoidance_name =
          model == kAvoidanceDetour ? "good" : avoidance_model_name(model);
    }
  }
  return setups;
}

/// The float dt as the decimal the user wrote (0.1f -> 0.1), so that times are step x 0.1
/// and not step x 0.100000001490116.
double decimal_seconds(float dt) {
  char text[32];
  const auto end = std::to_chars(text, text + sizeof(text), dt).ptr;
  double value = static_cast<double>(dt);
  std::from_chars(text, end, value);
  return value;
}

} // namespace

struct Simulation::Impl {
  Scenario scenario;
  /// The scenario's navmesh, kept by the crowd (navmesh is it, read-only).
  std::shared_ptr<NavMesh> built_navmesh;
  const NavMesh& navmesh;
  ShortestRoutes routes; ///< Routes of agents added and goals set after construction.
  AgentSetupTable setups;
  std::size_t scenario_agents;    ///< Setups made by the scenario (the rest came through the API).
  Crowd crowd;                    ///< The engine: agents enter it as they start (backend ids).
  ObstacleEvents obstacle_events; ///< Scenario extension `events`.
  AgentSchedule schedule;         ///< Entries, waypoints, arrivals; agent ids <-> backend ids.
  std::optional<MetricsCollector> metrics;
  std::vector<std::uint8_t> frozen;
  /// 1 while the agent's current target can be reached from where it was when the target was
  /// set: a stuck agent whose goal cannot be reached is not replanned.
  std::vector<std::uint8_t> goal_reachable;
  std::vector<FaultRecord> faults;
  StuckDetector stuck;
  PeriodicWrap periodic;             ///< Scenario extension world.periodic; inert otherwise.
  std::vector<std::uint8_t> walking; // scratch of handle_stuck
  DeadlockMonitor deadlocks;
  LaneOrder lanes;
  std::vector<glm::vec3> targets;        // scratch of observe_flow
  std::vector<std::uint8_t> stuck_flags; // scratch of observe_flow
  long long navmesh_corrections = 0;
  long long link_traversals = 0;      ///< Off-mesh links crossed (StepHealth::link_traversals).
  std::vector<std::uint8_t> on_links; ///< on_links_by_id()'s.
  double max_navmesh_correction = 0.0;
  /// Scenario extension `follow`, per agent (used for followers only): the goal its last path
  /// search was for, and the seconds since (host/sim/moving_target.h).
  std::vector<glm::vec3> follow_planned;
  std::vector<float> follow_since_plan;
  std::vector<std::size_t> followers; ///< The scenario's followers, by id.
  int step_index = 0;
  bool observe = true;                           ///< SimulationOptions::observe.
  ObservationSplit* observation_split = nullptr; ///< SimulationOptions::observation_split.
  double last_step_ms = 0.0;
  StageTimes step_stages; ///< The last step's stages, "host" and "observe" included.
  /// For observers' path queries (walking_direction), made on first use.
  mutable NavQueryPtr observer_query;
  /// The scenario's ground, for observers (ground_height), indexed on first use.
  mutable std::unique_ptr<GroundSurface> ground;

  Impl(Scenario s, const SimulationOptions& options)
      : scenario(std::move(s)), built_navmesh(std::make_shared<NavMesh>(NavMesh::build(scenario))),
        navmesh(*built_navmesh), routes(navmesh),
        setups(with_overrides(populate(scenario, navmesh), options)),
        scenario_agents(setups.size()),
        crowd(built_navmesh, crowd_options(options, scenario, navmesh, setups.size())),
        obstacle_events(scenario, crowd), schedule(navmesh.settings().agent_height),
        stuck(options.stuck_seconds), periodic(scenario),
        deadlocks(navmesh.settings().agent_height), lanes(navmesh.settings().agent_height),
        observe(options.observe), observation_split(options.observation_split) {
    for (std::size_t type = 0; type < scenario.query_filters.size(); ++type)
      crowd.set_query_filter(static_cast<int>(type), detour_filter(scenario.query_filters[type]));
    crowd.reserve_agents(setups.size());
    schedule.add_agents(setups, 0, crowd, 0.0);
    frozen.assign(setups.size(), 0);
    for (std::size_t id = 0; id < setups.size(); ++id)
      add_observed(id);
    // A batch of its own: its worker threads' queries (each with Detour's largest node pool and
    // a path buffer as long as the navmesh has polygons) go with it; `routes` keeps only the
    // calling thread's, for the agents added and the goals set later.
    std::vector<ShortestRoute> measured = measure_routes(ShortestRoutes(navmesh), setups);
    for (std::size_t i = 0; i < setups.size(); ++i) {
      // A follower's way is its leader's, not known before the run: no path or time ratio, and
      // no reachability to judge (a route of no length is left out of them).
      if (setups[i].leader >= 0) {
        measured[i] = ShortestRoute{};
        followers.push_back(i);
      }
      goal_reachable.push_back(measured[i].reachable ? 1 : 0);
      follow_planned.push_back(setups[i].goal);
      follow_since_plan.push_back(0.0f);
    }
    metrics.emplace(scenario, navmesh, setups, measured);
  }

  // Scenario extension `follow`, before each step (as Crowd::update does for request_follow):
  // each follower's goal is its leader's position plus its offset, aimed ahead of a walking
  // leader (follow_point, host/sim/moving_target.h). The corridor's end follows the goal; a new
  // search comes when it moved far, at most once a second (host/sim/moving_target.h, the Crowd's
  // CrowdOptions::target_replan_distance and target_replan_delay). A leader that left (removed)
  // leaves its followers their last goal.
  void follow_leaders(float dt) {
    const std::span<const AgentPhase> phases = schedule.phases();
    const std::span<const glm::vec3> at = positions();
    const std::span<const glm::vec2> velocities = schedule.velocities(crowd);
    for (const std::size_t i : followers) {
      const AgentPlacement& s = setups[i];
      if (s.leader < 0)
        continue; // it was given a goal of its own (set_goal)
      follow_since_plan[i] += dt;
      const auto l = static_cast<std::size_t>(s.leader);
      if ((phases[i] != AgentPhase::Walking && phases[i] != AgentPhase::Pending) || frozen[i] ||
          phases[l] == AgentPhase::Removed)
        continue;
      const glm::vec2 leader_velocity =
          phases[l] == AgentPhase::Walking ? velocities[l] : glm::vec2(0.0f);
      const std::optional<glm::vec3> placed = navmesh.nearest_point(
          follow_point(at[l], leader_velocity, s.follow_offset, setups.params().radius(i),
                       setups.params().max_speed(i)));
      if (!placed)
        continue;
      setups.placement(i).goal = *placed;
      const int b = schedule.backend_of(static_cast<int>(i));
      if (b < 0)
        continue; // it heads for s.goal when it enters
      if (!target_search_due(*placed, follow_planned[i], follow_since_plan[i],
                             crowd.options().target_replan_distance,
                             crowd.options().target_replan_delay, true,
                             [&] { return crowd.adjust_move_target(b, *placed); }))
        continue;
      crowd.request_path(b, *placed);
      follow_planned[i] = *placed;
      follow_since_plan[i] = 0.0f;
    }
  }

  // Agents the backend froze this step, and how far it had to put agents back on the navmesh.
  void record_health(const StepHealth& health, double now) {
    for (const AgentFault& fault : health.new_faults) {
      const int id = schedule.agent_of_backend(fault.agent);
      frozen[static_cast<std::size_t>(id)] = 1;
      stuck.stop(id, now);
      faults.push_back({id, step_index, fault.stage});
    }
    navmesh_corrections += health.navmesh_corrections;
    link_traversals += health.link_traversals;
    max_navmesh_correction =
        std::max(max_navmesh_correction, static_cast<double>(health.max_navmesh_correction));
  }

  std::span<const glm::vec3> positions() const { return schedule.positions(crowd); }

  /// The backend's on-link flags (CrowdBackend::on_links) by agent id; empty when no agent is
  /// on a link.
  std::span<const std::uint8_t> on_links_by_id() {
    const std::span<const std::uint8_t> by_index = crowd.backend().on_links();
    on_links.clear();
    if (std::find(by_index.begin(), by_index.end(), std::uint8_t{1}) == by_index.end())
      return on_links;
    on_links.resize(setups.size());
    for (std::size_t id = 0; id < setups.size(); ++id) {
      const int b = schedule.backend_of(static_cast<int>(id));
      on_links[id] = b >= 0 && static_cast<std::size_t>(b) < by_index.size()
                         ? by_index[static_cast<std::size_t>(b)]
                         : std::uint8_t{0};
    }
    return on_links;
  }

  // The stuck detector's and the flow observers' record of a new agent.
  void add_observed(std::size_t id) {
    const float radius = setups.params().radius(id);
    stuck.add_agent(setups[id].position, radius, setups[id].start_time);
    deadlocks.add_agent(radius);
    lanes.add_agent(radius);
  }

  // Deadlocks and lane order at the end of a step (observers: they steer nothing). Split, the
  // deadlocks (only the stuck agents, a few) are the observing rank's alone.
  void observe_flow() {
    schedule.targets(setups, targets);
    if (observe) {
      stuck.stuck_flags(stuck_flags);
      deadlocks.observe(positions(), targets, stuck_flags);
    }
    lanes.observe(positions(), schedule.phases(), targets, observation_split);
  }

  // Replans the agents that made no progress toward a target they can reach.
  void handle_stuck(double now) {
    const auto phases = schedule.phases();
    walking.resize(setups.size());
    parallel_for_each_agent(
        static_cast<int>(setups.size()), AgentSchedule::kScanGrain, [&](int agent) {
          const auto i = static_cast<std::size_t>(agent);
          walking[i] = phases[i] == AgentPhase::Walking && !frozen[i] && goal_reachable[i] &&
                       !schedule.following(setups[i]); // keeping its place
        });
    for (const int id : stuck.observe(now, positions(), walking))
      schedule.replan(id, setups[static_cast<std::size_t>(id)], crowd);
  }

  void check_id(int id) const {
    if (id < 0 || id >= static_cast<int>(setups.size()))
      throw ApiError("unknown agent id " + std::to_string(id) + " (ids are 0.." +
                     std::to_string(static_cast<int>(setups.size()) - 1) + ")");
  }
};

Simulation Simulation::from_file(const std::filesystem::path& scenario_file,
                                 const SimulationOptions& options) {
  return Simulation(load_scenario(scenario_file), options);
}

Simulation::Simulation(Scenario scenario, const SimulationOptions& options)
    : impl_(std::make_unique<Impl>(std::move(scenario), options)) {}
Simulation::Simulation(Simulation&&) noexcept = default;
Simulation& Simulation::operator=(Simulation&&) noexcept = default;
Simulation::~Simulation() = default;

int Simulation::add_agent(const glm::vec3& position, const glm::vec3& goal,
                          const AgentParams& params) {
  if (!is_finite(position) || !is_finite(goal))
    throw ApiError("add_agent: position and goal must be finite");
  if (const auto problem = agent_params_problem(params))
    throw ApiError("add_agent: " + *problem);
  AgentSetup setup;
  setup.params = params;
  setup.json_path = "api";
  const auto placed = impl_->navmesh.nearest_point(position);
  if (!placed)
    throw ApiError("add_agent: no navmesh near (" + std::to_string(position.x) + ", " +
                   std::to_string(position.y) + ", " + std::to_string(position.z) + ")");
  setup.position = *placed;
  setup.goal = impl_->navmesh.nearest_point(goal).value_or(goal);
  setup.start_time = time(); // It enters now: its arrival time counts from here.
  const int id = static_cast<int>(impl_->setups.size());
  impl_->setups.push_back(setup);
  try {
    impl_->schedule.add_agents(impl_->setups, static_cast<std::size_t>(id), impl_->crowd, time());
  } catch (...) {
    impl_->setups.pop_back();
    throw;
  }
  impl_->frozen.push_back(0);
  impl_->add_observed(static_cast<std::size_t>(id)); // its start_time is now
  const ShortestRoute route =
      impl_->routes.measure(route_stops(setup), setup.params.arrival_radius);
  impl_->goal_reachable.push_back(route.reachable ? 1 : 0);
  impl_->follow_planned.push_back(setup.goal);
  impl_->follow_since_plan.push_back(0.0f);
  impl_->metrics->add_agent(setup, route);
  impl_->metrics->record_start(id, time());
  return id;
}

void Simulation::remove_agent(int id) {
  impl_->check_id(id);
  impl_->schedule.remove_agent(id, impl_->crowd);
  impl_->stuck.stop(id, time());
}

void Simulation::set_goal(int id, const glm::vec3& goal) {
  impl_->check_id(id);
  if (!is_finite(goal))
    throw ApiError("set_goal: goal must be finite");
  if (impl_->schedule.phases()[static_cast<std::size_t>(id)] == AgentPhase::Removed)
    throw ApiError("set_goal: agent " + std::to_string(id) + " was removed");
  if (impl_->frozen[static_cast<std::size_t>(id)])
    throw ApiError("set_goal: agent " + std::to_string(id) +
                   " was frozen after a non-finite state (see faults())");
  AgentPlacement& setup = impl_->setups.placement(static_cast<std::size_t>(id));
  setup.goal = impl_->navmesh.nearest_point(goal).value_or(goal);
  setup.leader = -1; // a follower follows no more
  impl_->schedule.set_goal(id, setup, impl_->crowd);
  // The agent now walks straight to the new goal (past its waypoints): judge that route.
  const glm::vec3 from = impl_->positions()[static_cast<std::size_t>(id)];
  const glm::vec3 stops[] = {from, setup.goal};
  impl_->goal_reachable[static_cast<std::size_t>(id)] =
      impl_->routes
              .measure(stops, impl_->setups.params().arrival_radius(static_cast<std::size_t>(id)))
              .reachable
          ? 1
          : 0;
  impl_->stuck.restart(id, from, time());
}

void Simulation::step() {
  Impl& m = *impl_;
  const auto start = std::chrono::steady_clock::now();
  // The obstacles first, so that followers aim on the navmesh as the step will find it.
  m.obstacle_events.apply_due(time());
  m.follow_leaders(m.scenario.dt);
  m.crowd.update(m.scenario.dt);
  ++m.step_index;
  const double now = time();
  const CrowdBackend& backend = m.crowd.backend();
  m.record_health(backend.last_step_health(), now);
  // Before arrivals are tested and anything observes the step: every output sees wrapped
  // positions only.
  m.periodic.apply(m.schedule, m.crowd);
  m.schedule.after_step(m.setups, m.crowd, *m.metrics, now);
  m.handle_stuck(now);
  const auto stepped = std::chrono::steady_clock::now();
  m.last_step_ms = std::chrono::duration<double, std::milli>(stepped - start).count();
  // The backend's stages, then "host": the rest of the step on the host (the schedule,
  // arrivals, stuck agents, the backend's bookkeeping between its stages), and "observe": the
  // metrics and flow observers, which last_step_ms leaves out.
  m.step_stages = backend.last_step_stages();
  double staged_ms = 0.0;
  for (const auto& [stage, ms] : m.step_stages.entries())
    staged_ms += ms;
  m.step_stages.add("host", std::max(0.0, m.last_step_ms - staged_ms));
  if (m.observe || m.observation_split != nullptr) {
    m.metrics->observe_step(positions(), phases(), m.on_links_by_id(), m.observation_split);
    m.observe_flow();
  }
  m.step_stages.add("observe", std::chrono::duration<double, std::milli>(
                                   std::chrono::steady_clock::now() - stepped)
                                   .count());
  m.metrics->record_step_time(m.last_step_ms, m.step_stages);
}

void Simulation::record_observer_time(double ms) {
  impl_->metrics->add_stage_time("observe", ms);
}

int Simulation::step_index() const {
  return impl_->step_index;
}
double Simulation::time() const {
  return impl_->step_index * decimal_seconds(impl_->scenario.dt);
}
int Simulation::agent_count() const {
  return static_cast<int>(impl_->setups.size());
}
glm::vec3 Simulation::position(int id) const {
  impl_->check_id(id);
  return positions()[static_cast<std::size_t>(id)];
}
glm::vec2 Simulation::velocity(int id) const {
  impl_->check_id(id);
  return velocities()[static_cast<std::size_t>(id)];
}
AgentPhase Simulation::phase(int id) const {
  impl_->check_id(id);
  return phases()[static_cast<std::size_t>(id)];
}
bool Simulation::frozen(int id) const {
  impl_->check_id(id);
  return impl_->frozen[static_cast<std::size_t>(id)] != 0;
}
std::span<const FaultRecord> Simulation::faults() const {
  return impl_->faults;
}
AgentParams Simulation::agent_params(int id) const {
  impl_->check_id(id);
  return impl_->setups.params()[static_cast<std::size_t>(id)];
}
const std::string& Simulation::agent_type(int id) const {
  impl_->check_id(id);
  return impl_->setups.params().type(static_cast<std::size_t>(id));
}
std::span<const glm::vec3> Simulation::positions() const {
  return impl_->positions();
}
std::span<const glm::vec2> Simulation::velocities() const {
  return impl_->schedule.velocities(impl_->crowd);
}
std::span<const AgentPhase> Simulation::phases() const {
  return impl_->schedule.phases();
}
std::optional<glm::vec2> Simulation::walking_direction(int id) const {
  impl_->check_id(id);
  if (!impl_->observer_query)
    impl_->observer_query = impl_->navmesh.make_query(512);
  const auto k = static_cast<std::size_t>(id);
  return crowd::walking_direction(impl_->navmesh, *impl_->observer_query, positions()[k],
                                  impl_->schedule.current_target(id, impl_->setups[k]));
}

float Simulation::ground_height(const glm::vec3& point) const {
  if (!impl_->ground)
    impl_->ground = std::make_unique<GroundSurface>(scenario_geometry(impl_->scenario));
  return impl_->ground->height_under(point);
}

const Scenario& Simulation::scenario() const {
  return impl_->scenario;
}
const NavMesh& Simulation::navmesh() const {
  return impl_->navmesh;
}
std::string Simulation::backend_name() const {
  return impl_->crowd.backend().name();
}
const StageTimes& Simulation::last_step_stages() const {
  return impl_->step_stages;
}
double Simulation::last_step_ms() const {
  return impl_->last_step_ms;
}
std::size_t Simulation::host_memory_bytes() const {
  return impl_->crowd.backend().host_memory_bytes();
}
std::size_t Simulation::navmesh_table_bytes() const {
  return impl_->crowd.backend().navmesh_table_bytes();
}
std::size_t Simulation::device_memory_bytes() const {
  return impl_->crowd.backend().device_memory_bytes();
}
MetricsSummary Simulation::metrics() const {
  MetricsSummary summary =
      impl_->metrics->summary(impl_->crowd.backend().name(), impl_->step_index);
  summary.faults = impl_->faults;
  summary.stuck = impl_->stuck.stats(time());
  summary.deadlocks = impl_->deadlocks.stats();
  summary.lane_index = impl_->lanes.index();
  summary.navmesh_corrections = impl_->navmesh_corrections;
  summary.link_traversals = impl_->link_traversals;
  summary.max_navmesh_correction = impl_->max_navmesh_correction;
  return summary;
}
namespace {

// A fault record in a checkpoint (host/checkpoint/archive.h), shared by save and restore.
constexpr auto kFaultFields = [](auto& archive, auto& f) {
  archive.fields(f.agent, f.step, f.stage);
};

} // namespace

void Simulation::save_checkpoint(ArchiveWriter& out) const {
  const Impl& m = *impl_;
  out.put(m.scenario.dt);
  out.put(static_cast<std::uint64_t>(m.scenario_agents));
  out.put(m.step_index);
  out.put(static_cast<std::uint64_t>(m.setups.size()));
  for (std::size_t id = 0; id < m.setups.size(); ++id)
    save_agent_setup(out, m.setups.setup(id));
  m.crowd.save_state(out);
  m.schedule.save(out);
  m.metrics->save(out);
  m.stuck.save(out);
  m.deadlocks.save(out);
  m.lanes.save(out);
  out.put(m.frozen);
  out.put(m.goal_reachable);
  out.put_records(m.faults, kFaultFields);
  out.fields(m.navmesh_corrections, m.max_navmesh_correction, m.link_traversals);
  out.put(m.follow_planned);
  out.put(m.follow_since_plan);
}

void Simulation::restore_checkpoint(ArchiveReader& in) {
  Impl& m = *impl_;
  const auto dt = in.get<float>();
  const auto scenario_agents = in.get<std::uint64_t>();
  if (dt != m.scenario.dt || scenario_agents != m.scenario_agents)
    throw CheckpointError(in.file() + ": written for another scenario (" +
                          std::to_string(scenario_agents) + " agents, dt " + std::to_string(dt) +
                          "; this one has " + std::to_string(m.scenario_agents) + ", dt " +
                          std::to_string(m.scenario.dt) + ")");
  in.get(m.step_index);
  // The obstacles that stood then, put down at the steps they were (the same rebuilds in the
  // same order give the tiles the same polygon references as the saved corridors name).
  const double clock_dt = decimal_seconds(m.scenario.dt);
  for (int k = m.obstacle_events.next_due_step(clock_dt); k < m.step_index;
       k = m.obstacle_events.next_due_step(clock_dt))
    m.obstacle_events.apply_due(k * clock_dt);
  const std::size_t agents = in.count();
  if (agents < m.scenario_agents)
    in.fail("fewer agents than the scenario has");
  AgentSetupTable setups;
  for (std::size_t id = 0; id < agents; ++id) {
    const AgentSetup setup = restore_agent_setup(in, id);
    if (setup.leader < -1 || setup.leader >= static_cast<int>(agents))
      in.fail("an agent follows an agent the checkpoint does not have");
    setups.push_back(setup);
  }
  m.setups = std::move(setups);
  m.crowd.restore_state(in);
  m.schedule.restore(in, m.setups, m.crowd.positions().size());
  m.metrics->restore(in);
  m.stuck.restore(in);
  m.deadlocks.restore(in);
  m.lanes.restore(in);
  in.get(m.frozen);
  in.expect(m.frozen.size(), m.setups.size(), "the number of frozen flags");
  in.get(m.goal_reachable);
  in.expect(m.goal_reachable.size(), m.setups.size(), "the number of reachability flags");
  in.get_records(m.faults, kFaultFields);
  in.fields(m.navmesh_corrections, m.max_navmesh_correction, m.link_traversals);
  in.get(m.follow_planned);
  in.expect(m.follow_planned.size(), m.setups.size(), "the followers' planned goals");
  in.get(m.follow_since_plan);
  in.expect(m.follow_since_plan.size(), m.setups.size(), "the followers' replan clocks");
}

const CrowdSolver* Simulation::crowd_solver() const {
  return dynamic_cast<const CrowdSolver*>(&impl_->crowd.backend());
}

int Simulation::backend_index(int id) const {
  position(id); // validates the id
  return impl_->schedule.backend_of(id);
}

int Simulation::agent_of_backend_index(int index) const {
  return impl_->schedule.agent_of_backend(index);
}

} // namespace crowd
