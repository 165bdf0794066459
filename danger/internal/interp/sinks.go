package interp

// What the calls of each language do: the sinks (shell commands, program
// runs, deletions, writes, downloads, evaluation, sockets, forks) and the
// functions whose values matter (the home directory, paths, the
// environment, decoders). Knowledge is data: one switch per language,
// keyed by the call's qualified name as the evaluator resolves it
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

func langAct(lang Lang, q string) act {
	switch lang {
	case Python:
		return pyAct(q)
	case JavaScript:
		return jsAct(q)
	case Perl:
		return perlAct(q)
	case Ruby:
		return rubyAct(q)
	case PHP:
		return phpAct(q)
	case Lua:
		return luaAct(q)
	case R:
		return rAct(q)
	}
	return act{}
}

func pyAct(q string) act {
	switch q {
	case "os.system", "os.popen", "os.popen2", "os.popen3", "os.popen4", "commands.getoutput", "commands.getstatusoutput",
		"subprocess.getoutput", "subprocess.getstatusoutput", "platform.popen", "asyncio.create_subprocess_shell":
		return act{op: opShell}
	case "subprocess.run", "subprocess.call", "subprocess.check_call", "subprocess.check_output", "subprocess.Popen":
		return act{op: opPopen}
	case "os.execv", "os.execve", "os.execvp", "os.execvpe", "os.posix_spawn", "os.posix_spawnp":
		return act{op: opExecv}
	case "os.spawnv", "os.spawnve", "os.spawnvp", "os.spawnvpe":
		return act{op: opExecv, a: 1}
	case "os.execl", "os.execle", "os.execlp", "os.execlpe":
		return act{op: opExecl}
	case "os.spawnl", "os.spawnle", "os.spawnlp", "os.spawnlpe":
		return act{op: opExecl, a: 1}
	case "asyncio.create_subprocess_exec":
		return act{op: opExecl, a: -1}
	case "pty.spawn":
		return act{op: opPty}
	case "shutil.rmtree":
		return act{op: opDelete, rec: true}
	case "os.remove", "os.unlink":
		return act{op: opDelete}
	case "os.rmdir", "os.removedirs":
		return act{op: opRmdir}
	case "open", "io.open", "codecs.open", "builtins.open":
		return act{op: opOpen}
	case "os.path.expanduser", "os.path.expandvars":
		return act{op: opExpand}
	case "os.path.join", "posixpath.join":
		return act{op: opJoin}
	case "os.path.abspath", "os.path.realpath", "os.path.normpath", "os.fspath", "str", "os.fsencode", "os.fsdecode", "compile":
		return act{op: opSame}
	case "pathlib.Path", "Path", "pathlib.PosixPath", "PosixPath", "pathlib.PurePath", "PurePath", "pathlib.PurePosixPath":
		return act{op: opPath}
	case "os.getcwd", "os.getcwdb", "pathlib.Path.cwd", "Path.cwd", "pathlib.PosixPath.cwd":
		return act{op: opCwd}
	case "pathlib.Path.home", "Path.home", "pathlib.PosixPath.home":
		return act{op: opHome}
	case "os.getenv", "os.environ.get", "os.environ.__getitem__", "os.getenvb":
		return act{op: opEnv}
	case "dict", "os.environ.copy", "os.environ.items":
		return act{op: opSame}
	case "tempfile.gettempdir":
		return act{op: opTmp}
	case "urllib.request.urlopen", "urllib.urlopen", "urllib2.urlopen", "urllib.request.urlretrieve", "urllib.urlretrieve",
		"requests.get", "requests.post", "requests.put", "requests.patch", "requests.request", "requests.delete", "requests.head",
		"httpx.get", "httpx.post", "httpx.put", "httpx.patch", "httpx.request", "urllib3.request", "urllib.request.build_opener.open":
		return act{op: opFetch}
	case "requests.Session", "requests.session", "httpx.Client", "httpx.AsyncClient", "http.client.HTTPConnection",
		"http.client.HTTPSConnection", "httplib.HTTPConnection", "httplib.HTTPSConnection", "urllib3.PoolManager", "urllib.request.build_opener":
		return act{op: opClient}
	case "exec", "eval", "builtins.exec", "builtins.eval", "__builtins__.exec", "__builtins__.eval":
		return act{op: opEval}
	case "__import__", "importlib.import_module", "builtins.__import__":
		return act{op: opImport}
	case "getattr", "builtins.getattr":
		return act{op: opGetattr}
	case "base64.b64decode", "base64.standard_b64decode", "base64.urlsafe_b64decode", "base64.decodebytes", "base64.decodestring", "binascii.a2b_base64":
		return act{op: opDecode64}
	case "binascii.unhexlify", "binascii.a2b_hex", "bytes.fromhex", "bytearray.fromhex":
		return act{op: opDecodeHex}
	case "codecs.decode":
		return act{op: opRot13}
	case "chr":
		return act{op: opChr}
	case "zlib.decompress", "gzip.decompress", "bz2.decompress", "lzma.decompress", "marshal.loads", "pickle.loads":
		return act{op: opDecode64, a: 99}
	case "socket.socket", "ssl.wrap_socket":
		return act{op: opSocket}
	case "socket.create_connection", "socket.create_server":
		return act{op: opSocket, conn: true}
	case "os.dup2", "os.dup":
		return act{op: opDup}
	case "os.fork", "os.forkpty", "pty.fork":
		return act{op: opFork}
	case "shlex.split":
		return act{op: opSplit}
	case "itertools.count", "itertools.cycle", "iter":
		return act{op: opEndless}
	}
	return act{}
}

func jsAct(q string) act {
	q = trimPrefix(q, "require.")
	switch q {
	case "child_process.exec", "child_process.execSync", "exec", "execSync", "execaCommand", "execaCommandSync",
		"execa.execaCommand", "execa.execaCommandSync", "shelljs.exec", "zx.$":
		return act{op: opShell}
	case "child_process.spawn", "child_process.spawnSync", "child_process.execFile", "child_process.execFileSync", "spawn", "spawnSync",
		"execFile", "execFileSync", "execa", "execaSync", "execa.execa", "execa.execaSync", "cross-spawn", "cross-spawn.sync":
		return act{op: opSpawn}
	case "child_process.fork", "cluster.fork", "fork":
		return act{op: opFork}
	case "Deno.run", "Bun.spawn", "Bun.spawnSync":
		return act{op: opCmdList}
	case "Deno.Command":
		return act{op: opDenoCmd}
	case "fs.rmSync", "fs.rm", "fs.promises.rm", "rmSync", "rm":
		return act{op: opDelete, kw: "recursive"}
	case "fs.rmdirSync", "fs.rmdir", "fs.promises.rmdir", "rmdirSync", "rmdir":
		return act{op: opRmdir, kw: "recursive"}
	case "fs.unlinkSync", "fs.unlink", "fs.promises.unlink", "unlinkSync", "unlink":
		return act{op: opDelete}
	case "fs-extra.removeSync", "fs-extra.remove", "fs-extra.emptyDirSync", "fs-extra.emptyDir", "fs-extra.emptydir",
		"rimraf", "rimraf.sync", "rimrafSync", "rimraf.rimraf", "rimraf.rimrafSync", "rimraf.default", "del", "del.sync",
		"deleteSync", "deleteAsync", "del.deleteSync", "del.deleteAsync", "removeSync", "emptyDirSync":
		return act{op: opDelete, rec: true}
	case "Deno.remove", "Deno.removeSync":
		return act{op: opDelete, kw: "recursive"}
	case "shelljs.rm", "shell.rm":
		return act{op: opDelete, a: -1}
	case "fs.writeFileSync", "fs.writeFile", "fs.promises.writeFile", "writeFileSync", "writeFile", "fs.createWriteStream",
		"Deno.writeTextFile", "Deno.writeTextFileSync", "Deno.writeFile", "Deno.writeFileSync", "Bun.write", "fs-extra.outputFileSync":
		return act{op: opWriteFile}
	case "fs.appendFileSync", "fs.appendFile", "fs.promises.appendFile", "appendFileSync":
		return act{op: opWriteFile, app: true}
	case "fs.readFileSync", "fs.readFile", "fs.promises.readFile", "readFileSync", "readFile", "Deno.readTextFile",
		"Deno.readTextFileSync", "Deno.readFile", "Deno.readFileSync":
		return act{op: opRead}
	case "Bun.file":
		return act{op: opPath}
	case "process.cwd", "Deno.cwd":
		return act{op: opCwd}
	case "os.homedir", "Deno.homeDir":
		return act{op: opHome}
	case "os.tmpdir":
		return act{op: opTmp}
	case "path.join", "path.resolve", "path.posix.join", "path.posix.resolve", "path.normalize", "path.win32.join":
		return act{op: opJoin}
	case "String", "decodeURIComponent", "unescape":
		return act{op: opSame}
	case "Deno.env.get", "Bun.env.get", "process.env.get":
		return act{op: opEnv}
	case "Deno.env.toObject", "Object.entries", "Object.assign", "JSON.stringify", "Object.keys":
		return act{op: opSame}
	case "fetch", "axios", "axios.get", "axios.post", "axios.put", "axios.patch", "axios.request", "http.get", "https.get",
		"http.request", "https.request", "got", "got.get", "got.post", "node-fetch", "undici.request", "undici.fetch", "superagent.post", "superagent.get":
		return act{op: opFetch}
	case "eval", "Function", "vm.runInThisContext", "vm.runInNewContext", "vm.runInContext", "vm.Script", "vm.compileFunction",
		"globalThis.eval", "window.eval", "setTimeout", "setInterval", "Reflect.apply":
		return act{op: opEval}
	case "require", "import":
		return act{op: opImport}
	case "atob", "Buffer.atob":
		return act{op: opDecode64}
	case "Buffer.from", "Buffer", "buffer.Buffer.from":
		return act{op: opBuffer}
	case "String.fromCharCode", "String.fromCodePoint":
		return act{op: opChr, a: -1}
	case "net.connect", "net.createConnection", "tls.connect", "net.createServer":
		return act{op: opSocket, conn: true}
	case "net.Socket", "dgram.createSocket":
		return act{op: opSocket}
	}
	return act{}
}

func perlAct(q string) act {
	q = trimPrefix(q, "CORE.")
	switch q {
	case "system", "exec", "IPC.Open3.open3", "open3", "IPC.Open2.open2", "open2", "IPC.Run.run":
		if q == "open3" || q == "IPC.Open3.open3" {
			return act{op: opSystem, a: 3}
		}
		if q == "open2" || q == "IPC.Open2.open2" {
			return act{op: opSystem, a: 2}
		}
		return act{op: opSystem}
	case "readpipe":
		return act{op: opShell}
	case "open":
		return act{op: opOpen}
	case "unlink", "File.Remove.remove":
		return act{op: opDelete, a: -1}
	case "rmdir":
		return act{op: opRmdir, a: -1}
	case "rmtree", "remove_tree", "File.Path.rmtree", "File.Path.remove_tree":
		return act{op: opDelete, a: -1, rec: true}
	case "eval", "evalbytes":
		return act{op: opEval}
	case "socket":
		return act{op: opSocket}
	case "connect", "bind", "listen", "accept":
		return act{op: opConnect}
	case "IO.Socket.INET.new", "IO.Socket.IP.new", "IO.Socket.SSL.new", "IO.Socket.INET6.new",
		"IO.Socket.INET", "IO.Socket.IP", "IO.Socket.SSL", "IO.Socket.INET6":
		return act{op: opSocket, conn: true}
	case "fork":
		return act{op: opFork}
	case "LWP.Simple.get", "LWP.Simple.getstore", "LWP.Simple.getprint", "HTTP.Tiny.get", "get", "getstore":
		if q == "get" || q == "getstore" {
			return act{}
		}
		return act{op: opFetch}
	case "LWP.UserAgent.new", "HTTP.Tiny.new", "Mojo.UserAgent.new", "WWW.Mechanize.new":
		return act{op: opClient}
	case "MIME.Base64.decode_base64", "decode_base64":
		return act{op: opDecode64}
	case "Cwd.getcwd", "Cwd.cwd", "getcwd", "cwd", "Cwd.fastcwd":
		return act{op: opCwd}
	case "File.HomeDir.my_home", "File.HomeDir.home":
		return act{op: opHome}
	case "glob", "File.Spec.rel2abs", "File.Spec.canonpath", "Cwd.abs_path", "Cwd.realpath", "abs_path":
		return act{op: opSame}
	case "File.Spec.catfile", "File.Spec.catdir", "catfile", "catdir":
		return act{op: opJoin}
	case "sprintf":
		return act{op: opSprintf}
	case "reverse":
		return act{op: opReverse}
	}
	return act{}
}

func rubyAct(q string) act {
	q = trimPrefix(q, "Kernel.")
	switch q {
	case "system", "exec", "spawn", "Process.spawn", "Process.exec", "Open3.capture2", "Open3.capture2e", "Open3.capture3",
		"Open3.popen2", "Open3.popen2e", "Open3.popen3", "Open3.pipeline", "Open3.pipeline_r", "Open3.pipeline_w", "PTY.spawn":
		return act{op: opSystem}
	case "IO.popen":
		return act{op: opSystem, a: 1}
	case "open", "File.open", "File.new", "IO.open":
		return act{op: opOpen}
	case "URI.open", "OpenURI.open_uri", "Net.HTTP.get", "Net.HTTP.get_response", "Net.HTTP.post", "Net.HTTP.post_form",
		"Net.HTTP.start", "HTTParty.get", "HTTParty.post", "RestClient.get", "RestClient.post", "Faraday.get", "Faraday.post",
		"Excon.get", "Excon.post", "HTTP.get", "HTTP.post", "Net.HTTP.new":
		return act{op: opFetch}
	case "FileUtils.rm_rf", "FileUtils.rm_r", "FileUtils.remove_dir", "FileUtils.remove_entry", "FileUtils.remove_entry_secure",
		"FileUtils.rmtree", "FileUtils.rmrf":
		return act{op: opDelete, a: -1, rec: true}
	case "FileUtils.rm", "FileUtils.rm_f", "FileUtils.remove", "FileUtils.safe_unlink", "FileUtils.remove_file", "File.delete", "File.unlink":
		return act{op: opDelete, a: -1}
	case "Dir.delete", "Dir.rmdir", "Dir.unlink", "FileUtils.rmdir":
		return act{op: opRmdir, a: -1}
	case "File.write", "IO.write", "File.binwrite", "IO.binwrite":
		return act{op: opWriteFile}
	case "File.read", "IO.read", "File.readlines", "IO.readlines", "File.binread":
		return act{op: opRead}
	case "Dir.pwd", "Dir.getwd":
		return act{op: opCwd}
	case "Dir.home", "Etc.getpwuid.dir", "Gem.user_home":
		return act{op: opHome}
	case "File.expand_path", "File.absolute_path", "File.realpath":
		return act{op: opExpand}
	case "File.join":
		return act{op: opJoin}
	case "Pathname.new", "Pathname":
		return act{op: opPath}
	case "ENV.fetch", "ENV.[]":
		return act{op: opEnv}
	case "ENV.to_h", "ENV.to_a", "ENV.inspect", "ENV.to_hash":
		return act{op: opEnvAll}
	case "Dir.tmpdir":
		return act{op: opTmp}
	case "eval", "instance_eval", "class_eval", "module_eval", "binding.eval", "RubyVM.InstructionSequence.compile", "TOPLEVEL_BINDING.eval":
		return act{op: opEval}
	case "send", "public_send", "__send__", "Object.send":
		return act{op: opSend}
	case "TCPSocket.new", "TCPSocket.open", "Socket.tcp", "TCPServer.new", "TCPServer.open", "UNIXSocket.new", "OpenSSL.SSL.SSLSocket.new":
		return act{op: opSocket, conn: true}
	case "Socket.new":
		return act{op: opSocket}
	case "fork", "Process.fork":
		return act{op: opFork}
	case "Base64.decode64", "Base64.strict_decode64", "Base64.urlsafe_decode64":
		return act{op: opDecode64}
	case "format", "sprintf":
		return act{op: opSprintf}
	case "load":
		return act{op: opLoad}
	}
	return act{}
}

func phpAct(q string) act {
	switch q {
	case "system", "exec", "shell_exec", "passthru", "popen", "proc_open", "expect_popen":
		return act{op: opShell}
	case "pcntl_exec":
		return act{op: opExecv}
	case "unlink":
		return act{op: opDelete}
	case "rmdir":
		return act{op: opRmdir}
	case "fopen", "SplFileObject":
		return act{op: opOpen}
	case "file_put_contents":
		return act{op: opWriteFile}
	case "file_get_contents", "file", "readfile", "fread", "stream_get_contents":
		return act{op: opRead}
	case "getenv":
		return act{op: opEnv}
	case "eval", "assert", "create_function":
		return act{op: opEval}
	case "include", "require", "include_once", "require_once":
		return act{op: opLoad}
	case "fsockopen", "pfsockopen", "stream_socket_client", "stream_socket_server":
		return act{op: opSocket, conn: true}
	case "socket_create":
		return act{op: opSocket}
	case "socket_connect", "socket_bind", "socket_listen":
		return act{op: opConnect}
	case "curl_exec", "curl_multi_exec", "http_get", "http_post_data", "curl_setopt", "curl_setopt_array", "stream_context_create":
		return act{op: opFetch}
	case "curl_init":
		return act{op: opClient}
	case "base64_decode":
		return act{op: opDecode64}
	case "hex2bin":
		return act{op: opDecodeHex}
	case "str_rot13":
		return act{op: opRot13}
	case "strrev":
		return act{op: opReverse}
	case "gzinflate", "gzuncompress", "gzdecode", "convert_uudecode":
		return act{op: opDecode64, a: 99}
	case "chr":
		return act{op: opChr}
	case "pcntl_fork":
		return act{op: opFork}
	case "array", "compact":
		return act{op: opList}
	case "sprintf", "vsprintf":
		return act{op: opSprintf}
	case "realpath", "strval", "trim":
		return act{op: opSame}
	case "posix_getpwuid":
		return act{op: opHome}
	}
	return act{}
}

func luaAct(q string) act {
	switch q {
	case "os.execute", "io.popen":
		return act{op: opShell}
	case "os.remove":
		return act{op: opDelete}
	case "io.open":
		return act{op: opOpen}
	case "os.getenv":
		return act{op: opEnv}
	case "load", "loadstring", "dofile", "loadfile":
		return act{op: opEval}
	case "socket.connect", "socket.tcp", "socket.bind":
		return act{op: opSocket, conn: true}
	case "http.request", "socket.http.request", "ssl.https.request":
		return act{op: opFetch}
	case "posix.fork", "posix.unistd.fork":
		return act{op: opFork}
	case "string.format":
		return act{op: opSprintf}
	case "string.char":
		return act{op: opChr, a: -1}
	case "string.reverse":
		return act{op: opReverse}
	case "tostring", "ipairs", "pairs":
		return act{op: opSame}
	case "require":
		return act{op: opImport}
	}
	return act{}
}

func rAct(q string) act {
	q = trimPrefix(q, "base.")
	switch q {
	case "system", "shell", "pipe":
		return act{op: opShell}
	case "system2":
		return act{op: opSystem, a: 2}
	case "processx.run", "processx.process.new", "sys.exec_wait", "sys.exec_internal", "sys.exec_background":
		return act{op: opSpawn}
	case "unlink":
		return act{op: opDelete, a: -1, kw: "recursive"}
	case "file.remove", "fs.file_delete", "file_delete":
		return act{op: opDelete, a: -1}
	case "fs.dir_delete", "dir_delete":
		return act{op: opDelete, a: -1, rec: true}
	case "Sys.getenv":
		return act{op: opEnv}
	case "path.expand", "normalizePath", "fs.path_expand":
		return act{op: opExpand}
	case "file.path", "fs.path":
		return act{op: opJoin}
	case "fs.path_home", "path_home":
		return act{op: opHome}
	case "tempdir":
		return act{op: opTmp}
	case "eval", "evalq":
		return act{op: opEval}
	case "parse", "str2lang", "str2expression":
		return act{op: opEvalParse}
	case "source", "sys.source":
		return act{op: opLoad}
	case "library", "require", "requireNamespace":
		return act{op: opLibrary}
	case "url", "download.file", "httr.GET", "httr.POST", "httr.PUT", "curl.curl_fetch_memory", "curl.curl", "RCurl.getURL",
		"jsonlite.fromJSON", "GET", "POST", "readLines", "scan", "readRDS", "read.csv":
		if q == "readLines" || q == "scan" || q == "readRDS" || q == "read.csv" || q == "jsonlite.fromJSON" {
			return act{op: opRead}
		}
		return act{op: opFetch}
	case "socketConnection", "make.socket":
		return act{op: opSocket, conn: true}
	case "parallel.mcfork", "parallel.mcparallel", "mcparallel":
		return act{op: opFork}
	case "c", "list":
		return act{op: opList}
	case "paste", "paste0", "stringr.str_c", "str_c":
		return act{op: opPaste}
	case "sprintf", "gettextf":
		return act{op: opSprintf}
	case "rawToChar", "as.character", "toString":
		return act{op: opSame}
	case "base64enc.base64decode", "jsonlite.base64_dec", "openssl.base64_decode":
		return act{op: opDecode64}
	}
	return act{}
}

// fallbackAct names what a method of an object the analyser could not
// follow does, for names that are unambiguous (rmSync, rmtree, rm_rf).
func fallbackAct(lang Lang, m string) act {
	switch lang {
	case JavaScript:
		switch m {
		case "rmSync", "rm":
			return act{op: opDelete, kw: "recursive"}
		case "rmdirSync":
			return act{op: opRmdir, kw: "recursive"}
		case "unlinkSync":
			return act{op: opDelete}
		case "removeSync", "emptyDirSync", "emptyDir", "remove":
			return act{op: opDelete, rec: true}
		case "execSync", "doShellScript", "doScript":
			return act{op: opShell}
		case "execFileSync", "spawnSync", "spawn", "execFile":
			return act{op: opSpawn}
		case "writeFileSync", "writeTextFile":
			return act{op: opWriteFile}
		case "appendFileSync":
			return act{op: opWriteFile, app: true}
		case "readFileSync", "readTextFile":
			return act{op: opRead}
		case "homedir":
			return act{op: opHome}
		}
	case Python:
		switch m {
		case "rmtree":
			return act{op: opDelete, rec: true}
		case "check_output", "check_call", "Popen":
			return act{op: opPopen}
		case "getoutput":
			return act{op: opShell}
		}
	case Ruby:
		switch m {
		case "rm_rf", "rm_r", "remove_dir", "rmtree", "remove_entry_secure":
			return act{op: opDelete, a: -1, rec: true}
		}
	case Perl:
		switch m {
		case "rmtree", "remove_tree":
			return act{op: opDelete, a: -1, rec: true}
		}
	}
	return act{}
}

func trimPrefix(s, p string) string {
	if len(s) > len(p) && s[:len(p)] == p {
		return s[len(p):]
	}
	return s
}
