package danger

import (
	"path"
	"strings"

	"github.com/shellguard/shellguard/internal/programs"
	"github.com/shellguard/shellguard/internal/shquote"
	"github.com/shellguard/shellguard/shellparse"
)

// The containers pack's checks (danger/checks.toml): what a container is
// given of the host (docker run --privileged, --pid=host, -v /:/host), and
// the host paths a command run in the container reaches through its
// mounts.

// containerRun is what a docker/podman/nerdctl run or create gives the
// container of the host.
type containerRun struct {
	mounts                         []hostMount
	privileged, pidHost, hostAdmin bool
	// image is the index in argv of the image word: the container's
	// command follows it.
	image int
}

// hostMount is a bind mount: the host's src at the container's dst. src
// may be dynamic ($HOME, $(pwd)), written without quotes or braces.
type hostMount struct {
	src, dst string
	ro       bool
}

func containerRunner(name string) bool {
	switch name {
	case "docker", "podman", "podman-remote", "nerdctl":
		return true
	}
	return false
}

// maxMounts bounds the mounts read from one invocation, maxRunOptions the
// options (each command run in the container reads them again).
const maxMounts, maxRunOptions = 64, 256

// parseContainerRun reads invocation k's argv as docker run or create
// (also container run/create); ok is false for other subcommands.
func parseContainerRun(sc *scan, k int) (cr containerRun, ok bool) {
	name := sc.name(k)
	if !containerRunner(name) {
		return cr, false
	}
	args := sc.args(k)
	p := programs.Lookup(name)
	s := scannerFor(p, args[1:], "")
	for n := 0; ; n++ {
		it, more := s.Next()
		if !more {
			return cr, false
		}
		if n > maxRunOptions {
			// More options than any real run has: what the container
			// is given cannot be read within bounds, so it is taken to
			// be given the host.
			cr.hostAdmin = true
			return cr, false
		}
		switch it.Kind {
		case programs.Operand:
			if it.Sub {
				continue
			}
			switch s.Path() {
			case "run", "create", "container run", "container create":
				cr.image = it.Word + 1
				return cr, true
			}
			return cr, false
		case programs.EndOfOptions:
			return cr, false
		case programs.Option:
			v := it.Value
			switch it.Name {
			case "--privileged":
				cr.privileged = v == "" || v == "true"
			case "--pid":
				cr.pidHost = cr.pidHost || v == "host"
			case "--cap-add":
				switch strings.ToUpper(strings.TrimPrefix(strings.ToUpper(v), "CAP_")) {
				case "SYS_ADMIN", "ALL", "SYS_MODULE", "SYS_PTRACE", "SYS_RAWIO", "DAC_READ_SEARCH":
					cr.hostAdmin = true
				}
			case "--security-opt":
				lv := strings.ToLower(strings.ReplaceAll(v, ":", "="))
				if strings.HasSuffix(lv, "=unconfined") || lv == "label=disable" {
					cr.hostAdmin = true
				}
			case "--userns":
				cr.hostAdmin = cr.hostAdmin || v == "host"
			case "-v", "--volume":
				if m, ok := parseVolume(v); ok && len(cr.mounts) < maxMounts {
					cr.mounts = append(cr.mounts, m)
				}
			case "--mount":
				if m, ok := parseMountOpt(v); ok && len(cr.mounts) < maxMounts {
					cr.mounts = append(cr.mounts, m)
				}
			}
		}
	}
}

// parseVolume reads -v SRC:DST[:OPTS]; a named volume (no path) is not a
// host path.
func parseVolume(v string) (hostMount, bool) {
	if strings.ContainsAny(v, `"'{}`) {
		v = strings.Map(func(r rune) rune {
			if r == '"' || r == '\'' || r == '{' || r == '}' {
				return -1
			}
			return r
		}, v)
	}
	src, rest, ok := strings.Cut(v, ":")
	if !ok || !hostPathLike(src) || !strings.HasPrefix(rest, "/") {
		return hostMount{}, false
	}
	dst, opts, _ := strings.Cut(rest, ":")
	m := hostMount{src: src, dst: path.Clean(dst)}
	for opts != "" {
		var o string
		o, opts, _ = strings.Cut(opts, ",")
		m.ro = m.ro || o == "ro" || o == "readonly"
	}
	return m, true
}

// parseMountOpt reads --mount type=bind,source=SRC,target=DST[,readonly].
func parseMountOpt(v string) (hostMount, bool) {
	var m hostMount
	bind := false
	for _, kv := range strings.Split(v, ",") {
		k, val, _ := strings.Cut(kv, "=")
		val = strings.Trim(val, `"'`)
		switch strings.ToLower(k) {
		case "type":
			bind = val == "bind"
		case "source", "src":
			m.src = val
		case "target", "destination", "dst":
			m.dst = path.Clean(val)
		case "readonly", "ro":
			m.ro = val == "" || val == "true" || val == "1"
		}
	}
	if !bind || !hostPathLike(m.src) || !strings.HasPrefix(m.dst, "/") {
		return hostMount{}, false
	}
	return m, true
}

// hostPathLike reports a mount source that names a host path rather than
// a named volume.
func hostPathLike(src string) bool {
	return src != "" && (src[0] == '/' || src[0] == '~' || src[0] == '$' || src[0] == '.' || src[0] == '`')
}

// sensitiveMount reports a host source that gives the container the host:
// its root, a system directory, the homes, the Docker socket.
func sensitiveMount(src string) bool {
	switch path.Clean(src) {
	case "/", "/etc", "/root", "/boot", "/dev", "/proc", "/sys", "/usr", "/bin", "/sbin", "/lib", "/lib64", "/var",
		"/var/lib", "/var/lib/docker", "/var/run/docker.sock", "/run/docker.sock", "/run", "/var/run", "/home",
		"/Users", "~", "$HOME", "$USERPROFILE":
		return true
	}
	return false
}

// checkContainerHostAccess: a container given the host: privileged, the
// host's PID namespace, admin capabilities or no confinement, or a mount
// of the host's root, a system directory, the homes or the Docker socket.
func checkContainerHostAccess(sc *scan, i int) bool {
	cr, ok := parseContainerRun(sc, i)
	if !ok {
		return cr.hostAdmin
	}
	if cr.privileged || cr.pidHost || cr.hostAdmin {
		return true
	}
	for _, m := range cr.mounts {
		if sensitiveMount(m.src) {
			return true
		}
	}
	return false
}

// checkContainerHostEscape: a command in the container that leaves it for
// the host: nsenter into PID 1's namespaces with the host's PID namespace
// shared, or chroot into a mount of the host's root.
func checkContainerHostEscape(sc *scan, i int) bool {
	cr, ok := parseContainerRun(sc, i)
	if !ok {
		return false
	}
	res := sc.res
	for j := i + 1; j < len(res.Invocations); j++ {
		if !descendsFrom(res, j, i) {
			continue
		}
		inv := &res.Invocations[j]
		if root := chrootDir(inv); root != "" {
			if host, ok := mapToHost(root, cr.mounts); ok && path.Clean(host) == "/" {
				return true
			}
		}
		if cr.pidHost && sc.name(j) == "nsenter" && nsenterPID1(sc.args(j)) {
			return true
		}
	}
	return false
}

// descendsFrom reports whether invocation j was run by invocation i
// (through Parent links).
func descendsFrom(res *shellparse.Result, j, i int) bool {
	for k, guard := j, 0; k >= 0 && k < len(res.Invocations) && guard < 64; guard++ {
		p := res.Invocations[k].Parent
		if p == i {
			return true
		}
		if p == k {
			return false
		}
		k = p
	}
	return false
}

// nsenterPID1 reports nsenter -t 1 (--target 1, --target=1, -t1).
func nsenterPID1(args []shellparse.Arg) bool {
	for k := 1; k < len(args); k++ {
		v := args[k].Value
		switch {
		case v == "--":
			return false
		case v == "--target=1" || v == "-t1":
			return true
		case (v == "-t" || v == "--target") && k+1 < len(args) && args[k+1].Value == "1":
			return true
		case strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && strings.HasSuffix(v, "t") && k+1 < len(args) && args[k+1].Value == "1":
			return true // -at 1, -mt 1
		}
	}
	return false
}

// chrootDir returns the directory a chroot wrapper of inv runs it in, or
// "".
func chrootDir(inv *shellparse.Invocation) string {
	for _, w := range inv.Wrappers {
		if w.Name != "chroot" {
			continue
		}
		for _, a := range w.Args {
			if strings.HasPrefix(a, "/") {
				return path.Clean(a)
			}
		}
	}
	return ""
}

// mapToHost maps the container path p (absolute, clean) to the host path
// its longest matching mount gives it.
func mapToHost(p string, mounts []hostMount) (string, bool) {
	best := -1
	for k, m := range mounts {
		if m.dst == "/" {
			continue
		}
		if p == m.dst || strings.HasPrefix(p, m.dst+"/") {
			if best < 0 || len(m.dst) > len(mounts[best].dst) {
				best = k
			}
		}
	}
	if best < 0 {
		return "", false
	}
	m := mounts[best]
	rest := strings.TrimPrefix(p[len(m.dst):], "/")
	if rest == "" {
		return m.src, true
	}
	if m.src == "/" {
		return "/" + rest, true
	}
	return strings.TrimSuffix(m.src, "/") + "/" + rest, true
}

// containerAncestor returns the docker/podman run or create invocation
// that runs invocation i in a container, and what it gives the
// container; ok is false when none does (or the nearest container runner
// is an exec, whose mounts are not on the line).
func containerAncestor(sc *scan, i int) (int, containerRun, bool) {
	res := sc.res
	for k, guard := res.Invocations[i].Parent, 0; k >= 0 && k < len(res.Invocations) && guard < 64; guard++ {
		if containerRunner(sc.name(k)) {
			cr, ok := parseContainerRun(sc, k)
			return k, cr, ok
		}
		if res.Invocations[k].Parent == k {
			break
		}
		k = res.Invocations[k].Parent
	}
	return -1, containerRun{}, false
}

// containerHostCommand returns invocation i, run in a container, as the
// command it is on the host: its path arguments and redirections that
// fall in a bind mount rewritten to the host's paths (through a chroot
// wrapper too), or "" when none does.
func containerHostCommand(sc *scan, i int) string {
	inv := &sc.res.Invocations[i]
	if inv.Parent < 0 || sc.name(i) == "" || sc.budget == nil || *sc.budget <= 0 {
		return ""
	}
	// Each command run in a container reads the run's options again: they
	// share the check's re-parse budget (see checkArgvSuffixes), and past
	// it the commands are checked as they are, unmapped.
	k := inv.Parent
	for guard := 0; k >= 0 && k < len(sc.res.Invocations) && !containerRunner(sc.name(k)) && guard < 64; guard++ {
		if sc.res.Invocations[k].Parent == k {
			return ""
		}
		k = sc.res.Invocations[k].Parent
	}
	if k < 0 || k >= len(sc.res.Invocations) || !containerRunner(sc.name(k)) {
		return ""
	}
	*sc.budget--
	_, cr, ok := containerAncestor(sc, i)
	if !ok || len(cr.mounts) == 0 {
		return ""
	}
	root := chrootDir(inv)
	hostOf := func(v string) (string, bool) {
		if !strings.HasPrefix(v, "/") {
			return "", false
		}
		p := path.Clean(v)
		if root != "" {
			p = path.Join(root, p)
		}
		return mapToHost(p, cr.mounts)
	}
	args := sc.args(i)
	var b strings.Builder
	mapped := false
	for k, a := range args {
		if k > 0 {
			b.WriteByte(' ')
		}
		if a.Dynamic {
			b.WriteString(a.Raw)
			continue
		}
		if k > 0 {
			if h, ok := hostOf(a.Value); ok {
				b.WriteString(shquote.Path(h))
				mapped = true
				continue
			}
			if key, v, ok := strings.Cut(a.Value, "="); ok && !strings.Contains(key, "/") {
				if h, ok := hostOf(v); ok {
					b.WriteString(shquote.Quote(key+"=") + shquote.Path(h))
					mapped = true
					continue
				}
			}
		}
		b.WriteString(shquote.Quote(a.Value))
	}
	for _, r := range inv.Redirs {
		if r.Dynamic || r.DuplicatesFd() || r.Op == "<<" || r.Op == "<<-" || r.Op == "<<<" {
			continue
		}
		if h, ok := hostOf(r.Target); ok {
			b.WriteString(" " + r.Fd + r.Op + " " + shquote.Path(h))
			mapped = true
		}
	}
	if !mapped || b.Len() > 1<<16 {
		return ""
	}
	return b.String()
}

// imageEntrypoints are well-known images whose entrypoint is a command-line
// tool: docker run amazon/aws-cli s3 rm ... runs aws s3 rm ....
var imageEntrypoints = map[string]string{
	"amazon/aws-cli":                 "aws",
	"public.ecr.aws/aws-cli/aws-cli": "aws",
	"hashicorp/terraform":            "terraform",
	"ghcr.io/opentofu/opentofu":      "tofu",
	"bitnami/kubectl":                "kubectl",
	"rancher/kubectl":                "kubectl",
	"lachlanevenson/k8s-kubectl":     "kubectl",
	"alpine/helm":                    "helm",
	"minio/mc":                       "mc",
	"rclone/rclone":                  "rclone",
}

// containerToolCommand returns the command a run of a well-known tool
// image runs (amazon/aws-cli s3 rm ... is aws s3 rm ...), or "".
func containerToolCommand(sc *scan, i int) string {
	cr, ok := parseContainerRun(sc, i)
	if !ok {
		return ""
	}
	args := sc.args(i)
	if cr.image >= len(args) || args[cr.image].Dynamic {
		return ""
	}
	for _, a := range args[1:cr.image] {
		if a.Value == "--entrypoint" || strings.HasPrefix(a.Value, "--entrypoint=") {
			return ""
		}
	}
	image := args[cr.image].Value
	if k := strings.LastIndexByte(image, '@'); k > 0 {
		image = image[:k]
	}
	if k := strings.LastIndexByte(image, ':'); k > strings.LastIndexByte(image, '/') {
		image = image[:k]
	}
	image = strings.TrimPrefix(strings.TrimPrefix(image, "docker.io/"), "library/")
	tool := imageEntrypoints[image]
	if tool == "" || cr.image+1 >= len(args) || args[cr.image+1].Value == tool {
		return ""
	}
	var b strings.Builder
	b.WriteString(tool)
	for _, a := range args[cr.image+1:] {
		b.WriteByte(' ')
		if a.Dynamic {
			b.WriteString(a.Raw)
		} else {
			b.WriteString(shquote.Quote(a.Value))
		}
	}
	return b.String()
}

// checkContainerExecDelete: rm -r of an absolute path (not a temporary or
// cache directory) run inside a running container or pod (docker exec,
// compose exec, kubectl exec): a service's data directory, often a volume.
func checkContainerExecDelete(sc *scan, i int) bool {
	if sc.name(i) != "rm" || !inContainerExec(sc.res.Invocations[i].Where) {
		return false
	}
	a := sc.argv(i)
	if !a.hasFlag("-r") {
		return false
	}
	for _, o := range a.pos {
		if !strings.HasPrefix(o, "/") || o == "/" {
			continue
		}
		switch {
		case o == "/tmp" || strings.HasPrefix(o, "/tmp/"), o == "/var/tmp" || strings.HasPrefix(o, "/var/tmp/"),
			strings.HasPrefix(o, "/var/cache/"), strings.Contains(o, "/.cache/"), strings.HasSuffix(o, "/.cache"),
			strings.Contains(o, "/node_modules"), strings.Contains(o, "/__pycache__"):
			continue
		}
		return true
	}
	return false
}

// inContainerExec reports a frame chain inside a command that docker,
// podman, nerdctl, compose, kubectl, oc, lxc or incus exec runs in a
// running container.
func inContainerExec(f *shellparse.Frame) bool {
	for ; f != nil; f = f.Parent {
		if f.Kind != shellparse.FrameRemote || !strings.HasSuffix(f.Detail, " exec") {
			continue
		}
		switch prog, _, _ := strings.Cut(f.Detail, " "); prog {
		case "docker", "podman", "podman-remote", "nerdctl", "docker-compose", "podman-compose", "kubectl", "oc", "lxc", "incus":
			return true
		}
	}
	return false
}
