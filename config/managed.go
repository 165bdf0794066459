package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/shellguard/shellguard/danger"
	"github.com/shellguard/shellguard/internal/safefile"
)

// DefaultManagedDir is the folder of the managed configuration: its
// config.toml, then every config.d/*.toml in name order.
const DefaultManagedDir = "/etc/shellguard"

// EnvManagedDir names the environment variable that moves the managed
// configuration's folder, for tests and packaging. It is honoured only
// when DefaultManagedDir does not exist, so that it can never hide a real
// managed configuration; the files it names must be root's all the same.
const EnvManagedDir = "SHELLGUARD_MANAGED_DIR"

// floor is what the managed files set: the other layers may only tighten
// it.
type floor struct {
	denyAt, askAt   *danger.Level
	denySrc, askSrc Source
	readOnlyOff     *Source
	audit           *Source // audit_log or audit_required set
	levels          map[string]LevelOverride
	enabled         map[string]Source // built-ins the managed files set disabled = false
	patterns        map[string]Source
}

func newFloor() *floor {
	return &floor{levels: map[string]LevelOverride{}, enabled: map[string]Source{}, patterns: map[string]Source{}}
}

// managedDir returns the managed folder opts select.
func (o *LoadOptions) managedDir() string {
	if o.ManagedDir != "" {
		return o.ManagedDir
	}
	if d := o.getenv(EnvManagedDir); d != "" && filepath.IsAbs(d) {
		if _, err := os.Lstat(DefaultManagedDir); errors.Is(err, fs.ErrNotExist) {
			return d
		}
	}
	return DefaultManagedDir
}

// ManagedPaths returns the managed configuration files in dir, in the
// order they apply: config.toml, then config.d/*.toml sorted by name.
// Missing files and folders are no error.
func ManagedPaths(dir string) ([]string, error) {
	var out []string
	main := filepath.Join(dir, "config.toml")
	if _, err := os.Lstat(main); err == nil {
		out = append(out, main)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	d := filepath.Join(dir, "config.d")
	ents, err := os.ReadDir(d)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	var names []string
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".toml") && !strings.HasPrefix(e.Name(), ".") {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	for _, n := range names {
		out = append(out, filepath.Join(d, n))
	}
	return out, nil
}

// checkManaged makes sure the managed file at path, its folder and the
// managed folder itself belong to uid (root) and are writable by no one
// else. Anything else is an error: a managed configuration someone else
// could have written is not applied, and since ignoring it would loosen
// the policy, loading fails (fail closed) until it is fixed.
func checkManaged(path, dir string, uid int) error {
	const what, effect = "managed configuration", "shellguard will not run until it is fixed"
	t, err := safefile.Resolve(path)
	if err != nil {
		return &Error{File: path, Msg: "cannot read managed configuration: " + err.Error()}
	}
	if t.Info == nil {
		return &Error{File: path, Msg: "managed configuration: a symbolic link to nothing"}
	}
	if !t.Info.Mode().IsRegular() {
		return &Error{File: path, Msg: "managed configuration: not a regular file"}
	}
	if err := t.Trust(what, effect, uid); err != nil {
		return &Error{File: path, Msg: err.Error()}
	}
	if err := safefile.CheckDir(what, effect, path, dir, uid); err != nil {
		return &Error{File: path, Msg: err.Error()}
	}
	return nil
}

// loadManaged applies the managed files and records them as the floor.
func loadManaged(c *Config, opts *LoadOptions, home string) error {
	dir := opts.managedDir()
	paths, err := ManagedPaths(dir)
	if err != nil {
		return &Error{File: dir, Msg: "cannot read the managed configuration: " + err.Error()}
	}
	if len(paths) == 0 {
		return nil
	}
	c.floor = newFloor()
	for _, p := range paths {
		if err := checkManaged(p, dir, opts.ManagedUID); err != nil {
			return err
		}
		if err := loadFile(c, opts, home, LayerManaged, p, false); err != nil {
			return err
		}
	}
	return nil
}

// managedTable applies [managed], which only a managed file may hold.
func (a *applier) managedTable(m map[string]any) error {
	if a.f.layer != LayerManaged {
		a.ignore("managed", "only the managed configuration ("+DefaultManagedDir+") may set [managed]")
		return nil
	}
	if a.c.Managed.Sources == nil {
		a.c.Managed.Sources = map[string]Source{}
	}
	for _, k := range a.keys("managed", m) {
		path := joinPath("managed", k)
		var dst *bool
		switch k {
		case "forbid_exempt":
			dst = &a.c.Managed.ForbidExempt
		case "forbid_allow_rules":
			dst = &a.c.Managed.ForbidAllowRules
		case "forbid_warn_mode":
			dst = &a.c.Managed.ForbidWarnMode
		case "forbid_disable":
			dst = &a.c.Managed.ForbidDisable
		case "forbid_approvals":
			names, err := a.strings(path, m[k])
			if err != nil {
				return err
			}
			for i, n := range names {
				n = strings.TrimSpace(n)
				if n == "" {
					return a.errf(indexPath(path, i), "%s: empty rule name", path)
				}
				a.c.Managed.ForbidApprovals = append(a.c.Managed.ForbidApprovals, n)
			}
			a.c.Managed.Sources[k] = a.src(path)
			continue
		default:
			return a.unknown(path)
		}
		b, err := a.boolean(path, m[k])
		if err != nil {
			return err
		}
		// Several managed files: forbidding wins.
		*dst = *dst || b
		a.c.Managed.Sources[k] = a.src(path)
	}
	return nil
}

// floored reports whether the file being applied is bound by the managed
// floor.
func (a *applier) floored() bool { return a.c.floor != nil && a.f.layer != LayerManaged }

// managedNote is the end of a notice about a key the managed
// configuration fixes.
func managedNote(s Source) string {
	return fmt.Sprintf("the managed configuration (%s) sets it, and other files may only tighten it", s)
}

// recordFloor notes what a managed file set, once it was applied.
func (a *applier) recordFloor(key string) {
	if a.f.layer != LayerManaged || a.c.floor == nil {
		return
	}
	fl := a.c.floor
	src := a.c.Provenance[key]
	switch key {
	case "deny_at":
		l := a.c.DenyAt
		fl.denyAt, fl.denySrc = &l, src
	case "ask_at":
		l := a.c.AskAt
		fl.askAt, fl.askSrc = &l, src
	case "read_only":
		if !a.c.ReadOnly {
			fl.readOnlyOff = &src
		}
	case "audit_log", "audit_required":
		fl.audit = &src
	}
}
