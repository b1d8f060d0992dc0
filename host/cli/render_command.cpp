#include "host/cli/render_command.h"

#include "host/cli/command_error.h"
#include "host/cli/progress_bar.h"
#include "host/cli/thread_limit.h"
#include "host/output/film_resampler.h"
#include "host/output/trajectory_reader.h"
#include "host/render/crowd_renderer.h"
#include "host/render/frame_pattern.h"
#include "host/render/offscreen_context.h"
#include "host/render/offscreen_framebuffer.h"
#include "host/render/open_frame_source.h"
#include "host/render/trail_history.h"
#include "host/render/video_encoder.h"
#include "host/scenario/scenario.h"

#include <cmath>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <memory>

namespace crowd {
namespace {

void check_options(const RenderOptions& o) {
  if (o.frames.empty() && o.video.empty())
    throw std::invalid_argument("nothing to write: give --frames PATTERN and/or --video FILE");
  if (!o.frames.empty())
    if (const auto problem = frame_pattern_problem(o.frames))
      throw std::invalid_argument("--frames: " + *problem);
  if (o.every < 1)
    throw std::invalid_argument("--every must be >= 1");
  if (o.width < 16 || o.height < 16 || o.width > 8192 || o.height > 8192)
    throw std::invalid_argument("--size must be between 16x16 and 8192x8192");
  if (!o.region.empty() &&
      (o.region.size() != 4 || o.region[0] == o.region[2] || o.region[1] == o.region[3]))
    throw std::invalid_argument("--region needs x0 z0 x1 z1 of a rectangle with an area");
  if (o.fps && !(*o.fps > 0.0 && *o.fps <= 1e6))
    throw std::invalid_argument("--fps must be a number > 0 and at most 1e6");
  if (o.start_frame && !o.fps)
    throw std::invalid_argument("--start-frame needs --fps (the number of the first film frame)");
  if (o.start_frame && !o.trajectory.empty())
    throw std::invalid_argument("--start-frame: a film CSV numbers its own frames");
  if ((o.preroll || o.handles) && (!o.fps || !o.trajectory.empty()))
    throw std::invalid_argument("--preroll and --handles frame a live film render: they need "
                                "--fps and no --trajectory (a film CSV has its own frames)");
  if (o.preroll && !(*o.preroll >= 0.0 && *o.preroll <= 1e6))
    throw std::invalid_argument("--preroll must be a number of seconds >= 0 and at most 1e6");
  if (!parse_agent_colouring(o.colour))
    throw std::invalid_argument("--colour must be speed, state or type, got '" + o.colour + "'");
  if (!o.video.empty() && find_ffmpeg().empty())
    throw std::invalid_argument("--video needs ffmpeg on the PATH (apt-get install ffmpeg)");
}

std::string rate_text(double fps) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", fps);
  return text;
}

void make_parent_directory(const std::string& file) {
  const std::filesystem::path parent = std::filesystem::path(file).parent_path();
  if (!parent.empty())
    std::filesystem::create_directories(parent);
}

} // namespace

int render_command(const RenderOptions& options) {
  try {
    check_options(options);
    ViewOptions view;
    if (const auto unknown = set_overlays(view, options.overlays))
      throw std::invalid_argument("--overlays: unknown layer '" + *unknown +
                                  "' (use navmesh, trails, samples, neighbours, walls, corridor, "
                                  "hud, all or none)");
    view.colouring = *parse_agent_colouring(options.colour);
    view.selected = options.select;
    SimulationOptions sim_options;
    sim_options.backend = parse_backend_kind(options.backend);
    sim_options.solver.threads = options.threads;
    const ThreadLimit thread_limit(options.threads);
    if (!options.avoidance_model.empty())
      sim_options.avoidance_model = parse_avoidance_model(options.avoidance_model);
    std::optional<LiveFilmOptions> film;
    if (options.fps) {
      film.emplace();
      film->fps = *options.fps;
      film->start_frame = options.start_frame.value_or(kFilmStartFrame);
      film->preroll = options.preroll.value_or(0.0);
      film->handles = options.handles.value_or(0);
    }
    std::unique_ptr<FrameSource> source =
        open_frame_source(options.scenario, options.trajectory, sim_options, options.steps, film);
    const bool film_frames = source->frame().film;
    if (options.fps && !film_frames)
      throw std::invalid_argument(
          "--fps: " + options.trajectory +
          " is a per-step trajectory; replay the film CSV of 'crowd run --fps F --out film.csv' "
          "to draw film frames");
    // A film CSV is drawn at its own rate; --fps, when given, must say the same.
    const double film_fps = source->film_fps();
    if (options.fps && film_fps > 0.0 && std::fabs(film_fps - *options.fps) > 1e-3 * film_fps)
      throw std::invalid_argument("--fps " + rate_text(*options.fps) + ": " + options.trajectory +
                                  " holds film frames at " + rate_text(film_fps) + " fps");
    // The video plays film frames at the film's rate (23.976 stays 23.976; a rate read back
    // from a film CSV's times is rounded to 1/1000 fps, the precision of its times).
    const double video_fps = options.fps      ? *options.fps
                             : film_fps > 0.0 ? std::round(film_fps * 1000.0) / 1000.0
                                              : kDefaultVideoFps;
    if (options.select >= static_cast<int>(source->scene().setups.size()))
      throw std::invalid_argument("--select " + std::to_string(options.select) +
                                  ": the scenario has " +
                                  std::to_string(source->scene().setups.size()) + " agents");

    OffscreenContext context;
    CrowdRenderer renderer(source->scene());
    OffscreenFramebuffer framebuffer(options.width, options.height);
    const ViewCamera camera =
        options.region.empty()
            ? ViewCamera::fit(source->scene().bounds_min, source->scene().bounds_max, options.width,
                              options.height)
            : ViewCamera::fit(glm::min(glm::vec2(options.region[0], options.region[1]),
                                       glm::vec2(options.region[2], options.region[3])),
                              glm::max(glm::vec2(options.region[0], options.region[1]),
                                       glm::vec2(options.region[2], options.region[3])),
                              options.width, options.height, 0.0f);
    std::unique_ptr<VideoEncoder> video;
    if (!options.video.empty()) {
      make_parent_directory(options.video);
      video =
          std::make_unique<VideoEncoder>(options.video, options.width, options.height, video_fps);
    }
    if (!options.frames.empty())
      make_parent_directory(frame_file_name(options.frames, 0));

    // Frames drawn: every K-th frame of the source from step --from on, and its last one. Film
    // frame files are numbered by film frame, per-step ones by the count written.
    const int first_step = source->frame().step;
    ProgressBar progress("render", source->remaining_frames() + 1);
    TrailHistory trails(view.trail_length);
    trails.push(source->frame());
    int source_frame = 0, written = 0;
    while (true) {
      const bool last = source->at_end();
      if ((source_frame % options.every == 0 || last) && source->frame().step >= options.from) {
        ShapeLayer trail_layer;
        trail_layer.line_width_pixels = 1.5f;
        trails.draw(trail_layer);
        framebuffer.bind();
        draw_source_frame(renderer, *source, trail_layer, camera, view);
        const RgbaImage image = framebuffer.read();
        if (!options.frames.empty())
          write_png(image,
                    frame_file_name(options.frames, film_frames ? source->frame().step : written));
        if (video)
          video->add(image);
        ++written;
      }
      if (!options.quiet)
        progress.update(source_frame + 1);
      if (last)
        break;
      source->advance();
      trails.push(source->frame());
      ++source_frame;
    }
    if (video)
      video->finish();
    if (!options.quiet) {
      progress.finish();
      std::fprintf(stdout, "%s: %d frames (%s %d..%d, %s, %s)%s%s%s%s\n", options.scenario.c_str(),
                   written, film_frames ? "film frames" : "steps", first_step, source->frame().step,
                   source->description().c_str(), context.description().c_str(),
                   options.frames.empty() ? "" : ", frames ",
                   options.frames.empty() ? "" : options.frames.c_str(),
                   options.video.empty() ? "" : ", video ",
                   options.video.empty() ? "" : options.video.c_str());
    }
    return 0;
  } catch (...) {
    return report_command_error(options.scenario);
  }
}

} // namespace crowd
