// The database and its schema: creating the database and applying schema.sql (idempotent, so
// it is applied again by every `calendarctl migrate`) without disturbing a running service.
#pragma once

#include "cal/core/config.h"

#include <string>
#include <string_view>
#include <vector>

namespace cal {

class Db;

// Whether `name` may name the database: letters, digits and _, at most 64 (identifiers cannot be
// bound as parameters, so only such names are ever put into SQL).
bool valid_database_name(std::string_view name);

// Creates the database `config.name` if needed (utf8mb4) and applies `schema_script` to it.
// Throws std::invalid_argument for a name valid_database_name refuses, DatabaseUnavailable and
// DatabaseConflict as Db does.
void migrate_database(const DatabaseConfig& config, std::string_view schema_script);

// Runs a multi-statement script without parameters: statements end with ';' at the end of a
// line, "--" comment lines are skipped. Triggers that exist already are left alone (CREATE
// TRIGGER IF NOT EXISTS) or replaced only when their body changed (CREATE OR REPLACE TRIGGER):
// creating a trigger locks its table, which would block the running service's writers. So are
// procedures (CREATE OR REPLACE PROCEDURE: replaced only when the body from BEGIN differs).
void apply_schema_script(Db& db, std::string_view script);

// The tables `script` creates (its CREATE TABLE IF NOT EXISTS statements), in order.
std::vector<std::string> schema_tables(std::string_view script);

}  // namespace cal
