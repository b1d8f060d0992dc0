// The standoff breaker, run by stage 5 (steering) before separation, and what it asks of
// stage 6 (avoidance): agents that stand face to face, or are held short of their goal, get
// past each other by a side convention, the same side for everyone.
//
// Why. DetourCrowd's sampler (dtObstacleAvoidanceQuery::processSample) scores a candidate
// velocity by its distance from the desired velocity (weight 2), from the current one (0.75),
// a side term (0.75) and its time to impact (2.5 / (0.1 + t / 2.5)), with the reciprocal
// assumption that the other agent takes half the avoidance. Two agents that meet head-on and
// slow down end up where every velocity toward the other hits soon, a sidestep costs about
// 2 x sqrt(2) in the desired term and standing still costs 2: standing wins for both, every
// step. The same holds for agents converging on one point, and for an agent near its goal with
// an arrived agent beyond it (the reciprocal time to impact ignores that it would stop at its
// goal first), where DetourCrowd's separation from the standing agents also balances the pull
// of the goal. Replanning gives the same path back. Reciprocal methods meet the same
// "reciprocal dance" and settle it by a shared convention: agents pass on an agreed side (van
// den Berg, Lin & Manocha, "Reciprocal velocity obstacles for real-time multi-agent
// navigation", ICRA 2008; Snape, van den Berg, Guy & Manocha, "The hybrid reciprocal velocity
// obstacle", IEEE T-RO 27(4), 2011, which enlarges the velocity obstacle on one side to that
// end). Pedestrians do: most pass on the right when someone walks at them (Moussaïd et al.,
// "Experimental study of the behavioural mechanisms underlying self-organization in human
// crowds", Proc. R. Soc. B 276, 2009; about 70% in circle-antipode experiments, Xiao et al.,
// Transportmetrica B 9, 2021, arXiv 1912.10870), which is what sorts counter-flows into lanes
// (Helbing & Molnár, "Social force model for pedestrian dynamics", Phys. Rev. E 51, 1995).
//
// What, for an agent i that walks (mode Moving, a preferred velocity) with a side
// (AgentView::standoff_side: the right or the left of its walking direction):
// * Keeping to its side. While a walker coming at it (heading within 45 degrees of straight at
//   it) is in its lane ahead (its disc reaches into the strip i's disc sweeps) and less than
//   kStandoffMeetingLookahead seconds of walking away, i turns its preferred velocity by
//   `keep` toward its side, for at most kStandoffMeetingLimit seconds with the same walker: a
//   passing settles in a couple of seconds; two agents converging on one point stay head-on
//   however they turn, and would circle it for ever.
// * The manoeuvre. When i makes less than kStandoffSlowFraction of its desired speed of
//   headway along its preferred direction for `wait` seconds while an agent stands in front of
//   it (within 60 degrees of its walking direction and within its query range, the reach of
//   DetourCrowd's separation; a walker only if its preferred velocity has a component toward
//   i), it presses on for `duration` seconds: no separation, an avoidance time horizon scaled
//   by `horizon_scale` (so it avoids what it would meet soon, not what a long horizon makes it
//   stop for), and while a walker that wants to come its way is in front, its preferred
//   velocity turned by `turn` toward its side. Both agents of a symmetric standoff turn to
//   their own side, separate sideways and pass.
//
// The sampler is untouched: an agent with no walker coming at it in its lane and no manoeuvre
// passes its preferred velocity on unchanged and samples with its own parameters, so it
// chooses exactly DetourCrowd's velocity; with kStandoffOff (scenario `standoff: "off"`) every
// agent does.
//
// State per agent: AgentView::standoff_clock (x: > 0 seconds blocked so far, < 0 seconds of
// manoeuvre left, negated, 0 neither; y: seconds of the current meeting) and
// AgentView::standoff_partner (the walker met, -1 none).
#pragma once

#include "cuda/kernels/agent_view.h"

namespace crowd {

/// Tunables of the breaker (cuda/core/solver_options.h), the same for every agent. The turn's
/// cosine and sine are computed on the host once, so the CPU and the GPU rotate by the same
/// floats.
struct StandoffParams {
  float wait = 1.0f;          ///< Seconds blocked before the manoeuvre.
  float duration = 1.0f;      ///< Seconds a manoeuvre lasts.
  float cos_turn = 0.0f;      ///< Cosine of the turn of the preferred velocity.
  float sin_turn = 1.0f;      ///< Sine of the turn (toward the agent's side).
  float horizon_scale = 0.4f; ///< Factor on the avoidance time horizon during a manoeuvre.
  float cos_keep = 1.0f;      ///< Cosine of the turn toward the side when meeting a walker.
  float sin_keep = 0.0f;      ///< Its sine.
};

/// Headway (speed along its preferred direction) below this fraction of its desired speed is
/// none: the agent counts as held up.
inline constexpr float kStandoffSlowFraction = 0.25f;
/// A walker coming at an agent in its lane counts from this many seconds of walking away (at
/// the agent's desired speed, between the discs).
inline constexpr float kStandoffMeetingLookahead = 3.0f;
/// Seconds of one meeting after which an agent stops keeping to its side.
inline constexpr float kStandoffMeetingLimit = 2.5f;
/// cos(45 degrees): a walker heading within this of straight at the agent meets it head-on.
inline constexpr float kStandoffHeadOnCos = 0.70710678f;
/// cos(60 degrees): the half-angle of the cone in front of the agent.
inline constexpr float kStandoffConeCos = 0.5f;

/// What stands in an agent's way.
enum class StandoffBlock : int {
  None = 0,
  Standing = 1, ///< A standing agent (arrived, waiting), and no walker coming the other way.
  Opposing = 2, ///< A walking agent that wants to go where this one is.
};

/// What stands in front of agent i (direction `dir`, unit): within the cone and within its
/// query range, the reach of its separation and avoidance (a neighbour's separation can hold
/// it still from that far). Walkers going this agent's way (a queue) do not count.
CROWD_HD StandoffBlock standoff_blocker(int i, const AgentView& v, glm::vec2 dir) {
  const glm::vec3 p = v.position[i];
  const float reach = v.query_range[i];
  const std::int32_t* neighbors = v.neighbor_index + static_cast<long long>(i) * v.max_neighbors;
  StandoffBlock found = StandoffBlock::None;
  for (int k = 0; k < v.neighbor_count[i]; ++k) {
    const int j = neighbors[k];
    const glm::vec3 q = v.position[j];
    const glm::vec2 d{q.x - p.x, q.z - p.z};
    const float dist_sq = d.x * d.x + d.y * d.y;
    if (dist_sq > reach * reach)
      break; // Rows are nearest first: the rest are farther.
    const float ahead = d.x * dir.x + d.y * dir.y;
    if (ahead <= 0.0f || ahead * ahead < kStandoffConeCos * kStandoffConeCos * dist_sq)
      continue; // Not in front.
    if (v.mode[j] == kAgentStanding) {
      found = StandoffBlock::Standing;
      continue;
    }
    const glm::vec2 wish = v.preferred_velocity[j];
    if (v.mode[j] == kAgentMoving && wish.x * d.x + wish.y * d.y < 0.0f)
      return StandoffBlock::Opposing; // It wants to come this way.
  }
  return found;
}

/// The nearest walker coming the other way in agent i's lane ahead (direction `dir`, unit):
/// its disc reaches into the strip i's disc sweeps, within the meeting distance; -1 for none.
CROWD_HD int standoff_meeting(int i, const AgentView& v, glm::vec2 dir) {
  const glm::vec3 p = v.position[i];
  const float lookahead = kStandoffMeetingLookahead * v.desired_speed[i];
  const std::int32_t* neighbors = v.neighbor_index + static_cast<long long>(i) * v.max_neighbors;
  for (int k = 0; k < v.neighbor_count[i]; ++k) {
    const int j = neighbors[k];
    const glm::vec3 q = v.position[j];
    const glm::vec2 d{q.x - p.x, q.z - p.z};
    const float dist_sq = d.x * d.x + d.y * d.y;
    const float radii = v.radius[i] + v.radius[j];
    const float reach = radii + lookahead;
    if (dist_sq > reach * reach)
      break;
    if (v.mode[j] != kAgentMoving)
      continue;
    const float ahead = d.x * dir.x + d.y * dir.y;
    const float lateral = d.x * dir.y - d.y * dir.x;
    if (ahead <= 0.0f || lateral * lateral >= radii * radii)
      continue; // Not in this agent's lane ahead.
    const glm::vec2 wish = v.preferred_velocity[j];
    const float against = wish.x * dir.x + wish.y * dir.y;
    if (against < 0.0f && against * against > kStandoffHeadOnCos * kStandoffHeadOnCos *
                                                  (wish.x * wish.x + wish.y * wish.y))
      return j; // Coming the other way.
  }
  return -1;
}

/// Agent i's preferred velocity after the breaker, advancing its standoff clock by dt. Called
/// once per agent and step by the steering stage; reads only what no stage of the step has
/// written yet (positions, velocities, modes, preferred velocities, neighbour rows). The agent
/// is in a manoeuvre this step when its timer is negative after this call: from the step its
/// wait runs out, for `duration`.
CROWD_HD glm::vec2 standoff_preferred_velocity(int i, const AgentView& v,
                                               const StandoffParams& params, float dt) {
  const glm::vec2 pref = v.preferred_velocity[i];
  const float pref_sq = pref.x * pref.x + pref.y * pref.y;
  if (v.standoff_side[i] == kStandoffOff || v.mode[i] != kAgentMoving || !(pref_sq > 0.0f)) {
    v.standoff_clock[i] = glm::vec2(0.0f);
    v.standoff_partner[i] = -1;
    return pref;
  }
  const glm::vec2 dir = pref * (1.0f / sqrtf(pref_sq));
  float timer = v.standoff_clock[i].x;
  // Within half a step of a bound counts as there, so that a wait or a manoeuvre lasts a whole
  // number of steps whatever the rounding of the sums of dt.
  const float half_step = 0.5f * dt;
  if (timer < 0.0f) {
    timer += dt; // The manoeuvre goes on.
    timer = timer < -half_step ? timer : 0.0f;
  } else {
    // Progress is speed along the preferred direction: two agents swaying from side to side
    // in front of each other (a "reciprocal dance") make none.
    const glm::vec2 vel = v.velocity[i];
    const float progress = vel.x * dir.x + vel.y * dir.y;
    if (progress >= kStandoffSlowFraction * v.desired_speed[i] ||
        standoff_blocker(i, v, dir) == StandoffBlock::None) {
      timer = 0.0f;
    } else {
      timer += dt;
      if (timer >= params.wait - half_step)
        timer = -params.duration; // Blocked long enough: the manoeuvre starts.
    }
  }
  // How long the same walker has been coming at this agent in its lane: keeping to the side
  // settles a passing within a couple of seconds; past kStandoffMeetingLimit it is no passing
  // (two agents converging on one point stay head-on however they turn) and the agent stops
  // turning until it meets someone else.
  const int met = standoff_meeting(i, v, dir);
  const float meeting =
      met < 0 ? 0.0f : (met == v.standoff_partner[i] ? v.standoff_clock[i].y : 0.0f) + dt;
  v.standoff_clock[i] = {timer, meeting};
  v.standoff_partner[i] = met;
  const float side = v.standoff_side[i] == kStandoffLeft ? -1.0f : 1.0f;
  const glm::vec2 across{-pref.y * side, pref.x * side}; // the right of (x, z) is (-z, x)
  if (timer < 0.0f) {
    // The manoeuvre: a short avoidance horizon and no separation (choose_velocity,
    // steer_with_separation) and, while a walker coming the other way is in front, a turn
    // toward the agent's side.
    if (standoff_blocker(i, v, dir) != StandoffBlock::Opposing)
      return pref;
    return pref * params.cos_turn + across * params.sin_turn;
  }
  if (meeting > 0.0f && meeting <= kStandoffMeetingLimit + half_step)
    return pref * params.cos_keep + across * params.sin_keep; // Keep to the side.
  return pref;
}

/// Whether agent i is in a standoff manoeuvre this step (after the steering stage): its
/// avoidance horizon is shortened and it keeps no separation.
CROWD_HD bool in_standoff_manoeuvre(int i, const AgentView& v) {
  return v.standoff_clock[i].x < 0.0f;
}

} // namespace crowd
