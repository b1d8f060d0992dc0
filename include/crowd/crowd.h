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
// Every agent and avoidance parameter by name, with its unit and limits: the table of
// host/scenario/param_table.h (included), which the scenario reader and the API's checks read;
// what each one does is documented where it is declared: agents in host/scenario/scenario.h
// (AgentParams), avoidance in cuda/common/avoidance_params.h, the solver in
// cuda/core/solver_options.h.
#pragma once

#include "host/scenario/param_table.h"
#include "host/sim/crowd.h"
#include "host/sim/simulation.h"
