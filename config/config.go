package config

import (
	"fmt"
	"slices"

	"github.com/shellguard/shellguard/danger"
)

// The layers configuration comes from, in the order they are applied.
const (
	LayerDefault  = "default"  // built into shellguard
	LayerManaged  = "managed"  // /etc/shellguard/config.toml and config.d/*.toml: a floor
	LayerUser     = "user"     // $XDG_CONFIG_HOME/shellguard/config.toml
	LayerProject  = "project"  // .shellguard.toml above the working directory
	LayerExplicit = "explicit" // --config FILE or SHELLGUARD_CONFIG
)

// The values of the unattended setting.
const (
	UnattendedDeny = "deny"
	UnattendedAsk  = "ask"
)

// ProjectFileName is the name of the project configuration file, looked
// for in the working directory and each of its parents.
const ProjectFileName = ".shellguard.toml"

// Source says where a value came from.
type Source struct {
	// Layer is LayerDefault, LayerManaged, LayerUser, LayerProject or
	// LayerExplicit.
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
	// AuditLog is the audit log file (with ~ expanded); "" means off. By
	// default it is DefaultAuditLog's path (on), unless a file sets
	// audit_log = "".
	AuditLog string
	// AuditMaxSize is the size in bytes past which the audit log is
	// rotated (renamed to AuditLog + ".1", replacing the previous one).
	AuditMaxSize int64
	// AuditRequired turns a decision that would allow into ask when its
	// audit record cannot be written. It needs AuditLog.
	AuditRequired bool
	// Unattended says what becomes of an answer of ask (one with a danger
	// warning or an ask rule) when the agent reports that no person will
	// see a prompt (a headless run): UnattendedDeny (the default) denies
	// it with the reason, UnattendedAsk keeps the ask. A project file may
	// only set UnattendedDeny.
	Unattended string
	// Mode is ModeEnforce (the default) or ModeWarn: shadow mode, where
	// every entry point decides and logs as usual but blocks nothing.
	// Only the user's, the explicit and the managed files set it.
	Mode string
	// SafeDelete lists folders (names such as "node_modules", "*.egg-info",
	// or paths relative to the project root such as "out/cache") whose
	// recursive deletion inside the current project gets no warning, on
	// top of the built-in list (see policy's context rule). Only the
	// user's and the explicit files add to it.
	SafeDelete []string
	// SafeDeleteSources says where each SafeDelete entry was written.
	SafeDeleteSources map[string]Source
	// Managed holds what the managed configuration forbids the other
	// layers (see LayerManaged).
	Managed Managed
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
	// MCPEnv names the variables of shellguard's own environment that the
	// MCP server passes on to the commands it runs, on top of its minimal
	// set (PATH, HOME, LANG, ...; see docs/mcp.md). A name may end in "*"
	// to pass every variable it prefixes. Only the user and explicit
	// layers can add names: a project file may not widen what a command
	// sees.
	MCPEnv []string
	// MCPEnvSources says where each MCPEnv name was written.
	MCPEnvSources map[string]Source
	// Packs says which built-in rule packs the configuration turns on
	// ([packs] enable) or off ([packs] disable), with where; a pack it
	// does not name keeps its default (danger.Packs). A project file may
	// only enable.
	Packs map[string]PackSetting
	// Provenance says where each scalar setting ("deny_at", "ask_at",
	// "read_only", "audit_log", "audit_required", "audit_max_size",
	// "mode", "unattended") got its value.
	Provenance map[string]Source
	// Files lists the configuration files that were read, in order.
	Files []Source
	// Notices explains what was ignored and why (a project file trying
	// to loosen the policy, ...), one "file:line: message" per entry.
	Notices []string

	// project counts what the project files added (see MaxProjectBytes).
	project projectUse
	// floor is what the managed files set, which the other layers may
	// only tighten; nil without a managed file.
	floor *floor
}

// The modes.
const (
	// ModeEnforce: answers are enforced (the default).
	ModeEnforce = "enforce"
	// ModeWarn: shadow mode; answers are logged and shown, never enforced.
	ModeWarn = "warn"
)

// DefaultAuditMaxSize is the audit log's default size limit (10 MiB);
// with the one rotated file the log takes at most twice that.
const DefaultAuditMaxSize = 10 << 20

// Managed is what the managed configuration ([managed] in
// /etc/shellguard/config.toml or config.d/*.toml) forbids the user's,
// the project's and the explicit files. Each field is set only by a
// managed file; what it forbids is ignored with a notice.
type Managed struct {
	// ForbidExempt ignores every exempt name of the other layers.
	ForbidExempt bool `json:"forbid_exempt"`
	// ForbidAllowRules ignores the other layers' rules.allow.
	ForbidAllowRules bool `json:"forbid_allow_rules"`
	// ForbidWarnMode ignores mode = "warn" in the other layers.
	ForbidWarnMode bool `json:"forbid_warn_mode"`
	// ForbidDisable ignores the other layers' disabling or lowering of
	// any built-in rule (not only those the managed files mention).
	ForbidDisable bool `json:"forbid_disable"`
	// ForbidApprovals names danger rules (or rule packs) whose warnings
	// no approval may lift: a line with such a warning gets no allow-once
	// code, no session or "always" approval lifts it, and no layer may
	// exempt the rule. "*" names every rule.
	ForbidApprovals []string `json:"forbid_approvals"`
	// Source says where each setting was written, by key.
	Sources map[string]Source `json:"sources,omitempty"`
}

// ApprovalForbidden reports whether the managed configuration forbids
// approving warnings of the danger rule name (or of the pack it belongs
// to; pack may be "").
func (m Managed) ApprovalForbidden(name, pack string) bool {
	for _, f := range m.ForbidApprovals {
		if f == "*" || f == name || (pack != "" && f == pack) {
			return true
		}
	}
	return false
}

// Default returns the built-in configuration: deny at critical, ask at
// low, the read-only list on, mode enforce, no rules. Its AuditLog is ""
// (a Config built by hand logs nothing); Load turns the audit log on at
// DefaultAuditLog's path unless a file sets audit_log.
func Default() *Config {
	def := Source{Layer: LayerDefault}
	return &Config{
		DenyAt:            danger.Critical,
		AskAt:             danger.Low,
		ReadOnly:          true,
		Mode:              ModeEnforce,
		Unattended:        UnattendedDeny,
		AuditMaxSize:      DefaultAuditMaxSize,
		SafeDeleteSources: map[string]Source{},
		ExemptSources:     map[string]Source{},
		MCPEnvSources:     map[string]Source{},
		PatternSources:    map[string]Source{},
		Disabled:          map[string]Source{},
		Relevel:           map[string]LevelOverride{},
		Packs:             map[string]PackSetting{},
		Provenance: map[string]Source{
			"deny_at":        def,
			"ask_at":         def,
			"read_only":      def,
			"audit_log":      def,
			"audit_required": def,
			"unattended":     def,
			"audit_max_size": def,
			"mode":           def,
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
