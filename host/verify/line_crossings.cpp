#include "host/verify/line_crossings.h"

#include <algorithm>
#include <map>

namespace crowd {
namespace {

float cross(glm::vec2 u, glm::vec2 v) {
  return u.x * v.y - u.y * v.x;
}

} // namespace

void LineCrossings::observe(const Simulation& sim) {
  const auto positions = sim.positions();
  const auto phases = sim.phases();
  const double now = sim.time();
  const std::size_t n = positions.size();
  last_.resize(n, glm::vec2(0.0f));
  was_present_.resize(n, 0);
  const glm::vec2 line = b_ - a_;
  for (std::size_t i = 0; i < n; ++i) {
    const bool present = is_present(phases[i]);
    const glm::vec2 p(positions[i].x, positions[i].z);
    // Removed during this step: its last position is where it was taken out.
    const bool measured = present || (was_present_[i] && phases[i] == AgentPhase::Removed);
    if (measured && was_present_[i]) {
      const glm::vec2 q = last_[i];
      const glm::vec2 move = p - q;
      const float denom = cross(move, line);
      if (denom != 0.0f && glm::length(move) <= kMaxStep) {
        // q + s (p - q) = a + u (b - a), s in (0, 1], u in [0, 1].
        const float s = cross(a_ - q, line) / denom;
        const float u = cross(a_ - q, move) / denom;
        if (s > 0.0f && s <= 1.0f && u >= 0.0f && u <= 1.0f) {
          Crossing c;
          c.agent = static_cast<int>(i);
          c.time = last_time_ + static_cast<double>(s) * (now - last_time_);
          // Left of a -> b has cross(line, point - a) > 0.
          c.direction = cross(line, q - a_) > 0.0f ? 1 : -1;
          crossings_.push_back(c);
        }
      }
    }
    last_[i] = p;
    was_present_[i] = present ? 1 : 0;
  }
  last_time_ = now;
}

std::optional<double> LineCrossings::first_time(int agent) const {
  for (const Crossing& c : crossings_)
    if (c.agent == agent)
      return c.time;
  return std::nullopt;
}

std::vector<double> LineCrossings::first_times() const {
  std::map<int, double> first;
  for (const Crossing& c : crossings_)
    first.emplace(c.agent, c.time); // Crossings come in time order: the first one stays.
  std::vector<double> times;
  for (const auto& [agent, time] : first)
    times.push_back(time);
  std::sort(times.begin(), times.end());
  return times;
}

int LineCrossings::agents_crossed() const {
  return static_cast<int>(first_times().size());
}

std::optional<double> LineCrossings::flow() const {
  const std::vector<double> times = first_times();
  if (times.size() < 2 || !(times.back() > times.front()))
    return std::nullopt;
  return static_cast<double>(times.size() - 1) / (times.back() - times.front());
}

std::optional<double> LineCrossings::central_flow() const {
  const std::vector<double> times = first_times();
  const std::size_t n = times.size();
  const std::size_t a = n / 10, b = (9 * n) / 10;
  if (b <= a || b >= n || !(times[b] > times[a]))
    return std::nullopt;
  return static_cast<double>(b - a) / (times[b] - times[a]);
}

} // namespace crowd
