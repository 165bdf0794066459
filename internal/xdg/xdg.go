package xdg

import (
	"os"
	"path/filepath"
)

// App is the folder of shellguard's files in each base directory.
const App = "shellguard"

// Config returns $XDG_CONFIG_HOME/shellguard/name, or
// $HOME/.config/shellguard/name when XDG_CONFIG_HOME is unset or not an
// absolute path, or "" when neither is known. name "" is the folder.
// getenv reads the environment; nil means the process's (os.Getenv, and
// os.UserHomeDir when HOME is unset).
func Config(getenv func(string) string, name string) string {
	return dir(getenv, "XDG_CONFIG_HOME", ".config", name)
}

// State returns $XDG_STATE_HOME/shellguard/name, or
// $HOME/.local/state/shellguard/name, or "", as Config does.
func State(getenv func(string) string, name string) string {
	return dir(getenv, "XDG_STATE_HOME", filepath.Join(".local", "state"), name)
}

func dir(getenv func(string) string, key, def, name string) string {
	process := getenv == nil
	if process {
		getenv = os.Getenv
	}
	if x := getenv(key); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, App, name)
	}
	home := getenv("HOME")
	if home == "" && process {
		home, _ = os.UserHomeDir()
	}
	if home == "" || !filepath.IsAbs(home) {
		return ""
	}
	return filepath.Join(home, def, App, name)
}
