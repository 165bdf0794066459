package approval

import (
	"strings"

	"github.com/shellguard/shellguard/shellparse"
)

// widening returns the first option, operand or environment assignment of
// inv that changes what runs or where data goes, and why; ("", "") when
// there is none. Such an invocation never rides on a prefix approval: the
// person who approved "git log *" did not approve "git -c core.pager=sh
// log".
//
// The rules are per program (see programWidening); environment assignments
// are checked for every program (see envWidening).
func widening(inv *shellparse.Invocation) (flag, why string) {
	for _, a := range inv.Assigns {
		if envWidening(a.Name) {
			return a.Name, "sets an environment variable that changes what programs run or load"
		}
	}
	for _, w := range inv.Wrappers {
		if f, y := wrapperWidening(w); f != "" {
			return f, y
		}
	}
	if len(inv.Args) == 0 {
		return "", ""
	}
	// argv's values, on the stack for short lines (nothing keeps them).
	var buf [16]string
	argv := buf[:0]
	if len(inv.Args) > len(buf) {
		argv = make([]string, 0, len(inv.Args))
	}
	for _, a := range inv.Args {
		argv = append(argv, a.Value)
	}
	return programWidening(inv.Name, argv[1:])
}

// envWidening reports an environment variable that changes which programs
// run, what they load, or where their data goes.
func envWidening(name string) bool {
	n := strings.ToUpper(strings.TrimSuffix(name, "+"))
	switch n {
	case "NODE_ENV", "CGO_ENABLED", "PYTHONUNBUFFERED", "PYTHONDONTWRITEBYTECODE",
		"PYTHONIOENCODING", "PYTHONHASHSEED", "RUST_LOG", "RUST_BACKTRACE":
		return false
	case "PATH", "HOME", "ENV", "BASH_ENV", "IFS", "PS4", "PROMPT_COMMAND",
		"SHELL", "SHELLOPTS", "BASHOPTS", "CDPATH", "FPATH", "ZDOTDIR", "EDITOR",
		"VISUAL", "PAGER", "MANPAGER", "BROWSER", "LESSOPEN", "LESSCLOSE",
		"LESSKEY", "INPUTRC", "TERMINFO", "GLIBC_TUNABLES", "HOSTALIASES",
		"CC", "CXX", "CPP", "LD", "AR", "AS", "FC", "MAKE", "MFLAGS", "RUSTC",
		"RUSTDOC", "GOROOT", "GOTOOLCHAIN", "GOPROXY", "GOENV", "GOEXPERIMENT",
		"CLASSPATH", "KUBECONFIG", "TAR_OPTIONS", "GZIP", "BZIP2", "XZ_OPT",
		"XZ_DEFAULTS", "ZSTD_NBTHREADS", "GREP_OPTIONS", "WGETRC", "CURL_HOME",
		"SYSTEMD_PAGER", "SYSTEMD_EDITOR", "SSLKEYLOGFILE", "TMPDIR",
		"XDG_CONFIG_HOME", "XDG_CONFIG_DIRS", "XDG_DATA_HOME", "XDG_DATA_DIRS":
		return true
	}
	for _, p := range []string{"LD_", "DYLD_", "GIT_", "BASH_", "NPM_CONFIG_",
		"YARN_", "PNPM_", "BUN_", "PIP_", "UV_", "PYTHON", "PERL", "RUBY", "GEM_",
		"BUNDLE_", "NODE_", "CARGO_", "RUSTUP_", "RUSTC_", "JAVA_", "_JAVA_",
		"JDK_", "MAVEN_", "GRADLE_", "SBT_", "DOTNET_", "LUA_", "OPENSSL_",
		"SSH_", "SUDO_", "CGO_", "GO", "DOCKER_", "PODMAN_", "CONTAINERS_",
		"KUBE", "HELM_", "AWS_", "AZURE_", "GOOGLE_", "CLOUDSDK_", "RSYNC_",
		"MAKE", "GNUMAKE", "LESS", "DENO_", "COMPOSER_", "PHP"} {
		if strings.HasPrefix(n, p) {
			if p == "GO" && (n == "GOOS" || n == "GOARCH" || strings.HasPrefix(n, "GOAMD64") || strings.HasPrefix(n, "GOARM")) {
				return false
			}
			return true
		}
	}
	for _, s := range []string{"PATH", "_HOME", "FLAGS", "OPTS", "OPTIONS", "_OPT",
		"CONFIG", "_COMMAND", "_CMD", "EDITOR", "PAGER", "_SHELL", "ASKPASS",
		"WRAPPER", "PROXY", "_LIB", "LIBS", "_PRELOAD", "_RC", "RCFILE"} {
		if strings.HasSuffix(n, s) {
			return true
		}
	}
	return false
}

// shortNames holds "-c" for every ASCII letter and digit c, so that
// splitting a cluster does not allocate a string per option.
const shortNames = "-a-b-c-d-e-f-g-h-i-j-k-l-m-n-o-p-q-r-s-t-u-v-w-x-y-z" +
	"-A-B-C-D-E-F-G-H-I-J-K-L-M-N-O-P-Q-R-S-T-U-V-W-X-Y-Z" +
	"-0-1-2-3-4-5-6-7-8-9"

// shortOption returns "-" followed by c.
func shortOption(c byte) string {
	var k int
	switch {
	case c >= 'a' && c <= 'z':
		k = int(c - 'a')
	case c >= 'A' && c <= 'Z':
		k = 26 + int(c-'A')
	case c >= '0' && c <= '9':
		k = 52 + int(c-'0')
	default:
		return "-" + string(c)
	}
	return shortNames[2*k : 2*k+2]
}

// opt is one option found in an argv.
type opt struct {
	name     string // "-o", "--output", or a whole single-dash word ("-exec")
	value    string // its value, attached or taken from the next word
	hasValue bool
}

// optSyntax describes how a program reads its options.
type optSyntax struct {
	// shortArg lists the short options that take a value (the rest of
	// the cluster, or the next word).
	shortArg string
	// longArg lists long options (without dashes) that take the next
	// word as their value when not written with "=".
	longArg []string
	// singleDash: options are whole words starting with one dash (find,
	// go), never clusters.
	singleDash bool
	// oldTar: a first word without a dash is a cluster of options (tar).
	oldTar bool
}

// scanOptions splits args (argv without the program) into options and
// operands. Options stop at "--".
func scanOptions(args []string, sx optSyntax) (opts []opt, operands []string) {
	for i := 0; i < len(args); i++ {
		if opts == nil && len(args[i]) > 1 && (args[i][0] == '-' || i == 0 && sx.oldTar) {
			// Room for an option per word left: one allocation (a
			// cluster may take more).
			opts = make([]opt, 0, len(args)-i)
		}
		v := args[i]
		if i == 0 && sx.oldTar && v != "" && v[0] != '-' {
			v = "-" + v
		}
		switch {
		case v == "--":
			operands = append(operands, args[i+1:]...)
			return opts, operands
		case len(v) < 2 || v[0] != '-':
			if operands == nil {
				// Room for every word left: one allocation.
				operands = make([]string, 0, len(args)-i)
			}
			operands = append(operands, v)
		case sx.singleDash || strings.HasPrefix(v, "--"):
			o := opt{name: v}
			if eq := strings.IndexByte(v, '='); eq >= 0 {
				o.name, o.value, o.hasValue = v[:eq], v[eq+1:], true
			} else if i+1 < len(args) && contains(sx.longArg, strings.TrimLeft(v, "-")) {
				i++
				o.value, o.hasValue = args[i], true
			}
			opts = append(opts, o)
		default:
			for j := 1; j < len(v); j++ {
				c := v[j]
				o := opt{name: shortOption(c)}
				if strings.IndexByte(sx.shortArg, c) >= 0 {
					if j+1 < len(v) {
						o.value, o.hasValue = v[j+1:], true
					} else if i+1 < len(args) {
						i++
						o.value, o.hasValue = args[i], true
					}
					opts = append(opts, o)
					break
				}
				opts = append(opts, o)
			}
		}
	}
	return opts, operands
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// longMatch reports whether the long option name (with its dashes) is one
// of want (without dashes); with abbrev, an unambiguous abbreviation of at
// least three letters counts too (GNU getopt_long, git and npm accept
// them).
func longMatch(name string, abbrev bool, want ...string) bool {
	if !strings.HasPrefix(name, "--") {
		return false
	}
	n := name[2:]
	switch n {
	case "checkpoint", "text":
		// Options of their own that are also abbreviations of
		// dangerous ones (tar --checkpoint-action, git --textconv).
		abbrev = false
	}
	for _, w := range want {
		if n == w || abbrev && len(n) >= 3 && strings.HasPrefix(w, n) {
			return true
		}
	}
	return false
}

// firstOpt returns the first option named in shorts (letters) or longs.
func firstOpt(opts []opt, shorts string, abbrev bool, longs ...string) (opt, bool) {
	for _, o := range opts {
		if len(o.name) == 2 && o.name[0] == '-' && o.name[1] != '-' && strings.IndexByte(shorts, o.name[1]) >= 0 {
			return o, true
		}
		if longMatch(o.name, abbrev, longs...) {
			return o, true
		}
	}
	return opt{}, false
}

// wordOpt returns the first single-dash word option among want.
func wordOpt(opts []opt, want ...string) (opt, bool) {
	for _, o := range opts {
		if contains(want, o.name) {
			return o, true
		}
	}
	return opt{}, false
}

// wrapperWidening checks the options of a peeled wrapper.
func wrapperWidening(w shellparse.Wrapper) (string, string) {
	switch w.Name {
	case "sudo":
		opts, _ := scanOptions(w.Args, optSyntax{shortArg: "ugChpUrtTD", longArg: []string{"user", "group", "close-from", "host", "prompt", "other-user", "role", "type", "command-timeout", "chdir"}})
		if o, ok := firstOpt(opts, "EsiR", true, "preserve-env", "shell", "login", "chroot"); ok {
			return "sudo " + o.name, "runs the command through a shell, in another root, or with the caller's environment"
		}
	case "chroot":
		return "chroot", "runs programs from another root directory"
	case "strace", "ltrace", "time":
		opts, _ := scanOptions(w.Args, optSyntax{shortArg: "oepsuEaIbXPUAnf", longArg: []string{"output", "format"}})
		if o, ok := firstOpt(opts, "o", true, "output"); ok {
			return w.Name + " " + o.name, "writes to a file"
		}
	case "env":
		opts, _ := scanOptions(w.Args, optSyntax{shortArg: "uCS", longArg: []string{"unset", "chdir", "split-string"}})
		if o, ok := firstOpt(opts, "S", true, "split-string"); ok {
			return "env " + o.name, "runs a string split into a command"
		}
	}
	return "", ""
}

// interpreterCode lists, per interpreter, the options whose value is code
// (or loads code), and whether the interpreter reads its program from
// standard input when given no script.
func interpreterCode(name string) (sx optSyntax, shorts string, longs []string, stdin bool, ok bool) {
	switch name {
	case "python", "python2", "python3", "pypy", "pypy3":
		return optSyntax{shortArg: "cmWXQ"}, "c", nil, true, true
	case "node", "nodejs":
		return optSyntax{shortArg: "epr", longArg: []string{"eval", "print", "require", "import", "loader", "experimental-loader", "env-file"}},
			"epr", []string{"eval", "print", "require", "import", "loader", "experimental-loader", "env-file", "inspect", "inspect-brk", "inspect-wait", "experimental-policy"}, true, true
	case "bun":
		return optSyntax{shortArg: "epr", longArg: []string{"eval", "print", "preload"}}, "epr", []string{"eval", "print", "preload"}, false, true
	case "perl":
		// -0, -C, -l, -i, -x take optional values attached to the
		// cluster; every code-carrying letter is flagged where it stands.
		return optSyntax{}, "eEMmIid", nil, true, true
	case "ruby", "jruby":
		return optSyntax{shortArg: "CEF"}, "erIi", nil, true, true
	case "php":
		return optSyntax{shortArg: "rdcfBRFEStz"}, "rdcBRFESz", nil, true, true
	case "lua", "luajit":
		return optSyntax{shortArg: "el"}, "el", nil, true, true
	case "Rscript", "R":
		return optSyntax{shortArg: "e"}, "e", []string{"eval"}, false, true
	case "julia":
		return optSyntax{shortArg: "eEL"}, "eEL", []string{"eval", "print", "load"}, true, true
	case "osascript":
		return optSyntax{shortArg: "el"}, "e", nil, true, true
	case "groovy", "scala", "elixir", "iex":
		return optSyntax{shortArg: "er"}, "er", []string{"eval"}, false, true
	case "fish":
		return optSyntax{shortArg: "cC", longArg: []string{"command", "init-command"}}, "cC", []string{"command", "init-command"}, true, true
	case "bash", "sh", "zsh", "dash", "ksh", "mksh":
		return optSyntax{shortArg: "coO", longArg: []string{"rcfile", "init-file"}}, "cs", []string{"rcfile", "init-file"}, true, true
	}
	return optSyntax{}, "", nil, false, false
}

// programWidening applies the rules of the program called name to its
// arguments (argv without the program).
func programWidening(name string, args []string) (string, string) {
	if sx, shorts, longs, stdin, ok := interpreterCode(name); ok {
		opts, operands := scanOptions(args, sx)
		if o, ok := firstOpt(opts, shorts, false, longs...); ok {
			return o.name, "gives " + name + " code to run (or to load) on the command line"
		}
		if stdin {
			if len(operands) > 0 && operands[0] == "-" {
				return "-", "makes " + name + " read its program from standard input"
			}
			if len(operands) == 0 && !infoOnly(opts) {
				// python -m MODULE, php -f FILE name the program.
				if _, named := firstOpt(opts, "mf", false); !named {
					return "(no script)", "makes " + name + " read its program from standard input"
				}
			}
		}
		return "", ""
	}
	switch name {
	case "git":
		return gitWidening(args)
	case "find":
		opts, _ := scanOptions(args, optSyntax{singleDash: true})
		if o, ok := wordOpt(opts, "-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls"); ok {
			return o.name, "makes find run programs, delete files or write files"
		}
	case "fd", "fdfind":
		opts, _ := scanOptions(args, optSyntax{shortArg: "edEtScjxX", longArg: []string{"exec", "exec-batch"}})
		if o, ok := firstOpt(opts, "xX", false, "exec", "exec-batch"); ok {
			return o.name, "makes fd run programs"
		}
	case "curl":
		return curlWidening(args)
	case "wget", "wget2":
		opts, _ := scanOptions(args, optSyntax{shortArg: "aABDeEiIlOoPQRtTUwXY", longArg: []string{"output-document", "output-file", "append-output", "post-file", "body-file", "execute", "config", "directory-prefix"}})
		if o, ok := firstOpt(opts, "OoaeP", true, "output-document", "output-file", "append-output", "post-file", "body-file", "execute", "config", "directory-prefix", "use-askpass"); ok && !(toStdout(o.value) && (o.name == "-O" || o.name == "-o" || longMatch(o.name, true, "output-document", "output-file"))) {
			return o.name, "makes wget write elsewhere, upload a file, or run wgetrc commands"
		}
	case "tar", "gtar", "bsdtar":
		opts, _ := scanOptions(args, optSyntax{shortArg: "bCfFgHIKLNTVX", oldTar: true, longArg: []string{"file", "to-command", "use-compress-program", "rsh-command", "info-script", "new-volume-script", "checkpoint-action"}})
		if o, ok := firstOpt(opts, "IF", true, "to-command", "checkpoint-action", "use-compress-program", "rsh-command", "info-script", "new-volume-script"); ok {
			return o.name, "makes tar run another program"
		}
		force := false
		for _, o := range opts {
			force = force || longMatch(o.name, true, "force-local")
		}
		for _, o := range opts {
			if !force && (o.name == "-f" || longMatch(o.name, true, "file")) && remoteArchive(o.value) {
				return o.name + " " + o.value, "names an archive on another host, which tar reaches through rsh"
			}
		}
	case "rsync":
		opts, _ := scanOptions(args, optSyntax{shortArg: "eBfMT", longArg: []string{"rsh", "rsync-path", "remote-option", "log-file", "write-batch", "only-write-batch"}})
		if o, ok := firstOpt(opts, "eM", true, "rsh", "rsync-path", "remote-option", "log-file", "write-batch", "only-write-batch", "config"); ok {
			return o.name, "makes rsync run another program or write elsewhere"
		}
	case "ssh":
		opts, _ := scanOptions(args, optSyntax{shortArg: "BbcDEeFIiJLlmOoPpQRSWw"})
		if o, ok := firstOpt(opts, "oFELRDwW", false); ok {
			return o.name, "changes ssh's configuration (which can run programs), writes a log, or forwards data elsewhere"
		}
	case "scp", "sftp":
		opts, _ := scanOptions(args, optSyntax{shortArg: "BbcDFiJlloPRsSX"})
		if o, ok := firstOpt(opts, "oFSDbs", false); ok {
			return o.name, "changes " + name + "'s configuration or the program it runs"
		}
	case "sed", "gsed":
		return sedWidening(args)
	case "awk", "gawk", "mawk", "nawk", "busybox-awk":
		return awkWidening(name, args)
	case "npm", "npx", "pnpm", "pnpx", "yarn", "bunx":
		opts, _ := scanOptions(args, optSyntax{shortArg: "cw", longArg: []string{"script-shell", "userconfig", "globalconfig", "registry", "node-options", "call"}})
		for _, o := range opts {
			switch {
			case longMatch(o.name, true, "unsafe-perm") && o.value != "false":
				return o.name, "makes package scripts run with full privileges"
			case longMatch(o.name, true, "ignore-scripts") && o.hasValue && o.value != "true":
				return o.name + "=" + o.value, "makes package install scripts run"
			case longMatch(o.name, true, "no-ignore-scripts"):
				return o.name, "makes package install scripts run"
			case longMatch(o.name, true, "script-shell", "userconfig", "globalconfig", "registry", "node-options", "call"):
				return o.name, "changes which code " + name + " fetches or which shell runs its scripts"
			case o.name == "-c" && (name == "npx" || name == "npm"):
				return o.name, "runs a shell command"
			}
		}
	case "pip", "pip3", "uv", "pipx":
		opts, _ := scanOptions(args, optSyntax{shortArg: "ifrce", longArg: []string{"index-url", "extra-index-url", "find-links"}})
		if o, ok := firstOpt(opts, "if", true, "index-url", "extra-index-url", "find-links", "trusted-host"); ok {
			return o.name, "changes where packages (code) come from"
		}
	case "make", "gmake":
		opts, operands := scanOptions(args, optSyntax{shortArg: "CfIoWE", longArg: []string{"file", "makefile", "directory", "eval", "include-dir"}})
		if o, ok := firstOpt(opts, "CfIE", true, "file", "makefile", "directory", "eval", "include-dir"); ok {
			return o.name, "makes make read another makefile or extra rules"
		}
		for _, op := range operands {
			if eq := strings.IndexByte(op, '='); eq > 0 {
				return op[:eq] + "=", "overrides a makefile variable, which can change the commands make runs"
			}
		}
	case "go":
		opts, _ := scanOptions(args, optSyntax{singleDash: true, longArg: []string{"toolexec", "exec", "overlay"}})
		for _, o := range opts {
			switch strings.TrimLeft(o.name, "-") {
			case "toolexec", "exec", "overlay":
				return o.name, "makes go run another program"
			}
		}
	case "cargo":
		opts, _ := scanOptions(args, optSyntax{shortArg: "Z", longArg: []string{"config"}})
		if o, ok := firstOpt(opts, "", false, "config"); ok {
			return o.name, "changes cargo's configuration, which can run programs"
		}
	case "sort":
		opts, _ := scanOptions(args, optSyntax{shortArg: "kotTS", longArg: []string{"output", "compress-program"}})
		if o, ok := firstOpt(opts, "o", true, "output", "compress-program"); ok && !(o.name == "-o" && toStdout(o.value)) {
			return o.name, "makes sort write a file or run a program"
		}
	case "rg", "ripgrep":
		opts, _ := scanOptions(args, optSyntax{shortArg: "ABCefgmMtTjE", longArg: []string{"pre"}})
		if o, ok := firstOpt(opts, "", false, "pre"); ok {
			return o.name, "makes rg run a preprocessor program"
		}
	case "zip":
		for _, a := range args {
			if a == "-TT" || strings.HasPrefix(a, "--unzip-command") {
				return a, "makes zip run another program"
			}
		}
	case "docker", "podman", "podman-remote", "nerdctl", "docker-compose":
		return dockerWidening(args)
	case "kubectl", "helm", "oc":
		opts, _ := scanOptions(args, optSyntax{shortArg: "nslfoc"})
		if o, ok := firstOpt(opts, "", false, "kubeconfig", "context", "kube-context", "cluster", "server", "token", "as", "as-group", "as-uid", "kube-apiserver", "kube-token", "kube-as-user", "certificate-authority", "insecure-skip-tls-verify"); ok {
			return o.name, "sends the command to another cluster or identity"
		}
		if name == "kubectl" {
			if o, ok := firstOpt(opts, "s", false); ok {
				return o.name, "sends the command to another cluster"
			}
		}
	case "aws":
		opts, _ := scanOptions(args, optSyntax{})
		if o, ok := firstOpt(opts, "", false, "endpoint-url"); ok {
			return o.name, "sends the request to another endpoint"
		}
	case "gdb":
		opts, _ := scanOptions(args, optSyntax{singleDash: true})
		for _, o := range opts {
			switch strings.TrimLeft(o.name, "-") {
			case "ex", "eval-command", "x", "command", "iex", "ix", "init-command", "init-eval-command":
				return o.name, "gives gdb commands to run"
			}
		}
	case "vim", "vi", "nvim", "view", "vimdiff", "ex", "gvim":
		for _, a := range args {
			if strings.HasPrefix(a, "+") || a == "-c" || a == "--cmd" || a == "-S" || a == "-u" || a == "-s" || strings.HasPrefix(a, "-c") && len(a) > 2 {
				return a, "gives the editor commands to run"
			}
		}
	case "emacs":
		for _, a := range args {
			for _, w := range []string{"--eval", "-l", "--load", "-f", "--funcall", "--script", "-x", "-batch", "--batch"} {
				if a == w || strings.HasPrefix(a, w+"=") {
					return a, "gives emacs code to run"
				}
			}
		}
	case "less", "more", "most":
		for _, a := range args {
			if strings.HasPrefix(a, "+") || a == "-k" || strings.HasPrefix(a, "--lesskey") {
				return a, "gives the pager commands to run"
			}
		}
	case "man":
		opts, _ := scanOptions(args, optSyntax{shortArg: "PHCMLmSsEWRe"})
		if o, ok := firstOpt(opts, "PHC", true, "pager", "html", "config-file"); ok {
			return o.name, "makes man run another program"
		}
	case "git-upload-pack", "git-receive-pack", "git-shell":
		return name, "runs git's transport programs directly"
	case "trap":
		_, operands := scanOptions(args, optSyntax{})
		if len(operands) >= 2 && operands[0] != "-" && operands[0] != "" {
			return "trap", "sets shell code to run later"
		}
	case "alias":
		for _, a := range args {
			if strings.Contains(a, "=") {
				return "alias", "changes what a command name runs"
			}
		}
	case "hash":
		opts, _ := scanOptions(args, optSyntax{shortArg: "p"})
		if o, ok := firstOpt(opts, "p", false); ok {
			return "hash " + o.name, "changes which file a command name runs"
		}
	case "enable":
		opts, _ := scanOptions(args, optSyntax{shortArg: "f"})
		if o, ok := firstOpt(opts, "f", false); ok {
			return "enable " + o.name, "loads a builtin from a shared library"
		}
	case "complete", "compgen":
		opts, _ := scanOptions(args, optSyntax{shortArg: "CFGWXAoPS"})
		if o, ok := firstOpt(opts, "C", false); ok {
			return name + " " + o.name, "sets a command to run on completion"
		}
	case "bind":
		opts, _ := scanOptions(args, optSyntax{shortArg: "mqufrxf"})
		if o, ok := firstOpt(opts, "x", false); ok {
			return "bind " + o.name, "binds a key to a shell command"
		}
	case "export", "declare", "typeset", "local", "readonly":
		for _, a := range args {
			if eq := strings.IndexByte(a, '='); eq > 0 && envWidening(a[:eq]) {
				return a[:eq], "sets a variable that changes what programs run or load"
			}
		}
	case "crontab":
		_, operands := scanOptions(args, optSyntax{shortArg: "uT"})
		if len(operands) > 0 {
			return operands[0], "installs commands to run later"
		}
	case "at", "batch":
		opts, _ := scanOptions(args, optSyntax{shortArg: "qfmMtT"})
		if _, ok := firstOpt(opts, "lrdc", false); !ok {
			return name, "schedules commands read from its input or a file"
		}
	case "parallel", "systemd-run", "pkexec", "runuser", "unshare", "nsenter",
		"firejail", "bwrap", "script", "screen", "expect", "sg", "dbus-run-session",
		"sshpass", "tsp", "entr", "inotifywait", "watchexec", "nodemon":
		_, operands := scanOptions(args, optSyntax{})
		if len(operands) > 0 {
			return name, "runs another command given on its command line, which a prefix approval cannot see"
		}
	case "tmux":
		for _, a := range args {
			switch a {
			case "run-shell", "run", "if-shell", "if", "send-keys", "send", "pipe-pane", "pipep":
				return a, "makes tmux run or type a shell command"
			}
		}
	case "gcc", "cc", "clang", "g++", "c++", "clang++":
		for _, a := range args {
			if strings.HasPrefix(a, "-B") || strings.HasPrefix(a, "-fplugin") || strings.HasPrefix(a, "-wrapper") || strings.HasPrefix(a, "-specs") || a == "-Xclang" {
				return a, "makes the compiler run or load other programs"
			}
		}
	case "java":
		for _, a := range args {
			if strings.HasPrefix(a, "-javaagent") || strings.HasPrefix(a, "-agentpath") || strings.HasPrefix(a, "-agentlib") || strings.HasPrefix(a, "-XX:OnError") || strings.HasPrefix(a, "-XX:OnOutOfMemoryError") {
				return a, "makes java load or run other code"
			}
		}
	case "pytest", "py.test":
		opts, _ := scanOptions(args, optSyntax{shortArg: "pkmcx"})
		for _, o := range opts {
			if o.name == "-p" && !strings.HasPrefix(o.value, "no:") {
				return "-p", "loads a plugin (code) into pytest"
			}
		}
	}
	return "", ""
}

// infoOnly reports options that make an interpreter print information
// and exit (--version, -h).
func infoOnly(opts []opt) bool {
	for _, o := range opts {
		switch o.name {
		case "-V", "-v", "--version", "-h", "--help", "-?":
			return true
		}
	}
	return false
}

// remoteArchive reports a tar archive name of the form host:path.
func remoteArchive(s string) bool {
	c := strings.IndexByte(s, ':')
	if c <= 0 {
		return false
	}
	sl := strings.IndexByte(s, '/')
	return sl < 0 || c < sl
}

// gitWidening applies git's rules: global options before the subcommand,
// then the options of the subcommand.
func gitWidening(args []string) (string, string) {
	i := 0
	for i < len(args) {
		a := args[i]
		if a == "--" || len(a) < 2 || a[0] != '-' {
			break
		}
		name, _, hasEq := strings.Cut(a, "=")
		switch {
		case a == "-c" || strings.HasPrefix(a, "-c") && !strings.HasPrefix(a, "--"):
			return "-c", "sets git configuration, which can make git run other programs"
		case a == "-C" || strings.HasPrefix(a, "-C") && !strings.HasPrefix(a, "--"):
			return "-C", "runs git in another repository, whose configuration can run programs"
		case a == "-p" || longMatch(name, true, "paginate"):
			return a, "makes git run a pager"
		case longMatch(name, true, "config-env"):
			return name, "sets git configuration, which can make git run other programs"
		case longMatch(name, true, "git-dir", "work-tree"):
			return name, "points git at another repository, whose configuration can run programs"
		case longMatch(name, true, "exec-path") && hasEq:
			return name, "makes git run its programs from another folder"
		}
		if !hasEq && (longMatch(name, true, "namespace", "super-prefix", "list-cmds")) {
			i++
		}
		i++
	}
	if i >= len(args) || args[i] == "--" {
		return "", ""
	}
	sub, rest := args[i], args[i+1:]
	var sx optSyntax
	var shorts string
	longs := []string{"upload-pack", "receive-pack", "exec", "output", "ext-diff", "textconv", "open-files-in-pager", "extcmd",
		"sendmail-cmd", "to-cmd", "cc-cmd", "header-cmd", "tree-filter", "index-filter", "msg-filter", "env-filter",
		"commit-filter", "parent-filter", "tag-name-filter", "output-directory"}
	switch sub {
	case "clone":
		sx.shortArg, shorts = "bcjou", "uc"
		longs = append(longs, "config", "template", "separate-git-dir")
	case "init":
		longs = append(longs, "template", "separate-git-dir")
	case "rebase":
		sx.shortArg, shorts = "sxXC", "x"
	case "grep":
		sx.shortArg, shorts = "ABCefm", "O"
	case "format-patch":
		sx.shortArg, shorts = "ov", "o"
	case "difftool", "mergetool":
		sx.shortArg, shorts = "xt", "x"
	case "fetch", "pull", "push", "ls-remote", "archive":
		sx.shortArg = "ojv"
	case "commit", "tag", "merge", "notes", "stash":
		sx.shortArg = "mFCctuS"
	case "bisect":
		if len(rest) > 0 && rest[0] == "run" {
			return "bisect run", "makes git run the command it is given"
		}
	case "submodule":
		for _, r := range rest {
			if r == "foreach" {
				return "submodule foreach", "makes git run the shell command it is given"
			}
		}
	case "filter-branch", "filter-repo":
		return sub, "runs the filter commands it is given"
	case "daemon", "instaweb", "http-backend", "shell", "upload-pack", "receive-pack":
		return sub, "runs git's servers or transport programs"
	}
	opts, _ := scanOptions(rest, sx)
	// Exact options that are also abbreviations of dangerous ones.
	kept := opts[:0:0]
	for _, o := range opts {
		if o.name == "--text" { // git diff --text, not --textconv
			continue
		}
		kept = append(kept, o)
	}
	if o, ok := firstOpt(kept, shorts, true, longs...); ok {
		return o.name, "makes git run another program or write output elsewhere"
	}
	return "", ""
}

// curlWidening applies curl's rules.
func curlWidening(args []string) (string, string) {
	sx := optSyntax{
		shortArg: "AbcCdDeEFHKmoPQrtTuUwxXyYz",
		longArg: []string{"data", "data-binary", "data-raw", "data-ascii", "data-urlencode", "json", "form", "form-string",
			"output", "upload-file", "config", "header", "user-agent", "cookie", "cookie-jar", "dump-header", "trace",
			"trace-ascii", "stderr", "libcurl", "output-dir", "url", "request", "referer", "proxy", "user", "write-out",
			"etag-save", "hsts", "alt-svc", "url-query", "proxy-header", "max-time", "connect-timeout", "retry", "resolve",
			"connect-to", "cacert", "cert", "key", "range"},
	}
	opts, _ := scanOptions(args, sx)
	for _, o := range opts {
		switch {
		case (o.name == "-o" || longMatch(o.name, false, "output")) && toStdout(o.value):
			continue
		case o.name == "-o" || o.name == "-O" || o.name == "-T" || o.name == "-K" || o.name == "-D" || o.name == "-c" ||
			longMatch(o.name, false, "output", "remote-name", "remote-name-all", "output-dir", "upload-file", "config",
				"dump-header", "cookie-jar", "trace", "trace-ascii", "stderr", "libcurl", "etag-save", "hsts", "alt-svc"):
			return o.name, "makes curl write a file, upload a file, or read options from a file"
		case o.name == "-d" || longMatch(o.name, false, "data", "data-binary", "data-ascii", "json", "url-query"):
			if strings.HasPrefix(o.value, "@") {
				return o.name + " @", "sends the contents of a local file"
			}
		case longMatch(o.name, false, "data-urlencode"):
			if strings.Contains(o.value, "@") {
				return o.name, "sends the contents of a local file"
			}
		case o.name == "-F" || longMatch(o.name, false, "form"):
			if strings.Contains(o.value, "=@") || strings.Contains(o.value, "=<") {
				return o.name, "sends the contents of a local file"
			}
		case o.name == "-H" || longMatch(o.name, false, "header", "proxy-header"):
			if strings.HasPrefix(o.value, "@") {
				return o.name + " @", "sends the contents of a local file"
			}
		}
	}
	return "", ""
}

// dockerWidening applies docker's and podman's rules.
func dockerWidening(args []string) (string, string) {
	i := 0
	for i < len(args) && len(args[i]) > 1 && args[i][0] == '-' {
		name, _, hasEq := strings.Cut(args[i], "=")
		switch name {
		case "-H", "--host", "-c", "--context", "--config", "--url", "--connection", "--remote", "-r":
			return name, "sends the command to another engine or reads another configuration"
		}
		if !hasEq && valueOption("docker", name) {
			i++
		}
		i++
	}
	rest := args[i:]
	for _, a := range rest {
		if a == "--" {
			break
		}
		name, val, _ := strings.Cut(a, "=")
		switch name {
		case "-v", "--volume", "--mount":
			// A bind mount of host folders gives the container (and the
			// command in it) the host's files.
			return name, "mounts host files into the container"
		case "--entrypoint":
			return name, "replaces the program the container runs"
		case "--privileged", "--cap-add", "--security-opt", "--device", "--device-cgroup-rule":
			return name, "gives the container power over the host"
		case "--pid", "--network", "--net", "--userns", "--ipc", "--uts", "--cgroupns":
			if val == "host" {
				return a, "shares a host namespace with the container"
			}
		}
	}
	return "", ""
}

// sedWidening applies sed's rules: -i (in place, also in clusters such as
// -ni), script files, and the e, w and W commands (and the s///e and
// s///w flags) in scripts.
func sedWidening(args []string) (string, string) {
	opts, operands := scanOptions(args, optSyntax{shortArg: "efl", longArg: []string{"expression", "file", "line-length"}})
	var scripts []string
	sandbox := false
	for _, o := range opts {
		switch {
		case o.name == "-i" || longMatch(o.name, true, "in-place"):
			return o.name, "makes sed edit files in place"
		case o.name == "-f" || longMatch(o.name, true, "file"):
			return o.name, "makes sed run a script from a file"
		case o.name == "-e" || longMatch(o.name, true, "expression"):
			scripts = append(scripts, o.value)
		case longMatch(o.name, true, "sandbox"):
			sandbox = true
		}
	}
	if len(scripts) == 0 && len(operands) > 0 {
		scripts = append(scripts, operands[0])
	}
	if sandbox {
		return "", ""
	}
	for _, s := range scripts {
		if cmd := sedDangerous(s); cmd != "" {
			return cmd, "sed command writes files or runs a program"
		}
	}
	return "", ""
}

// sedDangerous scans a sed script and returns the first command that runs
// a program or writes a file (e, w, W, s///e, s///w), "?" for a script it
// cannot read, or "".
func sedDangerous(s string) string {
	i := 0
	n := len(s)
	skipRegex := func(delim byte) bool {
		for i < n {
			c := s[i]
			i++
			if c == '\\' {
				i++
				continue
			}
			if c == delim {
				return true
			}
		}
		return false
	}
	toEOL := func() {
		for i < n && s[i] != '\n' {
			i++
		}
	}
	for i < n {
		c := s[i]
		// Separators, blanks, blocks, negation and addresses.
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '{' || c == '}' || c == '!' || c == ',' || c == '$' || c == '~' || c == '+':
			i++
			continue
		case c >= '0' && c <= '9':
			i++
			continue
		case c == '/':
			i++
			if !skipRegex('/') {
				return "?"
			}
			for i < n && (s[i] == 'I' || s[i] == 'M') {
				i++
			}
			continue
		case c == '\\':
			if i+1 >= n {
				return "?"
			}
			d := s[i+1]
			i += 2
			if !skipRegex(d) {
				return "?"
			}
			continue
		case c == '#':
			toEOL()
			continue
		}
		i++
		switch c {
		case 'e':
			return "e"
		case 'w', 'W':
			return string(c)
		case 'r', 'R', 'a', 'i', 'c', 'b', 't', 'T', ':', 'v':
			// a filename, text or a label up to the end of the line (or
			// ';' for labels and branches).
			for i < n && s[i] != '\n' && !(s[i] == ';' && (c == 'b' || c == 't' || c == 'T' || c == 'v')) {
				if c == 'a' || c == 'i' || c == 'c' {
					if s[i] == '\\' {
						i++
					}
				}
				i++
			}
		case 'q', 'Q', 'l', 'L':
			for i < n && s[i] >= '0' && s[i] <= '9' {
				i++
			}
		case 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', 'F', '=':
		case 's', 'y':
			if i >= n || s[i] == '\n' || s[i] == '\\' {
				return "?"
			}
			d := s[i]
			i++
			// The pattern, then the replacement.
			for range 2 {
				if !skipRegex(d) {
					return "?"
				}
			}
			if c == 'y' {
				continue
			}
			for i < n {
				f := s[i]
				if f == 'e' {
					return "s///e"
				}
				if f == 'w' {
					return "s///w"
				}
				if f == 'g' || f == 'p' || f == 'i' || f == 'I' || f == 'm' || f == 'M' || f >= '0' && f <= '9' {
					i++
					continue
				}
				break
			}
		default:
			return "?"
		}
	}
	return ""
}

// awkWidening flags awk programs that run commands (system(), pipes),
// write files (print > file), or come from a file or load extensions.
func awkWidening(name string, args []string) (string, string) {
	opts, operands := scanOptions(args, optSyntax{shortArg: "FvfEilWe", longArg: []string{"file", "exec", "include", "load", "source", "field-separator", "assign"}})
	var progs []string
	for _, o := range opts {
		switch {
		case o.name == "-f" || o.name == "-E" || o.name == "-i" || o.name == "-l" ||
			longMatch(o.name, true, "file", "exec", "include", "load"):
			return o.name, "makes " + name + " run a program from a file or load an extension"
		case o.name == "-e" || longMatch(o.name, true, "source"):
			progs = append(progs, o.value)
		}
	}
	if len(progs) == 0 && len(operands) > 0 {
		progs = append(progs, operands[0])
	}
	for _, p := range progs {
		switch {
		case strings.Contains(p, "system"):
			return "system()", "makes " + name + " run a command"
		case strings.Contains(p, "|"):
			return "|", "makes " + name + " run a command through a pipe"
		case strings.Contains(p, "@load"):
			return "@load", "makes " + name + " load an extension"
		case printRedirect(p):
			return "print >", "makes " + name + " write a file"
		}
	}
	return "", ""
}

// printRedirect reports a print or printf statement followed by ">"
// before the statement ends (a file redirection; a comparison inside a
// print must be parenthesised in awk, so this errs towards refusing).
func printRedirect(p string) bool {
	for i := 0; i+5 <= len(p); i++ {
		if p[i:i+5] != "print" {
			continue
		}
		for j := i + 5; j < len(p); j++ {
			switch p[j] {
			case ';', '}', '\n':
				j = len(p)
			case '>':
				return true
			}
		}
	}
	return false
}

// toStdout reports an output file that is standard output or /dev/null.
func toStdout(v string) bool {
	return v == "-" || v == "/dev/null" || v == "/dev/stdout"
}
