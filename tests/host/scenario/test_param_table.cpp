// host/scenario/param_table.h: the one table of parameter limits. For every parameter of every
// avoidance model and every agent number, a value just outside its limits is refused by the
// scenario reader (naming its JSON path) and by the library API's check (naming the
// parameter) with the same words; the values at the limits pass both; every model's defaults
// pass; and the writer writes each table back as the reader reads it.
#include "host/scenario/agent_params_check.h"
#include "host/scenario/param_table.h"
#include "host/scenario/scenario.h"
#include "host/scenario/scenario_writer.h"

#include <cmath>
#include <functional>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <string>
#include <type_traits>
#include <vector>

namespace crowd {
namespace {

/// One parameter to try: the model's name in a file, where the parameter lives in an
/// AvoidanceParams (to set it for the API), and its spec.
struct Trial {
  std::string model;
  std::string key;
  ParamKind kind;
  Range range;
  /// Sets the parameter in `a` (the model's defaults) to `value`.
  std::function<void(AvoidanceParams&, double)> set;
};

/// The model's part of an AvoidanceParams (its own fields for DetourCrowd's sampling).
template <class P> P& part_of(AvoidanceParams& a) {
  if constexpr (std::is_same_v<P, AvoidanceParams>)
    return a;
  else if constexpr (std::is_same_v<P, MassAvoidanceParams>)
    return a.mass;
  else if constexpr (std::is_same_v<P, OrcaAvoidanceParams>)
    return a.orca;
  else
    return a.ttc;
}

template <class P>
void add_trials(std::vector<Trial>& trials, const std::string& model,
                std::span<const ParamSpec<P>> table) {
  for (const ParamSpec<P>& spec : table) {
    trials.push_back({model, std::string(spec.key), spec.kind, spec.range,
                      [spec](AvoidanceParams& a, double value) {
                        P& p = part_of<P>(a);
                        if (spec.kind == ParamKind::Real)
                          p.*spec.real = static_cast<float>(value);
                        else
                          p.*spec.integer = static_cast<std::int32_t>(value);
                      }});
  }
}

std::vector<Trial> every_avoidance_parameter() {
  std::vector<Trial> trials;
  add_trials<AvoidanceParams>(trials, "detour", kSamplingParams);
  add_trials<MassAvoidanceParams>(trials, "mass", kMassParams);
  add_trials<OrcaAvoidanceParams>(trials, "orca", kOrcaParams);
  add_trials<TtcAvoidanceParams>(trials, "ttc", kTtcParams);
  return trials;
}

AvoidanceModel model_named(const std::string& name) {
  return find_avoidance_model(name)->model;
}

/// A value just outside `range` (below it where it has a finite lower end).
double outside(ParamKind kind, const Range& range) {
  if (kind == ParamKind::Flag || kind == ParamKind::Choice)
    return range.hi + 1.0;
  if (std::isfinite(range.lo))
    return range.lo_open ? range.lo : range.lo - 1.0;
  return range.hi_open ? range.hi : range.hi + 1.0;
}

/// The words of a problem after "must be" and before ", got".
std::string expected_words(const std::string& problem) {
  const auto from = problem.find("must be ");
  const auto to = problem.find(", got");
  return from == std::string::npos || to == std::string::npos ? problem
                                                              : problem.substr(from, to - from);
}

/// The JSON of `value` as a file would give it for a parameter of `kind`.
nlohmann::json json_value(ParamKind kind, double value) {
  if (kind == ParamKind::Whole)
    return static_cast<std::int64_t>(value);
  return value;
}

std::string scenario_with_avoidance(const nlohmann::json& avoidance) {
  nlohmann::json s = nlohmann::json::parse(
      R"({"world": {"bounds": [[0, 0], [10, 10]]}, "agents": [{"position": [1, 1], "goal": [9, 9]}]})");
  s["agents"][0]["avoidance"] = avoidance;
  return s.dump();
}

TEST(ParamTable, EveryLimitIsTheReadersAndTheApisAlike) {
  int checked = 0;
  for (const Trial& t : every_avoidance_parameter()) {
    SCOPED_TRACE(t.model + "." + t.key);
    const double bad = outside(t.kind, t.range);
    // The API.
    AgentParams params;
    params.avoidance = avoidance_defaults(model_named(t.model));
    ASSERT_EQ(agent_params_problem(params), std::nullopt);
    t.set(params.avoidance, bad);
    const std::optional<std::string> api = agent_params_problem(params);
    ASSERT_TRUE(api.has_value());
    EXPECT_EQ(api->rfind("avoidance." + t.key + " must be ", 0), 0u) << *api;
    // The reader, for what a file can hold out of range (a flag or a word cannot be).
    if (t.kind == ParamKind::Flag || t.kind == ParamKind::Choice) {
      ++checked;
      continue;
    }
    nlohmann::json avoidance = {{"model", t.model}, {t.key, json_value(t.kind, bad)}};
    try {
      (void)parse_scenario(scenario_with_avoidance(avoidance), "t.json");
      ADD_FAILURE() << "the reader took " << avoidance.dump();
    } catch (const ScenarioError& e) {
      EXPECT_EQ(e.json_path(), "agents[0].avoidance." + t.key);
      EXPECT_EQ(expected_words(e.problem()), expected_words(*api)) << e.problem();
    }
    ++checked;
  }
  EXPECT_EQ(checked, 9 + 8 + 2 + 18);
}

TEST(ParamTable, ValuesAtTheLimitsPassTheReaderAndTheApi) {
  for (const Trial& t : every_avoidance_parameter()) {
    if (t.kind != ParamKind::Real && t.kind != ParamKind::Whole)
      continue;
    SCOPED_TRACE(t.model + "." + t.key);
    for (const double edge : {t.range.lo, t.range.hi}) {
      if (!std::isfinite(edge))
        continue;
      // An open end: the nearest float inside.
      double value = edge;
      if (edge == t.range.lo && t.range.lo_open)
        value = std::nextafter(static_cast<float>(edge), 1e30f);
      if (edge == t.range.hi && t.range.hi_open)
        value = std::nextafter(static_cast<float>(edge), -1e30f);
      AgentParams params;
      params.avoidance = avoidance_defaults(model_named(t.model));
      t.set(params.avoidance, value);
      EXPECT_EQ(agent_params_problem(params), std::nullopt) << value;
      const nlohmann::json avoidance = {{"model", t.model}, {t.key, json_value(t.kind, value)}};
      EXPECT_NO_THROW((void)parse_scenario(scenario_with_avoidance(avoidance), "t.json"))
          << avoidance.dump();
    }
  }
}

TEST(ParamTable, TheAgentNumbersAreTheReadersAndTheApisAlike) {
  for (const ParamSpec<AgentParams>& spec : kAgentNumberParams) {
    SCOPED_TRACE(std::string(spec.key));
    AgentParams params;
    if (spec.real != nullptr)
      params.*spec.real = -1.0f;
    else
      params.collision_query_range = -1.0f;
    const std::optional<std::string> api = agent_params_problem(params);
    ASSERT_TRUE(api.has_value());
    EXPECT_EQ(*api, std::string(spec.key) + " " + spec.problem(-1.0));
    nlohmann::json s = nlohmann::json::parse(scenario_with_avoidance("good"));
    s["agents"][0][std::string(spec.key)] = -1;
    try {
      (void)parse_scenario(s.dump(), "t.json");
      ADD_FAILURE() << "the reader took " << spec.key << " -1";
    } catch (const ScenarioError& e) {
      EXPECT_EQ(e.json_path(), "agents[0]." + std::string(spec.key));
      EXPECT_EQ(expected_words(e.problem()), expected_words(*api)) << e.problem();
    }
  }
}

TEST(ParamTable, TheWriterWritesEveryParameterOfEachModelBackAsTheReaderReadsIt) {
  for (const std::string model : {"detour", "mass", "orca", "ttc"}) {
    SCOPED_TRACE(model);
    Scenario s = parse_scenario(scenario_with_avoidance({{"model", model}}), "t.json");
    // Every parameter moved off its default, inside its limits.
    for (const Trial& t : every_avoidance_parameter()) {
      if (t.model != model)
        continue;
      AvoidanceParams& a = s.agents[0].params.avoidance;
      const double value = t.kind == ParamKind::Real
                               ? (std::isfinite(t.range.hi) ? 0.5 * t.range.hi : 3.25)
                               : t.range.hi;
      t.set(a, value);
    }
    s.agents[0].params.avoidance_name = model == "detour" ? "custom" : model;
    const Scenario back = parse_scenario(write_scenario_json(s), "back.json");
    EXPECT_TRUE(back.agents[0].params.avoidance == s.agents[0].params.avoidance);
  }
}

} // namespace
} // namespace crowd
