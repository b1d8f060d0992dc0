// Scenario extension `characters` (docs/scenario-extensions.md): per agent type, the animation
// clips its locomotion is matched to and the look of its characters in film exports
// (host/output/locomotion.h, host/output/character_cast.h). The simulation never reads them.
#pragma once

#include <glm/glm.hpp>
#include <optional>
#include <string>
#include <vector>

namespace crowd {

/// The clips an agent's locomotion is matched to. Defaults are an adult's: a walk of 1.4 m/s
/// with a 1.5 m cycle (two steps of 0.75 m), a run of 3.5 m/s with a 2.6 m cycle, the change
/// to running at 2.2 m/s (humans switch between about 1.9 and 2.2 m/s: Hreljac, "Preferred and
/// energetically optimal gait transition speeds in human locomotion", Med. Sci. Sports Exerc.
/// 25, 1993).
struct LocomotionClips {
  float walk_speed = 1.4f;  ///< m/s the walk clip is authored at.
  float walk_cycle = 1.5f;  ///< m walked per walk cycle.
  float run_speed = 3.5f;   ///< m/s the run clip is authored at.
  float run_cycle = 2.6f;   ///< m run per run cycle.
  float run_from = 2.2f;    ///< m/s: at or above, the gait is run (back to walk 10% below).
  float idle_below = 0.15f; ///< m/s: below, idle (back to walk at this speed).
  float turn_from = 45.0f;  ///< degrees/s: an idle agent turning faster is turning in place.
};

/// One of the characters a type's agents are drawn from, and how often.
struct WeightedPrototype {
  std::string name;
  float weight = 1.0f;
};

/// An agent type's characters in film exports.
struct CharacterSpec {
  LocomotionClips clips;
  /// The prototypes its agents are drawn from, by weight; empty: one named as the type.
  std::vector<WeightedPrototype> prototypes;
  int variations = 1; ///< Variation indices 0 .. variations - 1, drawn per agent.
  /// displayColor of the type's characters (linear RGB in [0, 1]); unset: a palette colour.
  std::optional<glm::vec3> color;
  /// displayColor per variation index (exactly `variations` of them); overrides `color`.
  std::vector<glm::vec3> variation_colors;
  /// The agent radius the characters are modelled for: an agent of radius r is scaled by
  /// r / model_radius. The spec's default agent radius.
  float model_radius = 0.4f;
};

} // namespace crowd
