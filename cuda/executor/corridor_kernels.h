// The corridor kernels on a GPU: the navmesh tables copied to device memory once per navmesh,
// and the validity look-ahead, corners, visibility shortcuts and moves of a batch of corridors
// (cuda/kernels/corridor_validity.h, corridor_corners.h, corridor_visibility.h,
// corridor_move.h), one thread per agent. Each call uploads the batch, runs its kernel and
// downloads the result; `kernel_ms`, when given, receives the kernel's own time from CUDA events
// (bench/bench_corridor_kernels.cpp).
// Plain C++ declarations: the host code that calls them needs no CUDA compiler.
#pragma once

#include "cuda/kernels/navmesh_tables.h"
#include "cuda/kernels/path_trees.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace crowd {

/// Corridors in the agent arrays' layout (CorridorRowsView), on the host.
struct CorridorRows {
  int capacity = 0;
  std::vector<std::int32_t> polys; ///< [agents x capacity]
  std::vector<std::int32_t> size;  ///< [agents]
  std::vector<float> position;     ///< [agents x 3]
  std::vector<float> target;       ///< [agents x 3]
  int count() const { return static_cast<int>(size.size()); }
};

/// Corners in the CornerRowsView layout, on the host.
struct CornerRows {
  int capacity = 0;
  std::vector<float> verts;        ///< [agents x capacity x 3]
  std::vector<std::uint8_t> flags; ///< [agents x capacity]
  std::vector<std::int32_t> polys; ///< [agents x capacity]
  std::vector<std::int32_t> count; ///< [agents]
  void resize(int agents, int corners_per_agent);
};

/// The navmesh tables in device memory: copied from `host` (whose arrays need not outlive
/// this; the tables it leaves null stay null), viewed by the kernels through view().
class DeviceNavmeshTables {
public:
  explicit DeviceNavmeshTables(const NavmeshTablesView& host);
  ~DeviceNavmeshTables();
  DeviceNavmeshTables(const DeviceNavmeshTables&) = delete;
  DeviceNavmeshTables& operator=(const DeviceNavmeshTables&) = delete;

  /// Device pointers: for kernels only.
  NavmeshTablesView view() const;
  std::size_t device_bytes() const;

private:
  struct Buffers;
  std::unique_ptr<Buffers> buffers_;
};

/// The shared path trees in device memory (cuda/kernels/path_trees.h), copied from the host's
/// pool (host/paths/path_tree_pool.h) whenever it changes.
class DevicePathTrees {
public:
  explicit DevicePathTrees(const PathTreesView& host);
  ~DevicePathTrees();
  DevicePathTrees(const DevicePathTrees&) = delete;
  DevicePathTrees& operator=(const DevicePathTrees&) = delete;

  /// Device pointers: for kernels only.
  PathTreesView view() const;
  std::size_t device_bytes() const;

private:
  struct Buffers;
  std::unique_ptr<Buffers> buffers_;
};

/// The visibility shortcut of every corridor of `corridors` (rows changed in place) toward
/// next[i] (x y z) within range[i], on the device: what shortcut_of_agent does on the CPU, to
/// the bit. Returns answered[i] (0 where the host must ask Detour). Synchronous.
std::vector<std::int32_t> optimize_visibility_on_device(const DeviceNavmeshTables& tables,
                                                        CorridorRows& corridors,
                                                        const std::vector<float>& next,
                                                        const std::vector<float>& range,
                                                        double* kernel_ms = nullptr);

/// The corridor move of every corridor of `corridors` (rows and positions changed in place)
/// toward npos[i] (x y z), on the device: what move_of_agent does on the CPU, to the bit.
/// Returns answered[i] (0 where the host must ask Detour). Synchronous.
std::vector<std::int32_t> move_corridors_on_device(const DeviceNavmeshTables& tables,
                                                   CorridorRows& corridors,
                                                   const std::vector<float>& npos,
                                                   double* kernel_ms = nullptr);

/// The validity look-ahead of every corridor of `corridors` toward goal polygon goal[i] (a
/// dense index, -1 for none), on the device: check_corridor's findings (kCorridorStartInvalid,
/// kCorridorAheadInvalid, kCorridorNearEnd) per agent, what it gives on the CPU, to the bit.
/// Synchronous.
std::vector<std::uint8_t> check_corridors_on_device(const DeviceNavmeshTables& tables,
                                                    const CorridorRows& corridors,
                                                    const std::vector<std::int32_t>& goal,
                                                    double* kernel_ms = nullptr);

/// The corners of every corridor of `corridors`, computed on the device against `tables`:
/// what corners_of_agent gives on the CPU, to the bit. Synchronous.
CornerRows find_corners_on_device(const DeviceNavmeshTables& tables, const CorridorRows& corridors,
                                  int max_corners, double* kernel_ms = nullptr);

} // namespace crowd
