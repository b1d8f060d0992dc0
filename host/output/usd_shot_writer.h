// A film shot as a USD ASCII layer (`.usda`): one PointInstancer, time-sampled per frame.
#pragma once

#include "host/output/frame_sink.h"
#include "host/output/streaming_file.h"

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace crowd {

/// Writes /Crowd/Agents, a UsdGeomPointInstancer (openusd.org, "UsdGeomPointInstancer")
/// whose positions (point3f[]), orientations (quath[], (real, i, j, k): a rotation about +y
/// by the frame's heading, host/output/character_motion.h), velocities (vector3f[], m/s),
/// angularVelocities (vector3f[], degrees per second about each axis, as the PointInstancer
/// schema asks for animated orientations: (0, turn rate, 0)), ids (int64[], the agent index),
/// protoIndices (int[]) and invisibleIds (int64[], agents not shown in the frame) are
/// time-sampled at time code = film frame, and extent (float3[], the instances' bounds: every
/// shown agent's prototype bounds at its position) too, and the locomotion of each instance
/// (host/output/locomotion.h) as per-instance primvars (interpolation "vertex"):
/// primvars:crowd:gait (int[], 0 idle, 1 walk, 2 run, 3 turn in place, 4 wait),
/// primvars:crowd:cyclePhase (float[], [0, 1)) and primvars:crowd:playbackRate (float[]). ids,
/// protoIndices and invisibleIds hold their value between samples (integer arrays are not
/// interpolated), so they get a sample only at the frames where they change, and a plain value when
/// they never do. So do the characters' looks (host/output/character_cast.h): scales (float3[],
/// uniform, agent radius over its type's model radius), primvars:displayColor (color3f[]) and
/// primvars:crowd:variation and primvars:crowd:variationSeed (int[]), all per instance. One
/// prototype per character prototype name (the agent type label when its type names none), in
/// order of first appearance: /Crowd/Agents/Prototypes/<name>, an Xform holding a 1.7 m capsule
/// standing on the ground (a stand-in for the artist's character) with its extent. The Prototypes
/// scope is an `over`, so that traversals and imaging see the prototypes only through the
/// instancer, not as geometry of their own standing at the origin (LearnOpenUSD, "Authoring Point
/// Instancing": prototypes hidden by an over or class parent). Stage metadata: start and end time
/// code, timeCodesPerSecond = framesPerSecond = fps, upAxis "Y", metersPerUnit 1, defaultPrim
/// "Crowd".
///
/// usda lists all samples of one attribute together, so each attribute's samples stream to
/// their own temporary file, frame by frame; finish() writes the layer by concatenating them:
/// memory does not grow with the number of frames.
class UsdShotWriter : public FrameSink {
public:
  UsdShotWriter(std::filesystem::path path, double fps); ///< Throws std::runtime_error.
  ~UsdShotWriter() override;

  void write_frame(const FrameView& frame) override;
  void finish() override;
  void save(ArchiveWriter& out) override;
  void restore(ArchiveReader& in) override;
  std::vector<std::filesystem::path> keep_streams_after_finish() override;

private:
  enum Attribute {
    kPositions,
    kOrientations,
    kVelocities,
    kAngularVelocities,
    kExtent,
    kGait,
    kCyclePhase,
    kPlaybackRate,
    kIds,
    kProtoIndices,
    kInvisible,
    kScales,
    kDisplayColor,
    kVariation,
    kVariationSeed
  };
  static constexpr int kAttributeCount = 15;
  /// The first attribute whose value is held between samples (written only when it changes).
  static constexpr int kFirstHeld = kIds;

  /// The index of the prototype named `name`, added (for agents of `type`) when new.
  int prototype_index(const std::string& name, const std::string& type);

  std::filesystem::path path_;
  double fps_;
  std::vector<std::unique_ptr<StreamingFile>> samples_;
  std::map<std::string, int> prototype_index_of_;
  std::vector<std::string> prototype_names_; ///< In index order.
  std::vector<std::string> prototype_types_; ///< The type of the first agent drawn as each.
  int first_frame_ = 0, last_frame_ = -1;
  std::vector<std::string> buffers_; ///< One array per attribute, reused.
  /// Held attributes: the array last written and how many samples were written.
  std::vector<std::string> last_held_;
  std::vector<long long> held_samples_;
  bool keep_streams_ = false;
};

} // namespace crowd
