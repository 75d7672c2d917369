// Reading the metrics endpoint (see metrics.h).
#include "support/metrics.h"

#include "support/client.h"

namespace caltest {

std::string metrics_url() { return base_url() + "/metrics"; }

double metric_sample(const std::string& exposition, const std::string& series) {
  const std::size_t at = exposition.find("\n" + series + " ");
  if (at == std::string::npos) return -1;
  return std::stod(exposition.substr(at + 1 + series.size() + 1));
}

}  // namespace caltest
