package tui

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/shellguard/shellguard/internal/xdg"
)

// DefaultHistorySize is how many lines a History keeps.
const DefaultHistorySize = 1000

// DefaultHistoryPath returns the history file of `shellguard shell`:
// $XDG_STATE_HOME/shellguard/history, or ~/.local/state/shellguard/history
// when XDG_STATE_HOME is unset or not absolute.
func DefaultHistoryPath() (string, error) {
	if p := xdg.State(nil, "history"); p != "" {
		return p, nil
	}
	return "", errors.New("history: neither $XDG_STATE_HOME nor $HOME is an absolute path")
}

// History is the list of lines typed at the prompt, oldest first, kept in
// a file readable by its owner only (0600), one line per entry. It is safe
// for concurrent use.
type History struct {
	mu      sync.Mutex
	path    string
	max     int
	entries []string
}

// LoadHistory reads the history file at path, keeping the last max lines
// (DefaultHistorySize when max <= 0). A missing file is an empty history;
// path "" is a history that is never saved.
func LoadHistory(path string, max int) (*History, error) {
	if max <= 0 {
		max = DefaultHistorySize
	}
	h := &History{path: path, max: max}
	if path == "" {
		return h, nil
	}
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return h, nil
	}
	if err != nil {
		return h, fmt.Errorf("history: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	var all []string
	for sc.Scan() {
		if line := sc.Text(); strings.TrimSpace(line) != "" {
			all = append(all, line)
		}
	}
	if err := sc.Err(); err != nil {
		return h, fmt.Errorf("history %s: %w", path, err)
	}
	if len(all) > max {
		all = all[len(all)-max:]
	}
	h.entries = all
	// Keep the permissions tight even for a file created by hand.
	if fi, err := f.Stat(); err == nil && fi.Mode().Perm()&0o077 != 0 {
		_ = os.Chmod(path, 0o600)
	}
	return h, nil
}

// Path returns the history file, or "" when the history is not saved.
func (h *History) Path() string { return h.path }

// Entries returns a copy of the lines, oldest first.
func (h *History) Entries() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.entries...)
}

// Len returns the number of lines.
func (h *History) Len() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.entries)
}

// Add appends line to the history and its file. Blank lines and a repeat
// of the last line are not added. Line breaks become spaces. The file grows
// until it holds twice the kept size and is then rewritten.
func (h *History) Add(line string) error {
	line = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(line)
	if strings.TrimSpace(line) == "" {
		return nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if n := len(h.entries); n > 0 && h.entries[n-1] == line {
		return nil
	}
	h.entries = append(h.entries, line)
	if len(h.entries) > h.max {
		h.entries = append([]string(nil), h.entries[len(h.entries)-h.max:]...)
	}
	if h.path == "" {
		return nil
	}
	return h.appendFile(line)
}

func (h *History) appendFile(line string) error {
	if err := os.MkdirAll(filepath.Dir(h.path), 0o700); err != nil {
		return fmt.Errorf("history: %w", err)
	}
	f, err := os.OpenFile(h.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("history: %w", err)
	}
	_, werr := f.WriteString(line + "\n")
	fi, serr := f.Stat()
	cerr := f.Close()
	if werr != nil {
		return fmt.Errorf("history: %w", werr)
	}
	if cerr != nil {
		return fmt.Errorf("history: %w", cerr)
	}
	if serr == nil && fi.Size() > int64(2*h.max)*256 {
		return h.rewrite()
	}
	return nil
}

// rewrite replaces the file with the kept entries.
func (h *History) rewrite() error {
	tmp, err := os.CreateTemp(filepath.Dir(h.path), ".history-*")
	if err != nil {
		return fmt.Errorf("history: %w", err)
	}
	defer os.Remove(tmp.Name())
	w := bufio.NewWriter(tmp)
	for _, e := range h.entries {
		w.WriteString(e)
		w.WriteByte('\n')
	}
	if err := w.Flush(); err != nil {
		tmp.Close()
		return fmt.Errorf("history: %w", err)
	}
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return fmt.Errorf("history: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("history: %w", err)
	}
	if err := os.Rename(tmp.Name(), h.path); err != nil {
		return fmt.Errorf("history: %w", err)
	}
	return nil
}
