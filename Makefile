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
CXXFLAGS := -std=c++20 $(WARN) $(OPT) $(DEFS) -Iinclude -MMD -MP
LIBS := -lfcgi -lmysqlcppconn -lboost_program_options -lsodium -ldate-tz -lgumbo -lpthread
TEST_LIBS := -lcurl

LIB_SRCS := $(shell find src -name '*.cpp' ! -path 'src/main.cpp' ! -path 'src/tools/*' | sort)
LIB_OBJS := $(LIB_SRCS:%.cpp=$(BUILD)/obj/%.o)
UNIT_SRCS := $(sort $(wildcard tests/unit/*.cpp))
UNIT_OBJS := $(UNIT_SRCS:%.cpp=$(BUILD)/obj/%.o)
INTEG_SRCS := $(sort $(wildcard tests/integration/*.cpp))
INTEG_OBJS := $(INTEG_SRCS:%.cpp=$(BUILD)/obj/%.o)

BINARIES := $(BUILD)/calendar-fcgi $(BUILD)/calendarctl $(BUILD)/unit-tests $(BUILD)/integration-tests

.PHONY: all deps build asan run start stop test test-unit test-integration bench fuzz clean

all: build

deps:
	@scripts/install-deps.sh

build: deps
	@$(MAKE) --no-print-directory $(BINARIES)

asan: deps
	@$(MAKE) --no-print-directory BUILD=build-asan MODE=asan build-asan/calendar-fcgi build-asan/calendarctl build-asan/unit-tests build-asan/integration-tests

$(BUILD)/libcal.a: $(LIB_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/calendar-fcgi: $(BUILD)/obj/src/main.o $(BUILD)/libcal.a
	$(CXX) $(LDFLAGS) -o $@ $^ $(LIBS)

$(BUILD)/calendarctl: $(BUILD)/obj/src/tools/calendarctl.o $(BUILD)/obj/gen/schema_sql.o $(BUILD)/libcal.a
	$(CXX) $(LDFLAGS) -o $@ $^ $(LIBS)

# schema.sql is embedded in calendarctl so `migrate` needs no file next to the binary.
$(BUILD)/gen/schema_sql.cpp: schema.sql
	@mkdir -p $(dir $@)
	{ echo '// Generated from schema.sql by the Makefile.'; \
	  echo 'namespace cal { extern const char* const kSchemaSql; const char* const kSchemaSql = R"CALSQL('; \
	  cat schema.sql; echo ')CALSQL"; }'; } > $@

$(BUILD)/obj/gen/schema_sql.o: $(BUILD)/gen/schema_sql.cpp
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) -c $< -o $@

$(BUILD)/unit-tests: $(UNIT_OBJS) $(BUILD)/libcal.a
	$(CXX) $(LDFLAGS) -o $@ $^ $(LIBS)

$(BUILD)/integration-tests: $(INTEG_OBJS)
	$(CXX) $(LDFLAGS) -o $@ $^ $(TEST_LIBS) -lpthread

$(BUILD)/obj/%.o: %.cpp
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) -c $< -o $@

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)

# --- dev stack (DESIGN.md §3) -------------------------------------------------
run: build
	@scripts/devstack.sh run $(PORT)

start: build
	@scripts/devstack.sh start $(PORT)

stop:
	@scripts/devstack.sh stop

# --- tests ------------------------------------------------------------------
test: build
	@scripts/run-tests.sh $(BUILD)

test-asan: asan
	@scripts/run-tests.sh build-asan

clean:
	rm -rf build build-asan
