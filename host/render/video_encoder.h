// A video from rendered frames: raw RGBA frames piped into ffmpeg (H.264, yuv420p, playable
// everywhere). ffmpeg writes a temporary file beside the target, renamed into place by
// finish(), so a failed render never leaves a truncated video under the requested name.
#pragma once

#include "host/render/rgba_image.h"

#include <filesystem>
#include <string>
#include <sys/types.h>

namespace crowd {

class VideoEncoder {
public:
  /// Starts ffmpeg. Throws std::runtime_error when ffmpeg is not on the PATH.
  VideoEncoder(std::filesystem::path file, int width, int height, double fps);
  ~VideoEncoder(); ///< Without finish(): stops ffmpeg and removes the temporary file.
  VideoEncoder(const VideoEncoder&) = delete;
  VideoEncoder& operator=(const VideoEncoder&) = delete;

  /// Throws std::runtime_error when ffmpeg has stopped reading (its stderr says why).
  void add(const RgbaImage& frame);
  /// Waits for ffmpeg and renames the file into place. Throws std::runtime_error on failure.
  void finish();

private:
  void stop();

  std::filesystem::path file_, temp_;
  int width_, height_;
  int pipe_ = -1;
  pid_t pid_ = -1;
};

/// The ffmpeg executable on the PATH, or empty.
std::string find_ffmpeg();

} // namespace crowd
