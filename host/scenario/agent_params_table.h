// Every agent's parameters as the Crowd (host/sim/crowd.h) and the run's setups
// (agent_setup_table.h) keep them: each agent's own numbers, and what agents share (the avoidance
// parameters, their name, the type label) held once for all who share it.
//
// An AgentParams is 264 bytes, 216 of them the shared part: a crowd of one group held it whole
// for every agent, and the scenario's setups again (AgentSetup). On the 64,000-agent bench scene
// the crowd's record of its agents took 20.3 MB; held this way, 5.3, of which the parameters 2.4
// (heaptrack, 2026-11-29).
#pragma once

#include "host/scenario/scenario.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace crowd {

class AgentParamsTable {
public:
  /// Appends the parameters of the next agent.
  void push_back(const AgentParams& params);
  /// Replaces agent `id`'s parameters. A shared part no agent has any more is dropped, so that
  /// a game updating parameters every frame does not grow the table.
  void set(std::size_t id, const AgentParams& params);
  /// Room for `agents` agents' own numbers in all.
  void reserve(std::size_t agents) { own_.reserve(agents); }
  /// Drops the last agent's parameters.
  void pop_back();
  /// Agent `id`'s parameters, as given.
  AgentParams operator[](std::size_t id) const;
  std::size_t size() const { return own_.size(); }

  float radius(std::size_t id) const { return own_[id].radius; }
  float max_speed(std::size_t id) const { return own_[id].max_speed; }
  std::int32_t query_filter_type(std::size_t id) const { return own_[id].query_filter_type; }
  float arrival_radius(std::size_t id) const { return own_[id].arrival_radius; }
  OnArrival on_arrival(std::size_t id) const { return own_[id].on_arrival; }
  ArrivalRule arrival(std::size_t id) const { return own_[id].arrival; }
  const std::string& type(std::size_t id) const {
    return shared_[static_cast<std::size_t>(own_[id].shared)].type;
  }

  /// The distinct shared parts held (that some agent has).
  std::size_t shared_count() const { return shared_.size() - unused_.size(); }
  std::size_t memory_bytes() const;

private:
  /// What agents share.
  struct Shared {
    AvoidanceParams avoidance;
    std::string avoidance_name;
    std::string type;
    bool operator==(const Shared&) const = default;
  };
  /// What is each agent's own (what a group draws per agent, and a few bytes more).
  struct Own {
    float radius = 0.0f, max_speed = 0.0f, max_accel = 0.0f, separation_weight = 0.0f;
    float arrival_radius = 0.0f;
    float collision_query_range = 0.0f; ///< When has_query_range.
    std::int32_t query_filter_type = 0;
    std::int32_t shared = 0; ///< Index into shared_.
    bool has_query_range = false;
    OnArrival on_arrival = OnArrival::Stop;
    ArrivalRule arrival = ArrivalRule::Contact;
    StandoffRule standoff = StandoffRule::KeepRight;
  };

  Own own_of(const AgentParams& params);
  /// The index of `params`' shared part, added when new; counts one more agent having it.
  std::int32_t take_shared(const AgentParams& params);
  /// Counts one agent fewer having shared part `index`, dropping it when none has it.
  void release_shared(std::int32_t index);
  static std::size_t hash_of(const Shared& shared);

  std::vector<Own> own_;
  std::vector<Shared> shared_;
  std::vector<std::uint32_t> holders_; ///< [shared] agents having it
  std::vector<std::int32_t> unused_;   ///< Indices of shared_ dropped, to be reused.
  std::unordered_multimap<std::size_t, std::int32_t> shared_by_hash_;
};

} // namespace crowd
