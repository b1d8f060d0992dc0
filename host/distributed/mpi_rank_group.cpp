// make_mpi_rank_group (rank_group.h): MPI_COMM_WORLD as a RankGroup.
#include "host/distributed/mpi_agent_share.h"
#include "host/distributed/rank_group.h"

#include <cstdio>
#include <cstdlib>
#include <mpi.h>
#include <stdexcept>

namespace crowd {
namespace {

class MpiRankGroup final : public RankGroup {
public:
  MpiRankGroup(int& argc, char**& argv) {
    int provided = MPI_THREAD_SINGLE;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    if (provided < MPI_THREAD_FUNNELED) {
      MPI_Finalize();
      throw std::runtime_error("MPI: this MPI library cannot run beside worker threads "
                               "(MPI_THREAD_FUNNELED)");
    }
    share_ = std::make_unique<MpiAgentShare>(MPI_COMM_WORLD);
    MPI_Comm node = MPI_COMM_NULL;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, &local_rank_);
    MPI_Comm_size(node, &local_size_);
    MPI_Comm_free(&node);
  }
  ~MpiRankGroup() override {
    share_.reset();
    MPI_Finalize();
  }
  MpiRankGroup(const MpiRankGroup&) = delete;
  MpiRankGroup& operator=(const MpiRankGroup&) = delete;

  int rank() const override { return share_->rank_index(); }
  int size() const override { return share_->rank_count(); }
  int local_rank() const override { return local_rank_; }
  int local_size() const override { return local_size_; }
  int max_over_ranks(int value) override {
    int result = value;
    MPI_Allreduce(&value, &result, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return result;
  }
  bool alike_on_every_rank(std::uint64_t value) override {
    return share_->alike_on_every_rank(value);
  }
  [[noreturn]] void abort(int exit_code) override {
    std::fflush(nullptr);
    MPI_Abort(MPI_COMM_WORLD, exit_code);
    std::_Exit(exit_code); // MPI_Abort does not return; should it, this rank still ends
  }
  AgentShare& agent_share() override { return *share_; }
  ObservationSplit& observation_split() override { return *share_; }
  RankTraffic traffic() const override { return share_->traffic(); }

private:
  std::unique_ptr<MpiAgentShare> share_;
  int local_rank_ = 0;
  int local_size_ = 1;
};

} // namespace

std::unique_ptr<RankGroup> make_mpi_rank_group(int& argc, char**& argv) {
  return std::make_unique<MpiRankGroup>(argc, argv);
}

} // namespace crowd
