#include "host/render/shader_program.h"

#include "host/render/shader_sources.h"

#include <algorithm>
#include <glm/gtc/type_ptr.hpp>
#include <vector>

namespace crowd {
namespace {

GLuint compile(GLenum stage, const std::string& file) {
  const auto source = shader_source(file);
  if (!source)
    throw ShaderError("shaders/" + file + ": not embedded in this build");
  const GLuint shader = glCreateShader(stage);
  const GLchar* text = source->data();
  const auto length = static_cast<GLint>(source->size());
  glShaderSource(shader, 1, &text, &length);
  glCompileShader(shader);
  GLint ok = GL_FALSE;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (ok != GL_TRUE) {
    GLint size = 0;
    glGetShaderiv(shader, GL_INFO_LOG_LENGTH, &size);
    std::vector<char> log(static_cast<std::size_t>(std::max(size, 1)));
    glGetShaderInfoLog(shader, size, nullptr, log.data());
    glDeleteShader(shader);
    throw ShaderError("shaders/" + file + ": does not compile: " + std::string(log.data()));
  }
  return shader;
}

} // namespace

ShaderProgram::ShaderProgram(const std::string& vertex, const std::string& fragment,
                             const std::string& geometry)
    : name_(vertex + " + " + (geometry.empty() ? "" : geometry + " + ") + fragment) {
  std::vector<GLuint> shaders;
  try {
    shaders.push_back(compile(GL_VERTEX_SHADER, vertex));
    if (!geometry.empty())
      shaders.push_back(compile(GL_GEOMETRY_SHADER, geometry));
    shaders.push_back(compile(GL_FRAGMENT_SHADER, fragment));
  } catch (...) {
    for (const GLuint s : shaders)
      glDeleteShader(s);
    throw;
  }
  program_ = glCreateProgram();
  for (const GLuint s : shaders)
    glAttachShader(program_, s);
  glLinkProgram(program_);
  for (const GLuint s : shaders)
    glDeleteShader(s);
  GLint ok = GL_FALSE;
  glGetProgramiv(program_, GL_LINK_STATUS, &ok);
  if (ok != GL_TRUE) {
    GLint size = 0;
    glGetProgramiv(program_, GL_INFO_LOG_LENGTH, &size);
    std::vector<char> log(static_cast<std::size_t>(std::max(size, 1)));
    glGetProgramInfoLog(program_, size, nullptr, log.data());
    glDeleteProgram(program_);
    throw ShaderError("shaders/" + name_ + ": do not link: " + std::string(log.data()));
  }
}

ShaderProgram::~ShaderProgram() {
  glDeleteProgram(program_);
}

GLint ShaderProgram::location(const char* name) const {
  return glGetUniformLocation(program_, name);
}

void ShaderProgram::set(const char* name, int value) const {
  glUniform1i(location(name), value);
}
void ShaderProgram::set(const char* name, float value) const {
  glUniform1f(location(name), value);
}
void ShaderProgram::set(const char* name, glm::vec2 value) const {
  glUniform2f(location(name), value.x, value.y);
}
void ShaderProgram::set(const char* name, const glm::mat4& value) const {
  glUniformMatrix4fv(location(name), 1, GL_FALSE, glm::value_ptr(value));
}
void ShaderProgram::set(const char* name, const glm::vec3* values, int count) const {
  glUniform3fv(location(name), count, glm::value_ptr(values[0]));
}

} // namespace crowd
