package danger

import (
	"testing"
)

// levelOf returns the highest level the default detector gives line, and
// whether rule is among its warnings.
func levelOf(d *Detector, line, rule string) (Level, bool, bool) {
	ws := d.Check(line)
	lvl, ok := MaxLevel(ws)
	found := false
	for _, w := range ws {
		found = found || w.Pattern.Name == rule
	}
	return lvl, ok, found
}

// ruleHit is a line, a rule, and whether the default detector gives the
// line that rule.
type ruleHit struct {
	line, rule string
	hit        bool
}

// checkHits checks each case with the default detector.
func checkHits(t *testing.T, cases []ruleHit) {
	t.Helper()
	d := Default()
	for _, c := range cases {
		if _, _, found := levelOf(d, c.line, c.rule); found != c.hit {
			t.Errorf("%q: %s %v, want %v", c.line, c.rule, found, c.hit)
		}
	}
}

// wantAtLeast checks that the detector gives each line min or above.
func wantAtLeast(t *testing.T, d *Detector, min Level, lines ...string) {
	t.Helper()
	for _, line := range lines {
		if lvl, ok := d.MaxLevel(line); !ok || lvl < min {
			t.Errorf("%q: %v %v, want %v at least", line, lvl, ok, min)
		}
	}
}

// wantNothing checks that the detector gives no line any warning.
func wantNothing(t *testing.T, d *Detector, lines ...string) {
	t.Helper()
	for _, line := range lines {
		if ws := d.Check(line); len(ws) > 0 {
			t.Errorf("%q: %v, want nothing", line, ws)
		}
	}
}

func TestParseVolume(t *testing.T) {
	type mountCase struct {
		spec string
		want hostMount
		ok   bool
	}
	for _, f := range []struct {
		name  string
		parse func(string) (hostMount, bool)
		cases []mountCase
	}{
		{"parseVolume", parseVolume, []mountCase{
			{"/:/host", hostMount{src: "/", dst: "/host"}, true},
			{"/etc:/mnt/etc:ro", hostMount{src: "/etc", dst: "/mnt/etc", ro: true}, true},
			{`"$HOME":/h`, hostMount{src: "$HOME", dst: "/h"}, true},
			{"${HOME}/.aws:/root/.aws:ro,Z", hostMount{src: "$HOME/.aws", dst: "/root/.aws", ro: true}, true},
			{"~/.cache/pip:/root/.cache/pip", hostMount{src: "~/.cache/pip", dst: "/root/.cache/pip"}, true},
			{"./data:/data/", hostMount{src: "./data", dst: "/data"}, true},
			{"pgdata:/var/lib/postgresql/data", hostMount{}, false},
			{"/data", hostMount{}, false},
		}},
		{"parseMountOpt", parseMountOpt, []mountCase{
			{"type=bind,source=/,target=/host", hostMount{src: "/", dst: "/host"}, true},
			{"type=bind,src=/home,dst=/h,readonly", hostMount{src: "/home", dst: "/h", ro: true}, true},
			{"type=volume,source=data,target=/data", hostMount{}, false},
			{"source=/,target=/host", hostMount{}, false},
		}},
	} {
		for _, c := range f.cases {
			got, ok := f.parse(c.spec)
			if ok != c.ok || got != c.want {
				t.Errorf("%s(%q) = %+v, %v; want %+v, %v", f.name, c.spec, got, ok, c.want, c.ok)
			}
		}
	}
}

func TestMapToHost(t *testing.T) {
	mounts := []hostMount{{src: "/", dst: "/host"}, {src: "$HOME", dst: "/h"}, {src: "/srv/data", dst: "/host/data"}, {src: "/x", dst: "/"}}
	for p, want := range map[string]string{
		"/host": "/", "/host/etc": "/etc", "/host/data/db": "/srv/data/db", "/h": "$HOME", "/h/.ssh": "$HOME/.ssh",
		"/hostile": "", "/tmp": "", "/": "",
	} {
		got, ok := mapToHost(p, mounts)
		if ok != (want != "") || got != want {
			t.Errorf("mapToHost(%q) = %q, %v; want %q", p, got, ok, want)
		}
	}
}

// A command run in a container is checked as the command it is on the
// host, through the container's mounts.
func TestContainerHostPaths(t *testing.T) {
	d := Default()
	for _, c := range []struct {
		line, rule string
		want       Level
	}{
		{"docker run -v /:/host alpine rm -rf /host", "rm_rf_root", Critical},
		{"docker run --rm -v /:/host alpine rm -rf /host/etc", "rm_rf_system", Critical},
		{"docker run --volume=/:/host alpine rm -rf /host/usr", "rm_rf_system", Critical},
		{"podman run --rm -v /:/mnt:Z fedora chroot /mnt rm -rf /var/lib", "rm_rf_system", Critical},
		{"docker run -it --rm -v /:/host ubuntu chroot /host rm -rf /", "rm_rf_root", Critical},
		{"docker run --rm -v \"$HOME\":/h busybox sh -c 'rm -rf /h/*'", "rm_rf_home", Critical},
		{"docker run --rm -v $HOME:/data alpine rm -rf /data", "rm_rf_home", Critical},
		{"docker run --rm -v ~/:/data alpine rm -rf /data", "rm_rf_home", Critical},
		{"sudo docker run --rm --mount type=bind,source=/home,target=/h alpine rm -rf /h", "rm_rf_system", Critical},
		{"docker container run -v /:/host alpine rm -rf /host", "rm_rf_root", Critical},
		{"nerdctl run --rm -v /:/host alpine rm -rf /host/home", "rm_rf_system", Critical},
		{"docker -H ssh://me@box run -v /:/host alpine rm -rf /host", "rm_rf_root", Critical},
		{"docker run --rm -v ~/.aws:/root/.aws:ro amazon/aws-cli s3 rm s3://logs --recursive", "cloud_storage_delete", High},
		{"docker run --privileged --pid=host -it alpine nsenter -t 1 -m -u -n -i sh", "container_host_escape", High},
		{"docker run -v /var/run/docker.sock:/var/run/docker.sock docker:cli docker volume prune -f", "container_volume_delete", High},
	} {
		lvl, _, found := levelOf(d, c.line, c.rule)
		if !found || lvl < c.want {
			t.Errorf("%q: level %v, %s found %v; want %v with it", c.line, lvl, c.rule, found, c.want)
		}
	}
	for _, c := range []struct {
		line string
		max  Level
	}{
		{`docker run --rm -v "$PWD/build":/out alpine rm -rf /out/tmp`, Low},
		{`docker run --rm -v /srv/app:/app alpine rm -rf /app/cache`, Low},
		{`docker run --rm -v /:/host:ro alpine ls /host`, Medium},
		{`docker run --rm -v pgdata:/var/lib/postgresql/data postgres:16`, Low},
		{`docker run --rm -it -v "$PWD":/app -w /app node:20 npm test`, Low},
	} {
		if lvl, ok := d.MaxLevel(c.line); ok && lvl > c.max {
			t.Errorf("%q: %v, want at most %v", c.line, lvl, c.max)
		}
	}
}

// Destructive commands run on many hosts are High at least; the same
// command on one host, or a harmless one on many, is not.
func TestFanout(t *testing.T) {
	d := Default()
	wantAtLeast(t, d, High,
		"ansible all -m shell -a 'rm -rf /srv/cache'",
		"ansible all -a 'rm -rf /srv/cache'",
		"ansible -m ansible.builtin.shell -a 'rm -rf /srv/cache' all",
		"salt '*' cmd.run 'rm -rf /srv/cache'",
		"salt-ssh 'web*' cmd.run 'sudo reboot'",
		"pssh -h hosts.txt -i 'rm -rf /srv/cache'",
		"parallel-ssh -h hosts.txt 'systemctl stop nginx'",
		"pdsh -w node[1-9] 'rm -rf /srv/cache'",
		"clush -a 'sudo shutdown -h now'",
		"mussh -h a b -c 'rm -f /etc/motd'",
		"knife ssh 'role:web' 'sudo reboot'",
		"fab -H web1,web2 -- sudo reboot",
		"for h in $(cat hosts); do ssh $h 'rm -rf /srv/cache'; done",
		"for h in a b c; do ssh \"$h\" 'sudo systemctl disable --now nginx'; done",
		"while read -r h; do ssh -n \"$h\" reboot; done < hosts",
		"cat hosts | xargs -I{} ssh {} 'rm -rf /srv/cache'",
		"xargs -a hosts -I% sh -c 'ssh % \"pkill -9 java\"'",
		"parallel ssh {} 'rm -rf /srv/cache' ::: a b c",
		"kubectl get pods -o name | xargs -I{} kubectl exec {} -- rm -rf /data",
		"ansible all -m file -a 'path=/srv state=absent'",
		"salt '*' pkg.remove nginx",
	)
	for _, line := range []string{
		"ansible all -m ping",
		"ansible all -m shell -a 'uptime'",
		"salt '*' cmd.run 'df -h'",
		"pssh -h hosts.txt -i 'uptime'",
		"ssh web1 'sudo systemctl restart nginx'",
		"for f in a b; do ssh web1 \"rm -f /tmp/$f\"; done",
		"for h in a b; do ssh \"$h\" 'systemctl status nginx'; done",
		"parallel ssh {} uptime ::: a b",
		"ansible all -m file -a 'path=/srv state=absent' --check",
	} {
		if lvl, ok := d.MaxLevel(line); ok && lvl >= High {
			t.Errorf("%q: %v, want below High", line, lvl)
		}
	}
}

// A destructive act on a target named as production is Critical; the same
// act elsewhere is High, and a harmless command on production nothing.
func TestProductionTargets(t *testing.T) {
	d := Default()
	for _, c := range []struct {
		line string
		want Level
	}{
		{"psql -h prod-db -c 'DROP TABLE users'", Critical},
		{"psql -h staging-db -c 'DROP TABLE users'", High},
		{"psql -c 'DROP TABLE products' shop", High},
		{"RAILS_ENV=production bin/rails db:drop", Critical},
		{"bin/rails db:drop", High},
		{"kubectl delete ns production", Critical},
		{"kubectl delete ns preprod", High},
		{"terraform -chdir=envs/prod destroy", Critical},
		{"terraform -chdir=envs/dev destroy", High},
		{"docker volume rm prod_pgdata", Critical},
	} {
		if lvl, _ := d.MaxLevel(c.line); lvl != c.want {
			t.Errorf("%q: %v, want %v", c.line, lvl, c.want)
		}
	}
	wantNothing(t, d, "psql -h prod-db -c 'SELECT 1'", "kubectl get pods -n production", "terraform plan -var-file=prod.tfvars")
}

func TestFanoutLoopTarget(t *testing.T) {
	const rule = "fleet_fanout_destructive"
	checkHits(t, []ruleHit{
		{"for h in a b; do ssh $h rm -rf /srv/x; done", rule, true},
		{"for h in a b; do ssh -p 2222 -l root \"$h\" rm -rf /srv/x; done", rule, true},
		{"for p in $(kubectl get pods -o name); do kubectl exec $p -- rm -rf /srv/x; done", rule, true},
		{"for f in a b; do ssh web1 rm -rf /srv/$f; done", rule, false},
		{"for f in a b; do kubectl exec web-0 -- rm -rf /srv/$f; done", rule, false},
	})
}

// Subcommands of programs these packs name that run the rest of their
// argv (rules naming a program stop the detector from reading its argv as
// a possible command, see argvrunner.go).
func TestSubcommandRuns(t *testing.T) {
	checkHits(t, []ruleHit{
		{"kubectl exec mypod rm -rf /", "rm_rf_root", true},
		{"kubectl exec -it mypod -c main rm -rf /", "rm_rf_root", true},
		{"kubectl exec -n prod mypod -- rm -rf /", "rm_rf_root", true},
		{"oc rsh mypod rm -rf /", "rm_rf_root", true},
		{"heroku run -a shop rm -rf /", "rm_rf_root", true},
		{"heroku run 'rm -rf ~' -a shop", "rm_rf_home", true},
		{"sst shell -- rm -rf /", "rm_rf_root", true},
		{"minikube ssh 'sudo rm -rf /'", "rm_rf_root", true},
		{"minikube kubectl -- delete ns payments", "k8s_delete_namespace", true},
		{"consul exec -node web 'rm -rf /srv/x'", "fleet_fanout_destructive", true},
		{"kubectl exec mypod ls /", "rm_rf_root", false},
		{"heroku run bash -a shop", "rm_rf_root", false},
		{"kubectl get pods rm -rf /", "rm_rf_root", false},
	})
}
