# calendar-fcgi: one Makefile for deps, build, dev stack, tests and benchmarks.
# Every target depends on `deps`, so one command works on a fresh Debian 12 machine.

SHELL := /bin/bash
CXX ?= g++
PORT ?= 8080

BUILD ?= build
MODE ?= release

DEFS := -DUSE_OS_TZDB=1 -DONLY_C_LOCALE=1 -DHAS_STRING_VIEW=1
WARN := -Wall -Wextra -Werror
SANITIZE := -fsanitize=address,undefined
ifeq ($(MODE),asan)
OPT := -O1 -g $(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDFLAGS := $(SANITIZE)
else
OPT := -O2 -g
LDFLAGS :=
endif
# libical writes the iCalendar feeds and reads imports (docs/feeds.md); its flags come from pkg-config.
# The programs are compiled against it but do not link it: the service loads it by the SONAME of
# the library found here when a feed or an import first needs it (src/api/ical/libical.h), so a
# CGI process that answers anything else never loads it and ICU. The unit tests call it directly.
ICAL_CFLAGS := $(shell pkg-config --cflags libical 2>/dev/null)
# Connector/C's own header, for the one file that compares the Connector/C built in with the
# system's (calendar-fcgi --check).
MARIADB_CFLAGS := $(shell pkg-config --cflags libmariadb 2>/dev/null)
ICAL_LIBS := $(shell pkg-config --libs libical 2>/dev/null || echo -lical)
ICAL_SONAME := $(shell objdump -p "$$(pkg-config --variable=libdir libical 2>/dev/null)/libical.so" 2>/dev/null | awk '/SONAME/ {print $$2}')
ifneq ($(ICAL_SONAME),)
DEFS += -DCAL_LIBICAL_SONAME='"$(ICAL_SONAME)"'
endif
# jemalloc under the service (not the sanitizer build, whose allocator checks every access):
# glibc's malloc made two threads writing one feed wait on each other's arena lock and spent a
# third of a 1,000-event feed in malloc/free (README.md, "Dependencies").
# calendar-fcgi takes every library but glibc from its static archive (the same -dev packages and
# g++): a CGI process starts once per request, and the dynamic loader's symbol lookups cost it
# about 3 ms of CPU with eight shared C++ libraries and 1 ms more with libmariadb, libssl and
# libcrypto shared (docs/performance.md, "CGI"). So OpenSSL and MariaDB Connector/C are built in:
# after Debian's security updates of libssl3 or libmariadb3, `make build` again
# (docs/deploying.md). libmariadb's authentication plugins stay loadable: they are shared objects
# that bring their own libcrypto. The sanitizer build links like the rest.
ifeq ($(MODE),asan)
SERVICE_LIBS = $(LIBS)
else
SERVICE_LIBS := -static-libstdc++ -static-libgcc -Wl,-Bstatic -lfcgi -lmysqlcppconn-static -lboost_program_options \
	-lsodium -lgumbo -lzstd -ljemalloc_pic -lmariadb -lssl -lcrypto -lz -Wl,-Bdynamic -lpthread -ldl -lm
endif
# Everything but the optimisation, which the tests' own sources set apart (TEST_OPT below).
CXXFLAGS_BUT_OPT := -std=c++20 $(WARN) $(DEFS) -Iinclude -Isrc $(ICAL_CFLAGS) -MMD -MP
CXXFLAGS := $(CXXFLAGS_BUT_OPT) $(OPT)
LIBS := -lfcgi -lmysqlcppconn -lboost_program_options -lsodium -lgumbo -lzstd -lmariadb -lcrypto -lpthread
TEST_LIBS := -lcurl

LIB_SRCS := $(shell find src -name '*.cpp' ! -path 'src/main.cpp' ! -path 'src/tools/*' | sort)
LIB_OBJS := $(LIB_SRCS:%.cpp=$(BUILD)/obj/%.o)
UNIT_SRCS := $(sort $(wildcard tests/unit/*.cpp))
UNIT_OBJS := $(UNIT_SRCS:%.cpp=$(BUILD)/obj/%.o)
INTEG_SRCS := $(shell find tests/integration -name '*.cpp' | sort)
INTEG_OBJS := $(INTEG_SRCS:%.cpp=$(BUILD)/obj/%.o)
# The tests' own sources compile without optimisation: what they test is libcal, built as the
# service is, and their code is mostly assertions and a client waiting for answers. At -O2 a
# test file took about four times as long to compile (13 s against 3.6 s for one integration
# file), which was most of a clean `make test`'s compiling on two cores. The sanitizer build
# keeps its flags for the unit tests.
ifeq ($(MODE),asan)
TEST_OPT := $(OPT)
else
TEST_OPT := -O0 -g
endif
$(UNIT_OBJS): CXXFLAGS := $(CXXFLAGS_BUT_OPT) $(TEST_OPT)
# Integration sources include their helpers as "support/<topic>.h".
$(INTEG_OBJS): CXXFLAGS := $(CXXFLAGS_BUT_OPT) $(TEST_OPT) -Itests/integration

# Language catalogs (docs/api.md §9): each po/<lang>.po compiled by msgfmt beside the binaries, where
# the service finds them unless `[site] locale_dir` says otherwise. A new po/*.po is a new language.
PO_FILES := $(sort $(wildcard po/*.po))
MO_FILES := $(PO_FILES:po/%.po=$(BUILD)/locale/%/LC_MESSAGES/calendar.mo)

# What `make run` / `make start` need; `make build` (and so `make test`) adds the test binaries.
SERVICE := $(BUILD)/calendar-fcgi $(BUILD)/calendarctl $(BUILD)/schema-mysql.sql $(MO_FILES)
BINARIES := $(SERVICE) $(BUILD)/unit-tests $(BUILD)/integration-tests

# The compiling is done by a recursive make, on every core unless the command line says how
# many jobs (-j, -jN, also -j1; e.g. .ci/run's `make -j"$jobs"`): then the sub-make shares
# that jobserver. Decided in the recipe, because make 4.3 shows a command-line -j in MAKEFLAGS
# only there, not while it reads this file. -Otarget keeps each compiler's messages together.
NPROC := $(shell nproc 2>/dev/null || echo 2)
JOBS = $(if $(filter -j%,$(MAKEFLAGS)),,-j$(NPROC) -Otarget)

.PHONY: all help deps build service web asan docs run start stop test test-asan test-clock check-format bench fuzz fuzz-build clean

all: build ## the default: same as build

# `make help`: every target with a "## what it does" comment on its rule line, in file order.
help: ## list the targets with one line each
	@echo "usage: make TARGET [PORT=N] [REPLICAS=K] [DEMO=N] [CXX='ccache g++'] ...; targets:"
	@awk -F ':.*## ' '/^[a-z][a-z-]*:.*## / {printf "  %-13s %s\n", $$1, $$2}' $(firstword $(MAKEFILE_LIST))

deps: ## install the Debian packages the build, the stack and the tests need (skips what is present)
	@scripts/install-deps.sh

build: deps web ## compile the service, calendarctl, the web calendar and the test binaries
	@$(MAKE) --no-print-directory $(JOBS) $(BINARIES)

service: deps web ## compile only what make run / make start need
	@$(MAKE) --no-print-directory $(JOBS) $(SERVICE)

# The web calendar (docs/web-calendar.md): static files in $(BUILD)/web/, FullCalendar from npm
# at the pinned version; the dev stack serves them at /calendar/. Cheap, so always redone.
web: deps ## the web calendar's static files in build/web/
	@scripts/build-web.sh $(BUILD)

# The integration tests are an HTTP and SQL client of the programs under test: build-asan/ gets
# the ordinary build's (a link to $(BUILD)/integration-tests), since compiling their hundred
# files again with the sanitizers took about eleven minutes of CI's two cores and checked only
# the client.
asan: deps ## the service, calendarctl and unit tests built with AddressSanitizer and UBSan into build-asan/
	@scripts/build-web.sh build-asan
	@$(MAKE) --no-print-directory $(JOBS) BUILD=build-asan MODE=asan build-asan/calendar-fcgi build-asan/calendarctl build-asan/schema-mysql.sql build-asan/unit-tests
	@$(MAKE) --no-print-directory $(JOBS) $(BUILD)/integration-tests
	@ln -sfn "$(abspath $(BUILD))/integration-tests" build-asan/integration-tests

$(BUILD)/libcal.a: $(LIB_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/calendar-fcgi: $(BUILD)/obj/src/main.o $(BUILD)/libcal.a | $(MO_FILES)
	$(CXX) $(LDFLAGS) -o $@ $^ $(SERVICE_LIBS)

$(BUILD)/locale/%/LC_MESSAGES/calendar.mo: po/%.po
	@mkdir -p $(dir $@)
	msgfmt --check -o $@ $<

$(BUILD)/calendarctl: $(BUILD)/obj/src/tools/calendarctl.o $(BUILD)/obj/src/tools/demo_command.o \
		$(BUILD)/obj/src/tools/demo_series.o $(BUILD)/obj/src/tools/demo_series_plan.o \
		$(BUILD)/obj/src/tools/search_index_command.o $(BUILD)/obj/src/tools/db_account_command.o \
		$(BUILD)/obj/src/tools/command_options.o $(BUILD)/obj/src/tools/doctor_command.o \
		$(BUILD)/obj/src/tools/doctor_privileges.o $(BUILD)/obj/src/tools/doctor_time_zones.o \
		$(BUILD)/obj/src/tools/doctor_web.o \
		$(BUILD)/obj/src/tools/wordpress_import_command.o \
		$(BUILD)/obj/src/tools/wordpress_import.o $(BUILD)/obj/src/tools/wordpress_import_people.o \
		$(BUILD)/obj/src/tools/wordpress_records.o \
		$(BUILD)/obj/src/tools/wordpress_report.o \
		$(BUILD)/obj/src/tools/sql_command.o $(BUILD)/obj/src/tools/client_defaults_file.o $(BUILD)/obj/gen/schema_sql.o \
		$(BUILD)/libcal.a
	$(CXX) $(LDFLAGS) -o $@ $^ $(LIBS) -lcurl

# schema.sql is embedded in calendarctl so `migrate` needs no file next to the binary.
$(BUILD)/gen/schema_sql.cpp: schema.sql
	@mkdir -p $(dir $@)
	{ echo '// Generated from schema.sql by the Makefile.'; \
	  echo 'namespace cal { extern const char* const kSchemaSql; const char* const kSchemaSql = R"CALSQL('; \
	  cat schema.sql; echo ')CALSQL"; }'; } > $@

# The same statements for the mysql client and phpMyAdmin, which need a DELIMITER for the
# compound bodies (docs/deploying.md: the schema without calendarctl).
$(BUILD)/schema-mysql.sql: schema.sql scripts/schema-for-mysql.sh
	@mkdir -p $(dir $@)
	scripts/schema-for-mysql.sh schema.sql > $@

$(BUILD)/obj/gen/schema_sql.o: $(BUILD)/gen/schema_sql.cpp
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) -c $< -o $@

# The demo's series planner is calendarctl's, not libcal's: linked in for its unit test.
$(BUILD)/unit-tests: $(UNIT_OBJS) $(BUILD)/obj/src/tools/demo_series_plan.o $(BUILD)/libcal.a | $(MO_FILES)
	$(CXX) $(LDFLAGS) -o $@ $^ $(LIBS) $(ICAL_LIBS)

$(BUILD)/integration-tests: $(INTEG_OBJS)
	$(CXX) $(LDFLAGS) -o $@ $^ $(TEST_LIBS) -lpthread

$(BUILD)/obj/%.o: %.cpp
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) -c $< -o $@

$(BUILD)/obj/src/store/built_in_libraries.o: CXXFLAGS += $(MARIADB_CFLAGS)

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)

# --- dev stack (docs/architecture.md, "Service contract") -------------------------------------------------
# DEMO=N: add N demo events (calendarctl demo) once the stack is up, once per stack.
# REPLICAS=K: K read replicas of the private MariaDB (GTID replication), replica k's socket
# var/replica-k/mysqld.sock (docs/scaling-out.md).
REPLICAS ?= 0
run: service ## the dev stack in the foreground on PORT (default 8080); Ctrl-C stops it
	@DEMO=$(DEMO) REPLICAS=$(REPLICAS) scripts/devstack.sh run $(PORT)

start: service ## the dev stack in the background (PORT, REPLICAS, DEMO)
	@DEMO=$(DEMO) REPLICAS=$(REPLICAS) scripts/devstack.sh start $(PORT)

stop: ## stop what make run / make start began
	@scripts/devstack.sh stop

# --- generated documentation ------------------------------------------------------------------
# docs/configuration.md from the option table (calendar-fcgi --config-reference) and
# docs/examples.md from the answers of a fresh private stack; `make test` fails when either
# differs from what the program says today.
docs: service ## write docs/configuration.md and docs/examples.md from the program's own answers
	@scripts/config-doc.sh $(BUILD)
	@scripts/doc-examples.sh $(BUILD)

# --- tests ------------------------------------------------------------------
test: build ## every check and test against private stacks; ends with "N passed, N failed"
	@scripts/run-tests.sh $(BUILD)

test-asan: asan ## make test with the sanitizer build
	@scripts/run-tests.sh build-asan

# The date-sensitive tests with the whole stack under libfaketime at fixed instants (23:30 and
# 00:30 UTC, a year end, a leap day, a DST change): tests must pass at any hour of any day,
# and a test that assumed "today" would fail only on the night it was run near midnight.
test-clock: build ## the date-sensitive tests at fixed instants under libfaketime
	@$(MAKE) --no-print-directory $(BUILD)/calendar-fcgi-glibc-malloc
	@scripts/run-clock-tests.sh $(BUILD)

# The service linked with glibc's malloc, for the date-sensitive tests only: under libfaketime,
# jemalloc's start-up reads the clock while libfaketime's start-up allocates, and the service
# hangs before it serves (scripts/run-clock-tests.sh). The same objects otherwise.
$(BUILD)/calendar-fcgi-glibc-malloc: $(BUILD)/obj/src/main.o $(BUILD)/libcal.a | $(MO_FILES)
	$(CXX) $(LDFLAGS) -o $@ $^ $(LIBS)

# Whether every tracked C++ file is formatted as .clang-format says (clang-format 14); changes
# nothing. `make test` runs it too.
check-format: deps ## whether the C++ files are formatted as .clang-format says
	@scripts/check-format.sh

# --- fuzzing (docs/reliability.md) -------------------------------------------------
# libFuzzer targets tests/fuzz/fuzz_<name>.cpp, built with clang++ and ASan+UBSan into
# build-fuzz/ (the library is rebuilt there with coverage instrumentation). `make fuzz SECONDS=N`
# runs each target for N seconds on its seed corpus tests/fuzz/corpus/<name>/.
FUZZ_BUILD := build-fuzz
FUZZ_CXX ?= clang++
SECONDS ?= 30
# pointer-overflow stays recoverable only so tests/fuzz/ubsan.supp can silence RapidJSON 1.1.0's
# `nullptr + n`; run.sh sets halt_on_error=1, so every report still stops the fuzzer.
FUZZ_SANITIZE := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fsanitize-recover=pointer-overflow
# -Werror stays with the g++ build; clang may warn where g++ does not in files of other modules.
FUZZ_CXXFLAGS := -std=c++20 -Wall -Wextra -O1 -g -fno-omit-frame-pointer $(FUZZ_SANITIZE) $(DEFS) -Iinclude -Isrc $(ICAL_CFLAGS) -MMD -MP
FUZZ_LIB_OBJS := $(LIB_SRCS:%.cpp=$(FUZZ_BUILD)/obj/%.o)
FUZZ_NAMES := $(sort $(patsubst tests/fuzz/fuzz_%.cpp,%,$(wildcard tests/fuzz/fuzz_*.cpp)))
FUZZ_BINS := $(FUZZ_NAMES:%=$(FUZZ_BUILD)/fuzz_%)
-include $(shell find $(FUZZ_BUILD)/obj -name '*.d' 2>/dev/null)

fuzz-build: deps ## build the libFuzzer targets into build-fuzz/
	@$(MAKE) --no-print-directory $(JOBS) $(FUZZ_BINS)

fuzz: fuzz-build ## run each fuzz target for SECONDS seconds (default 30)
	@tests/fuzz/run.sh $(FUZZ_BUILD) $(SECONDS) $(FUZZ_NAMES)

$(FUZZ_BUILD)/obj/%.o: %.cpp
	@mkdir -p $(dir $@)
	$(FUZZ_CXX) $(FUZZ_CXXFLAGS) -fsanitize=fuzzer-no-link -c $< -o $@

$(FUZZ_BUILD)/obj/src/store/built_in_libraries.o: FUZZ_CXXFLAGS += $(MARIADB_CFLAGS)

$(FUZZ_BUILD)/libcal.a: $(FUZZ_LIB_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(FUZZ_BUILD)/fuzz_%: $(FUZZ_BUILD)/obj/tests/fuzz/fuzz_%.o $(FUZZ_BUILD)/libcal.a
	$(FUZZ_CXX) -fsanitize=fuzzer $(FUZZ_SANITIZE) -o $@ $^ $(LIBS)

# --- benchmarks (docs/performance.md) ----------------------------------------------
# `make bench [SCALE=1000000] [REPLICAS=2]`: release build, private stack (with REPLICAS read
# replicas, reads spread over them), seeded dataset, wrk table.
bench: build ## the benchmark table on a seeded private stack (SCALE, REPLICAS)
	@$(MAKE) --no-print-directory $(BUILD)/bench-floor
	@SCALE=$(SCALE) REPLICAS=$(REPLICAS) tests/bench/run.sh $(BUILD)

# The floor: a constant-response libfcgi program (tests/bench/floor.cpp).
$(BUILD)/bench-floor: tests/bench/floor.cpp
	@mkdir -p $(dir $@)
	$(CXX) -std=c++20 $(WARN) -O2 -o $@ $< -lfcgi -lpthread

clean: ## remove build/, build-asan/ and build-fuzz/
	rm -rf build build-asan build-fuzz
