// Soak test: 1,000 agents walk back and forth between two rooms joined by one door for
// 100,000 steps (2.8 simulated hours at dt 0.1) through the library API. An agent that arrives
// gets a new goal in the other room, and so does one that has not arrived for
// kRetargetSteps (a jam at the door must not park the crowd for the rest of the run).
//
// Checked: every step, every agent that is not removed has a finite position and velocity;
// every --check-every steps, every such agent stands on the navmesh (the nearest navmesh point
// is within kOffMeshTolerance horizontally). Measured: wall time, and the resident set size
// (VmRSS of /proc/self/status) after setup, at 10% of the steps and at the end; the run fails
// when the RSS grows by more than kMaxRssGrowth between 10% and the end (a leak; the first
// 10% are left out because buffers still grow to their working size there).
//
// Opt-in CTest (LABELS soak), see tests/CMakeLists.txt and the README:
//   cmake -S . -B build -DCROWD_SOAK_TESTS=ON && ctest --test-dir build -L soak
//   ./build/tests/crowd_soak [--steps N] [--check-every K] [--threads T] [--scenario FILE]
#include "host/navmesh/navmesh.h"
#include "host/sim/simulation.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

constexpr float kOffMeshTolerance = 0.01f; ///< metres, horizontally
constexpr int kRetargetSteps = 3000;       ///< 300 s without arriving: pick another goal
constexpr double kMaxRssGrowth = 0.20;     ///< fraction of the RSS at 10% of the steps
constexpr int kMaxReportedProblems = 20;

struct Options {
  long long steps = 100000;
  int check_every = 10;
  int threads = 0;
  std::string scenario = std::string(CROWD_SOURCE_DIR) + "/tests/soak/two_rooms.json";
};

/// Resident set size in KiB from /proc/self/status, or -1 where there is none.
long long resident_kib() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("VmRSS:", 0) == 0) {
      std::istringstream fields(line.substr(6));
      long long kib = -1;
      fields >> kib;
      return kib;
    }
  }
  return -1;
}

bool parse_options(int argc, char** argv, Options& options) {
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i];
    const std::string value = argv[i + 1];
    if (key == "--steps")
      options.steps = std::stoll(value);
    else if (key == "--check-every")
      options.check_every = std::stoi(value);
    else if (key == "--threads")
      options.threads = std::stoi(value);
    else if (key == "--scenario")
      options.scenario = value;
    else
      return false;
  }
  return argc % 2 == 1 && options.steps > 0 && options.check_every > 0 && options.threads >= 0;
}

/// Random goals on the floor of the room an agent is not in (the wall is at x = 0).
class GoalPicker {
public:
  GoalPicker(const crowd::NavMesh& navmesh, const crowd::Scenario& scenario)
      : navmesh_(navmesh), bounds_(*scenario.world.bounds), rng_(scenario.seed) {}

  glm::vec3 other_room(const glm::vec3& position) {
    const bool go_right = position.x < 0.0f;
    const float x0 = go_right ? 1.0f : bounds_.min.x + 1.0f;
    const float x1 = go_right ? bounds_.max.x - 1.0f : -1.0f;
    for (;;) {
      const glm::vec3 wanted(uniform(x0, x1), 0.0f,
                             uniform(bounds_.min.y + 1.0f, bounds_.max.y - 1.0f));
      // Only points on the walkable floor (not in a pillar or its erosion margin).
      if (const auto on_mesh = navmesh_.nearest_point(wanted);
          on_mesh && std::hypot(on_mesh->x - wanted.x, on_mesh->z - wanted.z) < 1e-3f)
        return *on_mesh;
    }
  }

private:
  float uniform(float lo, float hi) {
    return lo + (hi - lo) * static_cast<float>(rng_() >> 40) * 0x1p-24f;
  }

  const crowd::NavMesh& navmesh_;
  crowd::WorldSpec::Bounds2D bounds_;
  std::mt19937_64 rng_;
};

int run(const Options& options) {
  crowd::SimulationOptions sim_options;
  sim_options.backend = crowd::BackendKind::Cpu;
  sim_options.solver.threads = options.threads;
  crowd::Simulation sim = crowd::Simulation::from_file(options.scenario, sim_options);
  const crowd::NavMesh& navmesh = sim.navmesh();
  GoalPicker goals(navmesh, sim.scenario());
  const int agents = sim.agent_count();
  std::vector<long long> walking_since(static_cast<std::size_t>(agents), 0);

  const long long rss_start = resident_kib();
  long long rss_tenth = rss_start;
  std::printf("soak: %d agents, %lld steps of %g s, scenario %s\n", agents, options.steps,
              static_cast<double>(sim.scenario().dt), options.scenario.c_str());
  std::printf("soak: RSS after setup %lld KiB\n", rss_start);
  std::fflush(stdout);

  long long problems = 0, new_goals = 0, arrivals = 0, retargets = 0;
  const auto report = [&problems](long long step, int agent, const std::string& what) {
    if (++problems <= kMaxReportedProblems)
      std::printf("soak: PROBLEM at step %lld, agent %d: %s\n", step, agent, what.c_str());
  };
  const long long progress_every = std::max(options.steps / 50, 1LL);
  const auto started = std::chrono::steady_clock::now();
  for (long long step = 1; step <= options.steps; ++step) {
    sim.step();
    const auto positions = sim.positions();
    const auto velocities = sim.velocities();
    const auto phases = sim.phases();
    const bool check_mesh = step % options.check_every == 0;
    for (int i = 0; i < agents; ++i) {
      const auto index = static_cast<std::size_t>(i);
      if (phases[index] == crowd::AgentPhase::Removed)
        continue;
      const glm::vec3 p = positions[index];
      const glm::vec2 v = velocities[index];
      if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z) ||
          !std::isfinite(v.x) || !std::isfinite(v.y)) {
        report(step, i,
               "non-finite state: position (" + std::to_string(p.x) + ", " + std::to_string(p.y) +
                   ", " + std::to_string(p.z) + "), velocity (" + std::to_string(v.x) + ", " +
                   std::to_string(v.y) + ")");
        continue;
      }
      if (check_mesh) {
        const auto on_mesh = navmesh.nearest_point(p);
        const float off = on_mesh ? std::hypot(on_mesh->x - p.x, on_mesh->z - p.z) : INFINITY;
        if (!(off <= kOffMeshTolerance))
          report(step, i,
                 "off the navmesh by " + std::to_string(off) + " m at (" + std::to_string(p.x) +
                     ", " + std::to_string(p.z) + ")");
      }
      const bool arrived = phases[index] == crowd::AgentPhase::Arrived;
      if (arrived || step - walking_since[index] >= kRetargetSteps) {
        sim.set_goal(i, goals.other_room(p));
        walking_since[index] = step;
        ++new_goals;
        ++(arrived ? arrivals : retargets);
      }
    }
    if (step == options.steps / 10) {
      rss_tenth = resident_kib();
      std::printf("soak: step %lld (10%%), RSS %lld KiB\n", step, rss_tenth);
      std::fflush(stdout);
    }
    if (step % progress_every == 0) {
      const double elapsed =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      std::printf("soak: step %lld, %.0f s, RSS %lld KiB, %lld arrivals, %lld problems\n", step,
                  elapsed, resident_kib(), arrivals, problems);
      std::fflush(stdout);
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  const long long rss_end = resident_kib();
  std::printf("soak: %lld steps in %.1f s (%.3f ms per step)\n", options.steps, seconds,
              1000.0 * seconds / static_cast<double>(options.steps));
  std::printf("soak: %lld new goals (%lld on arrival, %lld after %d steps without arriving)\n",
              new_goals, arrivals, retargets, kRetargetSteps);
  std::printf("soak: RSS after setup %lld KiB, at 10%% %lld KiB, at the end %lld KiB\n", rss_start,
              rss_tenth, rss_end);
  std::printf("soak: %lld problems (non-finite or off the navmesh)\n", problems);
  bool ok = problems == 0;
  if (rss_tenth > 0 &&
      static_cast<double>(rss_end) > static_cast<double>(rss_tenth) * (1.0 + kMaxRssGrowth)) {
    std::printf("soak: FAILED: RSS grew from %lld KiB at 10%% to %lld KiB at the end\n", rss_tenth,
                rss_end);
    ok = false;
  }
  if (arrivals == 0) {
    std::printf("soak: FAILED: no agent ever arrived, so the crowd did not move\n");
    ok = false;
  }
  std::printf("soak: %s\n", ok ? "passed" : "FAILED");
  return ok ? 0 : 1;
}

} // namespace

int main(int argc, char** argv) {
  Options options;
  if (!parse_options(argc, argv, options)) {
    std::fprintf(stderr, "usage: crowd_soak [--steps N] [--check-every K] [--threads T] "
                         "[--scenario FILE]\n");
    return 2;
  }
  try {
    return run(options);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "soak: error: %s\n", e.what());
    return 1;
  }
}
