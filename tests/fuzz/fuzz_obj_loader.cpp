// libFuzzer target: any bytes as an OBJ file must give triangles or one ScenarioError, never a
// crash, a hang or another exception.
#include "host/navmesh/input_geometry.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <unistd.h>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::filesystem::path path = std::filesystem::temp_directory_path() /
                                            ("crowd-fuzz-" + std::to_string(::getpid()) + ".obj");
  if (std::FILE* file = std::fopen(path.c_str(), "wb")) {
    std::fwrite(data, 1, size, file);
    std::fclose(file);
  }
  try {
    const crowd::InputGeometry geometry = crowd::load_obj(path, "fuzz.json", "world.mesh");
    (void)geometry.triangles.size();
  } catch (const crowd::ScenarioError&) {
    // The expected answer to bad input.
  }
  return 0;
}
