#include "host/render/crowd_renderer.h"

#include "host/render/agent_style.h"
#include "host/render/text_image.h"

#include <cmath>
#include <cstdio>

namespace crowd {
namespace {

/// One shape layer on the GPU: triangles for the `fill` program, segments for `lines`.
struct GpuShapes {
  GLuint vao[2] = {0, 0};
  GLuint vbo[2] = {0, 0};
  GLsizei count[2] = {0, 0};
  float width = 1.0f;

  GpuShapes() {
    glGenVertexArrays(2, vao);
    glGenBuffers(2, vbo);
    for (int k = 0; k < 2; ++k) {
      glBindVertexArray(vao[k]);
      glBindBuffer(GL_ARRAY_BUFFER, vbo[k]);
      glEnableVertexAttribArray(0);
      glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, sizeof(ShapeVertex),
                            reinterpret_cast<const void*>(offsetof(ShapeVertex, position)));
      glEnableVertexAttribArray(1);
      glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, sizeof(ShapeVertex),
                            reinterpret_cast<const void*>(offsetof(ShapeVertex, colour)));
    }
    glBindVertexArray(0);
  }
  ~GpuShapes() {
    glDeleteBuffers(2, vbo);
    glDeleteVertexArrays(2, vao);
  }
  GpuShapes(const GpuShapes&) = delete;
  GpuShapes& operator=(const GpuShapes&) = delete;

  void upload(const ShapeLayer& layer) {
    const std::vector<ShapeVertex>* lists[2] = {&layer.triangles, &layer.lines};
    for (int k = 0; k < 2; ++k) {
      glBindBuffer(GL_ARRAY_BUFFER, vbo[k]);
      glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(lists[k]->size() * sizeof(ShapeVertex)),
                   lists[k]->data(), GL_DYNAMIC_DRAW);
      count[k] = static_cast<GLsizei>(lists[k]->size());
    }
    width = layer.line_width_pixels;
  }
};

template <class T> void upload_array(GLuint buffer, const std::vector<T>& values) {
  glBindBuffer(GL_ARRAY_BUFFER, buffer);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(values.size() * sizeof(T)), values.data(),
               GL_DYNAMIC_DRAW);
}

} // namespace

struct CrowdRenderer::Impl {
  const SceneData& scene;
  ShaderProgram agents{"agents.vert", "agents.frag"};
  ShaderProgram fill{"shapes.vert", "shapes.frag"};
  ShaderProgram lines{"shapes.vert", "shapes.frag", "wide_lines.geom"};
  ShaderProgram text{"text.vert", "text.frag"};
  GpuShapes navmesh, walls, links, obstacles, trails, under, over;

  // Agents: a unit quad, and one buffer per per-agent attribute (agents.vert's locations).
  enum Buffer {
    kCorner,
    kPosition,
    kVelocity,
    kRadius,
    kMaxSpeed,
    kState,
    kTypeColour,
    kFacing,
    kBuffers
  };
  GLuint agent_vao = 0;
  GLuint agent_buffers[kBuffers] = {};
  bool positions_external = false;

  GLuint text_vao = 0, text_corners = 0, text_texture = 0;
  std::vector<std::string> shown_text;
  int text_width = 0, text_height = 0;

  explicit Impl(const SceneData& s) : scene(s) {
    navmesh.upload(scene.navmesh);
    walls.upload(scene.walls);
    links.upload(scene.links);

    glGenVertexArrays(1, &agent_vao);
    glGenBuffers(kBuffers, agent_buffers);
    glBindVertexArray(agent_vao);
    const float corners[] = {-1, -1, 1, -1, -1, 1, 1, 1};
    glBindBuffer(GL_ARRAY_BUFFER, agent_buffers[kCorner]);
    glBufferData(GL_ARRAY_BUFFER, sizeof(corners), corners, GL_STATIC_DRAW);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
    const GLint sizes[kBuffers] = {2, 3, 2, 1, 1, 1, 1, 2};
    for (GLuint k = kPosition; k < kBuffers; ++k) {
      glBindBuffer(GL_ARRAY_BUFFER, agent_buffers[k]);
      glEnableVertexAttribArray(k);
      glVertexAttribPointer(k, sizes[k], GL_FLOAT, GL_FALSE, 0, nullptr);
      glVertexAttribDivisor(k, 1);
    }
    std::vector<float> max_speed;
    for (const AgentSetup& setup : scene.setups)
      max_speed.push_back(setup.params.max_speed);
    upload_array(agent_buffers[kMaxSpeed], max_speed);
    upload_array(agent_buffers[kTypeColour], agent_type_colours(scene.setups));
    // Room for every agent from the start, so CUDA can register the position buffer once.
    upload_array(agent_buffers[kPosition], std::vector<glm::vec3>(scene.setups.size()));

    glGenVertexArrays(1, &text_vao);
    glGenBuffers(1, &text_corners);
    glBindVertexArray(text_vao);
    const float unit[] = {0, 0, 1, 0, 0, 1, 1, 1};
    glBindBuffer(GL_ARRAY_BUFFER, text_corners);
    glBufferData(GL_ARRAY_BUFFER, sizeof(unit), unit, GL_STATIC_DRAW);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
    glGenTextures(1, &text_texture);
    glBindTexture(GL_TEXTURE_2D, text_texture);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glBindVertexArray(0);
  }

  ~Impl() {
    glDeleteBuffers(kBuffers, agent_buffers);
    glDeleteVertexArrays(1, &agent_vao);
    glDeleteBuffers(1, &text_corners);
    glDeleteVertexArrays(1, &text_vao);
    glDeleteTextures(1, &text_texture);
  }

  void draw_shapes(const GpuShapes& shapes, const ViewCamera& camera) {
    if (shapes.count[0] > 0) {
      fill.use();
      fill.set("world_to_clip", camera.world_to_clip());
      glBindVertexArray(shapes.vao[0]);
      glDrawArrays(GL_TRIANGLES, 0, shapes.count[0]);
    }
    if (shapes.count[1] > 0) {
      lines.use();
      lines.set("world_to_clip", camera.world_to_clip());
      lines.set("viewport_pixels",
                glm::vec2(static_cast<float>(camera.width), static_cast<float>(camera.height)));
      lines.set("width_pixels", shapes.width);
      glBindVertexArray(shapes.vao[1]);
      glDrawArrays(GL_LINES, 0, shapes.count[1]);
    }
  }

  void draw_agents(const SceneFrame& frame, const ViewCamera& camera, const ViewOptions& options) {
    const std::size_t n = std::min(scene.setups.size(), frame.positions.size());
    if (n == 0)
      return;
    std::vector<float> radius(n, 0.0f);
    for (std::size_t i = 0; i < n; ++i)
      radius[i] = frame.present[i] ? scene.setups[i].params.radius : 0.0f; // absent: no area
    if (!positions_external) {
      glBindBuffer(GL_ARRAY_BUFFER, agent_buffers[kPosition]);
      glBufferSubData(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(n * sizeof(glm::vec3)),
                      frame.positions.data());
    }
    upload_array(agent_buffers[kVelocity], frame.velocities);
    upload_array(agent_buffers[kRadius], radius);
    upload_array(agent_buffers[kState],
                 agent_states(scene.setups, frame.positions, frame.velocities));
    // Film frames: the characters' facing from their headings (0 = +z, about +y); otherwise
    // none, and the mark follows the velocity.
    std::vector<glm::vec2> facing(n, glm::vec2(0.0f));
    for (std::size_t i = 0; i < n && i < frame.headings_degrees.size(); ++i) {
      const float radians = frame.headings_degrees[i] * kRadiansPerDegree;
      facing[i] = {std::sin(radians), std::cos(radians)};
    }
    upload_array(agent_buffers[kFacing], facing);
    agents.use();
    agents.set("world_to_clip", camera.world_to_clip());
    agents.set("colour_mode", static_cast<int>(options.colouring));
    agents.set("speed_stops", palette::kSpeedStops, 3);
    agents.set("state_colours", palette::kStateColours, kAgentStates);
    agents.set("type_colours", palette::kTypeColours.data(), kTypeColourCount);
    glBindVertexArray(agent_vao);
    glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, static_cast<GLsizei>(n));
  }

  void draw_text(const std::vector<std::string>& text_lines, const ViewCamera& camera) {
    if (text_lines.empty())
      return;
    if (text_lines != shown_text) {
      const TextImage image = draw_text_panel(text_lines);
      glBindTexture(GL_TEXTURE_2D, text_texture);
      glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
      glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, image.width, image.height, 0, GL_BGRA,
                   GL_UNSIGNED_BYTE, image.bgra.data());
      shown_text = text_lines;
      text_width = image.width;
      text_height = image.height;
    }
    text.use();
    text.set("viewport_pixels",
             glm::vec2(static_cast<float>(camera.width), static_cast<float>(camera.height)));
    text.set("origin_pixels", glm::vec2(8.0f, 8.0f));
    text.set("size_pixels",
             glm::vec2(static_cast<float>(text_width), static_cast<float>(text_height)));
    text.set("text_image", 0);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, text_texture);
    glBlendFuncSeparate(GL_ONE, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
    glBindVertexArray(text_vao);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  }
};

CrowdRenderer::CrowdRenderer(const SceneData& scene) : impl_(std::make_unique<Impl>(scene)) {}
CrowdRenderer::~CrowdRenderer() = default;

GLuint CrowdRenderer::position_buffer() const {
  return impl_->agent_buffers[Impl::kPosition];
}

void CrowdRenderer::set_positions_written_externally(bool external) {
  impl_->positions_external = external;
}

void CrowdRenderer::draw(const SceneFrame& frame, const ViewCamera& camera,
                         const ViewOptions& options, const ShapeLayer& trail_layer,
                         const DebugOverlay& overlay, const std::vector<std::string>& text_lines) {
  Impl& m = *impl_;
  glViewport(0, 0, camera.width, camera.height);
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_CULL_FACE);
  glClearColor(palette::kBackground.x, palette::kBackground.y, palette::kBackground.z, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  glEnable(GL_BLEND);
  // Colour blends by alpha; the framebuffer's alpha stays 1 (opaque frames for PNG and video).
  glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);

  // Painter's order: ground, walls, the obstacles standing, links, trails, corridor, agents,
  // overlays, text.
  if (options.navmesh)
    m.draw_shapes(m.navmesh, camera);
  m.draw_shapes(m.walls, camera);
  if (!m.scene.obstacles.empty()) {
    ShapeLayer standing;
    add_standing_obstacles(m.scene, frame.time, standing);
    m.obstacles.upload(standing);
    m.draw_shapes(m.obstacles, camera);
  }
  m.draw_shapes(m.links, camera);
  if (options.trails) {
    m.trails.upload(trail_layer);
    m.draw_shapes(m.trails, camera);
  }
  m.under.upload(overlay.under);
  m.draw_shapes(m.under, camera);
  m.draw_agents(frame, camera, options);
  m.over.upload(overlay.over);
  m.draw_shapes(m.over, camera);
  if (options.hud)
    m.draw_text(text_lines, camera);
  glBindVertexArray(0);
}

void draw_source_frame(CrowdRenderer& renderer, const FrameSource& source, const ShapeLayer& trails,
                       const ViewCamera& camera, const ViewOptions& options,
                       const std::string& status) {
  const SceneFrame& frame = source.frame();
  int present = 0;
  for (const std::uint8_t p : frame.present)
    present += p;
  char line[256];
  std::vector<std::string> text;
  text.push_back(source.scene().name + " - " + source.description());
  // Film frames: the frame number, and the time to the millisecond (frames are 1/24 s apart).
  const char* counter = frame.film ? "frame" : "step";
  const int decimals = frame.film ? 3 : 1;
  if (frame.ms_per_step)
    std::snprintf(line, sizeof(line), "%s %d  t %.*f s  agents %d  %.2f ms/step", counter,
                  frame.step, decimals, frame.time, present, *frame.ms_per_step);
  else
    std::snprintf(line, sizeof(line), "%s %d  t %.*f s  agents %d", counter, frame.step, decimals,
                  frame.time, present);
  text.emplace_back(line);
  std::optional<AgentDebugView> view;
  if (options.selected >= 0 && options.selected < static_cast<int>(frame.positions.size())) {
    const auto i = static_cast<std::size_t>(options.selected);
    const glm::vec2 v = frame.velocities[i];
    std::snprintf(line, sizeof(line), "agent %d  speed %.2f m/s", options.selected,
                  static_cast<double>(std::sqrt(v.x * v.x + v.y * v.y)));
    text.emplace_back(line);
    view = source.inspect(options.selected);
    if (!view)
      text.push_back(source.debug_unavailable());
  }
  if (!status.empty())
    text.push_back(status);
  const DebugOverlay overlay =
      make_debug_overlay(source.scene(), frame, options, view ? &*view : nullptr);
  renderer.draw(frame, camera, options, trails, overlay, text);
}

} // namespace crowd
