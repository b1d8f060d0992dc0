// libFuzzer target: any bytes as a checkpoint file (`crowd resume`) must be restored or give
// one CheckpointError, never a crash, a hang or another exception. An input that starts with
// the magic CROWDCKP is taken as a whole file (the header's checks). Any other is taken as a
// body and given a valid header (magic, this build's format and version, length, checksum):
// the body's checksum would otherwise stop nearly every mutated file at the header, and the
// fuzzer would never reach the run record and the simulation's state. They are restored into a
// fresh simulation of tests/fuzz/checkpoint_scenario.json (the scenario of the seed checkpoints
// in tests/fuzz/seeds/fuzz_checkpoint_reader), as crowd resume does. Stepping a restored state
// is the resume tests' part (tests/cli/test_crowd_resume.cpp): this is the reader's.
#include "host/checkpoint/archive.h"
#include "host/checkpoint/checkpoint_file.h"
#include "host/cli/run_checkpoint.h"
#include "host/scenario/scenario.h"
#include "host/sim/simulation.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace {

const crowd::Scenario& scenario() {
  static const crowd::Scenario loaded =
      crowd::load_scenario(std::string(CROWD_SOURCE_DIR) + "/tests/fuzz/checkpoint_scenario.json");
  return loaded;
}

/// A fresh simulation of the scenario for every input: a restore is only defined into one
/// (Simulation::restore_checkpoint).
crowd::Simulation fresh_simulation() {
  crowd::SimulationOptions options;
  options.backend = crowd::BackendKind::Cpu;
  options.solver.threads = 1;
  return crowd::Simulation(scenario(), options);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static constexpr char kMagic[] = "CROWDCKP";
  std::vector<std::uint8_t> bytes(data, data + size);
  if (size < 8 || std::memcmp(data, kMagic, 8) != 0) {
    // A body: given the header of a checkpoint file of this build.
    crowd::ArchiveWriter body;
    for (std::size_t i = 0; i < size; ++i)
      body.put(data[i]);
    bytes = crowd::checkpoint_file_bytes(body);
  }
  try {
    const crowd::CheckpointBody checkpoint(std::move(bytes), "fuzz.ckpt");
    crowd::ArchiveReader in = checkpoint.reader();
    const crowd::RunRecord record = crowd::restore_run_record(in);
    (void)record;
    crowd::Simulation sim = fresh_simulation();
    sim.restore_checkpoint(in);
    if (!in.at_end()) // as crowd resume: the seed's run has no outputs to restore
      in.fail("bytes left after the simulation's state");
  } catch (const crowd::CheckpointError& error) {
    // The expected answer to a bad checkpoint; but the seeds must restore (the CTest
    // Fuzz.fuzz_checkpoint_reader.SeedsRestore sets CROWD_FUZZ_EXPECT_VALID).
    if (std::getenv("CROWD_FUZZ_EXPECT_VALID") != nullptr) {
      std::fprintf(stderr,
                   "%s\nThe seed no longer restores: rerun bash tests/fuzz/make_seeds.sh "
                   "and commit tests/fuzz/seeds\n",
                   error.what());
      std::abort();
    }
  }
  return 0;
}
