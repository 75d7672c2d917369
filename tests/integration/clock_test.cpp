// The test binary, calendar-fcgi and MariaDB read one clock (tracker issue 12): expectations
// computed here from "now", the service's relative dates and the database's UTC_TIMESTAMP() (a
// scheduled post's publication) agree only then. scripts/run-clock-tests.sh runs the stack under
// a fake clock; this is what shows that every process of it got that clock.
#include <doctest/doctest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "client.h"
#include "events_test_support.h"

namespace caltest {
namespace {

using namespace events;

long long test_clock() {
    return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

// UNIX_TIMESTAMP() of the stack's MariaDB through the mariadb client, or -1 when this run has no
// database access that way (no CAL_TEST_DIR, as when run against a remote stack).
long long database_clock() {
    const char* dir = std::getenv("CAL_TEST_DIR");
    if (dir == nullptr || !std::ifstream(std::string(dir) + "/mysqld.pid")) return -1;
    const std::string command = "mariadb --no-defaults --socket='" + std::string(dir) +
                                "/mysqld.sock' --user=root -N -B -e 'SELECT UNIX_TIMESTAMP()'";
    FILE* out = popen(command.c_str(), "r");
    REQUIRE(out != nullptr);
    long long seconds = 0;
    const bool read = std::fscanf(out, "%lld", &seconds) == 1;
    REQUIRE(pclose(out) == 0);
    REQUIRE(read);
    return seconds;
}

TEST_CASE("the tests, the service and the database read one clock") {
    const long long before = test_clock();
    const rapidjson::Document e = create(event_body(unique("clock"), "now", "+1 hour", "\"timezone\":\"UTC\""));
    const long long service = seconds_of(string_at(e, {"utc_start_date"}));
    const long long database = database_clock();
    const long long after = test_clock();
    CAPTURE(before);
    CAPTURE(service);
    CAPTURE(database);
    // Whole seconds read at different moments of one run: 2 s of slack either way.
    CHECK(service >= before - 2);
    CHECK(service <= after + 2);
    if (database < 0) {
        MESSAGE("no database access from this test run: the database clock is not compared");
        return;
    }
    CHECK(database >= before - 2);
    CHECK(database <= after + 2);
}

}  // namespace
}  // namespace caltest
