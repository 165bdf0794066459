// Package interp reads the code interpreters are given on the command line
// (python -c, node -e, deno eval, bun -e, perl -e, ruby -e, php -r, lua -e,
// Rscript -e, osascript -e, pwsh -Command and -EncodedCommand) or on
// standard input, and says what it does that shellguard can name. It is not
// a parser of any language: one lexer per family tells code from strings,
// comments and interpolation, and a tolerant walk follows calls, imports
// and simple assignments far enough to see a sink's literal arguments. A
// Finding is a shell command the code runs (os.system('...'), execSync,
// backticks, do shell script), a program run with an argument list
// (subprocess.run([...]), spawnSync, system LIST, exec, Start-Process), a
// deletion or an overwrite with its target resolved when it is a literal or
// a well-known home or root expression (os.path.expanduser('~'),
// Path.home(), process.env.HOME, $ENV{HOME}, Dir.home, $env:USERPROFILE,
// C:\), a fork bomb, a reverse shell (a socket joined to a shell or to code
// it runs), remote code (eval of a download), a secret sent over the network
// (a key or credentials file, the whole environment), or, for what cannot be
// read statically (eval of computed code, an import or attribute by a
// computed name, code the shell computes), Unknown: never nothing. Literal
// code that is evaluated or decoded (base64, hex, rot13, reversal,
// UTF-16LE) is read in turn. Finding.Command gives the shell form of a
// command, argv, deletion (rm -rf -- PATH for a tree, rm -f -- PATH for a
// file) or write (: > PATH), which the detector checks as a line of its own,
// so that interpreter code gets the level its shell form gets.
//
// # Limits
//
// The analyser reads hostile text: it reads at most MaxCode bytes of a code
// string and a budget of eight times that over every level of decoded or
// interpolated code, follows decoded or evaluated code at most three levels
// deep, nests expressions at most 48 deep, keeps strings to 4 KiB, lists to
// 64 elements and 256 variables, and returns at most 64 findings. Past a
// limit it adds an Unknown finding. Lexing and walking are linear: every
// step consumes input, nothing backtracks, and there is no regular
// expression. A panic (a bug) is recovered as an Unknown finding. Analyze
// keeps no state between calls and is safe for concurrent use.
package interp
