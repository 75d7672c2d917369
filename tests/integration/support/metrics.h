// Reading the metrics endpoint (docs/operations.md) from the integration tests.
#pragma once

#include <string>

namespace caltest {

// The metrics endpoint of the stack under test (CAL_TEST_BASE + "/metrics").
std::string metrics_url();

// The value of the sample line `series` (name with its labels, as exposed) in `exposition`, or -1
// when absent.
double metric_sample(const std::string& exposition, const std::string& series);

}  // namespace caltest
