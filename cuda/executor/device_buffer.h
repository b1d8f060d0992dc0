/// @file
/// The owners of the CUDA executor's memory: a typed device buffer, a pinned host staging
/// buffer, and the allocator Thrust draws its temporary storage from. This header is the only
/// place that calls cudaMalloc / cudaMallocHost, so every byte the executor holds is counted
/// by bytes() here and nothing is allocated behind the executor's back.
///
/// Buffers grow by doubling: a crowd that grows one agent at a time reallocates O(log n)
/// times, not once per agent. Growing does NOT keep the old contents; the executor uploads
/// again whatever the kernels read before they write it (it does so whenever the agent count
/// or layout changes, which is the only time buffers grow).
#pragma once

#include "cuda/executor/cuda_check.h"

#include <algorithm>
#include <cstddef>
#include <cuda_runtime_api.h>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace crowd {

/// A failed cudaMalloc / cudaMallocHost. The message names the call, the bytes and what they
/// were for; the fields let the executor add the device's memory situation when the device
/// ran out (DeviceMemoryBudget).
class DeviceAllocationError : public std::runtime_error {
public:
  DeviceAllocationError(cudaError_t status, const char* call, bool on_device, std::size_t bytes,
                        std::string what)
      : std::runtime_error(std::string(call) + " of " + std::to_string(bytes) + " bytes for " +
                           what + " failed: " + describe(status)),
        status_(status), call_(call), on_device_(on_device), bytes_(bytes), what_(std::move(what)) {
  }

  cudaError_t status() const { return status_; }
  /// "cudaMalloc" or "cudaMallocHost".
  const char* call() const { return call_; }
  /// Device memory (cudaMalloc), as opposed to pinned host memory (cudaMallocHost).
  bool on_device() const { return on_device_; }
  /// The device ran out of memory (rather than, say, a sticky error from an earlier fault).
  bool device_out_of_memory() const { return on_device_ && status_ == cudaErrorMemoryAllocation; }
  std::size_t bytes() const { return bytes_; }
  /// What the memory was for ("position for 5000 agents").
  const std::string& purpose() const { return what_; }
  /// The runtime's name and description of a status: "cudaErrorMemoryAllocation (out of
  /// memory)".
  static std::string describe(cudaError_t status) {
    return std::string(cudaGetErrorName(status)) + " (" + cudaGetErrorString(status) + ")";
  }

private:
  cudaError_t status_;
  const char* call_;
  bool on_device_;
  std::size_t bytes_;
  std::string what_;
};

namespace detail {

/// The new capacity for a request of `count` elements: at least double the old one.
inline std::size_t grown_capacity(std::size_t capacity, std::size_t count) {
  return std::max(count, capacity * 2);
}

/// Throws the allocation failure with what was being allocated, then clears the runtime's
/// last error so the next launch check does not report this failure again.
[[noreturn]] inline void throw_allocation_error(cudaError_t status, const char* call,
                                                bool on_device, std::size_t bytes,
                                                const std::string& what) {
  (void)cudaGetLastError();
  throw DeviceAllocationError(status, call, on_device, bytes, what);
}

} // namespace detail

/// Device memory: cudaMalloc / cudaFree.
struct DeviceMemory {
  static constexpr const char* kAllocateCall = "cudaMalloc";
  static constexpr bool kOnDevice = true;
  static cudaError_t allocate(void** data, std::size_t bytes) { return cudaMalloc(data, bytes); }
  // cudaFree cannot usefully fail here (called from destructors, which must not throw); a
  // failure would mean the context is already gone, and with it the memory.
  static void release(void* data) noexcept { (void)cudaFree(data); }
};

/// Page-locked host memory, the staging area of asynchronous copies (cudaMemcpyAsync from
/// pageable memory is synchronous with respect to the host, and slower).
struct PinnedHostMemory {
  static constexpr const char* kAllocateCall = "cudaMallocHost";
  static constexpr bool kOnDevice = false;
  static cudaError_t allocate(void** data, std::size_t bytes) {
    return cudaMallocHost(data, bytes);
  }
  static void release(void* data) noexcept { (void)cudaFreeHost(data); }
};

/// An array of T in the memory `Space` allocates (RAII, move-only).
template <class T, class Space> class CudaBuffer {
public:
  using value_type = T;

  CudaBuffer() = default;
  CudaBuffer(const CudaBuffer&) = delete;
  CudaBuffer& operator=(const CudaBuffer&) = delete;
  CudaBuffer(CudaBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), capacity_(std::exchange(other.capacity_, 0)) {}
  CudaBuffer& operator=(CudaBuffer&& other) noexcept {
    if (this != &other) {
      release();
      data_ = std::exchange(other.data_, nullptr);
      capacity_ = std::exchange(other.capacity_, 0);
    }
    return *this;
  }
  ~CudaBuffer() { release(); }

  /// Makes room for at least `count` elements, growing to max(count, 2 x capacity). The
  /// contents are not kept when it grows. `what` names the allocation in the error message
  /// (for example "position for 5000 agents"). A pinned buffer must not grow while a copy from
  /// or to it is in flight.
  void reserve(std::size_t count, const std::string& what) {
    if (count <= capacity_)
      return;
    const std::size_t capacity = detail::grown_capacity(capacity_, count);
    release();
    void* data = nullptr;
    const cudaError_t status = Space::allocate(&data, capacity * sizeof(T));
    if (status != cudaSuccess)
      detail::throw_allocation_error(status, Space::kAllocateCall, Space::kOnDevice,
                                     capacity * sizeof(T), what);
    data_ = static_cast<T*>(data);
    capacity_ = capacity;
  }

  T* data() { return data_; }
  const T* data() const { return data_; }
  std::size_t capacity() const { return capacity_; }
  std::size_t bytes() const { return capacity_ * sizeof(T); }

private:
  void release() noexcept {
    if (data_ != nullptr)
      Space::release(data_);
    data_ = nullptr;
    capacity_ = 0;
  }

  T* data_ = nullptr;
  std::size_t capacity_ = 0;
};

template <class T> using DeviceBuffer = CudaBuffer<T, DeviceMemory>;
template <class T> using PinnedBuffer = CudaBuffer<T, PinnedHostMemory>;

/// The allocator handed to Thrust (thrust::cuda::par_nosync(allocator).on(stream)) for the
/// temporary storage of its algorithms (the radix sort of the grid build). Blocks are kept
/// and reused from step to step, so after the first steps the grid build allocates nothing;
/// a freed block is reused by later work on the same stream, which stream order makes safe.
class DeviceTempAllocator {
public:
  using value_type = char;

  /// What the storage is for, quoted in an allocation failure ("... for 5000 agents").
  void set_purpose(std::string purpose) { purpose_ = std::move(purpose); }

  char* allocate(std::ptrdiff_t bytes) {
    const auto size = static_cast<std::size_t>(bytes);
    // The smallest free block that fits; otherwise grow a free block, or add one.
    Block* best = nullptr;
    Block* any_free = nullptr;
    for (Block& block : blocks_) {
      if (block.in_use)
        continue;
      any_free = &block;
      if (block.buffer.capacity() >= size &&
          (best == nullptr || block.buffer.capacity() < best->buffer.capacity()))
        best = &block;
    }
    if (best == nullptr) {
      if (any_free == nullptr)
        any_free = &blocks_.emplace_back();
      any_free->buffer.reserve(size, "Thrust temporary storage of " + purpose_);
      best = any_free;
    }
    best->in_use = true;
    return best->buffer.data();
  }

  void deallocate(char* pointer, std::size_t /*bytes*/) {
    for (Block& block : blocks_) {
      if (block.buffer.data() == pointer) {
        block.in_use = false;
        return;
      }
    }
  }

  std::size_t bytes() const {
    std::size_t total = 0;
    for (const Block& block : blocks_)
      total += block.buffer.bytes();
    return total;
  }

private:
  struct Block {
    DeviceBuffer<char> buffer;
    bool in_use = false;
  };
  // Moving a Block (when blocks_ grows) moves the device pointer along, so the pointers Thrust
  // holds stay valid.
  std::vector<Block> blocks_;
  std::string purpose_ = "the agent grid";
};

} // namespace crowd
