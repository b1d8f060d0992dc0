// A step's kernel stages split across processes (issue 13, MPI ranks): each process computes the
// stages that cost the most (proximity, steering, avoidance and the collision displacement) for
// the agents it owns, then the results of every agent reach every process before the next stage
// reads them. The path trees a step builds are split alike, as jobs. This is the replicated-data
// scheme of molecular dynamics ("atom decomposition": S. Plimpton, "Fast parallel algorithms for
// short-range molecular dynamics", J. Comput. Phys. 117, 1995), with ownership by spatial domain so
// that it can later shrink to a halo exchange.
//
// The executor knows only this interface: who owns an agent and how results travel is the
// implementation's (host/distributed/mpi_agent_share.h). Each stage's result for agent i
// depends only on the state before the stage, so the arrays after a shared stage are the
// arrays one process computing every agent would have, byte for byte.
#pragma once

#include "cuda/core/agent_arrays.h"
#include "cuda/core/kernel_stage.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace crowd {

/// One per-agent column of the arrays: agent i's bytes are data[i * bytes_per_agent, ...).
struct AgentColumn {
  std::byte* data = nullptr;
  std::size_t bytes_per_agent = 0;
};

/// Whether `stage` runs on the owned agents only (and is then shared); the other stages run for
/// every agent on every process, being cheap (grid, integration) or the executor's own
/// (upload, download).
constexpr bool is_split_stage(KernelStage stage) {
  return stage == KernelStage::Proximity || stage == KernelStage::Steering ||
         stage == KernelStage::Avoidance || stage == KernelStage::Collisions;
}

/// The columns of `agents` that split `stage` writes for the agent it computes (and for no
/// other agent), in a fixed order: what must reach every process after it. For Collisions, the
/// displacement half of a pass (collision_displacement); each process then applies every
/// agent's displacement. None for a stage that is not split.
std::vector<AgentColumn> stage_output_columns(AgentArrays& agents, KernelStage stage);

class AgentShare {
public:
  virtual ~AgentShare() = default;
  /// At the start of a step's kernel stages: decides which agents this process computes this
  /// step, from `agents` as the step starts (the same arrays on every process).
  virtual void assign(const AgentArrays& agents) = 0;
  /// The agents this process computes in the split stages of this step, ascending.
  virtual std::span<const std::int32_t> owned() const = 0;
  /// After split `stage` ran for owned() on every process: every process's
  /// stage_output_columns(agents, stage) of every agent become those its owner computed.
  virtual void share(AgentArrays& agents, KernelStage stage) = 0;

  // ---- Jobs that are no one agent's: the path trees a step builds (host/paths), split the
  // same way. Every process lists the same `count` jobs in the same order.

  /// Whether this process runs job `k` of a list of jobs.
  virtual bool runs_job(std::size_t k) const = 0;
  /// After every process ran its jobs: every job's result, in job order, on every process.
  /// `mine` holds this process's results, in the order of its jobs (those runs_job picks).
  virtual std::vector<std::vector<std::byte>>
  share_jobs(std::size_t count, const std::vector<std::vector<std::byte>>& mine) = 0;
};

} // namespace crowd
