// Film frames as frame sources for `crowd render --fps` and `crowd view`: a live simulation
// resampled to film frames exactly as `crowd run --fps` resamples it (FilmResampler, with the
// same film options: host/sim/film_of_run.h), and a replay of the film CSV it writes
// (host/output/film_csv_reader.h). Their frames carry the film frame number as `step`
// (SceneFrame::film) and the characters' headings, which the facing mark shows.
#pragma once

#include "host/output/character_motion.h"
#include "host/output/film_csv_reader.h"
#include "host/render/frame_source.h"
#include "host/sim/simulation.h"

#include <deque>
#include <filesystem>
#include <memory>

namespace crowd {

class FilmResampler;

/// Film framing of a live film source (crowd run's options of the same names).
struct LiveFilmOptions {
  double fps = 24.0;
  int start_frame = 1001;
  double preroll = 0.0; ///< Seconds simulated before the start frame (the run is longer).
  int handles = 0;      ///< Frames written before the start frame and after the last one.
  double max_turn_rate_degrees = CharacterMotion::kDefaultMaxTurnRateDegrees;
};

class LiveFilmSource final : public FrameSource {
public:
  /// Runs the scenario for `steps` steps (the scenario's own count when not given), longer by
  /// the preroll and handles as crowd run does (film_run_steps), and gives its film frames,
  /// start_frame + j at time preroll + j / fps for j >= -handles, up to the last one the run
  /// reaches. Throws std::invalid_argument for handles the preroll does not cover.
  LiveFilmSource(Scenario scenario, const SimulationOptions& options, std::optional<int> steps,
                 const LiveFilmOptions& film);
  ~LiveFilmSource() override;

  const SceneData& scene() const override { return scene_; }
  const SceneFrame& frame() const override { return frame_; }
  int last_step() const override;
  int remaining_frames() const override;
  void advance() override;
  std::optional<AgentDebugView> inspect(int agent) const override;
  std::string debug_unavailable() const override;
  std::string description() const override;
  double film_fps() const override { return fps_; }

private:
  /// Steps the simulation until a film frame is queued or the run is over.
  void fill();
  void deliver_step();

  Simulation simulation_;
  SceneData scene_;
  int last_step_ = 0;
  double fps_;
  double preroll_;
  std::vector<std::string> types_;
  std::deque<SceneFrame> queued_; ///< Film frames resampled and not shown yet.
  std::unique_ptr<FilmResampler> resampler_;
  SceneFrame frame_;
};

class FilmReplaySource final : public FrameSource {
public:
  /// Builds the scenario's navmesh and agents and reads the film CSV; agents take their type
  /// labels from it. Throws ScenarioError, NavmeshError or TrajectoryError.
  FilmReplaySource(const Scenario& scenario, const std::filesystem::path& film_file);

  const SceneData& scene() const override { return scene_; }
  const SceneFrame& frame() const override { return frame_; }
  int last_step() const override { return film_.frames.back().frame; }
  int remaining_frames() const override {
    return static_cast<int>(film_.frames.size() - 1 - index_);
  }
  void advance() override;
  std::optional<AgentDebugView> inspect(int) const override { return std::nullopt; }
  std::string debug_unavailable() const override;
  std::string description() const override;
  /// The film's frame rate (FilmCsv::fps).
  double film_fps() const override { return film_.fps(); }

private:
  void show(std::size_t index);

  std::filesystem::path file_;
  SceneData scene_;
  FilmCsv film_;
  std::size_t index_ = 0;
  SceneFrame frame_;
};

} // namespace crowd
