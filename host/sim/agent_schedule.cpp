#include "host/sim/agent_schedule.h"

#include "cuda/core/parallel_agents.h"
#include "host/checkpoint/archive.h"

#include <algorithm>
#include <cmath>

namespace crowd {
namespace {

/// Times in a scenario are floats (0.3f = 0.30000001192...) and run time is step x the
/// decimal dt (0.30000000000000004 at step 3 of 0.1): a relative slack far below float
/// precision makes "start at 0.3" mean step 3, not step 4.
bool has_come(double time, double now) {
  return time <= now + 1e-6 * std::max(1.0, std::abs(now));
}

bool present(AgentPhase phase) {
  return phase != AgentPhase::Pending && phase != AgentPhase::Removed;
}

} // namespace

AgentSchedule::AgentSchedule(float agent_height)
    : agent_height_(agent_height), contact_arrival_(agent_height) {}

bool AgentSchedule::identity() const {
  return in_entry_order_ && entered_ == static_cast<int>(routes_.size());
}

glm::vec3 AgentSchedule::target(const AgentPlacement& setup, const Route& route) const {
  return route.next_waypoint < setup.waypoints.size()
             ? setup.waypoints[route.next_waypoint].position
             : setup.goal;
}

void AgentSchedule::enter(int id, const AgentSetupTable& setups, Crowd& crowd) {
  Route& route = routes_[static_cast<std::size_t>(id)];
  AgentSetup first_leg = setups.setup(static_cast<std::size_t>(id));
  first_leg.goal = target(first_leg, route);
  route.backend_id = crowd.add_agent(first_leg);
  if (agent_of_backend_.size() <= static_cast<std::size_t>(route.backend_id))
    agent_of_backend_.resize(static_cast<std::size_t>(route.backend_id) + 1, -1);
  agent_of_backend_[static_cast<std::size_t>(route.backend_id)] = id;
  in_entry_order_ = in_entry_order_ && route.backend_id == id;
  ++entered_;
  phases_[static_cast<std::size_t>(id)] = AgentPhase::Walking;
}

void AgentSchedule::add_agents(const AgentSetupTable& setups, std::size_t first, Crowd& crowd,
                               double now) {
  for (std::size_t i = first; i < setups.size(); ++i) {
    routes_.emplace_back();
    phases_.push_back(AgentPhase::Pending);
    if (!has_come(setups[i].start_time, now)) {
      waiting_to_enter_.push_back(static_cast<int>(i));
      continue;
    }
    try {
      enter(static_cast<int>(i), setups, crowd);
    } catch (...) {
      // The crowd refused it (no navmesh near): the agent is not made known.
      routes_.pop_back();
      phases_.pop_back();
      throw;
    }
  }
  std::stable_sort(waiting_to_enter_.begin(), waiting_to_enter_.end(), [&](int a, int b) {
    return setups[static_cast<std::size_t>(a)].start_time <
           setups[static_cast<std::size_t>(b)].start_time;
  });
  refresh_views(setups, crowd);
}

bool AgentSchedule::place_is_free(const AgentSetupTable& setups, int id,
                                  std::span<const glm::vec3> positions) const {
  const auto index = static_cast<std::size_t>(id);
  const AgentPlacement& agent = setups[index];
  const float radius = setups.params().radius(index);
  for (std::size_t j = 0; j < routes_.size(); ++j) {
    if (!present(phases_[j]) || static_cast<int>(j) == id) {
      continue;
    }
    const glm::vec3& other = positions[j];
    const float reach = radius + setups.params().radius(j);
    const float dx = other.x - agent.position.x, dz = other.z - agent.position.z;
    if (dx * dx + dz * dz < reach * reach && std::abs(other.y - agent.position.y) < agent_height_) {
      return false;
    }
  }
  return true;
}

bool AgentSchedule::within_arrival_radius(const AgentSetupTable& setups, std::size_t id,
                                          const glm::vec3& at) const {
  const glm::vec3 goal = target(setups[id], routes_[id]);
  const float dx = at.x - goal.x, dz = at.z - goal.z;
  const float radius = setups.params().arrival_radius(id);
  return dx * dx + dz * dz <= radius * radius && std::fabs(at.y - goal.y) <= agent_height_;
}

void AgentSchedule::find_contact_arrivals(const AgentSetupTable& setups,
                                          std::span<const glm::vec3> at) {
  const std::size_t n = routes_.size();
  by_contact_.assign(n, 0);
  contact_candidates_.assign(n, 0);
  parallel_for_each_agent(static_cast<int>(n), kScanGrain, [&](int agent) {
    const auto i = static_cast<std::size_t>(agent);
    const AgentPlacement& s = setups[i];
    contact_candidates_[i] = phases_[i] == AgentPhase::Walking &&
                             routes_[i].next_waypoint >= s.waypoints.size() &&
                             setups.params().arrival(i) == ArrivalRule::Contact && !following(s);
  });
  if (std::find(contact_candidates_.begin(), contact_candidates_.end(), 1) ==
      contact_candidates_.end())
    return;
  for (const int id : contact_arrival_.find(setups, phases_, at, contact_candidates_))
    by_contact_[static_cast<std::size_t>(id)] = 1;
}

void AgentSchedule::after_step(const AgentSetupTable& setups, Crowd& crowd,
                               MetricsCollector& metrics, double now) {
  refresh_views(setups, crowd); // The backend has stepped since the last copy.
  const std::span<const glm::vec3> at = positions(crowd);
  // Decided on the phases the step began with, before any arrival below, so that arrival
  // spreads through a cluster one contact per step whatever the id order.
  find_contact_arrivals(setups, at);
  // Which agents may act, judged on the workers: the tests below less the follower rule, which
  // a leader arriving earlier in this pass can end. The pass in id order then visits only
  // these, and acts exactly as a pass over every agent would; the agents' own tests are
  // repeated there.
  may_act_.assign(routes_.size(), 0);
  parallel_for_each_agent(static_cast<int>(routes_.size()), kScanGrain, [&](int agent) {
    const auto i = static_cast<std::size_t>(agent);
    if (phases_[i] == AgentPhase::Waiting)
      may_act_[i] = has_come(routes_[i].wait_until, now);
    else if (phases_[i] == AgentPhase::Walking)
      may_act_[i] = by_contact_[i] || within_arrival_radius(setups, i, at[i]);
  });
  for (std::size_t i = 0; i < routes_.size(); ++i) {
    if (!may_act_[i])
      continue;
    Route& route = routes_[i];
    const AgentPlacement& s = setups[i];
    if (phases_[i] == AgentPhase::Waiting) {
      if (has_come(route.wait_until, now)) {
        ++route.next_waypoint;
        phases_[i] = AgentPhase::Walking;
        crowd.request_path(route.backend_id, target(s, route));
      }
      continue;
    }
    if (phases_[i] != AgentPhase::Walking || following(s)) {
      continue;
    }
    const bool within_radius = within_arrival_radius(setups, i, at[i]);
    if (!within_radius && !by_contact_[i]) {
      continue;
    }
    if (route.next_waypoint < s.waypoints.size()) {
      const float wait = s.waypoints[route.next_waypoint].wait;
      if (wait > 0.0f) {
        // Standing, the agent still takes part as an obstacle (stop_agent), like an arrived one.
        crowd.reset_move_target(route.backend_id);
        phases_[i] = AgentPhase::Waiting;
        route.wait_until = now + static_cast<double>(wait);
      } else {
        ++route.next_waypoint;
        crowd.request_path(route.backend_id, target(s, route));
      }
      continue;
    }
    metrics.record_arrival(static_cast<int>(i), now, !within_radius);
    if (setups.params().on_arrival(i) == OnArrival::Remove) {
      crowd.remove_agent(route.backend_id);
      phases_[i] = AgentPhase::Removed;
    } else {
      crowd.reset_move_target(route.backend_id);
      phases_[i] = AgentPhase::Arrived;
    }
  }

  refresh_views(setups, crowd);
  std::size_t kept = 0, k = 0;
  // The list is sorted by start time: from the first agent not due on, nobody is due.
  for (; k < waiting_to_enter_.size(); ++k) {
    const int id = waiting_to_enter_[k];
    const auto index = static_cast<std::size_t>(id);
    if (phases_[index] == AgentPhase::Removed) {
      continue; // Removed through the API before it entered.
    }
    if (!has_come(setups[index].start_time, now)) {
      break;
    }
    if (place_is_free(setups, id, positions(crowd))) {
      enter(id, setups, crowd);
      metrics.record_start(id, now);
      // The copied view must show the newcomer before the next agent tests its place.
      refresh_views(setups, crowd);
    } else {
      waiting_to_enter_[kept++] = id;
    }
  }
  for (; k < waiting_to_enter_.size(); ++k) {
    waiting_to_enter_[kept++] = waiting_to_enter_[k];
  }
  waiting_to_enter_.resize(kept);
}

void AgentSchedule::remove_agent(int id, Crowd& crowd) {
  const auto index = static_cast<std::size_t>(id);
  if (present(phases_[index])) {
    crowd.remove_agent(routes_[index].backend_id);
  }
  phases_[index] = AgentPhase::Removed;
}

void AgentSchedule::set_goal(int id, const AgentPlacement& setup, Crowd& crowd) {
  const auto index = static_cast<std::size_t>(id);
  Route& route = routes_[index];
  route.next_waypoint = setup.waypoints.size(); // Past every waypoint: the goal.
  if (phases_[index] == AgentPhase::Pending) {
    return;
  }
  phases_[index] = AgentPhase::Walking;
  crowd.request_path(route.backend_id, setup.goal);
}

void AgentSchedule::replan(int id, const AgentPlacement& setup, Crowd& crowd) {
  const Route& route = routes_.at(static_cast<std::size_t>(id));
  if (phases_[static_cast<std::size_t>(id)] == AgentPhase::Walking)
    crowd.request_path(route.backend_id, target(setup, route));
}

void AgentSchedule::targets(const AgentSetupTable& setups, std::vector<glm::vec3>& out) const {
  out.resize(routes_.size());
  parallel_for_each_agent(static_cast<int>(routes_.size()), kScanGrain, [&](int agent) {
    const auto i = static_cast<std::size_t>(agent);
    out[i] = target(setups[i], routes_[i]);
  });
}

std::span<const glm::vec3> AgentSchedule::positions(const Crowd& crowd) const {
  return identity() ? crowd.positions() : std::span<const glm::vec3>(positions_);
}

std::span<const glm::vec2> AgentSchedule::velocities(const Crowd& crowd) const {
  return identity() ? crowd.velocities() : std::span<const glm::vec2>(velocities_);
}

void AgentSchedule::refresh_views(const AgentSetupTable& setups, const Crowd& crowd) {
  if (identity()) {
    positions_.clear();
    velocities_.clear();
    return;
  }
  const std::span<const glm::vec3> p = crowd.positions();
  const std::span<const glm::vec2> v = crowd.velocities();
  positions_.resize(routes_.size());
  velocities_.resize(routes_.size());
  for (std::size_t i = 0; i < routes_.size(); ++i) {
    const int b = routes_[i].backend_id;
    positions_[i] = b >= 0 ? p[static_cast<std::size_t>(b)] : setups[i].position;
    velocities_[i] = b >= 0 ? v[static_cast<std::size_t>(b)] : glm::vec2(0.0f);
  }
}

namespace {

// A route's fields in a checkpoint (host/checkpoint/archive.h), shared by save and restore.
constexpr auto kRouteFields = [](auto& archive, auto& r) {
  archive.fields(r.backend_id, r.next_waypoint, r.wait_until);
};

} // namespace

void AgentSchedule::save(ArchiveWriter& out) const {
  out.put_records(routes_, kRouteFields);
  out.fields(phases_, waiting_to_enter_, agent_of_backend_, entered_, in_entry_order_, positions_,
             velocities_);
}

void AgentSchedule::restore(ArchiveReader& in, const AgentSetupTable& setups,
                            std::size_t backend_agents) {
  in.get_records(routes_, kRouteFields);
  in.get(phases_);
  in.expect(phases_.size(), routes_.size(), "the number of agent phases");
  in.fields(waiting_to_enter_, agent_of_backend_, entered_, in_entry_order_, positions_,
            velocities_);
  in.expect(routes_.size(), setups.size(), "the number of scheduled agents");
  in.expect(agent_of_backend_.size(), backend_agents, "the number of agents in the backend");
  if (entered_ < 0 || static_cast<std::size_t>(entered_) != agent_of_backend_.size())
    in.fail("the count of agents entered does not match the backend's");
  for (std::size_t b = 0; b < agent_of_backend_.size(); ++b) {
    const int id = agent_of_backend_[b];
    if (id < 0 || static_cast<std::size_t>(id) >= routes_.size() ||
        routes_[static_cast<std::size_t>(id)].backend_id != static_cast<int>(b))
      in.fail("the agent ids of the backend's agents do not match their routes");
  }
  for (std::size_t i = 0; i < routes_.size(); ++i) {
    const Route& route = routes_[i];
    if (route.backend_id < -1 || route.backend_id >= static_cast<int>(backend_agents))
      in.fail("agent " + std::to_string(i) + " has no agent in the backend");
    if (route.next_waypoint > setups[i].waypoints.size())
      in.fail("agent " + std::to_string(i) + " heads for a waypoint it does not have");
    if (static_cast<std::uint8_t>(phases_[i]) > static_cast<std::uint8_t>(AgentPhase::Waiting))
      in.fail("agent " + std::to_string(i) + " has no such phase");
  }
  for (const int id : waiting_to_enter_)
    if (id < 0 || static_cast<std::size_t>(id) >= routes_.size())
      in.fail("an agent waiting to enter does not exist");
  if ((!positions_.empty() && positions_.size() != routes_.size()) ||
      velocities_.size() != positions_.size())
    in.fail("the positions shown do not match the agents");
}

} // namespace crowd
