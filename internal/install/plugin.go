package install

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/shellguard/shellguard/internal/agents"

	"github.com/google/renameio/v2"
)

// Agents without a hooks file of settings (OpenCode, Kilo Code, Pi, Amp)
// run code before each tool call: a plugin or extension that shellguard
// writes whole (agents.LayoutFile), which runs the hook program with a
// JSON description of the call and acts on its answer. Cline runs hook
// files named after the event; shellguard writes one, a bash script. Each
// file is shellguard's own: it carries a marker line, install replaces it
// only when it carries the marker, and uninstall removes it.
//
// What each file relies on:
//
//   - OpenCode (https://opencode.ai/docs/plugins) and Kilo Code (the same
//     plugin API): an ES module exporting a plugin function whose
//     "tool.execute.before" hook gets (input {tool, sessionID, callID},
//     output {args}); an error it throws fails the tool call, the message
//     being what the model gets.
//   - Pi (docs/extensions.md of @mariozechner/pi-coding-agent): a default
//     export receiving the extension API; pi.on("tool_call", (event
//     {toolName, input}, ctx {cwd, hasUI, ui.confirm(title, message)}))
//     returning {block: true, reason} blocks; a handler that throws
//     blocks too.
//   - Amp (`amp plugins show-docs`, https://ampcode.com/docs/plugin-api): a
//     default export receiving the plugin API; amp.on("tool.call", (event,
//     ctx)) must return {action: "allow"} or {action:
//     "reject-and-continue", message}; amp.helpers.shellCommandFromToolCall
//     reads a Bash or shell_command call; ctx.ui.confirm({title, message})
//     asks where a UI is (else it throws an error
//     amp.helpers.isPluginUINotAvailableError recognises).
//   - Cline (CLI 3.0.65, @cline/core): a file PreToolUse[.bash|.sh|...] in a
//     hooks directory, run as `bash FILE` with the call's JSON on stdin;
//     its stdout is the control JSON, and a hook that fails or prints
//     nothing lets the command run, so the script prints a cancel itself
//     when shellguard's program cannot run.

// pluginMarker is in every file shellguard writes, with the agent's name
// after it, on the line that names the hook command.
const pluginMarker = "shellguard-hook-command:"

// PluginFile returns the file shellguard writes for a LayoutFile agent,
// running command (a hook command as HookCommandFor makes it).
func PluginFile(agent agents.Agent, command string) ([]byte, error) {
	spec := agent.Spec()
	argv, err := splitWords(command)
	if err != nil || len(argv) == 0 {
		return nil, fmt.Errorf("cannot run the hook command %q from a plugin: %v", command, err)
	}
	hook, err := marshal(argv, "", "")
	if err != nil {
		return nil, err
	}
	tools, err := marshal(spec.ShellTools, "", "")
	if err != nil {
		return nil, err
	}
	tmpl, ok := map[agents.Plugin]string{
		agents.PluginOpenCode: openCodePlugin, agents.PluginPi: piExtension,
		agents.PluginAmp: ampPlugin, agents.PluginCline: clineScript,
	}[spec.Plugin]
	if !ok {
		return nil, fmt.Errorf("no plugin template for %s", spec.Title)
	}
	r := strings.NewReplacer(
		"{{TITLE}}", spec.Title,
		"{{AGENT}}", string(spec.Name),
		"{{EVENT}}", spec.Event,
		"{{HOOK}}", string(hook),
		"{{TOOLS}}", string(tools),
		"{{COMMAND}}", command,
		"{{MARKER}}", pluginMarker,
	)
	return []byte(r.Replace(tmpl)), nil
}

// pluginCommand returns the hook command a file written by shellguard
// for agent names (on its marker line), and whether the file is one: it
// says it was written by `shellguard install AGENT` and has the marker
// line.
func pluginCommand(data []byte, agent agents.Agent) (string, bool) {
	if !bytes.Contains(data, []byte("`shellguard install "+string(agent)+"`")) {
		return "", false
	}
	for _, line := range bytes.Split(data, []byte("\n")) {
		l := strings.TrimLeft(strings.TrimSpace(string(line)), "/# ")
		if rest, ok := strings.CutPrefix(l, pluginMarker); ok {
			return strings.TrimSpace(rest), true
		}
	}
	return "", false
}

// installFile writes a LayoutFile agent's file (see Install).
func installFile(path string, agent agents.Agent, command string, opts Options) (Result, error) {
	res, target, err := load(path)
	if err != nil {
		return res, err
	}
	content, err := PluginFile(agent, command)
	if err != nil {
		return res, err
	}
	if !res.Created {
		if _, ours := pluginCommand(res.Before, agent); !ours {
			return res, fmt.Errorf("%s exists and was not written by shellguard; move it away first (shellguard did not change it)", path)
		}
	}
	res.After = content
	res.Changed = !bytes.Equal(res.Before, content)
	if !res.Changed || opts.DryRun {
		return res, nil
	}
	return res, writeOwnFile(target, content, agent)
}

// uninstallFile removes a LayoutFile agent's file when shellguard wrote it
// (see Uninstall); command, when not empty, is recognised too.
func uninstallFile(path string, agent agents.Agent, command string, opts Options) (Result, error) {
	res, target, err := load(path)
	if err != nil || res.Created {
		res.Created = false
		return res, err
	}
	got, ours := pluginCommand(res.Before, agent)
	if !ours && !(command != "" && got == command) {
		res.After = res.Before
		return res, nil
	}
	res.Changed, res.Removed = true, true
	if opts.DryRun {
		return res, nil
	}
	return res, os.Remove(target)
}

// writeOwnFile writes a file of shellguard's own: no backup (nothing of
// the user's is in it), replaced atomically; a hook script is executable.
func writeOwnFile(target string, content []byte, agent agents.Agent) error {
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return err
	}
	perm := fs.FileMode(0o644)
	if agent.Spec().Plugin == agents.PluginCline {
		perm = 0o755
	}
	return renameio.WriteFile(target, content, perm)
}

// splitWords splits a hook command into its words, undoing the quoting
// HookCommand produces (single quotes), double quotes and backslashes. A
// command that needs a shell (expansions, operators) is refused.
func splitWords(s string) ([]string, error) {
	var words []string
	var b strings.Builder
	in := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case ' ', '\t':
			if in {
				words = append(words, b.String())
				b.Reset()
				in = false
			}
		case '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, errors.New("unterminated quote")
			}
			b.WriteString(s[i+1 : i+1+j])
			i += j + 1
			in = true
		case '"':
			j := i + 1
			for ; j < len(s) && s[j] != '"'; j++ {
				if s[j] == '$' || s[j] == '`' {
					return nil, errors.New("an expansion needs a shell")
				}
				if s[j] == '\\' && j+1 < len(s) {
					j++
				}
				b.WriteByte(s[j])
			}
			if j >= len(s) {
				return nil, errors.New("unterminated quote")
			}
			i = j
			in = true
		case '\\':
			if i+1 < len(s) {
				i++
				b.WriteByte(s[i])
			}
			in = true
		case '$', '`', ';', '&', '|', '<', '>', '(', ')', '\n', '*', '?', '[', '~', '#', '{', '}':
			return nil, fmt.Errorf("%q needs a shell", c)
		default:
			b.WriteByte(c)
			in = true
		}
	}
	if in {
		words = append(words, b.String())
	}
	return words, nil
}

// The templates. {{HOOK}} is the hook's argv as a JSON array, {{TOOLS}}
// the agent's shell tools; nothing else of the user's is in them.

// pluginHeader opens every JavaScript or TypeScript file: what it is, the
// marker line, and the import runHook needs.
const pluginHeader = `// shellguard: checks {{TITLE}}'s shell commands before they run.
// Written by ` + "`shellguard install {{AGENT}}`" + `; ` + "`shellguard uninstall {{AGENT}}`" + ` removes it.
// If shellguard's hook program cannot run, the command is blocked (run: shellguard doctor).
// {{MARKER}} {{COMMAND}}
import { spawn } from "node:child_process";
`

// tsRunHook is the TypeScript runHook of Pi's extension and Amp's plugin:
// it runs the hook program with the call on its stdin, killing it after
// TIMEOUT_MS, and resolves to its exit code and stdout or why it could
// not run; askHook reads the answer from that (an empty answer when the
// program printed nothing), or says why there is none.
const tsRunHook = `type HookRun = { error?: string; code?: number | null; out?: string };

function runHook(input: string): Promise<HookRun> {
  return new Promise((resolve) => {
    let out = "", done = false, child: any;
    const finish = (r: HookRun) => { if (!done) { done = true; clearTimeout(timer); resolve(r); } };
    const timer = setTimeout(() => { if (child) child.kill("SIGKILL"); finish({ error: "it timed out" }); }, TIMEOUT_MS);
    try {
      child = spawn(SHELLGUARD_HOOK[0], SHELLGUARD_HOOK.slice(1), { stdio: ["pipe", "pipe", "ignore"] });
    } catch (e: any) {
      finish({ error: String(e && e.message || e) });
      return;
    }
    child.on("error", (e: any) => finish({ error: String(e && e.message || e) }));
    child.stdout.on("data", (d: any) => { out += d; });
    child.on("close", (code: number | null) => finish({ code, out }));
    child.stdin.on("error", () => {});
    child.stdin.end(input);
  });
}

async function askHook(call: object): Promise<{ why?: string; answer?: any }> {
  const r = await runHook(JSON.stringify(call));
  if (r.error) return { why: r.error };
  if (r.code !== 0) return { why: "exit " + r.code };
  try {
    return { answer: (r.out || "").trim() !== "" ? JSON.parse(r.out || "") : {} };
  } catch (e) {
    return { why: "its answer is not JSON" };
  }
}
`

const openCodePlugin = pluginHeader + `
const SHELLGUARD_HOOK = {{HOOK}};
const SHELL_TOOLS = {{TOOLS}};
const TIMEOUT_MS = 30000;

function runHook(input) {
  return new Promise((resolve) => {
    let out = "", done = false, child;
    const finish = (r) => { if (!done) { done = true; clearTimeout(timer); resolve(r); } };
    const timer = setTimeout(() => { if (child) child.kill("SIGKILL"); finish({ error: "it timed out" }); }, TIMEOUT_MS);
    try {
      child = spawn(SHELLGUARD_HOOK[0], SHELLGUARD_HOOK.slice(1), { stdio: ["pipe", "pipe", "ignore"] });
    } catch (e) {
      finish({ error: String(e && e.message || e) });
      return;
    }
    child.on("error", (e) => finish({ error: String(e && e.message || e) }));
    child.stdout.on("data", (d) => { out += d; });
    child.on("close", (code) => finish({ code, out }));
    child.stdin.on("error", () => {});
    child.stdin.end(input);
  });
}

function blocked(why) {
  return new Error("shellguard: its hook program could not run (" + why + "), so the command is blocked; run: shellguard doctor");
}

export const Shellguard = async ({ directory }) => ({
  "tool.execute.before": async (input, output) => {
    if (!SHELL_TOOLS.includes(input.tool)) return;
    const r = await runHook(JSON.stringify({
      hook_event_name: "{{EVENT}}",
      session_id: input.sessionID,
      cwd: directory,
      tool_name: input.tool,
      tool_input: output.args,
    }));
    if (r.error) throw blocked(r.error);
    if (r.code !== 0) throw blocked("exit " + r.code);
    let answer = {};
    try {
      if (r.out.trim() !== "") answer = JSON.parse(r.out);
    } catch (e) {
      throw blocked("its answer is not JSON");
    }
    // {{TITLE}} cannot ask from a plugin: an ask blocks too, with its reason.
    if (answer.decision === "deny" || answer.decision === "ask") throw new Error(answer.reason);
  },
});
`

const piExtension = pluginHeader + `
const SHELLGUARD_HOOK: string[] = {{HOOK}};
const SHELL_TOOLS: string[] = {{TOOLS}};
const TIMEOUT_MS = 30000;

` + tsRunHook + `
function blocked(why: string) {
  return { block: true, reason: "shellguard: its hook program could not run (" + why + "), so the command is blocked; run: shellguard doctor" };
}

export default function (pi: any) {
  pi.on("{{EVENT}}", async (event: any, ctx: any) => {
    if (!SHELL_TOOLS.includes(event.toolName)) return;
    const { why, answer } = await askHook({
      hook_event_name: "{{EVENT}}",
      cwd: ctx.cwd,
      tool_name: event.toolName,
      tool_input: event.input,
      attended: !!ctx.hasUI,
    });
    if (why !== undefined) return blocked(why);
    if (answer.decision === "deny") return { block: true, reason: answer.reason };
    if (answer.decision === "ask") {
      if (ctx.hasUI && await ctx.ui.confirm("shellguard", answer.message)) return;
      return { block: true, reason: answer.reason };
    }
  });
}
`

const ampPlugin = pluginHeader + `
export const description = "shellguard: checks shell commands before Amp runs them";

const SHELLGUARD_HOOK: string[] = {{HOOK}};
const TIMEOUT_MS = 30000;

` + tsRunHook + `
function reject(message: string) {
  return { action: "reject-and-continue", message };
}

function blocked(why: string) {
  return reject("shellguard: its hook program could not run (" + why + "), so the command is blocked; run: shellguard doctor");
}

export default function (amp: any) {
  amp.on("{{EVENT}}", async (event: any, ctx: any) => {
    const shell = amp.helpers.shellCommandFromToolCall(event);
    if (!shell) return { action: "allow" };
    const { why, answer } = await askHook({
      hook_event_name: "{{EVENT}}",
      session_id: event.thread && event.thread.id,
      cwd: shell.dir || process.cwd(),
      tool_name: event.tool,
      tool_input: { command: shell.command },
    });
    if (why !== undefined) return blocked(why);
    if (answer.decision === "deny") return reject(answer.reason);
    if (answer.decision === "ask") {
      try {
        const ok = await ctx.ui.confirm({ title: "shellguard", message: answer.message, requireHuman: true });
        return ok ? { action: "allow" } : reject(answer.reason);
      } catch (e) {
        return reject(answer.reason);
      }
    }
    return { action: "allow" };
  });
}
`

const clineScript = `#!/bin/bash
# shellguard: checks {{TITLE}}'s shell commands before they run.
# Written by ` + "`shellguard install {{AGENT}}`" + `; ` + "`shellguard uninstall {{AGENT}}`" + ` removes it.
# If shellguard's hook program cannot run, the run is stopped (run: shellguard doctor).
# {{MARKER}} {{COMMAND}}
answer=$({{COMMAND}}) && { printf '%s\n' "$answer"; exit 0; }
status=$?
printf '{"cancel":true,"errorMessage":"shellguard: its hook program could not run (exit %s), so the command is blocked; run: shellguard doctor"}\n' "$status"
`
