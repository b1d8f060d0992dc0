// The drawing code shared by the viewer and `crowd render`: static scene geometry uploaded
// once, agents instanced, trails and overlays per frame, the text panel. Draws into whatever
// framebuffer is bound (the window's, or an offscreen one). Needs a current OpenGL 3.3 core
// context for its whole life.
#pragma once

#include "host/render/camera.h"
#include "host/render/debug_overlay.h"
#include "host/render/frame_source.h"
#include "host/render/shader_program.h"
#include "host/render/view_options.h"

#include <memory>
#include <string>
#include <vector>

namespace crowd {

class CrowdRenderer {
public:
  explicit CrowdRenderer(const SceneData& scene);
  ~CrowdRenderer();
  CrowdRenderer(const CrowdRenderer&) = delete;
  CrowdRenderer& operator=(const CrowdRenderer&) = delete;

  /// Draws one frame over the whole camera.width x camera.height viewport.
  void draw(const SceneFrame& frame, const ViewCamera& camera, const ViewOptions& options,
            const ShapeLayer& trails, const DebugOverlay& overlay,
            const std::vector<std::string>& text_lines);

  /// The buffer of agent positions (3 floats per agent, id order), for CUDA-GL interop.
  GLuint position_buffer() const;
  /// When set, draw() leaves position_buffer() as it is: its owner has written this frame's
  /// positions into it (cuda/interop).
  void set_positions_written_externally(bool external);

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// Everything one frame of a source shows, composed the same way for the viewer and
/// `crowd render`: trails, the selected agent's overlays (from source.inspect) and the text
/// panel (scene, source, step, agents, ms per step, `status` when not empty).
void draw_source_frame(CrowdRenderer& renderer, const FrameSource& source, const ShapeLayer& trails,
                       const ViewCamera& camera, const ViewOptions& options,
                       const std::string& status = "");

} // namespace crowd
