#include "host/scenario/agent_setup_archive.h"

#include "host/checkpoint/archive.h"

namespace crowd {

void save_agent_setup(ArchiveWriter& out, const AgentSetup& setup) {
  out.put(setup.position);
  out.put(setup.goal);
  const AgentParams& p = setup.params;
  out.put(p.radius);
  out.put(p.max_speed);
  out.put(p.max_accel);
  out.put(p.avoidance);
  out.put(p.avoidance_name);
  out.put(p.separation_weight);
  out.put(p.collision_query_range);
  out.put(p.arrival_radius);
  out.put(p.on_arrival);
  out.put(p.type);
  out.put(setup.json_path);
  out.put(setup.start_time);
  out.put(static_cast<std::uint64_t>(setup.waypoints.size()));
  for (const RouteWaypoint& w : setup.waypoints) {
    out.put(w.position);
    out.put(w.wait);
  }
}

AgentSetup restore_agent_setup(ArchiveReader& in) {
  AgentSetup setup;
  in.get(setup.position);
  in.get(setup.goal);
  AgentParams& p = setup.params;
  in.get(p.radius);
  in.get(p.max_speed);
  in.get(p.max_accel);
  in.get(p.avoidance);
  in.get(p.avoidance_name);
  in.get(p.separation_weight);
  in.get(p.collision_query_range);
  in.get(p.arrival_radius);
  in.get(p.on_arrival);
  in.get(p.type);
  in.get(setup.json_path);
  in.get(setup.start_time);
  setup.waypoints.resize(in.count());
  for (RouteWaypoint& w : setup.waypoints) {
    in.get(w.position);
    in.get(w.wait);
  }
  return setup;
}

} // namespace crowd
