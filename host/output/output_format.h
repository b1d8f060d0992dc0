// Which file `crowd run --out FILE` writes, chosen by FILE's extension.
#pragma once

#include "host/output/frame_sink.h"

#include <filesystem>
#include <memory>

namespace crowd {

enum class OutputFormat {
  StepCsv,   ///< outputs.md trajectory, one frame per written step (--every).
  FilmCsv,   ///< Film frames at --fps: frame,time,agent,type,x,y,z,vx,vz + locomotion.
  UsdShot,   ///< Film frames at --fps as a USD ASCII layer.
  TrackJson, ///< Film frames at --fps as per-agent tracks.
};

/// `.usda` -> UsdShot, `.json` -> TrackJson, `.csv` -> StepCsv, or FilmCsv when `fps_given`
/// (--fps on the command line), so that `--out traj.csv` without --fps keeps the meaning of
/// outputs.md; the extension's case does not matter. Throws std::invalid_argument for any
/// other name, naming the formats there are, with a hint for `.usd`, `.usdc` and `.usdz`
/// (binary or packaged USD, which need the USD library: write `.usda`).
OutputFormat output_format_for(const std::filesystem::path& path, bool fps_given);

bool is_film_format(OutputFormat format);

/// The sink writing `format` to `path` (fps is used by film formats). Throws
/// std::runtime_error when the file cannot be created.
std::unique_ptr<FrameSink> make_output_sink(OutputFormat format, const std::filesystem::path& path,
                                            double fps);

} // namespace crowd
