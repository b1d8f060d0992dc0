#include "host/verify/rimea_suite.h"

namespace crowd {

std::vector<VerifyTest> rimea_suite() {
  return {rimea_test_01(), rimea_test_04(), rimea_test_06(), rimea_test_07(),
          rimea_test_08(), rimea_test_09(), rimea_test_10(), rimea_test_11(),
          rimea_test_12(), rimea_test_13(), rimea_test_15(), rimea_test_16()};
}

} // namespace crowd
