// Replays files through a libFuzzer entry point in the normal build (no clang, no libFuzzer):
// every input a fuzz run ever crashed on is kept in tests/fuzz/regressions/<target>/ and
// replayed by CTest (Fuzz.<target>.Regressions), so a fixed crash stays fixed. A crash, a
// sanitizer report in a sanitized build, or an exception the target does not expect (it
// escapes LLVMFuzzerTestOneInput and ends the program) fails the test.
//
//   fuzz_scenario_reader_replay DIR_OR_FILE...
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  std::vector<fs::path> inputs;
  for (int i = 1; i < argc; ++i) {
    const fs::path path = argv[i];
    if (fs::is_directory(path)) {
      for (const fs::directory_entry& entry : fs::directory_iterator(path)) {
        if (entry.is_regular_file())
          inputs.push_back(entry.path());
      }
    } else if (fs::is_regular_file(path)) {
      inputs.push_back(path);
    } else {
      std::fprintf(stderr, "replay: %s: no such file or directory\n", path.c_str());
      return 2;
    }
  }
  std::sort(inputs.begin(), inputs.end());
  for (const fs::path& input : inputs) {
    std::ifstream in(input, std::ios::binary);
    const std::vector<char> bytes((std::istreambuf_iterator<char>(in)),
                                  std::istreambuf_iterator<char>());
    std::printf("replay: %s (%zu bytes)\n", input.c_str(), bytes.size());
    std::fflush(stdout); // a crash below then names the input that caused it
    // libFuzzer never passes a null pointer, even for an empty input; neither does this.
    static const std::uint8_t no_bytes = 0;
    const auto* data =
        bytes.empty() ? &no_bytes : reinterpret_cast<const std::uint8_t*>(bytes.data());
    LLVMFuzzerTestOneInput(data, bytes.size());
  }
  std::printf("replay: %zu inputs, no crash\n", inputs.size());
  return 0;
}
