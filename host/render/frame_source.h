// Where the frames come from: a live simulation (live_source.h) or a trajectory file
// (replay_source.h). The viewer and `crowd render` draw whatever source they are given.
#pragma once

#include "host/render/scene.h"
#include "host/sim/agent_debug_view.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace crowd {

struct SceneFrame {
  int step = 0;
  double time = 0.0;
  std::vector<glm::vec3> positions;  ///< [agents]
  std::vector<glm::vec2> velocities; ///< [agents] (vx, vz)
  std::vector<std::uint8_t> present; ///< [agents] 0 for removed agents (not drawn)
  std::optional<double> ms_per_step; ///< Wall time of the last step (live only).
  /// A film frame (`crowd render --fps`, a film CSV replay): `step` is the film frame number.
  bool film = false;
  /// Film frames: each character's facing, degrees about +y (0 facing +z), which the facing
  /// mark shows; empty: the mark points where the agent walks.
  std::vector<float> headings_degrees;
};

class FrameSource {
public:
  virtual ~FrameSource() = default;
  virtual const SceneData& scene() const = 0;
  virtual const SceneFrame& frame() const = 0;
  /// The step of the last frame this source will give.
  virtual int last_step() const = 0;
  bool at_end() const { return remaining_frames() == 0; }
  /// Frames still to come after the current one.
  virtual int remaining_frames() const = 0;
  /// Moves to the next frame (one step live; the next written frame in a replay).
  virtual void advance() = 0;
  /// The solver's view of one agent for the debug overlays; nothing where it is not known
  /// (see debug_unavailable()).
  virtual std::optional<AgentDebugView> inspect(int agent) const = 0;
  /// Why inspect() gives nothing ("" when it works), shown on screen.
  virtual std::string debug_unavailable() const = 0;
  /// "live, backend cpu" or "replay of traj.csv".
  virtual std::string description() const = 0;
  /// Film sources (host/render/film_sources.h): their frames per second; 0 for per-step ones
  /// and for a film of a single frame.
  virtual double film_fps() const { return 0.0; }
};

} // namespace crowd
