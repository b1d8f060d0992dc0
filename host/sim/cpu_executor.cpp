// The CPU executor: the kernel bodies of cuda/kernels run once per agent (or per block, for
// avoidance), agents spread over cores with TBB. Every agent's result depends only on the
// state before the stage, so the outcome is the same for any thread count.
#include "cuda/core/executor.h"
#include "cuda/core/parallel_agents.h"
#include "cuda/kernels/agent_grid_build.h"
#include "cuda/kernels/collision.h"
#include "cuda/kernels/integration.h"
#include "cuda/kernels/proximity.h"
#include "cuda/kernels/separation.h"
#include "host/sim/cpu_block.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <oneapi/tbb/enumerable_thread_specific.h>
#include <oneapi/tbb/task_arena.h>
#include <optional>
#include <stdexcept>
#include <thrust/system/cpp/execution_policy.h>
#include <vector>

namespace crowd {
namespace {

/// Wall-clock start of each kernel stage a step ran; end_step turns them into stage times.
class StageClock {
public:
  using Clock = std::chrono::steady_clock;

  void reset() { start_.fill(std::nullopt); }
  void start(KernelStage stage) { start_[static_cast<std::size_t>(stage)] = Clock::now(); }

  /// Adds each started stage's time, up to the next started stage or `end`, in stage order.
  void add_to(StageTimes& times, Clock::time_point end) const {
    for (std::size_t s = 0; s < kKernelStageCount; ++s) {
      if (!start_[s])
        continue;
      Clock::time_point stop = end;
      for (std::size_t next = s + 1; next < kKernelStageCount; ++next) {
        if (start_[next]) {
          stop = *start_[next];
          break;
        }
      }
      times.add(kKernelStageNames[s],
                std::chrono::duration<double, std::milli>(stop - *start_[s]).count());
    }
  }

private:
  std::array<std::optional<Clock::time_point>, kKernelStageCount> start_;
};

class CpuExecutor final : public Executor {
public:
  explicit CpuExecutor(int threads) : arena_(threads > 0 ? threads : tbb::task_arena::automatic) {}

  std::string name() const override { return "cpu"; }

  void set_walls(const WallGridData& walls) override { walls_ = walls.view(); }
  void set_agent_share(AgentShare* share) override {
    share_ = share;
    if (share_ != nullptr)
      share_->keep_corridor_rows();
  }

  // ---- The corridor phases, split like the kernel stages when there is a share: each runs
  // for this process's agents (and those added since the last split, which every process runs),
  // then brings every process what it reads of the others (agent_share.h). The host, which
  // runs the same path planning for every agent on every process, answers the agents any
  // process flagged, from their rows fetched from their owners. Like the phases themselves,
  // these run on the calling thread (the main one, which alone calls MPI), their bodies over
  // the workers of the calling task arena.

  void check_corridors(AgentArrays& agents) override {
    if (share_ == nullptr)
      return Executor::check_corridors(agents);
    check_corridors_of(agents, corridor_agents(agents));
    share_->share_rows({share_detail::column(agents.corridors.checks)}, "corridor checks");
  }

  void follow_corridors(AgentArrays& agents, float range_factor) override {
    if (share_ == nullptr)
      return Executor::follow_corridors(agents, range_factor);
    follow_corridors_of(agents, range_factor, corridor_agents(agents));
    share_->kept_rows_changed();
    answer_on_every_process(agents);
  }

  NavmeshCorrections move_corridors(AgentArrays& agents) override {
    if (share_ == nullptr)
      return Executor::move_corridors(agents);
    // The positions the move puts back travel, of the agents it put somewhere else than the
    // kernels left them (every process holds those alike).
    const std::vector<AgentColumn> positions{share_detail::column(agents.position)};
    positions_before_.resize(share_->corridor_owned().size() * sizeof(glm::vec3));
    pack_rows(positions, agents.rows_of(share_->corridor_owned(), rows_), positions_before_.data());
    // After begin_step every agent is placed, so each is moved by one process and counted once.
    NavmeshCorrections corrections = move_corridors_of(agents, corridor_agents(agents));
    share_->kept_rows_changed();
    share_->share_changed_rows(positions, positions_before_, "corridor positions");
    long long count = corrections.count;
    double largest = corrections.max_distance; // a float's value: exact both ways
    share_->combine({&count, 1}, {&largest, 1});
    corrections.count = static_cast<int>(count);
    corrections.max_distance = static_cast<float>(largest);
    answer_on_every_process(agents);
    return corrections;
  }

  void fetch_corridor_rows(AgentArrays& agents, std::span<const std::int32_t> which) override {
    if (share_ != nullptr)
      share_->fetch_kept_rows(agents.ids_of(which, ids_));
  }

  void fetch_corridor_starts(AgentArrays& agents, std::span<const std::int32_t> which,
                             std::span<std::int32_t> first) override {
    if (share_ != nullptr) {
      // The first polygon alone, from the owners of rows not alike here, by agent id.
      const std::span<const std::int32_t> ids = agents.ids_of(which, ids_);
      starts_.resize(static_cast<std::size_t>(agents.corridors.count()));
      for (std::size_t j = 0; j < which.size(); ++j)
        starts_[static_cast<std::size_t>(ids[j])] = agents.corridors.first_polygon(which[j]);
      share_->fetch_rows({share_detail::column(starts_)}, ids);
      for (std::size_t j = 0; j < which.size(); ++j)
        first[j] = starts_[static_cast<std::size_t>(ids[j])];
      return;
    }
    Executor::fetch_corridor_starts(agents, which, first);
  }

  // Nothing to upload or download: the stages work on the host's arrays in place, so neither
  // "upload" nor "download" is timed.
  void begin_step(AgentArrays& agents, const KernelStepParams& params, StepInputs) override {
    agents_ = &agents;
    params_ = params;
    view_ = agents.view();
    view_.corridors = agents.corridor_rows(navmesh_tables_);
    last_collision_pass_ = -1;
    clock_.reset();
    if (share_ != nullptr)
      share_->assign(agents);
  }

  void build_grid() override {
    clock_.start(KernelStage::Grid);
    const auto n = static_cast<std::size_t>(view_.count);
    keys_.resize(n);
    sorted_.resize(n);
    points_.resize(n);
    cell_start_.resize(static_cast<std::size_t>(params_.agent_grid.cell_count()) + 2);
    arena_.execute([&] {
      build_agent_grid(thrust::cpp::par, params_.agent_grid, view_, keys_.data(), sorted_.data(),
                       points_.data(), cell_start_.data());
    });
  }

  void find_proximity() override {
    clock_.start(KernelStage::Proximity);
    const AgentGridView grid{{params_.agent_grid, cell_start_.data(), sorted_.data()},
                             points_.data()};
    // In id order: visiting agents in grid (cell) order was measured no faster at 16,000
    // agents, and callgrind's cache model at 4,000 showed more L1 misses, chiefly the writes
    // of the result rows, which that order scatters.
    for_each_split_agent(KernelStage::Proximity, [&](int i) {
      find_neighbors(i, view_, grid);
      collect_colliders(i, view_, grid);
      WorkerScratch& scratch = worker_scratch();
      find_wall_segments(i, view_, walls_, scratch.segment_distance.data(),
                         scratch.segment_ids.data());
    });
  }

  void steer() override {
    clock_.start(KernelStage::Steering);
    for_each_split_agent(KernelStage::Steering, [&](int i) {
      steer_with_separation(i, view_, params_.standoff, params_.dt);
    });
  }

  void choose_velocities() override {
    clock_.start(KernelStage::Avoidance);
    for_each_split_agent(KernelStage::Avoidance, [&](int i) {
      CpuBlock block;
      choose_velocity(block, i, view_, worker_scratch().avoidance.view(), params_.standoff,
                      params_.dt);
    });
  }

  void integrate() override {
    clock_.start(KernelStage::Integrate);
    for_each_agent([&](int i) { integrate_agent(i, view_, params_.dt); });
  }

  void resolve_collisions(int pass) override {
    if (pass == 0)
      clock_.start(KernelStage::Collisions);
    // After the first pass only the agents whose displacement may have changed are computed
    // again (displacement_may_change, cuda/kernels/collision.h), as on the device. Only valid
    // right after this executor's previous pass on the same arrays; otherwise every agent
    // counts as displaced.
    const auto n = static_cast<std::size_t>(view_.count);
    if (pass == 0 || pass != last_collision_pass_ + 1 || moved_.size() != n)
      moved_.assign(n, 1);
    last_collision_pass_ = pass;
    for_each_split_agent(KernelStage::Collisions, [&](int i) {
      if (displacement_may_change(i, view_, moved_.data()))
        collision_displacement(i, view_, params_.collision);
    });
    for_each_agent([&](int i) {
      apply_displacement(i, view_);
      moved_[static_cast<std::size_t>(i)] = was_displaced(i, view_);
    });
  }

  void end_step(StageTimes& times) override {
    clock_.add_to(times, StageClock::Clock::now());
    clock_.reset();
  }

  AgentGridSnapshot agent_grid() const override { return {keys_, sorted_, points_, cell_start_}; }

  std::size_t host_memory_bytes() const override {
    return (keys_.capacity() + sorted_.capacity() + cell_start_.capacity()) * sizeof(std::int32_t) +
           points_.capacity() * sizeof(glm::vec4) + moved_.capacity() +
           (corridor_agents_.capacity() + starts_.capacity() + rows_.capacity() + ids_.capacity()) *
               sizeof(std::int32_t) +
           positions_before_.capacity();
  }

private:
  /// What one worker thread needs besides the agent arrays, kept from step to step so the
  /// stages allocate nothing once the sizes are reached.
  struct WorkerScratch {
    std::vector<float> segment_distance;   // [max_segments]
    std::vector<std::int32_t> segment_ids; // [max_segments]
    CpuAvoidanceScratch avoidance;
  };

  WorkerScratch& worker_scratch() {
    WorkerScratch& s = scratch_.local();
    const auto segments = static_cast<std::size_t>(view_.max_segments);
    if (s.segment_distance.size() < segments) {
      s.segment_distance.resize(segments);
      s.segment_ids.resize(segments);
    }
    s.avoidance.fit(view_.max_neighbors, view_.max_segments);
    return s;
  }

  /// The rows this process runs the corridor phases for: those of the agents whose corridor
  /// rows it holds at the last split, and of those added since (every process runs them, each
  /// alike).
  std::span<const std::int32_t> corridor_agents(const AgentArrays& agents) {
    const std::span<const std::int32_t> owned = share_->corridor_owned();
    const auto count = static_cast<std::int32_t>(agents.corridors.count());
    const auto placed = static_cast<std::int32_t>(share_->assigned_count());
    if (placed >= count && agents.agent_row.empty())
      return owned;
    corridor_agents_.assign(owned.begin(), owned.end());
    for (std::int32_t i = placed; i < count; ++i)
      corridor_agents_.push_back(i);
    for (std::int32_t& agent : corridor_agents_)
      agent = agents.row_of(agent);
    return corridor_agents_;
  }

  /// After a split corridor phase: every process lists the agents any process's phase flagged
  /// for the host (agents.corridors.asked, ascending) and holds their rows, state bits
  /// included, as their owners left them; the host then answers for each on every process.
  void answer_on_every_process(AgentArrays& agents) {
    // The processes name the agents by id; `asked` lists rows, ascending.
    CorridorArrays& rows = agents.corridors;
    const std::vector<std::int32_t> asked = share_->gather_agents(agents.ids_of(rows.asked, ids_));
    share_->fetch_kept_rows(asked);
    rows.asked = agents.rows_of(asked);
    std::sort(rows.asked.begin(), rows.asked.end());
  }

  void require_step() const {
    if (agents_ == nullptr)
      throw std::logic_error("CPU executor: a phase ran before begin_step");
  }

  /// f(i) for every agent, in chunks of 64 spread over the arena's workers.
  template <class F> void for_each_agent(F&& f) {
    require_step();
    arena_.execute([&] { parallel_for_each_agent(view_.count, 64, f); });
  }

  /// f(i) for the agents of split `stage`: every agent, or the share's, whose results then reach
  /// the other processes and theirs this one (agent_share.h).
  template <class F> void for_each_split_agent(KernelStage stage, F&& f) {
    if (share_ == nullptr)
      return for_each_agent(f);
    require_step();
    const std::span<const std::int32_t> owned = share_->owned();
    arena_.execute([&] {
      parallel_for_each_agent(static_cast<int>(owned.size()), 64, [&](int k) {
        f(agents_->row_of(owned[static_cast<std::size_t>(k)]));
      });
    });
    share_->share(*agents_, stage);
  }

  tbb::task_arena arena_;
  AgentShare* share_ = nullptr;
  WallGridView walls_;
  AgentArrays* agents_ = nullptr; ///< The step's arrays, from begin_step.
  AgentView view_;                ///< agents_->view()
  KernelStepParams params_;
  std::vector<std::int32_t> keys_, sorted_, cell_start_;
  std::vector<glm::vec4> points_;             ///< agent_grid_point of sorted_[k]
  std::vector<std::uint8_t> moved_;           ///< Per agent: displaced in the last collision pass.
  std::vector<std::int32_t> corridor_agents_; ///< corridor_agents' list, when it adds any.
  std::vector<std::byte> positions_before_;   ///< Of the owned agents, before the move.
  std::vector<std::int32_t> starts_;          ///< Per agent, fetch_corridor_starts' scratch.
  std::vector<std::int32_t> rows_, ids_;      ///< Scratch of the share's lists as rows and ids.
  int last_collision_pass_ = -1;
  StageClock clock_;
  tbb::enumerable_thread_specific<WorkerScratch> scratch_;
};

} // namespace

std::unique_ptr<Executor> make_cpu_executor(int threads) {
  return std::make_unique<CpuExecutor>(threads);
}

} // namespace crowd
