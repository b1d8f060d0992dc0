// What the metrics report of stuck agents, as the stuck detector (host/sim/stuck_detector.h)
// counts them.
#pragma once

namespace crowd {

struct StuckStats {
  int agents = 0;               ///< Distinct agents that were stuck at some time.
  int episodes = 0;             ///< Stuck episodes (an agent can be stuck more than once).
  int replans = 0;              ///< Path replans requested because of them.
  double total_seconds = 0.0;   ///< Summed length of all episodes (open ones up to now).
  double longest_seconds = 0.0; ///< The longest episode.
  int stuck_now = 0;            ///< Agents in an episode at the time of the stats.
};

} // namespace crowd
