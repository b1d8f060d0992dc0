#include "host/render/open_frame_source.h"

#include "host/render/live_source.h"
#include "host/render/replay_source.h"

#include <fstream>
#include <string>

namespace crowd {
namespace {

/// Whether the file starts with the film CSV's header (a file that cannot be read is left to
/// the per-step reader, whose messages name the problem).
bool is_film_csv(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::string first_line;
  return in && std::getline(in, first_line) && is_film_csv_header(first_line);
}

} // namespace

std::unique_ptr<FrameSource> open_frame_source(const std::filesystem::path& scenario_file,
                                               const std::filesystem::path& trajectory_file,
                                               const SimulationOptions& options,
                                               std::optional<int> steps,
                                               const std::optional<LiveFilmOptions>& film) {
  Scenario scenario = load_scenario(scenario_file);
  if (!trajectory_file.empty()) {
    if (is_film_csv(trajectory_file))
      return std::make_unique<FilmReplaySource>(scenario, trajectory_file);
    return std::make_unique<ReplaySource>(scenario, trajectory_file);
  }
  if (film)
    return std::make_unique<LiveFilmSource>(std::move(scenario), options, steps, *film);
  return std::make_unique<LiveSource>(std::move(scenario), options, steps);
}

} // namespace crowd
