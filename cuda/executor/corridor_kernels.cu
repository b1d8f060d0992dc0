#include "cuda/executor/corridor_kernels.h"
#include "cuda/executor/cuda_check.h"
#include "cuda/executor/device_buffer.h"
#include "cuda/executor/launch_policy.h"
#include "cuda/kernels/corridor_corners.h"
#include "cuda/kernels/corridor_move.h"
#include "cuda/kernels/corridor_validity.h"
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

/// One agent's validity look-ahead per thread.
__global__ void __launch_bounds__(kAgentPolicy.threads_per_block)
    check_kernel(NavmeshTablesView nav, int count, const std::int32_t* polys,
                 const std::int32_t* size, int capacity, const std::int32_t* goal,
                 std::uint8_t* checks) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < count)
    checks[i] = check_corridor(nav, polys + static_cast<long long>(i) * capacity, size[i], goal[i]);
}

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

struct DevicePathTrees::Buffers {
  PathTreesView view;
  DeviceBuffer<std::int32_t> tree_of_goal, start, end, polygons, next;
};

DevicePathTrees::DevicePathTrees(const PathTreesView& host)
    : buffers_(std::make_unique<Buffers>()) {
  Buffers& b = *buffers_;
  if (host.tree_of_goal == nullptr)
    return; // no navmesh: tree_of answers -1 for every goal
  const auto polygons = static_cast<std::size_t>(host.polygon_count);
  const auto trees = static_cast<std::size_t>(host.tree_count);
  const auto entries = static_cast<std::size_t>(host.entries);
  const std::string what = "the path trees (" + std::to_string(trees) + " trees, " +
                           std::to_string(entries) + " polygons)";
  upload(b.tree_of_goal, host.tree_of_goal, polygons, what);
  upload(b.start, host.start, trees, what);
  upload(b.end, host.end, trees, what);
  upload(b.polygons, host.polygons, entries, what);
  upload(b.next, host.next, entries, what);
  b.view.polygon_count = host.polygon_count;
  b.view.tree_count = host.tree_count;
  b.view.entries = host.entries;
  b.view.tree_of_goal = b.tree_of_goal.data();
  b.view.start = b.start.data();
  b.view.end = b.end.data();
  b.view.polygons = b.polygons.data();
  b.view.next = b.next.data();
}

DevicePathTrees::~DevicePathTrees() = default;

PathTreesView DevicePathTrees::view() const {
  return buffers_->view;
}

std::size_t DevicePathTrees::device_bytes() const {
  const Buffers& b = *buffers_;
  return b.tree_of_goal.bytes() + b.start.bytes() + b.end.bytes() + b.polygons.bytes() +
         b.next.bytes();
}

namespace {

/// A batch of corridor rows on the device for one launch: the rows, their sizes, positions and
/// targets uploaded, and `answered` room for the kernels that report it; download_into brings
/// back what the kernels change.
struct DeviceCorridorRows {
  int count;
  std::string what;
  DeviceBuffer<std::int32_t> polys, size, answered;
  DeviceBuffer<float> position, target;

  explicit DeviceCorridorRows(const CorridorRows& rows)
      : count(rows.count()), what("the corridors of " + std::to_string(count) + " agents") {
    const auto agents = static_cast<std::size_t>(count);
    upload(polys, rows.polys.data(), rows.polys.size(), what);
    upload(size, rows.size.data(), agents, what);
    upload(position, rows.position.data(), agents * 3, what);
    upload(target, rows.target.data(), rows.target.size(), what);
    answered.reserve(agents, what);
  }

  /// The rows, sizes and positions back into `rows`; the per-agent answers returned.
  std::vector<std::int32_t> download_into(CorridorRows& rows) const {
    std::vector<std::int32_t> result(static_cast<std::size_t>(count), 0);
    download(rows.polys, polys);
    download(rows.size, size);
    download(rows.position, position);
    download(result, answered);
    return result;
  }
};

} // namespace

std::vector<std::uint8_t> check_corridors_on_device(const DeviceNavmeshTables& tables,
                                                    const CorridorRows& corridors,
                                                    const std::vector<std::int32_t>& goal,
                                                    double* kernel_ms) {
  const int n = corridors.count();
  std::vector<std::uint8_t> checks(static_cast<std::size_t>(n), 0);
  if (n == 0)
    return checks;
  const DeviceCorridorRows rows(corridors);
  DeviceBuffer<std::int32_t> goal_device;
  upload(goal_device, goal.data(), static_cast<std::size_t>(n), rows.what);
  DeviceBuffer<std::uint8_t> checks_device;
  checks_device.reserve(static_cast<std::size_t>(n), rows.what);
  KernelTimer timer;
  timer.start();
  check_kernel<<<blocks_for(n, kAgentPolicy), kAgentPolicy.threads_per_block>>>(
      tables.view(), n, rows.polys.data(), rows.size.data(), corridors.capacity, goal_device.data(),
      checks_device.data());
  CROWD_CUDA_CHECK_LAUNCH("check_kernel");
  timer.stop(kernel_ms);
  download(checks, checks_device);
  return checks;
}

CornerRows find_corners_on_device(const DeviceNavmeshTables& tables, const CorridorRows& corridors,
                                  int max_corners, double* kernel_ms) {
  const int n = corridors.count();
  CornerRows result;
  result.resize(n, max_corners);
  if (n == 0)
    return result;
  const DeviceCorridorRows rows(corridors);
  DeviceBuffer<std::int32_t> corner_polys, count;
  DeviceBuffer<float> verts;
  DeviceBuffer<std::uint8_t> flags;
  verts.reserve(result.verts.size() > 0 ? result.verts.size() : 1, rows.what);
  flags.reserve(result.flags.size() > 0 ? result.flags.size() : 1, rows.what);
  corner_polys.reserve(result.polys.size() > 0 ? result.polys.size() : 1, rows.what);
  count.reserve(static_cast<std::size_t>(n), rows.what);

  const CorridorRowsView in{n,
                            corridors.capacity,
                            rows.polys.data(),
                            rows.size.data(),
                            rows.position.data(),
                            rows.target.data()};
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
  if (n == 0)
    return {};
  DeviceCorridorRows rows(corridors);
  DeviceBuffer<float> next_device, range_device;
  upload(next_device, next.data(), static_cast<std::size_t>(n) * 3, rows.what);
  upload(range_device, range.data(), static_cast<std::size_t>(n), rows.what);
  KernelTimer timer;
  timer.start();
  shortcut_kernel<<<blocks_for(n, kAgentPolicy), kAgentPolicy.threads_per_block>>>(
      tables.view(), n, rows.polys.data(), rows.size.data(), corridors.capacity,
      rows.position.data(), next_device.data(), range_device.data(), rows.answered.data());
  CROWD_CUDA_CHECK_LAUNCH("shortcut_kernel");
  timer.stop(kernel_ms);
  return rows.download_into(corridors);
}

std::vector<std::int32_t> move_corridors_on_device(const DeviceNavmeshTables& tables,
                                                   CorridorRows& corridors,
                                                   const std::vector<float>& npos,
                                                   double* kernel_ms) {
  const int n = corridors.count();
  if (n == 0)
    return {};
  DeviceCorridorRows rows(corridors);
  DeviceBuffer<float> npos_device;
  upload(npos_device, npos.data(), static_cast<std::size_t>(n) * 3, rows.what);
  KernelTimer timer;
  timer.start();
  move_kernel<<<blocks_for(n, kAgentPolicy), kAgentPolicy.threads_per_block>>>(
      tables.view(), n, rows.polys.data(), rows.size.data(), corridors.capacity,
      rows.position.data(), npos_device.data(), rows.answered.data());
  CROWD_CUDA_CHECK_LAUNCH("move_kernel");
  timer.stop(kernel_ms);
  return rows.download_into(corridors);
}

} // namespace crowd
