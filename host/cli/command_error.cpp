#include "host/cli/command_error.h"

#include "host/checkpoint/archive.h"
#include "host/output/trajectory_reader.h"
#include "host/scenario/scenario.h"

#include <cstdio>
#include <exception>

namespace crowd {

CommandError describe_command_error(const std::string& scenario) {
  try {
    throw;
  } catch (const ScenarioError& e) {
    return {std::string("error: ") + e.what(), 2};
  } catch (const TrajectoryError& e) {
    return {std::string("error: ") + e.what(), 2};
  } catch (const CheckpointError& e) {
    return {std::string("error: ") + e.what(), 2};
  } catch (const UsageError& e) {
    return {std::string("error: ") + e.what(), 2};
  } catch (const std::exception& e) {
    return {"error: " + scenario + ": " + e.what(), 1};
  } catch (...) {
    return {"error: " + scenario + ": unknown failure", 1};
  }
}

int CommandError::print() const {
  std::fprintf(stderr, "%s\n", message.c_str());
  return exit_code;
}

int report_command_error(const std::string& scenario) {
  return describe_command_error(scenario).print();
}

} // namespace crowd
