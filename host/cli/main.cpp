// The `crowd` command-line tool.
#include "host/cli/run_command.h"

#include <CLI/CLI.hpp>

int main(int argc, char** argv) {
  CLI::App app{"crowd: a DetourCrowd-style crowd solver on CPU and CUDA.\n"
               "Moves agents across a Recast navmesh without colliding; the 'detour' backend "
               "runs the unmodified DetourCrowd library on the same scene for comparison."};
  app.require_subcommand(1);

  crowd::RunOptions run;
  CLI::App* run_cmd =
      app.add_subcommand("run", "Simulate a scenario file (see shared/spec/scenario.md) and "
                                "write trajectories and metrics");
  run_cmd->add_option("scenario", run.scenario, "Scenario JSON file")->required();
  run_cmd
      ->add_option("--backend", run.backend,
                   "auto (CUDA when a GPU is present, else cpu), cpu, cuda, or detour "
                   "(the unmodified DetourCrowd library)")
      ->check(CLI::IsMember({"auto", "cpu", "cuda", "detour"}))
      ->default_val("auto");
  run_cmd
      ->add_option("--steps", run.steps,
                   "Steps to simulate (overrides the scenario's steps/duration)")
      ->check(CLI::NonNegativeNumber);
  run_cmd
      ->add_option("--threads", run.threads, "Worker threads for the cpu backend (0 = all cores)")
      ->check(CLI::NonNegativeNumber)
      ->default_val(0);
  run_cmd->add_option("--out", run.out,
                      "Trajectory CSV: step,time,agent,x,y,z,vx,vz, one row per agent per frame");
  run_cmd->add_option("--every", run.every, "Write every K-th step to --out (frame 0 always)")
      ->check(CLI::PositiveNumber)
      ->default_val(1);
  run_cmd->add_option("--metrics", run.metrics,
                      "Metrics JSON: arrivals, overlaps, wall contacts, path ratio, timings");
  run_cmd
      ->add_option("--max-neighbors", run.solver.max_neighbors,
                   "Nearest agents each agent avoids (cpu/cuda; DetourCrowd: 6)")
      ->check(CLI::Range(0, 256))
      ->default_val(run.solver.max_neighbors);
  run_cmd
      ->add_option("--max-wall-segments", run.solver.max_wall_segments,
                   "Nearest wall segments each agent avoids (cpu/cuda; DetourCrowd: 8)")
      ->check(CLI::Range(0, 256))
      ->default_val(run.solver.max_wall_segments);
  run_cmd
      ->add_option("--collision-iterations", run.solver.collision_iterations,
                   "Passes of collision resolution per step (cpu/cuda; DetourCrowd runs 4)")
      ->check(CLI::Range(0, 64))
      ->default_val(run.solver.collision_iterations);
  run_cmd->add_flag("--quiet", run.quiet, "Do not print the summary");

  CLI11_PARSE(app, argc, argv);
  if (run_cmd->parsed())
    return crowd::run_command(run);
  return 0;
}
