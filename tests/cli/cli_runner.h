// Runs the `crowd` executable built with the tests and captures what it prints.
#pragma once

#include "tests/support/temp_dir.h"

#include <array>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <optional>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace crowd::testing {

struct CliResult {
  int exit_code = -1;
  std::string output; ///< stdout and stderr together
};

/// Runs `command_line` in the shell, stdout and stderr together.
inline CliResult run_shell(const std::string& command_line) {
  const std::string command = command_line + " 2>&1";
  CliResult result;
  std::FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr)
    return result;
  std::array<char, 4096> buffer{};
  std::size_t n = 0;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0)
    result.output.append(buffer.data(), n);
  const int status = ::pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  // In the sanitizer build (.ci/sanitize) the CLI is instrumented too. A report there must
  // fail the test even when the test expects a non-zero exit for other reasons: ASan and
  // LeakSanitizer name themselves ("ERROR: AddressSanitizer"), UBSan writes "runtime error:".
  EXPECT_TRUE(result.output.find("Sanitizer") == std::string::npos &&
              result.output.find("runtime error:") == std::string::npos)
      << command_line << " printed a sanitizer report:\n"
      << result.output;
  return result;
}

inline CliResult run_cli(const std::string& arguments) {
  return run_shell(std::string(CROWD_CLI_PATH) + " " + arguments);
}

inline std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// A fresh directory under the system temp dir, removed at destruction.
using TempDir = test::TempDir;

/// Starts `crowd` with `arguments` (stdout and stderr into `log`) without waiting; returns its
/// pid (for tests that signal a run).
inline pid_t start_cli(const std::vector<std::string>& arguments,
                       const std::filesystem::path& log) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(fd, 1);
    ::dup2(fd, 2);
    // The test runner may have been started with these ignored; the child must see them.
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
    std::vector<char*> argv;
    std::string program = CROWD_CLI_PATH;
    argv.push_back(program.data());
    std::vector<std::string> args = arguments;
    for (std::string& a : args)
      argv.push_back(a.data());
    argv.push_back(nullptr);
    ::execv(program.c_str(), argv.data());
    ::_exit(127);
  }
  return pid;
}

/// Waits for a child start_cli started to end, at most `seconds`: its wait status (waitpid's), or
/// nothing when it had not ended by then (it is then killed and reaped), so that a test whose run
/// hangs fails rather than hangs.
inline std::optional<int> wait_for_child(pid_t pid, int seconds) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  int status = 0;
  while (::waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      return std::nullopt;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return status;
}

/// Size of the hidden temporary `.NAME.tmp*` beside `target`, 0 if none yet.
inline std::uintmax_t temporary_size(const std::filesystem::path& target) {
  const std::string prefix = "." + target.filename().string() + ".tmp";
  for (const auto& e : std::filesystem::directory_iterator(target.parent_path()))
    if (e.path().filename().string().rfind(prefix, 0) == 0)
      return e.file_size();
  return 0;
}

/// Waits until the temporary file beside `target` holds at least `bytes` (a run started with
/// start_cli is then stepping, its first frames written), at most `seconds`.
inline void wait_for_temporary(const std::filesystem::path& target, std::uintmax_t bytes,
                               int seconds) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  while (temporary_size(target) < bytes && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
}

inline std::string sample(const std::string& name) {
  return std::string(CROWD_SOURCE_DIR) + "/samples/scenarios/" + name;
}

} // namespace crowd::testing
