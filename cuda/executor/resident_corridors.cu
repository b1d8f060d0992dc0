#include "cuda/executor/cuda_check.h"
#include "cuda/executor/launch_policy.h"
#include "cuda/executor/resident_corridors.h"
#include "cuda/kernels/corridor_following.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

namespace crowd {
namespace {

constexpr std::size_t align16(std::size_t bytes) {
  return (bytes + 15) & ~std::size_t{15};
}

/// Where each field of k rows sits in a packed batch (bytes from its start, 16-aligned): the
/// agents, then what a scatter uploads (up to scatter_end), then what only a gather brings
/// down (the state bytes). The corners go up too: the host's answer for an agent the tables
/// asked about (corridor_navigator.cpp's answer_following) is read again from the device's
/// rows, by the link trigger and the debug view.
struct RowBatch {
  std::size_t agents = 0, polys = 0, size = 0, start = 0, target = 0, preferred = 0, direction = 0;
  std::size_t corner_verts = 0, corner_flags = 0, corner_polys = 0, corner_count = 0, state = 0;
  std::size_t scatter_end = 0, bytes = 0;
};

RowBatch row_batch(std::size_t k, int capacity, int corner_capacity) {
  const auto polys = static_cast<std::size_t>(capacity);
  const auto corners = static_cast<std::size_t>(corner_capacity);
  RowBatch b;
  std::size_t at = 0;
  const auto field = [&](std::size_t bytes) {
    const std::size_t here = at;
    at = align16(at + bytes);
    return here;
  };
  b.agents = field(k * sizeof(std::int32_t));
  b.polys = field(k * polys * sizeof(std::int32_t));
  b.size = field(k * sizeof(std::int32_t));
  b.start = field(k * sizeof(glm::vec3));
  b.target = field(k * sizeof(glm::vec3));
  b.preferred = field(k * sizeof(glm::vec2));
  b.direction = field(k * sizeof(glm::vec2));
  b.corner_verts = field(k * corners * sizeof(glm::vec3));
  b.corner_flags = field(k * corners);
  b.corner_polys = field(k * corners * sizeof(std::int32_t));
  b.corner_count = field(k * sizeof(std::int32_t));
  b.scatter_end = at;
  b.state = field(k);
  b.bytes = at;
  return b;
}

/// A packed batch of rows (device or host memory) as typed pointers.
struct BatchView {
  int count = 0;
  std::int32_t* agents = nullptr;
  std::int32_t* polys = nullptr;
  std::int32_t* size = nullptr;
  glm::vec3* start = nullptr;
  glm::vec3* target = nullptr;
  glm::vec2* preferred = nullptr;
  glm::vec2* direction = nullptr;
  glm::vec3* corner_verts = nullptr;
  std::uint8_t* corner_flags = nullptr;
  std::int32_t* corner_polys = nullptr;
  std::int32_t* corner_count = nullptr;
  std::uint8_t* state = nullptr;
};

BatchView batch_view(unsigned char* base, const RowBatch& b, int count) {
  BatchView v;
  v.count = count;
  v.agents = reinterpret_cast<std::int32_t*>(base + b.agents);
  v.polys = reinterpret_cast<std::int32_t*>(base + b.polys);
  v.size = reinterpret_cast<std::int32_t*>(base + b.size);
  v.start = reinterpret_cast<glm::vec3*>(base + b.start);
  v.target = reinterpret_cast<glm::vec3*>(base + b.target);
  v.preferred = reinterpret_cast<glm::vec2*>(base + b.preferred);
  v.direction = reinterpret_cast<glm::vec2*>(base + b.direction);
  v.corner_verts = reinterpret_cast<glm::vec3*>(base + b.corner_verts);
  v.corner_flags = base + b.corner_flags;
  v.corner_polys = reinterpret_cast<std::int32_t*>(base + b.corner_polys);
  v.corner_count = reinterpret_cast<std::int32_t*>(base + b.corner_count);
  v.state = base + b.state;
  return v;
}

__device__ int thread_index() {
  return static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
}

/// The first `count` corners of row `from_row` into row `to_row` (rows of `capacity` corners).
__device__ void copy_corners(const glm::vec3* from_verts, const std::uint8_t* from_flags,
                             const std::int32_t* from_polys, int from_row, glm::vec3* to_verts,
                             std::uint8_t* to_flags, std::int32_t* to_polys, int to_row,
                             int capacity, int count) {
  const long long from = static_cast<long long>(from_row) * capacity;
  const long long to = static_cast<long long>(to_row) * capacity;
  for (int k = 0; k < count; ++k) {
    to_verts[to + k] = from_verts[from + k];
    to_flags[to + k] = from_flags[from + k];
    to_polys[to + k] = from_polys[from + k];
  }
}

/// The host's rows of a batch into the device's rows, one row per thread.
__global__ void __launch_bounds__(kAgentPolicy.threads_per_block)
    scatter_rows_kernel(CorridorView rows, BatchView batch, SteeringRow steering) {
  const int j = thread_index();
  if (j >= batch.count)
    return;
  const int i = batch.agents[j];
  const std::int32_t* from = batch.polys + static_cast<long long>(j) * rows.capacity;
  std::int32_t* to = rows.row(i);
  for (int p = 0; p < batch.size[j]; ++p)
    to[p] = from[p];
  rows.size[i] = batch.size[j];
  rows.start[i] = batch.start[j];
  rows.target[i] = batch.target[j];
  steering.preferred_velocity[i] = batch.preferred[j];
  steering.corridor_direction[i] = batch.direction[j];
  copy_corners(batch.corner_verts, batch.corner_flags, batch.corner_polys, j, rows.corner_verts,
               rows.corner_flags, rows.corner_polys, i, rows.corner_capacity,
               batch.corner_count[j]);
  rows.corner_count[i] = batch.corner_count[j];
}

/// The device's rows of a batch's agents into the batch, one row per thread.
__global__ void __launch_bounds__(kAgentPolicy.threads_per_block)
    gather_rows_kernel(CorridorView rows, BatchView batch) {
  const int j = thread_index();
  if (j >= batch.count)
    return;
  const int i = batch.agents[j];
  const std::int32_t* from = rows.row(i);
  std::int32_t* to = batch.polys + static_cast<long long>(j) * rows.capacity;
  const int n = rows.size[i];
  for (int p = 0; p < n; ++p)
    to[p] = from[p];
  batch.size[j] = n;
  batch.start[j] = rows.start[i];
  batch.target[j] = rows.target[i];
  const int corners = min(rows.corner_count[i], rows.corner_capacity);
  copy_corners(rows.corner_verts, rows.corner_flags, rows.corner_polys, i, batch.corner_verts,
               batch.corner_flags, batch.corner_polys, j, rows.corner_capacity, corners);
  batch.corner_count[j] = corners;
  batch.state[j] = rows.state[i];
}

/// The first polygon of each listed agent's row (-1 for an empty row), one agent per thread.
__global__ void __launch_bounds__(kAgentPolicy.threads_per_block)
    gather_starts_kernel(CorridorView rows, const std::int32_t* agents, std::int32_t* first,
                         int count) {
  const int j = thread_index();
  if (j >= count)
    return;
  const int i = agents[j];
  first[j] = rows.size[i] > 0 ? rows.row(i)[0] : -1;
}

/// Indices of the counters the phases' kernels add to.
enum Counter : int { kAskedCount = 0, kCorrectionCount = 1, kLargestCorrection = 2, kCounters = 3 };

__global__ void __launch_bounds__(kAgentPolicy.threads_per_block)
    check_rows_kernel(NavmeshTablesView nav, CorridorView rows, int count) {
  const int i = thread_index();
  if (i < count)
    check_corridor_of_agent(i, nav, rows);
}

/// follow_corridor per agent; the agents it flags are appended to `asked`.
__global__ void __launch_bounds__(kAgentPolicy.threads_per_block)
    follow_rows_kernel(NavmeshTablesView nav, CorridorView rows, AgentView agents,
                       SteeringRow steering, float range_factor, std::int32_t* asked,
                       unsigned int* counters) {
  const int i = thread_index();
  if (i >= agents.count)
    return;
  follow_corridor(i, nav, rows, agents, steering, range_factor);
  if (rows.state[i] & kCorridorAskBits)
    asked[atomicAdd(&counters[kAskedCount], 1u)] = i;
}

/// move_corridor_of_agent per agent; the agents it flags are appended to `asked`, the others'
/// corrections counted, the largest kept (a non-negative float's bits order as the float).
__global__ void __launch_bounds__(kAgentPolicy.threads_per_block)
    move_rows_kernel(NavmeshTablesView nav, PathTreesView trees, CorridorView rows,
                     AgentView agents, std::int32_t* asked, unsigned int* counters) {
  const int i = thread_index();
  if (i >= agents.count)
    return;
  const std::uint8_t before = rows.state[i];
  const float put_back = move_corridor_of_agent(i, nav, rows, trees, agents);
  if ((rows.state[i] & kCorridorAskMove) && !(before & kCorridorAskMove)) {
    asked[atomicAdd(&counters[kAskedCount], 1u)] = i;
  } else if (is_navmesh_correction(put_back, agents.radius[i])) {
    atomicAdd(&counters[kCorrectionCount], 1u);
    atomicMax(&counters[kLargestCorrection], __float_as_uint(put_back));
  }
}

int blocks(int items) {
  return blocks_for(items, kAgentPolicy);
}

} // namespace

std::size_t ResidentCorridors::bytes_per_agent(int capacity, int corner_capacity) const {
  std::size_t bytes = 0;
  for_each_row_buffer(*this, capacity, corner_capacity, [&](const auto& buffer, std::size_t n) {
    using T = typename std::remove_cvref_t<decltype(buffer)>::value_type;
    bytes += n * sizeof(T);
  });
  return bytes;
}

unsigned char* ResidentCorridors::staging(std::size_t bytes, cudaStream_t stream) {
  CROWD_CUDA_CHECK(cudaStreamSynchronize(stream));
  staging_.reserve(bytes > 0 ? bytes : 1, "the staging of corridor rows");
  return staging_.data();
}

CorridorView ResidentCorridors::view() {
  CorridorView v;
  v.capacity = capacity_;
  v.corner_capacity = corner_capacity_;
  v.polys = polys_.data();
  v.size = size_.data();
  v.start = start_.data();
  v.target = target_.data();
  v.corner_verts = corner_verts_.data();
  v.corner_flags = corner_flags_.data();
  v.corner_polys = corner_polys_.data();
  v.corner_count = corner_count_.data();
  v.state = state_.data();
  v.goal = goal_.data();
  v.goal_point = goal_point_.data();
  v.checks = checks_.data();
  return v;
}

void ResidentCorridors::take_held_rows(CorridorArrays& rows) const {
  for (int i = 0; i < rows_; ++i) {
    const auto r = static_cast<std::size_t>(i);
    if (rows.held[r])
      rows.dirty[r] = 1;
  }
}

AgentCorridorsView ResidentCorridors::rows_view(const NavmeshTablesView& nav, int agents) const {
  AgentCorridorsView v;
  if (rows_ != agents || agents == 0 || capacity_ == 0)
    return v;
  v.nav = nav;
  v.polys = polys_.data();
  v.size = size_.data();
  v.capacity = capacity_;
  return v;
}

void ResidentCorridors::fit(CorridorArrays& rows, cudaStream_t stream) {
  const int n = rows.count();
  const bool reshaped = rows.capacity != capacity_ || rows.corner_capacity != corner_capacity_;
  if (n <= allocated_ && !reshaped) {
    rows_ = n;
    return;
  }
  // Growing loses what the buffers hold: the rows only the device has come down first.
  std::vector<std::int32_t> device_only;
  for (int i = 0; i < rows_; ++i)
    if (!rows.held[static_cast<std::size_t>(i)])
      device_only.push_back(i);
  if (!device_only.empty()) {
    if (reshaped)
      throw std::logic_error("ResidentCorridors: the row capacities changed while the device "
                             "held rows");
    gather(rows, device_only, false, stream);
  }
  const int allocated = std::max(n, 2 * allocated_);
  const auto a = static_cast<std::size_t>(allocated);
  const std::string what = "the corridor rows of " + std::to_string(n) + " agents";
  CROWD_CUDA_CHECK(cudaStreamSynchronize(stream)); // nothing in flight reads the old buffers
  for_each_row_buffer(
      *this, rows.capacity, rows.corner_capacity,
      [&](auto& buffer, std::size_t per_row) { buffer.reserve(a * per_row, what); });
  counters_.reserve(kCounters, what);
  // What a gather reads of a row no phase has followed yet: no corners.
  CROWD_CUDA_CHECK(cudaMemsetAsync(corner_count_.data(), 0, a * sizeof(std::int32_t), stream));
  allocated_ = allocated;
  capacity_ = rows.capacity;
  corner_capacity_ = rows.corner_capacity;
  rows_ = n;
  std::fill(rows.dirty.begin(), rows.dirty.end(), std::uint8_t{1});
  goal_version_ = rows.goal_version - 1; // upload the goals too
}

void ResidentCorridors::upload_written(CorridorArrays& rows,
                                       const std::vector<glm::vec2>& preferred_velocity,
                                       const std::vector<glm::vec2>& corridor_direction,
                                       const SteeringRow& device_steering, cudaStream_t stream) {
  std::vector<std::int32_t> written;
  for (int i = 0; i < rows_; ++i) {
    std::uint8_t& dirty = rows.dirty[static_cast<std::size_t>(i)];
    if (dirty) {
      written.push_back(i);
      dirty = 0;
    }
  }
  const bool goals = rows.goal_version != goal_version_;
  if (written.empty() && !goals)
    return;
  const auto k = written.size();
  const RowBatch b = row_batch(k, capacity_, corner_capacity_);
  // The goals' polygons, then their points.
  const std::size_t goal_bytes = goals ? static_cast<std::size_t>(rows_) * sizeof(std::int32_t) : 0;
  const std::size_t point_bytes = goals ? static_cast<std::size_t>(rows_) * sizeof(glm::vec3) : 0;
  unsigned char* host = staging(b.scatter_end + goal_bytes + point_bytes, stream);
  if (k > 0) {
    const BatchView packed = batch_view(host, b, static_cast<int>(k));
    const auto cap = static_cast<std::size_t>(capacity_);
    for (std::size_t j = 0; j < k; ++j) {
      const int i = written[j];
      const auto r = static_cast<std::size_t>(i);
      packed.agents[j] = i;
      std::memcpy(packed.polys + j * cap, rows.row(i),
                  static_cast<std::size_t>(rows.size[r]) * sizeof(std::int32_t));
      packed.size[j] = rows.size[r];
      packed.start[j] = rows.position[r];
      packed.target[j] = rows.target[r];
      packed.preferred[j] = preferred_velocity[r];
      packed.direction[j] = corridor_direction[r];
      const auto corners = static_cast<std::size_t>(corner_capacity_);
      const auto n =
          static_cast<std::size_t>(std::clamp(rows.corner_count[r], 0, corner_capacity_));
      std::copy_n(rows.corner_verts.begin() + r * corners, n, packed.corner_verts + j * corners);
      std::copy_n(rows.corner_flags.begin() + r * corners, n, packed.corner_flags + j * corners);
      std::copy_n(rows.corner_polys.begin() + r * corners, n, packed.corner_polys + j * corners);
      packed.corner_count[j] = static_cast<std::int32_t>(n);
    }
    batch_.reserve(b.bytes, "a batch of " + std::to_string(k) + " corridor rows");
    CROWD_CUDA_CHECK(
        cudaMemcpyAsync(batch_.data(), host, b.scatter_end, cudaMemcpyHostToDevice, stream));
    scatter_rows_kernel<<<blocks(static_cast<int>(k)), kAgentPolicy.threads_per_block, 0, stream>>>(
        view(), batch_view(batch_.data(), b, static_cast<int>(k)), device_steering);
    CROWD_CUDA_CHECK_LAUNCH("scatter_rows_kernel");
  }
  if (goals) {
    std::memcpy(host + b.scatter_end, rows.goal.data(), goal_bytes);
    CROWD_CUDA_CHECK(cudaMemcpyAsync(goal_.data(), host + b.scatter_end, goal_bytes,
                                     cudaMemcpyHostToDevice, stream));
    unsigned char* points = host + b.scatter_end + goal_bytes;
    std::memcpy(points, rows.goal_point.data(), point_bytes);
    CROWD_CUDA_CHECK(
        cudaMemcpyAsync(goal_point_.data(), points, point_bytes, cudaMemcpyHostToDevice, stream));
    goal_version_ = rows.goal_version;
  }
}

void ResidentCorridors::upload_state(const CorridorArrays& rows, cudaStream_t stream) {
  const auto n = static_cast<std::size_t>(rows_);
  unsigned char* host = staging(n, stream);
  std::memcpy(host, rows.state.data(), n);
  CROWD_CUDA_CHECK(cudaMemcpyAsync(state_.data(), host, n, cudaMemcpyHostToDevice, stream));
}

void ResidentCorridors::gather(CorridorArrays& rows, const std::vector<std::int32_t>& which,
                               bool with_state, cudaStream_t stream) {
  const auto k = which.size();
  if (k == 0)
    return;
  const RowBatch b = row_batch(k, capacity_, corner_capacity_);
  unsigned char* host = staging(b.bytes, stream);
  std::memcpy(host + b.agents, which.data(), k * sizeof(std::int32_t));
  batch_.reserve(b.bytes, "a batch of " + std::to_string(k) + " corridor rows");
  CROWD_CUDA_CHECK(cudaMemcpyAsync(batch_.data(), host, b.polys, cudaMemcpyHostToDevice, stream));
  gather_rows_kernel<<<blocks(static_cast<int>(k)), kAgentPolicy.threads_per_block, 0, stream>>>(
      view(), batch_view(batch_.data(), b, static_cast<int>(k)));
  CROWD_CUDA_CHECK_LAUNCH("gather_rows_kernel");
  CROWD_CUDA_CHECK(cudaMemcpyAsync(host + b.polys, batch_.data() + b.polys, b.bytes - b.polys,
                                   cudaMemcpyDeviceToHost, stream));
  CROWD_CUDA_CHECK(cudaStreamSynchronize(stream));
  const BatchView packed = batch_view(host, b, static_cast<int>(k));
  const auto cap = static_cast<std::size_t>(capacity_);
  const auto corners = static_cast<std::size_t>(corner_capacity_);
  for (std::size_t j = 0; j < k; ++j) {
    const int i = which[j];
    const auto r = static_cast<std::size_t>(i);
    std::memcpy(rows.row(i), packed.polys + j * cap,
                static_cast<std::size_t>(packed.size[j]) * sizeof(std::int32_t));
    rows.size[r] = packed.size[j];
    rows.position[r] = packed.start[j];
    rows.target[r] = packed.target[j];
    const auto n = static_cast<std::size_t>(packed.corner_count[j]);
    std::copy_n(packed.corner_verts + j * corners, n, rows.corner_verts.begin() + r * corners);
    std::copy_n(packed.corner_flags + j * corners, n, rows.corner_flags.begin() + r * corners);
    std::copy_n(packed.corner_polys + j * corners, n, rows.corner_polys.begin() + r * corners);
    rows.corner_count[r] = packed.corner_count[j];
    if (with_state)
      rows.state[r] = packed.state[j];
    rows.held[r] = 1;
  }
}

void ResidentCorridors::fetch(CorridorArrays& rows, std::span<const std::int32_t> which,
                              cudaStream_t stream) {
  std::vector<std::int32_t> missing;
  for (const std::int32_t i : which) {
    if (i < 0 || i >= rows_)
      continue; // a row the device never had is the host's
    std::uint8_t& held = rows.held[static_cast<std::size_t>(i)];
    if (!held) {
      missing.push_back(i);
      held = 1; // once, however often `which` names it
    }
  }
  gather(rows, missing, false, stream);
}

void ResidentCorridors::fetch_starts(const CorridorArrays& rows,
                                     std::span<const std::int32_t> which,
                                     std::span<std::int32_t> first, cudaStream_t stream) {
  std::vector<std::int32_t> missing;   // agents whose row only the device has
  std::vector<std::size_t> missing_at; // and where their answers go
  for (std::size_t j = 0; j < which.size(); ++j) {
    const std::int32_t i = which[j];
    const auto r = static_cast<std::size_t>(i);
    if (i >= 0 && i < rows_ && !rows.held[r]) {
      missing.push_back(i);
      missing_at.push_back(j);
    } else {
      first[j] = rows.first_polygon(i);
    }
  }
  const std::size_t k = missing.size();
  if (k == 0)
    return;
  const std::size_t bytes = 2 * k * sizeof(std::int32_t); // the agents up, their starts down
  unsigned char* host = staging(bytes, stream);
  std::memcpy(host, missing.data(), k * sizeof(std::int32_t));
  batch_.reserve(bytes, "the start polygons of " + std::to_string(k) + " corridor rows");
  auto* agents = reinterpret_cast<std::int32_t*>(batch_.data());
  CROWD_CUDA_CHECK(
      cudaMemcpyAsync(agents, host, k * sizeof(std::int32_t), cudaMemcpyHostToDevice, stream));
  gather_starts_kernel<<<blocks(static_cast<int>(k)), kAgentPolicy.threads_per_block, 0, stream>>>(
      view(), agents, agents + k, static_cast<int>(k));
  CROWD_CUDA_CHECK_LAUNCH("gather_starts_kernel");
  CROWD_CUDA_CHECK(cudaMemcpyAsync(host + k * sizeof(std::int32_t), agents + k,
                                   k * sizeof(std::int32_t), cudaMemcpyDeviceToHost, stream));
  CROWD_CUDA_CHECK(cudaStreamSynchronize(stream));
  const auto* starts = reinterpret_cast<const std::int32_t*>(host + k * sizeof(std::int32_t));
  for (std::size_t m = 0; m < k; ++m)
    first[missing_at[m]] = starts[m];
}

void ResidentCorridors::check(const NavmeshTablesView& nav, CorridorArrays& rows,
                              cudaStream_t stream) {
  if (rows_ == 0)
    return;
  check_rows_kernel<<<blocks(rows_), kAgentPolicy.threads_per_block, 0, stream>>>(nav, view(),
                                                                                  rows_);
  CROWD_CUDA_CHECK_LAUNCH("check_rows_kernel");
  const auto n = static_cast<std::size_t>(rows_);
  unsigned char* host = staging(n, stream);
  CROWD_CUDA_CHECK(cudaMemcpyAsync(host, checks_.data(), n, cudaMemcpyDeviceToHost, stream));
  CROWD_CUDA_CHECK(cudaStreamSynchronize(stream));
  std::memcpy(rows.checks.data(), host, n);
}

void ResidentCorridors::take_asked(CorridorArrays& rows, int asked, cudaStream_t stream) {
  rows.asked.resize(static_cast<std::size_t>(asked));
  if (asked > 0) {
    const std::size_t bytes = static_cast<std::size_t>(asked) * sizeof(std::int32_t);
    unsigned char* host = staging(bytes, stream);
    CROWD_CUDA_CHECK(cudaMemcpyAsync(host, asked_.data(), bytes, cudaMemcpyDeviceToHost, stream));
    CROWD_CUDA_CHECK(cudaStreamSynchronize(stream));
    std::memcpy(rows.asked.data(), host, bytes);
    // The atomics appended in no particular order; the host answers in agent order.
    std::sort(rows.asked.begin(), rows.asked.end());
  }
  gather(rows, rows.asked, true, stream);
}

void ResidentCorridors::follow(const NavmeshTablesView& nav, CorridorArrays& rows,
                               const AgentView& agents, const SteeringRow& steering,
                               float range_factor, cudaStream_t stream) {
  rows.asked.clear();
  if (rows_ == 0)
    return;
  if (agents.count != rows_)
    throw std::logic_error("ResidentCorridors: the agents and the corridor rows differ in count");
  upload_state(rows, stream);
  CROWD_CUDA_CHECK(cudaMemsetAsync(counters_.data(), 0, kCounters * sizeof(unsigned int), stream));
  follow_rows_kernel<<<blocks(rows_), kAgentPolicy.threads_per_block, 0, stream>>>(
      nav, view(), agents, steering, range_factor, asked_.data(), counters_.data());
  CROWD_CUDA_CHECK_LAUNCH("follow_rows_kernel");
  std::fill_n(rows.held.begin(), rows_, std::uint8_t{0});
  unsigned int* host = reinterpret_cast<unsigned int*>(staging(sizeof(unsigned int), stream));
  CROWD_CUDA_CHECK(cudaMemcpyAsync(host, counters_.data(), sizeof(unsigned int),
                                   cudaMemcpyDeviceToHost, stream));
  CROWD_CUDA_CHECK(cudaStreamSynchronize(stream));
  take_asked(rows, static_cast<int>(host[kAskedCount]), stream);
}

NavmeshCorrections ResidentCorridors::move(const NavmeshTablesView& nav, const PathTreesView& trees,
                                           CorridorArrays& rows, const AgentView& agents,
                                           cudaStream_t stream) {
  rows.asked.clear();
  NavmeshCorrections corrections;
  if (rows_ == 0)
    return corrections;
  if (agents.count != rows_)
    throw std::logic_error("ResidentCorridors: the agents and the corridor rows differ in count");
  upload_state(rows, stream);
  CROWD_CUDA_CHECK(cudaMemsetAsync(counters_.data(), 0, kCounters * sizeof(unsigned int), stream));
  move_rows_kernel<<<blocks(rows_), kAgentPolicy.threads_per_block, 0, stream>>>(
      nav, trees, view(), agents, asked_.data(), counters_.data());
  CROWD_CUDA_CHECK_LAUNCH("move_rows_kernel");
  std::fill_n(rows.held.begin(), rows_, std::uint8_t{0});
  unsigned int* host =
      reinterpret_cast<unsigned int*>(staging(kCounters * sizeof(unsigned int), stream));
  CROWD_CUDA_CHECK(cudaMemcpyAsync(host, counters_.data(), kCounters * sizeof(unsigned int),
                                   cudaMemcpyDeviceToHost, stream));
  CROWD_CUDA_CHECK(cudaStreamSynchronize(stream));
  corrections.count = static_cast<int>(host[kCorrectionCount]);
  std::memcpy(&corrections.max_distance, &host[kLargestCorrection], sizeof(float));
  take_asked(rows, static_cast<int>(host[kAskedCount]), stream);
  return corrections;
}

std::size_t ResidentCorridors::device_bytes() const {
  std::size_t bytes = counters_.bytes() + batch_.bytes();
  for_each_row_buffer(*this, capacity_, corner_capacity_,
                      [&](const auto& buffer, std::size_t) { bytes += buffer.bytes(); });
  return bytes;
}

} // namespace crowd
