// Reads and validates scenario files (shared/spec/scenario.md). Every problem becomes one
// ScenarioError naming the file, the JSON path and what is wrong, so that a user can fix the
// file without reading this code. Checks run in a fixed order (unknown keys of an object
// first, then its keys in the order the spec lists them), so a file with several problems
// always reports the same one.
#include "host/scenario/json_path.h"
#include "host/scenario/param_table.h"
#include "host/scenario/polygon2d.h"
#include "host/scenario/scenario.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <span>
#include <string_view>
#include <system_error>
#include <tuple>
#include <utility>

namespace crowd {

namespace {

std::string compose_message(const std::string& file, const std::string& json_path,
                            const std::string& problem) {
  return file + ": " + (json_path.empty() ? std::string("(root)") : json_path) + ": " + problem;
}

} // namespace

ScenarioError::ScenarioError(std::string file, std::string json_path, std::string problem)
    : std::runtime_error(compose_message(file, json_path, problem)), file_(std::move(file)),
      json_path_(json_path.empty() ? std::string("(root)") : std::move(json_path)),
      problem_(std::move(problem)) {}

int Scenario::step_count() const {
  if (steps) {
    return *steps;
  }
  // duration and dt went through float: 0.3 / 0.1 comes out as 3.0000001, which must give 3
  // steps, not 4. A relative slack of 1e-6 absorbs that rounding (float's is ~6e-8) while a
  // duration that really is a fraction of a step longer still gets its extra step.
  const double quotient = static_cast<double>(duration) / static_cast<double>(dt);
  const double steps_needed = std::ceil(quotient * (1.0 - 1e-6));
  if (!(steps_needed >= 1.0)) {
    return duration > 0.0f ? 1 : 0;
  }
  return steps_needed >= static_cast<double>(INT_MAX) ? INT_MAX : static_cast<int>(steps_needed);
}

std::vector<std::size_t> event_order(const std::vector<ObstacleEvent>& events) {
  std::vector<std::size_t> order(events.size());
  for (std::size_t i = 0; i < order.size(); ++i) {
    order[i] = i;
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return events[a].time < events[b].time; });
  return order;
}

int Scenario::peak_obstacles() const {
  int standing = 0, peak = 0;
  for (const std::size_t i : event_order(events)) {
    standing += events[i].action == ObstacleEvent::Action::Add      ? 1
                : events[i].action == ObstacleEvent::Action::Remove ? -1
                                                                    : 0;
    peak = std::max(peak, standing);
  }
  return peak;
}

std::size_t Scenario::agent_count() const {
  std::size_t total = agents.size();
  for (const std::vector<GroupSpec>* list : {&groups, &emitters}) {
    for (const GroupSpec& group : *list) {
      total += static_cast<std::size_t>(std::max(group.count, 0));
    }
  }
  return total;
}

float Scenario::max_agent_radius() const {
  float largest = 0.0f;
  bool any = false;
  for (const ExplicitAgentSpec& agent : agents) {
    largest = std::max(largest, agent.drawn.radius ? agent.drawn.radius->hi : agent.params.radius);
    any = true;
  }
  for (const std::vector<GroupSpec>* list : {&groups, &emitters}) {
    for (const GroupSpec& group : *list) {
      largest = std::max(largest, group.radius ? group.radius->hi : group.base.radius);
      any = true;
    }
  }
  // Without agents in the file the only radius agents added later through the API can be
  // expected to have is the scenario's default.
  return any ? largest : defaults.radius;
}

namespace {

using nlohmann::json;
using KeyList = std::span<const std::string_view>;

/// More agents than this in one scenario is almost certainly a typo, and ids are `int`.
constexpr std::int64_t kMaxAgents = 10'000'000;

constexpr std::string_view kTopKeys[] = {
    "name",     "seed",   "dt",         "duration",      "steps",    "world",
    "defaults", "types",  "agents",     "groups",        "emitters", "source",
    "notes",    "expect", "characters", "query_filters", "events"};
constexpr std::string_view kAnnotationKeys[] = {"source", "notes", "expect"};
constexpr std::string_view kWorldKeys[] = {"bounds",  "obstacles", "mesh",
                                           "navmesh", "periodic",  "links"};
constexpr std::string_view kLinkKeys[] = {"start",         "end",  "radius",
                                          "bidirectional", "area", "flags"};
constexpr std::string_view kNavmeshKeys[] = {"cell_size",
                                             "cell_height",
                                             "agent_radius",
                                             "agent_height",
                                             "max_climb",
                                             "max_slope",
                                             "tile_size",
                                             "region_min_size",
                                             "region_merge_size",
                                             "partitioning",
                                             "max_edge_length",
                                             "max_edge_error",
                                             "verts_per_poly",
                                             "detail_sample_distance",
                                             "detail_sample_max_error"};
constexpr std::string_view kParamKeys[] = {
    "radius",         "max_speed",         "max_accel",
    "avoidance",      "separation_weight", "collision_query_range",
    "arrival_radius", "on_arrival",        "arrival",
    "standoff",       "query_filter_type"};
constexpr std::string_view kQueryFilterKeys[] = {"include_flags", "exclude_flags", "area_costs"};
constexpr std::string_view kUniformKeys[] = {"uniform"};
constexpr std::string_view kCharacterKeys[] = {
    "walk_speed", "walk_cycle", "run_speed",  "run_cycle",        "run_from", "idle_below",
    "turn_from",  "prototypes", "variations", "variation_colors", "color",    "model_radius"};
constexpr std::string_view kPrototypeKeys[] = {"name", "weight"};
constexpr std::string_view kAgentKeys[] = {"position",  "goal",        "type",
                                           "waypoints", "start_delay", "follow"};
constexpr std::string_view kFollowKeys[] = {"agent", "offset"};
constexpr std::string_view kEventKeys[] = {"time", "add_obstacle", "move_obstacle",
                                           "remove_obstacle"};
constexpr std::string_view kEventActions[] = {"add_obstacle", "move_obstacle", "remove_obstacle"};
constexpr std::string_view kAddObstacleKeys[] = {"name", "position", "radius",
                                                 "size", "yaw",      "height"};
constexpr std::string_view kMoveObstacleKeys[] = {"name", "position", "yaw"};
constexpr std::string_view kRemoveObstacleKeys[] = {"name"};
constexpr std::string_view kGroupKeys[] = {"count", "spawn",     "goal",
                                           "type",  "waypoints", "start_delay"};
constexpr std::string_view kEmitterKeys[] = {"spawn", "goal", "rate",     "start",
                                             "end",   "type", "waypoints"};
constexpr std::string_view kWaypointKeys[] = {"point", "rect", "wait"};
constexpr std::string_view kRectKeys[] = {"rect"};
constexpr std::string_view kSpawnKeys[] = {"rect", "circle"};
constexpr std::string_view kGoalKeys[] = {"rect", "point"};
constexpr std::string_view kCircleKeys[] = {"center", "radius"};
/// The key every avoidance object may have besides its model's parameters (param_table.h).
constexpr std::string_view kModelKey[] = {"model"};

/// The keys of a parameter table, in its order.
template <class P> std::vector<std::string_view> keys_of(std::span<const ParamSpec<P>> table) {
  std::vector<std::string_view> keys;
  for (const ParamSpec<P>& spec : table)
    keys.push_back(spec.key);
  return keys;
}

bool contains(KeyList keys, std::string_view key) {
  return std::find(keys.begin(), keys.end(), key) != keys.end();
}

/// A float as read from the file: its shortest round-trip form ("0.15", not 0.15000000596...).
std::string format_float(float value) {
  char buffer[32];
  return std::string(buffer, std::to_chars(buffer, buffer + sizeof buffer, value).ptr);
}

/// A value as it would appear in the file, shortened so that a message stays one line.
std::string show(const json& value) {
  if (value.is_number_float() && !std::isfinite(value.get<double>())) {
    return format_number(value.get<double>());
  }
  std::string text = value.dump();
  constexpr std::size_t kMaxShown = 60;
  if (text.size() > kMaxShown) {
    text = text.substr(0, kMaxShown - 3) + "...";
  }
  return text;
}

std::string type_phrase(const json& value) {
  switch (value.type()) {
  case json::value_t::null:
    return "null";
  case json::value_t::object:
    return "an object";
  case json::value_t::array:
    return "an array";
  case json::value_t::string:
    return "a string";
  case json::value_t::boolean:
    return "a boolean";
  default:
    return "a number";
  }
}

/// `got 3 (a number)`: the type is named because "0.4" and 0.4 look alike in a message.
std::string got_typed(const json& value) {
  return "got " + show(value) + " (" + type_phrase(value) + ")";
}

std::string quoted_list(KeyList keys) {
  std::string out;
  for (const std::string_view key : keys) {
    out += out.empty() ? "" : ", ";
    out += key;
  }
  return out;
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) {
    row[j] = j;
  }
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

/// Where agent parameters are read: `Group` covers groups, emitters and `types`, which may
/// give a parameter as a distribution drawn per agent.
enum class ParamsContext { Defaults, Agent, Group };

/// The scenario's `types`, in file order: name and the (already validated) parameter object.
using TypeTable = std::vector<std::pair<std::string, const nlohmann::json*>>;

/// The JSON path of the parser's position, followed while nlohmann parses so that a duplicate
/// key or a number that overflows can be reported where it is (nlohmann's own messages for
/// those carry no position).
class PathTracker {
public:
  bool on_event(json::parse_event_t event, const json& parsed) {
    using E = json::parse_event_t;
    if (event == E::object_start || event == E::array_start || event == E::value) {
      if (!stack_.empty() && stack_.back().is_array) {
        ++stack_.back().elements;
      }
    }
    switch (event) {
    case E::object_start:
      stack_.push_back({false, 0, {}, {}});
      break;
    case E::array_start:
      stack_.push_back({true, 0, {}, {}});
      break;
    case E::key: {
      Frame& top = stack_.back();
      top.key = parsed.get<std::string>();
      if (!top.keys.insert(top.key).second && !in_annotation()) {
        throw DuplicateKey{current_path()};
      }
      break;
    }
    case E::object_end:
    case E::array_end:
      stack_.pop_back();
      break;
    case E::value:
      break;
    }
    return true;
  }

  /// Thrown out of the parser at the second occurrence of a key in one object.
  struct DuplicateKey {
    std::string path;
  };

  /// Path of the key just read (for a duplicate) or of the value being read (for an overflow).
  std::string current_path() const {
    std::string path;
    for (const Frame& frame : stack_) {
      path = frame.is_array
                 ? json_path::element(path, frame.elements - (&frame == &stack_.back() ? 0 : 1))
                 : json_path::member(path, frame.key);
    }
    return path;
  }

private:
  struct Frame {
    bool is_array = false;
    std::size_t elements = 0; ///< Elements started so far (arrays).
    std::string key;          ///< Last key read (objects).
    std::set<std::string> keys;
  };

  // Annotations are free-form and never read, so neither they nor their contents are held to
  // our rules (at the top level, the key just read is the front frame's key).
  bool in_annotation() const {
    return !stack_.front().is_array && contains(kAnnotationKeys, stack_.front().key);
  }

  std::vector<Frame> stack_;
};

class Reader {
public:
  explicit Reader(const std::filesystem::path& file) : file_(file), name_(file.string()) {}

  json parse(const std::string& text) const {
    PathTracker tracker;
    json::parser_callback_t callback = [&tracker](int, json::parse_event_t event, json& parsed) {
      return tracker.on_event(event, parsed);
    };
    json root;
    try {
      root = json::parse(text, callback);
    } catch (const json::parse_error& e) {
      // "[json.exception.parse_error.101] parse error at line 3, column 5: ..." without the tag.
      const std::string what = e.what();
      const std::size_t tag_end = what.find("] ");
      fail("",
           "malformed JSON: " + (tag_end == std::string::npos ? what : what.substr(tag_end + 2)));
    } catch (const PathTracker::DuplicateKey& duplicate) {
      fail(duplicate.path,
           "duplicate key (JSON parsers disagree on which value wins, so it is refused)");
    } catch (const json::out_of_range& e) {
      // nlohmann refuses numbers that overflow a double (1e999) instead of making them inf.
      const std::string what = e.what();
      const std::size_t open = what.find('\''), close = what.rfind('\'');
      const std::string literal = open != std::string::npos && close > open
                                      ? what.substr(open + 1, close - open - 1)
                                      : std::string("a number");
      fail(tracker.current_path(),
           "must be a finite number, got " + literal + ", which overflows to infinity");
    }
    return root;
  }

  Scenario read(const json& root) const {
    Scenario scenario;
    scenario.file = file_;
    expect_object(root, "", "the scenario");
    check_keys(root, "", kTopKeys);

    const std::string stem = file_.stem().string();
    scenario.name = stem.empty() ? std::string("scenario") : stem;
    if (root.contains("name")) {
      const json& name = root["name"];
      if (!name.is_string() || name.get<std::string>().empty()) {
        fail("name", "must be a non-empty string, " + got_typed(name));
      }
      scenario.name = name.get<std::string>();
    }
    if (root.contains("seed")) {
      scenario.seed = read_seed(root["seed"], "seed");
    }
    if (root.contains("dt")) {
      scenario.dt = number(root["dt"], "dt", {0.0, 1.0, true, false});
    }
    if (root.contains("duration")) {
      scenario.duration = number(root["duration"], "duration", kPositive);
    }
    if (root.contains("steps")) {
      scenario.steps = static_cast<int>(integer(root["steps"], "steps", 0, INT_MAX));
    } else {
      const double quotient =
          static_cast<double>(scenario.duration) / static_cast<double>(scenario.dt);
      if (quotient > static_cast<double>(INT_MAX)) {
        fail("duration", "gives " + format_number(std::ceil(quotient)) + " steps of dt " +
                             format_number(scenario.dt) + ", more than the limit of " +
                             std::to_string(INT_MAX));
      }
    }

    scenario.world = read_world(required(root, "", "world", "the walkable space"), "world");
    if (root.contains("query_filters")) {
      scenario.query_filters = read_query_filters(root["query_filters"], "query_filters");
    }
    query_filter_count_ = std::max<std::size_t>(1, scenario.query_filters.size());
    if (root.contains("events")) {
      scenario.events = read_events(root["events"], "events");
    }

    if (root.contains("defaults")) {
      const json& defaults = root["defaults"];
      expect_object(defaults, "defaults", "agent parameters");
      check_keys(defaults, "defaults", kParamKeys);
      read_params(defaults, "defaults", ParamsContext::Defaults, scenario.defaults, nullptr);
    }
    const TypeTable types =
        root.contains("types") ? read_types(root["types"], scenario.defaults) : TypeTable{};

    std::int64_t total_agents = 0;
    if (root.contains("agents")) {
      const json& agents = root["agents"];
      expect_array(agents, "agents", "explicit agents");
      for (std::size_t i = 0; i < agents.size(); ++i) {
        scenario.agents.push_back(
            read_agent(agents[i], json_path::element("agents", i), scenario.defaults, types));
      }
      total_agents = static_cast<std::int64_t>(agents.size());
    }
    if (root.contains("groups")) {
      const json& groups = root["groups"];
      expect_array(groups, "groups", "groups of generated agents");
      for (std::size_t i = 0; i < groups.size(); ++i) {
        const std::string path = json_path::element("groups", i);
        scenario.groups.push_back(read_group(groups[i], path, scenario.defaults, types));
        total_agents += scenario.groups.back().count;
        if (total_agents > kMaxAgents) {
          fail(json_path::member(path, "count"),
               "brings the scenario to " + std::to_string(total_agents) +
                   " agents, more than the limit of " + std::to_string(kMaxAgents));
        }
      }
    }
    if (root.contains("emitters")) {
      const json& emitters = root["emitters"];
      expect_array(emitters, "emitters", "emitters of agents over a time window");
      for (std::size_t i = 0; i < emitters.size(); ++i) {
        const std::string path = json_path::element("emitters", i);
        scenario.emitters.push_back(
            read_emitter(emitters[i], path, scenario.defaults, types, kMaxAgents - total_agents));
        total_agents += scenario.emitters.back().count;
      }
    }
    if (total_agents > kMaxAgents) {
      fail("agents", "has " + std::to_string(total_agents) + " agents, more than the limit of " +
                         std::to_string(kMaxAgents));
    }
    if (root.contains("characters")) {
      scenario.characters = read_characters(root["characters"], types);
    }
    check_leaders(scenario);
    return scenario;
  }

private:
  [[noreturn]] void fail(const std::string& path, std::string problem) const {
    throw ScenarioError(name_, path, std::move(problem));
  }

  // ---- structure ------------------------------------------------------------------------

  void expect_object(const json& value, const std::string& path, std::string_view what) const {
    if (!value.is_object()) {
      fail(path, "must be an object (" + std::string(what) + "), " + got_typed(value));
    }
  }

  void expect_array(const json& value, const std::string& path, std::string_view what) const {
    if (!value.is_array()) {
      fail(path, "must be an array (" + std::string(what) + "), " + got_typed(value));
    }
  }

  /// Unknown keys are refused rather than ignored: a misspelt "max_sped" would otherwise
  /// silently run with the default speed.
  void check_keys(const json& object, const std::string& path, KeyList allowed,
                  KeyList more_allowed = {}) const {
    for (const auto& item : object.items()) {
      const std::string& key = item.key();
      if (contains(allowed, key) || contains(more_allowed, key)) {
        continue;
      }
      std::string problem = "unknown key \"" + key + "\"";
      std::string_view suggestion;
      std::size_t best = 3; // suggest only close misspellings
      for (const KeyList list : {allowed, more_allowed}) {
        for (const std::string_view candidate : list) {
          const std::size_t distance = edit_distance(key, candidate);
          if (distance < best) {
            best = distance;
            suggestion = candidate;
          }
        }
      }
      if (!suggestion.empty()) {
        problem += " (did you mean \"" + std::string(suggestion) + "\"?)";
      }
      std::string list = quoted_list(allowed);
      if (more_allowed.size() > 0) {
        list += ", " + quoted_list(more_allowed);
      }
      fail(json_path::member(path, key), problem + "; allowed keys: " + list);
    }
  }

  const json& required(const json& object, const std::string& path, std::string_view key,
                       std::string_view what) const {
    const auto it = object.find(key);
    if (it == object.end()) {
      fail(path, "missing required key \"" + std::string(key) + "\" (" + std::string(what) + ")");
    }
    return *it;
  }

  // ---- scalars ---------------------------------------------------------------------------

  float number(const json& value, const std::string& path, const Range& range) const {
    if (!value.is_number()) {
      fail(path, "must be " + range.describe("number") + ", " + got_typed(value));
    }
    const double d = value.get<double>();
    if (!std::isfinite(d)) {
      fail(path, "must be " + range.describe("number") + ", got " + format_number(d));
    }
    const float f = static_cast<float>(d);
    if (!std::isfinite(f)) {
      fail(path, "must be " + range.describe("number") + ", got " + show(value) +
                     ", which overflows a 32-bit float to infinity");
    }
    // The float is checked too: 1e-50 is > 0 but becomes 0 when stored.
    if (!range.contains(d) || !range.contains(static_cast<double>(f))) {
      fail(path, "must be " + range.describe("number") + ", got " + show(value));
    }
    return f;
  }

  /// A JSON boolean, as 1 (true) or 0 (false).
  std::int32_t flag(const json& value, const std::string& path) const {
    if (!value.is_boolean()) {
      fail(path, "must be true or false, " + got_typed(value));
    }
    return value.get<bool>() ? 1 : 0;
  }

  /// An integer in [lo, hi]. A number with a zero fraction (2.0, 1e3) is accepted: JSON has
  /// one number type and some writers emit every number with a fraction or an exponent.
  std::int64_t integer(const json& value, const std::string& path, std::int64_t lo,
                       std::int64_t hi) const {
    const Range range{static_cast<double>(lo),
                      hi == INT64_MAX ? kUnbounded : static_cast<double>(hi)};
    const std::string expected = "must be " + range.describe("integer");
    if (!value.is_number()) {
      fail(path, expected + ", " + got_typed(value));
    }
    std::int64_t result = 0;
    if (value.is_number_unsigned()) {
      const std::uint64_t u = value.get<std::uint64_t>();
      if (u > static_cast<std::uint64_t>(hi)) {
        fail(path, expected + ", got " + show(value));
      }
      result = static_cast<std::int64_t>(u);
    } else if (value.is_number_integer()) {
      result = value.get<std::int64_t>();
    } else {
      const double d = value.get<double>();
      if (!std::isfinite(d) || d != std::floor(d)) {
        fail(path, expected + ", got " + show(value));
      }
      if (d < static_cast<double>(lo) || d > static_cast<double>(hi)) {
        fail(path, expected + ", got " + show(value));
      }
      result = static_cast<std::int64_t>(d);
    }
    if (result < lo || result > hi) {
      fail(path, expected + ", got " + show(value));
    }
    return result;
  }

  /// Any unsigned 64-bit integer, so that seeds printed by other tools are taken as they are.
  std::uint64_t read_seed(const json& value, const std::string& path) const {
    const std::string expected = "must be an integer in [0, 18446744073709551615]";
    if (!value.is_number()) {
      fail(path, expected + ", " + got_typed(value));
    }
    if (value.is_number_unsigned()) {
      return value.get<std::uint64_t>();
    }
    if (value.is_number_integer()) {
      const std::int64_t i = value.get<std::int64_t>();
      if (i < 0) {
        fail(path, expected + ", got " + show(value));
      }
      return static_cast<std::uint64_t>(i);
    }
    const double d = value.get<double>();
    // 2^64 is exactly representable; anything below it with no fraction converts exactly.
    if (!std::isfinite(d) || d != std::floor(d) || d < 0.0 || d >= 18446744073709551616.0) {
      fail(path, expected + ", got " + show(value));
    }
    return static_cast<std::uint64_t>(d);
  }

  std::string string_value(const json& value, const std::string& path,
                           std::string_view expected) const {
    if (!value.is_string()) {
      fail(path, "must be " + std::string(expected) + ", " + got_typed(value));
    }
    return value.get<std::string>();
  }

  // ---- points and rectangles -------------------------------------------------------------

  glm::vec2 point2(const json& value, const std::string& path) const {
    if (!value.is_array() || value.size() != 2) {
      fail(path, "must be a point [x, z], " + got_typed(value));
    }
    return {number(value[0], json_path::element(path, 0), kFinite),
            number(value[1], json_path::element(path, 1), kFinite)};
  }

  PointSpec point(const json& value, const std::string& path) const {
    if (!value.is_array() || (value.size() != 2 && value.size() != 3)) {
      fail(path, "must be a point [x, z] or [x, y, z], " + got_typed(value));
    }
    std::array<float, 3> c{};
    for (std::size_t i = 0; i < value.size(); ++i) {
      c[i] = number(value[i], json_path::element(path, i), kFinite);
    }
    PointSpec spec;
    spec.has_height = value.size() == 3;
    spec.position = spec.has_height ? glm::vec3(c[0], c[1], c[2]) : glm::vec3(c[0], 0.0f, c[1]);
    return spec;
  }

  /// `[[x0, z0], [x1, z1]]` with x0 < x1 and z0 < z1; `names` is how the message spells it.
  std::pair<glm::vec2, glm::vec2> rect(const json& value, const std::string& path,
                                       std::string_view names) const {
    const std::string form(names);
    if (!value.is_array() || value.size() != 2) {
      fail(path, "must be " + form + ", " + got_typed(value));
    }
    const glm::vec2 lo = point2(value[0], json_path::element(path, 0));
    const glm::vec2 hi = point2(value[1], json_path::element(path, 1));
    if (!(lo.x < hi.x && lo.y < hi.y)) {
      fail(path, "must be " + form + " with the first corner below the second in x and in z, got " +
                     show(value));
    }
    return {lo, hi};
  }

  // ---- world -----------------------------------------------------------------------------

  WorldSpec read_world(const json& value, const std::string& path) const {
    expect_object(value, path, "the walkable space");
    check_keys(value, path, kWorldKeys);
    WorldSpec world;
    const bool has_bounds = value.contains("bounds"), has_mesh = value.contains("mesh");
    if (has_bounds == has_mesh) {
      fail(path, std::string("must have exactly one of \"bounds\" (a 2D world) or \"mesh\" (an OBJ "
                             "file), got ") +
                     (has_bounds ? "both" : "neither"));
    }
    if (has_bounds) {
      const auto [lo, hi] =
          rect(value["bounds"], json_path::member(path, "bounds"), "[[xmin, zmin], [xmax, zmax]]");
      world.bounds = WorldSpec::Bounds2D{lo, hi};
    }
    if (value.contains("obstacles")) {
      const std::string obstacles_path = json_path::member(path, "obstacles");
      if (has_mesh) {
        fail(obstacles_path, "is only allowed with \"bounds\" (a 2D world); a mesh world has its "
                             "obstacles in the mesh");
      }
      const json& obstacles = value["obstacles"];
      expect_array(obstacles, obstacles_path, "polygons [[x, z], ...]");
      for (std::size_t i = 0; i < obstacles.size(); ++i) {
        world.obstacles.push_back(polygon(obstacles[i], json_path::element(obstacles_path, i)));
      }
    }
    if (has_mesh) {
      world.mesh = mesh_path(value["mesh"], json_path::member(path, "mesh"));
    }
    if (value.contains("navmesh")) {
      world.navmesh = read_navmesh(value["navmesh"], json_path::member(path, "navmesh"));
    }
    if (value.contains("periodic")) {
      world.periodic =
          periodic_axis(value["periodic"], json_path::member(path, "periodic"), has_mesh);
    }
    if (value.contains("links")) {
      const std::string links_path = json_path::member(path, "links");
      const json& links = value["links"];
      expect_array(links, links_path, "off-mesh links {\"start\": ..., \"end\": ...}");
      for (std::size_t i = 0; i < links.size(); ++i)
        world.links.push_back(link(links[i], json_path::element(links_path, i)));
    }
    return world;
  }

  /// Scenario extension `world.links` (docs/scenario-extensions.md): an off-mesh link.
  LinkSpec link(const json& value, const std::string& path) const {
    expect_object(value, path, "an off-mesh link {\"start\": [x, z], \"end\": [x, z]}");
    check_keys(value, path, kLinkKeys);
    LinkSpec link;
    link.start = point(required(value, path, "start", "[x, z] or [x, y, z]"),
                       json_path::member(path, "start"));
    link.end =
        point(required(value, path, "end", "[x, z] or [x, y, z]"), json_path::member(path, "end"));
    if (const auto it = value.find("radius"); it != value.end())
      link.radius = number(*it, json_path::member(path, "radius"), kPositive);
    if (const auto it = value.find("bidirectional"); it != value.end())
      link.bidirectional = flag(*it, json_path::member(path, "bidirectional")) != 0;
    if (const auto it = value.find("area"); it != value.end())
      link.area = static_cast<int>(integer(*it, json_path::member(path, "area"), 0, 63));
    if (const auto it = value.find("flags"); it != value.end())
      link.flags = static_cast<int>(integer(*it, json_path::member(path, "flags"), 0, 65535));
    const glm::vec3 d = link.end.position - link.start.position;
    if (!(d.x * d.x + d.z * d.z > 0.0f))
      fail(json_path::member(path, "end"), "must not be where the link starts (x/z)");
    return link;
  }

  /// Scenario extension `world.periodic` (docs/scenario-extensions.md): "x" or "z", 2D worlds
  /// only (the bounds are the period; a mesh has none).
  PeriodicAxis periodic_axis(const json& value, const std::string& path, bool mesh_world) const {
    const std::string axis = string_value(value, path, "\"x\" or \"z\"");
    if (axis != "x" && axis != "z") {
      fail(path, "must be \"x\" or \"z\", got " + show(value));
    }
    if (mesh_world) {
      fail(path, "is only allowed with \"bounds\" (a 2D world): the bounds are the period");
    }
    return axis == "x" ? PeriodicAxis::X : PeriodicAxis::Z;
  }

  Polygon2D polygon(const json& value, const std::string& path) const {
    if (!value.is_array()) {
      fail(path, "must be a polygon [[x, z], ...] of at least 3 points, " + got_typed(value));
    }
    Polygon2D points;
    for (std::size_t i = 0; i < value.size(); ++i) {
      points.push_back(point2(value[i], json_path::element(path, i)));
    }
    if (const auto defect = polygon_defect(points)) {
      fail(path, "obstacle polygon " + *defect);
    }
    return points;
  }

  std::filesystem::path mesh_path(const json& value, const std::string& path) const {
    const std::string text = string_value(value, path, "a path to an OBJ file");
    if (text.empty()) {
      fail(path, "must be a path to an OBJ file, got an empty string");
    }
    std::filesystem::path mesh(text);
    if (mesh.is_relative()) {
      mesh = file_.parent_path() / mesh;
    }
    std::error_code error;
    std::filesystem::path resolved = std::filesystem::absolute(mesh, error);
    resolved = (error ? mesh : resolved).lexically_normal();
    if (!std::filesystem::exists(resolved, error)) {
      fail(path, "file not found: " + resolved.string());
    }
    if (std::filesystem::is_directory(resolved, error)) {
      fail(path, "is a directory, not an OBJ file: " + resolved.string());
    }
    return resolved;
  }

  NavmeshSettings read_navmesh(const json& value, const std::string& path) const {
    expect_object(value, path, "Recast build settings");
    check_keys(value, path, kNavmeshKeys);
    NavmeshSettings settings;
    const auto field = [&](std::string_view key, const Range& range, float& out) {
      if (value.contains(key)) {
        out = number(value[std::string(key)], json_path::member(path, key), range);
      }
    };
    if (value.contains("cell_size")) {
      settings.cell_size =
          number(value["cell_size"], json_path::member(path, "cell_size"), kPositive);
    }
    field("cell_height", kPositive, settings.cell_height);
    if (value.contains("agent_radius")) {
      settings.agent_radius =
          number(value["agent_radius"], json_path::member(path, "agent_radius"), kPositive);
    }
    field("agent_height", kPositive, settings.agent_height);
    field("max_climb", kNonNegative, settings.max_climb);
    field("max_slope", {0.0, 90.0, true, true}, settings.max_slope);
    // The settings RecastDemo's panels offer beyond these (Sample_SoloMesh, Sample_TileMesh),
    // with the ranges of its sliders; sizes in cells, errors in cells and cell heights.
    const auto integer_field = [&](std::string_view key, std::int64_t lo, std::int64_t hi,
                                   int& out) {
      if (value.contains(key)) {
        out = static_cast<int>(
            integer(value[std::string(key)], json_path::member(path, key), lo, hi));
      }
    };
    if (value.contains("tile_size")) {
      settings.tile_size = static_cast<int>(
          integer(value["tile_size"], json_path::member(path, "tile_size"), 16, 4096));
    }
    integer_field("region_min_size", 0, 150, settings.region_min_size);
    integer_field("region_merge_size", 0, 150, settings.region_merge_size);
    read_choice(value, path, "partitioning",
                {{"watershed", NavmeshPartitioning::Watershed},
                 {"monotone", NavmeshPartitioning::Monotone},
                 {"layers", NavmeshPartitioning::Layers}},
                settings.partitioning);
    field("max_edge_length", kNonNegative, settings.max_edge_length);
    field("max_edge_error", {0.1, 3.0, false, false}, settings.max_edge_error);
    integer_field("verts_per_poly", 3, 6, settings.verts_per_poly);
    field("detail_sample_distance", kNonNegative, settings.detail_sample_distance);
    field("detail_sample_max_error", kNonNegative, settings.detail_sample_max_error);
    return settings;
  }

  // ---- agent parameters ------------------------------------------------------------------

  /// Reads the agent-parameter keys of `object` over `params` (which already holds the
  /// built-in defaults, the `defaults` object and, where one is named, the agent type's
  /// values). In a group or a type, numeric parameters may be {"uniform": [a, b]}: those land
  /// in `drawn`, constants in `params`. A constant replaces a distribution of a lower layer.
  void read_params(const json& object, const std::string& path, ParamsContext context,
                   AgentParams& params, ParamDistributions* drawn) const {
    using PD = ParamDistributions;
    // Each number's distribution, in kAgentNumberParams' order.
    constexpr std::optional<Distribution> PD::*kDistributions[] = {&PD::radius,
                                                                   &PD::max_speed,
                                                                   &PD::max_accel,
                                                                   &PD::separation_weight,
                                                                   &PD::collision_query_range,
                                                                   &PD::arrival_radius};
    static_assert(std::size(kDistributions) == std::size(kAgentNumberParams));
    for (std::size_t k = 0; k < std::size(kAgentNumberParams); ++k) {
      const ParamSpec<AgentParams>& numeric = kAgentNumberParams[k];
      const auto it = object.find(numeric.key);
      if (it == object.end()) {
        continue;
      }
      const std::string key_path = json_path::member(path, numeric.key);
      const auto set = [&](float v) {
        if (numeric.real != nullptr) {
          params.*numeric.real = v;
        } else {
          params.collision_query_range = v;
        }
        if (drawn != nullptr) {
          (drawn->*kDistributions[k]).reset();
        }
      };
      if (it->is_object() && context == ParamsContext::Group) {
        const Distribution d = uniform(*it, key_path, numeric.range);
        if (d.is_constant()) {
          set(d.lo);
        } else {
          drawn->*kDistributions[k] = d;
        }
        continue;
      }
      if (it->is_object() && it->contains("uniform")) {
        fail(key_path,
             "must be " + numeric.range.describe("number") +
                 "; {\"uniform\": [a, b]} is only allowed in groups, emitters and types, where "
                 "each agent draws its own value (" +
                 (context == ParamsContext::Agent ? "an explicit agent" : "\"defaults\"") +
                 " has one value)");
      }
      set(number(*it, key_path, numeric.range));
    }

    if (const auto it = object.find("avoidance"); it != object.end()) {
      read_avoidance(*it, json_path::member(path, "avoidance"), params);
    }
    read_choice(object, path, "on_arrival",
                {{"stop", OnArrival::Stop}, {"remove", OnArrival::Remove}}, params.on_arrival);
    read_choice(object, path, "arrival",
                {{"contact", ArrivalRule::Contact}, {"radius", ArrivalRule::Radius}},
                params.arrival);
    read_choice(object, path, "standoff",
                {{"keep_right", StandoffRule::KeepRight},
                 {"keep_left", StandoffRule::KeepLeft},
                 {"off", StandoffRule::Off}},
                params.standoff);
    if (const auto it = object.find("query_filter_type"); it != object.end()) {
      const std::string key_path = json_path::member(path, "query_filter_type");
      const auto type = integer(*it, key_path, 0, kQueryFilterTypes - 1);
      if (static_cast<std::size_t>(type) >= query_filter_count_) {
        fail(key_path, "names query filter " + std::to_string(type) + ", but query_filters " +
                           (query_filter_count_ == 1
                                ? std::string("is not given (only filter 0, the navmesh's)")
                                : "has " + std::to_string(query_filter_count_) + " (0 to " +
                                      std::to_string(query_filter_count_ - 1) + ")"));
      }
      params.query_filter_type = static_cast<std::int32_t>(type);
    }
  }

  /// Scenario extension `query_filters` (docs/scenario-extensions.md): DetourCrowd's per-type
  /// filters, at most 16, each {"include_flags", "exclude_flags", "area_costs": {"5": 10}}.
  std::vector<QueryFilterSpec> read_query_filters(const json& value,
                                                  const std::string& path) const {
    expect_array(value, path, "query filters {\"include_flags\", \"exclude_flags\", ...}");
    const auto most = static_cast<std::size_t>(kQueryFilterTypes);
    if (value.size() > most) {
      fail(path, "has " + std::to_string(value.size()) + " filters, more than DetourCrowd's " +
                     std::to_string(most));
    }
    std::vector<QueryFilterSpec> filters;
    for (std::size_t i = 0; i < value.size(); ++i) {
      const std::string at = json_path::element(path, i);
      const json& object = value[i];
      expect_object(object, at, "a query filter");
      check_keys(object, at, kQueryFilterKeys);
      QueryFilterSpec& filter = filters.emplace_back();
      if (const auto it = object.find("include_flags"); it != object.end())
        filter.include_flags = static_cast<std::uint16_t>(
            integer(*it, json_path::member(at, "include_flags"), 0, 65535));
      if (const auto it = object.find("exclude_flags"); it != object.end())
        filter.exclude_flags = static_cast<std::uint16_t>(
            integer(*it, json_path::member(at, "exclude_flags"), 0, 65535));
      if (const auto it = object.find("area_costs"); it != object.end()) {
        const std::string costs_path = json_path::member(at, "area_costs");
        expect_object(*it, costs_path, "area costs by area id {\"5\": 10}");
        for (const auto& [key, cost] : it->items()) {
          const std::string cost_path = json_path::member(costs_path, key);
          int area = -1;
          const auto [end, error] = std::from_chars(key.data(), key.data() + key.size(), area);
          if (error != std::errc{} || end != key.data() + key.size() || area < 0 ||
              area >= QueryFilterSpec::kAreas) {
            fail(cost_path, "is not an area id: area ids are 0 to " +
                                std::to_string(QueryFilterSpec::kAreas - 1));
          }
          filter.area_costs[static_cast<std::size_t>(area)] = number(cost, cost_path, kNonNegative);
        }
      }
    }
    return filters;
  }

  /// A key whose value is one of a few names, each meaning one value of T.
  template <class T>
  void read_choice(const json& object, const std::string& path, std::string_view key,
                   std::initializer_list<std::pair<std::string_view, T>> choices, T& out) const {
    const auto it = object.find(key);
    if (it == object.end()) {
      return;
    }
    const std::string key_path = json_path::member(path, key);
    std::string expected; // "a", "b" or "c"
    std::size_t k = 0;
    for (const auto& choice : choices) {
      expected += k == 0 ? "" : (k + 1 == choices.size() ? " or " : ", ");
      expected += "\"" + std::string(choice.first) + "\"";
      ++k;
    }
    const std::string text = string_value(*it, key_path, expected);
    for (const auto& [name, value] : choices) {
      if (text == name) {
        out = value;
        return;
      }
    }
    fail(key_path, "must be " + expected + ", got " + show(*it));
  }

  Distribution uniform(const json& value, const std::string& path, const Range& range) const {
    check_keys(value, path, kUniformKeys);
    const json& bounds = required(value, path, "uniform", "[a, b]");
    const std::string bounds_path = json_path::member(path, "uniform");
    if (!bounds.is_array() || bounds.size() != 2) {
      fail(bounds_path, "must be [a, b] with a <= b, " + got_typed(bounds));
    }
    Distribution d;
    d.lo = number(bounds[0], json_path::element(bounds_path, 0), range);
    d.hi = number(bounds[1], json_path::element(bounds_path, 1), range);
    if (d.lo > d.hi) {
      fail(bounds_path, "must be [a, b] with a <= b, got " + show(bounds));
    }
    return d;
  }

  void read_avoidance(const json& value, const std::string& path, AgentParams& params) const {
    if (value.is_string()) {
      const std::string name = value.get<std::string>();
      const std::pair<const char*, AvoidancePreset> presets[] = {
          {"low", AvoidancePreset::Low},
          {"medium", AvoidancePreset::Medium},
          {"good", AvoidancePreset::Good},
          {"high", AvoidancePreset::High}};
      for (const auto& [preset_name, preset] : presets) {
        if (name == preset_name) {
          params.avoidance = avoidance_preset(preset);
          params.avoidance_name = name;
          return;
        }
      }
      fail(path, "must be \"low\", \"medium\", \"good\", \"high\" or an object of avoidance "
                 "parameters, got " +
                     show(value));
    }
    if (!value.is_object()) {
      fail(path, "must be \"low\", \"medium\", \"good\", \"high\" or an object of avoidance "
                 "parameters, " +
                     got_typed(value));
    }
    // A custom object starts from "good" (the default) whatever preset the defaults named,
    // so that its meaning does not depend on other parts of the file.
    AvoidanceParams a = avoidance_preset(AvoidancePreset::Good);
    std::string model = "detour";
    if (const auto it = value.find("model"); it != value.end()) {
      const std::string model_path = json_path::member(path, "model");
      constexpr std::string_view kModels = R"(must be "detour", "ttc", "mass" or "orca", )";
      if (!it->is_string())
        fail(model_path, std::string(kModels) + got_typed(*it));
      model = it->get<std::string>();
      if (find_avoidance_model(model) == nullptr)
        fail(model_path, std::string(kModels) + "got " + show(*it));
    }
    if (model == "mass") {
      read_table<MassAvoidanceParams>(value, path, kMassParams, a.mass);
      a.model = kAvoidanceMass;
    } else if (model == "orca") {
      read_table<OrcaAvoidanceParams>(value, path, kOrcaParams, a.orca);
      a.model = kAvoidanceOrca;
    } else if (model == "ttc") {
      read_table<TtcAvoidanceParams>(value, path, kTtcParams, a.ttc);
      a.model = kAvoidanceTtc;
    } else {
      read_table<AvoidanceParams>(value, path, kSamplingParams, a);
    }
    params.avoidance = a;
    params.avoidance_name = model == "detour" ? "custom" : model;
  }

  /// The keys of `table` in `object` (besides "model"; any other key is an error), each read as
  /// its kind and checked against its limits, into `out`.
  template <class P>
  void read_table(const json& object, const std::string& path, std::span<const ParamSpec<P>> table,
                  P& out) const {
    check_keys(object, path, kModelKey, keys_of(table));
    for (const ParamSpec<P>& spec : table) {
      const auto it = object.find(spec.key);
      if (it == object.end())
        continue;
      const std::string key_path = json_path::member(path, spec.key);
      switch (spec.kind) {
      case ParamKind::Real:
        out.*spec.real = number(*it, key_path, spec.range);
        break;
      case ParamKind::Whole:
        out.*spec.integer = static_cast<std::int32_t>(
            integer(*it, key_path, static_cast<std::int64_t>(spec.range.lo),
                    static_cast<std::int64_t>(spec.range.hi)));
        break;
      case ParamKind::Flag:
        out.*spec.integer = flag(*it, key_path);
        break;
      case ParamKind::Choice:
        out.*spec.integer = choice(*it, key_path, spec.choices);
        break;
      }
    }
  }

  /// The index in `words` of a JSON string that is one of them.
  std::int32_t choice(const json& value, const std::string& path,
                      std::span<const std::string_view> words) const {
    std::string expected = "must be "; // "a", "b" or "c"
    for (std::size_t k = 0; k < words.size(); ++k) {
      expected += k == 0 ? "" : (k + 1 == words.size() ? " or " : ", ");
      expected += "\"" + std::string(words[k]) + "\"";
    }
    if (!value.is_string())
      fail(path, expected + ", " + got_typed(value));
    const std::string text = value.get<std::string>();
    for (std::size_t k = 0; k < words.size(); ++k)
      if (text == words[k])
        return static_cast<std::int32_t>(k);
    fail(path, expected + ", got " + show(value));
  }

  // ---- agents and groups -----------------------------------------------------------------

  ExplicitAgentSpec read_agent(const json& value, const std::string& path,
                               const AgentParams& defaults, const TypeTable& types) const {
    expect_object(value, path, "an agent with \"position\" and \"goal\"");
    check_keys(value, path, kAgentKeys, kParamKeys);
    ExplicitAgentSpec agent;
    agent.position = point(required(value, path, "position", "[x, z] or [x, y, z]"),
                           json_path::member(path, "position"));
    if (const auto it = value.find("follow"); it != value.end()) {
      agent.follow = read_follow(*it, json_path::member(path, "follow"));
      if (value.contains("goal"))
        fail(json_path::member(path, "goal"),
             "is not allowed with \"follow\": a follower's goal is its leader's position plus "
             "its offset");
      if (value.contains("waypoints"))
        fail(json_path::member(path, "waypoints"), "are not allowed with \"follow\"");
      agent.goal = agent.position;
    } else {
      agent.goal = point(required(value, path, "goal", "[x, z] or [x, y, z]"),
                         json_path::member(path, "goal"));
    }
    agent.params = defaults;
    apply_type(value, path, types, agent.params, agent.drawn);
    read_params(value, path, ParamsContext::Agent, agent.params, &agent.drawn);
    agent.waypoints = read_waypoints(value, path);
    agent.start_delay = read_start_delay(value, path);
    return agent;
  }

  /// Scenario extension `follow` (docs/scenario-extensions.md): {"agent": id, "offset": [x, z]}.
  /// The leader's id is checked against the scenario's agents once they are all read.
  FollowSpec read_follow(const json& value, const std::string& path) const {
    expect_object(value, path, "{\"agent\": id, \"offset\": [x, z]}");
    check_keys(value, path, kFollowKeys);
    FollowSpec follow;
    follow.agent = static_cast<int>(integer(required(value, path, "agent", "the leader's id"),
                                            json_path::member(path, "agent"), 0, kMaxAgents - 1));
    if (const auto it = value.find("offset"); it != value.end())
      follow.offset = point2(*it, json_path::member(path, "offset"));
    return follow;
  }

  /// Scenario extension `events` (docs/scenario-extensions.md): obstacles added, moved and
  /// removed by name. Replayed in time order here, so that a move or removal names an obstacle
  /// standing then and an addition a name free then.
  std::vector<ObstacleEvent> read_events(const json& value, const std::string& path) const {
    expect_array(value, path, "events {\"time\": t, \"add_obstacle\": {...}}");
    std::vector<ObstacleEvent> events;
    for (std::size_t i = 0; i < value.size(); ++i)
      events.push_back(read_event(value[i], json_path::element(path, i)));
    std::map<std::string, std::size_t> standing; // name -> the event that added it
    for (const std::size_t i : event_order(events)) {
      const ObstacleEvent& e = events[i];
      const std::string at =
          json_path::member(json_path::member(json_path::element(path, i),
                                              kEventActions[static_cast<std::size_t>(e.action)]),
                            "name");
      const auto it = standing.find(e.name);
      if (e.action == ObstacleEvent::Action::Add) {
        if (it != standing.end())
          fail(at, "\"" + e.name + "\" stands already at time " + format_number(e.time) +
                       " (added by " + json_path::element(path, it->second) + ")");
        standing[e.name] = i;
      } else if (it == standing.end()) {
        fail(at, "names no obstacle standing at time " + format_number(e.time) +
                     ": add it first (add_obstacle with \"name\": \"" + e.name + "\")");
      } else if (e.action == ObstacleEvent::Action::Remove) {
        standing.erase(it);
      } else if (e.yaw && events[it->second].shape == ObstacleEvent::Shape::Cylinder) {
        fail(json_path::member(json_path::member(json_path::element(path, i), "move_obstacle"),
                               "yaw"),
             "turns a box; \"" + e.name + "\" is a cylinder");
      }
    }
    return events;
  }

  ObstacleEvent read_event(const json& value, const std::string& path) const {
    expect_object(value, path, "an event {\"time\": t, \"add_obstacle\": {...}}");
    check_keys(value, path, kEventKeys);
    ObstacleEvent e;
    e.time = number(required(value, path, "time", "seconds from the start"),
                    json_path::member(path, "time"), kNonNegative);
    int actions = 0;
    for (std::size_t a = 0; a < std::size(kEventActions); ++a) {
      if (value.contains(kEventActions[a])) {
        e.action = static_cast<ObstacleEvent::Action>(a);
        ++actions;
      }
    }
    if (actions != 1)
      fail(path, "must have exactly one of \"add_obstacle\", \"move_obstacle\" and "
                 "\"remove_obstacle\"");
    const std::string key(kEventActions[static_cast<std::size_t>(e.action)]);
    const std::string at = json_path::member(path, key);
    const json& body = value[key];
    const KeyList keys = e.action == ObstacleEvent::Action::Add    ? KeyList(kAddObstacleKeys)
                         : e.action == ObstacleEvent::Action::Move ? KeyList(kMoveObstacleKeys)
                                                                   : KeyList(kRemoveObstacleKeys);
    expect_object(body, at, "an obstacle {\"name\": ...}");
    check_keys(body, at, keys);
    e.name = string_value(required(body, at, "name", "the obstacle's name"),
                          json_path::member(at, "name"), "a non-empty string");
    if (e.name.empty())
      fail(json_path::member(at, "name"), "must be a non-empty string");
    if (e.action == ObstacleEvent::Action::Remove)
      return e;
    e.position = point(required(body, at, "position", "[x, z] or [x, y, z]: its foot's centre"),
                       json_path::member(at, "position"));
    if (const auto it = body.find("yaw"); it != body.end())
      e.yaw = number(*it, json_path::member(at, "yaw"), kFinite);
    if (e.action == ObstacleEvent::Action::Move)
      return e;
    const bool cylinder = body.contains("radius"), box = body.contains("size");
    if (cylinder == box)
      fail(at, "must have exactly one of \"radius\" (a cylinder) and \"size\" (a box [x, z])");
    if (cylinder) {
      e.radius = number(body["radius"], json_path::member(at, "radius"), kPositive);
      if (e.yaw)
        fail(json_path::member(at, "yaw"), "turns a box; a cylinder has no yaw");
    } else {
      e.shape = ObstacleEvent::Shape::Box;
      const std::string size_at = json_path::member(at, "size");
      const glm::vec2 size = point2(body["size"], size_at);
      if (!(size.x > 0.0f) || !(size.y > 0.0f))
        fail(size_at, "must be the box's extents [x, z], both > 0, got " + show(body["size"]));
      e.size = size;
    }
    if (const auto it = body.find("height"); it != body.end())
      e.height = number(*it, json_path::member(at, "height"), kPositive);
    return e;
  }

  /// Every follower's leader is an agent of the scenario other than itself, and no agent
  /// follows itself through a chain of leaders.
  void check_leaders(const Scenario& scenario) const {
    const auto agents = static_cast<int>(scenario.agent_count());
    const auto leader_of = [&](int id) {
      return id < static_cast<int>(scenario.agents.size()) &&
                     scenario.agents[static_cast<std::size_t>(id)].follow
                 ? scenario.agents[static_cast<std::size_t>(id)].follow->agent
                 : -1;
    };
    for (std::size_t i = 0; i < scenario.agents.size(); ++i) {
      const auto& follow = scenario.agents[i].follow;
      if (!follow)
        continue;
      const std::string path =
          json_path::member(json_path::member(json_path::element("agents", i), "follow"), "agent");
      if (follow->agent >= agents)
        fail(path, "names agent " + std::to_string(follow->agent) + ", but the scenario has " +
                       std::to_string(agents) + " (ids 0 to " + std::to_string(agents - 1) +
                       ": explicit agents, then groups, then emitters)");
      // Walk the chain of leaders: back to i is a cycle; it ends within `agents` steps.
      int at = follow->agent;
      for (int hops = 0; at >= 0 && hops <= agents; ++hops) {
        if (at == static_cast<int>(i))
          fail(path, follow->agent == at
                         ? "names the agent itself"
                         : "leads back to this agent through its leaders (agent " +
                               std::to_string(follow->agent) + " follows, in the end, agent " +
                               std::to_string(i) + ")");
        at = leader_of(at);
      }
    }
  }

  GroupSpec read_group(const json& value, const std::string& path, const AgentParams& defaults,
                       const TypeTable& types) const {
    expect_object(value, path, "a group with \"count\", \"spawn\" and \"goal\"");
    check_keys(value, path, kGroupKeys, kParamKeys);
    GroupSpec group;
    group.count = static_cast<int>(integer(required(value, path, "count", "number of agents"),
                                           json_path::member(path, "count"), 1, kMaxAgents));
    read_spawn(required(value, path, "spawn", "where the agents start"),
               json_path::member(path, "spawn"), group);
    read_goal(required(value, path, "goal", "where the agents go"), json_path::member(path, "goal"),
              group);
    group.base = defaults;
    apply_type(value, path, types, group.base, group);
    read_params(value, path, ParamsContext::Group, group.base, &group);
    group.waypoints = read_waypoints(value, path);
    group.start_delay = read_start_delay(value, path);
    return group;
  }

  /// An emitter: a group whose agents enter `rate` per second over [start, end) instead of
  /// all at the start; its count follows from the window. `room` is how many agents the
  /// scenario may still have.
  GroupSpec read_emitter(const json& value, const std::string& path, const AgentParams& defaults,
                         const TypeTable& types, std::int64_t room) const {
    expect_object(value, path, "an emitter with \"spawn\", \"goal\", \"rate\" and \"end\"");
    check_keys(value, path, kEmitterKeys, kParamKeys);
    GroupSpec emitter;
    const std::string spawn_path = json_path::member(path, "spawn");
    const json& spawn = required(value, path, "spawn", "where the agents enter");
    if (!spawn.is_object()) {
      fail(spawn_path, "must be {\"rect\": [[x0, z0], [x1, z1]]}, " + got_typed(spawn));
    }
    check_keys(spawn, spawn_path, kRectKeys);
    emitter.spawn_kind = GroupSpec::SpawnKind::Rect;
    std::tie(emitter.spawn_min, emitter.spawn_max) =
        rect(required(spawn, spawn_path, "rect", "[[x0, z0], [x1, z1]]"),
             json_path::member(spawn_path, "rect"), "[[x0, z0], [x1, z1]]");
    read_goal(required(value, path, "goal", "where the agents go"), json_path::member(path, "goal"),
              emitter);

    EmissionSpec emission;
    emission.rate = number(required(value, path, "rate", "agents per second"),
                           json_path::member(path, "rate"), kPositive);
    if (value.contains("start")) {
      emission.start = number(value["start"], json_path::member(path, "start"), kNonNegative);
    }
    emission.end = number(required(value, path, "end", "seconds; no agent enters from then on"),
                          json_path::member(path, "end"),
                          {static_cast<double>(emission.start), kUnbounded, true, false});
    // Agents enter at start + k / rate for k = 0, 1, ... while that is before `end`. The
    // slack (as in step_count) keeps float noise from adding an agent exactly at `end`.
    const double window = (static_cast<double>(emission.end) - emission.start) * emission.rate;
    const double count = std::max(1.0, std::ceil(window * (1.0 - 1e-6)));
    if (count > static_cast<double>(room)) {
      fail(json_path::member(path, "rate"),
           "emits " + format_number(count) + " agents over [start, end), which brings the " +
               "scenario past the limit of " + std::to_string(kMaxAgents) + " agents");
    }
    emitter.count = static_cast<int>(count);
    emitter.emission = emission;

    emitter.base = defaults;
    apply_type(value, path, types, emitter.base, emitter);
    read_params(value, path, ParamsContext::Group, emitter.base, &emitter);
    emitter.waypoints = read_waypoints(value, path);
    return emitter;
  }

  // ---- scenario extensions: types, characters, waypoints, start delays -------------------

  /// `characters`: {"type name": {...}, ...}, how film exports show each type's agents: the
  /// locomotion clips they are matched to (positive numbers; the change to running must come
  /// above the idle speed, else no agent would ever walk), the prototypes they are drawn from
  /// by weight, their variations, colours and the radius their models are made for. A name
  /// must be one of `types` or "agent" (agents without a type).
  std::map<std::string, CharacterSpec> read_characters(const json& value,
                                                       const TypeTable& types) const {
    expect_object(value, "characters", "film characters by agent type name");
    std::map<std::string, CharacterSpec> characters;
    for (const auto& item : value.items()) {
      const std::string path = json_path::member("characters", item.key());
      const bool known = item.key() == "agent" ||
                         std::any_of(types.begin(), types.end(),
                                     [&](const auto& type) { return type.first == item.key(); });
      if (!known) {
        std::string names = "\"agent\"";
        for (const auto& type : types) {
          names += ", \"" + type.first + "\"";
        }
        fail(path, "names no agent type; the names are " + names);
      }
      const json& object = item.value();
      expect_object(object, path, "this type's film characters");
      check_keys(object, path, kCharacterKeys);
      CharacterSpec spec;
      LocomotionClips& clips = spec.clips;
      const auto read = [&](const char* key, float& field) {
        if (object.contains(key)) {
          field = number(object[key], json_path::member(path, key), kPositive);
        }
      };
      read("walk_speed", clips.walk_speed);
      read("walk_cycle", clips.walk_cycle);
      read("run_speed", clips.run_speed);
      read("run_cycle", clips.run_cycle);
      read("run_from", clips.run_from);
      read("idle_below", clips.idle_below);
      read("turn_from", clips.turn_from);
      read("model_radius", spec.model_radius);
      if (clips.run_from <= clips.idle_below) {
        fail(json_path::member(path, "run_from"), "must be above idle_below (" +
                                                      format_float(clips.idle_below) + "), got " +
                                                      format_float(clips.run_from));
      }
      if (object.contains("prototypes")) {
        spec.prototypes =
            read_prototypes(object["prototypes"], json_path::member(path, "prototypes"));
      }
      if (object.contains("variations")) {
        spec.variations = static_cast<int>(
            integer(object["variations"], json_path::member(path, "variations"), 1, 1'000'000));
      }
      if (object.contains("color")) {
        spec.color = color(object["color"], json_path::member(path, "color"));
      }
      if (object.contains("variation_colors")) {
        const std::string colors_path = json_path::member(path, "variation_colors");
        const json& colors = object["variation_colors"];
        if (!colors.is_array() || colors.size() != static_cast<std::size_t>(spec.variations)) {
          fail(colors_path, "must be an array of " + std::to_string(spec.variations) +
                                " colours [r, g, b], one per variation, " + got_typed(colors));
        }
        for (std::size_t i = 0; i < colors.size(); ++i) {
          spec.variation_colors.push_back(color(colors[i], json_path::element(colors_path, i)));
        }
      }
      characters.emplace(item.key(), std::move(spec));
    }
    return characters;
  }

  /// [{"name": "woman_a", "weight": 2}, ...]: at least one, names non-empty and distinct,
  /// weights > 0 (default 1).
  std::vector<WeightedPrototype> read_prototypes(const json& value, const std::string& path) const {
    if (!value.is_array() || value.empty()) {
      fail(path,
           "must be a non-empty array of {\"name\": ..., \"weight\": ...}, " + got_typed(value));
    }
    std::vector<WeightedPrototype> prototypes;
    for (std::size_t i = 0; i < value.size(); ++i) {
      const std::string at = json_path::element(path, i);
      expect_object(value[i], at, "a prototype: its name and weight");
      check_keys(value[i], at, kPrototypeKeys);
      WeightedPrototype prototype;
      prototype.name = string_value(required(value[i], at, "name", "the prototype's name"),
                                    json_path::member(at, "name"), "a non-empty string");
      if (prototype.name.empty()) {
        fail(json_path::member(at, "name"), "must be a non-empty string");
      }
      for (const WeightedPrototype& earlier : prototypes) {
        if (earlier.name == prototype.name) {
          fail(json_path::member(at, "name"), "repeats \"" + prototype.name + "\"");
        }
      }
      if (value[i].contains("weight")) {
        prototype.weight = number(value[i]["weight"], json_path::member(at, "weight"), kPositive);
      }
      prototypes.push_back(std::move(prototype));
    }
    return prototypes;
  }

  /// [r, g, b], each in [0, 1].
  glm::vec3 color(const json& value, const std::string& path) const {
    if (!value.is_array() || value.size() != 3) {
      fail(path, "must be a colour [r, g, b], " + got_typed(value));
    }
    constexpr Range kUnit{0.0, 1.0, false, false};
    return {number(value[0], json_path::element(path, 0), kUnit),
            number(value[1], json_path::element(path, 1), kUnit),
            number(value[2], json_path::element(path, 2), kUnit)};
  }

  /// `types`: {"name": {agent parameters}, ...}. Each is validated here, where its errors
  /// are reported (types.name.radius), whether or not an agent uses it.
  TypeTable read_types(const json& value, const AgentParams& defaults) const {
    expect_object(value, "types", "agent types by name, each an object of agent parameters");
    TypeTable types;
    for (const auto& item : value.items()) {
      const std::string path = json_path::member("types", item.key());
      if (item.key().empty()) {
        fail(path, "a type name must be a non-empty string");
      }
      expect_object(item.value(), path, "agent parameters of this type");
      check_keys(item.value(), path, kParamKeys);
      AgentParams scratch = defaults;
      ParamDistributions scratch_drawn;
      read_params(item.value(), path, ParamsContext::Group, scratch, &scratch_drawn);
      types.emplace_back(item.key(), &item.value());
    }
    return types;
  }

  /// The `type` layer: the named type's parameters over `params` (which holds the defaults),
  /// and the type name as the agents' label.
  void apply_type(const json& object, const std::string& path, const TypeTable& types,
                  AgentParams& params, ParamDistributions& drawn) const {
    const auto it = object.find("type");
    if (it == object.end()) {
      return;
    }
    const std::string type_path = json_path::member(path, "type");
    const std::string name = string_value(*it, type_path, "the name of an entry of \"types\"");
    for (const auto& [type_name, type_params] : types) {
      if (type_name == name) {
        read_params(*type_params, json_path::member("types", name), ParamsContext::Group, params,
                    &drawn);
        params.type = name;
        return;
      }
    }
    std::string known;
    for (const auto& entry : types) {
      known += (known.empty() ? "\"" : ", \"") + entry.first + "\"";
    }
    fail(type_path, "unknown type " + show(*it) +
                        (types.empty() ? std::string("; the scenario has no \"types\"")
                                       : "; the scenario's types are " + known));
  }

  /// A number in `range` or {"uniform": [a, b]} within it.
  Distribution number_or_uniform(const json& value, const std::string& path,
                                 const Range& range) const {
    if (value.is_object()) {
      return uniform(value, path, range);
    }
    const float v = number(value, path, range);
    return {v, v};
  }

  Distribution read_start_delay(const json& object, const std::string& path) const {
    const auto it = object.find("start_delay");
    return it == object.end()
               ? Distribution{}
               : number_or_uniform(*it, json_path::member(path, "start_delay"), kNonNegative);
  }

  std::vector<WaypointSpec> read_waypoints(const json& object, const std::string& path) const {
    std::vector<WaypointSpec> waypoints;
    const auto it = object.find("waypoints");
    if (it == object.end()) {
      return waypoints;
    }
    const std::string list_path = json_path::member(path, "waypoints");
    expect_array(*it, list_path, "points walked to in order before the goal");
    for (std::size_t i = 0; i < it->size(); ++i) {
      const std::string wp_path = json_path::element(list_path, i);
      const json& entry = (*it)[i];
      expect_object(entry, wp_path, "{\"point\": [x, z], \"wait\": seconds}");
      check_keys(entry, wp_path, kWaypointKeys);
      WaypointSpec waypoint;
      if (entry.contains("point") == entry.contains("rect")) {
        fail(wp_path, "must have exactly one of \"point\" ([x, z] or [x, y, z]) or \"rect\" "
                      "([[x0, z0], [x1, z1]], a point drawn per agent)");
      }
      if (entry.contains("rect")) {
        waypoint.rect =
            rect(entry["rect"], json_path::member(wp_path, "rect"), "[[x0, z0], [x1, z1]]");
      } else {
        waypoint.point = point(entry["point"], json_path::member(wp_path, "point"));
      }
      if (const auto wait = entry.find("wait"); wait != entry.end()) {
        waypoint.wait = number_or_uniform(*wait, json_path::member(wp_path, "wait"), kNonNegative);
      }
      waypoints.push_back(waypoint);
    }
    return waypoints;
  }

  /// The one key of a {"rect": ...} / {"circle": ...} style object (`allowed` has two keys).
  std::string single_key(const json& value, const std::string& path, KeyList allowed,
                         const std::string& forms) const {
    if (!value.is_object()) {
      fail(path, "must be " + forms + ", " + got_typed(value));
    }
    check_keys(value, path, allowed);
    if (value.size() != 1) {
      fail(path, "must have exactly one key, \"" + std::string(allowed[0]) + "\" or \"" +
                     std::string(allowed[1]) + "\", got " +
                     (value.empty() ? std::string("none") : show(value)));
    }
    return value.begin().key();
  }

  void read_spawn(const json& value, const std::string& path, GroupSpec& group) const {
    const std::string forms =
        "{\"rect\": [[x0, z0], [x1, z1]]} or {\"circle\": {\"center\": [x, z], \"radius\": r}}";
    const std::string kind = single_key(value, path, kSpawnKeys, forms);
    const std::string kind_path = json_path::member(path, kind);
    if (kind == "rect") {
      group.spawn_kind = GroupSpec::SpawnKind::Rect;
      std::tie(group.spawn_min, group.spawn_max) =
          rect(value["rect"], kind_path, "[[x0, z0], [x1, z1]]");
      return;
    }
    group.spawn_kind = GroupSpec::SpawnKind::Circle;
    const json& circle = value["circle"];
    expect_object(circle, kind_path, "{\"center\": [x, z], \"radius\": r}");
    check_keys(circle, kind_path, kCircleKeys);
    group.circle_center = point2(required(circle, kind_path, "center", "[x, z]"),
                                 json_path::member(kind_path, "center"));
    group.circle_radius = number(required(circle, kind_path, "radius", "a number > 0"),
                                 json_path::member(kind_path, "radius"), kPositive);
  }

  void read_goal(const json& value, const std::string& path, GroupSpec& group) const {
    const std::string forms = "\"antipodal\", {\"rect\": [[x0, z0], [x1, z1]]} or "
                              "{\"point\": [x, z]}";
    if (value.is_string()) {
      if (value.get<std::string>() != "antipodal") {
        fail(path, "must be " + forms + ", got " + show(value));
      }
      if (group.spawn_kind != GroupSpec::SpawnKind::Circle) {
        fail(path, "\"antipodal\" needs a circle spawn (the goal is the start mirrored through "
                   "the circle's centre), but this group's spawn is a rect");
      }
      group.goal_kind = GroupSpec::GoalKind::Antipodal;
      return;
    }
    const std::string kind = single_key(value, path, kGoalKeys, forms);
    const std::string kind_path = json_path::member(path, kind);
    if (kind == "rect") {
      group.goal_kind = GroupSpec::GoalKind::Rect;
      std::tie(group.goal_min, group.goal_max) =
          rect(value["rect"], kind_path, "[[x0, z0], [x1, z1]]");
    } else {
      group.goal_kind = GroupSpec::GoalKind::Point;
      group.goal_point = point2(value["point"], kind_path);
    }
  }

  std::filesystem::path file_;
  std::string name_;
  /// Filter types the agent parameters may name: query_filters' count, at least 1 (the
  /// navmesh's filter); set by read() before it reads any agent parameters.
  mutable std::size_t query_filter_count_ = 1;
};

} // namespace

Scenario parse_scenario(const std::string& json_text, const std::filesystem::path& file) {
  const Reader reader(file);
  return reader.read(reader.parse(json_text));
}

Scenario load_scenario(const std::filesystem::path& file) {
  // A directory opens, and reads as an empty stream, on Linux: it would be reported as
  // malformed JSON. Say what it is instead.
  std::error_code error;
  if (std::filesystem::is_directory(file, error)) {
    throw ScenarioError(file.string(), "", "is a directory, not a scenario file");
  }
  const auto system_reason = [](int code) {
    return code != 0 ? " (" + std::string(std::strerror(code)) + ")" : std::string();
  };
  // stdio rather than a stream: a stream reports a failed read(2) as an early end of file,
  // and the truncated text would then be blamed as malformed JSON.
  errno = 0;
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> in(std::fopen(file.c_str(), "rb"), &std::fclose);
  if (!in) {
    const int open_errno = errno;
    throw ScenarioError(file.string(), "",
                        open_errno == ENOENT ? std::string("file not found")
                                             : "cannot open the file" + system_reason(open_errno));
  }
  std::string text;
  char buffer[1 << 16];
  std::size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, in.get())) > 0) {
    text.append(buffer, n);
  }
  if (std::ferror(in.get())) {
    throw ScenarioError(file.string(), "", "error while reading the file" + system_reason(errno));
  }
  return parse_scenario(text, file);
}

} // namespace crowd
