// The crowd library's one header for its users: everything a program needs to build a world or
// load a scenario, add and steer agents, step the simulation on a backend (cpu, cuda, detour),
// and read agents, metrics and checkpoints back.
//
// From an installed package (cmake --install; README, "Using it from your game or tool"):
//
//   find_package(crowd REQUIRED)
//   target_link_libraries(my_tool PRIVATE crowd::crowd)
//
//   #include <crowd/crowd.h>
//   crowd::Simulation sim = crowd::Simulation::from_file("circle.json");
//   int id = sim.add_agent({0, 0, 5}, {0, 0, -5});
//   while (sim.step_index() < 100) sim.step();
//   glm::vec3 p = sim.position(id);
//
// The parameters' units and limits are documented where they are declared: agents in
// host/scenario/scenario.h (AgentParams), the solver in cuda/core/solver_options.h, avoidance
// in cuda/common/avoidance_params.h.
#pragma once

#include "host/sim/crowd.h"
#include "host/sim/simulation.h"
