// The bench runner's decisions, figures, report and plot on a tiny bench (no timings are
// asserted: only that every figure is there and finite).
#include "host/backends/detour_backend.h"
#include "host/bench/bench_plot.h"
#include "host/bench/bench_report.h"
#include "host/bench/bench_runner.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <iterator>
#include <nlohmann/json.hpp>
#include <unistd.h>

namespace crowd {
namespace {

namespace fs = std::filesystem;

TEST(BenchRunner, DetourIsSkippedAboveItsCapacityWithTheReason) {
  EXPECT_FALSE(bench_skip_reason(BackendKind::Detour, 1000));
  EXPECT_FALSE(bench_skip_reason(BackendKind::Detour, 16000));
  EXPECT_FALSE(bench_skip_reason(BackendKind::Detour, DetourCrowdBackend::kMaxCapacity));
  const auto reason = bench_skip_reason(BackendKind::Detour, DetourCrowdBackend::kMaxCapacity + 1);
  ASSERT_TRUE(reason);
  EXPECT_EQ(*reason, "DetourCrowd's proximity grid keeps 16-bit links: at most 16383 agents");
  EXPECT_TRUE(bench_skip_reason(BackendKind::Detour, 64000));
  EXPECT_FALSE(bench_skip_reason(BackendKind::Cpu, 1000000));
}

TEST(BenchRunner, CudaIsSkippedWithoutADevice) {
  const auto reason = bench_skip_reason(BackendKind::Cuda, 1000);
  EXPECT_EQ(reason.has_value(), !cuda_device_available());
  if (reason) {
    EXPECT_NE(reason->find("CUDA"), std::string::npos) << *reason;
  }
}

TEST(BenchRunner, SpeedupIsAgentStepsPerSecondAgainstDetourOfTheSameSize) {
  std::vector<BenchRun> runs(4);
  runs[0].agents = 100, runs[0].backend = "cpu", runs[0].agent_steps_per_second = 5000.0;
  runs[1].agents = 100, runs[1].backend = "detour", runs[1].agent_steps_per_second = 2000.0;
  runs[2].agents = 200, runs[2].backend = "cpu", runs[2].agent_steps_per_second = 4000.0;
  runs[3].agents = 200, runs[3].backend = "detour", runs[3].status = BenchRun::Status::Skipped;
  fill_speedups(runs);
  ASSERT_TRUE(runs[0].speedup && runs[1].speedup);
  EXPECT_DOUBLE_EQ(*runs[0].speedup, 2.5);
  EXPECT_DOUBLE_EQ(*runs[1].speedup, 1.0);
  EXPECT_FALSE(runs[2].speedup);
  EXPECT_FALSE(runs[3].speedup);
}

TEST(BenchRunner, AgentStepsCountOnlyAgentsStillInTheScene) {
  // Bench agents leave on arrival; a backend whose agents arrive sooner steps fewer of them,
  // and its rate must not be credited with the agents that left.
  BenchOptions options;
  options.agents = {40};
  options.backends = {BackendKind::Cpu};
  options.steps = 200;
  options.threads = 1;
  const std::vector<BenchRun> runs = run_bench(options);
  ASSERT_EQ(runs.size(), 1u);
  const BenchRun& run = runs[0];
  ASSERT_EQ(run.status, BenchRun::Status::Ran) << run.reason;
  ASSERT_GT(run.metrics.arrived, 0);
  EXPECT_LT(run.agent_steps, 40LL * options.steps);
  EXPECT_GE(run.agent_steps, (40LL - run.metrics.arrived) * options.steps);
  EXPECT_GT(run.us_per_agent_step, run.step_ms_mean * 1000.0 / run.agents);
}

class BenchRunnerFiles : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("crowd_bench_runner_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(BenchRunnerFiles, TinyBenchHasEveryFigure) {
  BenchOptions options;
  options.agents = {40, 80};
  options.backends = {BackendKind::Cpu, BackendKind::Detour, BackendKind::Cuda};
  options.steps = 5;
  options.threads = 1;
  options.write_scenes = dir_ / "scenes";
  const auto scenes = write_bench_scenes(options);
  ASSERT_EQ(scenes.size(), 2u);
  for (const auto& scene : scenes) {
    EXPECT_TRUE(fs::exists(scene)) << scene;
    EXPECT_NO_THROW(load_scenario(scene));
  }

  int started = 0, finished = 0, steps = 0;
  BenchObserver observer;
  observer.run_started = [&](int, const std::string&) { ++started; };
  observer.step_done = [&](int, int, double) { ++steps; };
  observer.run_finished = [&](const BenchRun&) { ++finished; };
  const std::vector<BenchRun> runs = run_bench(options, observer);
  ASSERT_EQ(runs.size(), 6u);
  EXPECT_EQ(finished, 6);

  int ran = 0;
  for (const BenchRun& run : runs) {
    SCOPED_TRACE(run.backend + " " + std::to_string(run.agents));
    if (run.backend == "cuda" && !cuda_device_available()) {
      EXPECT_EQ(run.status, BenchRun::Status::Skipped);
      EXPECT_FALSE(run.reason.empty());
      continue;
    }
    ASSERT_EQ(run.status, BenchRun::Status::Ran) << run.reason;
    ++ran;
    EXPECT_EQ(run.steps, 5);
    EXPECT_EQ(run.metrics.agents, run.agents);
    EXPECT_TRUE(std::isfinite(run.step_ms_mean) && run.step_ms_mean > 0.0);
    EXPECT_GE(run.step_ms_p95, 0.0);
    // Nobody arrives in 5 steps, so every agent is stepped every step.
    EXPECT_EQ(run.metrics.arrived, 0);
    EXPECT_EQ(run.agent_steps, static_cast<long long>(run.agents) * 5);
    EXPECT_NEAR(run.us_per_agent_step, run.step_ms_mean * 1000.0 / run.agents,
                1e-9 * run.us_per_agent_step);
    EXPECT_NEAR(run.agent_steps_per_second * run.us_per_agent_step, 1e6, 1e-3);
    EXPECT_GT(run.host_bytes_per_agent, 0.0);
    EXPECT_GT(run.setup_ms, 0.0);
    ASSERT_TRUE(run.speedup);
    if (run.backend == "detour") {
      EXPECT_DOUBLE_EQ(*run.speedup, 1.0);
    }
  }
  EXPECT_EQ(started, ran);
  EXPECT_EQ(steps, ran * 5);

  const std::string table = bench_table(runs);
  for (const BenchRun& run : runs) {
    const std::string row_start = std::to_string(run.agents) + "  " + run.backend;
    EXPECT_NE(table.find(row_start), std::string::npos) << row_start << "\n" << table;
  }

  const nlohmann::ordered_json json = bench_json(runs, options);
  EXPECT_EQ(json["steps"], 5);
  EXPECT_EQ(json["machine"]["threads"], 1);
  ASSERT_EQ(json["runs"].size(), 6u);

  const fs::path png = dir_ / "plot.png";
  write_bench_plot(runs, png, "test");
  std::ifstream in(png, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_GT(bytes.size(), 8u);
  EXPECT_EQ(bytes.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  EXPECT_FALSE(fs::exists(dir_ / ("plot.png.tmp." + std::to_string(::getpid()))));
}

} // namespace
} // namespace crowd
