package config

import (
	"fmt"
	"slices"

	"github.com/shellguard/shellguard/danger"
)

// The layers configuration comes from, in the order they are applied.
const (
	LayerDefault  = "default"  // built into shellguard
	LayerUser     = "user"     // $XDG_CONFIG_HOME/shellguard/config.toml
	LayerProject  = "project"  // .shellguard.toml above the working directory
	LayerExplicit = "explicit" // --config FILE or SHELLGUARD_CONFIG
)

// ProjectFileName is the name of the project configuration file, looked
// for in the working directory and each of its parents.
const ProjectFileName = ".shellguard.toml"

// Source says where a value came from.
type Source struct {
	// Layer is LayerDefault, LayerUser, LayerProject or LayerExplicit.
	Layer string `json:"layer"`
	// File is the configuration file; empty for the default layer.
	File string `json:"file,omitempty"`
	// Line is the 1-based line in File, or 0 when unknown.
	Line int `json:"line,omitempty"`
}

// String returns "default", "user /path/config.toml:3" and so on.
func (s Source) String() string {
	if s.File == "" {
		return s.Layer
	}
	if s.Line > 0 {
		return fmt.Sprintf("%s %s:%d", s.Layer, s.File, s.Line)
	}
	return s.Layer + " " + s.File
}

// Rule is one allow, ask or deny rule: a wildcard pattern over an
// invocation's text (see MatchRule).
type Rule struct {
	// Pattern is the normalised pattern ("git push *"); the Claude Code
	// form "Bash(git push:*)" is converted on loading.
	Pattern string `json:"pattern"`
	// Source is where the rule was written.
	Source Source `json:"source"`
}

// Match reports whether the rule matches an invocation's text (program
// and arguments joined by single spaces).
func (r Rule) Match(command string) bool { return MatchRule(r.Pattern, command) }

// LevelOverride re-levels a built-in danger rule.
type LevelOverride struct {
	Level  danger.Level `json:"level"`
	Source Source       `json:"source"`
}

// PackSetting turns a built-in rule pack on or off.
type PackSetting struct {
	On     bool   `json:"on"`
	Source Source `json:"source"`
}

// Config is the effective configuration after every layer was applied.
// A Config is a plain value: it is safe to read from several goroutines,
// and Load returns a new one each time.
type Config struct {
	// DenyAt: a warning at or above this level denies the command.
	DenyAt danger.Level
	// AskAt: a warning at or above this level (and below DenyAt) asks.
	AskAt danger.Level
	// ReadOnly enables the built-in list of read-only commands that are
	// allowed without asking.
	ReadOnly bool
	// AuditLog is the audit log file (with ~ expanded); "" means off.
	AuditLog string
	// AuditRequired turns a decision that would allow into ask when its
	// audit record cannot be written. It needs AuditLog.
	AuditRequired bool
	// Exempt names danger rules (built-in or custom) whose warnings an
	// allow rule or an approval may override. Only the user and explicit
	// layers can add names.
	Exempt []string
	// ExemptSources says where each Exempt name was written.
	ExemptSources map[string]Source
	// Allow, Ask and Deny are the wildcard rules, in the order the layers
	// and files listed them. Allow rules never come from a project file.
	Allow, Ask, Deny []Rule
	// Patterns are the custom danger patterns, in the order written; a
	// later layer's pattern replaces an earlier one of the same name.
	Patterns []danger.Pattern
	// PatternSources says where each custom pattern was defined.
	PatternSources map[string]Source
	// Disabled lists the built-in rules turned off, with where.
	Disabled map[string]Source
	// Relevel maps a built-in rule's name to its new level.
	Relevel map[string]LevelOverride
	// Packs says which built-in rule packs the configuration turns on
	// ([packs] enable) or off ([packs] disable), with where; a pack it
	// does not name keeps its default (danger.Packs). A project file may
	// only enable.
	Packs map[string]PackSetting
	// Provenance says where each scalar setting ("deny_at", "ask_at",
	// "read_only", "audit_log", "audit_required") got its value.
	Provenance map[string]Source
	// Files lists the configuration files that were read, in order.
	Files []Source
	// Notices explains what was ignored and why (a project file trying
	// to loosen the policy, ...), one "file:line: message" per entry.
	Notices []string

	// project counts what the project files added (see MaxProjectBytes).
	project projectUse
}

// Default returns the built-in configuration: deny at critical, ask at
// low, the read-only list on, no audit log, no rules.
func Default() *Config {
	def := Source{Layer: LayerDefault}
	return &Config{
		DenyAt:         danger.Critical,
		AskAt:          danger.Low,
		ReadOnly:       true,
		ExemptSources:  map[string]Source{},
		PatternSources: map[string]Source{},
		Disabled:       map[string]Source{},
		Relevel:        map[string]LevelOverride{},
		Packs:          map[string]PackSetting{},
		Provenance: map[string]Source{
			"deny_at":        def,
			"ask_at":         def,
			"read_only":      def,
			"audit_log":      def,
			"audit_required": def,
		},
	}
}

// PackOn reports whether the built-in rule pack name is on: as the
// configuration says, or by its default.
func (c *Config) PackOn(name string) bool {
	if s, ok := c.Packs[name]; ok {
		return s.On
	}
	on, _ := danger.PackDefault(name)
	return on
}

// PacksChanged reports whether the configuration turns a pack on or off
// against its default.
func (c *Config) PacksChanged() bool {
	for name, s := range c.Packs {
		if on, ok := danger.PackDefault(name); ok && s.On != on {
			return true
		}
	}
	return false
}

// IsExempt reports whether name is listed in Exempt.
func (c *Config) IsExempt(name string) bool { return slices.Contains(c.Exempt, name) }

// Pattern returns the custom pattern called name.
func (c *Config) Pattern(name string) (danger.Pattern, bool) {
	for _, p := range c.Patterns {
		if p.Name == name {
			return p, true
		}
	}
	return danger.Pattern{}, false
}

// Error is a configuration error: a file that does not parse, an unknown
// key, a bad value. Its message names the file and, when known, the line.
type Error struct {
	File string
	Line int // 0 when unknown
	Msg  string
}

func (e *Error) Error() string {
	switch {
	case e.File == "":
		return e.Msg
	case e.Line > 0:
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return e.File + ": " + e.Msg
}
