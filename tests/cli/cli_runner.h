// Runs the `crowd` executable built with the tests and captures what it prints.
#pragma once

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <string>
#include <sys/wait.h>

namespace crowd::testing {

struct CliResult {
  int exit_code = -1;
  std::string output; ///< stdout and stderr together
};

inline CliResult run_cli(const std::string& arguments) {
  const std::string command = std::string(CROWD_CLI_PATH) + " " + arguments + " 2>&1";
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
      << "crowd " << arguments << " printed a sanitizer report:\n"
      << result.output;
  return result;
}

inline std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// A fresh directory under the system temp dir, removed at destruction.
class TempDir {
public:
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "crowd-test-XXXXXX").string();
    path_ = ::mkdtemp(pattern.data());
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

private:
  std::filesystem::path path_;
};

inline std::string sample(const std::string& name) {
  return std::string(CROWD_SOURCE_DIR) + "/samples/scenarios/" + name;
}

} // namespace crowd::testing
