// Wall time per pipeline stage, for the `stage_ms` metric.
#pragma once

#include <chrono>
#include <string>
#include <utility>
#include <vector>

namespace crowd {

/// (stage name, milliseconds) in pipeline order.
class StageTimes {
public:
  void clear() { entries_.clear(); }
  void add(const std::string& stage, double ms) {
    for (auto& [name, total] : entries_) {
      if (name == stage) {
        total += ms;
        return;
      }
    }
    entries_.emplace_back(stage, ms);
  }
  const std::vector<std::pair<std::string, double>>& entries() const { return entries_; }

private:
  std::vector<std::pair<std::string, double>> entries_;
};

/// Adds the time from construction to destruction (or stop()) to one stage.
class ScopedStage {
public:
  ScopedStage(StageTimes& times, const char* stage)
      : times_(&times), stage_(stage), start_(std::chrono::steady_clock::now()) {}
  ~ScopedStage() { stop(); }
  ScopedStage(const ScopedStage&) = delete;
  ScopedStage& operator=(const ScopedStage&) = delete;
  void stop() {
    if (times_ == nullptr)
      return;
    const auto elapsed = std::chrono::steady_clock::now() - start_;
    times_->add(stage_, std::chrono::duration<double, std::milli>(elapsed).count());
    times_ = nullptr;
  }

private:
  StageTimes* times_;
  const char* stage_;
  std::chrono::steady_clock::time_point start_;
};

} // namespace crowd
