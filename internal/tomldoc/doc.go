// Package tomldoc decodes TOML documents into plain Go values, with the
// line of every key, table and array element, for messages that name a
// file and line.
//
// Decoding is github.com/pelletier/go-toml/v2's: Unmarshal into maps
// (keys keep their case; a key or table defined twice, a table over a
// value, a [header] for a table made by dotted keys and the other
// redefinitions TOML forbids are errors with their line), and its
// unstable parser for the position of every key. Decode10 also rejects
// what TOML 1.1 added to 1.0 (\e and \xHH escapes, inline tables over
// several lines or with a trailing comma, times without seconds), for
// files that promise TOML 1.0.
//
// Values have go-toml's types: string, int64, float64, bool, time.Time
// (offset date-times), toml.LocalDateTime, toml.LocalDate,
// toml.LocalTime, []any (arrays, and arrays of tables) and
// map[string]any (tables). Errors are *Error values with the 1-based
// line of the problem.
package tomldoc
