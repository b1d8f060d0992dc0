// libFuzzer target: any bytes as a film CSV (`crowd render --trajectory film.csv`) must give a
// FilmCsv or one TrajectoryError, never a crash, a hang or another exception.
#include "host/output/film_csv_reader.h"

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  try {
    // The agent count of the seed film (tests/fuzz/make_seeds.sh: checkpoint_scenario.json).
    const crowd::FilmCsv film = crowd::read_film_csv(in, "fuzz.csv", 6);
    (void)film.fps();
  } catch (const crowd::TrajectoryError&) {
    // The expected answer to bad input.
  }
  return 0;
}
