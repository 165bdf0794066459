package main

import (
	"bytes"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// programDef is one [[program]] entry as written. Every field is a
// pointer or a slice so that a field left out can be told from one set
// to its zero value: several files may describe the same program, each
// field in one of them only.
type programDef struct {
	Names []string `toml:"names"`

	Cluster       *bool             `toml:"cluster"`
	SingleDash    []string          `toml:"single_dash"`
	Globals       []string          `toml:"globals"`
	Values        []string          `toml:"values"`
	Optional      []string          `toml:"optional"`
	Numeric       []string          `toml:"numeric"`
	Whole         []string          `toml:"whole"`
	TwoValues     []string          `toml:"two_values"`
	Ends          []string          `toml:"ends"`
	Plus          *bool             `toml:"plus"`
	FoldCase      *bool             `toml:"fold_case"`
	Abbrev        *bool             `toml:"abbrev"`
	OldStyle      *bool             `toml:"old_style"`
	Posix         *bool             `toml:"posix"`
	Aliases       map[string]string `toml:"aliases"`
	Subcommands   *bool             `toml:"subcommands"`
	Words         map[string]string `toml:"words"`
	ResourceWords *bool             `toml:"resource_words"`
	DashSubs      *bool             `toml:"dash_subcommands"`
	Shell         *bool             `toml:"shell"`
	CommandShell  *bool             `toml:"command_shell"`
	Lang          *string           `toml:"lang"`
	Code          []string          `toml:"code"`
	Load          []string          `toml:"load"`
	Script        []string          `toml:"script"`
	StdinProgram  *bool             `toml:"stdin_program"`
	DataArgs      *bool             `toml:"data_args"`
	Extract       *string           `toml:"extract"`
	Decodes       []string          `toml:"decodes"`
	ActsAs        []string          `toml:"acts_as"`
	Writes        []string          `toml:"writes"`
	Wrapper       *wrapperDef       `toml:"wrapper"`
	Launcher      *launcherDef      `toml:"launcher"`
	CodeRun       []codeRunDef      `toml:"code_run"`
	ConfigCode    map[string]string `toml:"config_code"`

	// The root node's facts.
	Arity    *int         `toml:"arity"`
	DryRun   []string     `toml:"dry_run"`
	Widen    []widenDef   `toml:"widen"`
	Run      *runDef      `toml:"run"`
	ReadOnly *readOnlyDef `toml:"read_only"`

	// What a read-only program's arguments name (policy's read-only
	// scope).
	Files *filesDef `toml:"files"`
	// How it takes commands, keys or arguments from the terminal.
	Terminal []terminalDef `toml:"terminal"`

	Sub []nodeDef `toml:"sub"`

	file string
}

type nodeDef struct {
	Path     string       `toml:"path"`
	Posix    *bool        `toml:"posix"`
	Arity    *int         `toml:"arity"`
	Values   []string     `toml:"values"`
	DryRun   []string     `toml:"dry_run"`
	Widen    []widenDef   `toml:"widen"`
	Run      *runDef      `toml:"run"`
	ReadOnly *readOnlyDef `toml:"read_only"`
}

type widenDef struct {
	Opts          []string `toml:"opts"`
	Exact         bool     `toml:"exact"`
	Unless        []string `toml:"unless"`
	UnlessPrefix  string   `toml:"unless_prefix"`
	HasValue      bool     `toml:"has_value"`
	ValuePrefix   string   `toml:"value_prefix"`
	ValueContains []string `toml:"value_contains"`
	UnlessFlags   []string `toml:"unless_flags"`
	Operand       string   `toml:"operand"`
	Remote        bool     `toml:"remote"`
	Before        bool     `toml:"before"`
	Always        bool     `toml:"always"`
	Prefix        []string `toml:"prefix"`
	Words         []string `toml:"words"`
	Contains      []string `toml:"contains"`
	Label         string   `toml:"label"`
	Why           string   `toml:"why"`
}

type runDef struct {
	Skip      int      `toml:"skip"`
	Versioned bool     `toml:"versioned"`
	DashDash  bool     `toml:"dash_dash"`
	Prefix    string   `toml:"prefix"`
	Shell     []string `toml:"shell"`
}

// wrapperDef is a wrapper's table: how it reads its own arguments before
// the command it runs.
type wrapperDef struct {
	Values   []string `toml:"values"`
	Optional []string `toml:"optional"`
	Operands int      `toml:"operands"`
	Assigns  bool     `toml:"assigns"`
	Numeric  bool     `toml:"numeric"`
	Shell    []string `toml:"shell"`
	NoRun    []string `toml:"no_run"`
	Join     []string `toml:"join"`
}

// codeRunDef is one [[program.code_run]]: where the program takes code it
// runs, and which of shellparse's readers reads it.
type codeRunDef struct {
	Sub    string   `toml:"sub"`
	At     string   `toml:"at"`
	Names  []string `toml:"names"`
	N      int      `toml:"n"`
	Read   string   `toml:"read"`
	File   bool     `toml:"file"`
	When   []string `toml:"when"`
	Unless []string `toml:"unless"`
	Min    int      `toml:"min"`
	Quiet  bool     `toml:"quiet"`
	Label  string   `toml:"label"`
}

// The places and readers of a code run, by their names in the data, as
// internal/programs names them (its Place and Reader constants; the
// readers are shellparse's code).
var (
	knownPlaces  = map[string]string{"option": "AtOption", "operand": "AtOperand", "operands": "AtOperands", "env": "AtEnv", "stdin": "AtStdin"}
	knownReaders = map[string]string{"shell": "ReadShell", "argv": "ReadArgv", "words": "ReadWords", "joined": "ReadJoined",
		"split": "ReadSplit", "remote": "ReadRemote", "unknown": "ReadUnknown", "awk": "ReadAwk", "sed": "ReadSed",
		"vim": "ReadVim", "vim_keys": "ReadVimKeys", "elisp": "ReadElisp", "gdb": "ReadGdb", "lldb": "ReadLldb",
		"make": "ReadMake", "tcl": "ReadTcl", "git_config": "ReadGitConfig", "git_config_env": "ReadGitConfigEnv",
		"git_url": "ReadGitURL", "less_open": "ReadLessOpen", "checkpoint": "ReadCheckpoint", "ssh_option": "ReadSSHOption",
		"apt_option": "ReadAptOption", "tmux_keys": "ReadTmuxKeys", "screen": "ReadScreen", "bind": "ReadBind",
		"sql_shell": "ReadSQLShell", "parallel": "ReadParallel", "alias": "ReadAlias"}
	// knownConfigKinds numbers the ConfigKind constants (ConfigShell is 1).
	knownConfigKinds = map[string]int{"shell": 1, "bool_or_shell": 2, "bang": 3, "alias": 4, "unknown": 5, "url": 6}
)

// launcherDef is a launcher's table: a program whose arguments are a
// command it runs somewhere else (docker exec, kubectl exec, tmux new).
type launcherDef struct {
	Kind      string   `toml:"kind"`
	Globals   []string `toml:"globals"`
	Subs      []string `toml:"subs"`
	Values    []string `toml:"values"`
	RunValues []string `toml:"run_values"`
	Kwargs    []string `toml:"kwargs"`
}

// The launcher kinds shellparse implements (shellparse/runners.go).
var knownLaunchers = map[string]bool{"container": true, "pod": true, "package": true, "terminal": true, "env_tool": true,
	"toolbox": true, "perf": true, "vagrant": true, "gcloud": true, "nix_shell": true, "ansible": true, "salt": true,
	"fanout": true, "mussh": true, "knife": true, "fab": true, "consul": true, "aws": true}

type readOnlyDef struct {
	Deny        []string `toml:"deny"`
	Only        []string `toml:"only"`
	Globals     []string `toml:"globals"`
	MaxOperands *int     `toml:"max_operands"`
	NoArgs      bool     `toml:"no_args"`
	NoGlob      bool     `toml:"no_glob"`
	Extract     string   `toml:"extract"`
}

// filesDef is a program's files table: which of its words name files it
// reads, and how it walks folders.
type filesDef struct {
	None         bool              `toml:"none"`
	Lists        []string          `toml:"lists"`
	Walks        bool              `toml:"walks"`
	WalkFlags    []string          `toml:"walk_flags"`
	WalkValues   map[string]string `toml:"walk_values"`
	Dot          string            `toml:"dot"`
	Pattern      bool              `toml:"pattern"`
	PatternFlags []string          `toml:"pattern_unless"`
	PatternOpts  []string          `toml:"pattern_options"`
}

// terminalDef is one entry of a program's terminal list.
type terminalDef struct {
	Sub         string   `toml:"sub"`
	Use         string   `toml:"use"`
	Runs        []string `toml:"runs"`
	Forces      []string `toml:"forces"`
	Values      []string `toml:"values"`
	Operands    int      `toml:"operands"`
	OnlyForced  bool     `toml:"only_forced"`
	Quiet       []string `toml:"quiet"`
	ReplModules []string `toml:"repl_modules"`
}

// environmentDef is the [environment] table: the variables that change
// what programs run, load or where their data goes.
type environmentDef struct {
	Widen        []string `toml:"widen"`
	Prefixes     []string `toml:"prefixes"`
	Suffixes     []string `toml:"suffixes"`
	Except       []string `toml:"except"`
	ExceptPrefix []string `toml:"except_prefix"`
}

// program is a program's facts merged from every file that describes it.
type program struct {
	name string
	def  programDef
	// from records, per field, the file that set it.
	from map[string]string
}

// The extractors the code of internal/programs implements.
var knownExtracts = map[string]bool{"git": true, "sed": true, "awk": true, "docker": true, "tar": true, "trap": true, "env_assign": true, "find": true}
var knownReadOnlyExtracts = map[string]bool{"date": true}
var knownLangs = map[string]bool{"python": true, "node": true, "perl": true, "ruby": true, "php": true, "sh": true, "lua": true, "r": true, "julia": true, "applescript": true, "jvm": true, "fish": true}

// mergePrograms merges the definitions by name: a field may be set by one
// file only (or by several to the same value); sub nodes merge by path the
// same way.
func mergePrograms(defs []programDef) (map[string]*program, error) {
	out := map[string]*program{}
	for _, d := range defs {
		if len(d.Names) == 0 {
			return nil, fmt.Errorf("%s: a [[program]] has no names", d.file)
		}
		for _, name := range d.Names {
			if name == "" || strings.ToLower(name) != name || strings.ContainsAny(name, " /") || strings.Contains(name, "*") && !strings.HasSuffix(name, "*") {
				return nil, fmt.Errorf("%s: program name %q: want a lower-case basename, or a prefix ending in *", d.file, name)
			}
			p := out[name]
			if p == nil {
				p = &program{name: name, from: map[string]string{}}
				out[name] = p
			}
			if err := mergeInto(p, d); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

func mergeInto(p *program, d programDef) error {
	dst := reflect.ValueOf(&p.def).Elem()
	src := reflect.ValueOf(d)
	t := dst.Type()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() || f.Name == "Names" {
			continue
		}
		if f.Name == "Sub" {
			for _, n := range d.Sub {
				if err := mergeNode(p, n, d.file); err != nil {
					return err
				}
			}
			continue
		}
		if err := mergeField(dst.Field(i), src.Field(i)); err != nil {
			return fmt.Errorf("program %q: %s: %v (%s, %s)", p.name, tomlName(f), err, p.from[f.Name], d.file)
		}
		if !src.Field(i).IsZero() && p.from[f.Name] == "" {
			p.from[f.Name] = d.file
		}
	}
	return nil
}

// mergeField merges one field: lists are appended (a string already
// present is not repeated), tables are merged key by key, and a value
// set twice must be the same.
func mergeField(dv, sv reflect.Value) error {
	if sv.IsZero() {
		return nil
	}
	if dv.IsZero() {
		// A copy: one [[program]] entry may name several programs, which
		// later entries extend differently.
		switch sv.Kind() {
		case reflect.Slice:
			dv.Set(reflect.AppendSlice(reflect.MakeSlice(sv.Type(), 0, sv.Len()), sv))
		case reflect.Map:
			m := reflect.MakeMap(sv.Type())
			for _, k := range sv.MapKeys() {
				m.SetMapIndex(k, sv.MapIndex(k))
			}
			dv.Set(m)
		default:
			dv.Set(sv)
		}
		return nil
	}
	switch dv.Kind() {
	case reflect.Slice:
		for j := 0; j < sv.Len(); j++ {
			x := sv.Index(j)
			dup := false
			if x.Kind() == reflect.String {
				for k := 0; k < dv.Len(); k++ {
					dup = dup || dv.Index(k).String() == x.String()
				}
			}
			if !dup {
				dv.Set(reflect.Append(dv, x))
			}
		}
		return nil
	case reflect.Map:
		for _, k := range sv.MapKeys() {
			if old := dv.MapIndex(k); old.IsValid() && old.Interface() != sv.MapIndex(k).Interface() {
				return fmt.Errorf("%v is set twice, differently", k)
			}
			dv.SetMapIndex(k, sv.MapIndex(k))
		}
		return nil
	}
	if !reflect.DeepEqual(dv.Interface(), sv.Interface()) {
		return fmt.Errorf("set twice, differently")
	}
	return nil
}

func mergeNode(p *program, n nodeDef, file string) error {
	if n.Path == "" || n.Path != strings.TrimSpace(n.Path) || strings.Contains(n.Path, "  ") || strings.ToLower(n.Path) != n.Path {
		return fmt.Errorf("%s: program %q: sub path %q: want lower-case words separated by single spaces", file, p.name, n.Path)
	}
	for k := range p.def.Sub {
		old := &p.def.Sub[k]
		if old.Path != n.Path {
			continue
		}
		dst := reflect.ValueOf(old).Elem()
		src := reflect.ValueOf(n)
		for i := 0; i < dst.NumField(); i++ {
			if dst.Type().Field(i).Name == "Path" {
				continue
			}
			if err := mergeField(dst.Field(i), src.Field(i)); err != nil {
				return fmt.Errorf("program %q sub %q: %s: %v (%s)", p.name, n.Path, tomlName(dst.Type().Field(i)), err, file)
			}
		}
		return nil
	}
	fresh := nodeDef{Path: n.Path}
	dst, src := reflect.ValueOf(&fresh).Elem(), reflect.ValueOf(n)
	for i := 0; i < dst.NumField(); i++ {
		if dst.Type().Field(i).Name != "Path" {
			_ = mergeField(dst.Field(i), src.Field(i))
		}
	}
	p.def.Sub = append(p.def.Sub, fresh)
	return nil
}

func tomlName(f reflect.StructField) string {
	if tag := f.Tag.Get("toml"); tag != "" {
		return tag
	}
	return f.Name
}

// oneDash spells a NoCluster program's long options with one dash, as the
// scanner reads them (--x is -x for Go's flag package and its kind).
func oneDash(p *program) {
	d := &p.def
	if d.Cluster == nil || *d.Cluster {
		return
	}
	fix := func(list []string) {
		for i, o := range list {
			if len(o) > 3 && strings.HasPrefix(o, "--") {
				list[i] = o[1:]
			}
		}
	}
	for _, l := range [][]string{d.SingleDash, d.Whole, d.Globals, d.Values, d.Optional, d.Code, d.Load, d.Script, d.DryRun, d.Decodes, d.TwoValues, d.Ends} {
		fix(l)
	}
	nodes := []*nodeDef{}
	for i := range d.Sub {
		nodes = append(nodes, &d.Sub[i])
	}
	for _, n := range nodes {
		fix(n.Values)
		fix(n.DryRun)
		for k := range n.Widen {
			fix(n.Widen[k].Opts)
			fix(n.Widen[k].UnlessFlags)
		}
	}
	for k := range d.Widen {
		fix(d.Widen[k].Opts)
		fix(d.Widen[k].UnlessFlags)
	}
	// Aliases name what the scanner reads: --flush arrives as -flush.
	if len(d.Aliases) > 0 {
		one := func(o string) string {
			if len(o) > 3 && strings.HasPrefix(o, "--") {
				return o[1:]
			}
			return o
		}
		m := make(map[string]string, len(d.Aliases))
		for from, to := range d.Aliases {
			m[one(from)] = one(to)
		}
		d.Aliases = m
	}
}

// checkProgram validates a merged program.
func checkProgram(p *program) error {
	oneDash(p)
	d := &p.def
	bad := func(format string, args ...any) error {
		return fmt.Errorf("program %q: %s", p.name, fmt.Sprintf(format, args...))
	}
	for from, to := range d.Aliases {
		if !isOption(from) || !isOption(to) {
			return bad("alias %q = %q: both must be options", from, to)
		}
		if _, again := d.Aliases[to]; again {
			return bad("alias %q = %q: the target is not canonical (it is an alias of %q)", from, to, d.Aliases[to])
		}
	}
	for from, to := range d.Words {
		if _, again := d.Words[to]; again {
			return bad("word alias %q = %q: the target is not canonical", from, to)
		}
	}
	if len(d.Words) > 0 && !isTrue(d.Subcommands) {
		return bad("word aliases need subcommands = true")
	}
	if len(d.Sub) > 0 && !isTrue(d.Subcommands) {
		// A node is reached through subcommand words.
		for _, n := range d.Sub {
			if n.Values != nil || n.DryRun != nil || n.Widen != nil || n.ReadOnly != nil || n.Run != nil || n.Posix != nil {
				return bad("sub %q: a program without subcommands = true has only approval arities below it", n.Path)
			}
		}
	}
	// A word may carry its value after "=" ("--dry-run=server").
	optionPart := func(o string) bool { return isOption(strings.SplitN(o, "=", 2)[0]) }
	if o, found := firstNot(optionPart, d.SingleDash, d.Whole, d.Globals, d.Values, d.Optional, d.Numeric, d.Code, d.Load, d.Script, d.DryRun); found {
		return bad("%q is not an option", o)
	}
	for _, o := range d.Numeric {
		if len(o) != 2 {
			return bad("numeric %q: want a one-letter option", o)
		}
	}
	for _, w := range d.Writes {
		if w != "last" && w != "operands" && w != "in_place" && !isOption(w) && !(len(w) > 1 && strings.HasSuffix(w, "=") && !strings.HasPrefix(w, "-")) {
			return bad("writes %q: want last, operands, in_place, KEY= or an option", w)
		}
		if isOption(w) && !takesValue(p, w) {
			return bad("writes %q: the data does not say %s takes a value (add it to values)", w, w)
		}
	}
	if d.Extract != nil && !knownExtracts[*d.Extract] {
		return bad("unknown extract %q", *d.Extract)
	}
	if d.Lang != nil && !knownLangs[*d.Lang] {
		return bad("unknown lang %q", *d.Lang)
	}
	if (len(d.Code) > 0 || len(d.Load) > 0 || isTrue(d.StdinProgram)) && d.Lang == nil {
		return bad("code, load and stdin_program need a lang")
	}
	if f := d.Files; f != nil {
		if f.Dot != "" && f.Dot != "always" && f.Dot != "walking" {
			return bad("files: dot %q: want \"always\" or \"walking\"", f.Dot)
		}
		if f.None && (f.Walks || len(f.WalkFlags)+len(f.WalkValues)+len(f.PatternFlags)+len(f.PatternOpts) > 0 || f.Dot != "" || f.Pattern) {
			return bad("files: none = true names no other fact")
		}
		if f.Dot == "walking" && !f.Walks && len(f.WalkFlags)+len(f.WalkValues) == 0 {
			return bad("files: dot = \"walking\" for a program that never walks")
		}
		if len(f.PatternFlags) > 0 && !f.Pattern {
			return bad("files: pattern_unless needs pattern = true")
		}
		if o, found := firstNot(isOption, f.Lists, f.WalkFlags, f.PatternFlags, f.PatternOpts); found {
			return bad("files: %q is not an option", o)
		}
		for o := range f.WalkValues {
			if !isOption(o) {
				return bad("files: walk_values: %q is not an option", o)
			}
		}
		for _, o := range f.PatternOpts {
			if len(o) == 2 && !slices.Contains(d.Values, o) {
				return bad("files: pattern option %q must be among the program's values", o)
			}
		}
	}
	plusOption := func(o string) bool { return isOption(o) || len(o) >= 2 && o[0] == '+' }
	for k, e := range d.Terminal {
		switch e.Use {
		case "input", "keys", "screen":
		default:
			return bad("terminal %d: use %q: want \"input\", \"keys\" or \"screen\"", k, e.Use)
		}
		if e.Use == "screen" && len(e.Runs)+len(e.Forces)+len(e.Values)+len(e.ReplModules) > 0 {
			return bad("terminal %d: a screen program reads no commands: only sub and quiet apply", k)
		}
		if e.OnlyForced && len(e.Forces) == 0 {
			return bad("terminal %d: only_forced without forces", k)
		}
		if e.Operands < 0 {
			return bad("terminal %d: operands %d", k, e.Operands)
		}
		if o, found := firstNot(plusOption, e.Runs, e.Forces, e.Values); found {
			return bad("terminal %d: %q is not an option", k, o)
		}
		for j := 0; j < k; j++ {
			if d.Terminal[j].Sub == e.Sub {
				return bad("terminal %d: a second entry for sub %q", k, e.Sub)
			}
			if d.Terminal[j].Sub == "" && e.Sub != "" {
				return bad("terminal %d: the entry for sub %q must come before the one without a sub", k, e.Sub)
			}
		}
	}
	if w := d.Wrapper; w != nil {
		if w.Operands < 0 {
			return bad("wrapper: operands %d", w.Operands)
		}
		if o, found := firstNot(isOption, w.Values, w.Optional, w.Shell, w.NoRun, w.Join); found {
			return bad("wrapper: %q is not an option", o)
		}
		if o, found := firstNot(func(o string) bool { return len(o) == 2 }, w.Optional, w.NoRun); found {
			return bad("wrapper: %q: optional and no_run are one-letter options", o)
		}
		for _, o := range w.Shell {
			if !slices.Contains(w.Values, o) {
				return bad("wrapper: shell option %q must be among the wrapper's values", o)
			}
		}
		for _, o := range w.Join {
			if slices.Contains(w.Values, o) || slices.Contains(w.NoRun, o) {
				return bad("wrapper: join option %q is a flag: not among the wrapper's values or no_run", o)
			}
		}
	}
	if l := d.Launcher; l != nil {
		if !knownLaunchers[l.Kind] {
			return bad("launcher: unknown kind %q", l.Kind)
		}
		if o, found := firstNot(isOption, l.Globals, l.Values, l.RunValues); found {
			return bad("launcher: %q is not an option", o)
		}
		for _, w := range append(append([]string(nil), l.Subs...), l.Kwargs...) {
			if w == "" || strings.HasPrefix(w, "-") || strings.ContainsAny(w, " =") {
				return bad("launcher: %q is not a word", w)
			}
		}
	}
	if o, found := firstNot(optionOrDashes, d.TwoValues, d.Ends); found {
		return bad("%q is not an option", o)
	}
	if err := checkCodeRuns(p); err != nil {
		return bad("%v", err)
	}
	nodes := append([]nodeDef{{Arity: d.Arity, DryRun: d.DryRun, Widen: d.Widen, Run: d.Run, ReadOnly: d.ReadOnly}}, d.Sub...)
	for _, n := range nodes {
		for _, w := range n.Widen {
			if err := checkWiden(p, w); err != nil {
				return bad("sub %q: %v", n.Path, err)
			}
		}
		if r := n.ReadOnly; r != nil && r.Extract != "" && !knownReadOnlyExtracts[r.Extract] {
			return bad("sub %q: unknown read-only extract %q", n.Path, r.Extract)
		}
	}
	return nil
}

// checkCodeRuns validates a program's code runs and configuration keys:
// known places and readers, subcommands the data declares, options the
// program's option syntax gives a value, and no place described twice.
func checkCodeRuns(p *program) error {
	d := &p.def
	for k, r := range d.CodeRun {
		bad := func(format string, args ...any) error {
			return fmt.Errorf("code_run %d (%s %s): %s", k, r.At, r.Read, fmt.Sprintf(format, args...))
		}
		if knownPlaces[r.At] == "" {
			return bad("unknown place %q", r.At)
		}
		if knownReaders[r.Read] == "" {
			return bad("unknown reader %q", r.Read)
		}
		if (r.At == "option" || r.At == "env") != (len(r.Names) > 0) {
			return bad("names are wanted for an option or env place, and only there")
		}
		if r.N < 0 || r.Min < 0 || r.N > 0 && r.At != "operand" && r.At != "operands" {
			return bad("n is an operand index")
		}
		if r.Quiet && r.At != "stdin" {
			return bad("quiet is for standard input")
		}
		if r.File && r.At != "option" && r.At != "operand" {
			return bad("file is for an option or an operand")
		}
		subs := []string{""}
		if r.Sub != "" {
			subs = strings.Split(r.Sub, "|")
			if !isTrue(d.Subcommands) {
				return bad("sub %q: the program has no subcommands", r.Sub)
			}
			for _, s := range subs {
				if !hasNode(d, s) {
					return bad("sub %q: the data declares no sub %q", r.Sub, s)
				}
			}
		}
		if o, found := firstNot(optionOrDashes, r.When, r.Unless); found {
			return bad("%q is not an option", o)
		}
		for _, n := range r.Names {
			switch {
			case r.At == "env":
				if !envName(n) {
					return bad("%q is not a variable name", n)
				}
			case n == "+":
				if !isTrue(d.Plus) {
					return bad("option + needs plus = true")
				}
			default:
				for _, s := range subs {
					if !valueAt(p, s, n) {
						return bad("option %q: the data does not say it takes a value (add it to values)", n)
					}
				}
			}
		}
		for j := 0; j < k; j++ {
			o := d.CodeRun[j]
			if o.Sub != r.Sub || o.At != r.At || o.N != r.N || r.At != "stdin" && len(r.Names) > 0 && !overlap(o.Names, r.Names) {
				continue
			}
			if reflect.DeepEqual(o, r) {
				return bad("described twice")
			}
			if o.Read != r.Read && len(o.When)+len(o.Unless)+len(r.When)+len(r.Unless) == 0 {
				return bad("conflicts with code_run %d (%s)", j, o.Read)
			}
		}
	}
	for key, kind := range d.ConfigCode {
		parts := strings.Split(key, ".")
		if knownConfigKinds[kind] == 0 {
			return fmt.Errorf("config_code %q: unknown kind %q", key, kind)
		}
		if len(parts) < 2 || len(parts) > 3 || strings.ToLower(key) != key || slices.Contains(parts, "") {
			return fmt.Errorf("config_code %q: want section.name or section.*.name in lower case", key)
		}
	}
	return nil
}

// hasNode reports whether the data declares the sub path, or a sub below it.
func hasNode(d *programDef, path string) bool {
	for _, n := range d.Sub {
		if n.Path == path || strings.HasPrefix(n.Path, path+" ") {
			return true
		}
	}
	return false
}

// valueAt reports whether the option (as shellparse's scanner names it: a
// NoCluster program's options with two dashes) takes a value at the sub
// path ("" for the program itself).
func valueAt(p *program, path, opt string) bool {
	d := &p.def
	if d.Cluster != nil && !*d.Cluster && strings.HasPrefix(opt, "--") {
		opt = opt[1:]
	}
	if slices.Contains(d.Values, opt) || slices.Contains(d.Optional, opt) || slices.Contains(d.TwoValues, opt) || path == "" && slices.Contains(d.Globals, opt) {
		return true
	}
	for _, n := range d.Sub {
		if (n.Path == path || strings.HasPrefix(path, n.Path+" ")) && slices.Contains(n.Values, opt) {
			return true
		}
	}
	return false
}

func overlap(a, b []string) bool {
	for _, x := range a {
		if slices.Contains(b, x) {
			return true
		}
	}
	return false
}

func envName(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c == '_' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return s != ""
}

func checkWiden(p *program, w widenDef) error {
	n := 0
	if len(w.Opts) > 0 {
		n++
	}
	if w.Operand != "" {
		n++
	}
	if w.Always {
		n++
	}
	if len(w.Prefix)+len(w.Words)+len(w.Contains) > 0 {
		n++
	}
	if n != 1 {
		return fmt.Errorf("a widen rule needs exactly one of opts, operand, always, prefix/words/contains")
	}
	if w.Why == "" {
		return fmt.Errorf("a widen rule needs a why")
	}
	for _, o := range w.Opts {
		if !isOption(o) {
			return fmt.Errorf("widen option %q is not an option", o)
		}
	}
	return nil
}

func isOption(o string) bool { return len(o) >= 2 && o[0] == '-' && o != "--" }

// optionOrDashes reports an option, or "-" or "--" (words a program's
// data may name beside its options).
func optionOrDashes(o string) bool { return isOption(o) || o == "-" || o == "--" }

// firstNot returns the first word of lists that ok rejects, and whether
// there is one.
func firstNot(ok func(string) bool, lists ...[]string) (string, bool) {
	for _, l := range lists {
		for _, o := range l {
			if !ok(o) {
				return o, true
			}
		}
	}
	return "", false
}

func isTrue(b *bool) bool { return b != nil && *b }

// emitPrograms writes programs_gen.go.
func emitPrograms(progs map[string]*program, env environmentDef) ([]byte, error) {
	var names []string
	for n := range progs {
		names = append(names, n)
	}
	sort.Strings(names)
	var b bytes.Buffer
	b.WriteString(header("internal/programs/data/*.toml and the [[program]] entries of danger/rules/*.toml", "programs"))
	// Each program is built by a function the first time it is looked up
	// (see program): as static data, the table's strings and slices
	// would sit in the data segment, whose pointer bitmap every process
	// builds at start-up, in proportion to its size.
	index := map[string]int{}
	var builders []string
	var codeRuns []string
	runsAt := map[string]int{}
	for i, name := range names {
		index[name] = i
		builders = append(builders, fmt.Sprintf("p%d", i))
		d := &progs[name].def
		pf := fields{"Name: " + strconv.Quote(name)}
		var traits []string
		trait := func(v *bool, t string) {
			if isTrue(v) {
				traits = append(traits, t)
			}
		}
		if d.Cluster != nil && !*d.Cluster {
			traits = append(traits, "NoCluster")
		}
		trait(d.FoldCase, "FoldCase")
		trait(d.Abbrev, "Abbrev")
		trait(d.OldStyle, "OldStyle")
		trait(d.Posix, "Posix")
		trait(d.Subcommands, "Subcommands")
		trait(d.ResourceWords, "ResourceWords")
		trait(d.DashSubs, "DashSubcommands")
		trait(d.Shell, "Shell")
		trait(d.CommandShell, "CommandShell")
		trait(d.StdinProgram, "StdinProgram")
		trait(d.DataArgs, "DataArgs")
		trait(d.Plus, "PlusOptions")
		runs := d.Run != nil
		for _, n := range d.Sub {
			runs = runs || n.Run != nil
		}
		if runs {
			traits = append(traits, "Runs")
		}
		widens := len(d.Widen) > 0 || len(d.Code)+len(d.Load) > 0 || isTrue(d.StdinProgram) ||
			d.Extract != nil && *d.Extract != "find"
		dry := len(d.DryRun) > 0
		for _, n := range d.Sub {
			widens = widens || len(n.Widen) > 0
			dry = dry || len(n.DryRun) > 0
		}
		if widens {
			traits = append(traits, "Widens")
		}
		if dry {
			traits = append(traits, "DryRuns")
		}
		if len(traits) > 0 {
			pf.add("Is", strings.Join(traits, " | "))
		}
		pf.list("SingleDash", d.SingleDash)
		pf.list("Globals", d.Globals)
		pf.list("Optional", d.Optional)
		pf.list("Numeric", d.Numeric)
		pf.list("TwoValues", d.TwoValues)
		pf.list("Ends", d.Ends)
		pf.list("Whole", d.Whole)
		pf.list("Aliases", pairs(d.Aliases))
		pf.list("Words", pairs(d.Words))
		if d.Lang != nil {
			pf.add("Lang", strconv.Quote(*d.Lang))
		}
		pf.list("Code", d.Code)
		pf.list("Load", d.Load)
		pf.list("Script", d.Script)
		if d.Extract != nil {
			pf.add("Extract", strconv.Quote(*d.Extract))
		}
		pf.list("Decodes", d.Decodes)
		pf.list("ActsAs", d.ActsAs)
		if f := d.Files; f != nil {
			pf.add("Files", filesLit(f))
		}
		if len(d.Terminal) > 0 {
			var ts []string
			for _, e := range d.Terminal {
				ts = append(ts, terminalLit(e))
			}
			pf.add("Terminal", braced("[]Terminal", ts))
		}
		pf.list("Writes", d.Writes)
		if w := d.Wrapper; w != nil {
			pf.add("Wrapper", wrapperLit(w))
		}
		if l := d.Launcher; l != nil {
			pf.add("Launcher", launcherLit(l))
		}
		if len(d.CodeRun) > 0 {
			// The runs sit in one static array; programs with the same
			// runs (awk, gawk, mawk) share its slice.
			var rs []string
			for _, r := range d.CodeRun {
				rs = append(rs, codeRunLit(r))
			}
			key := strings.Join(rs, "\n")
			at, ok := runsAt[key]
			if !ok {
				at = len(codeRuns)
				runsAt[key] = at
				codeRuns = append(codeRuns, rs...)
			}
			pf.add("CodeRuns", fmt.Sprintf("codeRuns[%d:%d:%d]", at, at+len(rs), at+len(rs)))
		}
		if len(d.ConfigCode) > 0 {
			m := make(map[string]string, len(d.ConfigCode))
			for k, v := range d.ConfigCode {
				m[k] = strconv.Itoa(knownConfigKinds[v])
			}
			pf.list("ConfigCode", pairs(m))
		}
		root := nodeDef{Arity: d.Arity, Values: d.Values, DryRun: d.DryRun, Widen: d.Widen, Run: d.Run, ReadOnly: d.ReadOnly}
		if s := nodeLit(root); s != "Node{}" {
			pf.add("Root", s)
		}
		if len(d.Sub) > 0 {
			subs := append([]nodeDef(nil), d.Sub...)
			sort.SliceStable(subs, func(i, j int) bool { return subs[i].Path < subs[j].Path })
			var ns []string
			for _, n := range subs {
				ns = append(ns, strings.TrimPrefix(nodeLit(n), "Node"))
			}
			pf.add("Subs", braced("[]Node", ns))
		}
		fmt.Fprintf(&b, "func p%d() *Program {\n\treturn %s\n}\n\n", i, pf.lit("&Program"))
	}
	fmt.Fprintf(&b, "// codeRuns holds the programs' code runs.\nvar codeRuns = [...]CodeRun{\n%s,\n}\n\n", strings.Join(codeRuns, ",\n"))
	fmt.Fprintf(&b, "// nPrograms is how many programs the data describes.\nconst nPrograms = %d\n\n", len(names))
	b.WriteString("// build builds the program of index i (in name order).\nfunc build(i int) *Program {\n\tswitch i {\n")
	for i, f := range builders {
		fmt.Fprintf(&b, "\tcase %d:\n\t\treturn %s()\n", i, f)
	}
	b.WriteString("\t}\n\treturn nil\n}\n\n")
	b.WriteString("// lookup returns the program called name exactly, or nil.\nfunc lookup(name string) *Program {\n\tswitch name {\n")
	var globs []string
	for _, name := range names {
		if strings.HasSuffix(name, "*") {
			globs = append(globs, fmt.Sprint(index[name]))
			continue
		}
		fmt.Fprintf(&b, "\tcase %q:\n\t\treturn program(%d)\n", name, index[name])
	}
	b.WriteString("\t}\n\treturn nil\n}\n\n")
	fmt.Fprintf(&b, "// globs lists the programs named by a prefix (python*), in name order.\nvar globs = [...]int{%s}\n\n", strings.Join(globs, ", "))
	var ef fields
	ef.list("Widen", env.Widen)
	ef.list("Prefixes", env.Prefixes)
	ef.list("Suffixes", env.Suffixes)
	ef.list("Except", env.Except)
	ef.list("ExceptPrefix", env.ExceptPrefix)
	b.WriteString("// environment is the [environment] table.\nvar environment = " + ef.lit("Environment") + "\n")
	return b.Bytes(), nil
}

// fields collects the fields of a composite literal that are set, in the
// order they are added ("Name: literal").
type fields []string

// add adds the field name whose value is the literal lit.
func (f *fields) add(name, lit string) { *f = append(*f, name+": "+lit) }

// list adds a list field, packed, when it has words.
func (f *fields) list(name string, v []string) {
	if len(v) > 0 {
		f.add(name, packed(v))
	}
}

// flag adds a bool field when it is true.
func (f *fields) flag(name string, set bool) {
	if set {
		f.add(name, "true")
	}
}

// str adds a string field when it is not empty.
func (f *fields) str(name, v string) {
	if v != "" {
		f.add(name, strconv.Quote(v))
	}
}

// num adds an int field when it is not 0.
func (f *fields) num(name string, n int) {
	if n != 0 {
		f.add(name, strconv.Itoa(n))
	}
}

// lit is the literal of type typ ("" where the type is implied) with f's
// fields.
func (f fields) lit(typ string) string { return braced(typ, f) }

// braced is the literal typ{elems...}.
func braced(typ string, elems []string) string { return typ + "{" + strings.Join(elems, ", ") + "}" }

// packed is a List literal: the words joined by NUL bytes, one constant
// string (building a program then allocates nothing for it).
func packed(v []string) string { return strconv.Quote(strings.Join(v, "\x00")) }

// pairs is m's entries, KEY\x01VALUE, sorted: a packed table of aliases.
func pairs(m map[string]string) []string {
	var entries []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		entries = append(entries, k+"\x01"+m[k])
	}
	return entries
}

func nodeLit(n nodeDef) string {
	var f fields
	f.str("Path", n.Path)
	f.flag("Posix", isTrue(n.Posix))
	if n.Arity != nil {
		f.add("Arity", strconv.Itoa(*n.Arity))
	}
	f.list("Values", n.Values)
	f.list("DryRun", n.DryRun)
	if len(n.Widen) > 0 {
		var ws []string
		for _, w := range n.Widen {
			ws = append(ws, widenLit(w))
		}
		f.add("Widen", braced("[]Widen", ws))
	}
	if r := n.Run; r != nil {
		var rf fields
		rf.num("Skip", r.Skip)
		rf.flag("Versioned", r.Versioned)
		rf.flag("DashDash", r.DashDash)
		rf.str("Prefix", r.Prefix)
		rf.list("Shell", r.Shell)
		f.add("Run", rf.lit("&Run"))
	}
	if r := n.ReadOnly; r != nil {
		var rf fields
		rf.list("Deny", r.Deny)
		rf.list("Only", r.Only)
		rf.list("Globals", r.Globals)
		max := -1
		if r.MaxOperands != nil {
			max = *r.MaxOperands
		}
		rf.add("MaxOperands", strconv.Itoa(max))
		rf.flag("NoArgs", r.NoArgs)
		rf.flag("NoGlob", r.NoGlob)
		rf.str("Extract", r.Extract)
		f.add("ReadOnly", rf.lit("&ReadOnly"))
	}
	return f.lit("Node")
}

func widenLit(w widenDef) string {
	var f fields
	f.list("Opts", w.Opts)
	f.flag("Exact", w.Exact)
	f.list("Unless", w.Unless)
	f.str("UnlessPrefix", w.UnlessPrefix)
	f.flag("HasValue", w.HasValue)
	f.str("ValuePrefix", w.ValuePrefix)
	f.list("ValueContains", w.ValueContains)
	f.list("UnlessFlags", w.UnlessFlags)
	f.str("Operand", w.Operand)
	f.flag("Remote", w.Remote)
	f.flag("Before", w.Before)
	f.flag("Always", w.Always)
	f.list("Prefix", w.Prefix)
	f.list("Words", w.Words)
	f.list("Contains", w.Contains)
	f.str("Label", w.Label)
	f.add("Why", strconv.Quote(w.Why))
	return f.lit("")
}

func header(from, pkg string) string {
	return "// Code generated by danger/internal/gen from " + from + "; DO NOT EDIT.\n\npackage " + pkg + "\n\n"
}

func filesLit(fd *filesDef) string {
	var f fields
	f.flag("None", fd.None)
	f.list("Lists", fd.Lists)
	f.flag("Walks", fd.Walks)
	f.list("WalkFlags", fd.WalkFlags)
	f.list("WalkValues", pairs(fd.WalkValues))
	switch fd.Dot {
	case "always":
		f.add("Dot", "DotAlways")
	case "walking":
		f.add("Dot", "DotWalking")
	}
	f.flag("Pattern", fd.Pattern)
	f.list("PatternUnless", fd.PatternFlags)
	f.list("PatternOptions", fd.PatternOpts)
	return f.lit("&Files")
}

func wrapperLit(w *wrapperDef) string {
	var f fields
	f.list("Values", w.Values)
	f.list("Optional", w.Optional)
	f.num("Operands", w.Operands)
	f.flag("Assigns", w.Assigns)
	f.flag("Numeric", w.Numeric)
	f.list("Shell", w.Shell)
	f.list("NoRun", w.NoRun)
	f.list("Join", w.Join)
	return f.lit("&Wrapper")
}

func codeRunLit(r codeRunDef) string {
	var f fields
	f.str("Sub", r.Sub)
	f.add("At", knownPlaces[r.At])
	f.add("Read", knownReaders[r.Read])
	f.list("Names", r.Names)
	f.list("When", r.When)
	f.list("Unless", r.Unless)
	f.num("N", r.N)
	f.num("Min", r.Min)
	f.flag("File", r.File)
	f.flag("Quiet", r.Quiet)
	f.str("Label", r.Label)
	return f.lit("")
}

func launcherLit(l *launcherDef) string {
	f := fields{"Kind: " + strconv.Quote(l.Kind)}
	f.list("Globals", l.Globals)
	f.list("Subs", l.Subs)
	f.list("Values", l.Values)
	f.list("RunValues", l.RunValues)
	f.list("Kwargs", l.Kwargs)
	return f.lit("&Launcher")
}

func terminalLit(e terminalDef) string {
	var f fields
	f.str("Sub", e.Sub)
	f.add("Use", map[string]string{"input": "TermInput", "keys": "TermKeys", "screen": "TermScreen"}[e.Use])
	f.list("Runs", e.Runs)
	f.list("Forces", e.Forces)
	f.list("Values", e.Values)
	f.list("Quiet", e.Quiet)
	f.list("ReplModules", e.ReplModules)
	f.num("Operands", e.Operands)
	f.flag("OnlyForced", e.OnlyForced)
	return f.lit("")
}
