// Which character each agent is in a film shot, and how it looks: a property of the film, drawn
// from the scenario's seed and the agent's id, type and size (scenario extension `characters`,
// docs/scenario-extensions.md). The simulation never reads it.
#pragma once

#include "host/scenario/character_clips.h"

#include <cstdint>
#include <glm/glm.hpp>
#include <map>
#include <set>
#include <string>

namespace crowd {

/// One agent's character in the film exports.
struct CharacterLook {
  std::string prototype;  ///< The prototype it is drawn as.
  int variation = 0;      ///< In [0, variations of its type).
  std::uint32_t seed = 0; ///< Per agent, for the artist's own variation (textures, props...).
  float scale = 1.0f;     ///< Agent radius over its type's model radius.
  glm::vec3 color{1.0f};  ///< displayColor, linear RGB.
};

/// Casts agents as characters. Everything is a function of (scenario seed, agent id, type,
/// radius): the same agent is the same character whatever the backend, thread count, frame rate
/// or resume point, and adding an agent does not recast the others.
///  - seed: a 31-bit hash of (scenario seed, id) (SplitMix64: Steele, Lea & Flood, "Fast
///    splittable pseudorandom number generators", OOPSLA 2014);
///  - prototype: the type's prototypes drawn by weight from a second hash of the seed (the
///    type label itself when it names none); variation: a third hash modulo its variations;
///  - colour: the type's variation_colors[variation], else its color, else a palette colour
///    by the type label's place among the scenario's labels in name order.
class CharacterCast {
public:
  /// `labels`: every agent type label of the scenario (palette order is their name order).
  CharacterCast(std::uint64_t scenario_seed, std::map<std::string, CharacterSpec> characters,
                const std::set<std::string>& labels);

  CharacterLook look(int id, const std::string& type, float radius) const;
  /// The type's spec (the defaults for a type the scenario gives none).
  const CharacterSpec& spec(const std::string& type) const;

private:
  std::uint64_t seed_;
  std::map<std::string, CharacterSpec> characters_;
  std::map<std::string, int> palette_index_;
  CharacterSpec defaults_;
};

} // namespace crowd
