#include "host/render/film_sources.h"

#include "host/output/film_csv_writer.h"
#include "host/output/film_resampler.h"
#include "host/sim/agent_debug_view.h"
#include "host/sim/film_of_run.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace crowd {
namespace {

/// Frame times j / fps and step times are computed differently; FilmResampler's tolerance.
constexpr double kSameInstant = 1e-9;

/// Queues the resampler's frames as the renderer draws them. A render is never checkpointed,
/// so save and restore have nothing to do.
class FrameQueue final : public FrameSink {
public:
  explicit FrameQueue(std::deque<SceneFrame>& queue) : queue_(queue) {}

  void write_frame(const FrameView& view) override {
    SceneFrame& frame = queue_.emplace_back();
    frame.film = true;
    frame.step = view.number;
    frame.time = view.time;
    frame.positions.assign(view.positions.begin(), view.positions.end());
    frame.velocities.assign(view.velocities.begin(), view.velocities.end());
    const std::size_t n = frame.positions.size();
    frame.velocities.resize(n, glm::vec2(0.0f));
    frame.present.resize(n);
    frame.headings_degrees.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      frame.present[i] = i < view.phases.size() ? is_present(view.phases[i]) : 1;
      // In the film CSV's own rounding, so that its replay draws the same marks.
      frame.headings_degrees[i] =
          heading_in_degrees(i < view.headings.size() ? view.headings[i] : 0.0f);
    }
  }
  void finish() override {}
  void save(ArchiveWriter&) override {}
  void restore(ArchiveReader&) override {}

private:
  std::deque<SceneFrame>& queue_;
};

Scenario with_steps(Scenario scenario, std::optional<int> steps) {
  // As crowd run does, so that a live film render and `crowd run --steps N --fps F` run the
  // same simulation.
  if (steps)
    scenario.steps = *steps;
  return scenario;
}

SceneData replay_scene(const Scenario& scenario) {
  const NavMesh navmesh = NavMesh::build(scenario);
  return make_scene(scenario, navmesh, populate(scenario, navmesh));
}

} // namespace

LiveFilmSource::LiveFilmSource(Scenario scenario, const SimulationOptions& options,
                               std::optional<int> steps, const LiveFilmOptions& film)
    : simulation_(with_steps(std::move(scenario), steps), options),
      scene_(make_scene(simulation_.scenario(), simulation_.navmesh(),
                        populate(simulation_.scenario(), simulation_.navmesh()))),
      fps_(film.fps), preroll_(film.preroll) {
  const std::optional<int> total =
      film_run_steps(simulation_.scenario().step_count(), simulation_.scenario().dt, film.fps,
                     film.preroll, film.handles);
  if (!total)
    throw std::invalid_argument("--preroll and --handles make the run longer than " +
                                std::to_string(INT_MAX) + " steps");
  last_step_ = *total;
  FilmOfRun of_run = film_of_run(simulation_, film.max_turn_rate_degrees, film.start_frame,
                                 film.preroll, film.handles);
  std::vector<std::unique_ptr<FrameSink>> sinks;
  sinks.push_back(std::make_unique<FrameQueue>(queued_));
  resampler_ = std::make_unique<FilmResampler>(fps_, std::move(sinks), std::move(of_run.options));
  deliver_step(); // step 0: the film's first frame is on it
  fill();
  if (queued_.empty())
    throw std::logic_error("a film run has no frame at its start");
  frame_ = std::move(queued_.front());
  queued_.pop_front();
  fill();
}

LiveFilmSource::~LiveFilmSource() = default;

void LiveFilmSource::deliver_step() {
  for (int id = static_cast<int>(types_.size()); id < simulation_.agent_count(); ++id)
    types_.push_back(simulation_.agent_type(id));
  FrameView view;
  view.number = simulation_.step_index();
  view.time = simulation_.time();
  view.positions = simulation_.positions();
  view.velocities = simulation_.velocities();
  view.phases = simulation_.phases();
  view.types = types_;
  const std::size_t before = queued_.size();
  resampler_->write_frame(view);
  if (simulation_.step_index() > 0)
    for (std::size_t k = before; k < queued_.size(); ++k)
      queued_[k].ms_per_step = simulation_.last_step_ms();
}

void LiveFilmSource::fill() {
  while (queued_.empty() && simulation_.step_index() < last_step_) {
    simulation_.step();
    deliver_step();
  }
}

void LiveFilmSource::advance() {
  if (queued_.empty())
    return;
  frame_ = std::move(queued_.front());
  queued_.pop_front();
  fill();
}

int LiveFilmSource::remaining_frames() const {
  if (queued_.empty())
    return 0; // fill() ran the simulation to its end
  // The queued frames, and an estimate of those the steps still to run give (the progress
  // bar's total): frames with a time in (now, end].
  const double now = simulation_.time();
  const double end = last_step_ * static_cast<double>(simulation_.scenario().dt);
  const double later = std::floor((end - preroll_) * fps_ + kSameInstant) -
                       std::floor((now - preroll_) * fps_ + kSameInstant);
  return static_cast<int>(queued_.size()) + std::max(0, static_cast<int>(later));
}

int LiveFilmSource::last_step() const {
  return frame_.step + remaining_frames();
}

std::optional<AgentDebugView> LiveFilmSource::inspect(int agent) const {
  if (agent < 0 || agent >= simulation_.agent_count())
    return std::nullopt;
  // The solver's state after the step at or just after the frame shown.
  return inspect_agent(simulation_, agent);
}

std::string LiveFilmSource::debug_unavailable() const {
  return simulation_.crowd_solver() == nullptr
             ? "no debug overlays on detour (its state is inside DetourCrowd)"
             : "";
}

std::string LiveFilmSource::description() const {
  char rate[32];
  std::snprintf(rate, sizeof rate, "%g", fps_);
  return "live film at " + std::string(rate) + " fps, backend " + simulation_.backend_name();
}

FilmReplaySource::FilmReplaySource(const Scenario& scenario, const std::filesystem::path& film_file)
    : file_(film_file), scene_(replay_scene(scenario)),
      film_(read_film_csv(film_file, static_cast<int>(scene_.setups.size()))) {
  // The film says what each agent is; agents it never shows keep the scenario's label.
  for (std::size_t a = 0; a < scene_.setups.size(); ++a)
    if (!film_.types[a].empty())
      scene_.setups[a].params.type = film_.types[a];
  show(0);
}

void FilmReplaySource::advance() {
  if (index_ + 1 < film_.frames.size())
    show(index_ + 1);
}

void FilmReplaySource::show(std::size_t index) {
  index_ = index;
  const FilmCsvFrame& f = film_.frames[index];
  frame_.film = true;
  frame_.step = f.frame;
  frame_.time = f.time;
  frame_.positions = f.positions;
  frame_.velocities = f.velocities;
  frame_.present = f.present;
  frame_.headings_degrees = f.headings_degrees;
  frame_.ms_per_step.reset();
}

std::string FilmReplaySource::debug_unavailable() const {
  return "no debug overlays in a replay (a film CSV has no solver state)";
}

std::string FilmReplaySource::description() const {
  return "replay of " + file_.filename().string();
}

} // namespace crowd
