// The `crowd` command-line tool.
#include "host/cli/bench_command.h"
#include "host/cli/heap_release.h"
#include "host/cli/launcher_ranks.h"
#include "host/cli/option_checks.h"
#include "host/cli/render_command.h"
#include "host/cli/run_command.h"
#include "host/cli/verify_command.h"
#include "host/cli/view_command.h"
#include "host/distributed/rank_group.h"

#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  crowd::release_freed_blocks_to_the_system();
  CLI::App app{"crowd: a DetourCrowd-style crowd solver on CPU and CUDA.\n"
               "Moves agents across a Recast navmesh without colliding; the 'detour' backend "
               "runs the unmodified DetourCrowd library on the same scene for comparison."};
  app.require_subcommand(1);

  // --avoidance of run, view and render: one model for every agent of the scenario.
  std::vector<std::string> model_names;
  for (const crowd::AvoidanceModelName& known : crowd::kAvoidanceModelNames)
    model_names.emplace_back(known.name);
  const auto avoidance_option = [&model_names](CLI::App* cmd, std::string& model,
                                               const std::string& what) {
    cmd->add_option("--avoidance", model,
                    what + ", over the scenario's `avoidance` (cpu/cuda): detour (DetourCrowd's "
                           "sampling), ttc (time-to-collision sampling), mass (Unreal's Mass "
                           "forces) or orca (RVO2); an agent on another model gets the model's "
                           "default parameters")
        ->check(CLI::IsMember(model_names));
  };

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
      ->check(crowd::cli::non_negative_integer());
  run_cmd
      ->add_option("--threads", run.threads, "Worker threads for the cpu backend (0 = all cores)")
      ->check(crowd::cli::non_negative_integer())
      ->default_val(0);
  run_cmd
      ->add_option("--out", run.out,
                   "Output file, format by extension; repeat for several. FILE.csv: "
                   "step,time,agent,x,y,z,vx,vz, one row per agent per step (film frames "
                   "frame,time,agent,type,... when --fps is given). FILE.usda: film shot, a USD "
                   "PointInstancer. FILE.json: film frames as per-agent tracks")
      ->allow_extra_args(false);
  run_cmd
      ->add_option("--every", run.every,
                   "Write every K-th step to a per-step .csv (step 0 and "
                   "the last step always)")
      ->check(crowd::cli::positive_integer())
      ->default_val(1);
  run_cmd
      ->add_option("--fps", run.fps,
                   "Film frame rate of .usda/.json outputs (default 24), frames interpolated "
                   "between steps; given, .csv outputs become film frames too")
      ->check(crowd::cli::positive_number());
  run_cmd
      ->add_option("--max-turn-rate", run.max_turn_rate,
                   "Film exports: the characters' largest turn rate, degrees per second (their "
                   "facing, not the trajectory)")
      ->check(crowd::cli::positive_number())
      ->default_val(run.max_turn_rate);
  run_cmd
      ->add_option("--start-frame", run.start_frame,
                   "Film exports: the number of the shot's first frame (after the preroll)")
      ->check(crowd::cli::integer_in(-1'000'000'000, 1'000'000'000))
      ->default_val(run.start_frame);
  run_cmd
      ->add_option("--preroll", run.preroll,
                   "Film exports: seconds simulated before the start frame, not written, so "
                   "the shot opens on a crowd already moving (the run is that much longer)")
      ->check(crowd::cli::non_negative_number())
      ->default_val(run.preroll);
  run_cmd
      ->add_option("--handles", run.handles,
                   "Film exports: frames written before the start frame (from the preroll) "
                   "and after the shot's last frame (the run is that much longer)")
      ->check(crowd::cli::non_negative_integer())
      ->default_val(run.handles);
  run_cmd->add_option("--metrics", run.metrics,
                      "Metrics JSON: arrivals, overlaps, wall contacts, path ratio, timings");
  run_cmd
      ->add_option("--max-neighbors", run.solver.max_neighbors,
                   "Nearest agents each agent avoids (cpu/cuda; DetourCrowd: 6)")
      ->check(crowd::cli::integer_in(0, 256))
      ->default_val(run.solver.max_neighbors);
  run_cmd
      ->add_option("--max-wall-segments", run.solver.max_wall_segments,
                   "Nearest wall segments each agent avoids (cpu/cuda; DetourCrowd: 8)")
      ->check(crowd::cli::integer_in(0, 256))
      ->default_val(run.solver.max_wall_segments);
  run_cmd
      ->add_option("--sort-rows", run.solver.row_sort_interval,
                   "cpu/cuda: every N steps, sort the agents' rows in memory by neighbour-grid "
                   "cell (0 = never). The outputs are the same bytes; measured slower on the cpu")
      ->check(crowd::cli::integer_in(0, 1'000'000'000))
      ->default_val(run.solver.row_sort_interval);
  run_cmd
      ->add_option("--collision-iterations", run.solver.collision_iterations,
                   "Passes of collision resolution per step (cpu/cuda; DetourCrowd runs 4)")
      ->check(crowd::cli::integer_in(0, 64))
      ->default_val(run.solver.collision_iterations);
  run_cmd
      ->add_option("--stuck-time", run.stuck_seconds,
                   "Seconds an agent may stay within its own diameter of one spot before it is "
                   "counted as stuck and its path replanned (0 = off)")
      ->check(crowd::cli::non_negative_number())
      ->default_val(run.stuck_seconds);
  run_cmd
      ->add_option("--standoff", run.standoff,
                   "Standoff breaker of every agent, over the scenario's `standoff` (cpu/cuda): "
                   "keep_right, keep_left, or off for DetourCrowd's behaviour")
      ->check(CLI::IsMember({"keep_right", "keep_left", "off"}));
  run_cmd
      ->add_option("--arrival", run.arrival,
                   "Arrival rule of every agent, over the scenario's `arrival`: contact, or "
                   "radius (within arrival_radius only)")
      ->check(CLI::IsMember({"contact", "radius"}));
  avoidance_option(run_cmd, run.avoidance_model, "Avoidance model of every agent");
  run_cmd->add_flag("--quiet", run.quiet, "Do not print the summary");
  run_cmd->add_option("--checkpoint", run.checkpoint,
                      "Checkpoint file: the full state of the run, rewritten every "
                      "--checkpoint-every steps and when the run is interrupted; continue the run "
                      "with 'crowd resume FILE' (cpu and cuda backends)");
  run_cmd
      ->add_option("--checkpoint-every", run.checkpoint_every,
                   "Steps between checkpoints (default " +
                       std::to_string(crowd::kDefaultCheckpointEvery) + ")")
      ->check(crowd::cli::positive_integer());

  crowd::ResumeOptions resume;
  CLI::App* resume_cmd = app.add_subcommand(
      "resume", "Continue a run from its checkpoint ('crowd run --checkpoint'), after Ctrl-C or "
                "a kill: the outputs come out as the uninterrupted run's");
  resume_cmd->add_option("checkpoint", resume.checkpoint, "Checkpoint file")->required();
  resume_cmd
      ->add_option("--threads", resume.threads,
                   "Worker threads for the cpu backend (default: the run's; results do not "
                   "depend on it)")
      ->check(crowd::cli::non_negative_integer());
  resume_cmd->add_flag("--quiet", resume.quiet, "Do not print the summary");

  crowd::BenchCommandOptions bench;
  CLI::App* bench_cmd = app.add_subcommand(
      "bench", "Run every requested backend on the same generated scenes (crossing flows "
               "through pillars at 0.3 agents/m2, the world growing with the agent count) and "
               "print ms per step, memory and quality side by side");
  bench_cmd
      ->add_option("--backends", bench.backends,
                   "Comma-separated backends: cpu, cuda, detour (those this machine lacks are "
                   "reported as skipped)")
      ->delimiter(',')
      ->default_str("cpu,cuda,detour");
  bench_cmd->add_option("--agents", bench.agents, "Comma-separated agent counts")
      ->delimiter(',')
      ->default_str("1000,4000,16000,64000");
  bench_cmd->add_option("--steps", bench.steps, "Steps per run")
      ->check(crowd::cli::positive_integer())
      ->default_val(bench.steps);
  bench_cmd
      ->add_option("--threads", bench.threads, "Worker threads for the cpu backend (0 = all cores)")
      ->check(crowd::cli::non_negative_integer())
      ->default_val(0);
  bench_cmd->add_option("--seed", bench.seed, "Seed of the generated scenes")->default_val(1);
  bench_cmd->add_option("--out", bench.out, "JSON file with every figure of every run");
  bench_cmd->add_option("--plot", bench.plot,
                        "PNG plot of ms per step against agents, log-log, one line per backend");
  bench_cmd->add_option("--write-scenes", bench.write_scenes,
                        "Directory to write the generated scenes to (bench_<agents>.json, "
                        "runnable with 'crowd run')");
  bench_cmd
      ->add_option("--domains", bench.domains,
                   "Also observe each run as if split into this many MPI ranks' domains, and "
                   "print their agents, ghosts and migrations per step (0 = not; at most 1024)")
      ->check(crowd::cli::non_negative_integer())
      ->default_val(0);

  crowd::VerifyCommandOptions verify;
  CLI::App* verify_cmd = app.add_subcommand(
      "verify", "Run the RiMEA verification tests (docs/verification.md) and print one line per "
                "test: the measured figure, the criterion, PASS or FAIL");
  verify_cmd
      ->add_option("--backend", verify.backend,
                   "auto (CUDA when a GPU is present, else cpu), cpu, cuda, or detour")
      ->default_val("auto");
  verify_cmd
      ->add_option("--model", verify.model,
                   "Avoidance model of every agent: detour (DetourCrowd's sampling, the "
                   "scenarios' presets), ttc, mass or orca (cpu/cuda backends)")
      ->default_val("detour");
  verify_cmd->add_option("--out", verify.out, "Report JSON: every test's figures and verdict");
  verify_cmd
      ->add_option("--only", verify.only, "Comma-separated test numbers to run (default: all)")
      ->delimiter(',');
  verify_cmd->add_flag("--fast", verify.fast,
                       "Reduced scenarios (fewer agents, fewer densities, shorter runs): every "
                       "test in well under a minute, verdicts indicative only");
  verify_cmd
      ->add_option("--threads", verify.threads,
                   "Worker threads for the cpu backend (0 = all cores)")
      ->default_val(0);
  verify_cmd->add_option("--write-scenarios", verify.write_scenarios,
                         "Write the tests' scenario files (runnable with 'crowd run') into this "
                         "directory and run nothing");

  // Shared by `view` and `render`: what to draw.
  const auto add_source_options = [&avoidance_option](
                                      CLI::App* cmd, std::string& scenario, std::string& trajectory,
                                      std::string& backend, std::string& avoidance,
                                      std::optional<int>& steps, int& threads, std::string& colour,
                                      std::string& overlays, int& select) {
    cmd->add_option("scenario", scenario, "Scenario JSON file")->required();
    cmd->add_option("--trajectory", trajectory,
                    "Replay this trajectory CSV of the scenario ('crowd run --out'), per-step or "
                    "film frames (told by its header), instead of simulating");
    cmd->add_option("--backend", backend, "Live mode: auto, cpu, cuda or detour")
        ->check(CLI::IsMember({"auto", "cpu", "cuda", "detour"}))
        ->default_val("auto");
    avoidance_option(cmd, avoidance, "Live mode: avoidance model of every agent");
    cmd->add_option("--steps", steps, "Live mode: steps to simulate")
        ->check(crowd::cli::non_negative_integer());
    cmd->add_option("--threads", threads, "Live mode: worker threads of the cpu backend")
        ->check(crowd::cli::non_negative_integer())
        ->default_val(0);
    cmd->add_option("--colour", colour,
                    "Agent colour: speed (red stuck .. green full speed), "
                    "state (walking, slowed, at goal, waiting at a waypoint) or "
                    "type (a palette colour per type label)")
        ->check(CLI::IsMember({"speed", "state", "type"}))
        ->default_val("speed");
    cmd->add_option("--overlays", overlays,
                    "Layers drawn: comma-separated navmesh, trails, samples, neighbours, walls, "
                    "corridor, hud (samples..corridor are the selected agent's), all or none")
        ->default_str("all");
    cmd->add_option("--select", select,
                    "Agent whose debug overlays are drawn (live cpu/cuda backends)")
        ->check(crowd::cli::non_negative_integer());
  };

  crowd::ViewCommandOptions view;
  CLI::App* view_cmd = app.add_subcommand(
      "view", "Watch a scenario in a window: live (simulating as it draws) or replaying a "
              "trajectory. Click selects an agent, drag pans, wheel zooms; space pause, n step, "
              "+/- speed, c colour, 1-6 layers, f fit, q quit");
  add_source_options(view_cmd, view.scenario, view.trajectory, view.backend, view.avoidance_model,
                     view.steps, view.threads, view.colour, view.overlays, view.select);
  view_cmd->add_option("--width", view.window.width, "Window width")->default_val(1280);
  view_cmd->add_option("--height", view.window.height, "Window height")->default_val(800);
  view_cmd->add_flag("--paused", view.window.start_paused, "Start paused");
  view_cmd->add_option("--steps-per-second", view.window.steps_per_second,
                       "Step rate at speed x1 (default: real time, 1/dt)");
  view_cmd->add_option("--close-after", view.window.close_after_seconds,
                       "Close after this many seconds (smoke tests)");
  view_cmd->add_option("--screenshot", view.window.screenshot,
                       "Write the last frame shown to this PNG on closing");

  crowd::RenderOptions render;
  CLI::App* render_cmd = app.add_subcommand(
      "render", "Draw a scenario's run without a display or GPU (OpenGL on Mesa's software "
                "rasterizer through EGL) into PNG frames and/or a video (ffmpeg)");
  add_source_options(render_cmd, render.scenario, render.trajectory, render.backend,
                     render.avoidance_model, render.steps, render.threads, render.colour,
                     render.overlays, render.select);
  render_cmd->add_option("--frames", render.frames,
                         "PNG frames, a pattern with one frame number: out/%05d.png");
  render_cmd->add_option("--video", render.video, "Video file (H.264 through ffmpeg): out.mp4");
  render_cmd->add_option("--every", render.every, "Draw every K-th frame (the last always)")
      ->check(crowd::cli::positive_integer())
      ->default_val(1);
  render_cmd
      ->add_option("--from", render.from,
                   "Draw no frame before this step (film frame number for film frames)")
      ->check(crowd::cli::non_negative_integer())
      ->default_val(0);
  render_cmd
      ->add_option("--region", render.region,
                   "Show only this ground rectangle: x0 z0 x1 z1 (default: the whole world)")
      ->expected(4);
  render_cmd
      ->add_option("--fps", render.fps,
                   "Draw film frames at this rate, numbered by film frame (live: the run "
                   "resampled as 'crowd run --fps' does); the video's rate too (default: "
                   "per-step frames, a video at 25 fps)")
      ->check(crowd::cli::positive_number());
  render_cmd
      ->add_option("--start-frame", render.start_frame,
                   "With --fps, live: the number of the shot's first frame, after the preroll "
                   "(default 1001)")
      ->check(crowd::cli::integer_in(-1'000'000'000, 1'000'000'000));
  render_cmd
      ->add_option("--preroll", render.preroll,
                   "With --fps, live: seconds simulated before the start frame, not drawn "
                   "(default 0; the run is that much longer), as crowd run's")
      ->check(crowd::cli::non_negative_number());
  render_cmd
      ->add_option("--handles", render.handles,
                   "With --fps, live: frames drawn before the start frame (from the preroll) "
                   "and after the shot's last frame (default 0), as crowd run's")
      ->check(crowd::cli::integer_in(0, 1'000'000));
  render_cmd->add_option("--width", render.width, "Frame width in pixels")
      ->check(crowd::cli::integer_in(16, 16384))
      ->default_val(1280);
  render_cmd->add_option("--height", render.height, "Frame height in pixels")
      ->check(crowd::cli::integer_in(16, 16384))
      ->default_val(720);
  render_cmd->add_flag("--quiet", render.quiet, "No progress bar or summary");

  if (const int exit_code = crowd::cli::parse_command_line(app, argc, argv); exit_code >= 0)
    return exit_code;
  // Under mpirun with several ranks: run and resume split the crowd across them (CROWD_MPI);
  // anything else, or a build without MPI, says why once (rank 0) and every rank stops.
  std::unique_ptr<crowd::RankGroup> ranks;
  if (const auto launched = crowd::launcher_ranks()) {
#if defined(CROWD_HAS_MPI)
    ranks = crowd::make_mpi_rank_group(argc, argv);
    if (!run_cmd->parsed() && !resume_cmd->parsed()) {
      if (ranks->rank() == 0)
        std::cerr << "crowd: crowd " << app.get_subcommands().front()->get_name()
                  << " does not split across MPI ranks (crowd run and crowd resume do): run it "
                     "without mpirun, or with one rank (mpirun -n 1)\n";
      return 2;
    }
#else
    if (launched->rank == 0)
      std::cerr << crowd::no_mpi_message(*launched) << "\n";
    return 2;
#endif
  }
  if (view_cmd->parsed())
    return crowd::view_command(view);
  if (render_cmd->parsed())
    return crowd::render_command(render);
  if (run_cmd->parsed())
    return crowd::run_command(run, ranks.get());
  if (resume_cmd->parsed())
    return crowd::resume_command(resume, ranks.get());
  if (bench_cmd->parsed())
    return crowd::bench_command(bench);
  if (verify_cmd->parsed())
    return crowd::verify_command(verify);
  return 0;
}
