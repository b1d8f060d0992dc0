#include "host/output/track_json_writer.h"

#include "host/checkpoint/archive.h"
#include "host/output/number_format.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fcntl.h>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <unistd.h>

namespace crowd {
namespace {

/// Reads exactly `size` bytes at `offset`; throws naming the file otherwise.
void read_at(int fd, void* data, std::size_t size, std::uint64_t offset,
             const std::filesystem::path& file) {
  auto* bytes = static_cast<char*>(data);
  while (size > 0) {
    const ssize_t n = ::pread(fd, bytes, size, static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      throw std::runtime_error("film export: cannot read back " + file.string() +
                               (n < 0 ? std::string(": ") + std::strerror(errno) : ""));
    bytes += n;
    size -= static_cast<std::size_t>(n);
    offset += static_cast<std::uint64_t>(n);
  }
}

class ReadOnlyFile {
public:
  explicit ReadOnlyFile(const std::filesystem::path& path)
      : fd_(::open(path.c_str(), O_RDONLY | O_CLOEXEC)) {
    if (fd_ < 0)
      throw std::runtime_error("film export: cannot read back " + path.string() + ": " +
                               std::strerror(errno));
  }
  ~ReadOnlyFile() { ::close(fd_); }
  ReadOnlyFile(const ReadOnlyFile&) = delete;
  ReadOnlyFile& operator=(const ReadOnlyFile&) = delete;
  int fd() const { return fd_; }

private:
  int fd_;
};

} // namespace

TrackJsonWriter::TrackJsonWriter(std::filesystem::path path, double fps, std::size_t block_bytes)
    : path_(std::move(path)), fps_(fps), block_bytes_(block_bytes),
      records_(std::make_unique<StreamingFile>(std::filesystem::path(path_).concat(".records"),
                                               "film export")) {}

void TrackJsonWriter::write_frame(const FrameView& frame) {
  if (!records_)
    throw std::runtime_error("film export: write after finish to " + path_.string());
  if (agents_per_frame_.empty())
    start_frame_ = frame.number;
  if (frame.number != start_frame_ + static_cast<long long>(agents_per_frame_.size()))
    throw std::logic_error("track export: frames must be numbered one after another");
  const std::size_t count = frame.positions.size();
  frame_buffer_.resize(count);
  for (std::size_t i = 0; i < count; ++i) {
    const glm::vec3 p = frame.positions[i];
    const glm::vec2 v = i < frame.velocities.size() ? frame.velocities[i] : glm::vec2(0.0f);
    const bool shown = i >= frame.phases.size() || is_present(frame.phases[i]);
    constexpr float kDegreesPerRadian = 57.29577951308232f;
    frame_buffer_[i] =
        Record{p.x,
               p.y,
               p.z,
               v.x,
               v.y,
               (i < frame.headings.size() ? frame.headings[i] : 0.0f) * kDegreesPerRadian,
               i < frame.cycle_phases.size() ? frame.cycle_phases[i] : 0.0f,
               i < frame.playback_rates.size() ? frame.playback_rates[i] : 1.0f,
               i < frame.gaits.size() ? static_cast<std::uint32_t>(frame.gaits[i]) : 0u,
               shown ? 1u : 0u};
  }
  for (std::size_t i = types_.size(); i < count; ++i) {
    types_.push_back(i < frame.types.size() ? frame.types[i] : std::string("agent"));
    const CharacterLook look =
        i < frame.looks.size() ? frame.looks[i] : CharacterLook{types_.back()};
    prototypes_.push_back(look.prototype);
    variations_.push_back(look.variation);
    variation_seeds_.push_back(look.seed);
    scales_.push_back(look.scale);
    colors_.push_back(look.color);
  }
  records_->append(std::string_view(reinterpret_cast<const char*>(frame_buffer_.data()),
                                    count * sizeof(Record)));
  agents_per_frame_.push_back(static_cast<std::uint32_t>(count));
}

void TrackJsonWriter::finish() {
  if (!records_)
    throw std::runtime_error("film export: finish called twice for " + path_.string());
  const std::size_t frames = agents_per_frame_.size();
  const std::size_t agents = types_.size();
  StreamingFile out(path_, "film export");
  std::string text = "{\"fps\": ";
  char buf[32];
  text.append(buf, std::to_chars(buf, buf + sizeof buf, fps_).ptr);
  text += ", \"frames\": ";
  append_int(text, static_cast<long long>(frames));
  text += ", \"start_frame\": ";
  append_int(text, start_frame_);
  text += ", \"gaits\": [";
  for (std::size_t g = 0; g < kGaitNames.size(); ++g)
    text += std::string(g == 0 ? "\"" : ", \"") + kGaitNames[g] + "\"";
  text += "], \"agents\": [";
  out.append(text);

  ReadOnlyFile records(records_->temporary_path());
  const std::size_t block =
      std::max<std::size_t>(1, block_bytes_ / (sizeof(Record) * std::max<std::size_t>(frames, 1)));
  std::vector<Record> samples; // [agent in block][frame]
  for (std::size_t first = 0; first < agents; first += block) {
    const std::size_t last = std::min(agents, first + block);
    const std::size_t width = last - first;
    samples.assign(width * frames, Record{0, 0, 0, 0, 0, 0, 0, 1, 0u, 0u});
    std::vector<Record> row(width);
    std::uint64_t frame_offset = 0;
    for (std::size_t f = 0; f < frames; ++f) {
      const std::size_t present = agents_per_frame_[f];
      if (present > first) {
        const std::size_t n = std::min(present, last) - first;
        read_at(records.fd(), row.data(), n * sizeof(Record), frame_offset + first * sizeof(Record),
                records_->temporary_path());
        for (std::size_t a = 0; a < n; ++a)
          samples[a * frames + f] = row[a];
      }
      frame_offset += present * sizeof(Record);
    }
    for (std::size_t a = 0; a < width; ++a) {
      const Record* track = samples.data() + a * frames;
      std::size_t begin = 0, end = frames;
      while (begin < frames && track[begin].shown == 0u)
        ++begin;
      while (end > begin && track[end - 1].shown == 0u)
        --end;
      text.clear();
      text += first + a == 0 ? "\n{\"id\": " : ",\n{\"id\": ";
      append_int(text, static_cast<long long>(first + a));
      const std::size_t id = first + a;
      text += ", \"type\": " + nlohmann::json(types_[id]).dump();
      text += ", \"prototype\": " + nlohmann::json(prototypes_[id]).dump();
      text += ", \"variation\": ";
      append_int(text, variations_[id]);
      text += ", \"variation_seed\": ";
      append_int(text, static_cast<long long>(variation_seeds_[id]));
      text += ", \"scale\": ";
      append_float(text, scales_[id]);
      text += ", \"color\": [";
      append_float(text, colors_[id].x);
      text += ", ";
      append_float(text, colors_[id].y);
      text += ", ";
      append_float(text, colors_[id].z);
      text += ']';
      text += ", \"first_frame\": ";
      if (begin < end)
        append_int(text, start_frame_ + static_cast<long long>(begin));
      else
        text += "null";
      const auto field = [&](const char* name, float Record::*member) {
        text += ", \"";
        text += name;
        text += "\": [";
        for (std::size_t f = begin; f < end; ++f) {
          if (f != begin)
            text += ", ";
          if (track[f].shown != 0u)
            append_float(text, track[f].*member);
          else
            text += "null";
        }
        text += ']';
      };
      field("x", &Record::x);
      field("y", &Record::y);
      field("z", &Record::z);
      field("vx", &Record::vx);
      field("vz", &Record::vz);
      field("heading", &Record::heading);
      text += ", \"gait\": [";
      for (std::size_t f = begin; f < end; ++f) {
        if (f != begin)
          text += ", ";
        if (track[f].shown != 0u)
          append_int(text, static_cast<long long>(track[f].gait));
        else
          text += "null";
      }
      text += ']';
      field("cycle_phase", &Record::cycle_phase);
      field("playback_rate", &Record::playback_rate);
      text += '}';
      out.append(text);
    }
  }
  out.append("\n]}\n");
  out.commit();
  if (keep_streams_)
    records_->release();
  records_.reset(); // removes the temporary records (unless released)
}

void TrackJsonWriter::save(ArchiveWriter& out) {
  records_->save(out);
  out.put(agents_per_frame_);
  out.put(types_);
  out.put(start_frame_);
  out.fields(prototypes_, variations_, variation_seeds_, scales_, colors_);
}

void TrackJsonWriter::restore(ArchiveReader& in) {
  records_->restore(in, /*committed_is_stream=*/false);
  in.get(agents_per_frame_);
  in.get(types_);
  in.get(start_frame_);
  in.fields(prototypes_, variations_, variation_seeds_, scales_, colors_);
  for (const std::size_t size : {prototypes_.size(), variations_.size(), variation_seeds_.size(),
                                 scales_.size(), colors_.size()})
    in.expect(size, types_.size(), "the tracks' characters");
}

std::vector<std::filesystem::path> TrackJsonWriter::keep_streams_after_finish() {
  keep_streams_ = true;
  return {records_->temporary_path()};
}

} // namespace crowd
