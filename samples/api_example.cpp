// Using the library: build a world in code, add agents, step, read positions, change a goal.
//
//   ./build/api_example            (prints where the agents are every second)
#include <crowd/crowd.h>

#include <cstdio>

int main() {
  // A 30 x 10 m room with a pillar in the middle.
  crowd::Scenario scenario;
  scenario.name = "api-example";
  scenario.dt = 0.1f;
  scenario.world.bounds = crowd::WorldSpec::Bounds2D{{-15.0f, -5.0f}, {15.0f, 5.0f}};
  scenario.world.obstacles.push_back({{-1.0f, -1.0f}, {1.0f, -1.0f}, {1.0f, 1.0f}, {-1.0f, 1.0f}});

  crowd::SimulationOptions options;
  options.backend = crowd::BackendKind::Cpu;
  crowd::Simulation sim(scenario, options);

  // Two agents swap ends of the room; the pillar and each other are in the way.
  crowd::AgentParams walker;
  walker.radius = 0.4f;
  walker.max_speed = 1.4f;
  const int a = sim.add_agent({-12.0f, 0.0f, 0.0f}, {12.0f, 0.0f, 0.0f}, walker);
  const int b = sim.add_agent({12.0f, 0.0f, 0.5f}, {-12.0f, 0.0f, 0.5f}, walker);

  for (int step = 1; step <= 300; ++step) {
    sim.step();
    if (step == 150)
      sim.set_goal(a, {12.0f, 0.0f, 3.0f}); // change of plan half-way
    if (step % 10 == 0) {
      const glm::vec3 pa = sim.position(a);
      const glm::vec3 pb = sim.position(b);
      std::printf("t=%5.1f s  a=(%6.2f, %6.2f)  b=(%6.2f, %6.2f)\n", sim.time(), pa.x, pa.z, pb.x,
                  pb.z);
    }
  }
  const bool both_arrived =
      sim.phase(a) == crowd::AgentPhase::Arrived && sim.phase(b) == crowd::AgentPhase::Arrived;
  std::printf("both arrived: %s\n", both_arrived ? "yes" : "no");
  return both_arrived ? 0 : 1;
}
