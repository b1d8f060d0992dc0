// The CUDA executor: the kernel bodies of cuda/kernels run on the device, one thin __global__
// per stage, in the order of the CPU executor (host/sim/cpu_executor.cpp), all on one stream.
//
// Memory. Every AgentArrays field has a device mirror, allocated when the agent count first
// needs it and grown by doubling (device_buffer.h). A step uploads only what the host changes
// every step (mode, preferred velocity, desired speed, position, and the corridor state bytes);
// the per-agent parameters, plus the state the kernels read before they write it (velocity,
// new_velocity, status), go up again only when AgentArrays::layout_version, the agent count,
// the row lengths or the number of avoidance sets change. Copies go through pinned staging buffers
// and are asynchronous; the kernel stages synchronise once, at their end, and each corridor phase
// once or twice (its findings).
//
// Corridors. Given the navmesh tables (set_navmesh_tables), the executor copies them to the
// device and keeps every agent's corridor row there (resident_corridors.h): the validity
// look-ahead, the corridor following and the corridor move run as kernels around the stages,
// and only the rows of events cross (the ones the host fetches to read, and the ones it wrote).
// The following uploads the step's inputs and writes the preferred velocities on the device,
// so begin_step then uploads only the rows the host answered for.
//
// Downloads per step: velocity, status (the fault and truncation bits, which must reach the
// host so that a fault freezes the agent and truncation is never silent) and the standoff
// timers (a layout change uploads them again from the host, so the host must hold the
// device's) at end_step; the positions after the corridor move (without the tables, at
// end_step); the validity findings (1 B). What only the debug view reads (the neighbour and
// segment rows and counts, 180 B per agent at the default K = 6, S = 8, and the desired and
// chosen velocities, 16 B) stays on the device until the view asks for it
// (read_back_for_inspection, with the agent's preferred velocity and corridor direction); those
// host copies are stale under this executor between such requests, as are the other agents'
// preferred velocities.
//
// Wall segment scratch. find_wall_segments keeps its S nearest candidates in two scratch
// arrays; they live in global memory, [count * max_segments] each, not in per-thread local
// arrays of a compile-time size. Local arrays would cap max_wall_segments at that size (the
// limits of this project are parameters, see architecture.md) and reserve the cap's worth of
// local memory for every resident thread whatever S is; the global rows cost 8 B x S per
// agent, and at S = 8 a row is a single 32-byte sector, so the strided access is cheap.
//
// Agreement with the CPU: bit for bit. The kernels are the same code, and the two things that
// made the device round differently are removed. nvcc would contract a * b + c into fused
// multiply-adds (one rounding instead of two): the kernels are compiled with --fmad=false, and
// the host build targets baseline x86-64, which has no FMA instruction, so g++ never
// contracts; division and sqrtf are IEEE-rounded on both sides. The device cosf/sinf differ
// from glibc's by an ulp or two: the only ones the kernels need, the sampling pattern's
// rotations, are computed on the host once per parameter set (PatternRotation) and uploaded.
// tests/cuda/test_cuda_kernels.cpp checks every stage for equality, and the whole step.
#ifndef CROWD_HAS_CUDA
#define CROWD_HAS_CUDA 1 // this file is the CUDA backend: declare its entry points
#endif

#include "cuda/core/executor.h"
#include "cuda/executor/corridor_kernels.h"
#include "cuda/executor/cuda_check.h"
#include "cuda/executor/device_buffer.h"
#include "cuda/executor/device_memory_budget.h"
#include "cuda/executor/gpu_block.cuh"
#include "cuda/executor/launch_policy.h"
#include "cuda/executor/resident_corridors.h"
#include "cuda/kernels/agent_grid_build.h"
#include "cuda/kernels/avoidance.h"
#include "cuda/kernels/collision.h"
#include "cuda/kernels/integration.h"
#include "cuda/kernels/proximity.h"
#include "cuda/kernels/separation.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>
#include <cuda_runtime_api.h>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <thrust/system/cuda/execution_policy.h>
#include <type_traits>
#include <utility>
#include <vector>

namespace crowd {
namespace {

// ---------------------------------------------------------------------------------------------
// Kernels: agent index, bounds check, the CROWD_HD body.
// ---------------------------------------------------------------------------------------------

__device__ int agent_index() {
  return static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
}

/// The agents a split stage computes (cuda/core/agent_share.h): agents[0 .. count) on the
/// device, or every agent 0 .. count - 1 when `agents` is null (no split).
struct AgentSubset {
  const std::int32_t* agents = nullptr;
  int count = 0;
  __device__ int agent(int k) const { return agents != nullptr ? agents[k] : k; }
};

/// Stage 4: neighbours, ttc colliders and wall segments of one agent per thread.
/// @param[in,out] v            the agents (device pointers)
/// @param[in]     who          the agents to compute
/// @param[in]     agent_grid   this step's agent grid
/// @param[in]     walls        the wall grid
/// @param         scratch_distance [count * max_segments] find_wall_segments scratch
/// @param         scratch_ids      [count * max_segments] find_wall_segments scratch
__global__ void __launch_bounds__(kAgentPolicy.threads_per_block)
    proximity_kernel(AgentView v, AgentSubset who, AgentGridView agent_grid, WallGridView walls,
                     float* scratch_distance, std::int32_t* scratch_ids) {
  const int k = agent_index();
  if (k >= who.count)
    return;
  const int i = who.agent(k);
  find_neighbors(i, v, agent_grid);
  collect_colliders(i, v, agent_grid);
  const long long row = static_cast<long long>(i) * v.max_segments;
  find_wall_segments(i, v, walls, scratch_distance + row, scratch_ids + row);
}

/// Stage 5: preferred velocity, standoff breaker and separation -> desired_velocity.
__global__ void __launch_bounds__(kAgentPolicy.threads_per_block)
    steering_kernel(AgentView v, AgentSubset who, StandoffParams standoff, float dt) {
  const int k = agent_index();
  if (k >= who.count)
    return;
  steer_with_separation(who.agent(k), v, standoff, dt);
}

/// Stage 6: one block per agent (blockIdx.x), one thread per velocity sample. At least one
/// block per multiprocessor (the bounds' second argument): without it ptxas held the blocks of
/// 64 threads and more to 64 registers and spilled the time-to-collision model's sampling (4-16
/// bytes, bench/kernel_resources.sh); with it 72 registers, no spill.
/// @tparam kThreads block size, one of kAvoidanceBlockSizes
/// @param[in,out] v      the agents (device pointers); writes new_velocity
/// @param[in]     who    the agents to compute, one block each
/// @param[in]     layout where the AvoidanceScratch arrays sit in dynamic shared memory
template <int kThreads>
__global__ void __launch_bounds__(kThreads, 1)
    avoidance_kernel(AgentView v, AgentSubset who, AvoidanceSharedLayout layout,
                     StandoffParams standoff, float dt) {
  // Dynamic: the circle and segment arrays scale with max_neighbors and max_segments.
  extern __shared__ __align__(kSharedAlignment) unsigned char avoidance_shared[]; // [layout.bytes]
  __shared__ typename GpuBlock<kThreads>::Shared block_shared;
  const int k = static_cast<int>(blockIdx.x);
  if (k >= who.count) // uniform across the block, so no thread misses a barrier
    return;
  GpuBlock<kThreads> block(block_shared);
  choose_velocity(block, who.agent(k), v, carve_avoidance_scratch(avoidance_shared, layout),
                  standoff, dt);
}

/// Stage 7: acceleration limit and move.
__global__ void __launch_bounds__(kAgentPolicy.threads_per_block)
    integrate_kernel(AgentView v, float dt) {
  const int i = agent_index();
  if (i >= v.count)
    return;
  integrate_agent(i, v, dt);
}

/// Stage 8, one Jacobi pass: every agent's push from the positions before the pass (v.position)
/// and its moved position written to the other buffer, so the pass needs no grid-wide barrier
/// inside it and takes one launch. After the first pass (displaced_before not null) an agent
/// none of whose neighbours was displaced, nor itself, keeps its zero push without computing
/// it, as on the CPU.
__global__ void __launch_bounds__(kAgentPolicy.threads_per_block)
    collision_pass_kernel(AgentView v, CollisionParams collision, glm::vec3* moved,
                          const std::uint8_t* displaced_before, std::uint8_t* displaced_after) {
  const int i = agent_index();
  if (i >= v.count)
    return;
  collision_pass_into(i, v, collision, moved, displaced_before, displaced_after);
}

/// Stage 8 split across processes, the first half of a pass: the pushes of the agents this
/// process computes (displaced_before as in collision_pass_kernel), which the processes then
/// exchange before every one applies every push (collision_apply_kernel).
__global__ void __launch_bounds__(kAgentPolicy.threads_per_block)
    collision_displacement_kernel(AgentView v, AgentSubset who, CollisionParams collision,
                                  const std::uint8_t* displaced_before) {
  const int k = agent_index();
  if (k >= who.count)
    return;
  const int i = who.agent(k);
  if (displaced_before == nullptr || displacement_may_change(i, v, displaced_before))
    collision_displacement(i, v, collision);
}

/// Stage 8 split across processes, the second half of a pass: every agent moved by its push,
/// in place (the pushes are all known), and whether it was displaced.
__global__ void __launch_bounds__(kAgentPolicy.threads_per_block)
    collision_apply_kernel(AgentView v, std::uint8_t* displaced_after) {
  const int i = agent_index();
  if (i >= v.count)
    return;
  apply_displacement(i, v);
  displaced_after[i] = was_displaced(i, v);
}

/// Split across processes: rows `ids[0 .. count)` of a column of `row_bytes`-byte rows, packed one
/// after another, so that only the agents this process computed come down to the host
/// (`pack` true: column -> packed), and only the rows the other processes sent go up (false:
/// packed -> column). One thread per byte.
__global__ void __launch_bounds__(kAgentPolicy.threads_per_block)
    pack_rows_kernel(const std::int32_t* ids, int count, int row_bytes, unsigned char* column,
                     unsigned char* packed, bool pack) {
  const long long t = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= static_cast<long long>(count) * row_bytes)
    return;
  const long long k = t / row_bytes;
  unsigned char& in_column =
      column[static_cast<long long>(ids[k]) * row_bytes + (t - k * row_bytes)];
  if (pack)
    packed[t] = in_column;
  else
    in_column = packed[t];
}

// ---------------------------------------------------------------------------------------------
// Host side.
// ---------------------------------------------------------------------------------------------

/// Dynamic shared memory a block may use without opting in (cudaFuncSetAttribute).
constexpr std::size_t kDefaultDynamicSharedLimit = 48 * 1024;

template <int kThreads>
void launch_avoidance(AgentSubset who, const AgentView& view, const AvoidanceSharedLayout& layout,
                      const StandoffParams& standoff, float dt, cudaStream_t stream) {
  if (layout.bytes > kDefaultDynamicSharedLimit) {
    // Very large max_neighbors / max_segments: ask for more; fails (checked) beyond the device.
    CROWD_CUDA_CHECK(cudaFuncSetAttribute(avoidance_kernel<kThreads>,
                                          cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          static_cast<int>(layout.bytes)));
  }
  avoidance_kernel<kThreads>
      <<<who.count, kThreads, layout.bytes, stream>>>(view, who, layout, standoff, dt);
  CROWD_CUDA_CHECK_LAUNCH("avoidance_kernel");
}

/// Launches the avoidance kernel instantiated for `block_size` (one of kAvoidanceBlockSizes).
template <std::size_t... I>
void launch_avoidance_for_size(int block_size, std::index_sequence<I...>, AgentSubset who,
                               const AgentView& view, const AvoidanceSharedLayout& layout,
                               const StandoffParams& standoff, float dt, cudaStream_t stream) {
  const bool launched =
      ((block_size == kAvoidanceBlockSizes[I]
            ? (launch_avoidance<kAvoidanceBlockSizes[I]>(who, view, layout, standoff, dt, stream),
               true)
            : false) ||
       ...);
  if (!launched)
    throw std::logic_error("avoidance block size " + std::to_string(block_size) +
                           " is not one of kAvoidanceBlockSizes");
}

/// Copies between host arrays and device buffers through one pinned staging buffer: the host
/// side is packed into (or unpacked from) the staging buffer with memcpy, the device side is
/// one cudaMemcpyAsync per array on the stream.
class StagedCopies {
public:
  void clear() {
    copies_.clear();
    bytes_ = 0;
  }

  void add(void* host, void* device, std::size_t bytes) {
    if (bytes == 0)
      return;
    copies_.push_back({host, device, bytes, bytes_});
    bytes_ = align_shared(bytes_ + bytes); // keep every array 16-byte aligned in the staging
  }

  std::size_t bytes() const { return bytes_; }

  /// Packs the host arrays and starts the copies to the device.
  void upload(PinnedBuffer<unsigned char>& staging, cudaStream_t stream) const {
    for (const Copy& c : copies_) {
      std::memcpy(staging.data() + c.offset, c.host, c.bytes);
      CROWD_CUDA_CHECK(cudaMemcpyAsync(c.device, staging.data() + c.offset, c.bytes,
                                       cudaMemcpyHostToDevice, stream));
    }
  }

  /// Starts the copies from the device; finish_download() after the stream synchronised.
  void start_download(PinnedBuffer<unsigned char>& staging, cudaStream_t stream) const {
    for (const Copy& c : copies_) {
      CROWD_CUDA_CHECK(cudaMemcpyAsync(staging.data() + c.offset, c.device, c.bytes,
                                       cudaMemcpyDeviceToHost, stream));
    }
  }

  void finish_download(const PinnedBuffer<unsigned char>& staging) const {
    for (const Copy& c : copies_)
      std::memcpy(c.host, staging.data() + c.offset, c.bytes);
  }

private:
  struct Copy {
    void* host;
    void* device;
    std::size_t bytes;
    std::size_t offset; ///< In the staging buffer.
  };
  std::vector<Copy> copies_;
  std::size_t bytes_ = 0;
};

template <class T> std::size_t bytes_of(std::size_t count) {
  return count * sizeof(T);
}

/// Queues host vector -> device buffer (upload) or back (download), the whole vector.
template <class T>
void add_copy(StagedCopies& copies, const std::vector<T>& host, DeviceBuffer<T>& device) {
  copies.add(const_cast<T*>(host.data()), device.data(), bytes_of<T>(host.size()));
}

struct StreamDestroy {
  void operator()(cudaStream_t stream) const { (void)cudaStreamDestroy(stream); }
};
struct EventDestroy {
  void operator()(cudaEvent_t event) const { (void)cudaEventDestroy(event); }
};
using StreamHandle = std::unique_ptr<std::remove_pointer_t<cudaStream_t>, StreamDestroy>;
using EventHandle = std::unique_ptr<std::remove_pointer_t<cudaEvent_t>, EventDestroy>;

/// Everything that, when it changes, makes the device mirror upload the parameters again.
struct LayoutKey {
  std::uint64_t version = 0;
  int count = 0;
  int max_neighbors = 0;
  int max_segments = 0;
  std::size_t avoidance_sets = 0;
  bool operator==(const LayoutKey&) const = default;
};

class CudaExecutor final : public Executor {
public:
  CudaExecutor() {
    cudaStream_t stream = nullptr;
    // Non-blocking: the executor's work must not serialise with other libraries' work on the
    // legacy default stream.
    CROWD_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    stream_.reset(stream);
    for (EventHandle& handle : events_)
      handle = make_event();

    end_event_ = make_event();
    // No walls until set_walls: an empty one-cell grid, so a step without walls still works.
    WallGridData empty;
    empty.cell_start = {0, 0};
    set_walls(empty);
  }

  std::string name() const override { return "cuda"; }

  /// The split stages run for the share's agents on this device; their results travel through
  /// the host arrays (downloaded after the stage, shared, uploaded), and the state the share
  /// migrates goes up at the start of each step.
  void set_agent_share(AgentShare* share) override { share_ = share; }

  void set_walls(const WallGridData& walls) override {
    try {
      upload_walls(walls);
    } catch (...) {
      const int max_neighbors = layout_ ? layout_->max_neighbors : 0;
      const int max_segments = layout_ ? layout_->max_segments : 0;
      const bool agents_known = layout_.has_value();
      rethrow_explaining_device_memory(agents_known, max_neighbors, max_segments);
    }
  }

  void step(AgentArrays& agents, const KernelStepParams& params, StageTimes& times) override {
    guarded(agents, [&] { Executor::step(agents, params, times); });
  }

  void set_navmesh_tables(const NavmeshTablesView& tables) override {
    Executor::set_navmesh_tables(tables);
    // With the tables in device memory the corridor phases run here, on rows kept here.
    device_tables_.reset();
    if (tables.polygon_count > 0 && tables.portal_start != nullptr &&
        tables.vertex_start != nullptr)
      device_tables_ = std::make_unique<DeviceNavmeshTables>(tables);
  }

  void set_path_trees(const PathTreesView& trees, std::uint64_t version) override {
    Executor::set_path_trees(trees, version);
    if (version == trees_version_)
      return;
    try {
      device_trees_.reset();
      device_trees_ = std::make_unique<DevicePathTrees>(trees);
      trees_version_ = version;
    } catch (...) {
      rethrow_explaining_device_memory(layout_.has_value(), layout_ ? layout_->max_neighbors : 0,
                                       layout_ ? layout_->max_segments : 0);
    }
  }

  // ---- The corridor phases as kernels on the rows in device memory (resident_corridors.h);
  // without device tables, on the host's rows (Executor's).

  void check_corridors(AgentArrays& agents) override {
    if (!device_tables_)
      return Executor::check_corridors(agents);
    guarded(agents, [&] {
      if (!begin_corridor_phase(agents, false))
        return;
      corridors_.check(device_tables_->view(), agents.corridors, stream_.get());
    });
  }

  void follow_corridors(AgentArrays& agents, float range_factor) override {
    if (!device_tables_)
      return Executor::follow_corridors(agents, range_factor);
    guarded(agents, [&] {
      agents.corridors.asked.clear();
      if (!begin_corridor_phase(agents, true))
        return;
      inputs_uploaded_ = true; // begin_step uploads only the rows the host answers for
      corridors_.follow(device_tables_->view(), agents.corridors, view_, device_steering(),
                        range_factor, stream_.get());
    });
  }

  NavmeshCorrections move_corridors(AgentArrays& agents) override {
    if (!device_tables_)
      return Executor::move_corridors(agents);
    NavmeshCorrections corrections;
    guarded(agents, [&] {
      agents.corridors.asked.clear();
      // Where this executor's last step left the agents, unless the host's positions are newer.
      const bool after_step = agents_ == &agents && step_positions_;
      if (!begin_corridor_phase(agents, !after_step))
        return;
      corrections = corridors_.move(device_tables_->view(),
                                    device_trees_ ? device_trees_->view() : PathTreesView{},
                                    agents.corridors, view_, stream_.get());
      downloads_.clear();
      add_copy(downloads_, agents.position, current_positions());
      download_staging_.reserve(downloads_.bytes(),
                                "the download staging of " + std::to_string(count_) + " agents");
      downloads_.start_download(download_staging_, stream_.get());
      CROWD_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
      downloads_.finish_download(download_staging_);
      step_positions_ = false;
    });
    return corrections;
  }

  void fetch_corridor_rows(AgentArrays& agents, std::span<const std::int32_t> which) override {
    if (device_tables_)
      guarded(agents, [&] { corridors_.fetch(agents.corridors, which, stream_.get()); });
  }

  void fetch_corridor_starts(AgentArrays& agents, std::span<const std::int32_t> which,
                             std::span<std::int32_t> first) override {
    if (!device_tables_) {
      Executor::fetch_corridor_starts(agents, which, first);
      return;
    }
    guarded(agents,
            [&] { corridors_.fetch_starts(agents.corridors, which, first, stream_.get()); });
  }

  // ---- The phases (Executor::step runs them in order; the tests one at a time).

  void begin_step(AgentArrays& agents, const KernelStepParams& params, StepInputs inputs) override {
    params_ = params;
    recorded_.fill(false);
    last_collision_pass_ = -1; // a new step: no pass to follow
    if (agents.count() == 0) {
      point_at(agents);
      return;
    }
    // Recorded before packing: the stream is idle here, so the interval includes the host's
    // packing into the staging buffer as well as the copies.
    record(KernelStage::Upload);
    uploads_.clear();
    const bool layout_changed = point_at(agents);
    // The corridor following uploaded this step's inputs and wrote the preferred velocities
    // on the device: only the rows the host answered for go up with theirs.
    if (!inputs_uploaded_ || layout_changed || inputs == StepInputs::Everything)
      add_step_inputs(agents);
    if (inputs == StepInputs::Everything) {
      if (!layout_changed)
        add_parameters(agents);
      // What the stages write before they read it, so that one stage can run alone.
      add_copy(uploads_, agents.desired_velocity, desired_velocity_);
      add_copy(uploads_, agents.displacement, displacement_);
      add_copy(uploads_, agents.neighbor_index, neighbor_index_);
      add_copy(uploads_, agents.neighbor_distance_sq, neighbor_distance_sq_);
      add_copy(uploads_, agents.neighbor_count, neighbor_count_);
      add_copy(uploads_, agents.segment, segment_);
      add_copy(uploads_, agents.segment_count, segment_count_);
    }
    flush_uploads();
    // The rows the host holds go up with everything else, so that avoidance alone reads the
    // corridors another executor's avoidance read.
    const bool all_rows = inputs == StepInputs::Everything && device_tables_;
    if (all_rows) {
      corridors_.fit(agents.corridors, stream_.get());
      corridors_.take_held_rows(agents.corridors);
    }
    if (inputs_uploaded_ || all_rows)
      corridors_.upload_written(agents.corridors, agents.preferred_velocity,
                                agents.corridor_direction, device_steering(), stream_.get());
    inputs_uploaded_ = false;
    view_.corridors = device_tables_ ? corridors_.rows_view(device_tables_->view(), count_)
                                     : AgentCorridorsView{};
    if (share_ != nullptr)
      assign_split(agents);
  }

  /// 3: the CPU executor's Thrust code, on the device.
  void build_grid() override {
    if (count_ == 0)
      return;
    record(KernelStage::Grid);
    const GridSpec& spec = params_.agent_grid;
    const auto cells = static_cast<std::size_t>(spec.cell_count()) + 2; // see build_agent_grid
    if (cell_start_.capacity() < cells)
      cell_start_.reserve(cells, "the agent grid's " + std::to_string(cells) + " cells");
    grid_cells_ = cells;
    temp_allocator_.set_purpose("the agent grid of " + std::to_string(count_) + " agents");
    CROWD_THRUST_CHECK(build_agent_grid(thrust::cuda::par_nosync(temp_allocator_).on(stream_.get()),
                                        spec, view_, grid_keys_.data(), grid_items_.data(),
                                        grid_points_.data(), cell_start_.data()));
  }

  void find_proximity() override {
    if (count_ == 0)
      return;
    record(KernelStage::Proximity);
    const AgentGridView grid{{params_.agent_grid, cell_start_.data(), grid_items_.data()},
                             grid_points_.data()};
    const AgentSubset who = split_agents();
    if (who.count > 0) {
      proximity_kernel<<<blocks_for(who.count, kAgentPolicy), agent_threads(), 0, stream_.get()>>>(
          view_, who, grid, walls_, segment_scratch_distance_.data(), segment_scratch_ids_.data());
      CROWD_CUDA_CHECK_LAUNCH("proximity_kernel");
    }
    share_stage(KernelStage::Proximity);
  }

  void steer() override {
    if (count_ == 0)
      return;
    record(KernelStage::Steering);
    const AgentSubset who = split_agents();
    if (who.count > 0) {
      steering_kernel<<<blocks_for(who.count, kAgentPolicy), agent_threads(), 0, stream_.get()>>>(
          view_, who, params_.standoff, params_.dt);
      CROWD_CUDA_CHECK_LAUNCH("steering_kernel");
    }
    share_stage(KernelStage::Steering);
  }

  /// 6: one block per agent.
  void choose_velocities() override {
    if (count_ == 0)
      return;
    record(KernelStage::Avoidance);
    const AgentSubset who = split_agents();
    if (who.count > 0)
      launch_avoidance_for_size(avoidance_block_size_,
                                std::make_index_sequence<kAvoidanceBlockSizes.size()>{}, who, view_,
                                avoidance_layout_, params_.standoff, params_.dt, stream_.get());
    share_stage(KernelStage::Avoidance);
  }

  void integrate() override {
    if (count_ == 0)
      return;
    record(KernelStage::Integrate);
    integrate_kernel<<<agent_blocks(), agent_threads(), 0, stream_.get()>>>(view_, params_.dt);
    CROWD_CUDA_CHECK_LAUNCH("integrate_kernel");
  }

  /// 8: one launch a pass, from one position buffer into the other (Jacobi, as on the CPU);
  /// the positions are then in the buffer written last, which the view points at from here on.
  void resolve_collisions(int pass) override {
    if (count_ == 0)
      return;
    if (pass == 0)
      record(KernelStage::Collisions);
    glm::vec3* moved =
        view_.position == position_.data() ? position_other_.data() : position_.data();
    // Which agents the pass before displaced: only right after this executor's previous pass
    // (a pass run alone, in the tests, computes every agent).
    const bool follows = pass > 0 && pass == last_collision_pass_ + 1;
    const std::uint8_t* displaced_before =
        follows ? (pass % 2 ? displaced_even_.data() : displaced_odd_.data()) : nullptr;
    std::uint8_t* displaced_after = pass % 2 ? displaced_odd_.data() : displaced_even_.data();
    last_collision_pass_ = pass;
    if (share_ != nullptr) {
      // Split: this process's pushes, every process's exchanged, then every agent moved in place
      // (the CPU executor's order: the same positions).
      const AgentSubset who = split_agents();
      if (who.count > 0) {
        collision_displacement_kernel<<<blocks_for(who.count, kAgentPolicy), agent_threads(), 0,
                                        stream_.get()>>>(view_, who, params_.collision,
                                                         displaced_before);
        CROWD_CUDA_CHECK_LAUNCH("collision_displacement_kernel");
      }
      share_stage(KernelStage::Collisions);
      collision_apply_kernel<<<agent_blocks(), agent_threads(), 0, stream_.get()>>>(
          view_, displaced_after);
      CROWD_CUDA_CHECK_LAUNCH("collision_apply_kernel");
      return;
    }
    collision_pass_kernel<<<agent_blocks(), agent_threads(), 0, stream_.get()>>>(
        view_, params_.collision, moved, displaced_before, displaced_after);
    CROWD_CUDA_CHECK_LAUNCH("collision_pass_kernel");
    view_.position = moved;
  }

  /// Download, the one synchronisation of the step, stage times.
  void end_step(StageTimes& times) override {
    if (count_ == 0) {
      for (const char* stage : kKernelStageNames)
        times.add(stage, 0.0);
      return;
    }
    AgentArrays& agents = *agents_;
    cudaStream_t stream = stream_.get();
    record(KernelStage::Download);
    downloads_.clear();
    // With the corridor rows here, the corridor move that ends the step puts the agents back
    // on the navmesh and downloads their positions then.
    if (!device_tables_)
      add_copy(downloads_, agents.position, current_positions());
    add_copy(downloads_, agents.velocity, velocity_);
    add_copy(downloads_, agents.status, status_);
    add_copy(downloads_, agents.standoff_clock, standoff_clock_);
    add_copy(downloads_, agents.standoff_partner, standoff_partner_);
    if (uses_ttc_) {
      add_copy(downloads_, agents.ttc_state, ttc_state_);
      add_copy(downloads_, agents.collider_index, collider_index_);
    }
    download_staging_.reserve(downloads_.bytes(),
                              "the download staging of " + std::to_string(count_) + " agents");
    downloads_.start_download(download_staging_, stream);
    CROWD_CUDA_CHECK(cudaEventRecord(end_event_.get(), stream));

    CROWD_CUDA_CHECK(cudaStreamSynchronize(stream));
    const auto unpack_start = std::chrono::steady_clock::now();
    downloads_.finish_download(download_staging_);
    step_positions_ = true;
    const double unpack_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - unpack_start)
            .count();
    add_stage_times(times, unpack_ms);
  }

  void read_back_everything() override {
    if (count_ == 0)
      return;
    AgentArrays& a = *agents_;
    StagedCopies copies;
    add_copy(copies, a.position, current_positions());
    add_copy(copies, a.velocity, velocity_);
    add_copy(copies, a.desired_velocity, desired_velocity_);
    add_copy(copies, a.new_velocity, new_velocity_);
    add_copy(copies, a.displacement, displacement_);
    add_copy(copies, a.neighbor_index, neighbor_index_);
    add_copy(copies, a.neighbor_distance_sq, neighbor_distance_sq_);
    add_copy(copies, a.neighbor_count, neighbor_count_);
    add_copy(copies, a.segment, segment_);
    add_copy(copies, a.segment_count, segment_count_);
    add_copy(copies, a.status, status_);
    add_copy(copies, a.standoff_clock, standoff_clock_);
    add_copy(copies, a.standoff_partner, standoff_partner_);
    add_copy(copies, a.ttc_state, ttc_state_);
    add_copy(copies, a.collider_index, collider_index_);
    add_copy(copies, a.corridor_direction, corridor_direction_);
    download_staging_.reserve(copies.bytes(),
                              "the read-back of " + std::to_string(count_) + " agents");
    copies.start_download(download_staging_, stream_.get());
    CROWD_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
    copies.finish_download(download_staging_);
  }

  void read_back_for_inspection(int agent) override {
    if (agent < 0 || agent >= count_)
      return;
    AgentArrays& a = *agents_;
    const auto i = static_cast<std::size_t>(agent);
    const auto k = static_cast<std::size_t>(a.max_neighbors);
    const auto s = static_cast<std::size_t>(a.max_segments);
    copy_row_to_host(a.neighbor_index.data() + i * k, neighbor_index_.data() + i * k, k);
    copy_row_to_host(a.segment.data() + i * s, segment_.data() + i * s, s);
    copy_row_to_host(a.segment_count.data() + i, segment_count_.data() + i, 1);
    // The time-to-collision fan's reference (its TtcState and collider row come down with
    // every step): written on the device by corridor following when the rows are there.
    copy_row_to_host(a.preferred_velocity.data() + i, preferred_velocity_.data() + i, 1);
    copy_row_to_host(a.corridor_direction.data() + i, corridor_direction_.data() + i, 1);
    // Whole arrays, the agent's neighbours being anywhere: 20 B per agent, when the view asks.
    const auto n = static_cast<std::size_t>(count_);
    copy_row_to_host(a.neighbor_count.data(), neighbor_count_.data(), n);
    copy_row_to_host(a.desired_velocity.data(), desired_velocity_.data(), n);
    copy_row_to_host(a.new_velocity.data(), new_velocity_.data(), n);
    CROWD_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
  }

  void read_back_desired_velocity(int agent) override {
    if (agent < 0 || agent >= count_)
      return;
    const auto i = static_cast<std::size_t>(agent);
    copy_row_to_host(agents_->desired_velocity.data() + i, desired_velocity_.data() + i, 1);
    CROWD_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
  }

  AgentGridSnapshot agent_grid() const override {
    AgentGridSnapshot grid;
    const auto n = static_cast<std::size_t>(count_);
    grid.keys.resize(n);
    grid.items.resize(n);
    grid.points.resize(n);
    grid.cell_start.resize(grid_cells_);
    copy_to_host(grid.keys, grid_keys_);
    copy_to_host(grid.items, grid_items_);
    copy_to_host(grid.points, grid_points_);
    copy_to_host(grid.cell_start, cell_start_);
    return grid;
  }

  std::size_t host_memory_bytes() const override {
    return upload_staging_.bytes() + download_staging_.bytes() + split_staging_.bytes();
  }

  const void* device_positions() const override {
    return view_.position != nullptr ? view_.position : position_.data();
  }

  std::size_t device_memory_bytes() const override {
    std::size_t total = fixed_device_bytes() + temp_allocator_.bytes() + corridors_.device_bytes() +
                        owned_agents_.bytes() + other_agents_.bytes() + split_rows_.bytes();
    for_each_agent_buffer(*this, 0, 0, [&](const auto& buffer, std::size_t, const char*) {
      total += buffer.bytes();
    });
    return total;
  }

private:
  /// Points the executor at `agents` and fits the device mirror to them. On a layout change the
  /// buffers grow and the parameters, with the state the kernels read before they write it, are
  /// queued in uploads_, which the caller cleared and flushes (flush_uploads). Returns whether
  /// the layout changed.
  bool point_at(AgentArrays& agents) {
    agents_ = &agents;
    count_ = agents.count();
    if (count_ == 0)
      return false;
    check_sizes(agents);
    const LayoutKey key{agents.layout_version, count_, agents.max_neighbors, agents.max_segments,
                        agents.avoidance_params.size()};
    const bool changed = !layout_ || *layout_ != key;
    if (changed) {
      layout_.reset(); // until the parameters have reached the device
      prepare_layout(agents);
      add_parameters(agents);
    }
    view_ = device_view(agents);
    pending_layout_ = key;
    return changed;
  }

  /// Queues the per-agent parameters, and the state read before it is written: velocity by
  /// steering (neighbours') and integrate, status by proximity (it keeps other bits),
  /// new_velocity of inactive agents by the download, the standoff timer by steering. New
  /// agents bring theirs; removed ones had velocity zeroed by the host.
  void add_parameters(AgentArrays& agents) {
    agents.update_pattern_rotation();
    add_copy(uploads_, agents.radius, radius_);
    add_copy(uploads_, agents.height, height_);
    add_copy(uploads_, agents.max_accel, max_accel_);
    add_copy(uploads_, agents.query_range, query_range_);
    add_copy(uploads_, agents.separation_weight, separation_weight_);
    add_copy(uploads_, agents.avoidance_set, avoidance_set_);
    add_copy(uploads_, agents.standoff_side, standoff_side_);
    add_copy(uploads_, agents.avoidance_params, avoidance_params_);
    add_copy(uploads_, agents.pattern_rotation, pattern_rotation_);
    add_copy(uploads_, agents.velocity, velocity_);
    add_copy(uploads_, agents.standoff_clock, standoff_clock_);
    add_copy(uploads_, agents.standoff_partner, standoff_partner_);
    add_copy(uploads_, agents.ttc_state, ttc_state_);
    add_copy(uploads_, agents.collider_index, collider_index_);
    add_copy(uploads_, agents.new_velocity, new_velocity_);
    add_copy(uploads_, agents.status, status_);
    add_copy(uploads_, agents.agent_id, agent_id_); // none where the rows are the ids
  }

  /// Queues what the host changes every step: mode, preferred velocity, desired speed and
  /// position.
  void add_step_inputs(const AgentArrays& agents) {
    add_copy(uploads_, agents.mode, mode_);
    add_copy(uploads_, agents.preferred_velocity, preferred_velocity_);
    add_copy(uploads_, agents.corridor_direction, corridor_direction_);
    add_copy(uploads_, agents.desired_speed, desired_speed_);
    add_copy(uploads_, agents.position, position_);
    step_positions_ = false;
  }

  /// Packs uploads_ and starts its copies; the mirror then has the layout point_at fitted.
  void flush_uploads() {
    upload_staging_.reserve(uploads_.bytes(),
                            "the upload staging of " + std::to_string(count_) + " agents");
    uploads_.upload(upload_staging_, stream_.get());
    layout_ = pending_layout_;
  }

  /// Before a corridor phase: the mirror fitted to `agents`, this step's inputs uploaded when
  /// `with_inputs` (else the positions stay where the last step left them), the device's rows
  /// fitted and the rows the host wrote uploaded. Returns false when there are no agents.
  bool begin_corridor_phase(AgentArrays& agents, bool with_inputs) {
    glm::vec3* stepped_positions = view_.position;
    uploads_.clear();
    const bool changed = point_at(agents);
    if (count_ == 0)
      return false;
    if (with_inputs || changed)
      add_step_inputs(agents);
    else
      view_.position = stepped_positions;
    flush_uploads();
    corridors_.fit(agents.corridors, stream_.get());
    corridors_.upload_written(agents.corridors, agents.preferred_velocity,
                              agents.corridor_direction, device_steering(), stream_.get());
    return true;
  }

  /// Runs `phase` (a step, or a corridor phase); a failure leaves the device state unknown
  /// (uploaded again next time) and is rethrown, with the device's memory situation when it ran
  /// out.
  template <class F> void guarded(const AgentArrays& agents, F&& phase) {
    try {
      phase();
    } catch (...) {
      forget_device_state();
      rethrow_explaining_device_memory(true, agents.max_neighbors, agents.max_segments);
    }
  }

  /// Radix sort storage per agent that Thrust draws from temp_allocator_: an alternate buffer
  /// for the keys and one for the items (thrust/system/cuda/detail/sort.h, radix_sort: the
  /// cub::DoubleBuffer halves, each rounded up to 128 bytes), besides CUB's small histograms.
  static constexpr std::size_t kSortBytesPerAgent = 2 * sizeof(std::int32_t);

  /// Calls f(buffer, elements per agent, name) for every device buffer whose size is the
  /// agent count times a per-agent element count: the one list that prepare_layout grows,
  /// device_memory_bytes counts and the out-of-memory estimate prices. `Self` is the executor,
  /// const or not.
  template <class Self, class F>
  static void for_each_agent_buffer(Self& self, int max_neighbors, int max_segments, F&& f) {
    const auto k = static_cast<std::size_t>(max_neighbors);
    const auto s = static_cast<std::size_t>(max_segments);
    f(self.mode_, 1, "mode");
    f(self.radius_, 1, "radius");
    f(self.height_, 1, "height");
    f(self.max_accel_, 1, "max_accel");
    f(self.query_range_, 1, "query_range");
    f(self.separation_weight_, 1, "separation_weight");
    f(self.avoidance_set_, 1, "avoidance_set");
    f(self.standoff_side_, 1, "standoff_side");
    f(self.preferred_velocity_, 1, "preferred_velocity");
    f(self.desired_speed_, 1, "desired_speed");
    f(self.position_, 1, "position");
    f(self.position_other_, 1, "position (second buffer of the collision passes)");
    f(self.velocity_, 1, "velocity");
    f(self.desired_velocity_, 1, "desired_velocity");
    f(self.new_velocity_, 1, "new_velocity");
    f(self.displacement_, 1, "displacement");
    f(self.displaced_even_, 1, "displaced by a collision pass");
    f(self.displaced_odd_, 1, "displaced by a collision pass");
    f(self.standoff_clock_, 1, "standoff_clock");
    f(self.standoff_partner_, 1, "standoff_partner");
    f(self.ttc_state_, 1, "ttc_state");
    f(self.collider_index_, k, "collider_index");
    f(self.corridor_direction_, 1, "corridor_direction");
    f(self.neighbor_index_, k, "neighbor_index");
    f(self.neighbor_distance_sq_, k, "neighbor_distance_sq");
    f(self.neighbor_count_, 1, "neighbor_count");
    f(self.segment_, s, "segment");
    f(self.segment_count_, 1, "segment_count");
    f(self.status_, 1, "status");
    f(self.segment_scratch_distance_, s, "wall segment scratch");
    f(self.segment_scratch_ids_, s, "wall segment scratch");
    f(self.grid_keys_, 1, "agent grid keys");
    f(self.grid_items_, 1, "agent grid items");
    f(self.grid_points_, 1, "agent grid points");
  }

  /// Device bytes of one agent at these row lengths: every per-agent buffer, plus the sort.
  std::size_t device_bytes_per_agent(int max_neighbors, int max_segments) const {
    std::size_t bytes = kSortBytesPerAgent;
    if (device_tables_ && agents_ != nullptr)
      bytes += corridors_.bytes_per_agent(agents_->corridors.capacity,
                                          agents_->corridors.corner_capacity);
    for_each_agent_buffer(*this, max_neighbors, max_segments,
                          [&](const auto& buffer, std::size_t per_agent, const char*) {
                            using T = typename std::remove_cvref_t<decltype(buffer)>::value_type;
                            bytes += per_agent * sizeof(T);
                          });
    return bytes;
  }

  /// Device memory that does not grow with the agent count.
  std::size_t fixed_device_bytes() const {
    return wall_cell_start_.bytes() + wall_items_.bytes() + wall_listing_.bytes() +
           wall_p_.bytes() + wall_q_.bytes() + cell_start_.bytes() + avoidance_params_.bytes() +
           pattern_rotation_.bytes() + agent_id_.bytes() +
           (device_tables_ ? device_tables_->device_bytes() : 0) +
           (device_trees_ ? device_trees_->device_bytes() : 0);
  }

  /// Rethrows the exception being handled; when the device ran out of memory, as one line
  /// that says how much was asked for, how much the device has and about how many agents of
  /// these row lengths fit (`agents_known` false: the row lengths are not known yet).
  [[noreturn]] void rethrow_explaining_device_memory(bool agents_known, int max_neighbors,
                                                     int max_segments) const {
    try {
      throw;
    } catch (const DeviceAllocationError& error) {
      if (!error.device_out_of_memory())
        throw;
      DeviceMemoryBudget budget;
      std::size_t free_bytes = 0;
      std::size_t total_bytes = 0;
      // Not CROWD_CUDA_CHECK: a failure here must not hide the allocation failure; the
      // message then says the free memory is unknown.
      if (cudaMemGetInfo(&free_bytes, &total_bytes) == cudaSuccess) {
        budget.free_bytes = free_bytes;
        budget.total_bytes = total_bytes;
      } else {
        (void)cudaGetLastError();
      }
      budget.held_bytes = device_memory_bytes();
      budget.fixed_bytes = fixed_device_bytes();
      if (agents_known)
        budget.bytes_per_agent = device_bytes_per_agent(max_neighbors, max_segments);
      throw std::runtime_error(out_of_device_memory_message(
          std::string(error.call()) + " of " + error.purpose(), error.bytes(),
          DeviceAllocationError::describe(error.status()), budget));
    }
  }

  void upload_walls(const WallGridData& walls) {
    const std::size_t segments = walls.p.size();
    if (walls.cell_start.size() != static_cast<std::size_t>(walls.spec.cell_count()) + 1 ||
        walls.q.size() != segments || walls.listing.size() != walls.items.size())
      throw std::invalid_argument("set_walls: inconsistent WallGridData sizes");
    const std::string what = "the wall grid (" + std::to_string(segments) + " segments)";
    wall_cell_start_.reserve(walls.cell_start.size(), what);
    wall_items_.reserve(walls.items.size(), what);
    wall_listing_.reserve(walls.listing.size(), what);
    wall_p_.reserve(segments, what);
    wall_q_.reserve(segments, what);
    // Once per run: copy straight from the (pageable) vectors and wait, no staging needed.
    copy_to_device(wall_cell_start_, walls.cell_start);
    copy_to_device(wall_items_, walls.items);
    copy_to_device(wall_listing_, walls.listing);
    copy_to_device(wall_p_, walls.p);
    copy_to_device(wall_q_, walls.q);
    CROWD_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
    walls_.grid.spec = walls.spec;
    walls_.grid.cell_start = wall_cell_start_.data();
    walls_.grid.items = wall_items_.data();
    walls_.listing = wall_listing_.data();
    walls_.p = wall_p_.data();
    walls_.q = wall_q_.data();
  }

  template <class T> void copy_to_device(DeviceBuffer<T>& device, const std::vector<T>& host) {
    if (host.empty())
      return;
    CROWD_CUDA_CHECK(cudaMemcpyAsync(device.data(), host.data(), bytes_of<T>(host.size()),
                                     cudaMemcpyHostToDevice, stream_.get()));
  }

  /// Synchronous device -> host copy of a whole buffer's first host.size() elements.
  /// Queues a copy of `count` elements from the device to the host (read_back_for_inspection).
  template <class T> void copy_row_to_host(T* host, const T* device, std::size_t count) const {
    if (count > 0)
      CROWD_CUDA_CHECK(
          cudaMemcpyAsync(host, device, bytes_of<T>(count), cudaMemcpyDeviceToHost, stream_.get()));
  }

  template <class T> void copy_to_host(std::vector<T>& host, const DeviceBuffer<T>& device) const {
    if (host.empty())
      return;
    CROWD_CUDA_CHECK(cudaMemcpyAsync(host.data(), device.data(), bytes_of<T>(host.size()),
                                     cudaMemcpyDeviceToHost, stream_.get()));
    CROWD_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
  }

  /// The device buffer that holds the positions now: the one the last collision pass wrote.
  DeviceBuffer<glm::vec3>& current_positions() {
    return view_.position == position_other_.data() ? position_other_ : position_;
  }

  /// An event at the start of `stage` on the stream.
  void record(KernelStage stage) {
    const auto s = static_cast<std::size_t>(stage);
    CROWD_CUDA_CHECK(cudaEventRecord(events_[s].get(), stream_.get()));
    recorded_[s] = true;
  }

  /// Each recorded stage's time, up to the next recorded stage's event or the end event, in
  /// stage order; the host's unpacking after the synchronisation counts as download.
  void add_stage_times(StageTimes& times, double unpack_ms) const {
    for (std::size_t s = 0; s < kKernelStageCount; ++s) {
      if (!recorded_[s])
        continue;
      cudaEvent_t stop = end_event_.get();
      for (std::size_t next = s + 1; next < kKernelStageCount; ++next) {
        if (recorded_[next]) {
          stop = events_[next].get();
          break;
        }
      }
      float ms = 0.0f;
      CROWD_CUDA_CHECK(cudaEventElapsedTime(&ms, events_[s].get(), stop));
      const bool download = s == static_cast<std::size_t>(KernelStage::Download);
      times.add(kKernelStageNames[s], download ? ms + unpack_ms : static_cast<double>(ms));
    }
  }

  /// After a failure: let copies in flight finish before a later step may regrow the staging
  /// buffers they use, and upload everything again next time: the device state is unknown.
  void forget_device_state() {
    (void)cudaStreamSynchronize(stream_.get());
    (void)cudaGetLastError();
    layout_.reset();
    inputs_uploaded_ = false;
  }

  // ---- The split across processes (cuda/core/agent_share.h).

  /// The agents the split stages compute here: the share's, or every agent.
  AgentSubset split_agents() const {
    if (share_ == nullptr)
      return {nullptr, count_};
    return {owned_agents_.data(), static_cast<int>(share_->owned().size())};
  }

  /// At the start of a step's stages: the share decides which agents are computed here and
  /// brings the kept state of those that came from another process into the host arrays, whose
  /// rows of the agents computed here go up (the host holds what end_step downloaded of the
  /// others: the same rows). The agents computed elsewhere, whose rows the shares bring, are
  /// listed on the device too.
  void assign_split(AgentArrays& agents) {
    share_->assign(agents);
    // The share names agents by id; the device lists rows.
    owned_rows_ = agents.rows_of(share_->owned());
    const std::span<const std::int32_t> owned = owned_rows_;
    computed_here_.assign(static_cast<std::size_t>(count_), 0);
    for (const std::int32_t row : owned)
      computed_here_[static_cast<std::size_t>(row)] = 1;
    others_.clear();
    for (std::int32_t i = 0; i < count_; ++i)
      if (computed_here_[static_cast<std::size_t>(i)] == 0)
        others_.push_back(i);
    upload_list(owned, owned_agents_, "the list of the agents this process computes");
    upload_list(others_, other_agents_, "the list of the agents other processes compute");
    copy_split_rows(
        split_columns(agents, [](ColumnReach r) { return r == ColumnReach::OwnerKept; }), false,
        owned, owned_agents_.data());
  }

  void upload_list(std::span<const std::int32_t> list, DeviceBuffer<std::int32_t>& device,
                   const char* what) {
    device.reserve(list.size(), what);
    if (!list.empty())
      CROWD_CUDA_CHECK(cudaMemcpyAsync(device.data(), list.data(),
                                       bytes_of<std::int32_t>(list.size()), cudaMemcpyHostToDevice,
                                       stream_.get()));
  }

  /// After split `stage` ran here: what the other processes read of it comes down for the
  /// agents computed here (and, after proximity, their neighbour lists, which the share finds
  /// the ghosts from), travels, and the rows of the other agents, which arrived, go up.
  void share_stage(KernelStage stage) {
    if (share_ == nullptr)
      return;
    AgentArrays& agents = *agents_;
    std::vector<AgentColumn> travelling, down;
    for (const StageColumn& c : stage_output_columns(agents, stage))
      if (c.reach == ColumnReach::Everyone || c.reach == ColumnReach::Neighbours)
        travelling.push_back(c.column);
    down = travelling;
    if (stage == KernelStage::Proximity) {
      down.push_back({reinterpret_cast<std::byte*>(agents.neighbor_index.data()), 0});
      down.push_back({reinterpret_cast<std::byte*>(agents.neighbor_count.data()), 0});
    }
    copy_split_rows(down, true, owned_rows_, owned_agents_.data());
    share_->share(agents, stage);
    copy_split_rows(travelling, false, others_, other_agents_.data());
  }

  /// Copies rows `ids` (`device_ids`: the same list on the device) of the host arrays that
  /// `columns` name (by their data) to the device (`down` false) or from it, packed on the device
  /// (pack_rows_kernel) and staged through pinned memory; waits for a
  /// download. An upload's staging is split_staging_'s own (the copies in flight from
  /// upload_staging_, begin_step's, may not have finished); it is written again only once the
  /// last upload from it finished (a process computing no agent downloads nothing between two).
  void copy_split_rows(const std::vector<AgentColumn>& columns, bool down,
                       std::span<const std::int32_t> ids, const std::int32_t* device_ids) {
    if (ids.empty() || count_ == 0)
      return;
    AgentArrays& a = *agents_;
    struct Rows {
      std::byte* host;
      unsigned char* device;
      std::size_t row;    ///< Bytes per agent.
      std::size_t offset; ///< Of the packed rows, in split_rows_ and the staging.
    };
    std::vector<Rows> rows;
    std::size_t total = 0;
    const auto copy = [&](auto& host, auto& device) {
      auto* data = reinterpret_cast<std::byte*>(host.data());
      if (std::none_of(columns.begin(), columns.end(),
                       [&](const AgentColumn& c) { return c.data == data; }))
        return;
      using T = typename std::decay_t<decltype(host)>::value_type;
      const std::size_t row = bytes_of<T>(host.size()) / static_cast<std::size_t>(count_);
      rows.push_back({data, reinterpret_cast<unsigned char*>(device.data()), row, total});
      total = align_shared(total + row * ids.size());
    };
    // Every array a split stage writes (stage_output_columns).
    copy(a.neighbor_index, neighbor_index_);
    copy(a.neighbor_distance_sq, neighbor_distance_sq_);
    copy(a.neighbor_count, neighbor_count_);
    copy(a.collider_index, collider_index_);
    copy(a.ttc_state, ttc_state_);
    copy(a.segment, segment_);
    copy(a.segment_count, segment_count_);
    copy(a.status, status_);
    copy(a.desired_velocity, desired_velocity_);
    copy(a.standoff_clock, standoff_clock_);
    copy(a.standoff_partner, standoff_partner_);
    copy(a.new_velocity, new_velocity_);
    copy(a.displacement, displacement_);
    if (total == 0)
      return;
    const std::string of = " of the split stages' results of " + std::to_string(ids.size()) +
                           " of " + std::to_string(count_) + " agents";
    split_rows_.reserve(total, "the packed rows" + of);
    const int count = static_cast<int>(ids.size());
    const auto blocks = [&](const Rows& r) {
      const long long bytes = static_cast<long long>(r.row) * count;
      return static_cast<unsigned>((bytes + agent_threads() - 1) / agent_threads());
    };
    if (!down) {
      if (split_upload_in_flight_)
        CROWD_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
      split_staging_.reserve(total, "the upload" + of);
      for (const Rows& r : rows)
        pack_rows({{r.host, r.row}}, ids,
                  reinterpret_cast<std::byte*>(split_staging_.data() + r.offset));
      CROWD_CUDA_CHECK(cudaMemcpyAsync(split_rows_.data(), split_staging_.data(), total,
                                       cudaMemcpyHostToDevice, stream_.get()));
      split_upload_in_flight_ = true;
      for (const Rows& r : rows)
        pack_rows_kernel<<<blocks(r), agent_threads(), 0, stream_.get()>>>(
            device_ids, count, static_cast<int>(r.row), r.device, split_rows_.data() + r.offset,
            false);
      CROWD_CUDA_CHECK(cudaGetLastError());
      return;
    }
    for (const Rows& r : rows)
      pack_rows_kernel<<<blocks(r), agent_threads(), 0, stream_.get()>>>(
          device_ids, count, static_cast<int>(r.row), r.device, split_rows_.data() + r.offset,
          true);
    CROWD_CUDA_CHECK(cudaGetLastError());
    download_staging_.reserve(total, "the download" + of);
    CROWD_CUDA_CHECK(cudaMemcpyAsync(download_staging_.data(), split_rows_.data(), total,
                                     cudaMemcpyDeviceToHost, stream_.get()));
    CROWD_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
    split_upload_in_flight_ = false;
    for (const Rows& r : rows)
      unpack_rows({{r.host, r.row}}, ids,
                  reinterpret_cast<const std::byte*>(download_staging_.data() + r.offset));
  }

  int agent_blocks() const { return blocks_for(count_, kAgentPolicy); }
  static constexpr int agent_threads() { return kAgentPolicy.threads_per_block; }

  /// The host arrays must have the sizes AgentArrays promises, or the copies would read past
  /// their ends.
  static void check_sizes(const AgentArrays& a) {
    const auto n = static_cast<std::size_t>(a.count());
    bool ok = a.max_neighbors >= 0 && a.max_segments >= 0 &&
              (a.agent_id.empty() || a.agent_id.size() == n);
    a.for_each_column([&](const auto& column, int per_row) {
      ok = ok && column.size() == n * static_cast<std::size_t>(per_row);
    });
    if (!ok)
      throw std::invalid_argument("CUDA executor: AgentArrays fields do not match count() = " +
                                  std::to_string(n));
  }

  /// Grows the device mirror to the agents' sizes and derives the launch shapes of the
  /// avoidance stage; called when the layout key changed.
  void prepare_layout(const AgentArrays& agents) {
    const auto n = static_cast<std::size_t>(agents.count());
    const std::string of = " for " + std::to_string(n) + " agents";
    for_each_agent_buffer(*this, agents.max_neighbors, agents.max_segments,
                          [&](auto& buffer, std::size_t per_agent, const char* name) {
                            buffer.reserve(n * per_agent, name + of);
                          });
    agent_id_.reserve(agents.agent_id.size(), "agent_id" + of);
    avoidance_params_.reserve(agents.avoidance_params.size(), "avoidance_params" + of);
    pattern_rotation_.reserve(agents.avoidance_params.size(), "pattern_rotation" + of);

    // One thread per sample of the largest pattern any agent uses.
    int samples = 1;
    bool uses_ttc = false;
    for (const std::int32_t set : agents.avoidance_set) {
      if (set < 0 || static_cast<std::size_t>(set) >= agents.avoidance_params.size())
        throw std::invalid_argument("CUDA executor: avoidance_set " + std::to_string(set) +
                                    " out of range");
      const AvoidanceParams& params = agents.avoidance_params[static_cast<std::size_t>(set)];
      samples = std::max(samples, block_sample_count(params));
      uses_ttc = uses_ttc || params.model == kAvoidanceTtc;
    }
    uses_ttc_ = uses_ttc;
    avoidance_block_size_ = avoidance_block_size(samples);
    avoidance_layout_ = avoidance_shared_layout(agents.max_neighbors, agents.max_segments);
  }

  /// Where corridor following writes on the device.
  SteeringRow device_steering() { return {preferred_velocity_.data(), corridor_direction_.data()}; }

  /// The kernels' view of the device mirror.
  AgentView device_view(const AgentArrays& agents) {
    AgentView v;
    v.count = agents.count();
    v.max_neighbors = agents.max_neighbors;
    v.max_segments = agents.max_segments;
    v.agent_id = agents.agent_id.empty() ? nullptr : agent_id_.data();
    v.mode = mode_.data();
    v.radius = radius_.data();
    v.height = height_.data();
    v.max_accel = max_accel_.data();
    v.query_range = query_range_.data();
    v.separation_weight = separation_weight_.data();
    v.avoidance_set = avoidance_set_.data();
    v.avoidance_params = avoidance_params_.data();
    v.pattern_rotation = pattern_rotation_.data();
    v.preferred_velocity = preferred_velocity_.data();
    v.desired_speed = desired_speed_.data();
    v.standoff_side = standoff_side_.data();
    v.position = position_.data();
    v.velocity = velocity_.data();
    v.desired_velocity = desired_velocity_.data();
    v.new_velocity = new_velocity_.data();
    v.displacement = displacement_.data();
    v.standoff_clock = standoff_clock_.data();
    v.standoff_partner = standoff_partner_.data();
    v.ttc_state = ttc_state_.data();
    v.collider_index = collider_index_.data();
    v.corridor_direction = corridor_direction_.data();
    v.neighbor_index = neighbor_index_.data();
    v.neighbor_distance_sq = neighbor_distance_sq_.data();
    v.neighbor_count = neighbor_count_.data();
    v.segment = segment_.data();
    v.segment_count = segment_count_.data();
    v.status = status_.data();
    return v;
  }

  static EventHandle make_event() {
    cudaEvent_t event = nullptr;
    CROWD_CUDA_CHECK(cudaEventCreate(&event));
    return EventHandle(event);
  }

  StreamHandle stream_;
  std::array<EventHandle, kKernelStageCount> events_; ///< [stage] its start this step
  std::array<bool, kKernelStageCount> recorded_{};    ///< [stage] events_ recorded this step
  EventHandle end_event_;                             ///< After the step's last copy.

  // The step in progress (begin_step).
  AgentArrays* agents_ = nullptr;
  KernelStepParams params_;
  int count_ = 0;
  int last_collision_pass_ = -1; ///< The pass resolve_collisions ran last.
  AgentView view_;               ///< The kernels' view of the device mirror.

  // The device mirror of AgentArrays (d_ for every field; names as in AgentView).
  DeviceBuffer<std::uint8_t> mode_;                // [count]
  DeviceBuffer<float> radius_;                     // [count]
  DeviceBuffer<float> height_;                     // [count]
  DeviceBuffer<float> max_accel_;                  // [count]
  DeviceBuffer<float> query_range_;                // [count]
  DeviceBuffer<float> separation_weight_;          // [count]
  DeviceBuffer<std::int32_t> avoidance_set_;       // [count]
  DeviceBuffer<std::uint8_t> standoff_side_;       // [count]
  DeviceBuffer<std::int32_t> agent_id_;            // [count], or none (AgentArrays::agent_id)
  DeviceBuffer<AvoidanceParams> avoidance_params_; // [sets]
  DeviceBuffer<PatternRotation> pattern_rotation_; // [sets]
  DeviceBuffer<glm::vec2> preferred_velocity_;     // [count]
  DeviceBuffer<float> desired_speed_;              // [count]
  DeviceBuffer<glm::vec3> position_;               // [count] uploaded into each step
  DeviceBuffer<glm::vec3> position_other_;         // [count] collision passes alternate
  DeviceBuffer<glm::vec2> velocity_;               // [count]
  DeviceBuffer<glm::vec2> desired_velocity_;       // [count]
  DeviceBuffer<glm::vec2> new_velocity_;           // [count]
  DeviceBuffer<glm::vec2> displacement_;           // [count]
  DeviceBuffer<std::uint8_t> displaced_even_;      // [count] displaced by pass 0, 2, ...
  DeviceBuffer<std::uint8_t> displaced_odd_;       // [count] displaced by pass 1, 3, ...
  DeviceBuffer<glm::vec2> standoff_clock_;         // [count]
  DeviceBuffer<std::int32_t> standoff_partner_;    // [count]
  DeviceBuffer<TtcState> ttc_state_;               // [count]
  DeviceBuffer<std::int32_t> collider_index_;      // [count * max_neighbors]
  DeviceBuffer<glm::vec2> corridor_direction_;     // [count]
  DeviceBuffer<std::int32_t> neighbor_index_;      // [count * max_neighbors]
  DeviceBuffer<float> neighbor_distance_sq_;       // [count * max_neighbors]
  DeviceBuffer<std::int32_t> neighbor_count_;      // [count]
  DeviceBuffer<glm::vec4> segment_;                // [count * max_segments]
  DeviceBuffer<std::int32_t> segment_count_;       // [count]
  DeviceBuffer<std::uint8_t> status_;              // [count]
  DeviceBuffer<float> segment_scratch_distance_;   // [count * max_segments]
  DeviceBuffer<std::int32_t> segment_scratch_ids_; // [count * max_segments]

  // The agent grid, rebuilt every step.
  DeviceBuffer<std::int32_t> grid_keys_;  // [count]
  DeviceBuffer<std::int32_t> grid_items_; // [count]
  DeviceBuffer<glm::vec4> grid_points_;   // [count] agent_grid_point of grid_items_[k]
  DeviceBuffer<std::int32_t> cell_start_; // [cell_count + 2]
  std::size_t grid_cells_ = 0;            ///< cell_count + 2 of the last build_grid
  DeviceTempAllocator temp_allocator_;    // Thrust's sort storage

  // The wall grid, uploaded once by set_walls.
  DeviceBuffer<std::int32_t> wall_cell_start_; // [cells + 1]
  DeviceBuffer<std::int32_t> wall_items_;      // [listed segments]
  DeviceBuffer<WallListing> wall_listing_;     // [listed segments]
  DeviceBuffer<glm::vec3> wall_p_;             // [segments]
  DeviceBuffer<glm::vec3> wall_q_;             // [segments]
  WallGridView walls_;

  PinnedBuffer<unsigned char> upload_staging_;   // [bytes of one step's uploads]
  PinnedBuffer<unsigned char> download_staging_; // [bytes of one step's downloads]
  PinnedBuffer<unsigned char> split_staging_;    // [bytes of a split stage's uploads]
  StagedCopies uploads_, downloads_;

  std::optional<LayoutKey> layout_; ///< What the device mirror was last uploaded for.
  LayoutKey pending_layout_;        ///< What point_at fitted it to, until flush_uploads.
  /// follow_corridors uploaded this step's inputs and wrote the preferred velocities here.
  bool inputs_uploaded_ = false;
  /// The positions here are where this executor's last step left them (end_step downloaded
  /// them, and the host has uploaded none since).
  bool step_positions_ = false;

  // The corridor phases: the navmesh tables and the corridor rows in device memory.
  std::unique_ptr<DeviceNavmeshTables> device_tables_;
  std::unique_ptr<DevicePathTrees> device_trees_; ///< The host's pool of trees, when it changed.
  std::uint64_t trees_version_ = ~std::uint64_t{0};
  ResidentCorridors corridors_;
  int avoidance_block_size_ = kAvoidanceBlockSizes.front();
  /// Some agent avoids by time to collision: its state comes down every step.
  bool uses_ttc_ = false;
  AvoidanceSharedLayout avoidance_layout_;
  AgentShare* share_ = nullptr;             ///< set_agent_share's; null: not split.
  DeviceBuffer<std::int32_t> owned_agents_; ///< share_->owned(), this step.
  std::vector<std::int32_t> owned_rows_;    ///< The rows of share_->owned(), this step.
  std::vector<std::uint8_t> computed_here_; ///< Per row: in owned_rows_ (assign_split's scratch).
  std::vector<std::int32_t> others_;        ///< The rows other processes compute, this step.
  DeviceBuffer<std::int32_t> other_agents_; ///< others_ on the device.
  DeviceBuffer<unsigned char> split_rows_;  ///< A split stage's rows, packed on the device.
  /// An upload from split_staging_ may not have finished (no synchronisation since it started).
  bool split_upload_in_flight_ = false;
};

} // namespace

int cuda_device_count() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    (void)cudaGetLastError(); // not a sticky error; do not leave it for the next check
    return 0;
  }
  return count;
}

std::string cuda_device_name() {
  if (cuda_device_count() == 0)
    return "";
  int device = 0;
  cudaDeviceProp properties{};
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaGetDeviceProperties(&properties, device) != cudaSuccess) {
    (void)cudaGetLastError();
    return "";
  }
  return properties.name;
}

std::unique_ptr<Executor> make_cuda_executor(int device) {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    (void)cudaGetLastError();
    int runtime = 0;
    (void)cudaRuntimeGetVersion(&runtime);
    std::string message = std::string("no CUDA device found: cudaGetDeviceCount failed with ") +
                          cudaGetErrorName(status) + " (" + cudaGetErrorString(status) + ")";
    if (status == cudaErrorInsufficientDriver || status == cudaErrorNoDevice) {
      // What the runtime means on a machine without a GPU: there is no driver at all.
      message += ": no NVIDIA driver is loaded, or it is older than this CUDA runtime (" +
                 std::to_string(runtime / 1000) + "." + std::to_string(runtime % 1000 / 10) + ")";
    }
    throw std::runtime_error(message + "; the cuda backend needs an NVIDIA GPU, use cpu instead");
  }
  if (count == 0) {
    throw std::runtime_error("no CUDA device found: the CUDA runtime reports 0 devices; the cuda "
                             "backend needs an NVIDIA GPU, use cpu instead");
  }
  if (device >= 0)
    CROWD_CUDA_CHECK(cudaSetDevice(device % count));
  return std::make_unique<CudaExecutor>();
}

} // namespace crowd
