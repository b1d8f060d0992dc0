#include "host/scenario/scenario_writer.h"

#include "host/scenario/param_table.h"

#include <algorithm>
#include <charconv>
#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>

namespace crowd {

namespace {

using nlohmann::ordered_json;

/// The shortest decimal that reads back to `value` as a float, held as a double: 0.1f is
/// written 0.1 rather than 0.10000000149011612.
ordered_json number(float value) {
  char text[32];
  const auto end = std::to_chars(text, text + sizeof text, value).ptr;
  double decimal = static_cast<double>(value);
  std::from_chars(text, end, decimal);
  return decimal;
}

ordered_json xz(glm::vec2 p) {
  return ordered_json::array({number(p.x), number(p.y)});
}

ordered_json point(const PointSpec& p) {
  if (p.has_height) {
    return ordered_json::array({number(p.position.x), number(p.position.y), number(p.position.z)});
  }
  return ordered_json::array({number(p.position.x), number(p.position.z)});
}

ordered_json rect(glm::vec2 lo, glm::vec2 hi) {
  return ordered_json::array({xz(lo), xz(hi)});
}

/// Every parameter of `table` in `params` into `object`, in the table's order, as the reader
/// reads them back.
template <class P>
void write_table(ordered_json& object, std::span<const ParamSpec<P>> table, const P& params) {
  for (const ParamSpec<P>& spec : table) {
    const std::string key(spec.key);
    switch (spec.kind) {
    case ParamKind::Real:
      object[key] = number(params.*spec.real);
      break;
    case ParamKind::Whole:
      object[key] = params.*spec.integer;
      break;
    case ParamKind::Flag:
      object[key] = params.*spec.integer != 0;
      break;
    case ParamKind::Choice: {
      // An index out of range (only from the API unchecked) is written as it is: the reader
      // refuses it.
      const std::int32_t index = params.*spec.integer;
      if (index >= 0 && static_cast<std::size_t>(index) < spec.choices.size())
        object[key] = std::string(spec.choices[static_cast<std::size_t>(index)]);
      else
        object[key] = index;
      break;
    }
    }
  }
}

ordered_json avoidance(const AgentParams& params) {
  const std::pair<std::string_view, AvoidancePreset> presets[] = {
      {"low", AvoidancePreset::Low},
      {"medium", AvoidancePreset::Medium},
      {"good", AvoidancePreset::Good},
      {"high", AvoidancePreset::High}};
  for (const auto& [name, preset] : presets) {
    if (params.avoidance_name == name && params.avoidance == avoidance_preset(preset))
      return std::string(name);
  }
  const AvoidanceParams& a = params.avoidance;
  ordered_json object;
  switch (a.model) {
  case kAvoidanceMass:
    object["model"] = "mass";
    write_table<MassAvoidanceParams>(object, kMassParams, a.mass);
    break;
  case kAvoidanceOrca:
    object["model"] = "orca";
    write_table<OrcaAvoidanceParams>(object, kOrcaParams, a.orca);
    break;
  case kAvoidanceTtc:
    object["model"] = "ttc";
    write_table<TtcAvoidanceParams>(object, kTtcParams, a.ttc);
    break;
  default:
    write_table<AvoidanceParams>(object, kSamplingParams, a);
  }
  return object;
}

const char* on_arrival_name(OnArrival on_arrival) {
  return on_arrival == OnArrival::Remove ? "remove" : "stop";
}

/// The parameter keys of `params` into `object`: all of them when `reference` is empty (the
/// `defaults` object), otherwise those that differ from `reference` (what the reader starts
/// an agent or a group from). `group` adds its distributions as {"uniform": [a, b]}.
void write_params(ordered_json& object, const AgentParams& params,
                  const std::optional<AgentParams>& reference, const GroupSpec* group) {
  const auto put = [&](const char* key, float value, float reference_value,
                       const std::optional<Distribution>* distribution) {
    if (distribution != nullptr && distribution->has_value()) {
      object[key] = {{"uniform", {number((*distribution)->lo), number((*distribution)->hi)}}};
    } else if (!reference || value != reference_value) {
      object[key] = number(value);
    }
  };
  const AgentParams base = reference.value_or(params);
  put("radius", params.radius, base.radius, group ? &group->radius : nullptr);
  put("max_speed", params.max_speed, base.max_speed, group ? &group->max_speed : nullptr);
  put("max_accel", params.max_accel, base.max_accel, group ? &group->max_accel : nullptr);
  const ordered_json own_avoidance = avoidance(params);
  if (!reference || own_avoidance != avoidance(*reference))
    object["avoidance"] = own_avoidance;
  put("separation_weight", params.separation_weight, base.separation_weight,
      group ? &group->separation_weight : nullptr);
  if (group != nullptr && group->collision_query_range) {
    object["collision_query_range"] = {
        {"uniform",
         {number(group->collision_query_range->lo), number(group->collision_query_range->hi)}}};
  } else if (params.collision_query_range &&
             (!reference || reference->collision_query_range != params.collision_query_range)) {
    object["collision_query_range"] = number(*params.collision_query_range);
  }
  put("arrival_radius", params.arrival_radius, base.arrival_radius,
      group ? &group->arrival_radius : nullptr);
  if (!reference || params.on_arrival != reference->on_arrival)
    object["on_arrival"] = on_arrival_name(params.on_arrival);
  if (params.query_filter_type != base.query_filter_type ||
      (!reference && params.query_filter_type != AgentParams{}.query_filter_type))
    object["query_filter_type"] = params.query_filter_type;
}

/// Scenario extension `query_filters`: each filter's keys that differ from the navmesh's filter.
ordered_json query_filters_json(const std::vector<QueryFilterSpec>& filters) {
  ordered_json out = ordered_json::array();
  const QueryFilterSpec navmesh_filter;
  for (const QueryFilterSpec& filter : filters) {
    ordered_json entry = ordered_json::object();
    if (filter.include_flags != navmesh_filter.include_flags)
      entry["include_flags"] = filter.include_flags;
    if (filter.exclude_flags != navmesh_filter.exclude_flags)
      entry["exclude_flags"] = filter.exclude_flags;
    ordered_json costs = ordered_json::object();
    for (std::size_t area = 0; area < filter.area_costs.size(); ++area)
      if (filter.area_costs[area] != navmesh_filter.area_costs[area])
        costs[std::to_string(area)] = number(filter.area_costs[area]);
    if (!costs.empty())
      entry["area_costs"] = std::move(costs);
    out.push_back(std::move(entry));
  }
  return out;
}

ordered_json world(const WorldSpec& spec) {
  ordered_json out;
  if (spec.is_mesh()) {
    out["mesh"] = spec.mesh.string();
  } else if (spec.bounds) {
    out["bounds"] = rect(spec.bounds->min, spec.bounds->max);
    if (!spec.obstacles.empty()) {
      ordered_json obstacles = ordered_json::array();
      for (const Polygon2D& polygon : spec.obstacles) {
        ordered_json points = ordered_json::array();
        for (const glm::vec2 p : polygon)
          points.push_back(xz(p));
        obstacles.push_back(std::move(points));
      }
      out["obstacles"] = std::move(obstacles);
    }
    if (spec.periodic != PeriodicAxis::None)
      out["periodic"] = spec.periodic == PeriodicAxis::X ? "x" : "z";
  }
  const NavmeshSettings& n = spec.navmesh;
  ordered_json navmesh;
  if (n.cell_size)
    navmesh["cell_size"] = number(*n.cell_size);
  navmesh["cell_height"] = number(n.cell_height);
  if (n.agent_radius)
    navmesh["agent_radius"] = number(*n.agent_radius);
  navmesh["agent_height"] = number(n.agent_height);
  navmesh["max_climb"] = number(n.max_climb);
  navmesh["max_slope"] = number(n.max_slope);
  // The other Recast settings only where they differ from the defaults, so that files written
  // before they were keys (samples/verify) stay as they are.
  const NavmeshSettings d;
  if (n.tile_size)
    navmesh["tile_size"] = *n.tile_size;
  if (n.region_min_size != d.region_min_size)
    navmesh["region_min_size"] = n.region_min_size;
  if (n.region_merge_size != d.region_merge_size)
    navmesh["region_merge_size"] = n.region_merge_size;
  if (n.partitioning != d.partitioning)
    navmesh["partitioning"] =
        n.partitioning == NavmeshPartitioning::Monotone ? "monotone" : "layers";
  if (n.max_edge_length != d.max_edge_length)
    navmesh["max_edge_length"] = number(n.max_edge_length);
  if (n.max_edge_error != d.max_edge_error)
    navmesh["max_edge_error"] = number(n.max_edge_error);
  if (n.verts_per_poly != d.verts_per_poly)
    navmesh["verts_per_poly"] = n.verts_per_poly;
  if (n.detail_sample_distance != d.detail_sample_distance)
    navmesh["detail_sample_distance"] = number(n.detail_sample_distance);
  if (n.detail_sample_max_error != d.detail_sample_max_error)
    navmesh["detail_sample_max_error"] = number(n.detail_sample_max_error);
  out["navmesh"] = std::move(navmesh);
  if (!spec.links.empty()) {
    ordered_json links = ordered_json::array();
    const LinkSpec defaults;
    for (const LinkSpec& link : spec.links) {
      ordered_json l;
      l["start"] = point(link.start);
      l["end"] = point(link.end);
      if (link.radius)
        l["radius"] = number(*link.radius);
      if (link.bidirectional != defaults.bidirectional)
        l["bidirectional"] = link.bidirectional;
      if (link.area != defaults.area)
        l["area"] = link.area;
      if (link.flags != defaults.flags)
        l["flags"] = link.flags;
      links.push_back(std::move(l));
    }
    out["links"] = std::move(links);
  }
  return out;
}

ordered_json group_json(const GroupSpec& group, const AgentParams& defaults) {
  ordered_json out;
  out["count"] = group.count;
  if (group.spawn_kind == GroupSpec::SpawnKind::Rect) {
    out["spawn"] = {{"rect", rect(group.spawn_min, group.spawn_max)}};
  } else {
    ordered_json circle;
    circle["center"] = xz(group.circle_center);
    circle["radius"] = number(group.circle_radius);
    out["spawn"] = {{"circle", std::move(circle)}};
  }
  switch (group.goal_kind) {
  case GroupSpec::GoalKind::Rect:
    out["goal"] = {{"rect", rect(group.goal_min, group.goal_max)}};
    break;
  case GroupSpec::GoalKind::Point:
    out["goal"] = {{"point", xz(group.goal_point)}};
    break;
  case GroupSpec::GoalKind::Antipodal:
    out["goal"] = "antipodal";
    break;
  }
  if (group.base.type != AgentParams{}.type)
    out["type"] = group.base.type;
  write_params(out, group.base, defaults, &group);
  return out;
}

/// Scenario extension `types` (docs/scenario-extensions.md) as far as the parsed scenario
/// keeps it: each type used by an explicit agent with the distributions that agent draws
/// from (its constants are written on the agent itself), and each type used by a group or an
/// emitter, empty (their distributions and constants are written on them). Reading the file
/// back gives the same agents.
ordered_json types_json(const Scenario& scenario) {
  ordered_json types = ordered_json::object();
  const std::string untyped = AgentParams{}.type;
  for (const ExplicitAgentSpec& agent : scenario.agents) {
    if (agent.params.type == untyped || types.contains(agent.params.type))
      continue;
    ordered_json type = ordered_json::object();
    const auto put = [&](const char* key, const std::optional<Distribution>& d) {
      if (d)
        type[key] = {{"uniform", {number(d->lo), number(d->hi)}}};
    };
    put("radius", agent.drawn.radius);
    put("max_speed", agent.drawn.max_speed);
    put("max_accel", agent.drawn.max_accel);
    put("separation_weight", agent.drawn.separation_weight);
    put("collision_query_range", agent.drawn.collision_query_range);
    put("arrival_radius", agent.drawn.arrival_radius);
    types[agent.params.type] = std::move(type);
  }
  for (const std::vector<GroupSpec>* list : {&scenario.groups, &scenario.emitters})
    for (const GroupSpec& group : *list)
      if (group.base.type != untyped && !types.contains(group.base.type))
        types[group.base.type] = ordered_json::object();
  return types;
}

/// Depth of nested arrays: 0 for a scalar, 1 for [1, 2], 2 for [[1, 2], [3, 4]].
int array_depth(const ordered_json& value) {
  if (!value.is_array())
    return 0;
  int depth = 1;
  for (const ordered_json& element : value) {
    if (element.is_object())
      return 99;
    depth = std::max(depth, 1 + array_depth(element));
  }
  return depth;
}

/// dump()'s compact text with a space after each separator outside strings.
std::string spaced_dump(const ordered_json& value) {
  const std::string text = value.dump();
  std::string out;
  out.reserve(text.size() + text.size() / 4);
  bool in_string = false, escaped = false;
  for (const char c : text) {
    out += c;
    if (in_string) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == ',' || c == ':') {
      out += ' ';
    }
  }
  return out;
}

/// Pretty-prints with two-space indents; a value that fits in kInlineWidth characters, and
/// any point, rect or polygon, stays on one line.
void print(const ordered_json& value, int indent, std::string& out) {
  constexpr std::size_t kInlineWidth = 72;
  const std::string pad(static_cast<std::size_t>(indent + 2), ' ');
  const std::string close_pad(static_cast<std::size_t>(indent), ' ');
  const bool container = (value.is_object() || value.is_array()) && !value.empty();
  if (!container || array_depth(value) == 1 || array_depth(value) == 2) {
    out += spaced_dump(value);
    return;
  }
  if (std::string text = spaced_dump(value); text.size() <= kInlineWidth) {
    out += text;
    return;
  }
  out += value.is_object() ? "{\n" : "[\n";
  bool first = true;
  for (const auto& [key, element] : value.items()) {
    out += first ? "" : ",\n";
    first = false;
    out += pad;
    if (value.is_object())
      out += ordered_json(key).dump() + ": ";
    print(element, indent + 2, out);
  }
  out += "\n" + close_pad + (value.is_object() ? "}" : "]");
}

} // namespace

std::string write_scenario_json(const Scenario& scenario) {
  return write_scenario_json(scenario, {});
}

/// Scenario extension `events`, in file order.
ordered_json events_json(const std::vector<ObstacleEvent>& events) {
  static constexpr const char* kActions[] = {"add_obstacle", "move_obstacle", "remove_obstacle"};
  const ObstacleEvent defaults;
  ordered_json list = ordered_json::array();
  for (const ObstacleEvent& e : events) {
    ordered_json body;
    body["name"] = e.name;
    if (e.action != ObstacleEvent::Action::Remove) {
      body["position"] = point(e.position);
      if (e.action == ObstacleEvent::Action::Add) {
        if (e.shape == ObstacleEvent::Shape::Cylinder)
          body["radius"] = number(e.radius);
        else
          body["size"] = ordered_json::array({number(e.size.x), number(e.size.y)});
        if (e.height != defaults.height)
          body["height"] = number(e.height);
      }
      if (e.yaw)
        body["yaw"] = number(*e.yaw);
    }
    ordered_json entry;
    entry["time"] = number(e.time);
    entry[kActions[static_cast<std::size_t>(e.action)]] = std::move(body);
    list.push_back(std::move(entry));
  }
  return list;
}

std::string write_scenario_json(const Scenario& scenario,
                                const std::vector<std::pair<std::string, std::string>>& notes) {
  ordered_json root;
  root["name"] = scenario.name;
  for (const auto& [key, text] : notes)
    root[key] = text;
  root["seed"] = scenario.seed;
  root["dt"] = number(scenario.dt);
  if (scenario.steps) {
    root["steps"] = *scenario.steps;
  } else {
    root["duration"] = number(scenario.duration);
  }
  root["world"] = world(scenario.world);
  if (!scenario.query_filters.empty())
    root["query_filters"] = query_filters_json(scenario.query_filters);
  if (!scenario.events.empty())
    root["events"] = events_json(scenario.events);
  ordered_json defaults = ordered_json::object();
  write_params(defaults, scenario.defaults, std::nullopt, nullptr);
  root["defaults"] = std::move(defaults);
  if (ordered_json types = types_json(scenario); !types.empty())
    root["types"] = std::move(types);
  if (!scenario.agents.empty()) {
    ordered_json agents = ordered_json::array();
    for (const ExplicitAgentSpec& agent : scenario.agents) {
      ordered_json entry;
      entry["position"] = point(agent.position);
      if (agent.follow) {
        ordered_json follow;
        follow["agent"] = agent.follow->agent;
        if (agent.follow->offset)
          follow["offset"] = xz(*agent.follow->offset);
        entry["follow"] = std::move(follow);
      } else {
        entry["goal"] = point(agent.goal);
      }
      if (agent.params.type != AgentParams{}.type)
        entry["type"] = agent.params.type;
      write_params(entry, agent.params, scenario.defaults, nullptr);
      agents.push_back(std::move(entry));
    }
    root["agents"] = std::move(agents);
  }
  if (!scenario.groups.empty()) {
    ordered_json groups = ordered_json::array();
    for (const GroupSpec& group : scenario.groups)
      groups.push_back(group_json(group, scenario.defaults));
    root["groups"] = std::move(groups);
  }
  std::string out;
  print(root, 0, out);
  out += "\n";
  return out;
}

} // namespace crowd
