// The film framing of a simulation's run as `crowd run --fps` sets it up (facing hint, ground
// height, the cast's locomotion clips and looks), shared with `crowd render --fps`, so that a
// rendered film frame shows exactly the frame the film exports hold.
#pragma once

#include "host/output/character_cast.h"
#include "host/output/film_resampler.h"
#include "host/sim/simulation.h"

#include <memory>
#include <optional>
#include <set>
#include <string>

namespace crowd {

/// Every agent type label the scenario gives its agents (the film palette's order).
std::set<std::string> agent_type_labels(const Scenario& scenario);

/// What a film run needs besides the frame rate: the options and who each character is.
struct FilmOfRun {
  FilmOptions options;
  std::shared_ptr<const CharacterCast> cast;
};

/// The steps of a film run: `steps` (the scenario's, or --steps) and as many more as the preroll
/// and the handles after the shot need, ceil((preroll + handles / fps) / dt), so the shot
/// itself keeps the scenario's length. Nothing when that is more than INT_MAX steps.
std::optional<int> film_run_steps(int steps, float dt, double fps, double preroll, int handles);

/// The film options of `sim`'s run with this framing. The options refer to `sim`, which must
/// outlive every resampler made with them.
FilmOfRun film_of_run(const Simulation& sim, double max_turn_rate_degrees, int start_frame,
                      double preroll, int handles);

} // namespace crowd
