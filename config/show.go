package config

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/shellguard/shellguard/danger"
)

// Show writes every effective value and where it came from, for people.
func (c *Config) Show(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	p := func(format string, args ...any) { fmt.Fprintf(tw, format, args...) }

	p("# Configuration files read, in order (later wins; project files only tighten;\n")
	p("# managed files are a floor that the others may only tighten):\n")
	if len(c.Files) == 0 {
		p("#   none: built-in defaults only\n")
	}
	for _, f := range c.Files {
		p("#   %s\t%s\n", f.Layer, f.File)
	}
	p("\n")
	setting := func(key, val string, note ...string) {
		p("%s = %s\t# %s\n", key, val, strings.Join(append([]string{c.Provenance[key].String()}, note...), ", "))
	}
	setting("deny_at", strconv.Quote(levelText(c.DenyAt)))
	setting("ask_at", strconv.Quote(levelText(c.AskAt)))
	setting("read_only", strconv.FormatBool(c.ReadOnly))
	if c.AuditLog == "" {
		setting("audit_log", `""`, "off")
	} else {
		setting("audit_log", strconv.Quote(c.AuditLog))
	}
	setting("audit_required", strconv.FormatBool(c.AuditRequired))
	setting("unattended", strconv.Quote(c.Unattended))
	setting("audit_max_size", strconv.FormatInt(c.AuditMaxSize, 10))
	if c.Mode == ModeWarn {
		setting("mode", strconv.Quote(c.Mode), "shadow mode: nothing is blocked")
	} else {
		setting("mode", strconv.Quote(c.Mode))
	}
	// list writes a list of names, each with where it was set.
	list := func(key, none string, names []string, sources map[string]Source) {
		if len(names) == 0 {
			p("%s = []\t# %s\n", key, none)
			return
		}
		p("%s = [\n", key)
		for _, n := range names {
			p("  %s,\t# %s\n", strconv.Quote(n), sources[n])
		}
		p("]\n")
	}
	list("safe_delete", "default (the built-in build and cache folders still apply)", c.SafeDelete, c.SafeDeleteSources)
	list("exempt", "default", c.Exempt, c.ExemptSources)

	if m := c.Managed; m.Sources != nil {
		p("\n[managed]\n")
		flag := func(key string, v bool) {
			if src, ok := m.Sources[key]; ok {
				p("%s = %t\t# %s\n", key, v, src)
			}
		}
		flag("forbid_exempt", m.ForbidExempt)
		flag("forbid_allow_rules", m.ForbidAllowRules)
		flag("forbid_warn_mode", m.ForbidWarnMode)
		flag("forbid_disable", m.ForbidDisable)
		if src, ok := m.Sources["forbid_approvals"]; ok {
			q := make([]string, len(m.ForbidApprovals))
			for i, n := range m.ForbidApprovals {
				q[i] = strconv.Quote(n)
			}
			p("forbid_approvals = [%s]\t# %s\n", strings.Join(q, ", "), src)
		}
	}

	p("\n[rules]\n")
	for _, r := range []struct {
		key   string
		rules []Rule
	}{{"allow", c.Allow}, {"ask", c.Ask}, {"deny", c.Deny}} {
		if len(r.rules) == 0 {
			p("%s = []\n", r.key)
			continue
		}
		p("%s = [\n", r.key)
		for _, rule := range r.rules {
			p("  %s,\t# %s\n", strconv.Quote(rule.Pattern), rule.Source)
		}
		p("]\n")
	}

	p("\n[mcp]\n")
	list("env", "default", c.MCPEnv, c.MCPEnvSources)

	for _, pat := range c.Patterns {
		p("\n[[pattern]]\t# %s\n", c.PatternSources[pat.Name])
		p("name = %s\n", strconv.Quote(pat.Name))
		if pat.Regex != "" {
			p("regex = %s\n", strconv.Quote(pat.Regex))
		}
		p("level = %s\n", strconv.Quote(levelText(pat.Level)))
		p("description = %s\n", strconv.Quote(pat.Description))
		p("case_sensitive = %t\n", pat.CaseSensitive)
		if pat.Match != nil && len(pat.Match.Programs) > 0 {
			q := make([]string, len(pat.Match.Programs))
			for i, s := range pat.Match.Programs {
				q[i] = strconv.Quote(s)
			}
			p("match.programs = [%s]\n", strings.Join(q, ", "))
		}
	}

	p("\n[packs]\t# built-in rule packs; shellguard rules lists them\n")
	for _, on := range []bool{true, false} {
		key := "enable"
		if !on {
			key = "disable"
		}
		names := c.packNames(on)
		if len(names) == 0 {
			p("%s = []\n", key)
			continue
		}
		p("%s = [\n", key)
		for _, n := range names {
			p("  %s,\t# %s\n", strconv.Quote(n), c.Packs[n].Source)
		}
		p("]\n")
	}

	for _, name := range c.builtinNames() {
		p("\n[builtin.%s]\n", name)
		if s, ok := c.Disabled[name]; ok {
			p("disabled = true\t# %s\n", s)
		}
		if o, ok := c.Relevel[name]; ok {
			p("level = %s\t# %s\n", strconv.Quote(levelText(o.Level)), o.Source)
		}
	}

	if len(c.Notices) > 0 {
		p("\n# Notices:\n")
		for _, n := range c.Notices {
			p("#   %s\n", n)
		}
	}
	return tw.Flush()
}

// packNames returns the packs the configuration turns on (or off),
// sorted.
func (c *Config) packNames(on bool) []string {
	var names []string
	for n, s := range c.Packs {
		if s.On == on {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names
}

// builtinNames returns the built-in rules Disabled or Relevel mention,
// sorted.
func (c *Config) builtinNames() []string {
	seen := map[string]bool{}
	var names []string
	for n := range c.Disabled {
		if !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	for n := range c.Relevel {
		if !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names
}

type jsonSetting struct {
	Value  any    `json:"value"`
	Source Source `json:"source"`
}

type jsonName struct {
	Name   string `json:"name"`
	Source Source `json:"source"`
}

type jsonPattern struct {
	danger.Pattern
	Source Source `json:"source"`
}

type jsonBuiltin struct {
	Disabled *Source       `json:"disabled,omitempty"`
	Level    *danger.Level `json:"level,omitempty"`
	LevelSrc *Source       `json:"level_source,omitempty"`
}

type jsonMCP struct {
	Env []jsonName `json:"env"`
}

type jsonConfig struct {
	Files    []Source               `json:"files"`
	DenyAt   jsonSetting            `json:"deny_at"`
	AskAt    jsonSetting            `json:"ask_at"`
	ReadOnly jsonSetting            `json:"read_only"`
	AuditLog jsonSetting            `json:"audit_log"`
	AuditReq jsonSetting            `json:"audit_required"`
	Unattend jsonSetting            `json:"unattended"`
	AuditMax jsonSetting            `json:"audit_max_size"`
	Mode     jsonSetting            `json:"mode"`
	SafeDel  []jsonName             `json:"safe_delete"`
	Managed  *Managed               `json:"managed,omitempty"`
	Exempt   []jsonName             `json:"exempt"`
	Rules    map[string][]Rule      `json:"rules"`
	MCP      jsonMCP                `json:"mcp"`
	Patterns []jsonPattern          `json:"patterns"`
	Builtin  map[string]jsonBuiltin `json:"builtin"`
	Packs    map[string]PackSetting `json:"packs"`
	Notices  []string               `json:"notices"`
}

// ShowJSON writes the effective configuration as one JSON object:
// {"files", "deny_at", "ask_at", "read_only", "audit_log",
// "audit_required", "audit_max_size", "mode", "unattended" (each {"value","source"}),
// "safe_delete" and "exempt" ([{"name","source"}]), "managed" (what the
// managed configuration forbids, when there is one), "rules"
// ({"allow","ask","deny"}: [{"pattern","source"}]), "mcp" ({"env":
// [{"name","source"}]}), "patterns",
// "builtin" ({name: {"disabled": source, "level", "level_source"}}),
// "packs" ({name: {"on", "source"}}: the packs the configuration turns on
// or off), "notices"}.
func (c *Config) ShowJSON(w io.Writer) error {
	nonNil := func(r []Rule) []Rule {
		if r == nil {
			return []Rule{}
		}
		return r
	}
	j := jsonConfig{
		Files:    append([]Source{}, c.Files...),
		DenyAt:   jsonSetting{c.DenyAt, c.Provenance["deny_at"]},
		AskAt:    jsonSetting{c.AskAt, c.Provenance["ask_at"]},
		ReadOnly: jsonSetting{c.ReadOnly, c.Provenance["read_only"]},
		AuditLog: jsonSetting{c.AuditLog, c.Provenance["audit_log"]},
		AuditReq: jsonSetting{c.AuditRequired, c.Provenance["audit_required"]},
		Unattend: jsonSetting{c.Unattended, c.Provenance["unattended"]},
		AuditMax: jsonSetting{c.AuditMaxSize, c.Provenance["audit_max_size"]},
		Mode:     jsonSetting{c.Mode, c.Provenance["mode"]},
		SafeDel:  []jsonName{},
		Exempt:   []jsonName{},
		Rules:    map[string][]Rule{"allow": nonNil(c.Allow), "ask": nonNil(c.Ask), "deny": nonNil(c.Deny)},
		MCP:      jsonMCP{Env: []jsonName{}},
		Patterns: []jsonPattern{},
		Builtin:  map[string]jsonBuiltin{},
		Packs:    map[string]PackSetting{},
		Notices:  append([]string{}, c.Notices...),
	}
	for n, s := range c.Packs {
		j.Packs[n] = s
	}
	for _, n := range c.Exempt {
		j.Exempt = append(j.Exempt, jsonName{n, c.ExemptSources[n]})
	}
	for _, n := range c.SafeDelete {
		j.SafeDel = append(j.SafeDel, jsonName{n, c.SafeDeleteSources[n]})
	}
	if c.Managed.Sources != nil {
		m := c.Managed
		j.Managed = &m
	}
	for _, n := range c.MCPEnv {
		j.MCP.Env = append(j.MCP.Env, jsonName{n, c.MCPEnvSources[n]})
	}
	for _, p := range c.Patterns {
		j.Patterns = append(j.Patterns, jsonPattern{p, c.PatternSources[p.Name]})
	}
	for _, n := range c.builtinNames() {
		var b jsonBuiltin
		if s, ok := c.Disabled[n]; ok {
			b.Disabled = &s
		}
		if o, ok := c.Relevel[n]; ok {
			b.Level, b.LevelSrc = &o.Level, &o.Source
		}
		j.Builtin[n] = b
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(j)
}
