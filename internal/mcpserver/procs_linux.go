//go:build linux

package mcpserver

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// RunVar is the variable that marks every process a command starts: its
// value is a token of that one run. A process the server adopted (its
// parent exited) is traced back to its command through it.
const RunVar = "SHELLGUARD_MCP_RUN"

// killRounds bounds the rounds of kill: each looks for the processes of a
// command that are still alive, and kills them. A process that forks
// between the look and the kill has its child found in the next round;
// a process stuck in the kernel (state D) may outlast them all.
const killRounds = 200

// procTable tracks the processes of the commands a server runs.
type procTable struct {
	// subreaper: the process is a child subreaper, so every process a
	// command starts stays in the server's tree.
	subreaper bool
	self      int

	// mu serialises starting a shell (and registering it) with reaping,
	// so that a shell os/exec waits for is never reaped here.
	mu     sync.Mutex
	shells map[int]bool
}

func newProcTable(subreaper bool) *procTable {
	t := &procTable{self: os.Getpid(), shells: map[int]bool{}}
	if subreaper && unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == nil {
		t.subreaper = true
	}
	return t
}

// job is one command line being run.
type job struct {
	t       *procTable
	token   string
	pipeIno uint64 // the output pipe's inode
	shell   int
	start   uint64 // the shell's start time, clock ticks after boot
}

// newJob prepares a run whose output goes to pipe (its write end).
func (t *procTable) newJob(pipe *os.File) (*job, error) {
	var b [12]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil, err
	}
	j := &job{t: t, token: hex.EncodeToString(b[:])}
	var st unix.Stat_t
	if err := unix.Fstat(int(pipe.Fd()), &st); err == nil {
		j.pipeIno = st.Ino
	}
	return j, nil
}

// env returns env with the run marker added.
func (j *job) env(env []string) []string {
	return append(append(make([]string, 0, len(env)+1), env...), RunVar+"="+j.token)
}

// start starts cmd and registers its shell.
func (t *procTable) start(cmd *exec.Cmd, j *job) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := cmd.Start(); err != nil {
		return err
	}
	j.shell = cmd.Process.Pid
	t.shells[j.shell] = true
	if p, ok := readStat(j.shell); ok {
		j.start = p.start
	}
	return nil
}

// finish forgets the shell of j, which os/exec has waited for, and reaps
// the orphans that ended meanwhile.
func (t *procTable) finish(j *job) {
	t.mu.Lock()
	delete(t.shells, j.shell)
	t.mu.Unlock()
	t.reap()
}

// kill kills the shell of j with SIGKILL and every process found to be
// its command's: its process group, its descendants, and (with the
// subreaper) the adopted processes that carry the run's marker or hold
// its output pipe, or that carry no marker and started after the shell,
// with their descendants. It returns when none of them is alive.
func (j *job) kill(cmd *exec.Cmd) error {
	if j.shell <= 0 {
		return nil
	}
	_ = syscall.Kill(-j.shell, syscall.SIGKILL)
	for range killRounds {
		procs := scanProcs()
		targets := j.t.targets(procs, j)
		if len(targets) == 0 {
			break
		}
		for _, pid := range targets {
			signalKill(pid, procs[pid].start)
		}
		j.t.reap()
		time.Sleep(time.Millisecond)
	}
	j.t.reap()
	return nil
}

// killAll kills every process left in the server's tree (the background
// jobs of commands that ended, and what they started), when the server is
// a subreaper; the commands themselves are already gone.
func (t *procTable) killAll() {
	if !t.subreaper {
		return
	}
	for range killRounds {
		procs := scanProcs()
		t.mu.Lock()
		var roots []int
		for pid, p := range procs {
			if p.ppid == t.self && !t.shells[pid] {
				roots = append(roots, pid)
			}
		}
		t.mu.Unlock()
		targets := alive(procs, descendants(procs, roots, nil))
		if len(targets) == 0 {
			break
		}
		for _, pid := range targets {
			signalKill(pid, procs[pid].start)
		}
		t.reap()
		time.Sleep(time.Millisecond)
	}
	t.reap()
}

// targets returns the live processes that belong to j's command.
func (t *procTable) targets(procs map[int]procInfo, j *job) []int {
	var roots []int
	if p, ok := procs[j.shell]; ok && p.start == j.start {
		roots = append(roots, j.shell)
	}
	for pid, p := range procs {
		if p.pgrp == j.shell && pid != t.self {
			roots = append(roots, pid)
		}
	}
	t.mu.Lock()
	others := map[int]bool{}
	for pid := range t.shells {
		if pid != j.shell {
			others[pid] = true
		}
	}
	t.mu.Unlock()
	if t.subreaper {
		for pid, p := range procs {
			if p.ppid != t.self || pid == j.shell || others[pid] || p.state == 'Z' {
				continue
			}
			switch j.owns(pid) {
			case ownYes:
				roots = append(roots, pid)
			case ownUnknown:
				if p.start >= j.start {
					roots = append(roots, pid)
				}
			}
		}
	}
	return alive(procs, descendants(procs, roots, others))
}

type ownership int

const (
	ownUnknown ownership = iota
	ownYes
	ownOther
)

// owns says whether process pid carries j's marker (or another run's), or
// holds j's output pipe.
func (j *job) owns(pid int) ownership {
	if env, err := readLimited("/proc/"+strconv.Itoa(pid)+"/environ", 1<<20); err == nil {
		for _, kv := range bytes.Split(env, []byte{0}) {
			if v, ok := bytes.CutPrefix(kv, []byte(RunVar+"=")); ok {
				if string(v) == j.token {
					return ownYes
				}
				return ownOther
			}
		}
	}
	if j.pipeIno != 0 {
		fdDir := "/proc/" + strconv.Itoa(pid) + "/fd"
		want := "pipe:[" + strconv.FormatUint(j.pipeIno, 10) + "]"
		if ents, err := os.ReadDir(fdDir); err == nil {
			for _, e := range ents {
				if l, err := os.Readlink(fdDir + "/" + e.Name()); err == nil && l == want {
					return ownYes
				}
			}
		}
	}
	return ownUnknown
}

// reap waits for the zombie children of the server that os/exec does not
// wait for: processes the subreaper adopted. It peeks at one zombie child
// at a time (waitid with WNOWAIT) and stops at a shell os/exec will wait
// for (the zombies behind it are reaped on a later call), so it costs a
// system call per zombie rather than a look at every process.
func (t *procTable) reap() {
	if !t.subreaper {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for range 4096 {
		pid := peekZombie()
		if pid <= 0 || t.shells[pid] {
			return
		}
		var ws unix.WaitStatus
		if _, err := unix.Wait4(pid, &ws, unix.WNOHANG, nil); err != nil {
			return
		}
	}
}

// sigchldInfo is siginfo_t as waitid fills it for a child (Linux).
type sigchldInfo struct {
	signo, errno, code, _ int32
	pid, uid, status      int32
	_                     [100]byte
}

// peekZombie returns the pid of a child that has exited and not been
// waited for, without waiting for it, or 0.
func peekZombie() int {
	var si sigchldInfo
	_, _, e := unix.Syscall6(unix.SYS_WAITID, unix.P_ALL, 0, uintptr(unsafe.Pointer(&si)),
		unix.WEXITED|unix.WNOHANG|unix.WNOWAIT, 0, 0)
	if e != 0 {
		return 0
	}
	return int(si.pid)
}

// signalKill sends SIGKILL to pid if it is still the process that started
// at start (a pidfd makes sure the pid was not reused meanwhile).
func signalKill(pid int, start uint64) {
	fd, err := unix.PidfdOpen(pid, 0)
	if err != nil {
		if errors.Is(err, unix.ENOSYS) {
			if p, ok := readStat(pid); ok && p.start == start {
				_ = unix.Kill(pid, unix.SIGKILL)
			}
		}
		return
	}
	defer unix.Close(fd)
	if p, ok := readStat(pid); ok && p.start == start {
		_ = unix.PidfdSendSignal(fd, unix.SIGKILL, nil, 0)
	}
}

// procInfo is what /proc/PID/stat says about a process.
type procInfo struct {
	state byte
	ppid  int
	pgrp  int
	start uint64
}

// scanProcs reads every process's stat.
func scanProcs() map[int]procInfo {
	out := map[int]procInfo{}
	d, err := os.Open("/proc")
	if err != nil {
		return out
	}
	defer d.Close()
	names, _ := d.Readdirnames(-1)
	for _, n := range names {
		pid, err := strconv.Atoi(n)
		if err != nil || pid <= 0 {
			continue
		}
		if p, ok := readStat(pid); ok {
			out[pid] = p
		}
	}
	return out
}

func readStat(pid int) (procInfo, bool) {
	b, err := readLimited("/proc/"+strconv.Itoa(pid)+"/stat", 4096)
	if err != nil {
		return procInfo{}, false
	}
	return parseStat(string(b))
}

// parseStat parses a /proc/PID/stat line: the fields after the command
// name (which may hold spaces and parentheses) are state, ppid, pgrp, and
// starttime is the 22nd field of the line.
func parseStat(s string) (procInfo, bool) {
	end := strings.LastIndexByte(s, ')')
	if end < 0 || end+2 > len(s) {
		return procInfo{}, false
	}
	f := strings.Fields(s[end+2:])
	if len(f) < 20 || len(f[0]) != 1 {
		return procInfo{}, false
	}
	ppid, err1 := strconv.Atoi(f[1])
	pgrp, err2 := strconv.Atoi(f[2])
	start, err3 := strconv.ParseUint(f[19], 10, 64)
	if err1 != nil || err2 != nil || err3 != nil {
		return procInfo{}, false
	}
	return procInfo{state: f[0][0], ppid: ppid, pgrp: pgrp, start: start}, true
}

func readLimited(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, limit))
}

// descendants returns roots and every process below them, never entering
// a process in skip (or the server itself).
func descendants(procs map[int]procInfo, roots []int, skip map[int]bool) []int {
	children := map[int][]int{}
	for pid, p := range procs {
		children[p.ppid] = append(children[p.ppid], pid)
	}
	seen := map[int]bool{}
	var out []int
	queue := append([]int(nil), roots...)
	for len(queue) > 0 {
		pid := queue[0]
		queue = queue[1:]
		if seen[pid] || skip[pid] || pid == os.Getpid() {
			continue
		}
		seen[pid] = true
		out = append(out, pid)
		queue = append(queue, children[pid]...)
	}
	return out
}

// alive keeps the pids that are not zombies.
func alive(procs map[int]procInfo, pids []int) []int {
	out := pids[:0]
	for _, pid := range pids {
		if p, ok := procs[pid]; ok && p.state != 'Z' && p.state != 'X' {
			out = append(out, pid)
		}
	}
	return out
}
