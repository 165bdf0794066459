package install

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/shellguard/shellguard/internal/agents"
)

// Gemini CLI loads no hooks from settings files (the user's included) in a
// folder the user did not trust, and a headless run refuses to start there.
// What this file relies on, from Gemini CLI 0.61.0 (bundle:
// trustedFolders.ts checkPathTrust and isPathTrusted, config.ts
// isTrustedFolder, hookRegistry.ts processHooksFromConfig, and
// docs/cli/trusted-folders.md):
//
//   - folder trust is on unless the user's settings say
//     "security": {"folderTrust": {"enabled": false}};
//   - GEMINI_CLI_TRUST_WORKSPACE=true trusts every folder, =false (or
//     GEMINI_RESTRICTED_MODE=true) none;
//   - otherwise ~/.gemini/trustedFolders.json ($GEMINI_CLI_TRUSTED_FOLDERS_PATH)
//     maps paths to TRUST_FOLDER, TRUST_PARENT (the path's parent) or
//     DO_NOT_TRUST; the rule with the longest path that holds the folder
//     (symbolic links resolved) wins; no rule means not trusted (the
//     interactive CLI then asks); an invalid file stops Gemini CLI.

// FolderTrust is what Gemini CLI decides about a folder.
type FolderTrust struct {
	// Trusted reports that Gemini CLI loads hooks there.
	Trusted bool
	// Why says how it was decided, for doctor.
	Why string
	// File is the trustedFolders.json read ("" when not read).
	File string
	// Err is a problem with that file (Gemini CLI then refuses to start).
	Err error
}

// GeminiFolderTrust tells whether Gemini CLI trusts dir for the user of
// env.
func GeminiFolderTrust(env Env, dir string) FolderTrust {
	if env.getenv("GEMINI_RESTRICTED_MODE") == "true" || env.getenv("GEMINI_CLI_TRUST_WORKSPACE") == "false" {
		return FolderTrust{Why: "the environment says not to trust any folder (GEMINI_CLI_TRUST_WORKSPACE=false or GEMINI_RESTRICTED_MODE=true)"}
	}
	if env.getenv("GEMINI_CLI_TRUST_WORKSPACE") == "true" {
		return FolderTrust{Trusted: true, Why: "GEMINI_CLI_TRUST_WORKSPACE=true"}
	}
	if !geminiFolderTrustEnabled(env) {
		return FolderTrust{Trusted: true, Why: "folder trust is off in the user's settings (security.folderTrust.enabled = false)"}
	}
	ft := FolderTrust{File: env.getenv("GEMINI_CLI_TRUSTED_FOLDERS_PATH")}
	if ft.File == "" {
		if env.Home == "" {
			ft.Err = errors.New("no home directory")
			return ft
		}
		ft.File = filepath.Join(env.Home, ".gemini", "trustedFolders.json")
	}
	data, err := os.ReadFile(ft.File)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		ft.Why = "no folder is trusted yet, " + ft.File + " does not exist"
		return ft
	case err != nil:
		ft.Err = err
		return ft
	}
	rules, err := parseTrustedFolders(data)
	if err != nil {
		ft.Err = err
		return ft
	}
	real := resolvePath(dir)
	best, bestLen := "", -1
	var bestPath string
	for path, level := range rules {
		effective := path
		if level == "TRUST_PARENT" {
			effective = filepath.Dir(path)
		}
		if isSubpath(resolvePath(effective), real) && len(path) > bestLen {
			best, bestLen, bestPath = level, len(path), path
		}
	}
	switch best {
	case "TRUST_FOLDER", "TRUST_PARENT":
		ft.Trusted = true
		ft.Why = fmt.Sprintf("%s trusts it (%q: %s)", ft.File, bestPath, best)
	case "DO_NOT_TRUST":
		ft.Why = fmt.Sprintf("you chose not to trust it (%s: %q: DO_NOT_TRUST)", ft.File, bestPath)
	default:
		ft.Why = fmt.Sprintf("no rule in %s covers it", ft.File)
	}
	return ft
}

// parseTrustedFolders reads trustedFolders.json (comments allowed), as
// Gemini CLI does: an object of path -> trust level.
func parseTrustedFolders(data []byte) (map[string]string, error) {
	root, err := parseJSON(data, true)
	if err != nil {
		return nil, err
	}
	if root.kind != '{' {
		return nil, errors.New("not a JSON object")
	}
	out := map[string]string{}
	for _, m := range root.members {
		var level string
		if m.value.kind != '"' || json.Unmarshal(data[m.value.start:m.value.end], &level) != nil {
			return nil, fmt.Errorf("the trust level for %q is not a string", m.key)
		}
		switch level {
		case "TRUST_FOLDER", "TRUST_PARENT", "DO_NOT_TRUST":
		default:
			return nil, fmt.Errorf("invalid trust level %q for %q (Gemini CLI refuses to start)", level, m.key)
		}
		out[filepath.Clean(m.key)] = level
	}
	return out, nil
}

// geminiFolderTrustEnabled reads security.folderTrust.enabled from the
// user's Gemini CLI settings (default true).
func geminiFolderTrustEnabled(env Env) bool {
	path, err := SettingsPath(agents.Gemini, User, env)
	if err != nil {
		return true
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return true
	}
	root, err := parseJSON(data, true)
	if err != nil {
		return true
	}
	v := root.get("security").get("folderTrust").get("enabled")
	return v == nil || string(data[v.start:v.end]) != "false"
}

func resolvePath(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return filepath.Clean(p)
}

// isSubpath reports whether child is parent or below it.
func isSubpath(parent, child string) bool {
	rel, err := filepath.Rel(parent, child)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// CopilotFolderTrust tells whether GitHub Copilot CLI trusts dir for the
// user of env, so that it loads the repository's hooks there
// (.github/copilot/settings.json, .github/hooks/*.json). What it relies
// on, from Copilot CLI 1.0.102 ("copilot help config"; verified: a
// repository hook ran only once the folder was listed): the user's
// $COPILOT_HOME/config.json (default ~/.copilot/config.json, JSON with
// comments) lists "trustedFolders"; a folder is trusted when it or a
// folder above it is listed. --trust-folder and COPILOT_ALLOW_ALL=true
// trust the folder of one run, which doctor cannot see.
func CopilotFolderTrust(env Env, dir string) FolderTrust {
	base := env.getenv("COPILOT_HOME")
	if base == "" {
		if env.Home == "" {
			return FolderTrust{Err: errors.New("no home directory")}
		}
		base = filepath.Join(env.Home, ".copilot")
	}
	ft := FolderTrust{File: filepath.Join(base, "config.json")}
	data, err := os.ReadFile(ft.File)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		ft.Why = ft.File + " does not exist, so no folder is trusted yet"
		return ft
	case err != nil:
		ft.Err = err
		return ft
	}
	root, err := parseJSON(data, true)
	if err != nil {
		ft.Err = err
		return ft
	}
	list := root.get("trustedFolders")
	if list == nil || list.kind != '[' {
		ft.Why = "no folder is listed in trustedFolders in " + ft.File
		return ft
	}
	real := resolvePath(dir)
	for _, e := range list.elems {
		var p string
		if e.kind != '"' || json.Unmarshal(data[e.start:e.end], &p) != nil || !filepath.IsAbs(p) {
			continue
		}
		if isSubpath(resolvePath(p), real) {
			ft.Trusted = true
			ft.Why = fmt.Sprintf("%s lists %q in trustedFolders", ft.File, p)
			return ft
		}
	}
	ft.Why = "trustedFolders in " + ft.File + " lists neither it nor a folder above it"
	return ft
}
