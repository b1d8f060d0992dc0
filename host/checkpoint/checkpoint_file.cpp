#include "host/checkpoint/checkpoint_file.h"

#include "host/checkpoint/atomic_file.h"
#include "host/checkpoint/fnv1a.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>

namespace crowd {
namespace {

constexpr char kMagic[8] = {'C', 'R', 'O', 'W', 'D', 'C', 'K', 'P'};

} // namespace

std::string crowd_build_version() {
  return std::string("crowd ") + CROWD_VERSION;
}

std::vector<std::uint8_t> checkpoint_file_bytes(const ArchiveWriter& body,
                                                const std::string& build_version,
                                                std::uint32_t format) {
  ArchiveWriter header;
  for (const char c : kMagic)
    header.put(c);
  header.put(format);
  header.put(build_version);
  header.put(static_cast<std::uint64_t>(body.bytes().size()));
  header.put(fnv1a64(body.bytes().data(), body.bytes().size()));
  std::vector<std::uint8_t> content = header.bytes();
  content.insert(content.end(), body.bytes().begin(), body.bytes().end());
  return content;
}

void write_checkpoint_file(const std::filesystem::path& file, const ArchiveWriter& body,
                           const std::string& build_version, std::uint32_t format) {
  const std::vector<std::uint8_t> content = checkpoint_file_bytes(body, build_version, format);
  write_file_atomically(file, std::string(content.begin(), content.end()));
}

CheckpointBody::CheckpointBody(const std::filesystem::path& file) : file_(file.string()) {
  std::ifstream in(file, std::ios::binary);
  if (!in)
    throw CheckpointError(file_ + ": cannot read: " + std::strerror(errno));
  bytes_.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  if (in.bad())
    throw CheckpointError(file_ + ": cannot read");
  check();
}

CheckpointBody::CheckpointBody(std::vector<std::uint8_t> bytes, std::string file)
    : file_(std::move(file)), bytes_(std::move(bytes)) {
  check();
}

void CheckpointBody::check() {
  if (bytes_.size() < sizeof kMagic || std::memcmp(bytes_.data(), kMagic, sizeof kMagic) != 0)
    throw CheckpointError(file_ + ": not a crowd checkpoint (it does not start with CROWDCKP)");
  ArchiveReader header(bytes_.data() + sizeof kMagic, bytes_.size() - sizeof kMagic, file_,
                       sizeof kMagic);
  const auto format = header.get<std::uint32_t>();
  // Every format starts with magic, format and build version, so the message can name both.
  const auto version = header.get<std::string>();
  if (format != kCheckpointFormat || version != crowd_build_version())
    throw CheckpointError(file_ + ": written by " + version + " (checkpoint format " +
                          std::to_string(format) + "), this is " + crowd_build_version() +
                          " (format " + std::to_string(kCheckpointFormat) +
                          "): resume it with the version that wrote it");
  const auto length = header.get<std::uint64_t>();
  checksum_ = header.get<std::uint64_t>();
  body_offset_ = header.offset();
  const std::size_t held = bytes_.size() - body_offset_;
  if (held != length)
    throw CheckpointError(
        file_ + ": damaged: " +
        (held < length ? "truncated at byte " + std::to_string(bytes_.size())
                       : "extra bytes from byte " + std::to_string(body_offset_ + length)) +
        " (the body should end at byte " + std::to_string(body_offset_ + length) + ")");
  if (fnv1a64(bytes_.data() + body_offset_, held) != checksum_)
    throw CheckpointError(file_ + ": damaged: the checksum of bytes " +
                          std::to_string(body_offset_) + ".." + std::to_string(bytes_.size()) +
                          " does not match");
}

ArchiveReader CheckpointBody::reader() const {
  return ArchiveReader(bytes_.data() + body_offset_, bytes_.size() - body_offset_, file_,
                       body_offset_);
}

} // namespace crowd
