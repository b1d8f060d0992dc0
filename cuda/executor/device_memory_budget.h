/// @file
/// How many agents the CUDA executor can hold on a device, and the message that says so when
/// a device allocation fails. Plain C++ without the CUDA runtime, so that the arithmetic is
/// unit-tested on any machine (tests/cuda/test_device_memory_budget.cpp); the executor fills
/// the budget from cudaMemGetInfo and its own buffers.
#pragma once

#include <cstddef>
#include <cstdio>
#include <optional>
#include <string>

namespace crowd {

/// The device memory situation at a failed allocation.
struct DeviceMemoryBudget {
  /// cudaMemGetInfo's free and total bytes; empty when that call failed too.
  std::optional<std::size_t> free_bytes;
  std::optional<std::size_t> total_bytes;
  /// What the executor holds now (fixed part included). It could reuse this memory, so it
  /// counts as available besides the free bytes.
  std::size_t held_bytes = 0;
  /// What does not grow with the agent count: the wall grid, the agent grid's cell table,
  /// the avoidance parameter sets.
  std::size_t fixed_bytes = 0;
  /// Device bytes one more agent costs (every per-agent buffer and Thrust's sort storage);
  /// 0 when not known (the failure came before the first step).
  std::size_t bytes_per_agent = 0;
};

/// About how many agents fit: (free + held - fixed) / bytes per agent, with buffers sized
/// exactly (a fresh run's). Empty when free memory or the bytes per agent are unknown.
inline std::optional<std::size_t> agents_that_fit(const DeviceMemoryBudget& budget) {
  if (!budget.free_bytes || budget.bytes_per_agent == 0)
    return std::nullopt;
  const std::size_t available = *budget.free_bytes + budget.held_bytes;
  if (available <= budget.fixed_bytes)
    return 0;
  return (available - budget.fixed_bytes) / budget.bytes_per_agent;
}

/// Bytes in MiB with one decimal ("12.5 MiB"): free and total memory read better that way.
inline std::string format_mebibytes(std::size_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
  return text;
}

/// One line: what failed and how large it was, the device's free and total memory, and about
/// how many agents fit. `failed` names the allocation ("cudaMalloc of position for 5000
/// agents"); `error` is the runtime's name and description of the status.
inline std::string out_of_device_memory_message(const std::string& failed,
                                                std::size_t requested_bytes,
                                                const std::string& error,
                                                const DeviceMemoryBudget& budget) {
  std::string message = "out of device memory: " + failed + " requested " +
                        std::to_string(requested_bytes) + " bytes and failed with " + error;
  if (budget.free_bytes && budget.total_bytes) {
    message += "; the device has " + format_mebibytes(*budget.free_bytes) + " free of " +
               format_mebibytes(*budget.total_bytes) + " (" + std::to_string(*budget.free_bytes) +
               " of " + std::to_string(*budget.total_bytes) + " bytes)";
  } else {
    message += "; the device's free memory is unknown (cudaMemGetInfo failed)";
  }
  if (const std::optional<std::size_t> fit = agents_that_fit(budget)) {
    message += "; at " + std::to_string(budget.bytes_per_agent) + " bytes per agent plus " +
               std::to_string(budget.fixed_bytes) + " bytes for the wall grid and other fixed " +
               "buffers, about " + std::to_string(*fit) + " agents fit on this device";
  }
  message += " (run fewer agents, lower --max-neighbors / --max-wall-segments, or use the cpu "
             "backend)";
  return message;
}

} // namespace crowd
