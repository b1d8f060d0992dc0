// One linked GLSL program from the embedded shaders/ files. Needs a current context.
#pragma once

#include <epoxy/gl.h>
#include <glm/glm.hpp>
#include <stdexcept>
#include <string>

namespace crowd {

/// A shader that does not compile or link (a bug, or a driver below OpenGL 3.3); what() names
/// the shader file and quotes the driver's log.
class ShaderError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

class ShaderProgram {
public:
  /// Stage file names from shaders/, e.g. ("shapes.vert", "shapes.frag", "wide_lines.geom");
  /// an empty geometry name means none. Throws ShaderError.
  ShaderProgram(const std::string& vertex, const std::string& fragment,
                const std::string& geometry = "");
  ~ShaderProgram();
  ShaderProgram(const ShaderProgram&) = delete;
  ShaderProgram& operator=(const ShaderProgram&) = delete;

  void use() const { glUseProgram(program_); }
  void set(const char* name, int value) const;
  void set(const char* name, float value) const;
  void set(const char* name, glm::vec2 value) const;
  void set(const char* name, const glm::mat4& value) const;
  void set(const char* name, const glm::vec3* values, int count) const;

private:
  GLint location(const char* name) const;
  GLuint program_ = 0;
  std::string name_;
};

} // namespace crowd
