package shellinit

import (
	"embed"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/shellguard/shellguard/internal/shquote"
)

//go:embed snippets/bash.sh snippets/zsh.zsh
var snippets embed.FS

// placeholder is replaced by the quoted path of the shellguard binary.
const placeholder = "@SHELLGUARD_BIN@"

// Shells returns the shells that have a snippet.
func Shells() []string { return []string{"bash", "zsh"} }

// Snippet returns the snippet for shell ("bash" or "zsh") that runs the
// shellguard binary at bin unless $SHELLGUARD_BIN is set when a line is
// checked. bin must be an absolute path.
func Snippet(shell, bin string) (string, error) {
	var name string
	switch shell {
	case "bash":
		name = "snippets/bash.sh"
	case "zsh":
		name = "snippets/zsh.zsh"
	default:
		return "", fmt.Errorf("unsupported shell %q (want %s)", shell, strings.Join(Shells(), " or "))
	}
	if !filepath.IsAbs(bin) {
		return "", fmt.Errorf("shellguard binary %q is not an absolute path", bin)
	}
	if strings.ContainsAny(bin, "\x00\n\r") {
		return "", errors.New("shellguard binary path contains a NUL or line break")
	}
	b, err := snippets.ReadFile(name)
	if err != nil {
		return "", err
	}
	return strings.ReplaceAll(string(b), placeholder, shquote.Quote(bin)), nil
}

// Binary returns the binary the snippet should run: $SHELLGUARD_BIN when
// set (made absolute), else the running executable.
func Binary() (string, error) {
	if b := os.Getenv("SHELLGUARD_BIN"); b != "" {
		if !filepath.IsAbs(b) {
			abs, err := filepath.Abs(b)
			if err != nil {
				return "", err
			}
			b = abs
		}
		return b, nil
	}
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("finding the shellguard binary: %w", err)
	}
	return exe, nil
}
