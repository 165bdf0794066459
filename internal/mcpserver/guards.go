package mcpserver

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/shellguard/shellguard/config"
	"github.com/shellguard/shellguard/policy"
)

// maxGuards bounds the directories whose policy Guards keeps loaded.
const maxGuards = 64

// Guards gives each directory commands run in the policy of its project,
// as the agents' hooks do: the Guard that policy.Load builds for that
// directory (the user's configuration, every .shellguard.toml from the
// project's root down to it, the explicit file). A Guard is kept while the
// configuration files it was built from stay the same: before every use,
// the files that apply to the directory are looked up again and compared
// (path, size, modification time, mode, inode), so a long-running
// server sees a .shellguard.toml that was added, edited or removed. It is
// safe for concurrent use.
type Guards struct {
	opts   policy.Options
	notify func(string)

	mu      sync.Mutex
	entries map[string]guardEntry
	order   []string // directories, least recently loaded first
}

type guardEntry struct {
	key string
	g   *policy.Guard
}

// NewGuards returns a Guards that loads with opts (its Cwd is replaced by
// each directory). notify, when not nil, receives the notices of each
// configuration loaded (ignored project keys, ...).
func NewGuards(opts policy.Options, notify func(string)) *Guards {
	return &Guards{opts: opts, notify: notify, entries: map[string]guardEntry{}}
}

// Add records g as the Guard of dir, built from the files as they are now.
func (c *Guards) Add(dir string, g *policy.Guard) {
	key, err := c.fingerprint(dir)
	if err != nil {
		return
	}
	c.put(dir, key, g)
}

// For returns the Guard for commands that run in dir (absolute), loading
// it when its configuration files changed or it was never loaded. A
// configuration error, or a load that takes longer than
// policy.DefaultBudget, is returned.
func (c *Guards) For(dir string) (Decider, error) {
	g, err := c.Guard(dir)
	if err != nil {
		return nil, err
	}
	return g, nil
}

// Guard is For with the concrete type.
func (c *Guards) Guard(dir string) (*policy.Guard, error) {
	key, err := c.fingerprint(dir)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	e, ok := c.entries[dir]
	c.mu.Unlock()
	if ok && e.key == key {
		return e.g, nil
	}
	opts := c.opts
	opts.Cwd = dir
	g, err := policy.LoadBy(opts, time.Now().Add(policy.DefaultBudget))
	if err != nil {
		return nil, err
	}
	if c.notify != nil {
		for _, n := range g.Config().Notices {
			c.notify(n)
		}
	}
	c.put(dir, key, g)
	return g, nil
}

func (c *Guards) put(dir, key string, g *policy.Guard) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.entries[dir]; ok {
		for i, d := range c.order {
			if d == dir {
				c.order = append(c.order[:i:i], c.order[i+1:]...)
				break
			}
		}
	}
	c.entries[dir] = guardEntry{key: key, g: g}
	c.order = append(c.order, dir)
	for len(c.order) > maxGuards {
		delete(c.entries, c.order[0])
		c.order = c.order[1:]
	}
}

// fingerprint describes the configuration files that apply to dir as they
// are now: the user file, the explicit file and the project files, each
// present or not, with its identity, size and times.
func (c *Guards) fingerprint(dir string) (string, error) {
	lo := config.LoadOptions{Env: c.opts.Env}
	files := []string{lo.UserPath()}
	explicit := c.opts.ConfigFile
	if explicit == "" {
		explicit = c.getenv(config.EnvConfig)
	}
	if explicit != "" {
		if abs, err := filepath.Abs(explicit); err == nil {
			explicit = abs
		}
	}
	files = append(files, explicit)
	ps, err := config.ProjectPaths(dir)
	if err != nil {
		return "", fmt.Errorf("finding the project files: %w", err)
	}
	files = append(files, ps...)
	var b strings.Builder
	for _, f := range files {
		b.WriteString(strconv.Quote(f))
		if fi, err := os.Stat(f); err == nil && f != "" {
			fmt.Fprintf(&b, " %d %d %v %s", fi.Size(), fi.ModTime().UnixNano(), fi.Mode(), fileID(fi))
		} else {
			b.WriteString(" -")
		}
		b.WriteByte('\n')
	}
	return b.String(), nil
}

func (c *Guards) getenv(k string) string {
	if c.opts.Env != nil {
		return c.opts.Env(k)
	}
	return os.Getenv(k)
}
