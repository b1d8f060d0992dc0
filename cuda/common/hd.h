// CROWD_HD marks the math that runs both in CUDA kernels and on the CPU executor.
// Under nvcc it expands to __host__ __device__ __forceinline__; for the host compiler it is
// plain `inline`, so the same function bodies are unit-tested without a GPU
// (the CuTe `CUTE_HOST_DEVICE` convention, include/cute/config.hpp).
#pragma once

#if defined(__CUDACC__)
#define CROWD_HD __host__ __device__ __forceinline__
#define CROWD_DEVICE_COMPILE 1
#else
#define CROWD_HD inline
#define CROWD_DEVICE_COMPILE 0
#endif

#ifndef GLM_FORCE_XYZW_ONLY
#define GLM_FORCE_XYZW_ONLY
#endif
#include <cfloat>
#include <cmath>
#include <glm/glm.hpp>
