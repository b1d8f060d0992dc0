#include "host/render/debug_overlay.h"

#include "host/render/agent_style.h"

#include <algorithm>
#include <cfloat>
#include <cmath>

namespace crowd {

DebugOverlay make_debug_overlay(const SceneData& scene, const SceneFrame& frame,
                                const ViewOptions& options, const AgentDebugView* view) {
  DebugOverlay overlay;
  overlay.under.line_width_pixels = 1.5f;
  overlay.over.line_width_pixels = 2.0f;
  const int id = options.selected;
  if (id < 0 || id >= static_cast<int>(frame.positions.size()) ||
      !frame.present[static_cast<std::size_t>(id)])
    return overlay;
  const auto index = static_cast<std::size_t>(id);
  const glm::vec2 at{frame.positions[index].x, frame.positions[index].z};
  const float radius = scene.setups[index].params.radius;
  overlay.over.add_circle(at, radius * 1.35f, palette::kSelection);
  if (view == nullptr)
    return overlay;

  if (options.corridor)
    for (const std::vector<glm::vec3>& polygon : view->corridor) {
      std::vector<glm::vec2> outline;
      for (const glm::vec3& v : polygon)
        outline.emplace_back(v.x, v.z);
      overlay.under.add_convex(outline, palette::kCorridorFill);
      overlay.under.add_outline(outline, palette::kCorridorEdge);
    }
  if (options.walls) {
    for (const glm::vec4& s : view->wall_segments)
      overlay.over.add_line({s.x, s.y}, {s.z, s.w}, palette::kWallSegment);
    for (const glm::vec4& s : view->corridor_sides)
      overlay.over.add_line({s.x, s.y}, {s.z, s.w}, palette::kCorridorSide);
  }
  if (options.neighbours)
    for (const int j : view->neighbours) {
      const glm::vec3& p = frame.positions[static_cast<std::size_t>(j)];
      overlay.over.add_line(at, {p.x, p.z}, palette::kNeighbourLink);
    }
  if (!options.samples)
    return overlay;
  // Velocity space drawn at the agent's position: a velocity v at at + v (where the agent would
  // be in one second).
  const float max_speed = scene.setups[index].params.max_speed;
  // The answer: a ring around the chosen velocity and a line to it from the agent, stopping at
  // the ring so a sample's own shade stays visible (lines draw over triangles).
  const glm::vec2 tip = at + view->chosen_velocity;
  const float ring = 0.12f * max_speed;
  overlay.over.add_circle(tip, ring, palette::kChosenVelocity, 16);
  const float length = std::sqrt(glm::dot(view->chosen_velocity, view->chosen_velocity));
  if (length > ring)
    overlay.over.add_line(at, at + view->chosen_velocity * ((length - ring) / length),
                          palette::kChosenVelocity);
  // The force model: its pushes as arrows from the agent, the neighbours' and the walls'.
  const auto arrow = [&](glm::vec2 push, glm::vec4 colour) {
    const float size = std::sqrt(glm::dot(push, push));
    if (!(size > 1e-3f))
      return;
    const glm::vec2 along = push / size, across(-along.y, along.x);
    const glm::vec2 head = at + push;
    const float barb = 0.1f * max_speed;
    overlay.over.add_line(at, head, colour);
    overlay.over.add_line(head, head - along * barb + across * (0.5f * barb), colour);
    overlay.over.add_line(head, head - along * barb - across * (0.5f * barb), colour);
  };
  arrow(view->neighbour_push, palette::kAgentHalfPlane);
  arrow(view->wall_push, palette::kWallHalfPlane);
  // ORCA: each half-plane's boundary line across the speed circle, with short ticks on the
  // forbidden side (right of its direction), walls' in the wall colour.
  for (std::size_t k = 0; k < view->half_planes.size(); ++k) {
    const OrcaLine& line = view->half_planes[k];
    const glm::vec4 colour = static_cast<int>(k) < view->wall_half_planes
                                 ? palette::kWallHalfPlane
                                 : palette::kAgentHalfPlane;
    const glm::vec2 forbidden(line.direction.y, -line.direction.x);
    const float reach = 2.0f * max_speed;
    overlay.over.add_line(at + line.point - line.direction * reach,
                          at + line.point + line.direction * reach, colour);
    for (int tick = -4; tick <= 4; ++tick) {
      const glm::vec2 foot =
          at + line.point + line.direction * (reach * static_cast<float>(tick) / 4.0f);
      overlay.over.add_line(foot, foot + forbidden * (0.08f * max_speed), colour);
    }
  }
  // The time-to-collision model: a ring around the agent while it waits out its stop clock or
  // forces its way, and its fan, each sample an outer square shaded by its smoothed ratio and an
  // inner one by its ratio before smoothing (red colliding now, green safe; violet leaves the
  // navmesh), sized with its speed so that the slower rings stay apart.
  if (view->stopped || view->forced)
    overlay.over.add_circle(at, radius * 1.7f,
                            view->stopped ? palette::kTtcStopped : palette::kTtcForced);
  if (!view->ttc_samples.empty()) {
    float fastest = 0.0f;
    for (const TtcDebugSample& s : view->ttc_samples)
      fastest = std::max(fastest, std::sqrt(glm::dot(s.velocity, s.velocity)));
    for (const TtcDebugSample& s : view->ttc_samples) {
      const float speed = std::sqrt(glm::dot(s.velocity, s.velocity));
      const float half = 0.07f * std::max(speed, 0.25f * fastest);
      overlay.over.add_square(at + s.velocity, half, ttc_ratio_colour(s.smoothed));
      overlay.over.add_square(at + s.velocity, 0.45f * half, ttc_ratio_colour(s.ratio));
    }
  } else if (!view->samples.empty()) {
    // Samples, each a square shrinking with the refinement level, shaded by penalty as in
    // RecastDemo's CrowdToolState::handleRender.
    float lowest = FLT_MAX, highest = -FLT_MAX;
    for (const VelocitySample& s : view->samples) {
      lowest = std::min(lowest, s.penalty);
      highest = std::max(highest, s.penalty);
    }
    for (const VelocitySample& s : view->samples) {
      const float half = 0.07f * max_speed / static_cast<float>(1 << s.level);
      overlay.over.add_square(at + s.velocity, half, penalty_colour(s.penalty, lowest, highest));
    }
  }
  return overlay;
}

} // namespace crowd
