// CUDA-GL interop for the live viewer on a CUDA build: the agents' vertex buffer is registered
// with CUDA once, and each frame the executor's device positions are copied into it device to
// device, so positions never travel through the host to be drawn.
// (CUDA Runtime API, "OpenGL Interoperability": cudaGraphicsGLRegisterBuffer,
// cudaGraphicsMapResources, cudaGraphicsResourceGetMappedPointer.)
#pragma once

#include <cstddef>
#include <memory>

namespace crowd {

class GlPositionInterop {
public:
  /// Registers the OpenGL buffer `gl_buffer` (the current context's) for writing by CUDA.
  /// Throws std::runtime_error when CUDA refuses (no device, or a context of another GPU).
  explicit GlPositionInterop(unsigned gl_buffer);
  ~GlPositionInterop();
  GlPositionInterop(const GlPositionInterop&) = delete;
  GlPositionInterop& operator=(const GlPositionInterop&) = delete;

  /// Copies `bytes` from device memory at `device_positions` into the buffer.
  void copy_from_device(const void* device_positions, std::size_t bytes);

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace crowd
