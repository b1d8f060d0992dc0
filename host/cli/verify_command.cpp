#include "host/cli/verify_command.h"

#include "host/checkpoint/atomic_file.h"
#include "host/cli/progress.h"
#include "host/cli/thread_limit.h"
#include "host/scenario/scenario_writer.h"
#include "host/sim/simulation.h"
#include "host/verify/rimea_suite.h"
#include "host/verify/verify_report.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <memory>
#include <stdexcept>

namespace crowd {
namespace {

/// Bad options: one message, exit 2.
struct OptionError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

std::string numbers(const std::vector<VerifyTest>& tests) {
  std::string out;
  for (const VerifyTest& t : tests)
    out += (out.empty() ? "" : ", ") + std::to_string(t.id);
  return out;
}

/// The tests to run, in the suite's order.
std::vector<VerifyTest> selected(const VerifyCommandOptions& options) {
  std::vector<VerifyTest> all = rimea_suite();
  if (options.only.empty())
    return all;
  for (const int id : options.only)
    if (std::none_of(all.begin(), all.end(), [&](const VerifyTest& t) { return t.id == id; }))
      throw OptionError("--only: there is no test " + std::to_string(id) + " (the suite has " +
                        numbers(all) + ")");
  std::erase_if(all, [&](const VerifyTest& t) {
    return std::find(options.only.begin(), options.only.end(), t.id) == options.only.end();
  });
  return all;
}

void check(const VerifyCommandOptions& options) {
  if (find_avoidance_model(options.model) == nullptr)
    throw OptionError("--model: unknown avoidance model '" + options.model +
                      "' (the models are 'detour', 'ttc', 'mass' and 'orca')");
  // The detour backend is DetourCrowd itself, which samples for every agent.
  if (options.model != "detour" && options.backend == "detour")
    throw OptionError("--model " + options.model +
                      ": the detour backend runs DetourCrowd's sampling only; use --backend cpu "
                      "or cuda");
  if (options.backend != "auto" && options.backend != "cpu" && options.backend != "cuda" &&
      options.backend != "detour")
    throw OptionError("--backend: unknown backend '" + options.backend +
                      "' (use auto, cpu, cuda or detour)");
  if (options.threads < 0)
    throw OptionError("--threads must be >= 0, got " + std::to_string(options.threads));
}

int write_scenarios(const std::vector<VerifyTest>& tests, const VerifyCommandOptions& options) {
  const std::filesystem::path dir = options.write_scenarios;
  std::filesystem::create_directories(dir);
  for (const VerifyTest& test : tests)
    for (const VerifyScenario& scene : test.scenarios(options.fast)) {
      const std::filesystem::path file = dir / (scene.file_stem + ".json");
      write_file_atomically(file, write_scenario_json(scene.scenario, {{"source", scene.source},
                                                                       {"notes", scene.notes}}));
      std::fprintf(stderr, "verify: wrote %s\n", file.c_str());
    }
  return 0;
}

std::string backend_name(BackendKind kind) {
  switch (kind) {
  case BackendKind::Cpu:
    return "cpu";
  case BackendKind::Cuda:
    return "cuda";
  case BackendKind::Detour:
    return "detour";
  case BackendKind::Auto:
    break;
  }
  return "auto";
}

} // namespace

int verify_command(const VerifyCommandOptions& options) {
  std::vector<VerifyTest> tests;
  try {
    check(options);
    tests = selected(options);
  } catch (const OptionError& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  }
  const ThreadLimit thread_limit(options.threads);
  try {
    if (!options.write_scenarios.empty())
      return write_scenarios(tests, options);

    VerifyContext context;
    context.fast = options.fast;
    context.options.backend = parse_backend_kind(options.backend);
    if (context.options.backend == BackendKind::Auto)
      context.options.backend = cuda_device_available() ? BackendKind::Cuda : BackendKind::Cpu;
    if (context.options.backend == BackendKind::Cuda && !cuda_device_available())
      throw std::runtime_error("backend 'cuda' needs a CUDA device and this machine has none "
                               "(or this build has no CUDA backend); use --backend cpu");
    context.options.solver.threads = options.threads;
    // Every agent of every scenario on the model, as `crowd run --avoidance` (the scenarios
    // name DetourCrowd's presets).
    context.options.avoidance_model = parse_avoidance_model(options.model);

    // Progress: a line when a scenario starts, then the step counter of long runs.
    std::unique_ptr<ProgressReporter> progress;
    std::string current;
    context.step_done = [&](const std::string& scene, int step, int total, double ms) {
      if (scene != current) {
        if (progress)
          progress->finish();
        current = scene;
        progress = std::make_unique<ProgressReporter>(total);
      }
      progress->update(step, ms);
    };

    ReportHeader header;
    header.backend = backend_name(context.options.backend);
    header.model = options.model;
    header.fast = options.fast;
    header.threads = options.threads;
    std::printf("crowd verify: RiMEA tests on backend %s, model %s%s\n", header.backend.c_str(),
                header.model.c_str(), options.fast ? " (fast: reduced scenarios)" : "");
    std::fflush(stdout);
    const auto start = std::chrono::steady_clock::now();
    std::vector<TestRecord> records;
    for (std::size_t k = 0; k < tests.size(); ++k) {
      const VerifyTest& test = tests[k];
      TestRecord record{test.id, test.title, test.reference, test.criterion, {}, {}, {}, 0.0};
      const auto test_start = std::chrono::steady_clock::now();
      try {
        const std::vector<VerifyScenario> scenes = test.scenarios(options.fast);
        for (const VerifyScenario& scene : scenes)
          record.scenarios.push_back(scene.file_stem);
        std::fprintf(stderr, "verify: [%zu/%zu] test %d, %s: %zu scenario%s\n", k + 1, tests.size(),
                     test.id, test.title.c_str(), scenes.size(), scenes.size() == 1 ? "" : "s");
        std::fflush(stderr);
        record.outcome = test.run(scenes, context);
      } catch (const std::exception& e) {
        record.error = e.what();
      }
      if (progress)
        progress->finish();
      progress.reset();
      current.clear();
      record.seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - test_start).count();
      std::printf("%s\n", result_line(record).c_str());
      std::fflush(stdout);
      records.push_back(std::move(record));
    }
    header.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const int passed = static_cast<int>(std::count_if(
        records.begin(), records.end(), [](const TestRecord& r) { return verdict(r) == "PASS"; }));
    std::printf("%d of %zu tests passed (%.0f s)\n", passed, records.size(), header.seconds);
    if (!options.out.empty())
      write_file_atomically(options.out, report_json(header, records).dump(2) + "\n");
    return passed == static_cast<int>(records.size()) ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
}

} // namespace crowd
