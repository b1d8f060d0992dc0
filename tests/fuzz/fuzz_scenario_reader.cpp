// libFuzzer target: any bytes as a scenario file must give a Scenario or one ScenarioError,
// never a crash, a hang or another exception.
#include "host/scenario/scenario.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const crowd::Scenario scenario = crowd::parse_scenario(text, "fuzz.json");
    (void)scenario.step_count();
    (void)scenario.agent_count();
    (void)scenario.max_agent_radius();
  } catch (const crowd::ScenarioError&) {
    // The expected answer to bad input.
  }
  return 0;
}
