// The error of a bad call through the library's API (Simulation, Crowd): an unknown agent id,
// a non-finite position, a parameter out of range. The call leaves everything as it was.
#pragma once

#include <stdexcept>

namespace crowd {

/// A bad call through the API (unknown agent id, non-finite goal, ...).
class ApiError : public std::invalid_argument {
public:
  using std::invalid_argument::invalid_argument;
};

} // namespace crowd
