// RiMEA test 10, allocation of escape routes (RiMEA 3.0, test 10): persons in twelve
// rooms of a floor with a main and a secondary exit are each assigned one exit, and must
// leave through it. As JuPedSim's script (systemtest/rimea_tests/test_10: 23 persons in 12
// rooms, two groups, one per exit) the assignment includes persons sent to the farther exit,
// so that following the assignment differs from taking the nearest.
#include "host/verify/line_crossings.h"
#include "host/verify/rimea_common.h"
#include "host/verify/rimea_office_floor.h"
#include "host/verify/rimea_suite.h"
#include "host/verify/verify_run.h"

namespace crowd {
namespace {

/// Rooms 0-2 and 6-8 are in the left half. Assigned exit per room: the nearer one, except
/// rooms 1 and 7 (left half, sent right) and room 4 (right half, sent left).
bool assigned_right(int room) {
  const bool right_half = room % (kOfficeRooms / 2) >= kOfficeRooms / 4;
  const bool swapped = room == 1 || room == 7 || room == 4;
  return right_half != swapped;
}

/// Two persons per room, one in room 11: 23 persons.
int persons(int room) {
  return room == kOfficeRooms - 1 ? 1 : 2;
}

std::vector<VerifyScenario> scenarios(bool) {
  Scenario s = office_floor("rimea_10_exit_assignment", 120.0f);
  for (int room = 0; room < kOfficeRooms; ++room) {
    const auto [lo, hi] = office_room(room);
    s.groups.push_back(
        rect_group(s, persons(room), lo, hi, office_exit_goal(assigned_right(room))));
  }
  return {{"rimea_10_exit_assignment", s,
           "RiMEA 3.0 test 10: persons in 12 rooms are assigned the main or the secondary exit "
           "and use the one assigned",
           "23 agents, 2 per room (1 in room 11), groups[r] is room r (0-5 below the corridor, "
           "6-11 above, left to right); rooms 1, 7 are sent to the right exit and room 4 to the "
           "left one, the farther exit for each."}};
}

TestOutcome run(const std::vector<VerifyScenario>& scenes, const VerifyContext& context) {
  const auto [la, lb] = office_exit_line(false);
  const auto [ra, rb] = office_exit_line(true);
  LineCrossings left(la, lb), right(ra, rb);
  const VerifyRun r = run_verify_scenario(scenes.front(), context,
                                          {[&](const Simulation& s) { left.observe(s); },
                                           [&](const Simulation& s) { right.observe(s); }});
  int as_assigned = 0, other = 0, total = 0;
  int id = 0;
  for (int room = 0; room < kOfficeRooms; ++room) {
    for (int k = 0; k < persons(room); ++k, ++id) {
      ++total;
      const LineCrossings& mine = assigned_right(room) ? right : left;
      const LineCrossings& theirs = assigned_right(room) ? left : right;
      if (theirs.first_time(id))
        ++other;
      else if (mine.first_time(id))
        ++as_assigned;
    }
  }
  TestOutcome out;
  out.figure = std::to_string(as_assigned) + "/" + std::to_string(total) +
               " through the assigned exit, " + std::to_string(other) + " through the other";
  out.values["persons"] = total;
  out.values["through_assigned_exit"] = as_assigned;
  out.values["through_other_exit"] = other;
  out.values["evacuation_time_s"] = r.seconds;
  out.passed = as_assigned == total && other == 0;
  return out;
}

} // namespace

VerifyTest rimea_test_10() {
  return {10,
          "Allocation of escape routes",
          "RiMEA 3.0 test 10; 23 persons in 12 rooms as JuPedSim systemtest/rimea_tests/test_10",

          "every person leaves through the exit assigned (23 of 23, none through the "
          "other)",
          scenarios,
          run};
}

} // namespace crowd
