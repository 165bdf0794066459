package config

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/shellguard/shellguard/danger"
	"github.com/shellguard/shellguard/internal/xdg"
)

// EnvConfig names the environment variable that selects an explicit
// configuration file when LoadOptions.Explicit is empty.
const EnvConfig = "SHELLGUARD_CONFIG"

// maxFileSize bounds a configuration file; anything larger is an error.
const maxFileSize = 1 << 20

// LoadOptions selects the files Load reads.
type LoadOptions struct {
	// Cwd is where the search for the project file starts; "" means the
	// process's working directory.
	Cwd string
	// Explicit is the --config file, applied last. "" means the file
	// named by $SHELLGUARD_CONFIG, if set. An explicit file must exist.
	Explicit string
	// UserFile overrides the user file's location (tests use it); ""
	// means $XDG_CONFIG_HOME/shellguard/config.toml, by default
	// ~/.config/shellguard/config.toml. A missing user file is fine.
	UserFile string
	// NoUser skips the user file.
	NoUser bool
	// NoProject skips the project file.
	NoProject bool
	// ManagedDir overrides the managed configuration's folder (tests use
	// it); "" means $SHELLGUARD_MANAGED_DIR when DefaultManagedDir does
	// not exist, else DefaultManagedDir.
	ManagedDir string
	// ManagedUID is the owner managed files must have: 0 (root), the
	// zero value. Tests that cannot create root's files set their own.
	ManagedUID int
	// NoManaged skips the managed configuration.
	NoManaged bool
	// Env reads the environment (XDG_CONFIG_HOME, HOME,
	// SHELLGUARD_CONFIG); nil means os.Getenv.
	Env func(string) string
	// BuiltinLevel reports whether a built-in danger rule called name
	// exists and its level; nil means danger.BuiltinLevel, the rules
	// shellguard is built with. [builtin.NAME] tables and exempt names are
	// checked against it (an unknown name is an error), custom patterns
	// may not take a built-in's name, and a project file may only raise a
	// built-in's level above the one it reports.
	BuiltinLevel func(name string) (danger.Level, bool)
}

// builtinLevel is BuiltinLevel, or danger.BuiltinLevel when it is nil.
func (o *LoadOptions) builtinLevel(name string) (danger.Level, bool) {
	if o.BuiltinLevel != nil {
		return o.BuiltinLevel(name)
	}
	return danger.BuiltinLevel(name)
}

func (o *LoadOptions) getenv(k string) string {
	if o.Env != nil {
		return o.Env(k)
	}
	return os.Getenv(k)
}

func (o *LoadOptions) home() string {
	if h := o.getenv("HOME"); h != "" {
		return h
	}
	if o.Env != nil {
		return ""
	}
	h, _ := os.UserHomeDir()
	return h
}

// UserPath returns where the user file is looked for:
// $XDG_CONFIG_HOME/shellguard/config.toml, or
// ~/.config/shellguard/config.toml when XDG_CONFIG_HOME is unset or not
// absolute, or "" when neither is known (internal/xdg resolves it, for
// every command that reads or reports the file).
func (o LoadOptions) UserPath() string {
	if o.UserFile != "" {
		return o.UserFile
	}
	return xdg.Config(o.Env, "config.toml")
}

// ProjectPath returns the nearest project file of dir: the last of
// ProjectPaths, or "" when there is none.
func ProjectPath(dir string) (string, error) {
	ps, err := ProjectPaths(dir)
	if err != nil || len(ps) == 0 {
		return "", err
	}
	return ps[len(ps)-1], nil
}

// ProjectPaths returns the project files that apply to dir, outermost
// first: every .shellguard.toml from the project's root down to dir. The
// root is the outermost folder above dir (dir included) that holds a .git
// (a folder or, for a submodule or worktree, a file), so that a nested
// repository, a submodule or a vendored checkout stays under the files of
// the project around it; with no .git above dir, it is the file system's
// root. A project's policy is the union of all these files, each of which
// may only tighten it, so a file deeper down (an empty
// node_modules/dep/.shellguard.toml, say) can never undo what a file
// above it asks for.
func ProjectPaths(dir string) ([]string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	// Walking up from dir, folder i: the project files found (and the
	// folder each was found in), the outermost folder with a .git.
	var files []string
	var marks []int
	root, folders := -1, 0
	for i := 0; ; i++ {
		p := filepath.Join(dir, ProjectFileName)
		st, err := os.Stat(p)
		switch {
		case err == nil && !st.IsDir():
			files = append(files, p)
			marks = append(marks, i)
		case err != nil && !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, fs.ErrPermission) && !errors.Is(err, syscall.ENOTDIR):
			return nil, err
		}
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			root = i
		}
		folders = i
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	if root < 0 {
		root = folders
	}
	var out []string
	for j := len(files) - 1; j >= 0; j-- {
		if marks[j] <= root {
			out = append(out, files[j])
		}
	}
	return out, nil
}

// Load applies the built-in defaults, then the managed files (see
// ManagedPaths; a floor the later layers may only tighten), the user file, the project
// files (every one of ProjectPaths, outermost first, each tightening what
// the files before it allow) and the explicit file, each where present. The first problem
// stops it: the error (an *Error) names the file and line. Keys a
// project file may not set are not errors: they are ignored and
// explained in Config.Notices.
func Load(opts LoadOptions) (*Config, error) {
	c := Default()
	home := opts.home()

	if !opts.NoManaged {
		if err := loadManaged(c, &opts, home); err != nil {
			return nil, err
		}
	}

	if !opts.NoUser {
		if p := opts.UserPath(); p != "" {
			if err := loadFile(c, &opts, home, LayerUser, p, true); err != nil {
				return nil, err
			}
		}
	}

	explicit := opts.Explicit
	if explicit == "" {
		explicit = opts.getenv(EnvConfig)
	}
	if explicit != "" {
		if abs, err := filepath.Abs(explicit); err == nil {
			explicit = abs
		}
	}

	if !opts.NoProject {
		cwd := opts.Cwd
		if cwd == "" {
			wd, err := os.Getwd()
			if err != nil {
				return nil, fmt.Errorf("finding the project file: %w", err)
			}
			cwd = wd
		}
		ps, err := ProjectPaths(cwd)
		if err != nil {
			return nil, fmt.Errorf("finding the project files: %w", err)
		}
		for _, p := range ps {
			if sameFile(p, explicit) || sameFile(p, opts.UserPath()) {
				continue
			}
			if err := loadFile(c, &opts, home, LayerProject, p, false); err != nil {
				return nil, err
			}
		}
	}

	if explicit != "" {
		if err := loadFile(c, &opts, home, LayerExplicit, explicit, false); err != nil {
			return nil, err
		}
	}

	if c.Provenance["audit_log"].Layer == LayerDefault {
		c.AuditLog = opts.DefaultAuditLog()
	}
	if err := checkExempt(c, &opts); err != nil {
		return nil, err
	}
	if err := checkAudit(c); err != nil {
		return nil, err
	}
	return c, nil
}

// DefaultAuditLog returns where the audit log is kept when no file sets
// audit_log: $XDG_STATE_HOME/shellguard/audit.jsonl, or
// ~/.local/state/shellguard/audit.jsonl when XDG_STATE_HOME is unset or
// not absolute; "" (no log) when neither is known.
func (o LoadOptions) DefaultAuditLog() string {
	return xdg.State(o.Env, "audit.jsonl")
}

// checkAudit makes sure audit_required has a log to require.
func checkAudit(c *Config) error {
	if c.AuditRequired && c.AuditLog == "" {
		s := c.Provenance["audit_required"]
		return &Error{File: s.File, Line: s.Line, Msg: "audit_required = true needs an audit_log"}
	}
	return nil
}

// sameFile reports whether a and b name the same existing file.
func sameFile(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	sa, err := os.Stat(a)
	if err != nil {
		return false
	}
	sb, err := os.Stat(b)
	if err != nil {
		return false
	}
	return os.SameFile(sa, sb)
}

// checkExempt makes sure every exempt name is a built-in or custom rule.
func checkExempt(c *Config, opts *LoadOptions) error {
	for _, n := range c.Exempt {
		if _, ok := opts.builtinLevel(n); ok {
			continue
		}
		if _, ok := c.PatternSources[n]; ok {
			continue
		}
		s := c.ExemptSources[n]
		return &Error{File: s.File, Line: s.Line, Msg: fmt.Sprintf("exempt: no built-in or custom rule is called %q", n)}
	}
	return nil
}

// readFile reads a configuration file, which must be a regular file (a
// repository could otherwise plant a .shellguard.toml symlink to a FIFO
// or a device and hang or flood the reader) of at most maxFileSize bytes.
func readFile(path string) ([]byte, error) {
	if st, err := os.Stat(path); err != nil {
		return nil, err
	} else if !st.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	if st.Size() > maxFileSize {
		return nil, fmt.Errorf("larger than %d bytes", maxFileSize)
	}
	buf, err := io.ReadAll(io.LimitReader(f, maxFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(buf) > maxFileSize {
		return nil, fmt.Errorf("larger than %d bytes", maxFileSize)
	}
	return buf, nil
}

func loadFile(c *Config, opts *LoadOptions, home, layer, path string, optional bool) error {
	src, err := readFile(path)
	if err != nil {
		if optional && errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return &Error{File: path, Msg: "cannot read " + layer + " configuration: " + unwrapPathError(err)}
	}
	return applySource(c, opts, home, layer, path, src)
}

func unwrapPathError(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// applySource parses src (the contents of path) and applies it as layer.
func applySource(c *Config, opts *LoadOptions, home, layer, path string, src []byte) error {
	if layer == LayerProject {
		if msg := c.project.file(len(src)); msg != "" {
			return &Error{File: path, Msg: msg}
		}
	}
	f, err := parse(layer, path, src)
	if err != nil {
		return err
	}
	c.Files = append(c.Files, Source{Layer: layer, File: path})
	a := &applier{c: c, f: f, opts: opts, home: home}
	return a.apply()
}

// CheckFile validates one file as if it were the user file: it must
// exist, be TOML and follow the schema. The error names file and line.
func CheckFile(path string) error {
	_, err := check(path, LayerUser, LoadOptions{})
	return err
}

// CheckProjectFile validates one file as if it were a project file and
// returns the notices for the keys that would be ignored there.
func CheckProjectFile(path string) ([]string, error) {
	return check(path, LayerProject, LoadOptions{})
}

// CheckFileWith validates path as layer (LayerUser, LayerProject or
// LayerExplicit) with opts' BuiltinLevel and Env, on top of the defaults
// only, and returns the notices.
func CheckFileWith(path, layer string, opts LoadOptions) ([]string, error) {
	switch layer {
	case LayerUser, LayerProject, LayerExplicit:
	default:
		return nil, fmt.Errorf("config: unknown layer %q", layer)
	}
	return check(path, layer, opts)
}

func check(path, layer string, opts LoadOptions) ([]string, error) {
	c := Default()
	src, err := readFile(path)
	if err != nil {
		return nil, &Error{File: path, Msg: "cannot read: " + unwrapPathError(err)}
	}
	if err := applySource(c, &opts, opts.home(), layer, path, src); err != nil {
		return nil, err
	}
	if err := checkExempt(c, &opts); err != nil {
		return nil, err
	}
	if err := checkAudit(c); err != nil {
		return nil, err
	}
	return c.Notices, nil
}
