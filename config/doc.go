// Package config reads shellguard's TOML configuration.
//
// Configuration comes in layers, each applied over the previous one:
//
//  1. built-in defaults (Default);
//  2. the user file, $XDG_CONFIG_HOME/shellguard/config.toml (by default
//     ~/.config/shellguard/config.toml);
//  3. the project file, .shellguard.toml in the working directory or the
//     nearest parent that has one;
//  4. the explicit file, --config FILE or $SHELLGUARD_CONFIG.
//
// Scalars (deny_at, ask_at, read_only, audit_log) take the value of the
// last layer that sets them; lists (rules, exempt) accumulate; a custom
// pattern or a [builtin.NAME] setting replaces an earlier one of the same
// name.
//
// A project file arrives with whatever repository was cloned, so it may
// only tighten the policy: add patterns and ask/deny rules, lower the
// thresholds, raise built-in levels, turn the read-only list off,
// re-enable a disabled built-in. Anything that would loosen it (allow
// rules, exempt names, disabling a built-in, lowering a level, raising a
// threshold, turning the read-only list back on, the audit log path) is
// ignored and explained in Config.Notices, each notice naming the file
// and line.
//
// Decoding is strict: an unknown key, a value of the wrong type, an
// unknown level or a regular expression that does not compile is an
// *Error naming the file and line. See docs/config.md for the schema.
//
// Allow, ask and deny rules are wildcard patterns over an invocation's
// text, in the syntax of opencode ("git push *") or Claude Code
// ("Bash(git push:*)"); MatchRule implements the matching.
package config
