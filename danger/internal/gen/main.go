// Command gen compiles shellguard's knowledge, kept as data, into static
// Go tables: the program facts (internal/programs/data/*.toml, and the
// [[program]] entries of the rule packs) into
// internal/programs/programs_gen.go, and the rule packs
// (danger/rules/*.toml) with the checks (danger/checks.toml) into
// danger/rules_gen.go. Nothing is decoded or compiled at run time.
//
// It validates what it compiles: unknown keys, duplicate names, a program
// described twice with different values, regular expressions, and specs
// that can never match (an unknown check, subcommands of a program with no
// subcommands, a flag the program's option syntax cannot produce, an
// alias where the canonical spelling is wanted). It imports neither
// package it writes, so it runs when their generated files are missing.
// The rules' hit and miss examples are checked by the real detector:
// danger's go:generate runs TestRuleExamples after this command.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"go/format"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

func main() {
	rulesDir := flag.String("rules", "rules", "directory of rule packs (*.toml)")
	checksFile := flag.String("checks", "checks.toml", "the checks file")
	progDir := flag.String("programs", "../internal/programs/data", "directory of program facts (*.toml)")
	outRules := flag.String("out", "rules_gen.go", "the generated registry")
	outProgs := flag.String("programs-out", "../internal/programs/programs_gen.go", "the generated program table")
	flag.Parse()
	if err := run(*rulesDir, *checksFile, *progDir, *outRules, *outProgs); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

// decodeStrict decodes a TOML file into v and rejects keys v has no field
// for.
func decodeStrict(path string, v any) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	dec := toml.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var de *toml.DecodeError
		var se *toml.StrictMissingError
		switch {
		case errors.As(err, &se):
			var keys []string
			for _, e := range se.Errors {
				line, _ := e.Position()
				keys = append(keys, fmt.Sprintf("%s (line %d)", strings.Join(e.Key(), "."), line))
			}
			return fmt.Errorf("%s: unknown keys %v", path, keys)
		case errors.As(err, &de):
			line, _ := de.Position()
			return fmt.Errorf("%s:%d: %v", path, line, err)
		}
		return fmt.Errorf("%s: %v", path, err)
	}
	return nil
}

// tomlFiles returns the *.toml files of dir, sorted; none is an error
// (what names them in it).
func tomlFiles(dir, what string) ([]string, error) {
	fs, err := filepath.Glob(filepath.Join(dir, "*.toml"))
	if err != nil {
		return nil, err
	}
	sort.Strings(fs)
	if len(fs) == 0 {
		return nil, fmt.Errorf("no %s in %s", what, dir)
	}
	return fs, nil
}

func run(rulesDir, checksFile, progDir, outRules, outProgs string) error {
	var defs []programDef
	var env environmentDef
	envFrom := ""
	progFiles, err := tomlFiles(progDir, "program files")
	if err != nil {
		return err
	}
	for _, f := range progFiles {
		var file struct {
			Program     []programDef    `toml:"program"`
			Environment *environmentDef `toml:"environment"`
		}
		if err := decodeStrict(f, &file); err != nil {
			return err
		}
		for i := range file.Program {
			file.Program[i].file = f
		}
		defs = append(defs, file.Program...)
		if file.Environment != nil {
			if envFrom != "" {
				return fmt.Errorf("%s: [environment] is already in %s", f, envFrom)
			}
			env, envFrom = *file.Environment, f
		}
	}
	ruleFiles, err := tomlFiles(rulesDir, "rule packs")
	if err != nil {
		return err
	}
	var files []ruleFile
	for _, f := range ruleFiles {
		var rf ruleFile
		if err := decodeStrict(f, &rf); err != nil {
			return err
		}
		rf.file = f
		for i := range rf.Program {
			rf.Program[i].file = f
		}
		defs = append(defs, rf.Program...)
		files = append(files, rf)
	}
	progs, err := mergePrograms(defs)
	if err != nil {
		return err
	}
	var pnames []string
	for n := range progs {
		pnames = append(pnames, n)
	}
	sort.Strings(pnames)
	for _, n := range pnames {
		if err := checkProgram(progs[n]); err != nil {
			return err
		}
	}
	var cf struct {
		Check []checkDef `toml:"check"`
	}
	if err := decodeStrict(checksFile, &cf); err != nil {
		return err
	}
	checks, err := checkChecks(checksFile, cf.Check)
	if err != nil {
		return err
	}
	sinks := sinkPrograms(files)
	for fi := range files {
		for pi := range files[fi].Pattern {
			if m := files[fi].Pattern[pi].Match; m != nil {
				if err := expandClasses(m, progs, sinks); err != nil {
					return fmt.Errorf("%s: pattern %q: %v", files[fi].file, files[fi].Pattern[pi].Name, err)
				}
			}
		}
	}
	orderPacks(files)
	if err := checkRules(files, checks, progs); err != nil {
		return err
	}
	if err := checkFlows(files, checks, progs); err != nil {
		return err
	}
	progSrc, err := emitPrograms(progs, env)
	if err != nil {
		return err
	}
	ruleSrc, err := emitRules(files, cf.Check)
	if err != nil {
		return err
	}
	for _, out := range []struct {
		path string
		src  []byte
	}{{outProgs, progSrc}, {outRules, ruleSrc}} {
		src, err := format.Source(out.src)
		if err != nil {
			return fmt.Errorf("formatting %s: %v", out.path, err)
		}
		if err := os.WriteFile(out.path, src, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// checkChecks validates the [[check]] entries of file and returns them by
// name.
func checkChecks(file string, defs []checkDef) (map[string]checkDef, error) {
	checks := map[string]checkDef{}
	for _, c := range defs {
		if !ruleName.MatchString(c.Name) || c.Description == "" {
			return nil, fmt.Errorf("%s: check %q needs a lower_case name and a description", file, c.Name)
		}
		if _, dup := checks[c.Name]; dup {
			return nil, fmt.Errorf("%s: check %q is defined twice", file, c.Name)
		}
		if c.Computed && len(c.Finds) == 0 || len(c.Finds) > 0 && c.Line {
			return nil, fmt.Errorf("%s: check %q: computed goes with finds, and finds with a check of an invocation", file, c.Name)
		}
		for _, k := range c.Finds {
			if !findKind.MatchString(k) {
				return nil, fmt.Errorf("%s: check %q: finds %q: want the name of a kind of interp's findings (fork-bomb)", file, c.Name, k)
			}
		}
		checks[c.Name] = c
	}
	return checks, nil
}
