#include "host/sim/crowd_solver.h"

#include "host/checkpoint/agent_arrays_archive.h"
#include "host/checkpoint/archive.h"
#include "host/paths/path_tree_pool.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace crowd {
namespace {

glm::vec2 ground_min(const NavMesh& navmesh) {
  return {navmesh.bounds_min().x, navmesh.bounds_min().z};
}
glm::vec2 ground_max(const NavMesh& navmesh) {
  return {navmesh.bounds_max().x, navmesh.bounds_max().z};
}

} // namespace

CrowdSolver::CrowdSolver(const NavMesh& navmesh, const SolverOptions& options,
                         std::unique_ptr<Executor> executor)
    : navmesh_(navmesh), options_(options),
      arena_(options.threads > 0 ? options.threads : tbb::task_arena::automatic),
      executor_(std::move(executor)) {
  if (options_.max_neighbors < 0 || options_.max_wall_segments < 0 || options_.max_corners < 1 ||
      options_.max_path_polys < 2 || options_.collision_iterations < 0 ||
      !(options_.collision_resolve_factor > 0.0f && options_.collision_resolve_factor < 2.0f) ||
      !(options_.collision_yield >= 0.0f && options_.collision_yield <= 1.0f) ||
      !(options_.standoff_wait > 0.0f) || !(options_.standoff_duration > 0.0f) ||
      !(options_.standoff_turn_degrees >= 0.0f && options_.standoff_turn_degrees <= 180.0f) ||
      !(options_.standoff_horizon_scale > 0.0f && options_.standoff_horizon_scale <= 1.0f) ||
      !(options_.standoff_keep_degrees >= 0.0f && options_.standoff_keep_degrees <= 90.0f) ||
      options_.row_sort_interval < 0)
    throw std::invalid_argument("solver options out of range");
  arrays_.max_neighbors = options_.max_neighbors;
  arrays_.max_segments = options_.max_wall_segments;
  navigator_ = std::make_unique<CorridorNavigator>(
      navmesh_, options_, arena_, arrays_,
      [this](std::span<const std::int32_t> which) {
        executor_->fetch_corridor_rows(arrays_, which);
      },
      [this](std::span<const std::int32_t> which, std::span<std::int32_t> first) {
        executor_->fetch_corridor_starts(arrays_, which, first);
      });
  build_walls();
  executor_->set_navmesh_tables(navigator_->tables());
  kernel_params_.collision_iterations = options_.collision_iterations;
  kernel_params_.collision.relaxation = options_.collision_resolve_factor;
  kernel_params_.collision.walls = options_.collision_walls;
  kernel_params_.collision.yield = options_.collision_yield;
  // The turns' cosines and sines once, here: the CPU and the GPU rotate by the same floats.
  const float turn = options_.standoff_turn_degrees * kRadiansPerDegree;
  const float keep = options_.standoff_keep_degrees * kRadiansPerDegree;
  kernel_params_.standoff = {
      options_.standoff_wait, options_.standoff_duration,      std::cos(turn),
      std::sin(turn),         options_.standoff_horizon_scale, std::cos(keep),
      std::sin(keep)};
}

CrowdSolver::~CrowdSolver() = default;

void CrowdSolver::build_walls() {
  // Wall cells of about a typical query range (12 x 0.4 m): a query visits a few cells.
  walls_ = build_wall_grid(navmesh_.boundary_segments(), ground_min(navmesh_), ground_max(navmesh_),
                           4.0f);
  executor_->set_walls(walls_);
}

void CrowdSolver::navmesh_changed() {
  navigator_->navmesh_changed();
  build_walls();
  executor_->set_navmesh_tables(navigator_->tables());
  gather_by_id(); // the navigator put agents whose polygon is gone elsewhere
}

namespace {

std::uint8_t standoff_side(StandoffRule rule) {
  return rule == StandoffRule::KeepRight  ? kStandoffRight
         : rule == StandoffRule::KeepLeft ? kStandoffLeft
                                          : kStandoffOff;
}

} // namespace

void CrowdSolver::cover_query_range(float range) {
  if (range > max_query_range_) {
    // The neighbour grid's cells cover the largest query range, so 3 x 3 cells suffice.
    max_query_range_ = range;
    kernel_params_.agent_grid =
        make_grid_spec(ground_min(navmesh_), ground_max(navmesh_), max_query_range_);
  }
}

int CrowdSolver::add_agent(const AgentSetup& setup) {
  const AgentParams& p = setup.params;
  const int id = arrays_.append(setup.position, p.radius, navmesh_.settings().agent_height,
                                p.max_accel, p.query_range(), p.separation_weight,
                                arrays_.avoidance_set_of(p.avoidance), standoff_side(p.standoff));
  const bool placed = navigator_->add_agent(id, p.max_speed, p.query_filter_type);
  if (!arrays_.agent_id.empty()) {
    position_by_id_.push_back(arrays_.position[row_of(id)]);
    velocity_by_id_.push_back(arrays_.velocity[row_of(id)]);
  }
  if (!placed) {
    // Keep ids dense: the agent exists but takes no part.
    arrays_.mode[row_of(id)] = kAgentInactive;
    throw std::runtime_error("agent " + std::to_string(id) + " (" + setup.json_path +
                             ") has no navmesh near its position");
  }
  cover_query_range(p.query_range());
  navigator_->set_target(id, setup.goal);
  frozen_.push_back(0);
  return id;
}

void CrowdSolver::reserve_agents(std::size_t agents) {
  arrays_.reserve(agents);
  frozen_.reserve(agents);
}

void CrowdSolver::remove_agent(int id) {
  arrays_.mode.at(row_of(id)) = kAgentInactive;
  arrays_.velocity[row_of(id)] = glm::vec2(0.0f);
  if (!velocity_by_id_.empty())
    velocity_by_id_[static_cast<std::size_t>(id)] = glm::vec2(0.0f);
  navigator_->clear_target(id);
  ++arrays_.layout_version;
}

void CrowdSolver::set_goal(int id, const glm::vec3& goal) {
  if (arrays_.mode.at(row_of(id)) == kAgentInactive || frozen_[static_cast<std::size_t>(id)])
    return;
  navigator_->set_target(id, goal);
}

void CrowdSolver::set_agent_params(int id, const AgentParams& p) {
  const std::size_t k = row_of(id);
  if (arrays_.mode.at(k) == kAgentInactive)
    return;
  arrays_.radius[k] = p.radius;
  arrays_.max_accel[k] = p.max_accel;
  arrays_.query_range[k] = p.query_range();
  arrays_.separation_weight[k] = p.separation_weight;
  arrays_.avoidance_set[k] = arrays_.avoidance_set_of(p.avoidance);
  arrays_.standoff_side[k] = standoff_side(p.standoff);
  navigator_->set_max_speed(id, p.max_speed);
  navigator_->set_filter_type(id, p.query_filter_type);
  cover_query_range(p.query_range());
  ++arrays_.layout_version; // the executor uploads the parameters again
}

bool CrowdSolver::move_goal(int id, const glm::vec3& goal) {
  if (arrays_.mode.at(row_of(id)) == kAgentInactive || frozen_[static_cast<std::size_t>(id)])
    return false;
  return navigator_->move_target(id, goal);
}

void CrowdSolver::stop_agent(int id) {
  if (arrays_.mode.at(row_of(id)) == kAgentInactive)
    return;
  navigator_->clear_target(id);
}

void CrowdSolver::set_velocity(int id, const glm::vec3& velocity) {
  if (arrays_.mode.at(row_of(id)) == kAgentInactive)
    return;
  navigator_->set_velocity(id, velocity);
}

glm::vec2 CrowdSolver::desired_velocity(int id) const {
  executor_->read_back_desired_velocity(static_cast<int>(row_of(id)));
  return arrays_.desired_velocity.at(row_of(id));
}

void CrowdSolver::move_agent(int id, const glm::vec3& position) {
  if (arrays_.mode.at(row_of(id)) == kAgentInactive)
    return;
  // Velocity and every kernel input stay; the position reaches the device with the next
  // step's inputs (StepInputs::Changed uploads positions).
  navigator_->move_agent(id, position);
  if (!position_by_id_.empty())
    position_by_id_[static_cast<std::size_t>(id)] = arrays_.position[row_of(id)];
}

void CrowdSolver::split_across_processes(AgentShare* share) {
  agent_share_ = share;
  executor_->set_agent_share(share);
  navigator_->set_agent_share(share);
}

void CrowdSolver::reorder_rows(const std::vector<std::int32_t>& order) {
  // The executor's copies of the corridor rows come to the host first; the other columns are
  // the host's after a step (the ones it does not download are written before they are read,
  // as after a checkpoint's restore), and the executor takes them all again (layout_version).
  // Split across processes, the rows another process holds (AgentShare: the corridor rows, the
  // kept state) are stale here and move with their agents like the rest: the share knows them
  // by agent id, and sends and takes them at their rows.
  if (!arrays_.corridors.all_held()) {
    std::vector<std::int32_t> every(static_cast<std::size_t>(arrays_.count()));
    std::iota(every.begin(), every.end(), 0);
    executor_->fetch_corridor_rows(arrays_, every);
  }
  arrays_.reorder_rows(order);
  gather_by_id();
}

void CrowdSolver::sort_rows() {
  const GridSpec& grid = kernel_params_.agent_grid;
  std::vector<std::pair<std::int32_t, std::int32_t>> by_cell(arrays_.position.size());
  for (std::size_t row = 0; row < by_cell.size(); ++row) {
    const glm::vec3& p = arrays_.position[row];
    by_cell[row] = {grid.key(grid.cell_of({p.x, p.z})), arrays_.id_of(static_cast<int>(row))};
  }
  std::sort(by_cell.begin(), by_cell.end());
  std::vector<std::int32_t> order(by_cell.size());
  bool moved = false;
  for (std::size_t r = 0; r < order.size(); ++r) {
    order[r] = arrays_.row_of(by_cell[r].second);
    moved = moved || order[r] != static_cast<std::int32_t>(r);
  }
  if (moved)
    reorder_rows(order);
}

void CrowdSolver::gather_by_id() {
  if (arrays_.agent_id.empty()) {
    position_by_id_ = {};
    velocity_by_id_ = {};
    return;
  }
  arrays_.by_id(arrays_.position, position_by_id_);
  arrays_.by_id(arrays_.velocity, velocity_by_id_);
}

// One step, in the order of dtCrowd::update (DetourCrowd.cpp):
//   0   every row_sort_interval steps, the rows sorted by place (sort_rows; ours, not Detour's);
//   1-3 path validity (the executor's look-ahead over every corridor, then the host acting on
//       what it found), budgeted path searches, topology optimisation (host);
//   5   corners, visibility shortcut and steering toward the corners (executor), with Detour
//       for what the navmesh tables cannot answer (host);
//   4, 6-11 the kernel stages: grid, proximity, separation, velocity planning, integration,
//       collisions (executor; Executor::step lists them);
//   12  the corridor move along the navmesh (executor, then host for what the tables cannot
//       answer). Corners need no neighbours, so they run before the grid instead of after it.
void CrowdSolver::step(float dt) {
  stages_.clear();
  health_ = {};
  kernel_params_.dt = dt;
  // Sorted as a step begins, not as one ends: between steps the executor's rows (what the debug
  // view and desired_velocity read back) stay in the order of the host's.
  if (options_.row_sort_interval > 0 && steps_ > 0 &&
      steps_ % static_cast<std::uint64_t>(options_.row_sort_interval) == 0) {
    ScopedStage stage(stages_, "sort_rows");
    sort_rows();
  }
  {
    ScopedStage stage(stages_, "paths");
    arena_.execute([&] { executor_->check_corridors(arrays_); });
  }
  navigator_->plan(dt, stages_);
  executor_->set_path_trees(navigator_->path_trees().view(), navigator_->path_trees().version());
  {
    ScopedStage stage(stages_, "corridors");
    arena_.execute(
        [&] { executor_->follow_corridors(arrays_, options_.path_optimization_range_factor); });
    navigator_->answer_following();
  }
  executor_->step(arrays_, kernel_params_, stages_);
  freeze_faulted_agents();
  NavmeshCorrections corrections;
  {
    ScopedStage stage(stages_, "move_corridors");
    arena_.execute([&] { corrections = executor_->move_corridors(arrays_); });
    navigator_->answer_moves(corrections);
    navigator_->advance_links(dt);
  }
  health_.navmesh_corrections = corrections.count;
  health_.max_navmesh_correction = corrections.max_distance;
  health_.link_traversals = navigator_->links_taken();
  ++steps_;
  gather_by_id();
}

void CrowdSolver::freeze_faulted_agents() {
  for (int i = 0; i < arrays_.count(); ++i) { // by id: new_faults in id order
    const std::size_t k = static_cast<std::size_t>(i);
    const std::uint8_t faults = arrays_.status[row_of(i)] & kFaultBits;
    if (!faults || frozen_[k])
      continue;
    // The kernels kept its last finite state; from now on it stands there, an obstacle to
    // the others like any standing agent.
    frozen_[k] = 1;
    navigator_->clear_target(i);
    const char* stage = (faults & kFaultSteering)      ? "steering"
                        : (faults & kFaultIntegration) ? "integration"
                                                       : "collision";
    health_.new_faults.push_back({i, stage});
  }
}

std::size_t CrowdSolver::host_memory_bytes() const {
  return arrays_.memory_bytes() + navigator_->memory_bytes() + walls_.memory_bytes() +
         executor_->host_memory_bytes() + position_by_id_.capacity() * sizeof(glm::vec3) +
         velocity_by_id_.capacity() * sizeof(glm::vec2);
}

std::size_t CrowdSolver::navmesh_table_bytes() const {
  return navigator_->navmesh_table_bytes() + walls_.memory_bytes();
}

// Health and stage times are rewritten by every step; the executors keep nothing between
// steps but device mirrors, which a restore's new layout_version makes them upload again.
// Under the CUDA executor the arrays a step does not download (preferred, desired and chosen
// velocities, proximity rows, displacements) are stale here; a resumed step writes each of them
// before it reads it, so they change no trajectory. Reading them back first would also overwrite
// what the host changed since the step (a removed agent's velocity, a moved agent's position).
void CrowdSolver::save(ArchiveWriter& out) const {
  if (arrays_.agent_id.empty()) {
    save_agent_arrays(out, arrays_);
  } else {
    // Saved in id order, as a run whose rows never moved: a copy without its corridor rows
    // (the navigator saves those by id), put back in id order.
    AgentArrays in_id_order = arrays_;
    in_id_order.corridors = CorridorArrays{};
    in_id_order.reorder_rows(arrays_.agent_row);
    save_agent_arrays(out, in_id_order);
  }
  navigator_->save(out);
  out.put(frozen_);
  out.put(max_query_range_);
}

void CrowdSolver::restore(ArchiveReader& in) {
  restore_agent_arrays(in, arrays_);
  navigator_->restore(in);
  in.get(frozen_);
  in.expect(frozen_.size(), static_cast<std::uint64_t>(arrays_.count()), "the frozen flags' count");
  in.get(max_query_range_);
  if (max_query_range_ > 0.0f)
    kernel_params_.agent_grid =
        make_grid_spec(ground_min(navmesh_), ground_max(navmesh_), max_query_range_);
  gather_by_id(); // restored in id order
}

} // namespace crowd
