// Our crowd backend: host corridors (CorridorNavigator) around the kernel stages, run by the
// CPU or the CUDA executor. One step follows dtCrowd::update's stage order.
#pragma once

#include "cuda/core/agent_arrays.h"
#include "cuda/core/executor.h"
#include "cuda/core/solver_options.h"
#include "host/backends/backend.h"
#include "host/navmesh/navmesh.h"
#include "host/paths/corridor_navigator.h"
#include "host/sim/wall_grid_builder.h"

#include <cstdint>
#include <memory>
#include <oneapi/tbb/task_arena.h>
#include <string>
#include <vector>

namespace crowd {

class CrowdSolver final : public CrowdBackend {
public:
  CrowdSolver(const NavMesh& navmesh, const SolverOptions& options,
              std::unique_ptr<Executor> executor);
  ~CrowdSolver() override;

  std::string name() const override { return executor_->name(); }
  int add_agent(const AgentSetup& setup) override;
  void reserve_agents(std::size_t agents) override;
  void remove_agent(int id) override;
  void set_goal(int id, const glm::vec3& goal) override;
  void stop_agent(int id) override;
  /// Agent `id`'s parameters from now on (dtCrowd::updateAgentParameters): radius, speed,
  /// acceleration, query range, separation, avoidance, standoff side and query filter type. A
  /// removed agent is left alone.
  void set_agent_params(int id, const AgentParams& params) override;
  /// Query filter `type` (0..15) from now on (CorridorNavigator::set_query_filter).
  void set_query_filter(int type, const dtQueryFilter& filter) override {
    navigator_->set_query_filter(type, filter);
  }
  const dtQueryFilter& query_filter(int type) const override {
    return navigator_->query_filter(type);
  }
  /// CorridorNavigator::move_target for agent `id`: its goal moves without a search; false
  /// where it could not (no corridor yet, a wall in the way), for the caller to set_goal.
  bool move_goal(int id, const glm::vec3& goal) override;
  /// CorridorNavigator::set_velocity for agent `id`: it moves at `velocity` (m/s), no path. A
  /// removed agent is left alone.
  void set_velocity(int id, const glm::vec3& velocity) override;
  /// Agent `id`'s desired velocity ((vx, vz), m/s) as the last step left it: its preferred
  /// velocity after the standoff breaker and separation (DetourCrowd's dvel).
  glm::vec2 desired_velocity(int id) const override;
  TargetState target_state(int id) const override { return navigator_->target_state(id); }
  std::vector<PathCorner> corners(int id) const override { return navigator_->corners(id); }
  std::size_t path_searches() const override { return navigator_->path_searches(); }
  void move_agent(int id, const glm::vec3& position) override;
  /// CorridorNavigator::navmesh_changed, and the wall grid and the executor's navmesh tables
  /// built again.
  void navmesh_changed() override;
  /// Executor::set_agent_share (both executors split), and the
  /// path trees of each step split alike (CorridorNavigator::set_agent_share). The rows may be
  /// in any order (row_sort_interval): every process sorts them alike, from the same positions.
  void split_across_processes(AgentShare* share) override;
  void step(float dt) override;
  /// By id, whatever the rows' order.
  std::span<const glm::vec3> positions() const override {
    return arrays_.agent_id.empty() ? std::span<const glm::vec3>(arrays_.position)
                                    : position_by_id_;
  }
  std::span<const glm::vec2> velocities() const override {
    return arrays_.agent_id.empty() ? std::span<const glm::vec2>(arrays_.velocity)
                                    : velocity_by_id_;
  }
  std::span<const std::uint8_t> on_links() const override { return navigator_->on_links(); }
  const StageTimes& last_step_stages() const override { return stages_; }
  const StepHealth& last_step_health() const override { return health_; }
  std::size_t host_memory_bytes() const override;
  std::size_t navmesh_table_bytes() const override;
  std::size_t device_memory_bytes() const override { return executor_->device_memory_bytes(); }
  void save(ArchiveWriter& out) const override;
  void restore(ArchiveReader& in) override;

  /// Moves the agents' rows so that row r holds what row order[r] held (AgentArrays::
  /// reorder_rows, every corridor row the executor holds fetched first); the agents keep their
  /// ids and every one's next step is the same bytes. Between steps; where the step is split
  /// across processes, on every process with the same `order` (sort_rows computes it alike from
  /// the same positions). Throws as reorder_rows.
  void reorder_rows(const std::vector<std::int32_t>& order);

  /// Whether the agents' rows may be in another order than their ids (sorted, or reordered):
  /// what reads the executor's rows directly (the viewer's device positions) must then not.
  bool rows_move() const { return options_.row_sort_interval > 0 || !arrays_.agent_id.empty(); }

  /// The kernel state, for inspection (neighbours, walls, status bits): agent `id` is in row
  /// arrays().row_of(id).
  const AgentArrays& arrays() const { return arrays_; }
  const Executor& executor() const { return *executor_; }
  const CorridorNavigator& navigator() const { return *navigator_; }
  /// Brings what the debug view reads of agent `id` in arrays() up to the last step's
  /// (Executor::read_back_for_inspection). A refresh of a mirror, hence const.
  void read_back_for_inspection(int id) const {
    executor_->read_back_for_inspection(static_cast<int>(row_of(id)));
  }
  /// The standoff breaker's tunables the kernels run with.
  const StandoffParams& standoff_params() const { return kernel_params_.standoff; }

private:
  /// Freezes the agents whose fault bits the kernels set this step (fault_guard.h).
  void freeze_faulted_agents();
  /// The rows in order of their agents' neighbour-grid cells, then ids (row_sort_interval).
  void sort_rows();
  /// position_by_id_ and velocity_by_id_ from the rows, where the rows are not the ids.
  void gather_by_id();
  /// Agent `id`'s row.
  std::size_t row_of(int id) const { return static_cast<std::size_t>(arrays_.row_of(id)); }
  /// The wall grid of the navmesh's boundary, handed to the executor.
  void build_walls();
  /// Grows the neighbour grid's cells to a query range of `range` where it is the largest.
  void cover_query_range(float range);

  const NavMesh& navmesh_;
  SolverOptions options_;
  tbb::task_arena arena_;
  std::unique_ptr<Executor> executor_;
  std::unique_ptr<CorridorNavigator> navigator_;
  WallGridData walls_;
  AgentArrays arrays_;
  KernelStepParams kernel_params_;
  float max_query_range_ = 0.0f;
  StageTimes stages_;
  StepHealth health_;
  std::vector<std::uint8_t> frozen_; ///< Per agent: 1 once frozen after a fault.
  /// positions() and velocities() by id, where the rows are not the ids (empty otherwise).
  std::vector<glm::vec3> position_by_id_;
  std::vector<glm::vec2> velocity_by_id_;
  AgentShare* agent_share_ = nullptr;
  std::uint64_t steps_ = 0; ///< Steps taken, for row_sort_interval.
};

} // namespace crowd
