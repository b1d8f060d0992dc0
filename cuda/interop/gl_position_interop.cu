#include "cuda/interop/gl_position_interop.h"

#include <cuda_gl_interop.h>
#include <cuda_runtime.h>
#include <stdexcept>
#include <string>

namespace crowd {
namespace {

void check(cudaError_t status, const char* call) {
  if (status != cudaSuccess)
    throw std::runtime_error(std::string("CUDA-GL interop: ") + call + ": " +
                             cudaGetErrorString(status));
}

} // namespace

struct GlPositionInterop::Impl {
  cudaGraphicsResource_t resource = nullptr;
};

GlPositionInterop::GlPositionInterop(unsigned gl_buffer) : impl_(std::make_unique<Impl>()) {
  check(cudaGraphicsGLRegisterBuffer(&impl_->resource, gl_buffer,
                                     cudaGraphicsRegisterFlagsWriteDiscard),
        "cudaGraphicsGLRegisterBuffer");
}

GlPositionInterop::~GlPositionInterop() {
  if (impl_->resource != nullptr)
    cudaGraphicsUnregisterResource(impl_->resource);
}

void GlPositionInterop::copy_from_device(const void* device_positions, std::size_t bytes) {
  check(cudaGraphicsMapResources(1, &impl_->resource, nullptr), "cudaGraphicsMapResources");
  void* mapped = nullptr;
  std::size_t size = 0;
  const cudaError_t pointer = cudaGraphicsResourceGetMappedPointer(&mapped, &size, impl_->resource);
  cudaError_t copy = cudaSuccess;
  if (pointer == cudaSuccess)
    copy =
        cudaMemcpy(mapped, device_positions, bytes < size ? bytes : size, cudaMemcpyDeviceToDevice);
  check(cudaGraphicsUnmapResources(1, &impl_->resource, nullptr), "cudaGraphicsUnmapResources");
  check(pointer, "cudaGraphicsResourceGetMappedPointer");
  check(copy, "cudaMemcpy (device to device)");
}

} // namespace crowd
