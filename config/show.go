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

	p("# Configuration files read, in order (later wins; project files only tighten):\n")
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
	if len(c.Exempt) == 0 {
		p("exempt = []\t# default\n")
	} else {
		p("exempt = [\n")
		for _, n := range c.Exempt {
			p("  %s,\t# %s\n", strconv.Quote(n), c.ExemptSources[n])
		}
		p("]\n")
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

type jsonConfig struct {
	Files    []Source               `json:"files"`
	DenyAt   jsonSetting            `json:"deny_at"`
	AskAt    jsonSetting            `json:"ask_at"`
	ReadOnly jsonSetting            `json:"read_only"`
	AuditLog jsonSetting            `json:"audit_log"`
	AuditReq jsonSetting            `json:"audit_required"`
	Exempt   []jsonName             `json:"exempt"`
	Rules    map[string][]Rule      `json:"rules"`
	Patterns []jsonPattern          `json:"patterns"`
	Builtin  map[string]jsonBuiltin `json:"builtin"`
	Packs    map[string]PackSetting `json:"packs"`
	Notices  []string               `json:"notices"`
}

// ShowJSON writes the effective configuration as one JSON object:
// {"files", "deny_at", "ask_at", "read_only", "audit_log",
// "audit_required" (each {"value","source"}), "exempt" ([{"name","source"}]), "rules"
// ({"allow","ask","deny"}: [{"pattern","source"}]), "patterns",
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
		Exempt:   []jsonName{},
		Rules:    map[string][]Rule{"allow": nonNil(c.Allow), "ask": nonNil(c.Ask), "deny": nonNil(c.Deny)},
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
