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

// CROWD_SIMD_LOOP before a loop whose iterations are independent lanes (no iteration reads what
// another writes): GCC makes vectors of them (OpenMP's simd, built with -fopenmp-simd: no
// runtime), where it would otherwise compile the branch-free body with branches again, one lane
// at a time. Clang vectorises such loops by itself, and warns where it is asked to but cannot
// (as at -O1 under the fuzzers' sanitizers). On the GPU each thread runs the loop as written.
#if defined(__CUDACC__) || defined(__clang__)
#define CROWD_SIMD_LOOP
#else
#define CROWD_SIMD_LOOP _Pragma("omp simd")
#endif

#ifndef GLM_FORCE_XYZW_ONLY
#define GLM_FORCE_XYZW_ONLY
#endif
#include <cfloat>
#include <cmath>
#include <glm/glm.hpp>
