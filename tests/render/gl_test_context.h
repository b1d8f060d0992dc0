// A headless OpenGL context for the render tests. Where none can be created the test skips
// with the reason, unless CROWD_REQUIRE_GL=1 (set by .ci/run, where Mesa is installed): then
// it fails, so CI never passes by skipping.
#pragma once

#include "host/render/offscreen_context.h"

#include <cstdlib>
#include <gtest/gtest.h>
#include <memory>
#include <string>

namespace crowd::testing {

inline bool gl_required() {
  const char* value = std::getenv("CROWD_REQUIRE_GL");
  return value != nullptr && std::string(value) == "1";
}

/// Creates the context, or records a skip/failure and returns null (the caller returns).
inline std::unique_ptr<OffscreenContext> make_gl_context_or_skip() {
  try {
    return std::make_unique<OffscreenContext>();
  } catch (const GlContextError& e) {
    if (gl_required())
      ADD_FAILURE() << "CROWD_REQUIRE_GL=1 but no OpenGL context: " << e.what();
    else
      GTEST_LOG_(WARNING) << "skipping: no OpenGL context (" << e.what() << ")";
    return nullptr;
  }
}

} // namespace crowd::testing

/// First statement of a GL test: skips (or fails under CROWD_REQUIRE_GL=1) without a context.
#define CROWD_REQUIRE_GL_CONTEXT(context)                                                          \
  auto context = crowd::testing::make_gl_context_or_skip();                                        \
  if (!context) {                                                                                  \
    if (!crowd::testing::gl_required())                                                            \
      GTEST_SKIP() << "no OpenGL context could be created (install Mesa: libegl-mesa0, "           \
                      "libgl1-mesa-dri)";                                                          \
    return;                                                                                        \
  }
