// GTID positions and replica settings (cal/store/replicas.h): no server needed.
#include "cal/store/replicas.h"

#include <doctest/doctest.h>

TEST_CASE("gtid_reached compares every domain of the target") {
  CHECK(cal::gtid_reached("0-1-42", "0-1-42"));
  CHECK(cal::gtid_reached("0-1-43", "0-1-42"));
  CHECK_FALSE(cal::gtid_reached("0-1-41", "0-1-42"));
  CHECK(cal::gtid_reached("0-1-100,1-2-7", "1-2-7,0-1-99"));
  CHECK_FALSE(cal::gtid_reached("0-1-100", "0-1-99,1-2-7"));  // a domain it has not seen
  CHECK(cal::gtid_reached("0-1-5", ""));                      // nothing to reach
  CHECK(cal::gtid_reached("0-1-42", "0-2-42"));               // the server id does not order
  CHECK(cal::parse_gtid_position("0-1-x, 3-1-9 ,junk").size() == 1);
}

TEST_CASE("replica_config: a socket path or host:port with the primary's credentials, read-only sessions") {
  cal::DatabaseConfig primary;
  primary.socket = "/var/run/mysqld/mysqld.sock";
  primary.user = "cal";
  primary.password = "secret";
  primary.replicas = {"/srv/replica-1/mysqld.sock", "db2.internal:3307"};
  const cal::DatabaseConfig a = cal::replica_config(primary, primary.replicas[0]);
  CHECK(a.socket == "/srv/replica-1/mysqld.sock");
  CHECK(a.read_only_session);
  CHECK(a.user == "cal");
  CHECK(a.password == "secret");
  CHECK(a.replicas.empty());
  const cal::DatabaseConfig b = cal::replica_config(primary, primary.replicas[1]);
  CHECK(b.socket.empty());
  CHECK(b.host == "db2.internal");
  CHECK(b.port == 3307);
  CHECK(b.read_only_session);
  CHECK_FALSE(primary.read_only_session);
}
