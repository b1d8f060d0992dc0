// The suite's scenarios are valid scenario files: each written file reads back and places all
// of its agents, in the full and the fast variant; every test has a criterion and distinct
// file names.
#include "host/navmesh/navmesh.h"
#include "host/scenario/population.h"
#include "host/scenario/scenario_writer.h"
#include "host/verify/rimea_suite.h"

#include <gtest/gtest.h>
#include <set>

namespace crowd {
namespace {

TEST(RimeaSuite, EveryTestIsNumberedAndHasACriterion) {
  std::set<int> ids;
  for (const VerifyTest& test : rimea_suite()) {
    EXPECT_TRUE(ids.insert(test.id).second) << test.id;
    EXPECT_FALSE(test.title.empty()) << test.id;
    EXPECT_FALSE(test.reference.empty()) << test.id;
    EXPECT_FALSE(test.criterion.empty()) << test.id;
  }
  EXPECT_EQ(ids, (std::set<int>{1, 4, 6, 7, 8, 9, 10, 11, 12, 13, 15, 16}));
}

TEST(RimeaSuite, ScenariosReadBackAndPlaceEveryAgent) {
  std::set<std::string> stems;
  for (const VerifyTest& test : rimea_suite()) {
    for (const bool fast : {false, true}) {
      for (const VerifyScenario& v : test.scenarios(fast)) {
        if (!fast) {
          EXPECT_TRUE(stems.insert(v.file_stem).second) << v.file_stem;
        }
        EXPECT_EQ(v.scenario.name, v.file_stem);
        const std::string text =
            write_scenario_json(v.scenario, {{"source", v.source}, {"notes", v.notes}});
        const Scenario back = parse_scenario(text, v.file_stem + ".json");
        EXPECT_EQ(write_scenario_json(back, {{"source", v.source}, {"notes", v.notes}}), text)
            << v.file_stem;
        const NavMesh navmesh = NavMesh::build(back);
        EXPECT_EQ(populate(back, navmesh).size(), back.agent_count()) << v.file_stem;
      }
    }
  }
}

} // namespace
} // namespace crowd
