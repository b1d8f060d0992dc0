#include "host/render/video_encoder.h"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <spawn.h>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char** environ;

namespace crowd {

std::string find_ffmpeg() {
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/bin:/bin";
  std::size_t start = 0;
  while (start <= dirs.size()) {
    const std::size_t colon = dirs.find(':', start);
    const std::string dir = dirs.substr(start, colon == std::string::npos ? colon : colon - start);
    const std::string candidate = (dir.empty() ? "." : dir) + "/ffmpeg";
    if (::access(candidate.c_str(), X_OK) == 0)
      return candidate;
    if (colon == std::string::npos)
      break;
    start = colon + 1;
  }
  return "";
}

VideoEncoder::VideoEncoder(std::filesystem::path file, int width, int height, double fps)
    : file_(std::move(file)), width_(width), height_(height) {
  const std::string ffmpeg = find_ffmpeg();
  if (ffmpeg.empty())
    throw std::runtime_error(file_.string() +
                             ": writing a video needs ffmpeg on the PATH (apt-get install ffmpeg)");
  // Keep the extension, which tells ffmpeg the container.
  temp_ =
      file_.parent_path() / ("." + file_.stem().string() + ".partial" + file_.extension().string());
  int fds[2];
  if (::pipe(fds) != 0)
    throw std::runtime_error(file_.string() + ": pipe: " + std::strerror(errno));
  const std::string size = std::to_string(width) + "x" + std::to_string(height);
  const std::string rate = std::to_string(fps);
  std::vector<std::string> args = {ffmpeg, "-y", "-loglevel", "error", "-f", "rawvideo", "-pix_fmt",
                                   "rgba", "-s", size, "-framerate", rate, "-i", "-",
                                   // yuv420p needs even sizes.
                                   "-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2", "-pix_fmt", "yuv420p",
                                   "-c:v", "libx264", "-preset", "medium", temp_.string()};
  std::vector<char*> argv;
  for (std::string& a : args)
    argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[0], STDIN_FILENO);
  posix_spawn_file_actions_addclose(&actions, fds[1]);
  const int status = ::posix_spawn(&pid_, ffmpeg.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(fds[0]);
  if (status != 0) {
    ::close(fds[1]);
    pid_ = -1;
    throw std::runtime_error(file_.string() + ": cannot start ffmpeg: " + std::strerror(status));
  }
  pipe_ = fds[1];
  // A dead ffmpeg must give an error on write, not kill us.
  std::signal(SIGPIPE, SIG_IGN);
}

VideoEncoder::~VideoEncoder() {
  if (pid_ > 0) {
    try {
      stop();
    } catch (const std::exception&) {
      // Already failing: the caller reports the first error.
    }
    std::error_code ignored;
    std::filesystem::remove(temp_, ignored);
  }
}

void VideoEncoder::add(const RgbaImage& frame) {
  if (frame.width != width_ || frame.height != height_)
    throw std::logic_error("video frame size changed");
  const std::uint8_t* data = frame.pixels.data();
  std::size_t left = frame.pixels.size();
  while (left > 0) {
    const ssize_t written = ::write(pipe_, data, left);
    if (written < 0 && errno == EINTR)
      continue;
    if (written <= 0)
      throw std::runtime_error(file_.string() + ": ffmpeg stopped reading frames (see its "
                                                "message above)");
    data += written;
    left -= static_cast<std::size_t>(written);
  }
}

void VideoEncoder::stop() {
  if (pipe_ >= 0)
    ::close(pipe_);
  pipe_ = -1;
  int status = 0;
  while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  pid_ = -1;
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw std::runtime_error(file_.string() + ": ffmpeg failed (exit status " +
                             std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) + ")");
}

void VideoEncoder::finish() {
  try {
    stop();
  } catch (...) {
    std::error_code ignored;
    std::filesystem::remove(temp_, ignored);
    throw;
  }
  std::error_code error;
  std::filesystem::rename(temp_, file_, error);
  if (error)
    throw std::runtime_error(file_.string() + ": " + error.message());
}

} // namespace crowd
