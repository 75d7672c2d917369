// The options of the INI file, declared once: load_config() parses with them and
// config_reference_markdown() prints them as docs/configuration.md, so the page cannot drift.
#pragma once

#include "cal/core/config.h"

#include <boost/program_options/options_description.hpp>

#include <string>

namespace cal {

// Every "section.key" option of the file, storing into `c` (the three lists into the strings, which
// load_config() splits and checks). The descriptions are the reference's "Meaning" column.
boost::program_options::options_description config_options(Config& c, std::string& cors_origins,
                                                           std::string& replicas, std::string& metrics_allow);

// The options only the command line has (--config, --socket, ...), storing into the arguments.
boost::program_options::options_description command_line_options(Config& c, std::string& config_file);

// What a section of the file is for, one sentence; empty for a section this table lacks.
std::string config_section_about(const std::string& section);

}  // namespace cal
