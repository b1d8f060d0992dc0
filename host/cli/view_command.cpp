#include "host/cli/view_command.h"

#include "host/cli/command_error.h"
#include "host/cli/thread_limit.h"
#include "host/output/trajectory_reader.h"
#include "host/render/open_frame_source.h"
#include "host/scenario/scenario.h"

#include <cstdio>
#include <exception>

namespace crowd {

int view_command(ViewCommandOptions options) {
  try {
    const auto colouring = parse_agent_colouring(options.colour);
    if (!colouring)
      throw std::invalid_argument("--colour must be speed, state or type, got '" + options.colour +
                                  "'");
    if (const auto unknown = set_overlays(options.window.view, options.overlays))
      throw std::invalid_argument("--overlays: unknown layer '" + *unknown + "'");
    options.window.view.colouring = *colouring;
    options.window.view.selected = options.select;
    SimulationOptions sim_options;
    sim_options.backend = parse_backend_kind(options.backend);
    sim_options.solver.threads = options.threads;
    const ThreadLimit thread_limit(options.threads);
    if (!options.avoidance_model.empty())
      sim_options.avoidance_model = parse_avoidance_model(options.avoidance_model);
    auto source =
        open_frame_source(options.scenario, options.trajectory, sim_options, options.steps);
    run_viewer(*source, options.window);
    return 0;
  } catch (...) {
    return report_command_error(options.scenario);
  }
}

} // namespace crowd
