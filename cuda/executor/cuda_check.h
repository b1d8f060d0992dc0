/// @file
/// Error checks for CUDA runtime calls and kernel launches.
///
/// Every runtime call of the CUDA executor goes through CROWD_CUDA_CHECK, which turns a
/// failure into a std::runtime_error naming the call, the file and line, and the runtime's
/// description of the error (Thrust's throw_on_error at the user boundary). After each kernel
/// launch, CROWD_CUDA_CHECK_LAUNCH reads cudaPeekAtLastError, which reports a bad launch
/// configuration (too much shared memory, a zero-sized grid) without synchronising (CUB's
/// CubDebug(cudaPeekAtLastError()) after every launch). Faults inside a kernel surface at the
/// next synchronising call, which is checked too. Define CROWD_CUDA_DEBUG_SYNC to synchronise
/// the device after each launch so that a fault is reported at the launch that caused it.
/// Thrust's CUDA algorithms check their own runtime calls and throw thrust::system_error
/// naming their internal step ("radix_sort: failed on 2nd step"); CROWD_THRUST_CHECK adds
/// our call site to that.
#pragma once

#include <cuda_runtime_api.h>
#include <stdexcept>
#include <string>
#include <thrust/system_error.h>

namespace crowd::detail {

/// Throws std::runtime_error when `status` is an error; `call` is the checked expression.
inline void cuda_check(cudaError_t status, const char* call, const char* file, int line) {
  if (status == cudaSuccess)
    return;
  // Reported once: a non-sticky error must not stay the runtime's last error, where the next
  // launch check (or CUB's) would find it again and blame another call.
  (void)cudaGetLastError();
  throw std::runtime_error(std::string("CUDA error: ") + call + " failed at " + file + ":" +
                           std::to_string(line) + ": " + cudaGetErrorName(status) + " (" +
                           cudaGetErrorString(status) + ")");
}

/// Rethrows a Thrust failure as std::runtime_error naming the call and where it was made.
[[noreturn]] inline void throw_thrust_error(const thrust::system_error& error, const char* call,
                                            const char* file, int line) {
  throw std::runtime_error(std::string("CUDA error: ") + call + " failed at " + file + ":" +
                           std::to_string(line) + ": " + error.what());
}

} // namespace crowd::detail

/// Evaluates a CUDA runtime call once and throws std::runtime_error if it fails.
#define CROWD_CUDA_CHECK(expr) ::crowd::detail::cuda_check((expr), #expr, __FILE__, __LINE__)

#if defined(CROWD_CUDA_DEBUG_SYNC)
/// Checks the last kernel launch and, in debug-sync builds, waits for it to finish.
#define CROWD_CUDA_CHECK_LAUNCH(kernel_name)                                                       \
  do {                                                                                             \
    ::crowd::detail::cuda_check(cudaPeekAtLastError(), "launch of " kernel_name, __FILE__,         \
                                __LINE__);                                                         \
    ::crowd::detail::cuda_check(cudaDeviceSynchronize(), "execution of " kernel_name, __FILE__,    \
                                __LINE__);                                                         \
  } while (0)
#else
/// Checks the last kernel launch (its configuration) without synchronising.
#define CROWD_CUDA_CHECK_LAUNCH(kernel_name)                                                       \
  ::crowd::detail::cuda_check(cudaPeekAtLastError(), "launch of " kernel_name, __FILE__, __LINE__)
#endif

/// Runs a statement of Thrust calls on the CUDA backend and rethrows a thrust::system_error
/// with the statement, file and line. Other exceptions (an allocator's) pass unchanged.
#define CROWD_THRUST_CHECK(statement)                                                              \
  do {                                                                                             \
    try {                                                                                          \
      statement;                                                                                   \
    } catch (const thrust::system_error& thrust_error) {                                           \
      ::crowd::detail::throw_thrust_error(thrust_error, #statement, __FILE__, __LINE__);           \
    }                                                                                              \
  } while (0)
