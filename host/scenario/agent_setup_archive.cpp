#include "host/scenario/agent_setup_archive.h"

#include "host/checkpoint/archive.h"
#include "host/scenario/agent_params_check.h"

#include <string>

namespace crowd {

namespace {

// One field list for save and restore (host/checkpoint/archive.h).
constexpr auto kWaypointFields = [](auto& archive, auto& w) { archive.fields(w.position, w.wait); };
constexpr auto kSetupFields = [](auto& archive, auto& setup) {
  auto& p = setup.params;
  archive.fields(setup.position, setup.goal, p.radius, p.max_speed, p.max_accel, p.avoidance,
                 p.avoidance_name, p.separation_weight, p.collision_query_range, p.arrival_radius,
                 p.on_arrival, p.arrival, p.standoff, p.type, p.query_filter_type, setup.json_path,
                 setup.start_time, setup.leader, setup.follow_offset);
};

} // namespace

void save_agent_setup(ArchiveWriter& out, const AgentSetup& setup) {
  kSetupFields(out, setup);
  out.put_records(setup.waypoints, kWaypointFields);
}

AgentSetup restore_agent_setup(ArchiveReader& in, std::size_t id) {
  AgentSetup setup;
  kSetupFields(in, setup);
  if (const auto problem = agent_params_problem(setup.params))
    in.fail("agent " + std::to_string(id) + ": " + *problem);
  in.get_records(setup.waypoints, kWaypointFields);
  return setup;
}

} // namespace crowd
