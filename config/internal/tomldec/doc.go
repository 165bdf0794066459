// Package tomldec decodes TOML 1.0 documents into plain Go values.
//
// It exists so that programs which read shellguard's configuration do not
// have to link a general-purpose, reflection-based TOML library: Decode does
// no work at package initialisation (in particular it never consults the
// local time zone), allocates only the values it returns and runs in time
// linear in the size of its input.
//
// Decode is strict. It accepts exactly TOML 1.0.0 (https://toml.io/en/v1.0.0):
// TOML 1.1 additions (\e and \x escapes, newlines and trailing commas in
// inline tables, times without seconds) are errors, as are the redefinitions
// that TOML 1.0 forbids (a [table] header for a table made by dotted keys, a
// sub-table of an inline table, a key given twice). Arrays and inline tables
// nest at most MaxDepth deep.
//
// Values have these Go types:
//
//	string                   strings of every kind
//	int64                    integers
//	float64                  floats, including inf and nan
//	bool                     booleans
//	time.Time                offset date-times
//	LocalDateTime            local date-times
//	LocalDate                local dates
//	LocalTime                local times
//	[]any                    arrays
//	map[string]any           tables and inline tables
//	[]map[string]any         arrays of tables ([[x]])
//
// Errors are *ParseError values carrying the 1-based line of the problem.
package tomldec
