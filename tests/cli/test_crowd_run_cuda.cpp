// `crowd run --backend cuda` end to end against `--backend cpu`: the host's corridors around
// the device's kernels give the same trajectory, byte for byte, and the same metrics apart from
// timings. Needs a device (a GPU, or GPGPU-Sim in CI: bash .ci/gpu-sim, where the crowd process
// inherits the simulator's environment); skips without one.
#include <gtest/gtest.h>

#if defined(CROWD_HAS_CUDA)

#include "tests/cli/cli_runner.h"
#include "tests/support/cuda_device.h"

#include <fstream>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

namespace crowd::testing {
namespace {

struct CudaRun {
  const char* scenario;
  int steps;              ///< On a GPU.
  int steps_on_simulator; ///< Under GPGPU-Sim (each step of 100 agents takes about 1.5 s).
  const char* name;       ///< The test's name.
  /// The defaults' `avoidance` put in the example's place (JSON), or null: the example as it is.
  const char* avoidance = nullptr;
};

void PrintTo(const CudaRun& run, std::ostream* out) {
  *out << run.name;
}

class CudaCli : public ::testing::TestWithParam<CudaRun> {};

TEST_P(CudaCli, TrajectoryEqualsTheCpuBackendByteForByte) {
  if (cuda_device_count() == 0)
    GTEST_SKIP() << test::kNoCudaDevice;
  const CudaRun& run = GetParam();
  const int steps = test::size_for_device(run.steps, run.steps_on_simulator);
  TempDir dir;
  std::string scenario = sample(run.scenario);
  if (run.avoidance != nullptr) {
    nlohmann::json changed = nlohmann::json::parse(read_file(scenario));
    changed["defaults"]["avoidance"] = nlohmann::json::parse(run.avoidance);
    scenario = (dir / run.scenario).string();
    std::ofstream(scenario) << changed.dump(1);
  }
  for (const char* backend : {"cpu", "cuda"}) {
    const CliResult r =
        run_cli("run " + scenario + " --backend " + backend + " --steps " + std::to_string(steps) +
                " --quiet --out " + (dir / (std::string(backend) + ".csv")).string() +
                " --metrics " + (dir / (std::string(backend) + ".json")).string());
    ASSERT_EQ(r.exit_code, 0) << backend << ":\n"
                              << r.output.substr(r.output.size() > 4000 ? r.output.size() - 4000
                                                                        : 0);
  }
  const std::string cpu = read_file(dir / "cpu.csv");
  ASSERT_GT(cpu.size(), 1000u);
  EXPECT_TRUE(cpu == read_file(dir / "cuda.csv")) << "the trajectories differ";

  nlohmann::json cpu_metrics = nlohmann::json::parse(read_file(dir / "cpu.json"));
  nlohmann::json cuda_metrics = nlohmann::json::parse(read_file(dir / "cuda.json"));
  EXPECT_EQ(cuda_metrics["backend"], "cuda");
  for (const char* timing :
       {"backend", "step_ms_mean", "step_ms_p95", "stage_ms", "host_memory_bytes"}) {
    cpu_metrics.erase(timing);
    cuda_metrics.erase(timing);
  }
  EXPECT_EQ(cpu_metrics, cuda_metrics);
}

// circle: 100 agents crossing one point (avoidance under pressure); film_shot: emitters,
// waypoints and waits (agents added while the device mirror is live); corridor under
// time-to-collision sampling in corridor mode (the avoidance kernel reads the corridor rows the
// device holds); links: agents crossing off-mesh links, which the host triggers from the corners
// it answered for and the device's rows must keep; dropped_crate: obstacles put down and taken
// away, after which the device takes the navmesh tables, the walls and every row again.
INSTANTIATE_TEST_SUITE_P(
    CudaSamples, CudaCli,
    ::testing::Values(CudaRun{"circle.json", 300, 20, "circle"},
                      CudaRun{"film_shot.json", 600, 60, "film_shot"},
                      CudaRun{"corridor.json", 600, 30, "corridor_ttc_corridor_mode",
                              R"({"model": "ttc", "reference": "corridor"})"},
                      CudaRun{"links.json", 600, 80, "links"},
                      CudaRun{"dropped_crate.json", 700, 70, "dropped_crate"}),
    [](const ::testing::TestParamInfo<CudaRun>& param) { return std::string(param.param.name); });

} // namespace
} // namespace crowd::testing

#endif // CROWD_HAS_CUDA
