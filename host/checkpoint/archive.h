// The body of a checkpoint: values written one after another in a byte buffer and read back
// in the same order. Numbers are stored as their little-endian bytes (every platform we build
// for is little-endian; the static_assert below keeps it so), vectors and strings with their
// length first. Only types without padding are copied as bytes, so that equal states give
// equal files.
//
// A record is saved and restored through one list of its fields, so that the two cannot
// disagree on the order: a generic function `fields(archive, record)` that calls
// archive.fields(record.a, record.b, ...) serves ArchiveWriter (const record) and
// ArchiveReader alike, and put_records / get_records apply it to a vector of records.
#pragma once

#include "cuda/common/avoidance_params.h"
#include "cuda/kernels/agent_view.h"

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <glm/glm.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

static_assert(std::endian::native == std::endian::little,
              "checkpoints store numbers as little-endian bytes");

namespace crowd {

/// A checkpoint that cannot be used: the message names the file and what is wrong with it.
class CheckpointError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// Types stored as their object bytes: arithmetic types, enums, and aggregates of them with
/// no padding (opted in below).
template <class T>
inline constexpr bool kStoredAsBytes = std::is_arithmetic_v<T> || std::is_enum_v<T> ||
                                       (std::is_trivially_copyable_v<T> &&
                                        std::has_unique_object_representations_v<T>);
template <> inline constexpr bool kStoredAsBytes<glm::vec2> = true;
template <> inline constexpr bool kStoredAsBytes<glm::vec3> = true;
template <> inline constexpr bool kStoredAsBytes<glm::vec4> = true;
static_assert(sizeof(MassAvoidanceParams) == 8 * 4 && sizeof(OrcaAvoidanceParams) == 2 * 4 &&
                  sizeof(TtcAvoidanceParams) == 18 * 4 && sizeof(AvoidanceParams) == 38 * 4,
              "AvoidanceParams: the model, eight force-model, two ORCA, eighteen "
              "time-to-collision and nine sampling 4-byte fields, no padding");
template <> inline constexpr bool kStoredAsBytes<AvoidanceParams> = true;
static_assert(sizeof(TtcState) == 5 * 4, "TtcState: five 4-byte fields, no padding");
template <> inline constexpr bool kStoredAsBytes<TtcState> = true;

class ArchiveWriter {
public:
  template <class T> void put(const T& value) {
    static_assert(kStoredAsBytes<T>, "write this type field by field");
    static_assert(sizeof(T) == sizeof(std::remove_cvref_t<T>));
    append(&value, sizeof(T));
  }
  void put(bool value) { put(static_cast<std::uint8_t>(value ? 1 : 0)); }
  void put(const std::string& text) {
    put(static_cast<std::uint64_t>(text.size()));
    append(text.data(), text.size());
  }
  template <class T> void put(const std::vector<T>& values) {
    put(static_cast<std::uint64_t>(values.size()));
    if constexpr (kStoredAsBytes<T>) {
      append(values.data(), values.size() * sizeof(T));
    } else {
      for (const T& v : values)
        put(v);
    }
  }
  template <class T> void put(const std::optional<T>& value) {
    put(value.has_value());
    if (value)
      put(*value);
  }
  /// Writes each value in order (the writing side of a record's field list).
  template <class... T> void fields(const T&... values) { (put(values), ...); }
  /// Writes the count, then each record through `record_fields(*this, record)`.
  template <class T, class F> void put_records(const std::vector<T>& records, F&& record_fields) {
    put(static_cast<std::uint64_t>(records.size()));
    for (const T& record : records)
      record_fields(*this, record);
  }

  const std::vector<std::uint8_t>& bytes() const { return bytes_; }

private:
  void append(const void* data, std::size_t size) {
    const auto* p = static_cast<const std::uint8_t*>(data);
    bytes_.insert(bytes_.end(), p, p + size);
  }
  std::vector<std::uint8_t> bytes_;
};

/// Reads what an ArchiveWriter wrote. Reading past the end, or a length or flag that cannot
/// be right, throws CheckpointError "<file>: damaged: ... at byte N" (N counted from the start
/// of the file, `base` being where the body starts in it).
class ArchiveReader {
public:
  ArchiveReader(const std::uint8_t* data, std::size_t size, std::string file, std::size_t base = 0)
      : data_(data), size_(size), file_(std::move(file)), base_(base) {}

  template <class T> void get(T& value) {
    static_assert(kStoredAsBytes<T>, "read this type field by field");
    take(&value, sizeof(T));
  }
  void get(bool& value) {
    std::uint8_t byte = 0;
    get(byte);
    if (byte > 1)
      fail("a flag is neither 0 nor 1");
    value = byte != 0;
  }
  void get(std::string& text) {
    const std::size_t n = count(1);
    text.assign(reinterpret_cast<const char*>(data_ + at_), n);
    at_ += n;
  }
  template <class T> void get(std::vector<T>& values) {
    if constexpr (kStoredAsBytes<T>) {
      const std::size_t n = count(sizeof(T));
      values.resize(n);
      take(values.data(), n * sizeof(T));
    } else {
      // Each element takes at least one byte: a count beyond the bytes left is damage.
      const std::size_t n = count(1);
      values.clear();
      values.resize(n);
      for (T& v : values)
        get(v);
    }
  }
  template <class T> void get(std::optional<T>& value) {
    bool present = false;
    get(present);
    value.reset();
    if (present) {
      T v{};
      get(v);
      value = std::move(v);
    }
  }
  template <class T> T get() {
    T value{};
    get(value);
    return value;
  }
  /// Reads each value in order (the reading side of a record's field list).
  template <class... T> void fields(T&... values) { (get(values), ...); }
  /// Reads what put_records wrote, through the same `record_fields`.
  template <class T, class F> void get_records(std::vector<T>& records, F&& record_fields) {
    records.clear();
    records.resize(count());
    for (T& record : records)
      record_fields(*this, record);
  }

  /// Throws unless `actual` == `expected`: a count that must match the rebuilt state.
  void expect(std::uint64_t actual, std::uint64_t expected, const char* what) {
    if (actual != expected)
      fail(std::string(what) + " is " + std::to_string(actual) + ", expected " +
           std::to_string(expected));
  }
  [[noreturn]] void fail(const std::string& problem) const {
    throw CheckpointError(file_ + ": damaged: " + problem + " at byte " +
                          std::to_string(base_ + at_));
  }
  /// A count written with put(std::uint64_t) for elements of at least `element_size` bytes
  /// each; one beyond the bytes left is damage.
  std::size_t count(std::size_t element_size = 1) {
    std::uint64_t n = 0;
    get(n);
    if (n > (size_ - at_) / element_size)
      fail("a count of " + std::to_string(n) + " runs past the end");
    return static_cast<std::size_t>(n);
  }
  bool at_end() const { return at_ == size_; }
  /// Where the next read starts, counted from the start of the file.
  std::size_t offset() const { return base_ + at_; }
  const std::string& file() const { return file_; }

private:
  void take(void* out, std::size_t size) {
    if (size > size_ - at_)
      fail("truncated: " + std::to_string(size) + " more bytes needed");
    if (size > 0)
      std::memcpy(out, data_ + at_, size);
    at_ += size;
  }

  const std::uint8_t* data_;
  std::size_t size_;
  std::string file_;
  std::size_t base_;
  std::size_t at_ = 0;
};

} // namespace crowd
