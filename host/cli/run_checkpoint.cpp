#include "host/cli/run_checkpoint.h"

#include "host/checkpoint/archive.h"
#include "host/checkpoint/fnv1a.h"
#include "host/checkpoint/solver_options_archive.h"

#include <type_traits>

namespace crowd {
namespace {

// The run's options in a checkpoint (host/checkpoint/archive.h): one field list for save and
// restore, so that the two cannot disagree on the order.
template <class Archive, class Options> void run_option_fields(Archive& archive, Options& o) {
  archive.fields(o.scenario, o.backend, o.steps, o.threads, o.out, o.every, o.fps, o.max_turn_rate,
                 o.metrics, o.quiet, o.stuck_seconds, o.standoff, o.arrival, o.avoidance_model);
  if constexpr (std::is_same_v<Archive, ArchiveWriter>)
    save_solver_options(archive, o.solver);
  else
    o.solver = restore_solver_options(archive);
  archive.fields(o.checkpoint, o.checkpoint_every);
  archive.fields(o.start_frame, o.preroll, o.handles);
}
constexpr auto kFingerprintFields = [](auto& archive, auto& file) {
  archive.fields(file.first, file.second);
};

std::string absolute(const std::string& path) {
  return path.empty() ? path : std::filesystem::absolute(path).lexically_normal().string();
}

} // namespace

InputFingerprints InputFingerprints::of(const std::vector<std::filesystem::path>& files) {
  InputFingerprints fingerprints;
  for (const auto& file : files)
    fingerprints.files.emplace_back(absolute(file.string()), fnv1a64_of_file(file));
  return fingerprints;
}

void InputFingerprints::check_unchanged(const std::string& checkpoint) const {
  for (const auto& [file, hash] : files) {
    std::uint64_t now = 0;
    try {
      now = fnv1a64_of_file(file);
    } catch (const std::exception& e) {
      throw CheckpointError(checkpoint + ": " + e.what());
    }
    if (now != hash)
      throw CheckpointError(checkpoint + ": " + file + " changed since the checkpoint was written");
  }
}

RunOptions with_absolute_paths(RunOptions options) {
  options.scenario = absolute(options.scenario);
  for (std::string& out : options.out)
    out = absolute(out);
  options.metrics = absolute(options.metrics);
  options.checkpoint = absolute(options.checkpoint);
  return options;
}

void save_run_record(ArchiveWriter& out, const RunOptions& options, int total_steps,
                     const InputFingerprints& inputs) {
  run_option_fields(out, options);
  out.put(total_steps);
  out.put_records(inputs.files, kFingerprintFields);
}

RunRecord restore_run_record(ArchiveReader& in) {
  RunRecord record;
  run_option_fields(in, record.options);
  in.get(record.total_steps);
  in.get_records(record.inputs.files, kFingerprintFields);
  return record;
}

} // namespace crowd
