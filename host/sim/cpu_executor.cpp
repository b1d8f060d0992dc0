// The CPU executor: the kernel bodies of cuda/kernels run once per agent (or per block, for
// avoidance), agents spread over cores with TBB. Every agent's result depends only on the
// state before the stage, so the outcome is the same for any thread count.
#include "cuda/kernels/agent_grid_build.h"
#include "cuda/kernels/collision.h"
#include "cuda/kernels/integration.h"
#include "cuda/kernels/proximity.h"
#include "cuda/kernels/separation.h"
#include "host/sim/cpu_block.h"
#include "host/sim/executor.h"

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/enumerable_thread_specific.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/task_arena.h>
#include <thrust/system/cpp/execution_policy.h>
#include <vector>

namespace crowd {
namespace {

class CpuExecutor final : public Executor {
public:
  explicit CpuExecutor(int threads) : arena_(threads > 0 ? threads : tbb::task_arena::automatic) {}

  std::string name() const override { return "cpu"; }

  void set_walls(const WallGridData& walls) override { walls_ = walls.view(); }

  void step(AgentArrays& agents, const KernelStepParams& params, StageTimes& times) override {
    const int n = agents.count();
    AgentView view = agents.view();
    arena_.execute([&] {
      {
        ScopedStage stage(times, "grid");
        keys_.resize(static_cast<std::size_t>(n));
        sorted_.resize(static_cast<std::size_t>(n));
        points_.resize(static_cast<std::size_t>(n));
        cell_start_.resize(static_cast<std::size_t>(params.agent_grid.cell_count()) + 2);
        build_agent_grid(thrust::cpp::par, params.agent_grid, view, keys_.data(), sorted_.data(),
                         points_.data(), cell_start_.data());
      }
      const AgentGridView grid{{params.agent_grid, cell_start_.data(), sorted_.data()},
                               points_.data()};
      {
        ScopedStage stage(times, "proximity");
        // In id order: visiting agents in grid (cell) order was measured no faster at 16,000
        // agents, and callgrind's cache model at 4,000 showed more L1 misses, chiefly the
        // writes of the result rows, which that order scatters.
        for_each_agent(n, [&](int i) {
          find_neighbors(i, view, grid);
          WorkerScratch& scratch = worker_scratch(view);
          find_wall_segments(i, view, walls_, scratch.segment_distance.data(),
                             scratch.segment_ids.data());
        });
      }
      {
        ScopedStage stage(times, "steering");
        for_each_agent(n, [&](int i) { steer_with_separation(i, view); });
      }
      {
        ScopedStage stage(times, "avoidance");
        for_each_agent(n, [&](int i) {
          CpuBlock block;
          choose_velocity(block, i, view, worker_scratch(view).avoidance.view());
        });
      }
      {
        ScopedStage stage(times, "integrate");
        for_each_agent(n, [&](int i) { integrate_agent(i, view, params.dt); });
      }
      {
        ScopedStage stage(times, "collisions");
        // An agent's displacement depends only on its own and its neighbours' positions (and
        // on inputs the passes do not change), so after the first pass it is recomputed only
        // where one of those moved in the pass before; elsewhere it is still the zero it was
        // (had it not been zero, the agent itself would have moved). Same result, and in a
        // sparse crowd the later passes touch only the agents in contact.
        moved_.assign(static_cast<std::size_t>(n), 1);
        for (int pass = 0; pass < params.collision_iterations; ++pass) {
          for_each_agent(n, [&](int i) {
            if (!moved_[static_cast<std::size_t>(i)] && !neighbor_moved(i, view))
              return;
            collision_displacement(i, view, params.collision);
          });
          for_each_agent(n, [&](int i) {
            apply_displacement(i, view);
            const glm::vec2 d = view.displacement[i];
            moved_[static_cast<std::size_t>(i)] = d.x != 0.0f || d.y != 0.0f;
          });
        }
      }
    });
  }

  std::size_t host_memory_bytes() const override {
    return (keys_.capacity() + sorted_.capacity() + cell_start_.capacity()) * sizeof(std::int32_t) +
           points_.capacity() * sizeof(glm::vec4) + moved_.capacity();
  }

private:
  /// What one worker thread needs besides the agent arrays, kept from step to step so the
  /// stages allocate nothing once the sizes are reached.
  struct WorkerScratch {
    std::vector<float> segment_distance;   // [max_segments]
    std::vector<std::int32_t> segment_ids; // [max_segments]
    CpuAvoidanceScratch avoidance;
  };

  WorkerScratch& worker_scratch(const AgentView& view) {
    WorkerScratch& s = scratch_.local();
    const auto segments = static_cast<std::size_t>(view.max_segments);
    if (s.segment_distance.size() < segments) {
      s.segment_distance.resize(segments);
      s.segment_ids.resize(segments);
    }
    s.avoidance.fit(view.max_neighbors, view.max_segments);
    return s;
  }

  /// Whether one of agent i's neighbours moved in the last collision pass.
  bool neighbor_moved(int i, const AgentView& view) const {
    const std::int32_t* neighbors =
        view.neighbor_index + static_cast<std::ptrdiff_t>(i) * view.max_neighbors;
    for (int k = 0; k < view.neighbor_count[i]; ++k) {
      if (moved_[static_cast<std::size_t>(neighbors[k])])
        return true;
    }
    return false;
  }

  template <class F> void for_each_agent(int n, F&& f) {
    tbb::parallel_for(tbb::blocked_range<int>(0, n, 64), [&](const tbb::blocked_range<int>& r) {
      for (int i = r.begin(); i < r.end(); ++i)
        f(i);
    });
  }

  tbb::task_arena arena_;
  WallGridView walls_;
  std::vector<std::int32_t> keys_, sorted_, cell_start_;
  std::vector<glm::vec4> points_;   ///< agent_grid_point of sorted_[k]
  std::vector<std::uint8_t> moved_; ///< Per agent: displaced in the last collision pass.
  tbb::enumerable_thread_specific<WorkerScratch> scratch_;
};

} // namespace

std::unique_ptr<Executor> make_cpu_executor(int threads) {
  return std::make_unique<CpuExecutor>(threads);
}

} // namespace crowd
