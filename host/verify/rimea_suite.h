// The RiMEA tests of `crowd verify` (docs/verification.md), in the guideline's order. Each is
// defined in its own file, host/verify/rimea_NN_*.cpp.
#pragma once

#include "host/verify/verify_types.h"

#include <vector>

namespace crowd {

VerifyTest rimea_test_01();
VerifyTest rimea_test_04();
VerifyTest rimea_test_06();
VerifyTest rimea_test_07();
VerifyTest rimea_test_08();
VerifyTest rimea_test_09();
VerifyTest rimea_test_10();
VerifyTest rimea_test_11();
VerifyTest rimea_test_12();
VerifyTest rimea_test_13();
VerifyTest rimea_test_15();
VerifyTest rimea_test_16();

/// Every test above, by number.
std::vector<VerifyTest> rimea_suite();

} // namespace crowd
