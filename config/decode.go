package config

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/shellguard/shellguard/danger"
	"github.com/shellguard/shellguard/internal/tomldoc"
)

// file is one parsed configuration file.
type file struct {
	layer string
	name  string
	data  map[string]any
	// ix is the line of every key, by path ("rules.allow[2]",
	// "pattern[0].regex"; see tomldoc.Lines).
	ix tomldoc.Lines
}

// parse decodes src as strict TOML 1.0 (tomldoc.Decode10: a key or table
// defined twice and TOML 1.1's additions are errors); the schema is
// checked by apply.
func parse(layer, name string, src []byte) (*file, error) {
	m, ix, err := tomldoc.Decode10(src)
	if err != nil {
		var te *tomldoc.Error
		if errors.As(err, &te) {
			return nil, &Error{File: name, Line: te.Line, Msg: te.Msg}
		}
		return nil, &Error{File: name, Msg: err.Error()}
	}
	return &file{layer: layer, name: name, data: m, ix: ix}, nil
}

func joinPath(base, key string) string    { return tomldoc.Join(base, key) }
func indexPath(base string, i int) string { return tomldoc.Index(base, i) }

// applier applies one file to a Config.
type applier struct {
	c    *Config
	f    *file
	opts *LoadOptions
	home string
}

func (a *applier) src(path string) Source {
	return Source{Layer: a.f.layer, File: a.f.name, Line: a.f.ix.Line(path)}
}

func (a *applier) errf(path, format string, args ...any) error {
	return &Error{File: a.f.name, Line: a.f.ix.Line(path), Msg: fmt.Sprintf(format, args...)}
}

// ignore records a notice for a key a project file may not set.
func (a *applier) ignore(path, why string) {
	a.c.Notices = append(a.c.Notices, (&Error{File: a.f.name, Line: a.f.ix.Line(path), Msg: "ignored " + path + ": " + why}).Error())
}

// record notes that this file set key: where, and in a managed file the
// floor it sets for the files after it (recordFloor).
func (a *applier) record(key string) {
	a.c.Provenance[key] = a.src(key)
	a.recordFloor(key)
}

func (a *applier) project() bool { return a.f.layer == LayerProject }

// managedSets reports whether a managed file set built-in rule name
// (its level, or disabled = false).
func (a *applier) managedSets(name string) bool {
	if a.c.floor == nil {
		return false
	}
	_, l := a.c.floor.levels[name]
	_, e := a.c.floor.enabled[name]
	return l || e
}

// keys returns m's keys in the order they were written (by line, then
// name), so the first error reported is the first in the file.
func (a *applier) keys(base string, m map[string]any) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Slice(ks, func(i, j int) bool {
		li, lj := a.f.ix.Line(joinPath(base, ks[i])), a.f.ix.Line(joinPath(base, ks[j]))
		if li != lj {
			return li < lj
		}
		return ks[i] < ks[j]
	})
	return ks
}

// decodeAs returns v as a T, or an error saying that path wants (what)
// and the kind it got.
func decodeAs[T any](a *applier, path string, v any, want string) (T, error) {
	x, ok := v.(T)
	if !ok {
		return x, a.errf(path, "%s: want %s, got %s", path, want, tomldoc.Kind(v))
	}
	return x, nil
}

func (a *applier) str(path string, v any) (string, error) {
	return decodeAs[string](a, path, v, "a string")
}

func (a *applier) boolean(path string, v any) (bool, error) {
	return decodeAs[bool](a, path, v, "true or false")
}

func (a *applier) level(path string, v any) (danger.Level, error) {
	s, err := a.str(path, v)
	if err != nil {
		return 0, err
	}
	l, err := danger.ParseLevel(s)
	if err != nil {
		return 0, a.errf(path, "%s: %v", path, err)
	}
	return l, nil
}

func (a *applier) table(path string, v any) (map[string]any, error) {
	return decodeAs[map[string]any](a, path, v, "a table")
}

// strings returns a string array's elements with their paths.
func (a *applier) strings(path string, v any) ([]string, error) {
	arr, err := decodeAs[[]any](a, path, v, "an array of strings")
	if err != nil {
		return nil, err
	}
	if len(arr) > 0 {
		if _, isTable := arr[0].(map[string]any); isTable {
			return nil, a.errf(path, "%s: want an array of strings, got an array of tables", path)
		}
	}
	return elements(path, arr, a.str)
}

// tables returns an array of tables ([[x]] or x = [{...}]).
func (a *applier) tables(path string, v any) ([]map[string]any, error) {
	if t, ok := v.([]any); ok {
		return elements(path, t, a.table)
	}
	return nil, a.errf(path, "%s: want an array of tables ([[%s]]), got %s", path, path, tomldoc.Kind(v))
}

// elements decodes each element of the array arr at path with dec; the
// first element of the wrong kind is the error.
func elements[T any](path string, arr []any, dec func(string, any) (T, error)) ([]T, error) {
	out := make([]T, len(arr))
	for i, e := range arr {
		x, err := dec(indexPath(path, i), e)
		if err != nil {
			return nil, err
		}
		out[i] = x
	}
	return out, nil
}

func (a *applier) unknown(path string) error {
	return a.errf(path, "unknown key %q", path)
}

// apply checks the file against the schema and applies it to a.c. Each
// key's value is decoded to its kind here (see decoded), so the method
// that applies it sees a value of the right type.
func (a *applier) apply() error {
	m := a.f.data
	for _, k := range a.keys("", m) {
		v := m[k]
		var err error
		switch k {
		case "deny_at", "ask_at":
			err = decoded(k, v, a.level, func(l danger.Level) error { return a.threshold(k, l) })
		case "read_only":
			err = decoded(k, v, a.boolean, a.readOnly)
		case "audit_log":
			err = decoded(k, v, a.str, a.auditLog)
		case "audit_required":
			err = decoded(k, v, a.boolean, a.auditRequired)
		case "unattended":
			err = decoded(k, v, a.str, a.unattended)
		case "audit_max_size":
			err = a.auditMaxSize(v)
		case "mode":
			err = decoded(k, v, a.str, a.mode)
		case "safe_delete":
			err = decoded(k, v, a.strings, a.safeDelete)
		case "managed":
			err = decoded(k, v, a.table, a.managedTable)
		case "exempt":
			err = decoded(k, v, a.strings, a.exempt)
		case "rules":
			err = decoded(k, v, a.table, a.rules)
		case "pattern":
			err = decoded(k, v, a.tables, a.patterns)
		case "builtin":
			err = decoded(k, v, a.table, a.builtins)
		case "mcp":
			err = decoded(k, v, a.table, a.mcp)
		case "packs":
			err = decoded(k, v, a.table, a.packs)
		default:
			err = a.unknown(k)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// decoded decodes the value v of key with dec (a.str, a.table, ...: an
// error names the key and the kind it wants) and hands the result to use.
func decoded[T any](key string, v any, dec func(string, any) (T, error), use func(T) error) error {
	x, err := dec(key, v)
	if err != nil {
		return err
	}
	return use(x)
}

func (a *applier) threshold(key string, l danger.Level) error {
	cur := &a.c.DenyAt
	if key == "ask_at" {
		cur = &a.c.AskAt
	}
	if a.project() && l > *cur {
		a.ignore(key, fmt.Sprintf("a project file may only lower %s (make it stricter); it is %q (%s)",
			key, levelText(*cur), a.c.Provenance[key]))
		return nil
	}
	if a.floored() {
		fl, src := a.c.floor.denyAt, a.c.floor.denySrc
		if key == "ask_at" {
			fl, src = a.c.floor.askAt, a.c.floor.askSrc
		}
		if fl != nil && l > *fl {
			a.ignore(key, fmt.Sprintf("%q is looser than %q: %s", levelText(l), levelText(*fl), managedNote(src)))
			return nil
		}
	}
	*cur = l
	a.record(key)
	return nil
}

func levelText(l danger.Level) string {
	b, err := l.MarshalText()
	if err != nil {
		return l.String()
	}
	return string(b)
}

func (a *applier) readOnly(b bool) error {
	if a.project() && b && !a.c.ReadOnly {
		a.ignore("read_only", fmt.Sprintf("a project file may not turn the read-only list back on (turned off by %s)",
			a.c.Provenance["read_only"]))
		return nil
	}
	if a.floored() && b && a.c.floor.readOnlyOff != nil {
		a.ignore("read_only", "the read-only list stays off: "+managedNote(*a.c.floor.readOnlyOff))
		return nil
	}
	a.c.ReadOnly = b
	a.record("read_only")
	return nil
}

func (a *applier) auditLog(s string) error {
	if a.auditLocked("audit_log", "a project file may not change the audit log") {
		return nil
	}
	if s != "" {
		var err error
		s, err = expandPath(s, a.home, filepath.Dir(a.f.name))
		if err != nil {
			return a.errf("audit_log", "audit_log: %v", err)
		}
	}
	a.c.AuditLog = s
	a.record("audit_log")
	return nil
}

func (a *applier) auditRequired(b bool) error {
	if a.auditLocked("audit_required", "a project file may not change the audit settings") {
		return nil
	}
	a.c.AuditRequired = b
	a.record("audit_required")
	return nil
}

// auditLocked reports whether this file may not change the audit setting
// key (a project file never may; the managed configuration may fix the
// audit settings), and records the notice saying why.
func (a *applier) auditLocked(key, projectWhy string) bool {
	if a.project() {
		a.ignore(key, projectWhy)
		return true
	}
	if a.floored() && a.c.floor.audit != nil {
		a.ignore(key, managedNote(*a.c.floor.audit))
		return true
	}
	return false
}

// auditMaxSize reads a size: a whole number of bytes, or a string with a
// unit ("10MiB", "512KiB", "1GiB"; KB, MB, GB and K, M, G mean the same).
func (a *applier) auditMaxSize(v any) error {
	const key = "audit_max_size"
	var n int64
	switch x := v.(type) {
	case int64:
		n = x
	case string:
		var err error
		if n, err = parseSize(x); err != nil {
			return a.errf(key, "%s: %v", key, err)
		}
	default:
		return a.errf(key, "%s: want a size (10485760 or \"10MiB\"), got %s", key, tomldoc.Kind(v))
	}
	if n < 4096 {
		return a.errf(key, "%s: %d bytes is too small (at least 4KiB)", key, n)
	}
	if a.auditLocked(key, "a project file may not change the audit settings") {
		return nil
	}
	a.c.AuditMaxSize = n
	a.record(key)
	return nil
}

// parseSize reads "10MiB", "512 KiB", "1G" or "4096".
func parseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := 0
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	if i == 0 || i > 12 {
		return 0, fmt.Errorf("%q is not a size (want a number of bytes, or 10MiB, 512KiB, 1GiB)", s)
	}
	var n int64
	for _, c := range t[:i] {
		n = n*10 + int64(c-'0')
	}
	unit := strings.ToLower(strings.TrimSpace(t[i:]))
	mult := map[string]int64{"": 1, "b": 1, "k": 1 << 10, "kb": 1 << 10, "kib": 1 << 10,
		"m": 1 << 20, "mb": 1 << 20, "mib": 1 << 20, "g": 1 << 30, "gb": 1 << 30, "gib": 1 << 30}[unit]
	if mult == 0 {
		return 0, fmt.Errorf("%q: unknown unit %q (want KiB, MiB or GiB)", s, t[i:])
	}
	if n > (1<<40)/mult {
		return 0, fmt.Errorf("%q is too large", s)
	}
	return n * mult, nil
}

// mode reads mode = "enforce" | "warn". Shadow mode loosens everything,
// so a project file may not set it, and the managed configuration may
// forbid it.
func (a *applier) mode(s string) error {
	s = strings.ToLower(strings.TrimSpace(s))
	if s != ModeEnforce && s != ModeWarn {
		return a.errf("mode", "mode: %q is not a mode (want %q or %q)", s, ModeEnforce, ModeWarn)
	}
	if a.project() {
		if s == ModeWarn {
			a.ignore("mode", `a project file may not turn on shadow mode (mode = "warn")`)
		}
		return nil
	}
	if a.floored() && s == ModeWarn && a.c.Managed.ForbidWarnMode {
		a.ignore("mode", `shadow mode (mode = "warn") is forbidden by the managed configuration (`+a.c.Managed.Sources["forbid_warn_mode"].String()+")")
		return nil
	}
	a.c.Mode = s
	a.record("mode")
	return nil
}

// safeDelete reads safe_delete = ["out/cache", "*.tmpdir"]: folders whose
// recursive deletion inside the project gets no warning. Each is a name
// (one path component, which may hold * and ?) or a path relative to the
// project root; never absolute, never "..", never the project itself.
func (a *applier) safeDelete(list []string) error {
	for i, raw := range list {
		path := indexPath("safe_delete", i)
		p := strings.TrimSpace(raw)
		clean := filepath.Clean(p)
		switch {
		case p == "":
			return a.errf(path, "%s: empty path", path)
		case filepath.IsAbs(p) || strings.HasPrefix(p, "~"):
			return a.errf(path, "%s: %q: give a folder name or a path relative to the project root, not an absolute path", path, raw)
		case clean == "." || clean == ".." || strings.HasPrefix(clean, "../") || strings.Contains("/"+clean+"/", "/../"):
			return a.errf(path, "%s: %q is not a folder inside the project", path, raw)
		case clean == ".git" || strings.HasSuffix(clean, "/.git") || strings.HasPrefix(clean, ".git/"):
			return a.errf(path, "%s: %q: a repository's .git is never safe to delete", path, raw)
		}
		if _, err := filepath.Match(clean, "x"); err != nil {
			return a.errf(path, "%s: %q: %v", path, raw, err)
		}
		if a.project() {
			a.ignore(path, fmt.Sprintf("a project file may not mark %q safe to delete", p))
			continue
		}
		addOnce(&a.c.SafeDelete, a.c.SafeDeleteSources, clean, a.src(path))
	}
	return nil
}

// unattended applies unattended = "deny" | "ask"; a project file may only
// set "deny" (tighten).
func (a *applier) unattended(s string) error {
	if s != UnattendedDeny && s != UnattendedAsk {
		return a.errf("unattended", "unattended: want %q or %q, got %q", UnattendedDeny, UnattendedAsk, s)
	}
	if a.project() && s == UnattendedAsk && a.c.Unattended != UnattendedAsk {
		a.ignore("unattended", fmt.Sprintf("a project file may only set unattended = %q (make it stricter); it is %q (%s)",
			UnattendedDeny, a.c.Unattended, a.c.Provenance["unattended"]))
		return nil
	}
	a.c.Unattended = s
	a.record("unattended")
	return nil
}

// addOnce appends name to list unless sources already has it, and records
// src as where it was (last) set.
func addOnce(list *[]string, sources map[string]Source, name string, src Source) {
	if _, dup := sources[name]; !dup {
		*list = append(*list, name)
	}
	sources[name] = src
}

// expandPath expands a leading "~/" and makes a relative path relative to
// dir (the directory of the file that named it).
func expandPath(p, home, dir string) (string, error) {
	if p == "~" || strings.HasPrefix(p, "~/") {
		if home == "" {
			return "", errors.New("cannot expand ~: home directory unknown")
		}
		p = filepath.Join(home, p[1:])
	} else if strings.HasPrefix(p, "~") {
		return "", fmt.Errorf("cannot expand %q: only ~/ is supported", p)
	}
	if !filepath.IsAbs(p) {
		abs, err := filepath.Abs(filepath.Join(dir, p))
		if err != nil {
			return "", err
		}
		p = abs
	}
	return filepath.Clean(p), nil
}

func (a *applier) exempt(names []string) error {
	for i, n := range names {
		path := indexPath("exempt", i)
		n = strings.TrimSpace(n)
		if n == "" {
			return a.errf(path, "%s: empty rule name", path)
		}
		if a.project() {
			a.ignore(path, fmt.Sprintf("a project file may not exempt %q from danger checks", n))
			continue
		}
		if a.floored() && a.c.Managed.ForbidExempt {
			a.ignore(path, fmt.Sprintf("exempting %q is forbidden by the managed configuration (%s)", n, a.c.Managed.Sources["forbid_exempt"]))
			continue
		}
		if a.floored() && a.c.Managed.ApprovalForbidden(n, danger.PackOf(n)) {
			a.ignore(path, fmt.Sprintf("the managed configuration (%s) forbids approving %q", a.c.Managed.Sources["forbid_approvals"], n))
			continue
		}
		addOnce(&a.c.Exempt, a.c.ExemptSources, n, a.src(path))
	}
	return nil
}

// mcp applies the [mcp] table: env, the names of the variables the MCP
// server passes on to its commands.
func (a *applier) mcp(m map[string]any) error {
	return a.lists("mcp", m, []string{"env"}, func(_, el, n string) error {
		if !validEnvName(n) {
			return a.errf(el, "%s: %q is not an environment variable name (letters, digits and _, not starting with a digit; a final * passes every variable it prefixes)", el, n)
		}
		if a.project() {
			a.ignore(el, fmt.Sprintf("a project file may not pass %q to the commands the MCP server runs", n))
			return nil
		}
		addOnce(&a.c.MCPEnv, a.c.MCPEnvSources, n, a.src(el))
		return nil
	})
}

// lists applies a table whose keys are among known and whose values are
// arrays of strings (rules.allow, packs.enable, mcp.env): use gets each
// element with the key of its array and its path ("rules.allow[2]"), in
// the order they were written. Any other key is an error.
func (a *applier) lists(base string, m map[string]any, known []string, use func(key, el, s string) error) error {
	for _, k := range a.keys(base, m) {
		path := joinPath(base, k)
		if !slices.Contains(known, k) {
			return a.unknown(path)
		}
		list, err := a.strings(path, m[k])
		if err != nil {
			return err
		}
		for i, s := range list {
			if err := use(k, indexPath(path, i), s); err != nil {
				return err
			}
		}
	}
	return nil
}

// validEnvName reports whether n is a variable name (A-Z, a-z, 0-9, _,
// not starting with a digit), optionally followed by one "*"; a lone "*"
// is not accepted (it would pass everything).
func validEnvName(n string) bool {
	n = strings.TrimSuffix(n, "*")
	if n == "" {
		return false
	}
	for i := 0; i < len(n); i++ {
		c := n[i]
		switch {
		case c == '_', c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z':
		case c >= '0' && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

func (a *applier) rules(m map[string]any) error {
	dst := map[string]*[]Rule{"allow": &a.c.Allow, "ask": &a.c.Ask, "deny": &a.c.Deny}
	return a.lists("rules", m, []string{"allow", "ask", "deny"}, func(k, el, raw string) error {
		p, err := NormalizeRule(raw)
		if err != nil {
			return a.errf(el, "%s: rule %q: %v", joinPath("rules", k), raw, err)
		}
		if a.project() && k == "allow" {
			a.ignore(el, fmt.Sprintf("a project file may not add allow rules (%q)", p))
			return nil
		}
		if a.floored() && k == "allow" && a.c.Managed.ForbidAllowRules {
			a.ignore(el, fmt.Sprintf("allow rules are forbidden by the managed configuration (%s)", a.c.Managed.Sources["forbid_allow_rules"]))
			return nil
		}
		if a.project() {
			if msg := a.c.project.rule(p); msg != "" {
				return a.errf(el, "%s: %s", el, msg)
			}
		}
		*dst[k] = append(*dst[k], Rule{Pattern: p, Source: a.src(el)})
		return nil
	})
}

func (a *applier) patterns(list []map[string]any) error {
	seen := map[string]bool{}
	for i, t := range list {
		base := indexPath("pattern", i)
		if a.project() {
			if msg := a.c.project.pattern(); msg != "" {
				return a.errf(base, "%s: %s", base, msg)
			}
		}
		p, err := a.pattern(base, t)
		if err != nil {
			return err
		}
		if seen[p.Name] {
			return a.errf(joinPath(base, "name"), "%s.name: pattern %q is defined twice in this file", base, p.Name)
		}
		seen[p.Name] = true
		if _, ok := a.opts.builtinLevel(p.Name); ok {
			return a.errf(joinPath(base, "name"), "%s.name: %q is a built-in rule; use [builtin.%s] to change it", base, p.Name, p.Name)
		}
		if prev, ok := a.c.PatternSources[p.Name]; ok {
			if a.floored() && prev.Layer == LayerManaged {
				a.ignore(base, fmt.Sprintf("pattern %q is defined by the managed configuration (%s) and cannot be redefined", p.Name, prev))
				continue
			}
			if a.project() {
				a.ignore(base, fmt.Sprintf("a project file may not redefine pattern %q (defined by %s)", p.Name, prev))
				continue
			}
			a.c.Patterns = removePattern(a.c.Patterns, p.Name)
		}
		a.c.Patterns = append(a.c.Patterns, p)
		a.c.PatternSources[p.Name] = a.src(base)
	}
	return nil
}

func removePattern(ps []danger.Pattern, name string) []danger.Pattern {
	out := ps[:0:0]
	for _, p := range ps {
		if p.Name != name {
			out = append(out, p)
		}
	}
	return out
}

func (a *applier) pattern(base string, t map[string]any) (danger.Pattern, error) {
	var p danger.Pattern
	var hasLevel bool
	for _, k := range a.keys(base, t) {
		path := joinPath(base, k)
		v := t[k]
		var err error
		switch k {
		case "name":
			p.Name, err = a.str(path, v)
			p.Name = strings.TrimSpace(p.Name)
		case "regex":
			p.Regex, err = a.str(path, v)
		case "level":
			p.Level, err = a.level(path, v)
			hasLevel = err == nil
		case "description":
			p.Description, err = a.str(path, v)
		case "case_sensitive":
			p.CaseSensitive, err = a.boolean(path, v)
		case "match":
			p.Match, err = a.spec(path, v)
		default:
			err = a.unknown(path)
		}
		if err != nil {
			return p, err
		}
	}
	if p.Name == "" {
		return p, a.errf(base, "%s: missing name", base)
	}
	if !hasLevel {
		return p, a.errf(base, "%s (%s): missing level (low, medium, high or critical)", base, p.Name)
	}
	if p.Regex == "" && p.Match == nil {
		return p, a.errf(base, "%s (%s): needs a regex or a match table", base, p.Name)
	}
	if p.Regex != "" {
		rp := joinPath(base, "regex")
		if a.project() && len(p.Regex) > MaxProjectRegexBytes {
			return p, a.errf(rp, "%s.regex (%s): %d bytes; a project file's regex may hold at most %d", base, p.Name, len(p.Regex), MaxProjectRegexBytes)
		}
		size, err := checkRegex(p.Regex, p.CaseSensitive)
		if err != nil {
			return p, a.errf(rp, "%s.regex (%s): %v", base, p.Name, err)
		}
		if a.project() {
			if msg := a.c.project.regex(size); msg != "" {
				return p, a.errf(rp, "%s.regex (%s): %s", base, p.Name, msg)
			}
		}
	}
	if strings.TrimSpace(p.Description) == "" {
		p.Description = "matches custom pattern " + p.Name
	}
	return p, nil
}

func (a *applier) spec(path string, v any) (*danger.Spec, error) {
	t, err := a.table(path, v)
	if err != nil {
		return nil, err
	}
	s := &danger.Spec{}
	for _, k := range a.keys(path, t) {
		kp := joinPath(path, k)
		switch k {
		case "programs":
			if s.Programs, err = a.strings(kp, t[k]); err != nil {
				return nil, err
			}
			for i, prog := range s.Programs {
				if strings.TrimSpace(prog) == "" {
					return nil, a.errf(indexPath(kp, i), "%s: empty program name", kp)
				}
			}
		default:
			return nil, a.unknown(kp)
		}
	}
	if len(s.Programs) == 0 {
		return nil, a.errf(path, "%s: needs programs", path)
	}
	return s, nil
}

// packs applies [packs] enable = [...] and disable = [...]: built-in
// rule packs turned on or off. A project file may only enable (a pack
// adds checks); its disable entries are ignored with a notice.
func (a *applier) packs(m map[string]any) error {
	seen := map[string]string{}
	return a.lists("packs", m, []string{"enable", "disable"}, func(k, el, n string) error {
		on := k == "enable"
		n = strings.TrimSpace(n)
		if !danger.IsPack(n) {
			return a.errf(el, "%s: no built-in rule pack is called %q (shellguard rules lists them)", el, n)
		}
		if other, dup := seen[n]; dup && other != k {
			return a.errf(el, "%s: pack %q is both enabled and disabled in this file", el, n)
		}
		seen[n] = k
		if !on && a.project() {
			a.ignore(el, fmt.Sprintf("a project file may not disable rule pack %q", n))
			return nil
		}
		a.c.Packs[n] = PackSetting{On: on, Source: a.src(el)}
		return nil
	})
}

func (a *applier) builtins(m map[string]any) error {
	for _, name := range a.keys("builtin", m) {
		base := joinPath("builtin", name)
		t, err := a.table(base, m[name])
		if err != nil {
			return err
		}
		builtinLevel, ok := a.opts.builtinLevel(name)
		if !ok {
			return a.errf(base, "%s: no built-in rule is called %q", base, name)
		}
		for _, k := range a.keys(base, t) {
			path := joinPath(base, k)
			switch k {
			case "disabled":
				b, err := a.boolean(path, t[k])
				if err != nil {
					return err
				}
				switch {
				case b && a.project():
					a.ignore(path, fmt.Sprintf("a project file may not disable built-in rule %q", name))
				case b && a.floored() && a.c.Managed.ForbidDisable:
					a.ignore(path, fmt.Sprintf("disabling built-in rules is forbidden by the managed configuration (%s)", a.c.Managed.Sources["forbid_disable"]))
				case b && a.floored() && a.managedSets(name):
					a.ignore(path, fmt.Sprintf("built-in rule %q is set by the managed configuration, and other files may not disable it", name))
				case b:
					a.c.Disabled[name] = a.src(path)
				default:
					delete(a.c.Disabled, name)
					if a.f.layer == LayerManaged && a.c.floor != nil {
						a.c.floor.enabled[name] = a.src(path)
					}
				}
			case "level":
				l, err := a.level(path, t[k])
				if err != nil {
					return err
				}
				if a.project() {
					cur, from := builtinLevel, "its built-in level"
					if o, ok := a.c.Relevel[name]; ok {
						cur, from = o.Level, o.Source.String()
					}
					if cur == 0 {
						a.ignore(path, fmt.Sprintf("cannot tell whether %q raises the level of built-in rule %q", levelText(l), name))
						continue
					}
					if l < cur {
						a.ignore(path, fmt.Sprintf("a project file may only raise levels; %q is %q (%s)", name, levelText(cur), from))
						continue
					}
				}
				if a.floored() {
					cur := builtinLevel
					if o, ok := a.c.floor.levels[name]; ok {
						cur = o.Level
					}
					_, managed := a.c.floor.levels[name]
					if (managed || a.c.Managed.ForbidDisable) && cur != 0 && l < cur {
						a.ignore(path, fmt.Sprintf("%q is lower than %q: lowering built-in rule %q is forbidden by the managed configuration", levelText(l), levelText(cur), name))
						continue
					}
				}
				a.c.Relevel[name] = LevelOverride{Level: l, Source: a.src(path)}
				if a.f.layer == LayerManaged && a.c.floor != nil {
					a.c.floor.levels[name] = a.c.Relevel[name]
				}
			default:
				return a.unknown(path)
			}
		}
	}
	return nil
}
