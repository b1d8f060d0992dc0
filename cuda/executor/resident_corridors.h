// The corridor rows of the agent arrays (cuda/core/corridor_arrays.h) kept in device memory
// between the CUDA executor's phases, and the three corridor phases run on them as kernels, one
// thread per agent on the bodies of cuda/kernels/corridor_following.h: the validity look-ahead,
// the following (corners, visibility shortcut, preferred velocity) and the move.
//
// Per step only the events cross: the rows the host wrote (CorridorArrays::dirty) go up in one
// packed copy and one scatter kernel before the next phase; the rows the host asks for
// (fetch, and the agents a phase flags for the host) come down in one gather kernel and one
// packed copy; the goals go up when the host changed one, the state bytes (1 B per agent)
// before each phase that reads them, the validity findings (1 B per agent) come down after the
// look-ahead. A phase that writes rows leaves the host holding none (CorridorArrays::held).
//
// CUDA types in the interface: included by the CUDA executor only.
#pragma once

#include "cuda/core/corridor_arrays.h"
#include "cuda/core/executor.h"
#include "cuda/executor/device_buffer.h"
#include "cuda/kernels/agent_view.h"
#include "cuda/kernels/navmesh_tables.h"

#include <cstddef>
#include <cstdint>
#include <cuda_runtime_api.h>
#include <glm/glm.hpp>
#include <span>
#include <type_traits>
#include <vector>

namespace crowd {

class ResidentCorridors {
public:
  /// Device bytes per agent of rows of `capacity` polygons and `corner_capacity` corners.
  std::size_t bytes_per_agent(int capacity, int corner_capacity) const;

  /// Fits the device rows to the host's: when they must grow (the agent count passed the
  /// rows allocated, or the capacities changed), first brings the rows the host does not hold
  /// down to it, since growing loses the device's contents, then marks every row for upload.
  void fit(CorridorArrays& rows, cudaStream_t stream);

  /// Queues the upload of the rows the host wrote (their steering, preferred velocity and
  /// corridor direction, into `device_steering` with them) and of the goals when the host
  /// changed one; the rows are then the device's again. Asynchronous.
  void upload_written(CorridorArrays& rows, const std::vector<glm::vec2>& preferred_velocity,
                      const std::vector<glm::vec2>& corridor_direction,
                      const SteeringRow& device_steering, cudaStream_t stream);

  /// Marks every row the host holds for upload_written: the host's copy of the rows is then
  /// the device's wherever it is current (StepInputs::Everything).
  void take_held_rows(CorridorArrays& rows) const;

  /// The device's rows as the avoidance kernels read them, over the device tables `nav`; none
  /// unless they are one per agent of `agents`.
  AgentCorridorsView rows_view(const NavmeshTablesView& nav, int agents) const;

  /// Brings the rows of `which` that the host does not hold down to it. Synchronous.
  void fetch(CorridorArrays& rows, std::span<const std::int32_t> which, cudaStream_t stream);
  /// The first polygon of the rows of `which` into `first` (-1 for an empty row): the host's
  /// where it holds the row, else 4 bytes read from the device's. Synchronous.
  void fetch_starts(const CorridorArrays& rows, std::span<const std::int32_t> which,
                    std::span<std::int32_t> first, cudaStream_t stream);

  /// The validity look-ahead of every row into rows.checks (downloaded). Synchronous.
  void check(const NavmeshTablesView& nav, CorridorArrays& rows, cudaStream_t stream);

  /// Corners, shortcut and steering (into `steering`, device memory) of every agent, with the
  /// host's state bytes; the flagged agents listed, ascending, in rows.asked and their rows
  /// fetched. Synchronous.
  void follow(const NavmeshTablesView& nav, CorridorArrays& rows, const AgentView& agents,
              const SteeringRow& steering, float range_factor, cudaStream_t stream);

  /// Every corridor moved to agents.position (device memory, where the agents are put back),
  /// with the host's state bytes; the flagged agents listed in rows.asked and their rows
  /// fetched. Returns the corrections of the agents the device moved. Synchronous.
  NavmeshCorrections move(const NavmeshTablesView& nav, const PathTreesView& trees,
                          CorridorArrays& rows, const AgentView& agents, cudaStream_t stream);

  std::size_t device_bytes() const;

private:
  /// Calls f(buffer, elements per row) for every buffer sized by the rows: the one list that
  /// fit grows, device_bytes counts and bytes_per_agent prices. `Self` is this class, const or
  /// not.
  template <class Self, class F>
  static void for_each_row_buffer(Self& self, int capacity, int corner_capacity, F&& f) {
    const auto polys = static_cast<std::size_t>(capacity);
    const auto corners = static_cast<std::size_t>(corner_capacity);
    f(self.polys_, polys);
    f(self.size_, 1);
    f(self.start_, 1);
    f(self.target_, 1);
    f(self.corner_verts_, corners);
    f(self.corner_flags_, corners);
    f(self.corner_polys_, corners);
    f(self.corner_count_, 1);
    f(self.state_, 1);
    f(self.goal_, 1);
    f(self.goal_point_, 1);
    f(self.checks_, 1);
    f(self.asked_, 1);
  }

  /// The device's rows as the kernel bodies see them.
  CorridorView view();
  /// Queues the upload of the host's state bytes.
  void upload_state(const CorridorArrays& rows, cudaStream_t stream);
  /// Reads the flagged-agent list the last kernel built into rows.asked, ascending, then
  /// fetches their rows (the phase left the host holding none). Synchronous.
  void take_asked(CorridorArrays& rows, int asked, cudaStream_t stream);
  /// Brings the rows of `which` down to the host (their state bytes too when `with_state`: the
  /// flags a phase set). Synchronous.
  void gather(CorridorArrays& rows, const std::vector<std::int32_t>& which, bool with_state,
              cudaStream_t stream);
  /// Makes room for `bytes` in the pinned staging once the copies in flight from it are done.
  unsigned char* staging(std::size_t bytes, cudaStream_t stream);

  int rows_ = 0;      ///< Rows on the device.
  int allocated_ = 0; ///< Rows the buffers hold.
  int capacity_ = 0;  ///< Polygons per row.
  int corner_capacity_ = 0;
  std::uint64_t goal_version_ = ~std::uint64_t{0}; ///< CorridorArrays::goal_version uploaded.

  DeviceBuffer<std::int32_t> polys_;        // [rows x capacity]
  DeviceBuffer<std::int32_t> size_;         // [rows]
  DeviceBuffer<glm::vec3> start_;           // [rows]
  DeviceBuffer<glm::vec3> target_;          // [rows]
  DeviceBuffer<glm::vec3> corner_verts_;    // [rows x corner_capacity]
  DeviceBuffer<std::uint8_t> corner_flags_; // [rows x corner_capacity]
  DeviceBuffer<std::int32_t> corner_polys_; // [rows x corner_capacity]
  DeviceBuffer<std::int32_t> corner_count_; // [rows]
  DeviceBuffer<std::uint8_t> state_;        // [rows]
  DeviceBuffer<std::int32_t> goal_;         // [rows]
  DeviceBuffer<glm::vec3> goal_point_;      // [rows]
  DeviceBuffer<std::uint8_t> checks_;       // [rows]
  DeviceBuffer<std::int32_t> asked_;        // [rows] flagged agents, in no order
  DeviceBuffer<unsigned int> counters_;     // [3] asked, corrections, largest correction
  DeviceBuffer<unsigned char> batch_;       // rows packed for a gather or a scatter
  PinnedBuffer<unsigned char> staging_;     // the host side of batch_ and the small copies
};

} // namespace crowd
