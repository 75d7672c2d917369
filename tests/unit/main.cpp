// Entry point of the unit-test binary: doctest supplies main(); every *_test.cpp beside this
// file adds its cases.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
