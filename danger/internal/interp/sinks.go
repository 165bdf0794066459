package interp

// What the calls of each language do: the sinks (shell commands, program
// runs, deletions, writes, downloads, evaluation, sockets, forks) and the
// functions whose values matter (the home directory, paths, the
// environment, decoders). Knowledge is data: one table of rows, each a
// language and the call's qualified name as the evaluator resolves it
// (import aliases followed, require('fs') read as fs, Perl's File::Path
// as File.Path).

type op uint8

const (
	opNone      op = iota
	opShell        // runs its argument a with a shell
	opSystem       // Perl/Ruby system, exec, spawn: one string is a shell command, more an argv
	opPopen        // Python subprocess: a list is an argv, a string a shell command with shell=True
	opExecv        // os.execv(path, argv): the program, then its argv (argv[0] dropped)
	opExecl        // os.execl(path, arg0, args...)
	opSpawn        // node spawn/execFile(cmd, [args], {shell}), execa
	opCmdList      // Deno.run({cmd: [...]}), Bun.spawn([...])
	opDenoCmd      // new Deno.Command(cmd, {args: [...]})
	opPty          // pty.spawn(argv)
	opDelete       // deletes its paths (rec: trees; kw: the option that makes it recursive)
	opRmdir        // removes empty directories
	opOpen         // opens a file: a write when the mode writes, a read otherwise
	opWriteFile    // writes its path argument (app: appends)
	opRead         // reads a file (or a URL): a secret path's content is a secret
	opHome         // the home directory
	opCwd          // the current directory
	opExpand       // expands ~ in its argument
	opJoin         // joins path segments
	opPath         // a path object of its arguments
	opSame         // its argument a, unchanged
	opEnv          // the environment variable named by its argument (none: all of it)
	opEnvAll       // the whole environment
	opTmp          // the temporary directory
	opFetch        // an HTTP request: its value is remote content, its arguments are sent
	opClient       // an HTTP client object
	opEval         // evaluates its argument a as code of the same language
	opImport       // imports the module its argument names
	opGetattr      // getattr(obj, name)
	opSend         // Ruby send/public_send: calls the method its argument names
	opLoad         // runs a file or URL (R source, PHP include)
	opLibrary      // R library(pkg): pkg's functions become bare names
	opDecode64     // base64-decodes its argument
	opDecodeHex    // hex-decodes its argument
	opRot13        // rot13
	opReverse      // reverses a string
	opBuffer       // Buffer.from(s, encoding)
	opChr          // chr(n), String.fromCharCode(n, ...)
	opSocket       // a socket (conn: connected or listening)
	opConnect      // connects or binds a socket
	opDup          // redirects standard streams (dup2)
	opFork         // starts a process without waiting
	opSplit        // shlex.split
	opEndless      // an endless iterator
	opList         // PHP array(...), R c(...)
	opPaste        // R paste/paste0
	opSprintf      // sprintf-style formatting
	opEvalParse    // R parse(text=...): the text is code
)

type act struct {
	op   op
	a    int8   // the argument read (for opDelete: -1 all)
	rec  bool   // opDelete: always recursive
	app  bool   // opWriteFile: appends
	conn bool   // opSocket: connected
	kw   string // opDelete: the option that makes it recursive
}

func (e *ev) lookup(q string) act {
	if x := langAct(e.lang, q); x.op != opNone {
		return x
	}
	if e.star != nil {
		for _, m := range *e.star {
			if x := langAct(e.lang, m+"."+q); x.op != opNone {
				return x
			}
		}
	}
	if i := lastDot(q); i >= 0 {
		return fallbackAct(e.lang, q[i+1:])
	}
	return act{}
}

func lastDot(s string) int {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == '.' {
			return i
		}
	}
	return -1
}

// langAct is what the call q (a qualified name) does in lang.
func langAct(lang Lang, q string) act {
	switch lang {
	case JavaScript:
		q = trimPrefix(q, "require.")
	case Perl:
		q = trimPrefix(q, "CORE.")
	case Ruby:
		q = trimPrefix(q, "Kernel.")
	case R:
		q = trimPrefix(q, "base.")
	}
	if q != "" && q[0] == '.' {
		return act{} // the rows of methods
	}
	return findSink(lang, false, q)
}

// fallbackAct names what a method m of an object the analyser could not
// follow does: the rows ".m".
func fallbackAct(lang Lang, m string) act {
	return findSink(lang, true, m)
}

// findSink returns the act of lang's row named q (method: ".q"), found
// through the hash index sinkSlots.
func findSink(lang Lang, method bool, q string) act {
	h := sinkHash(lang, method, q)
	for range len(sinkSlots) {
		r := sinkSlots[h%uint32(len(sinkSlots))]
		if r == 0 {
			break
		}
		s := &sinks[r-1]
		if s.lang == lang && s.name == q {
			return s.act()
		}
		if method && s.lang == lang && len(s.name) == len(q)+1 && s.name[0] == '.' && s.name[1:] == q {
			return s.act()
		}
		h++
	}
	return act{}
}

// sinkHash is where the search for the row named q (method: ".q") of lang
// starts in sinkSlots: a mix of the language, the length of q and three
// of its bytes, which tell the rows apart well enough at a fraction of the
// cost of hashing every byte.
func sinkHash(lang Lang, method bool, q string) uint32 {
	h := uint32(lang)<<24 ^ uint32(len(q))<<16
	if method {
		h ^= 1 << 31
	}
	if n := len(q); n > 0 {
		h ^= uint32(q[0])<<8 ^ uint32(q[n/2])<<4 ^ uint32(q[n-1])
	}
	return h * 0x9E3779B1 >> 21
}

// sink is what the call name does in lang: its qualified name as the
// evaluator resolves it, or ".m" for a method m of any object.
type sink struct {
	lang Lang
	name string
	op   op
	v    variant
}

// variant is how a sink's act differs from the plain one of its op.
type variant uint8

const (
	vPlain  variant = iota
	vConn           // a connected or listening socket
	vRec            // always recursive
	vAll            // acts on every argument
	vAllRec         // on every argument, recursively
	vKw             // recursive with the option recursive
	vAllKw          // on every argument, recursive with the option recursive
	vApp            // appends
	vArg1           // reads argument 1
	vArg2           // reads argument 2
	vArg3           // reads argument 3
	vPacked         // decodes compressed or serialised data
)

// variants are the act of each variant, but for its op.
var variants = [...]act{
	vConn: {conn: true}, vRec: {rec: true}, vAll: {a: -1}, vAllRec: {a: -1, rec: true},
	vKw: {kw: "recursive"}, vAllKw: {a: -1, kw: "recursive"}, vApp: {app: true},
	vArg1: {a: 1}, vArg2: {a: 2}, vArg3: {a: 3}, vPacked: {a: 99},
}

// act is the act of the row.
func (s *sink) act() act {
	a := variants[s.v]
	a.op = s.op
	return a
}

// sinks are the calls that matter, by language; sinkslots_gen.go indexes
// them (go test -run TestSinkSlots -update . after an edit).
var sinks = [...]sink{
	// Python
	{Python, "os.system", opShell, vPlain},
	{Python, "os.popen", opShell, vPlain},
	{Python, "os.popen2", opShell, vPlain},
	{Python, "os.popen3", opShell, vPlain},
	{Python, "os.popen4", opShell, vPlain},
	{Python, "commands.getoutput", opShell, vPlain},
	{Python, "commands.getstatusoutput", opShell, vPlain},
	{Python, "subprocess.getoutput", opShell, vPlain},
	{Python, "subprocess.getstatusoutput", opShell, vPlain},
	{Python, "platform.popen", opShell, vPlain},
	{Python, "asyncio.create_subprocess_shell", opShell, vPlain},
	{Python, "subprocess.run", opPopen, vPlain},
	{Python, "subprocess.call", opPopen, vPlain},
	{Python, "subprocess.check_call", opPopen, vPlain},
	{Python, "subprocess.check_output", opPopen, vPlain},
	{Python, "subprocess.Popen", opPopen, vPlain},
	{Python, "os.execv", opExecv, vPlain},
	{Python, "os.execve", opExecv, vPlain},
	{Python, "os.execvp", opExecv, vPlain},
	{Python, "os.execvpe", opExecv, vPlain},
	{Python, "os.posix_spawn", opExecv, vPlain},
	{Python, "os.posix_spawnp", opExecv, vPlain},
	{Python, "os.spawnv", opExecv, vArg1},
	{Python, "os.spawnve", opExecv, vArg1},
	{Python, "os.spawnvp", opExecv, vArg1},
	{Python, "os.spawnvpe", opExecv, vArg1},
	{Python, "os.execl", opExecl, vPlain},
	{Python, "os.execle", opExecl, vPlain},
	{Python, "os.execlp", opExecl, vPlain},
	{Python, "os.execlpe", opExecl, vPlain},
	{Python, "os.spawnl", opExecl, vArg1},
	{Python, "os.spawnle", opExecl, vArg1},
	{Python, "os.spawnlp", opExecl, vArg1},
	{Python, "os.spawnlpe", opExecl, vArg1},
	{Python, "asyncio.create_subprocess_exec", opExecl, vAll},
	{Python, "pty.spawn", opPty, vPlain},
	{Python, "shutil.rmtree", opDelete, vRec},
	{Python, "os.remove", opDelete, vPlain},
	{Python, "os.unlink", opDelete, vPlain},
	{Python, "os.rmdir", opRmdir, vPlain},
	{Python, "os.removedirs", opRmdir, vPlain},
	{Python, "open", opOpen, vPlain},
	{Python, "io.open", opOpen, vPlain},
	{Python, "codecs.open", opOpen, vPlain},
	{Python, "builtins.open", opOpen, vPlain},
	{Python, "os.path.expanduser", opExpand, vPlain},
	{Python, "os.path.expandvars", opExpand, vPlain},
	{Python, "os.path.join", opJoin, vPlain},
	{Python, "posixpath.join", opJoin, vPlain},
	{Python, "os.path.abspath", opSame, vPlain},
	{Python, "os.path.realpath", opSame, vPlain},
	{Python, "os.path.normpath", opSame, vPlain},
	{Python, "os.fspath", opSame, vPlain},
	{Python, "str", opSame, vPlain},
	{Python, "os.fsencode", opSame, vPlain},
	{Python, "os.fsdecode", opSame, vPlain},
	{Python, "compile", opSame, vPlain},
	{Python, "pathlib.Path", opPath, vPlain},
	{Python, "Path", opPath, vPlain},
	{Python, "pathlib.PosixPath", opPath, vPlain},
	{Python, "PosixPath", opPath, vPlain},
	{Python, "pathlib.PurePath", opPath, vPlain},
	{Python, "PurePath", opPath, vPlain},
	{Python, "pathlib.PurePosixPath", opPath, vPlain},
	{Python, "os.getcwd", opCwd, vPlain},
	{Python, "os.getcwdb", opCwd, vPlain},
	{Python, "pathlib.Path.cwd", opCwd, vPlain},
	{Python, "Path.cwd", opCwd, vPlain},
	{Python, "pathlib.PosixPath.cwd", opCwd, vPlain},
	{Python, "pathlib.Path.home", opHome, vPlain},
	{Python, "Path.home", opHome, vPlain},
	{Python, "pathlib.PosixPath.home", opHome, vPlain},
	{Python, "os.getenv", opEnv, vPlain},
	{Python, "os.environ.get", opEnv, vPlain},
	{Python, "os.environ.__getitem__", opEnv, vPlain},
	{Python, "os.getenvb", opEnv, vPlain},
	{Python, "dict", opSame, vPlain},
	{Python, "os.environ.copy", opSame, vPlain},
	{Python, "os.environ.items", opSame, vPlain},
	{Python, "tempfile.gettempdir", opTmp, vPlain},
	{Python, "urllib.request.urlopen", opFetch, vPlain},
	{Python, "urllib.urlopen", opFetch, vPlain},
	{Python, "urllib2.urlopen", opFetch, vPlain},
	{Python, "urllib.request.urlretrieve", opFetch, vPlain},
	{Python, "urllib.urlretrieve", opFetch, vPlain},
	{Python, "requests.get", opFetch, vPlain},
	{Python, "requests.post", opFetch, vPlain},
	{Python, "requests.put", opFetch, vPlain},
	{Python, "requests.patch", opFetch, vPlain},
	{Python, "requests.request", opFetch, vPlain},
	{Python, "requests.delete", opFetch, vPlain},
	{Python, "requests.head", opFetch, vPlain},
	{Python, "httpx.get", opFetch, vPlain},
	{Python, "httpx.post", opFetch, vPlain},
	{Python, "httpx.put", opFetch, vPlain},
	{Python, "httpx.patch", opFetch, vPlain},
	{Python, "httpx.request", opFetch, vPlain},
	{Python, "urllib3.request", opFetch, vPlain},
	{Python, "urllib.request.build_opener.open", opFetch, vPlain},
	{Python, "requests.Session", opClient, vPlain},
	{Python, "requests.session", opClient, vPlain},
	{Python, "httpx.Client", opClient, vPlain},
	{Python, "httpx.AsyncClient", opClient, vPlain},
	{Python, "http.client.HTTPConnection", opClient, vPlain},
	{Python, "http.client.HTTPSConnection", opClient, vPlain},
	{Python, "httplib.HTTPConnection", opClient, vPlain},
	{Python, "httplib.HTTPSConnection", opClient, vPlain},
	{Python, "urllib3.PoolManager", opClient, vPlain},
	{Python, "urllib.request.build_opener", opClient, vPlain},
	{Python, "exec", opEval, vPlain},
	{Python, "eval", opEval, vPlain},
	{Python, "builtins.exec", opEval, vPlain},
	{Python, "builtins.eval", opEval, vPlain},
	{Python, "__builtins__.exec", opEval, vPlain},
	{Python, "__builtins__.eval", opEval, vPlain},
	{Python, "__import__", opImport, vPlain},
	{Python, "importlib.import_module", opImport, vPlain},
	{Python, "builtins.__import__", opImport, vPlain},
	{Python, "getattr", opGetattr, vPlain},
	{Python, "builtins.getattr", opGetattr, vPlain},
	{Python, "base64.b64decode", opDecode64, vPlain},
	{Python, "base64.standard_b64decode", opDecode64, vPlain},
	{Python, "base64.urlsafe_b64decode", opDecode64, vPlain},
	{Python, "base64.decodebytes", opDecode64, vPlain},
	{Python, "base64.decodestring", opDecode64, vPlain},
	{Python, "binascii.a2b_base64", opDecode64, vPlain},
	{Python, "binascii.unhexlify", opDecodeHex, vPlain},
	{Python, "binascii.a2b_hex", opDecodeHex, vPlain},
	{Python, "bytes.fromhex", opDecodeHex, vPlain},
	{Python, "bytearray.fromhex", opDecodeHex, vPlain},
	{Python, "codecs.decode", opRot13, vPlain},
	{Python, "chr", opChr, vPlain},
	{Python, "zlib.decompress", opDecode64, vPacked},
	{Python, "gzip.decompress", opDecode64, vPacked},
	{Python, "bz2.decompress", opDecode64, vPacked},
	{Python, "lzma.decompress", opDecode64, vPacked},
	{Python, "marshal.loads", opDecode64, vPacked},
	{Python, "pickle.loads", opDecode64, vPacked},
	{Python, "socket.socket", opSocket, vPlain},
	{Python, "ssl.wrap_socket", opSocket, vPlain},
	{Python, "socket.create_connection", opSocket, vConn},
	{Python, "socket.create_server", opSocket, vConn},
	{Python, "os.dup2", opDup, vPlain},
	{Python, "os.dup", opDup, vPlain},
	{Python, "os.fork", opFork, vPlain},
	{Python, "os.forkpty", opFork, vPlain},
	{Python, "pty.fork", opFork, vPlain},
	{Python, "shlex.split", opSplit, vPlain},
	{Python, "itertools.count", opEndless, vPlain},
	{Python, "itertools.cycle", opEndless, vPlain},
	{Python, "iter", opEndless, vPlain},
	// JavaScript (node, deno, bun, JXA)
	{JavaScript, "child_process.exec", opShell, vPlain},
	{JavaScript, "child_process.execSync", opShell, vPlain},
	{JavaScript, "exec", opShell, vPlain},
	{JavaScript, "execSync", opShell, vPlain},
	{JavaScript, "execaCommand", opShell, vPlain},
	{JavaScript, "execaCommandSync", opShell, vPlain},
	{JavaScript, "execa.execaCommand", opShell, vPlain},
	{JavaScript, "execa.execaCommandSync", opShell, vPlain},
	{JavaScript, "shelljs.exec", opShell, vPlain},
	{JavaScript, "zx.$", opShell, vPlain},
	{JavaScript, "child_process.spawn", opSpawn, vPlain},
	{JavaScript, "child_process.spawnSync", opSpawn, vPlain},
	{JavaScript, "child_process.execFile", opSpawn, vPlain},
	{JavaScript, "child_process.execFileSync", opSpawn, vPlain},
	{JavaScript, "spawn", opSpawn, vPlain},
	{JavaScript, "spawnSync", opSpawn, vPlain},
	{JavaScript, "execFile", opSpawn, vPlain},
	{JavaScript, "execFileSync", opSpawn, vPlain},
	{JavaScript, "execa", opSpawn, vPlain},
	{JavaScript, "execaSync", opSpawn, vPlain},
	{JavaScript, "execa.execa", opSpawn, vPlain},
	{JavaScript, "execa.execaSync", opSpawn, vPlain},
	{JavaScript, "cross-spawn", opSpawn, vPlain},
	{JavaScript, "cross-spawn.sync", opSpawn, vPlain},
	{JavaScript, "child_process.fork", opFork, vPlain},
	{JavaScript, "cluster.fork", opFork, vPlain},
	{JavaScript, "fork", opFork, vPlain},
	{JavaScript, "Deno.run", opCmdList, vPlain},
	{JavaScript, "Bun.spawn", opCmdList, vPlain},
	{JavaScript, "Bun.spawnSync", opCmdList, vPlain},
	{JavaScript, "Deno.Command", opDenoCmd, vPlain},
	{JavaScript, "fs.rmSync", opDelete, vKw},
	{JavaScript, "fs.rm", opDelete, vKw},
	{JavaScript, "fs.promises.rm", opDelete, vKw},
	{JavaScript, "rmSync", opDelete, vKw},
	{JavaScript, "rm", opDelete, vKw},
	{JavaScript, "fs.rmdirSync", opRmdir, vKw},
	{JavaScript, "fs.rmdir", opRmdir, vKw},
	{JavaScript, "fs.promises.rmdir", opRmdir, vKw},
	{JavaScript, "rmdirSync", opRmdir, vKw},
	{JavaScript, "rmdir", opRmdir, vKw},
	{JavaScript, "fs.unlinkSync", opDelete, vPlain},
	{JavaScript, "fs.unlink", opDelete, vPlain},
	{JavaScript, "fs.promises.unlink", opDelete, vPlain},
	{JavaScript, "unlinkSync", opDelete, vPlain},
	{JavaScript, "unlink", opDelete, vPlain},
	{JavaScript, "fs-extra.removeSync", opDelete, vRec},
	{JavaScript, "fs-extra.remove", opDelete, vRec},
	{JavaScript, "fs-extra.emptyDirSync", opDelete, vRec},
	{JavaScript, "fs-extra.emptyDir", opDelete, vRec},
	{JavaScript, "fs-extra.emptydir", opDelete, vRec},
	{JavaScript, "rimraf", opDelete, vRec},
	{JavaScript, "rimraf.sync", opDelete, vRec},
	{JavaScript, "rimrafSync", opDelete, vRec},
	{JavaScript, "rimraf.rimraf", opDelete, vRec},
	{JavaScript, "rimraf.rimrafSync", opDelete, vRec},
	{JavaScript, "rimraf.default", opDelete, vRec},
	{JavaScript, "del", opDelete, vRec},
	{JavaScript, "del.sync", opDelete, vRec},
	{JavaScript, "deleteSync", opDelete, vRec},
	{JavaScript, "deleteAsync", opDelete, vRec},
	{JavaScript, "del.deleteSync", opDelete, vRec},
	{JavaScript, "del.deleteAsync", opDelete, vRec},
	{JavaScript, "removeSync", opDelete, vRec},
	{JavaScript, "emptyDirSync", opDelete, vRec},
	{JavaScript, "Deno.remove", opDelete, vKw},
	{JavaScript, "Deno.removeSync", opDelete, vKw},
	{JavaScript, "shelljs.rm", opDelete, vAll},
	{JavaScript, "shell.rm", opDelete, vAll},
	{JavaScript, "fs.writeFileSync", opWriteFile, vPlain},
	{JavaScript, "fs.writeFile", opWriteFile, vPlain},
	{JavaScript, "fs.promises.writeFile", opWriteFile, vPlain},
	{JavaScript, "writeFileSync", opWriteFile, vPlain},
	{JavaScript, "writeFile", opWriteFile, vPlain},
	{JavaScript, "fs.createWriteStream", opWriteFile, vPlain},
	{JavaScript, "Deno.writeTextFile", opWriteFile, vPlain},
	{JavaScript, "Deno.writeTextFileSync", opWriteFile, vPlain},
	{JavaScript, "Deno.writeFile", opWriteFile, vPlain},
	{JavaScript, "Deno.writeFileSync", opWriteFile, vPlain},
	{JavaScript, "Bun.write", opWriteFile, vPlain},
	{JavaScript, "fs-extra.outputFileSync", opWriteFile, vPlain},
	{JavaScript, "fs.appendFileSync", opWriteFile, vApp},
	{JavaScript, "fs.appendFile", opWriteFile, vApp},
	{JavaScript, "fs.promises.appendFile", opWriteFile, vApp},
	{JavaScript, "appendFileSync", opWriteFile, vApp},
	{JavaScript, "fs.readFileSync", opRead, vPlain},
	{JavaScript, "fs.readFile", opRead, vPlain},
	{JavaScript, "fs.promises.readFile", opRead, vPlain},
	{JavaScript, "readFileSync", opRead, vPlain},
	{JavaScript, "readFile", opRead, vPlain},
	{JavaScript, "Deno.readTextFile", opRead, vPlain},
	{JavaScript, "Deno.readTextFileSync", opRead, vPlain},
	{JavaScript, "Deno.readFile", opRead, vPlain},
	{JavaScript, "Deno.readFileSync", opRead, vPlain},
	{JavaScript, "Bun.file", opPath, vPlain},
	{JavaScript, "process.cwd", opCwd, vPlain},
	{JavaScript, "Deno.cwd", opCwd, vPlain},
	{JavaScript, "os.homedir", opHome, vPlain},
	{JavaScript, "Deno.homeDir", opHome, vPlain},
	{JavaScript, "os.tmpdir", opTmp, vPlain},
	{JavaScript, "path.join", opJoin, vPlain},
	{JavaScript, "path.resolve", opJoin, vPlain},
	{JavaScript, "path.posix.join", opJoin, vPlain},
	{JavaScript, "path.posix.resolve", opJoin, vPlain},
	{JavaScript, "path.normalize", opJoin, vPlain},
	{JavaScript, "path.win32.join", opJoin, vPlain},
	{JavaScript, "String", opSame, vPlain},
	{JavaScript, "decodeURIComponent", opSame, vPlain},
	{JavaScript, "unescape", opSame, vPlain},
	{JavaScript, "Deno.env.get", opEnv, vPlain},
	{JavaScript, "Bun.env.get", opEnv, vPlain},
	{JavaScript, "process.env.get", opEnv, vPlain},
	{JavaScript, "Deno.env.toObject", opSame, vPlain},
	{JavaScript, "Object.entries", opSame, vPlain},
	{JavaScript, "Object.assign", opSame, vPlain},
	{JavaScript, "JSON.stringify", opSame, vPlain},
	{JavaScript, "Object.keys", opSame, vPlain},
	{JavaScript, "fetch", opFetch, vPlain},
	{JavaScript, "axios", opFetch, vPlain},
	{JavaScript, "axios.get", opFetch, vPlain},
	{JavaScript, "axios.post", opFetch, vPlain},
	{JavaScript, "axios.put", opFetch, vPlain},
	{JavaScript, "axios.patch", opFetch, vPlain},
	{JavaScript, "axios.request", opFetch, vPlain},
	{JavaScript, "http.get", opFetch, vPlain},
	{JavaScript, "https.get", opFetch, vPlain},
	{JavaScript, "http.request", opFetch, vPlain},
	{JavaScript, "https.request", opFetch, vPlain},
	{JavaScript, "got", opFetch, vPlain},
	{JavaScript, "got.get", opFetch, vPlain},
	{JavaScript, "got.post", opFetch, vPlain},
	{JavaScript, "node-fetch", opFetch, vPlain},
	{JavaScript, "undici.request", opFetch, vPlain},
	{JavaScript, "undici.fetch", opFetch, vPlain},
	{JavaScript, "superagent.post", opFetch, vPlain},
	{JavaScript, "superagent.get", opFetch, vPlain},
	{JavaScript, "eval", opEval, vPlain},
	{JavaScript, "Function", opEval, vPlain},
	{JavaScript, "vm.runInThisContext", opEval, vPlain},
	{JavaScript, "vm.runInNewContext", opEval, vPlain},
	{JavaScript, "vm.runInContext", opEval, vPlain},
	{JavaScript, "vm.Script", opEval, vPlain},
	{JavaScript, "vm.compileFunction", opEval, vPlain},
	{JavaScript, "globalThis.eval", opEval, vPlain},
	{JavaScript, "window.eval", opEval, vPlain},
	{JavaScript, "setTimeout", opEval, vPlain},
	{JavaScript, "setInterval", opEval, vPlain},
	{JavaScript, "Reflect.apply", opEval, vPlain},
	{JavaScript, "require", opImport, vPlain},
	{JavaScript, "import", opImport, vPlain},
	{JavaScript, "atob", opDecode64, vPlain},
	{JavaScript, "Buffer.atob", opDecode64, vPlain},
	{JavaScript, "Buffer.from", opBuffer, vPlain},
	{JavaScript, "Buffer", opBuffer, vPlain},
	{JavaScript, "buffer.Buffer.from", opBuffer, vPlain},
	{JavaScript, "String.fromCharCode", opChr, vAll},
	{JavaScript, "String.fromCodePoint", opChr, vAll},
	{JavaScript, "net.connect", opSocket, vConn},
	{JavaScript, "net.createConnection", opSocket, vConn},
	{JavaScript, "tls.connect", opSocket, vConn},
	{JavaScript, "net.createServer", opSocket, vConn},
	{JavaScript, "net.Socket", opSocket, vPlain},
	{JavaScript, "dgram.createSocket", opSocket, vPlain},
	// Perl
	{Perl, "system", opSystem, vPlain},
	{Perl, "exec", opSystem, vPlain},
	{Perl, "IPC.Open3.open3", opSystem, vArg3},
	{Perl, "open3", opSystem, vArg3},
	{Perl, "IPC.Open2.open2", opSystem, vArg2},
	{Perl, "open2", opSystem, vArg2},
	{Perl, "IPC.Run.run", opSystem, vPlain},
	{Perl, "readpipe", opShell, vPlain},
	{Perl, "open", opOpen, vPlain},
	{Perl, "unlink", opDelete, vAll},
	{Perl, "File.Remove.remove", opDelete, vAll},
	{Perl, "rmdir", opRmdir, vAll},
	{Perl, "rmtree", opDelete, vAllRec},
	{Perl, "remove_tree", opDelete, vAllRec},
	{Perl, "File.Path.rmtree", opDelete, vAllRec},
	{Perl, "File.Path.remove_tree", opDelete, vAllRec},
	{Perl, "eval", opEval, vPlain},
	{Perl, "evalbytes", opEval, vPlain},
	{Perl, "socket", opSocket, vPlain},
	{Perl, "connect", opConnect, vPlain},
	{Perl, "bind", opConnect, vPlain},
	{Perl, "listen", opConnect, vPlain},
	{Perl, "accept", opConnect, vPlain},
	{Perl, "IO.Socket.INET.new", opSocket, vConn},
	{Perl, "IO.Socket.IP.new", opSocket, vConn},
	{Perl, "IO.Socket.SSL.new", opSocket, vConn},
	{Perl, "IO.Socket.INET6.new", opSocket, vConn},
	{Perl, "IO.Socket.INET", opSocket, vConn},
	{Perl, "IO.Socket.IP", opSocket, vConn},
	{Perl, "IO.Socket.SSL", opSocket, vConn},
	{Perl, "IO.Socket.INET6", opSocket, vConn},
	{Perl, "fork", opFork, vPlain},
	// LWP::Simple's get and getstore count only qualified (or imported
	// with a star): bare, the names are too common.
	{Perl, "LWP.Simple.get", opFetch, vPlain},
	{Perl, "LWP.Simple.getstore", opFetch, vPlain},
	{Perl, "LWP.Simple.getprint", opFetch, vPlain},
	{Perl, "HTTP.Tiny.get", opFetch, vPlain},
	{Perl, "LWP.UserAgent.new", opClient, vPlain},
	{Perl, "HTTP.Tiny.new", opClient, vPlain},
	{Perl, "Mojo.UserAgent.new", opClient, vPlain},
	{Perl, "WWW.Mechanize.new", opClient, vPlain},
	{Perl, "MIME.Base64.decode_base64", opDecode64, vPlain},
	{Perl, "decode_base64", opDecode64, vPlain},
	{Perl, "Cwd.getcwd", opCwd, vPlain},
	{Perl, "Cwd.cwd", opCwd, vPlain},
	{Perl, "getcwd", opCwd, vPlain},
	{Perl, "cwd", opCwd, vPlain},
	{Perl, "Cwd.fastcwd", opCwd, vPlain},
	{Perl, "File.HomeDir.my_home", opHome, vPlain},
	{Perl, "File.HomeDir.home", opHome, vPlain},
	{Perl, "glob", opSame, vPlain},
	{Perl, "File.Spec.rel2abs", opSame, vPlain},
	{Perl, "File.Spec.canonpath", opSame, vPlain},
	{Perl, "Cwd.abs_path", opSame, vPlain},
	{Perl, "Cwd.realpath", opSame, vPlain},
	{Perl, "abs_path", opSame, vPlain},
	{Perl, "File.Spec.catfile", opJoin, vPlain},
	{Perl, "File.Spec.catdir", opJoin, vPlain},
	{Perl, "catfile", opJoin, vPlain},
	{Perl, "catdir", opJoin, vPlain},
	{Perl, "sprintf", opSprintf, vPlain},
	{Perl, "reverse", opReverse, vPlain},
	// Ruby
	{Ruby, "system", opSystem, vPlain},
	{Ruby, "exec", opSystem, vPlain},
	{Ruby, "spawn", opSystem, vPlain},
	{Ruby, "Process.spawn", opSystem, vPlain},
	{Ruby, "Process.exec", opSystem, vPlain},
	{Ruby, "Open3.capture2", opSystem, vPlain},
	{Ruby, "Open3.capture2e", opSystem, vPlain},
	{Ruby, "Open3.capture3", opSystem, vPlain},
	{Ruby, "Open3.popen2", opSystem, vPlain},
	{Ruby, "Open3.popen2e", opSystem, vPlain},
	{Ruby, "Open3.popen3", opSystem, vPlain},
	{Ruby, "Open3.pipeline", opSystem, vPlain},
	{Ruby, "Open3.pipeline_r", opSystem, vPlain},
	{Ruby, "Open3.pipeline_w", opSystem, vPlain},
	{Ruby, "PTY.spawn", opSystem, vPlain},
	{Ruby, "IO.popen", opSystem, vArg1},
	{Ruby, "open", opOpen, vPlain},
	{Ruby, "File.open", opOpen, vPlain},
	{Ruby, "File.new", opOpen, vPlain},
	{Ruby, "IO.open", opOpen, vPlain},
	{Ruby, "URI.open", opFetch, vPlain},
	{Ruby, "OpenURI.open_uri", opFetch, vPlain},
	{Ruby, "Net.HTTP.get", opFetch, vPlain},
	{Ruby, "Net.HTTP.get_response", opFetch, vPlain},
	{Ruby, "Net.HTTP.post", opFetch, vPlain},
	{Ruby, "Net.HTTP.post_form", opFetch, vPlain},
	{Ruby, "Net.HTTP.start", opFetch, vPlain},
	{Ruby, "HTTParty.get", opFetch, vPlain},
	{Ruby, "HTTParty.post", opFetch, vPlain},
	{Ruby, "RestClient.get", opFetch, vPlain},
	{Ruby, "RestClient.post", opFetch, vPlain},
	{Ruby, "Faraday.get", opFetch, vPlain},
	{Ruby, "Faraday.post", opFetch, vPlain},
	{Ruby, "Excon.get", opFetch, vPlain},
	{Ruby, "Excon.post", opFetch, vPlain},
	{Ruby, "HTTP.get", opFetch, vPlain},
	{Ruby, "HTTP.post", opFetch, vPlain},
	{Ruby, "Net.HTTP.new", opFetch, vPlain},
	{Ruby, "FileUtils.rm_rf", opDelete, vAllRec},
	{Ruby, "FileUtils.rm_r", opDelete, vAllRec},
	{Ruby, "FileUtils.remove_dir", opDelete, vAllRec},
	{Ruby, "FileUtils.remove_entry", opDelete, vAllRec},
	{Ruby, "FileUtils.remove_entry_secure", opDelete, vAllRec},
	{Ruby, "FileUtils.rmtree", opDelete, vAllRec},
	{Ruby, "FileUtils.rmrf", opDelete, vAllRec},
	{Ruby, "FileUtils.rm", opDelete, vAll},
	{Ruby, "FileUtils.rm_f", opDelete, vAll},
	{Ruby, "FileUtils.remove", opDelete, vAll},
	{Ruby, "FileUtils.safe_unlink", opDelete, vAll},
	{Ruby, "FileUtils.remove_file", opDelete, vAll},
	{Ruby, "File.delete", opDelete, vAll},
	{Ruby, "File.unlink", opDelete, vAll},
	{Ruby, "Dir.delete", opRmdir, vAll},
	{Ruby, "Dir.rmdir", opRmdir, vAll},
	{Ruby, "Dir.unlink", opRmdir, vAll},
	{Ruby, "FileUtils.rmdir", opRmdir, vAll},
	{Ruby, "File.write", opWriteFile, vPlain},
	{Ruby, "IO.write", opWriteFile, vPlain},
	{Ruby, "File.binwrite", opWriteFile, vPlain},
	{Ruby, "IO.binwrite", opWriteFile, vPlain},
	{Ruby, "File.read", opRead, vPlain},
	{Ruby, "IO.read", opRead, vPlain},
	{Ruby, "File.readlines", opRead, vPlain},
	{Ruby, "IO.readlines", opRead, vPlain},
	{Ruby, "File.binread", opRead, vPlain},
	{Ruby, "Dir.pwd", opCwd, vPlain},
	{Ruby, "Dir.getwd", opCwd, vPlain},
	{Ruby, "Dir.home", opHome, vPlain},
	{Ruby, "Etc.getpwuid.dir", opHome, vPlain},
	{Ruby, "Gem.user_home", opHome, vPlain},
	{Ruby, "File.expand_path", opExpand, vPlain},
	{Ruby, "File.absolute_path", opExpand, vPlain},
	{Ruby, "File.realpath", opExpand, vPlain},
	{Ruby, "File.join", opJoin, vPlain},
	{Ruby, "Pathname.new", opPath, vPlain},
	{Ruby, "Pathname", opPath, vPlain},
	{Ruby, "ENV.fetch", opEnv, vPlain},
	{Ruby, "ENV.[]", opEnv, vPlain},
	{Ruby, "ENV.to_h", opEnvAll, vPlain},
	{Ruby, "ENV.to_a", opEnvAll, vPlain},
	{Ruby, "ENV.inspect", opEnvAll, vPlain},
	{Ruby, "ENV.to_hash", opEnvAll, vPlain},
	{Ruby, "Dir.tmpdir", opTmp, vPlain},
	{Ruby, "eval", opEval, vPlain},
	{Ruby, "instance_eval", opEval, vPlain},
	{Ruby, "class_eval", opEval, vPlain},
	{Ruby, "module_eval", opEval, vPlain},
	{Ruby, "binding.eval", opEval, vPlain},
	{Ruby, "RubyVM.InstructionSequence.compile", opEval, vPlain},
	{Ruby, "TOPLEVEL_BINDING.eval", opEval, vPlain},
	{Ruby, "send", opSend, vPlain},
	{Ruby, "public_send", opSend, vPlain},
	{Ruby, "__send__", opSend, vPlain},
	{Ruby, "Object.send", opSend, vPlain},
	{Ruby, "TCPSocket.new", opSocket, vConn},
	{Ruby, "TCPSocket.open", opSocket, vConn},
	{Ruby, "Socket.tcp", opSocket, vConn},
	{Ruby, "TCPServer.new", opSocket, vConn},
	{Ruby, "TCPServer.open", opSocket, vConn},
	{Ruby, "UNIXSocket.new", opSocket, vConn},
	{Ruby, "OpenSSL.SSL.SSLSocket.new", opSocket, vConn},
	{Ruby, "Socket.new", opSocket, vPlain},
	{Ruby, "fork", opFork, vPlain},
	{Ruby, "Process.fork", opFork, vPlain},
	{Ruby, "Base64.decode64", opDecode64, vPlain},
	{Ruby, "Base64.strict_decode64", opDecode64, vPlain},
	{Ruby, "Base64.urlsafe_decode64", opDecode64, vPlain},
	{Ruby, "format", opSprintf, vPlain},
	{Ruby, "sprintf", opSprintf, vPlain},
	{Ruby, "load", opLoad, vPlain},
	// PHP
	{PHP, "system", opShell, vPlain},
	{PHP, "exec", opShell, vPlain},
	{PHP, "shell_exec", opShell, vPlain},
	{PHP, "passthru", opShell, vPlain},
	{PHP, "popen", opShell, vPlain},
	{PHP, "proc_open", opShell, vPlain},
	{PHP, "expect_popen", opShell, vPlain},
	{PHP, "pcntl_exec", opExecv, vPlain},
	{PHP, "unlink", opDelete, vPlain},
	{PHP, "rmdir", opRmdir, vPlain},
	{PHP, "fopen", opOpen, vPlain},
	{PHP, "SplFileObject", opOpen, vPlain},
	{PHP, "file_put_contents", opWriteFile, vPlain},
	{PHP, "file_get_contents", opRead, vPlain},
	{PHP, "file", opRead, vPlain},
	{PHP, "readfile", opRead, vPlain},
	{PHP, "fread", opRead, vPlain},
	{PHP, "stream_get_contents", opRead, vPlain},
	{PHP, "getenv", opEnv, vPlain},
	{PHP, "eval", opEval, vPlain},
	{PHP, "assert", opEval, vPlain},
	{PHP, "create_function", opEval, vPlain},
	{PHP, "include", opLoad, vPlain},
	{PHP, "require", opLoad, vPlain},
	{PHP, "include_once", opLoad, vPlain},
	{PHP, "require_once", opLoad, vPlain},
	{PHP, "fsockopen", opSocket, vConn},
	{PHP, "pfsockopen", opSocket, vConn},
	{PHP, "stream_socket_client", opSocket, vConn},
	{PHP, "stream_socket_server", opSocket, vConn},
	{PHP, "socket_create", opSocket, vPlain},
	{PHP, "socket_connect", opConnect, vPlain},
	{PHP, "socket_bind", opConnect, vPlain},
	{PHP, "socket_listen", opConnect, vPlain},
	{PHP, "curl_exec", opFetch, vPlain},
	{PHP, "curl_multi_exec", opFetch, vPlain},
	{PHP, "http_get", opFetch, vPlain},
	{PHP, "http_post_data", opFetch, vPlain},
	{PHP, "curl_setopt", opFetch, vPlain},
	{PHP, "curl_setopt_array", opFetch, vPlain},
	{PHP, "stream_context_create", opFetch, vPlain},
	{PHP, "curl_init", opClient, vPlain},
	{PHP, "base64_decode", opDecode64, vPlain},
	{PHP, "hex2bin", opDecodeHex, vPlain},
	{PHP, "str_rot13", opRot13, vPlain},
	{PHP, "strrev", opReverse, vPlain},
	{PHP, "gzinflate", opDecode64, vPacked},
	{PHP, "gzuncompress", opDecode64, vPacked},
	{PHP, "gzdecode", opDecode64, vPacked},
	{PHP, "convert_uudecode", opDecode64, vPacked},
	{PHP, "chr", opChr, vPlain},
	{PHP, "pcntl_fork", opFork, vPlain},
	{PHP, "array", opList, vPlain},
	{PHP, "compact", opList, vPlain},
	{PHP, "sprintf", opSprintf, vPlain},
	{PHP, "vsprintf", opSprintf, vPlain},
	{PHP, "realpath", opSame, vPlain},
	{PHP, "strval", opSame, vPlain},
	{PHP, "trim", opSame, vPlain},
	{PHP, "posix_getpwuid", opHome, vPlain},
	// Lua
	{Lua, "os.execute", opShell, vPlain},
	{Lua, "io.popen", opShell, vPlain},
	{Lua, "os.remove", opDelete, vPlain},
	{Lua, "io.open", opOpen, vPlain},
	{Lua, "os.getenv", opEnv, vPlain},
	{Lua, "load", opEval, vPlain},
	{Lua, "loadstring", opEval, vPlain},
	{Lua, "dofile", opEval, vPlain},
	{Lua, "loadfile", opEval, vPlain},
	{Lua, "socket.connect", opSocket, vConn},
	{Lua, "socket.tcp", opSocket, vConn},
	{Lua, "socket.bind", opSocket, vConn},
	{Lua, "http.request", opFetch, vPlain},
	{Lua, "socket.http.request", opFetch, vPlain},
	{Lua, "ssl.https.request", opFetch, vPlain},
	{Lua, "posix.fork", opFork, vPlain},
	{Lua, "posix.unistd.fork", opFork, vPlain},
	{Lua, "string.format", opSprintf, vPlain},
	{Lua, "string.char", opChr, vAll},
	{Lua, "string.reverse", opReverse, vPlain},
	{Lua, "tostring", opSame, vPlain},
	{Lua, "ipairs", opSame, vPlain},
	{Lua, "pairs", opSame, vPlain},
	{Lua, "require", opImport, vPlain},
	// R
	{R, "system", opShell, vPlain},
	{R, "shell", opShell, vPlain},
	{R, "pipe", opShell, vPlain},
	{R, "system2", opSystem, vArg2},
	{R, "processx.run", opSpawn, vPlain},
	{R, "processx.process.new", opSpawn, vPlain},
	{R, "sys.exec_wait", opSpawn, vPlain},
	{R, "sys.exec_internal", opSpawn, vPlain},
	{R, "sys.exec_background", opSpawn, vPlain},
	{R, "unlink", opDelete, vAllKw},
	{R, "file.remove", opDelete, vAll},
	{R, "fs.file_delete", opDelete, vAll},
	{R, "file_delete", opDelete, vAll},
	{R, "fs.dir_delete", opDelete, vAllRec},
	{R, "dir_delete", opDelete, vAllRec},
	{R, "Sys.getenv", opEnv, vPlain},
	{R, "path.expand", opExpand, vPlain},
	{R, "normalizePath", opExpand, vPlain},
	{R, "fs.path_expand", opExpand, vPlain},
	{R, "file.path", opJoin, vPlain},
	{R, "fs.path", opJoin, vPlain},
	{R, "fs.path_home", opHome, vPlain},
	{R, "path_home", opHome, vPlain},
	{R, "tempdir", opTmp, vPlain},
	{R, "eval", opEval, vPlain},
	{R, "evalq", opEval, vPlain},
	{R, "parse", opEvalParse, vPlain},
	{R, "str2lang", opEvalParse, vPlain},
	{R, "str2expression", opEvalParse, vPlain},
	{R, "source", opLoad, vPlain},
	{R, "sys.source", opLoad, vPlain},
	{R, "library", opLibrary, vPlain},
	{R, "require", opLibrary, vPlain},
	{R, "requireNamespace", opLibrary, vPlain},
	{R, "url", opFetch, vPlain},
	{R, "download.file", opFetch, vPlain},
	{R, "httr.GET", opFetch, vPlain},
	{R, "httr.POST", opFetch, vPlain},
	{R, "httr.PUT", opFetch, vPlain},
	{R, "curl.curl_fetch_memory", opFetch, vPlain},
	{R, "curl.curl", opFetch, vPlain},
	{R, "RCurl.getURL", opFetch, vPlain},
	{R, "jsonlite.fromJSON", opRead, vPlain},
	{R, "GET", opFetch, vPlain},
	{R, "POST", opFetch, vPlain},
	{R, "readLines", opRead, vPlain},
	{R, "scan", opRead, vPlain},
	{R, "readRDS", opRead, vPlain},
	{R, "read.csv", opRead, vPlain},
	{R, "socketConnection", opSocket, vConn},
	{R, "make.socket", opSocket, vConn},
	{R, "parallel.mcfork", opFork, vPlain},
	{R, "parallel.mcparallel", opFork, vPlain},
	{R, "mcparallel", opFork, vPlain},
	{R, "c", opList, vPlain},
	{R, "list", opList, vPlain},
	{R, "paste", opPaste, vPlain},
	{R, "paste0", opPaste, vPlain},
	{R, "stringr.str_c", opPaste, vPlain},
	{R, "str_c", opPaste, vPlain},
	{R, "sprintf", opSprintf, vPlain},
	{R, "gettextf", opSprintf, vPlain},
	{R, "rawToChar", opSame, vPlain},
	{R, "as.character", opSame, vPlain},
	{R, "toString", opSame, vPlain},
	{R, "base64enc.base64decode", opDecode64, vPlain},
	{R, "jsonlite.base64_dec", opDecode64, vPlain},
	{R, "openssl.base64_decode", opDecode64, vPlain},
	// Methods of objects the analyser could not follow, for names that
	// are unambiguous: ".m" is the method m of anything.
	{JavaScript, ".rmSync", opDelete, vKw},
	{JavaScript, ".rm", opDelete, vKw},
	{JavaScript, ".rmdirSync", opRmdir, vKw},
	{JavaScript, ".unlinkSync", opDelete, vPlain},
	{JavaScript, ".removeSync", opDelete, vRec},
	{JavaScript, ".emptyDirSync", opDelete, vRec},
	{JavaScript, ".emptyDir", opDelete, vRec},
	{JavaScript, ".remove", opDelete, vRec},
	{JavaScript, ".execSync", opShell, vPlain},
	{JavaScript, ".doShellScript", opShell, vPlain},
	{JavaScript, ".doScript", opShell, vPlain},
	{JavaScript, ".execFileSync", opSpawn, vPlain},
	{JavaScript, ".spawnSync", opSpawn, vPlain},
	{JavaScript, ".spawn", opSpawn, vPlain},
	{JavaScript, ".execFile", opSpawn, vPlain},
	{JavaScript, ".writeFileSync", opWriteFile, vPlain},
	{JavaScript, ".writeTextFile", opWriteFile, vPlain},
	{JavaScript, ".appendFileSync", opWriteFile, vApp},
	{JavaScript, ".readFileSync", opRead, vPlain},
	{JavaScript, ".readTextFile", opRead, vPlain},
	{JavaScript, ".homedir", opHome, vPlain},
	{Python, ".rmtree", opDelete, vRec},
	{Python, ".check_output", opPopen, vPlain},
	{Python, ".check_call", opPopen, vPlain},
	{Python, ".Popen", opPopen, vPlain},
	{Python, ".getoutput", opShell, vPlain},
	{Ruby, ".rm_rf", opDelete, vAllRec},
	{Ruby, ".rm_r", opDelete, vAllRec},
	{Ruby, ".remove_dir", opDelete, vAllRec},
	{Ruby, ".rmtree", opDelete, vAllRec},
	{Ruby, ".remove_entry_secure", opDelete, vAllRec},
	{Perl, ".rmtree", opDelete, vAllRec},
	{Perl, ".remove_tree", opDelete, vAllRec},
}

func trimPrefix(s, p string) string {
	if len(s) > len(p) && s[:len(p)] == p {
		return s[len(p):]
	}
	return s
}
