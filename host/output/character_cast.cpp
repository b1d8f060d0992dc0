#include "host/output/character_cast.h"

#include <array>

namespace crowd {
namespace {

std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

} // namespace

CharacterCast::CharacterCast(std::uint64_t scenario_seed,
                             std::map<std::string, CharacterSpec> characters,
                             const std::set<std::string>& labels)
    : seed_(scenario_seed), characters_(std::move(characters)) {
  int index = 0;
  for (const std::string& label : labels)
    palette_index_.emplace(label, index++);
}

const CharacterSpec& CharacterCast::spec(const std::string& type) const {
  const auto it = characters_.find(type);
  return it == characters_.end() ? defaults_ : it->second;
}

CharacterLook CharacterCast::look(int id, const std::string& type, float radius) const {
  const CharacterSpec& s = spec(type);
  const std::uint64_t agent_hash =
      splitmix64(seed_ ^ splitmix64(static_cast<std::uint64_t>(static_cast<std::uint32_t>(id))));
  CharacterLook look;
  look.seed = static_cast<std::uint32_t>(agent_hash >> 33); // 31 bits: a USD int
  const std::uint64_t pick = splitmix64(agent_hash);
  look.variation = static_cast<int>(splitmix64(pick) % static_cast<std::uint64_t>(s.variations));
  look.prototype = type;
  if (!s.prototypes.empty()) {
    double total = 0.0;
    for (const WeightedPrototype& p : s.prototypes)
      total += p.weight;
    // 53 bits of the hash as a fraction in [0, 1).
    const double u = static_cast<double>(pick >> 11) * 0x1p-53 * total;
    double below = 0.0;
    look.prototype = s.prototypes.back().name;
    for (const WeightedPrototype& p : s.prototypes) {
      below += p.weight;
      if (u < below) {
        look.prototype = p.name;
        break;
      }
    }
  }
  look.scale = radius / s.model_radius;
  if (!s.variation_colors.empty()) {
    look.color = s.variation_colors[static_cast<std::size_t>(look.variation)];
  } else if (s.color) {
    look.color = *s.color;
  } else {
    const auto it = palette_index_.find(type);
    const int index = it == palette_index_.end() ? 0 : it->second;
    look.color = kOkabeItoPalette[static_cast<std::size_t>(index) % kOkabeItoPalette.size()];
  }
  return look;
}

} // namespace crowd
