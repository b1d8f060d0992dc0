// Which character each agent is in a film shot, and how it looks: a property of the film, drawn
// from the scenario's seed and the agent's id, type and size (scenario extension `characters`,
// docs/scenario-extensions.md). The simulation never reads it.
#pragma once

#include "host/scenario/character_clips.h"

#include <array>
#include <cstdint>
#include <glm/glm.hpp>
#include <map>
#include <set>
#include <string>

namespace crowd {

/// Eight colours far apart in hue and light (Okabe & Ito's colour-blind-safe palette, "Color
/// Universal Design", 2008, in linear-ish sRGB fractions): the film exports' colours of types
/// that name none, and `crowd render --colour type`'s colours (host/render/agent_style.h).
inline constexpr std::array<glm::vec3, 8> kOkabeItoPalette{{{0.90f, 0.62f, 0.00f},
                                                            {0.34f, 0.71f, 0.91f},
                                                            {0.00f, 0.62f, 0.45f},
                                                            {0.94f, 0.89f, 0.26f},
                                                            {0.00f, 0.45f, 0.70f},
                                                            {0.84f, 0.37f, 0.00f},
                                                            {0.80f, 0.47f, 0.65f},
                                                            {0.60f, 0.60f, 0.60f}}};

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
