// Film characters (host/output/character_cast.h): who each agent is, drawn from the scenario
// seed and the agent, so that the same agent is the same character on every run.
#include "host/output/character_cast.h"

#include <gtest/gtest.h>
#include <map>
#include <set>

namespace crowd {
namespace {

CharacterSpec crowd_of_two_models() {
  CharacterSpec spec;
  spec.prototypes = {{"woman_a", 2.0f}, {"man_b", 1.0f}};
  spec.variations = 4;
  spec.model_radius = 0.3f;
  return spec;
}

TEST(CharacterCast, PrototypesAreDrawnByWeightAndVariationsCoverTheirRange) {
  const CharacterCast cast(7, {{"walker", crowd_of_two_models()}}, {"walker"});
  std::map<std::string, int> prototypes;
  std::map<int, int> variations;
  std::set<std::uint32_t> seeds;
  constexpr int kAgents = 6000;
  for (int id = 0; id < kAgents; ++id) {
    const CharacterLook look = cast.look(id, "walker", 0.3f);
    ++prototypes[look.prototype];
    ++variations[look.variation];
    seeds.insert(look.seed);
    EXPECT_LT(look.seed, 1u << 31) << "a seed fits a USD int";
  }
  ASSERT_EQ(prototypes.size(), 2u);
  // 2 : 1 within four standard deviations of a binomial draw (sd = sqrt(n p q) = 36.5).
  EXPECT_NEAR(prototypes["woman_a"], kAgents * 2 / 3, 150);
  ASSERT_EQ(variations.size(), 4u);
  for (const auto& [variation, count] : variations)
    EXPECT_NEAR(count, kAgents / 4, 180) << "variation " << variation;
  EXPECT_GT(seeds.size(), static_cast<std::size_t>(kAgents - 5)) << "seeds are per agent";
}

TEST(CharacterCast, TheSameAgentIsTheSameCharacterAndTheSeedChangesTheCast) {
  const CharacterCast cast(7, {{"walker", crowd_of_two_models()}}, {"walker"});
  const CharacterCast again(7, {{"walker", crowd_of_two_models()}}, {"walker"});
  const CharacterCast other_seed(8, {{"walker", crowd_of_two_models()}}, {"walker"});
  int differs = 0;
  for (int id = 0; id < 200; ++id) {
    const CharacterLook a = cast.look(id, "walker", 0.3f);
    const CharacterLook b = again.look(id, "walker", 0.3f);
    EXPECT_EQ(a.prototype, b.prototype);
    EXPECT_EQ(a.variation, b.variation);
    EXPECT_EQ(a.seed, b.seed);
    differs += other_seed.look(id, "walker", 0.3f).seed != a.seed;
  }
  EXPECT_EQ(differs, 200);
}

TEST(CharacterCast, ScaleFollowsTheAgentsRadiusOverTheModelRadius) {
  const CharacterCast cast(1, {{"walker", crowd_of_two_models()}}, {"agent", "walker"});
  EXPECT_FLOAT_EQ(cast.look(0, "walker", 0.36f).scale, 1.2f);
  EXPECT_FLOAT_EQ(cast.look(0, "agent", 0.4f).scale, 1.0f);  // defaults: 0.4 m models
  EXPECT_EQ(cast.look(0, "agent", 0.4f).prototype, "agent"); // no prototypes: the type label
}

TEST(CharacterCast, ColourIsPerVariationThenPerTypeThenFromThePalette) {
  CharacterSpec per_variation = crowd_of_two_models();
  per_variation.variations = 2;
  per_variation.variation_colors = {glm::vec3(1, 0, 0), glm::vec3(0, 0, 1)};
  per_variation.color = glm::vec3(0, 1, 0);
  CharacterSpec per_type;
  per_type.color = glm::vec3(0.5f, 0.5f, 0.5f);
  const CharacterCast cast(3, {{"a", per_variation}, {"b", per_type}}, {"a", "b", "c", "d"});
  for (int id = 0; id < 20; ++id) {
    const CharacterLook look = cast.look(id, "a", 0.4f);
    EXPECT_EQ(look.color, per_variation.variation_colors[static_cast<std::size_t>(look.variation)]);
    EXPECT_EQ(cast.look(id, "b", 0.4f).color, glm::vec3(0.5f));
  }
  // Types with no colour get distinct palette colours, the same for all their agents.
  EXPECT_NE(cast.look(0, "c", 0.4f).color, cast.look(0, "d", 0.4f).color);
  EXPECT_EQ(cast.look(0, "c", 0.4f).color, cast.look(9, "c", 0.4f).color);
}

} // namespace
} // namespace crowd
