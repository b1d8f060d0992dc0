// Every agent's parameters, the shared part held once (agent_params_table.h).
#include "host/scenario/agent_params_table.h"

#include <bit>
#include <functional>

namespace crowd {

// A field added to AgentParams must be held here too, in Own or in Shared (and in operator[]).
static_assert(sizeof(AgentParams) == 264 && sizeof(AvoidanceParams) == 152,
              "AgentParams changed: hold the new field in AgentParamsTable");

namespace {

void mix(std::size_t& hash, std::size_t value) {
  // boost::hash_combine's mixing step.
  hash ^= value + 0x9e3779b97f4a7c15ull + (hash << 6) + (hash >> 2);
}

} // namespace

std::size_t AgentParamsTable::hash_of(const Shared& shared) {
  // A few fields tell most sets apart; equal hashes are compared whole (take_shared).
  const AvoidanceParams& a = shared.avoidance;
  std::size_t hash = std::hash<std::string>{}(shared.type);
  mix(hash, std::hash<std::string>{}(shared.avoidance_name));
  mix(hash, static_cast<std::size_t>(a.model));
  // Unsigned: any pattern sizes hash, those of a damaged checkpoint before it is refused too.
  mix(hash, static_cast<std::size_t>(a.adaptive_divs) * 64 +
                static_cast<std::size_t>(a.adaptive_rings) * 8 +
                static_cast<std::size_t>(a.adaptive_depth));
  mix(hash, std::bit_cast<std::uint32_t>(a.vel_bias));
  mix(hash, std::bit_cast<std::uint32_t>(a.weight_des_vel));
  mix(hash, std::bit_cast<std::uint32_t>(a.horiz_time));
  return hash;
}

std::int32_t AgentParamsTable::take_shared(const AgentParams& params) {
  Shared shared{params.avoidance, params.avoidance_name, params.type};
  const std::size_t hash = hash_of(shared);
  const auto [first, last] = shared_by_hash_.equal_range(hash);
  for (auto it = first; it != last; ++it)
    if (shared_[static_cast<std::size_t>(it->second)] == shared) {
      ++holders_[static_cast<std::size_t>(it->second)];
      return it->second;
    }
  std::int32_t index = 0;
  if (unused_.empty()) {
    index = static_cast<std::int32_t>(shared_.size());
    shared_.push_back(std::move(shared));
    holders_.push_back(1);
  } else {
    index = unused_.back();
    unused_.pop_back();
    shared_[static_cast<std::size_t>(index)] = std::move(shared);
    holders_[static_cast<std::size_t>(index)] = 1;
  }
  shared_by_hash_.emplace(hash, index);
  return index;
}

void AgentParamsTable::release_shared(std::int32_t index) {
  const auto at = static_cast<std::size_t>(index);
  if (--holders_[at] > 0)
    return;
  const auto [first, last] = shared_by_hash_.equal_range(hash_of(shared_[at]));
  for (auto it = first; it != last; ++it)
    if (it->second == index) {
      shared_by_hash_.erase(it);
      break;
    }
  shared_[at] = Shared{};
  unused_.push_back(index);
}

AgentParamsTable::Own AgentParamsTable::own_of(const AgentParams& params) {
  Own own;
  own.radius = params.radius;
  own.max_speed = params.max_speed;
  own.max_accel = params.max_accel;
  own.separation_weight = params.separation_weight;
  own.arrival_radius = params.arrival_radius;
  own.has_query_range = params.collision_query_range.has_value();
  own.collision_query_range = params.collision_query_range.value_or(0.0f);
  own.query_filter_type = params.query_filter_type;
  own.on_arrival = params.on_arrival;
  own.arrival = params.arrival;
  own.standoff = params.standoff;
  own.shared = take_shared(params);
  return own;
}

void AgentParamsTable::push_back(const AgentParams& params) {
  own_.push_back(own_of(params));
}

void AgentParamsTable::set(std::size_t id, const AgentParams& params) {
  const std::int32_t before = own_[id].shared;
  own_[id] = own_of(params); // takes the new part first: the same part is never dropped between
  release_shared(before);
}

void AgentParamsTable::pop_back() {
  const std::int32_t shared = own_.back().shared;
  own_.pop_back();
  release_shared(shared);
}

AgentParams AgentParamsTable::operator[](std::size_t id) const {
  const Own& own = own_[id];
  const Shared& shared = shared_[static_cast<std::size_t>(own.shared)];
  AgentParams params;
  params.radius = own.radius;
  params.max_speed = own.max_speed;
  params.max_accel = own.max_accel;
  params.avoidance = shared.avoidance;
  params.avoidance_name = shared.avoidance_name;
  params.separation_weight = own.separation_weight;
  if (own.has_query_range)
    params.collision_query_range = own.collision_query_range;
  params.arrival_radius = own.arrival_radius;
  params.on_arrival = own.on_arrival;
  params.arrival = own.arrival;
  params.standoff = own.standoff;
  params.type = shared.type;
  params.query_filter_type = own.query_filter_type;
  return params;
}

std::size_t AgentParamsTable::memory_bytes() const {
  std::size_t bytes = own_.capacity() * sizeof(Own) + shared_.capacity() * sizeof(Shared) +
                      holders_.capacity() * sizeof(std::uint32_t) +
                      unused_.capacity() * sizeof(std::int32_t) +
                      shared_by_hash_.size() * (sizeof(std::size_t) + 2 * sizeof(void*) + 8);
  for (const Shared& shared : shared_)
    bytes += shared.type.capacity() + shared.avoidance_name.capacity();
  return bytes;
}

} // namespace crowd
