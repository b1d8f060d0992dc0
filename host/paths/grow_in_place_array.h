// An array of plain values that grows and shrinks by realloc, for the path tree pool's columns
// (path_tree_pool.h): tens of MB that grow a tree at a time.
//
// std::vector grows by allocating the larger block and copying, so while it grows it holds both
// blocks: the pool's columns, grown by half at a time, peaked at 2.5 times what they held (79 MB
// for 32 on the 64,000-agent bench scene, heaptrack, 2026-11-29). glibc maps a block this large
// on its own (the command line maps every block of 8 MiB or more, host/cli/heap_release.h)
// and reallocates a mapped block with mremap, which moves its pages rather than copying them:
// the array holds only its own pages while it grows, and may grow by little at a time. Another
// C library's realloc copies, which is correct and no worse than the vector.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <new>
#include <type_traits>
#include <utility>

namespace crowd {

template <class T> class GrowInPlaceArray {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>,
                "realloc moves the bytes");

public:
  GrowInPlaceArray() = default;
  GrowInPlaceArray(const GrowInPlaceArray&) = delete;
  GrowInPlaceArray& operator=(const GrowInPlaceArray&) = delete;
  GrowInPlaceArray(GrowInPlaceArray&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)),
        capacity_(std::exchange(other.capacity_, 0)) {}
  GrowInPlaceArray& operator=(GrowInPlaceArray&& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    std::swap(capacity_, other.capacity_);
    return *this;
  }
  ~GrowInPlaceArray() { std::free(data_); }

  T* data() { return data_; }
  const T* data() const { return data_; }
  std::size_t size() const { return size_; }
  std::size_t capacity() const { return capacity_; }
  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }

  /// Appends `count` values from `values`, growing the room by an eighth when it must grow.
  void append(const T* values, std::size_t count) {
    if (size_ + count > capacity_)
      reallocate(size_ + count + (size_ + count) / 8);
    std::copy(values, values + count, data_ + size_);
    size_ += count;
  }
  /// Keeps the first `count` values (count <= size()). The room stays for the values to come
  /// while it is under twice theirs: returned and taken again, its pages would be faulted in
  /// afresh (the path tree pool, reclaiming room most steps of a planning burst, took 3 times
  /// the page faults of a whole run so); past that, it shrinks to an eighth more.
  void shrink_to(std::size_t count) {
    size_ = count;
    if (capacity_ > 2 * count + 1024)
      reallocate(count + count / 8);
  }

private:
  void reallocate(std::size_t capacity) {
    if (capacity == 0) {
      std::free(data_);
      data_ = nullptr;
    } else {
      void* moved = std::realloc(data_, capacity * sizeof(T));
      if (moved == nullptr)
        throw std::bad_alloc();
      data_ = static_cast<T*>(moved);
    }
    capacity_ = capacity;
  }

  T* data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
};

} // namespace crowd
