// The number formats of every text output (outputs.md leaves them open; chosen so that
// identical runs give identical bytes and a file reads back exactly):
// * floats: std::to_chars shortest round-trip form ("1.5", "-0.25", "1e-05"); -0 is "0".
// * times: the shortest decimal with at most 9 decimals that lies within 2^-23 x t of the
//   double given ("0.9" for step 9 of dt = 0.1f, whose exact product is 0.90000001341...;
//   "70" for step 700, never "70.000001" or "7e+01"); otherwise the shortest round-trip fixed
//   form.
// * integers: decimal.
#pragma once

#include <string>

namespace crowd {

void append_float(std::string& out, float value);
void append_time(std::string& out, double seconds);
void append_int(std::string& out, long long value);

} // namespace crowd
