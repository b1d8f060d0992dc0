// Scenario extension `characters` (docs/scenario-extensions.md): the animation clips each
// agent type's locomotion is matched to in film exports (host/output/locomotion.h).
#pragma once

namespace crowd {

/// The clips an agent's locomotion is matched to (scenario extension `characters`, per agent
/// type: docs/scenario-extensions.md). Defaults are an adult's: a walk of 1.4 m/s with a 1.5 m
/// cycle (two steps of 0.75 m), a run of 3.5 m/s with a 2.6 m cycle, the change to running at
/// 2.2 m/s (humans switch between about 1.9 and 2.2 m/s: Hreljac, "Preferred and energetically
/// optimal gait transition speeds in human locomotion", Med. Sci. Sports Exerc. 25, 1993).
struct LocomotionClips {
  float walk_speed = 1.4f;  ///< m/s the walk clip is authored at.
  float walk_cycle = 1.5f;  ///< m walked per walk cycle.
  float run_speed = 3.5f;   ///< m/s the run clip is authored at.
  float run_cycle = 2.6f;   ///< m run per run cycle.
  float run_from = 2.2f;    ///< m/s: at or above, the gait is run (back to walk 10% below).
  float idle_below = 0.15f; ///< m/s: below, idle (back to walk at this speed).
  float turn_from = 45.0f;  ///< degrees/s: an idle agent turning faster is turning in place.
};

} // namespace crowd
