#include "cuda/executor/corridor_kernels.h"
#include "cuda/executor/cuda_check.h"
#include "cuda/executor/device_buffer.h"
#include "cuda/executor/launch_policy.h"
#include "cuda/kernels/corridor_corners.h"
#include "cuda/kernels/corridor_move.h"
#include "cuda/kernels/corridor_visibility.h"

#include <string>

namespace crowd {

void CornerRows::resize(int agents, int corners_per_agent) {
  capacity = corners_per_agent;
  const auto n = static_cast<std::size_t>(agents);
  const auto c = static_cast<std::size_t>(corners_per_agent);
  verts.assign(n * c * 3, 0.0f);
  flags.assign(n * c, 0);
  polys.assign(n * c, -1);
  count.assign(n, 0);
}

namespace {

/// One agent's corners per thread.
__global__ void __launch_bounds__(kAgentPolicy.threads_per_block)
    corners_kernel(NavmeshTablesView nav, CorridorRowsView in, CornerRowsView out) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < in.count)
    corners_of_agent(i, nav, in, out);
}

/// One agent's visibility shortcut per thread.
__global__ void __launch_bounds__(kAgentPolicy.threads_per_block)
    shortcut_kernel(NavmeshTablesView nav, int count, std::int32_t* polys, std::int32_t* size,
                    int capacity, const float* position, const float* next, const float* range,
                    std::int32_t* answered) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < count)
    shortcut_of_agent(i, nav, polys, size, capacity, position, next, range, answered);
}

/// One agent's corridor move per thread.
__global__ void __launch_bounds__(kAgentPolicy.threads_per_block)
    move_kernel(NavmeshTablesView nav, int count, std::int32_t* polys, std::int32_t* size,
                int capacity, float* position, const float* npos, std::int32_t* answered) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < count)
    move_of_agent(i, nav, polys, size, capacity, position, npos, answered);
}

/// Times one launch with two CUDA events on the default stream.
class KernelTimer {
public:
  KernelTimer() {
    CROWD_CUDA_CHECK(cudaEventCreate(&start_));
    CROWD_CUDA_CHECK(cudaEventCreate(&stop_));
  }
  ~KernelTimer() {
    (void)cudaEventDestroy(start_);
    (void)cudaEventDestroy(stop_);
  }
  KernelTimer(const KernelTimer&) = delete;
  KernelTimer& operator=(const KernelTimer&) = delete;
  void start() { CROWD_CUDA_CHECK(cudaEventRecord(start_)); }
  /// Waits for the launch and writes its milliseconds to `ms` when given.
  void stop(double* ms) {
    CROWD_CUDA_CHECK(cudaEventRecord(stop_));
    CROWD_CUDA_CHECK(cudaEventSynchronize(stop_));
    float elapsed = 0.0f;
    CROWD_CUDA_CHECK(cudaEventElapsedTime(&elapsed, start_, stop_));
    if (ms != nullptr)
      *ms = elapsed;
  }

private:
  cudaEvent_t start_ = nullptr;
  cudaEvent_t stop_ = nullptr;
};

template <class T>
void upload(DeviceBuffer<T>& device, const T* host, std::size_t count, const std::string& what) {
  device.reserve(count > 0 ? count : 1, what);
  if (count > 0)
    CROWD_CUDA_CHECK(cudaMemcpy(device.data(), host, count * sizeof(T), cudaMemcpyHostToDevice));
}

template <class T> void download(std::vector<T>& host, const DeviceBuffer<T>& device) {
  if (!host.empty())
    CROWD_CUDA_CHECK(
        cudaMemcpy(host.data(), device.data(), host.size() * sizeof(T), cudaMemcpyDeviceToHost));
}

} // namespace

struct DeviceNavmeshTables::Buffers {
  NavmeshTablesView view;
  DeviceBuffer<std::int32_t> portal_start, vertex_start, across, neighbour_start, neighbours;
  DeviceBuffer<NavPortal> portals;
  DeviceBuffer<float> vertices, flat_height;
  DeviceBuffer<std::uint8_t> flat, passable;
};

DeviceNavmeshTables::DeviceNavmeshTables(const NavmeshTablesView& host)
    : buffers_(std::make_unique<Buffers>()) {
  Buffers& b = *buffers_;
  const auto polygons = static_cast<std::size_t>(host.polygon_count);
  const std::string what = "the navmesh tables (" + std::to_string(polygons) + " polygons)";
  // Each table is optional (a view of the outlines alone serves raycasts).
  b.view.polygon_count = host.polygon_count;
  if (host.portal_start != nullptr) {
    upload(b.portal_start, host.portal_start, polygons + 1, what);
    upload(b.portals, host.portals, static_cast<std::size_t>(host.portal_start[polygons]), what);
    b.view.portal_start = b.portal_start.data();
    b.view.portals = b.portals.data();
  }
  if (host.vertex_start != nullptr) {
    const auto edges = static_cast<std::size_t>(host.vertex_start[polygons]);
    upload(b.vertex_start, host.vertex_start, polygons + 1, what);
    upload(b.vertices, host.vertices, edges * 3, what);
    b.view.vertex_start = b.vertex_start.data();
    b.view.vertices = b.vertices.data();
    if (host.across != nullptr) {
      upload(b.across, host.across, edges, what);
      b.view.across = b.across.data();
    }
    if (host.neighbour_start != nullptr) {
      upload(b.neighbour_start, host.neighbour_start, edges + 1, what);
      upload(b.neighbours, host.neighbours, static_cast<std::size_t>(host.neighbour_start[edges]),
             what);
      b.view.neighbour_start = b.neighbour_start.data();
      b.view.neighbours = b.neighbours.data();
    }
  }
  if (host.passable != nullptr) {
    upload(b.passable, host.passable, polygons, what);
    b.view.passable = b.passable.data();
  }
  if (host.flat != nullptr) {
    upload(b.flat, host.flat, polygons, what);
    upload(b.flat_height, host.flat_height, polygons, what);
    b.view.flat = b.flat.data();
    b.view.flat_height = b.flat_height.data();
  }
}

DeviceNavmeshTables::~DeviceNavmeshTables() = default;

NavmeshTablesView DeviceNavmeshTables::view() const {
  return buffers_->view;
}

std::size_t DeviceNavmeshTables::device_bytes() const {
  const Buffers& b = *buffers_;
  return b.portal_start.bytes() + b.vertex_start.bytes() + b.across.bytes() +
         b.neighbour_start.bytes() + b.neighbours.bytes() + b.portals.bytes() + b.vertices.bytes() +
         b.flat_height.bytes() + b.flat.bytes() + b.passable.bytes();
}

CornerRows find_corners_on_device(const DeviceNavmeshTables& tables, const CorridorRows& corridors,
                                  int max_corners, double* kernel_ms) {
  const int n = corridors.count();
  CornerRows result;
  result.resize(n, max_corners);
  if (n == 0)
    return result;
  const auto agents = static_cast<std::size_t>(n);
  const std::string what = "the corridors of " + std::to_string(n) + " agents";
  DeviceBuffer<std::int32_t> polys, size, corner_polys, count;
  DeviceBuffer<float> position, target, verts;
  DeviceBuffer<std::uint8_t> flags;
  upload(polys, corridors.polys.data(), corridors.polys.size(), what);
  upload(size, corridors.size.data(), agents, what);
  upload(position, corridors.position.data(), agents * 3, what);
  upload(target, corridors.target.data(), agents * 3, what);
  verts.reserve(result.verts.size() > 0 ? result.verts.size() : 1, what);
  flags.reserve(result.flags.size() > 0 ? result.flags.size() : 1, what);
  corner_polys.reserve(result.polys.size() > 0 ? result.polys.size() : 1, what);
  count.reserve(agents, what);

  const CorridorRowsView in{n,           corridors.capacity, polys.data(),
                            size.data(), position.data(),    target.data()};
  const CornerRowsView out{max_corners, verts.data(), flags.data(), corner_polys.data(),
                           count.data()};
  KernelTimer timer;
  timer.start();
  corners_kernel<<<blocks_for(n, kAgentPolicy), kAgentPolicy.threads_per_block>>>(tables.view(), in,
                                                                                  out);
  CROWD_CUDA_CHECK_LAUNCH("corners_kernel");
  timer.stop(kernel_ms);
  download(result.verts, verts);
  download(result.flags, flags);
  download(result.polys, corner_polys);
  download(result.count, count);
  return result;
}

std::vector<std::int32_t> optimize_visibility_on_device(const DeviceNavmeshTables& tables,
                                                        CorridorRows& corridors,
                                                        const std::vector<float>& next,
                                                        const std::vector<float>& range,
                                                        double* kernel_ms) {
  const int n = corridors.count();
  std::vector<std::int32_t> answered(static_cast<std::size_t>(n), 0);
  if (n == 0)
    return answered;
  const auto agents = static_cast<std::size_t>(n);
  const std::string what = "the corridors of " + std::to_string(n) + " agents";
  DeviceBuffer<std::int32_t> polys, size, answered_device;
  DeviceBuffer<float> position, next_device, range_device;
  upload(polys, corridors.polys.data(), corridors.polys.size(), what);
  upload(size, corridors.size.data(), agents, what);
  upload(position, corridors.position.data(), agents * 3, what);
  upload(next_device, next.data(), agents * 3, what);
  upload(range_device, range.data(), agents, what);
  answered_device.reserve(agents, what);
  KernelTimer timer;
  timer.start();
  shortcut_kernel<<<blocks_for(n, kAgentPolicy), kAgentPolicy.threads_per_block>>>(
      tables.view(), n, polys.data(), size.data(), corridors.capacity, position.data(),
      next_device.data(), range_device.data(), answered_device.data());
  CROWD_CUDA_CHECK_LAUNCH("shortcut_kernel");
  timer.stop(kernel_ms);
  download(corridors.polys, polys);
  download(corridors.size, size);
  download(answered, answered_device);
  return answered;
}

std::vector<std::int32_t> move_corridors_on_device(const DeviceNavmeshTables& tables,
                                                   CorridorRows& corridors,
                                                   const std::vector<float>& npos,
                                                   double* kernel_ms) {
  const int n = corridors.count();
  std::vector<std::int32_t> answered(static_cast<std::size_t>(n), 0);
  if (n == 0)
    return answered;
  const auto agents = static_cast<std::size_t>(n);
  const std::string what = "the corridors of " + std::to_string(n) + " agents";
  DeviceBuffer<std::int32_t> polys, size, answered_device;
  DeviceBuffer<float> position, npos_device;
  upload(polys, corridors.polys.data(), corridors.polys.size(), what);
  upload(size, corridors.size.data(), agents, what);
  upload(position, corridors.position.data(), agents * 3, what);
  upload(npos_device, npos.data(), agents * 3, what);
  answered_device.reserve(agents, what);
  KernelTimer timer;
  timer.start();
  move_kernel<<<blocks_for(n, kAgentPolicy), kAgentPolicy.threads_per_block>>>(
      tables.view(), n, polys.data(), size.data(), corridors.capacity, position.data(),
      npos_device.data(), answered_device.data());
  CROWD_CUDA_CHECK_LAUNCH("move_kernel");
  timer.stop(kernel_ms);
  download(corridors.polys, polys);
  download(corridors.size, size);
  download(corridors.position, position);
  download(answered, answered_device);
  return answered;
}

} // namespace crowd
