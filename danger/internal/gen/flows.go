package main

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// flowEnd is what a source and a sink both are: a name, what it is, and
// the invocations it is (a source's match is optional).
type flowEnd struct {
	Name        string   `toml:"name"`
	Description string   `toml:"description"`
	Match       *specDef `toml:"match"`
}

// sourceDef is one [[source]] of a rule pack: what holds a secret, for
// the line-level flow checks (danger/checks_secrets.go). Exactly one of
// Match (an invocation whose output is the secret), Files (files that
// hold it) and Vars (environment variables that hold it) is set.
type sourceDef struct {
	flowEnd
	Files      string   `toml:"files"`
	Public     string   `toml:"public"`
	Opaque     []string `toml:"opaque"`
	Vars       string   `toml:"vars"`
	Hosts      string   `toml:"hosts"`
	OnlyTo     string   `toml:"only_to"`
	CriticalTo string   `toml:"critical_to"`
	Credential bool     `toml:"credential"`
	Deployable bool     `toml:"deployable"`
}

// sinkDef is one [[sink]] of a rule pack: a program that sends data to
// another host, and which of its words carry what it sends.
type sinkDef struct {
	flowEnd
	Operands    string   `toml:"operands"`
	Input       bool     `toml:"input"`
	Data        []string `toml:"data"`
	Form        []string `toml:"form"`
	Files       []string `toml:"files"`
	Credentials []string `toml:"credentials"`
	URLs        []string `toml:"urls"`
	Batch       bool     `toml:"batch"`
	Publishes   bool     `toml:"publishes"`
	Login       bool     `toml:"login"`
}

// sinkOperands are the kinds of operands a sink may have (the code of
// danger/checks_secrets.go reads each).
var sinkOperands = map[string]bool{"": true, "urls": true, "host": true, "host_command": true, "copy": true, "files": true, "names": true, "items": true, "addresses": true}

// checkFlows validates the sources and sinks of every pack.
func checkFlows(files []ruleFile, checks map[string]checkDef, progs map[string]*program) error {
	seen := map[string]string{}
	re := func(where, what, expr string) error {
		if expr == "" {
			return nil
		}
		if _, err := regexp.Compile(`^(?:` + expr + `)$`); err != nil {
			return fmt.Errorf("%s: %s: %v", where, what, err)
		}
		return nil
	}
	// declare checks a source's or a sink's name and description and that
	// the name is new; where names it in messages.
	declare := func(file, kind, name, desc string) (where string, err error) {
		where = fmt.Sprintf("%s: %s %q", file, kind, name)
		if !ruleName.MatchString(name) || strings.TrimSpace(desc) == "" {
			return where, fmt.Errorf("%s: needs a lower_case name and a description", where)
		}
		if prev, dup := seen[kind+" "+name]; dup {
			return where, fmt.Errorf("%s: defined twice (also in %s)", where, prev)
		}
		seen[kind+" "+name] = file
		return where, nil
	}
	for _, f := range files {
		for _, s := range f.Source {
			where, err := declare(f.file, "source", s.Name, s.Description)
			if err != nil {
				return err
			}
			n := 0
			if s.Match != nil {
				n++
				if err := expandClasses(s.Match, progs, nil); err != nil {
					return fmt.Errorf("%s: %v", where, err)
				}
				if len(s.Match.Programs) == 0 {
					return fmt.Errorf("%s: match needs programs", where)
				}
				if err := checkSpec(s.Match, checks, progs, false); err != nil {
					return fmt.Errorf("%s: match: %v", where, err)
				}
			}
			if s.Files != "" {
				n++
			}
			if s.Vars != "" {
				n++
			}
			if n != 1 {
				return fmt.Errorf("%s: set exactly one of match, files and vars", where)
			}
			if (s.Public != "" || len(s.Opaque) > 0) && s.Files == "" {
				return fmt.Errorf("%s: public and opaque go with files", where)
			}
			for _, x := range []struct{ what, expr string }{{"files", s.Files}, {"public", s.Public}, {"vars", s.Vars}, {"hosts", s.Hosts}, {"only_to", s.OnlyTo}, {"critical_to", s.CriticalTo}} {
				if err := re(where, x.what, x.expr); err != nil {
					return err
				}
			}
		}
		for _, s := range f.Sink {
			where, err := declare(f.file, "sink", s.Name, s.Description)
			if err != nil {
				return err
			}
			if s.Match == nil || len(s.Match.Programs) == 0 {
				return fmt.Errorf("%s: needs a match with programs", where)
			}
			if err := checkSpec(s.Match, checks, progs, false); err != nil {
				return fmt.Errorf("%s: match: %v", where, err)
			}
			if !sinkOperands[s.Operands] {
				return fmt.Errorf("%s: operands %q: want urls, host, host_command, copy, files, names, items or addresses", where, s.Operands)
			}
			for _, name := range s.Match.Programs {
				p := progs[name]
				for _, list := range [][]string{s.Data, s.Form, s.Files, s.Credentials, s.URLs} {
					for _, o := range list {
						if !isOption(o) {
							return fmt.Errorf("%s: %q is not an option", where, o)
						}
						if p != nil && !takesValue(p, o) {
							return fmt.Errorf("%s: %s's data does not say %s takes a value (add it to values)", where, name, o)
						}
						if p != nil {
							if to, ok := p.def.Aliases[o]; ok {
								return fmt.Errorf("%s: %q is an alias of %q for %s: write the canonical spelling", where, o, to, name)
							}
						}
					}
				}
			}
		}
	}
	return nil
}

// emitFlows writes the sources and sinks into rules_gen.go.
func emitFlows(b *bytes.Buffer, files []ruleFile) {
	// re adds the anchored expression expr, when there is one; ci makes
	// it case-insensitive.
	re := func(f *fields, field, expr string, ci bool) {
		if expr == "" {
			return
		}
		if ci {
			expr = "(?i:" + expr + ")"
		}
		f.add(field, anchoredLit(expr))
	}
	b.WriteString("// builtinSources are the [[source]] tables of the rule packs: what holds a\n// secret (see checks_secrets.go).\nvar builtinSources = [...]flowSource{\n")
	for _, fl := range files {
		for _, s := range fl.Source {
			f := fields{"name: " + strconv.Quote(s.Name), "what: " + strconv.Quote(strings.TrimSpace(s.Description)), "pack: " + strconv.Quote(fl.Pack.Name)}
			if s.Match != nil {
				f.add("spec", "&"+specLit(s.Match))
				f.add("m", matcherLit(s.Match))
			}
			re(&f, "files", s.Files, false)
			re(&f, "public", s.Public, false)
			re(&f, "vars", s.Vars, false)
			re(&f, "hosts", s.Hosts, true)
			re(&f, "onlyTo", s.OnlyTo, true)
			re(&f, "criticalTo", s.CriticalTo, true)
			if len(s.Opaque) > 0 {
				f.add("opaque", fmt.Sprintf("%#v", s.Opaque))
			}
			f.flag("credential", s.Credential)
			f.flag("deployable", s.Deployable)
			b.WriteString("\t" + f.lit("") + ",\n")
		}
	}
	b.WriteString("}\n\n")
	b.WriteString("// builtinSinks are the [[sink]] tables of the rule packs: programs that\n// send data to another host (see checks_secrets.go).\nvar builtinSinks = [...]flowSink{\n")
	index := map[string][]int{}
	k := 0
	for _, fl := range files {
		for _, s := range fl.Sink {
			f := fields{"name: " + strconv.Quote(s.Name), "spec: &" + specLit(s.Match), "m: " + matcherLit(s.Match), "operands: " + strconv.Quote(s.Operands)}
			for _, l := range []struct {
				name string
				v    []string
			}{{"data", s.Data}, {"form", s.Form}, {"files", s.Files}, {"credentials", s.Credentials}, {"urls", s.URLs}} {
				if len(l.v) > 0 {
					f.add(l.name, fmt.Sprintf("%#v", l.v))
				}
			}
			f.flag("input", s.Input)
			f.flag("batch", s.Batch)
			f.flag("publishes", s.Publishes)
			f.flag("login", s.Login)
			b.WriteString("\t" + f.lit("") + ",\n")
			for _, p := range s.Match.Programs {
				index[p] = append(index[p], k)
			}
			k++
		}
	}
	b.WriteString("}\n\n")
	emitIndex(b, index, "builtinSinkIndex", "the sinks of each program name, for\n// builtinSinksOf",
		"builtinSinksOf", "the indexes of the sinks that name the program")
}
