#include "host/cli/command_error.h"

#include "host/checkpoint/archive.h"
#include "host/output/trajectory_reader.h"
#include "host/scenario/scenario.h"

#include <cstdio>
#include <exception>

namespace crowd {

int report_command_error(const std::string& scenario) {
  try {
    throw;
  } catch (const ScenarioError& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  } catch (const TrajectoryError& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  } catch (const CheckpointError& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  } catch (const UsageError& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s: %s\n", scenario.c_str(), e.what());
    return 1;
  } catch (...) {
    std::fprintf(stderr, "error: %s: unknown failure\n", scenario.c_str());
    return 1;
  }
}

} // namespace crowd
