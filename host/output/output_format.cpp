#include "host/output/output_format.h"

#include "host/output/film_csv_writer.h"
#include "host/output/track_json_writer.h"
#include "host/output/trajectory_writer.h"
#include "host/output/usd_shot_writer.h"

#include <algorithm>
#include <cctype>
#include <stdexcept>
#include <string>

namespace crowd {

OutputFormat output_format_for(const std::filesystem::path& path, bool fps_given) {
  std::string extension = path.extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (extension == ".usda")
    return OutputFormat::UsdShot;
  if (extension == ".json")
    return OutputFormat::TrackJson;
  if (extension == ".csv")
    return fps_given ? OutputFormat::FilmCsv : OutputFormat::StepCsv;
  if (extension == ".usd" || extension == ".usdc" || extension == ".usdz")
    throw std::invalid_argument(path.string() +
                                ": crowd writes USD as text; name the file .usda (usdcat "
                                "converts it to " +
                                extension + ")");
  throw std::invalid_argument(
      path.string() + ": " +
      (extension.empty() ? std::string("no extension") : "unknown extension " + extension) +
      "; the output format is chosen by it: .csv (trajectories, or film frames with --fps), "
      ".usda (USD PointInstancer shot), .json (per-agent film tracks)");
}

bool is_film_format(OutputFormat format) {
  return format != OutputFormat::StepCsv;
}

std::unique_ptr<FrameSink> make_output_sink(OutputFormat format, const std::filesystem::path& path,
                                            double fps) {
  switch (format) {
  case OutputFormat::StepCsv:
    return std::make_unique<TrajectoryWriter>(path);
  case OutputFormat::FilmCsv:
    return std::make_unique<FilmCsvWriter>(path);
  case OutputFormat::UsdShot:
    return std::make_unique<UsdShotWriter>(path, fps);
  case OutputFormat::TrackJson:
    return std::make_unique<TrackJsonWriter>(path, fps);
  }
  throw std::logic_error("unknown output format");
}

} // namespace crowd
