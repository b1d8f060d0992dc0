// Runs the kernel stages of one step (3 grid, 4 proximity, 5 steering, 6 avoidance,
// 7 integrate, 8 collisions) on the host's AgentArrays: in place on the CPU, or on a GPU
// with the inputs uploaded and positions and velocities downloaded.
//
// A step is one list of phases, written once in Executor::step (executor.cpp). Each phase is a
// public method, so tests and benchmarks run exactly what a step runs, one stage at a time:
// the CUDA-vs-CPU tests give both executors the same arrays, run one phase, read every array
// back and compare (tests/support/executor_stages.h).
#pragma once

#include "cuda/core/agent_arrays.h"
#include "cuda/core/agent_share.h"
#include "cuda/core/kernel_stage.h"
#include "cuda/core/stage_timer.h"
#include "cuda/core/wall_grid_data.h"
#include "cuda/kernels/collision.h"
#include "cuda/kernels/corridor_following.h"
#include "cuda/kernels/navmesh_tables.h"
#include "cuda/kernels/standoff.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace crowd {

struct KernelStepParams {
  float dt = 0.1f;
  int collision_iterations = 4;
  StandoffParams standoff; ///< The standoff breaker of the steering stage.
  CollisionParams collision;
  GridSpec agent_grid; ///< Grid for the neighbour search (cells >= the largest query range).
};

/// What begin_step hands to the executor.
enum class StepInputs {
  /// What the host changes every step (mode, preferred velocity, desired speed, position), and
  /// every parameter when the layout changed: what a step needs.
  Changed,
  /// Every array, the proximity rows and the collision displacement included, so that one phase
  /// can run alone on exactly the arrays another executor ran it on.
  Everything,
};

/// What the corridor move did to the agents: how many it put back further than 10% of their
/// radius, and the largest distance it put any agent back.
struct NavmeshCorrections {
  int count = 0;
  float max_distance = 0.0f;
  void add(float put_back, float radius) {
    if (is_navmesh_correction(put_back, radius)) {
      ++count;
      max_distance = max_distance > put_back ? max_distance : put_back;
    }
  }
  /// Adds the corrections counted elsewhere (another worker's).
  void add(const NavmeshCorrections& other) {
    count += other.count;
    max_distance = max_distance > other.max_distance ? max_distance : other.max_distance;
  }
};

/// A copy of the agent grid an executor built (cuda/kernels/agent_grid_build.h).
struct AgentGridSnapshot {
  std::vector<std::int32_t> keys;       ///< [count] cell key of items[k], ascending
  std::vector<std::int32_t> items;      ///< [count] agent ids sorted by cell
  std::vector<glm::vec4> points;        ///< [count] agent_grid_point of items[k]
  std::vector<std::int32_t> cell_start; ///< [cell_count + 2]
};

class Executor {
public:
  virtual ~Executor() = default;
  virtual std::string name() const = 0;
  /// The wall grid, kept for the whole run: the CUDA executor copies it to the device, the CPU
  /// executor keeps a view of it, so `walls` must outlive the executor's steps.
  virtual void set_walls(const WallGridData& walls) = 0;
  /// The navmesh tables the corridor phases read, kept for the whole run like the wall grid.
  virtual void set_navmesh_tables(const NavmeshTablesView& tables) { navmesh_tables_ = tables; }
  /// The shared path trees move_corridors tops corridors up from (kCorridorFromTree), as the
  /// host's pool holds them (`version` counts its changes: a device executor copies them when
  /// it changed); they must stay as they are until the next call.
  virtual void set_path_trees(const PathTreesView& trees, std::uint64_t /*version*/) {
    path_trees_ = trees;
  }

  /// From now on the split stages (agent_share.h) run for share->owned() only, each followed by
  /// share->share(); null: every agent here, as without one. The share must outlive the steps.
  /// The cpu executor splits in place; the cuda executor runs the split stages for its agents on
  /// its device and exchanges their results through the host arrays. Throws
  /// std::runtime_error for an executor that cannot split (this default).
  virtual void set_agent_share(AgentShare* share);

  /// One step of the kernel stages, the phases below in KernelStage order; adds each stage's
  /// time to `times`.
  virtual void step(AgentArrays& agents, const KernelStepParams& params, StageTimes& times);

  // ---- The corridor phases, around the kernel stages (cuda/kernels/corridor_following.h).
  // Here they run on the host's arrays, over the workers of the calling task arena (the CPU
  // executor's way); the CUDA executor runs them as kernels on rows it keeps in device memory
  // between its phases, and the host fetches the rows it needs (fetch_corridor_rows).

  /// First in a step: the validity look-ahead of every agent's corridor into
  /// agents.corridors.checks, which the host's path planning acts on.
  virtual void check_corridors(AgentArrays& agents);
  /// Before begin_step: corners, visibility shortcut and preferred velocity of every agent
  /// whose corridor state says to follow it (range_factor x radius is the shortcut's reach).
  /// Agents the tables cannot answer for are flagged for the host and listed, ascending, in
  /// agents.corridors.asked.
  virtual void follow_corridors(AgentArrays& agents, float range_factor);
  /// After end_step: every agent's corridor moved to where the kernels moved it, and the agent
  /// put where the corridor could go. Agents the tables cannot answer for are flagged for the
  /// host, listed in agents.corridors.asked, and left out of the returned corrections.
  virtual NavmeshCorrections move_corridors(AgentArrays& agents);
  /// Makes the host's copies of the corridor rows of `which` current (CorridorArrays::held):
  /// an executor that keeps the rows in device memory downloads those the host does not hold.
  /// The host calls it before it reads a row; the rows the phases list in `asked` are fetched
  /// by the phases. Here the host's rows are the rows: nothing to do.
  virtual void fetch_corridor_rows(AgentArrays& /*agents*/,
                                   std::span<const std::int32_t> /*which*/) {}
  /// The first polygon of the corridor rows of `which` into `first` (same length; -1 for an
  /// empty row), without making the rows current: what the path queue decides on. An executor
  /// that keeps the rows in device memory reads 4 bytes of each row the host does not hold.
  virtual void fetch_corridor_starts(AgentArrays& agents, std::span<const std::int32_t> which,
                                     std::span<std::int32_t> first);

  // ---- The phases of a step. Between begin_step and end_step the executor works on the
  // `agents` given to begin_step, which must outlive end_step.

  /// Upload: the CPU executor works on `agents` in place; the CUDA executor copies `inputs`.
  virtual void begin_step(AgentArrays& agents, const KernelStepParams& params,
                          StepInputs inputs = StepInputs::Changed) = 0;
  /// 3: the agent grid.
  virtual void build_grid() = 0;
  /// 4: neighbours and wall segments of every agent (needs build_grid).
  virtual void find_proximity() = 0;
  /// 5: preferred velocity, standoff breaker and separation -> desired velocity, standoff
  /// timers (needs the proximity rows).
  virtual void steer() = 0;
  /// 6: velocity sampling -> new velocity (needs desired velocities and the proximity rows).
  virtual void choose_velocities() = 0;
  /// 7: acceleration limit and move.
  virtual void integrate() = 0;
  /// 8: one Jacobi pass of collision resolution; a step runs passes 0, 1, ... in order.
  virtual void resolve_collisions(int pass) = 0;
  /// Download: positions, velocities, status and standoff timers reach `agents` (what the
  /// CPU executor writes in place besides: read_back_for_inspection); adds this step's stage
  /// times to `times`. An executor that runs the corridor phases on rows in device memory
  /// leaves the positions to move_corridors, which puts the agents back on the navmesh first.
  virtual void end_step(StageTimes& times) = 0;

  // ---- Diagnosis (tests).

  /// Waits for the phases run so far and copies every array of the step's `agents` back from
  /// the executor, the proximity rows and the displacement included (the CPU executor works on
  /// them in place: nothing to do).
  virtual void read_back_everything() {}
  /// Copies what the debug view reads of agent `agent` as the last step's kernels left it into
  /// the `agents` of that step: its neighbour and wall-segment rows, its preferred velocity and
  /// corridor direction (the time-to-collision fan's reference), and every agent's
  /// neighbour count and desired and chosen velocity (its neighbours' among them), which a
  /// step does not download. The CPU executor works on them in place: nothing to do.
  virtual void read_back_for_inspection(int /*agent*/) {}
  /// Copies agent `agent`'s desired velocity as the last step's kernels left it into the
  /// `agents` of that step, which a step does not download (the CPU executor works on it in
  /// place: nothing to do).
  virtual void read_back_desired_velocity(int /*agent*/) {}
  /// The agent grid that build_grid built last.
  virtual AgentGridSnapshot agent_grid() const = 0;

  virtual std::size_t host_memory_bytes() const = 0;
  virtual std::size_t device_memory_bytes() const { return 0; }
  /// Device address of the positions (one glm::vec3 per agent) as the last step's kernels left
  /// them, for CUDA-GL interop in the viewer; null where there is no device.
  virtual const void* device_positions() const { return nullptr; }

protected:
  /// The corridor phases above for the agents of `only` (ascending), or for every agent
  /// (nullopt): what an executor that splits them across processes runs of them here.
  void check_corridors_of(AgentArrays& agents, std::optional<std::span<const std::int32_t>> only);
  void follow_corridors_of(AgentArrays& agents, float range_factor,
                           std::optional<std::span<const std::int32_t>> only);
  NavmeshCorrections move_corridors_of(AgentArrays& agents,
                                       std::optional<std::span<const std::int32_t>> only);

  NavmeshTablesView navmesh_tables_;
  PathTreesView path_trees_;
};

/// The CPU executor, spreading agents over `threads` workers (0 = all cores).
std::unique_ptr<Executor> make_cpu_executor(int threads);

#if defined(CROWD_HAS_CUDA)
/// The CUDA executor on device `device` modulo the device count (one GPU per MPI rank of a node:
/// its local rank), or on the current device when `device` < 0; the device becomes the calling
/// thread's current one. Throws std::runtime_error when none is present.
std::unique_ptr<Executor> make_cuda_executor(int device = -1);
/// Number of CUDA devices present (0 when the runtime finds none).
int cuda_device_count();
/// The current device's name as the runtime reports it ("" when there is none). Under
/// GPGPU-Sim (the CI lane .ci/gpu-sim) it starts with "GPGPU-Sim".
std::string cuda_device_name();
#endif

} // namespace crowd
