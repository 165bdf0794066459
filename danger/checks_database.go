package danger

import (
	"strings"

	"github.com/shellguard/shellguard/internal/programs"
)

// The database pack's checks (danger/checks.toml): the SQL an invocation
// gives a database client, read by the statement scanner below, and the
// JavaScript it gives the MongoDB shell.

// codeLang is the language a client reads.
type codeLang uint8

const (
	langSQL codeLang = iota + 1
	langMongo
)

// dbClient says where a database client finds the code it runs: options,
// operands, files, its standard input. The option syntax itself (which
// options take a value) is the program data's (danger/rules/database.toml).
type dbClient struct {
	// sub lists the subcommand words that make the program a client,
	// one of which must come first (cockroach sql, bq query); empty
	// when the program is one.
	sub []string
	// opts are the options whose value is code (psql -c, mysql -e).
	opts []string
	// operand is the index of the first operand (after sub) that is code
	// (sqlite3 DB SQL...: 1), or -1.
	operand int
	// files are the options that name a file of code; "-" is standard
	// input.
	files []string
	// stdin: the client reads code on standard input when its command
	// line gives none.
	stdin bool
	lang  codeLang
}

// dbClientOf returns what the client name reads, or nil.
func dbClientOf(name string) *dbClient {
	switch name {
	case "psql":
		return &dbClient{opts: []string{"-c", "--command"}, operand: -1, files: []string{"-f", "--file"}, stdin: true, lang: langSQL}
	case "mysql", "mariadb":
		return &dbClient{opts: []string{"-e", "--execute", "--init-command"}, operand: -1, stdin: true, lang: langSQL}
	case "mysqlsh":
		return &dbClient{opts: []string{"-e", "--execute"}, operand: -1, files: []string{"-f", "--file"}, stdin: true, lang: langSQL}
	case "sqlite3", "sqlite":
		return &dbClient{opts: []string{"-cmd", "--cmd"}, operand: 1, files: []string{"-init", "--init"}, stdin: true, lang: langSQL}
	case "duckdb":
		return &dbClient{opts: []string{"-c", "-s", "-cmd", "--cmd"}, operand: 1, files: []string{"-init", "-f"}, stdin: true, lang: langSQL}
	case "sqlcmd":
		return &dbClient{opts: []string{"-Q", "-q", "--query"}, operand: -1, files: []string{"-i", "--input-file"}, stdin: true, lang: langSQL}
	case "clickhouse-client", "clickhouse-local":
		return &dbClient{opts: []string{"-q", "--query"}, operand: -1, files: []string{"--queries-file"}, stdin: true, lang: langSQL}
	case "clickhouse":
		return &dbClient{sub: []string{"client", "local"}, opts: []string{"-q", "--query"}, operand: -1, files: []string{"--queries-file"}, stdin: true, lang: langSQL}
	case "cqlsh":
		return &dbClient{opts: []string{"-e", "--execute"}, operand: -1, files: []string{"-f", "--file"}, stdin: true, lang: langSQL}
	case "snowsql":
		return &dbClient{opts: []string{"-q", "--query"}, operand: -1, files: []string{"-f", "--filename"}, stdin: true, lang: langSQL}
	case "snow":
		return &dbClient{sub: []string{"sql"}, opts: []string{"-q", "--query"}, operand: -1, files: []string{"-f", "--filename"}, lang: langSQL}
	case "bq":
		return &dbClient{sub: []string{"query"}, opts: []string{"--query"}, operand: 0, stdin: true, lang: langSQL}
	case "cockroach":
		return &dbClient{sub: []string{"sql"}, opts: []string{"-e", "--execute"}, operand: -1, files: []string{"-f", "--file"}, stdin: true, lang: langSQL}
	case "dolt":
		return &dbClient{sub: []string{"sql"}, opts: []string{"-q", "--query"}, operand: -1, files: []string{"--file"}, stdin: true, lang: langSQL}
	case "usql":
		return &dbClient{opts: []string{"-c", "--command"}, operand: -1, files: []string{"-f", "--file"}, stdin: true, lang: langSQL}
	case "trino", "presto", "presto-cli":
		return &dbClient{opts: []string{"--execute"}, operand: -1, files: []string{"-f", "--file"}, stdin: true, lang: langSQL}
	case "spark-sql", "hive", "beeline":
		return &dbClient{opts: []string{"-e"}, operand: -1, files: []string{"-f", "-i"}, stdin: true, lang: langSQL}
	case "impala-shell":
		return &dbClient{opts: []string{"-q", "--query"}, operand: -1, files: []string{"-f", "--query_file"}, lang: langSQL}
	case "sqlplus":
		return &dbClient{operand: -1, stdin: true, lang: langSQL}
	case "influx":
		return &dbClient{opts: []string{"-execute"}, operand: -1, lang: langSQL}
	case "turso":
		return &dbClient{sub: []string{"db shell"}, operand: 1, stdin: true, lang: langSQL}
	case "heroku":
		return &dbClient{sub: []string{"pg:psql"}, opts: []string{"-c", "--command"}, operand: -1, files: []string{"-f", "--file"}, lang: langSQL}
	case "wrangler":
		return &dbClient{sub: []string{"d1 execute"}, opts: []string{"--command"}, operand: -1, files: []string{"--file"}, lang: langSQL}
	case "mongosh", "mongo":
		return &dbClient{opts: []string{"--eval"}, operand: -1, files: []string{"-f", "--file"}, stdin: true, lang: langMongo}
	}
	return nil
}

// maxDBTexts bounds the pieces of code read from one invocation.
const maxDBTexts = 32

// dbCode returns the code invocation i gives its database client, in the
// client's language: option values, code operands, and its standard input
// when the line gives that statically and the command line gives no code.
func dbCode(sc *scan, i int) ([]string, codeLang) {
	name := sc.name(i)
	c := dbClientOf(name)
	if c == nil {
		return nil, 0
	}
	args := sc.args(i)
	if len(args) == 0 {
		return nil, 0
	}
	p := sc.invs[i].prog
	s := scannerFor(p, args[1:], "")
	var texts []string
	nops, subWords := 0, 0
	file, stdinFile, info := false, false, false
	subOK := len(c.sub) == 0
	var subSeen string
	for len(texts) < maxDBTexts {
		it, ok := s.Next()
		if !ok {
			break
		}
		switch it.Kind {
		case programs.Option:
			switch {
			case it.HasValue && inList(it.Name, c.opts):
				texts = append(texts, it.Value)
			case inList(it.Name, c.files):
				if it.Value == "-" || it.Value == "/dev/stdin" {
					stdinFile = true
				} else {
					file = true
				}
			case it.Name == "--help" || it.Name == "--version" || it.Name == "-?":
				info = true
			}
		case programs.Operand:
			if !subOK {
				// The subcommand words come first.
				if subSeen == "" {
					subSeen = it.Value
				} else {
					subSeen += " " + it.Value
				}
				subWords++
				matched, prefix := false, false
				for _, w := range c.sub {
					if w == subSeen {
						matched = true
					} else if len(w) > len(subSeen) && w[:len(subSeen)+1] == subSeen+" " {
						prefix = true
					}
				}
				if matched {
					subOK = true
					continue
				}
				if !prefix {
					return nil, 0
				}
				continue
			}
			if c.operand >= 0 && nops >= c.operand {
				if name == "mongosh" || name == "mongo" {
					break
				}
				texts = append(texts, it.Value)
			}
			if (name == "mongosh" || name == "mongo") && hasSuffixFold(it.Value, ".js") {
				file = true
			}
			nops++
		}
	}
	if !subOK || info {
		return nil, 0
	}
	if c.stdin && (len(texts) == 0 && !file || stdinFile) {
		if text, ok := staticStdin(sc, i); ok {
			texts = append(texts, text)
		}
	}
	return texts, c.lang
}

func inList(s string, list []string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func hasSuffixFold(s, suffix string) bool {
	return len(s) >= len(suffix) && strings.EqualFold(s[len(s)-len(suffix):], suffix)
}

// dbFindings scans the code invocation i gives its client.
func dbFindings(sc *scan, i int) sqlFinding {
	texts, lang := dbCode(sc, i)
	var f sqlFinding
	for _, t := range texts {
		switch lang {
		case langSQL:
			f |= scanSQL(t)
		case langMongo:
			f |= scanMongo(t)
		}
	}
	return f
}

// checkSqlDropDatabase: the SQL drops a database, a schema or a keyspace.
func checkSqlDropDatabase(sc *scan, i int) bool {
	return dbClientOf(sc.name(i)).isSQL() && dbFindings(sc, i)&sqlDropDatabase != 0
}

// checkSqlDropTable: the SQL drops a table.
func checkSqlDropTable(sc *scan, i int) bool {
	return dbClientOf(sc.name(i)).isSQL() && dbFindings(sc, i)&sqlDropTable != 0
}

// checkSqlTruncate: the SQL truncates a table.
func checkSqlTruncate(sc *scan, i int) bool {
	return dbClientOf(sc.name(i)).isSQL() && dbFindings(sc, i)&sqlTruncate != 0
}

// checkSqlDeleteAll: the SQL deletes or updates every row of a table.
func checkSqlUnfiltered(sc *scan, i int) bool {
	return dbClientOf(sc.name(i)).isSQL() && dbFindings(sc, i)&(sqlDeleteAll|sqlUpdateAll) != 0
}

// checkSqlAlterDrop: the SQL drops a column or a partition.
func checkSqlAlterDrop(sc *scan, i int) bool {
	return dbClientOf(sc.name(i)).isSQL() && dbFindings(sc, i)&sqlAlterDrop != 0
}

// checkSqlGrantPublic: the SQL grants every privilege to everyone.
func checkSqlGrantPublic(sc *scan, i int) bool {
	return dbClientOf(sc.name(i)).isSQL() && dbFindings(sc, i)&sqlGrantPublic != 0
}

// checkMongoDrop: MongoDB shell code drops a database or a collection.
func checkMongoDrop(sc *scan, i int) bool {
	c := dbClientOf(sc.name(i))
	return c != nil && c.lang == langMongo && dbFindings(sc, i)&(sqlDropDatabase|sqlDropTable) != 0
}

// checkMongoDeleteAll: MongoDB shell code deletes or updates every
// document of a collection.
func checkMongoDeleteAll(sc *scan, i int) bool {
	c := dbClientOf(sc.name(i))
	return c != nil && c.lang == langMongo && dbFindings(sc, i)&(sqlDeleteAll|sqlUpdateAll) != 0
}

func (c *dbClient) isSQL() bool { return c != nil && c.lang == langSQL }

// scanMongo finds what MongoDB shell code destroys: db.dropDatabase(),
// a collection's drop(), deleteMany/remove with an empty filter,
// updateMany with an empty filter, and runCommand({dropDatabase: 1}) or
// ({drop: "c"}). Strings and comments are skipped.
func scanMongo(text string) sqlFinding {
	if len(text) > maxSQL {
		text = text[:maxSQL]
	}
	var toks []string
	for i := 0; i < len(text) && len(toks) < 1<<16; {
		c := text[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '/' && i+1 < len(text) && text[i+1] == '/':
			for i < len(text) && text[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(text) && text[i+1] == '*':
			j := indexFrom(text, i+2, "*/")
			if j < 0 {
				i = len(text)
			} else {
				i = j + 2
			}
		case c == '\'' || c == '"' || c == '`':
			i = skipJSString(text, i)
			toks = append(toks, `"`)
		case c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			j := i
			for j < len(text) && (text[j] == '_' || text[j] == '$' || text[j] >= 'a' && text[j] <= 'z' || text[j] >= 'A' && text[j] <= 'Z' || text[j] >= '0' && text[j] <= '9') {
				j++
			}
			toks = append(toks, text[i:j])
			i = j
		default:
			toks = append(toks, text[i:i+1])
			i++
		}
	}
	at := func(k int, want ...string) bool {
		for n, w := range want {
			if k+n >= len(toks) || toks[k+n] != w {
				return false
			}
		}
		return true
	}
	var f sqlFinding
	for k := 1; k < len(toks); k++ {
		prev := toks[k-1]
		switch toks[k] {
		case "dropDatabase":
			if prev == "." && at(k+1, "(") || (prev == "{" || prev == ",") && at(k+1, ":") {
				f |= sqlDropDatabase
			}
		case "drop":
			if prev == "." && at(k+1, "(") || (prev == "{" || prev == ",") && at(k+1, ":") {
				f |= sqlDropTable
			}
		case "deleteMany", "remove":
			if prev == "." && (at(k+1, "(", ")") || at(k+1, "(", "{", "}", ")") || at(k+1, "(", "{", "}", ",")) {
				f |= sqlDeleteAll
			}
		case "updateMany":
			if prev == "." && at(k+1, "(", "{", "}", ",") {
				f |= sqlUpdateAll
			}
		}
	}
	return f
}

func indexFrom(s string, from int, sub string) int {
	if j := strings.Index(s[from:], sub); j >= 0 {
		return from + j
	}
	return -1
}

// skipJSString returns the index after the string starting at i.
func skipJSString(text string, i int) int {
	q := text[i]
	for j := i + 1; j < len(text); j++ {
		switch text[j] {
		case '\\':
			j++
		case q:
			return j + 1
		}
	}
	return len(text)
}

// dbShellEscapes returns the shell commands a database client is told to
// run: psql's \! CMD, sqlite3's .shell CMD and .system CMD, in the code
// it is given (see dbCode).
func dbShellEscapes(sc *scan, i int) []string {
	name := sc.name(i)
	if name != "psql" && name != "sqlite3" && name != "sqlite" && name != "duckdb" {
		return nil
	}
	texts, _ := dbCode(sc, i)
	var out []string
	for _, t := range texts {
		for len(t) > 0 && len(out) < maxDBTexts {
			line := t
			if k := strings.IndexByte(t, '\n'); k >= 0 {
				line, t = t[:k], t[k+1:]
			} else {
				t = ""
			}
			line = strings.TrimSpace(line)
			switch {
			case len(line) > 2 && line[:2] == `\!`:
				out = append(out, line[2:])
			case len(line) > 7 && (line[:7] == ".shell " || line[:7] == ".system"):
				out = append(out, line[7:])
			}
		}
	}
	return out
}

// A small, bounded SQL statement scanner for the database pack: it reads
// the SQL a client is given (an option, an operand, its standard input)
// well enough to find the statements that destroy data, and nothing more.
// It knows quotes ('...', "...", `...`, [...] and E'...' with backslash
// escapes), comments (-- to the end of the line, /* ... */, with MySQL's
// executable /*! ... */ read as code), PostgreSQL's dollar quoting
// ($$...$$, $tag$...$tag$, whose body is read as code: DO blocks and
// function bodies run statements), psql meta-commands and sqlite3 dot
// commands (a line starting with a backslash or a dot), and statement
// separators. It does not parse SQL: it finds
//
//   - DROP DATABASE, SCHEMA, KEYSPACE, OWNED BY, ALL OBJECTS (sqlDropDatabase)
//     and DROP TABLE (sqlDropTable), wherever they appear outside quotes and
//     comments (T-SQL writes IF ... DROP TABLE x without a separator);
//   - TRUNCATE [TABLE] x (not the function truncate(...));
//   - DELETE and UPDATE statements without a WHERE clause at their own
//     level, or with a WHERE that holds for every row (WHERE 1=1, WHERE
//     true), including ClickHouse's ALTER TABLE x DELETE WHERE 1;
//   - ALTER TABLE ... DROP [COLUMN] c and DROP PARTITION (not DROP
//     CONSTRAINT, INDEX, KEY, DEFAULT, NOT NULL, ...);
//   - GRANT ALL ... TO PUBLIC.
//
// EXPLAIN without ANALYZE is not the act. What it cannot read (SQL built
// in a string and run by EXECUTE, a file) it does not see: the rules say
// so. Work is linear in the text, and the text is bounded.

// sqlFinding is a set of the kinds of destructive statements found.
type sqlFinding uint8

const (
	sqlDropDatabase sqlFinding = 1 << iota
	sqlDropTable
	sqlTruncate
	sqlDeleteAll
	sqlUpdateAll
	sqlAlterDrop
	sqlGrantPublic
)

// sqlDestroys are the findings that destroy data.
const sqlDestroys = sqlDropDatabase | sqlDropTable | sqlTruncate | sqlDeleteAll | sqlUpdateAll | sqlAlterDrop

// maxSQL bounds the text scanned (the line itself is bounded; this keeps a
// hostile stdin text from costing more than a line would), and maxSQLDepth
// how many dollar-quoted bodies deep the scanner reads.
const (
	maxSQL      = 256 << 10
	maxSQLDepth = 4
)

type sqlTokKind uint8

const (
	tokWord  sqlTokKind = iota + 1 // a keyword or unquoted identifier, upper-cased
	tokIdent                       // a quoted identifier
	tokLit                         // a string or number literal
	tokPunct                       // one punctuation character
	tokEnd                         // the end of a statement: ';', a meta-command line, the end
)

type sqlTok struct {
	kind sqlTokKind
	text string // upper-cased for words; the character for punctuation
	// depth is the parenthesis depth the token is at within its
	// statement.
	depth int
}

// scanSQL returns the kinds of destructive statements in text.
func scanSQL(text string) sqlFinding {
	if len(text) > maxSQL {
		text = text[:maxSQL]
	}
	w := &sqlWork{left: 16*len(text) + 4096}
	return scanSQLText(text, 0, w)
}

// sqlWork bounds the work of one scan: the passes over a statement are
// linear, but hostile text (BEGIN BEGIN ..., WITH THEN WITH ...) could
// make them restart at every word. When it runs out, the text is taken to
// hold every destructive statement: what cannot be read is not harmless.
type sqlWork struct{ left int }

func (w *sqlWork) step() bool {
	w.left--
	return w.left >= 0
}

func scanSQLText(text string, level int, w *sqlWork) sqlFinding {
	var f sqlFinding
	var stmt []sqlTok
	sqlTokens(text, level, w, func(t sqlTok) {
		if t.kind == tokEnd {
			f |= sqlStatement(stmt, w)
			stmt = stmt[:0]
			return
		}
		stmt = append(stmt, t)
	}, &f)
	f |= sqlStatement(stmt, w)
	if w.left < 0 {
		f |= sqlDestroys
	}
	return f
}

func isWordStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '#' || c == '@' || c >= 0x80
}

func isWordChar(c byte) bool {
	return isWordStart(c) || c >= '0' && c <= '9' || c == '$'
}

// sqlTokens splits text into tokens and calls emit for each; the body of a
// dollar-quoted string is scanned as statements of its own, whose findings
// are added to f.
func sqlTokens(text string, level int, w *sqlWork, emit func(sqlTok), f *sqlFinding) {
	depth := 0
	lineStart := true
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == '\n':
			lineStart = true
			i++
			continue
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			i++
			continue
		}
		atLineStart := lineStart
		lineStart = false
		switch {
		case atLineStart && (c == '\\' || c == '.' && i+1 < len(text) && isWordStart(text[i+1])):
			// A psql meta-command (\dt, \c db) or a sqlite3 dot command
			// (.tables): it runs to the end of the line (psql's \\
			// separator ends it earlier).
			j := strings.IndexByte(text[i:], '\n')
			if j < 0 {
				j = len(text) - i
			}
			line := text[i : i+j]
			if k := strings.Index(line, `\\`); k >= 0 && c == '\\' {
				j = k + 2
			}
			i += j
			emit(sqlTok{kind: tokEnd})
			depth = 0
		case c == '-' && i+1 < len(text) && text[i+1] == '-':
			j := strings.IndexByte(text[i:], '\n')
			if j < 0 {
				return
			}
			i += j
		case c == '/' && i+1 < len(text) && text[i+1] == '*':
			if i+2 < len(text) && (text[i+2] == '!' || text[i+2] == '+') {
				// MySQL's executable comment (and optimizer hints): the
				// text inside runs. Skip the opener and its version.
				i += 3
				for i < len(text) && text[i] >= '0' && text[i] <= '9' {
					i++
				}
				continue
			}
			j := strings.Index(text[i+2:], "*/")
			if j < 0 {
				return
			}
			i += j + 4
		case c == '*' && i+1 < len(text) && text[i+1] == '/':
			// The end of an executable comment.
			i += 2
		case c == '\'' || (c == 'E' || c == 'e') && i+1 < len(text) && text[i+1] == '\'' && (i == 0 || !isWordChar(text[i-1])):
			backslash := c != '\''
			if backslash {
				i++
			}
			i = skipQuoted(text, i, '\'', backslash)
			emit(sqlTok{kind: tokLit, depth: depth})
		case c == '"' || c == '`':
			i = skipQuoted(text, i, c, false)
			emit(sqlTok{kind: tokIdent, depth: depth})
		case c == '[':
			j := strings.IndexByte(text[i:], ']')
			if j < 0 {
				i = len(text)
			} else {
				i += j + 1
			}
			emit(sqlTok{kind: tokIdent, depth: depth})
		case c == '$' && dollarTag(text[i:]) != "":
			tag := dollarTag(text[i:])
			body := text[i+len(tag):]
			end := strings.Index(body, tag)
			if end < 0 {
				end = len(body)
			}
			if level < maxSQLDepth {
				*f |= scanSQLText(body[:end], level+1, w)
			}
			i += len(tag) + end + len(tag)
			if i > len(text) {
				i = len(text)
			}
			emit(sqlTok{kind: tokLit, depth: depth})
		case c == ';':
			i++
			emit(sqlTok{kind: tokEnd})
			depth = 0
		case c == '(':
			emit(sqlTok{kind: tokPunct, text: "(", depth: depth})
			depth++
			i++
		case c == ')':
			if depth > 0 {
				depth--
			}
			emit(sqlTok{kind: tokPunct, text: ")", depth: depth})
			i++
		case c >= '0' && c <= '9':
			j := i
			for j < len(text) && (isWordChar(text[j]) || text[j] == '.') {
				j++
			}
			emit(sqlTok{kind: tokLit, text: text[i:j], depth: depth})
			i = j
		case isWordStart(c):
			j := i
			for j < len(text) && isWordChar(text[j]) {
				j++
			}
			emit(sqlTok{kind: tokWord, text: strings.ToUpper(text[i:j]), depth: depth})
			i = j
		default:
			emit(sqlTok{kind: tokPunct, text: text[i : i+1], depth: depth})
			i++
		}
	}
}

// skipQuoted returns the index after the quoted text starting at i (the
// quote character q doubled is a quote; with backslash, \x escapes x).
func skipQuoted(text string, i int, q byte, backslash bool) int {
	i++
	for i < len(text) {
		c := text[i]
		switch {
		case backslash && c == '\\':
			i += 2
			continue
		case c == q:
			if i+1 < len(text) && text[i+1] == q {
				i += 2
				continue
			}
			return i + 1
		}
		i++
	}
	return len(text)
}

// dollarTag returns the dollar-quote opener at the start of s ($$ or
// $tag$), or "".
func dollarTag(s string) string {
	if len(s) < 2 || s[0] != '$' {
		return ""
	}
	for j := 1; j < len(s) && j < 64; j++ {
		c := s[j]
		if c == '$' {
			return s[:j+1]
		}
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || j > 1 && c >= '0' && c <= '9') {
			return ""
		}
	}
	return ""
}

// sqlStatement classifies one statement's tokens.
func sqlStatement(toks []sqlTok, w *sqlWork) sqlFinding {
	if len(toks) == 0 {
		return 0
	}
	var f sqlFinding
	merge := toks[0].kind == tokWord && toks[0].text == "MERGE"
	// Keyword pairs that name the act wherever they are; inAlter: the
	// statement (or the procedural one after THEN, ELSE, BEGIN) is an
	// ALTER TABLE.
	inAlter := false
	for k := 0; k < len(toks); k++ {
		t := toks[k]
		if t.kind != tokWord {
			continue
		}
		switch t.text {
		case "ALTER":
			inAlter = k+1 < len(toks) && toks[k+1].kind == tokWord && toks[k+1].text == "TABLE"
		case "THEN", "ELSE", "BEGIN":
			inAlter = false
		case "DROP":
			f |= sqlDrop(toks, k, inAlter)
		case "TRUNCATE":
			if truncateStatement(toks, k) {
				f |= sqlTruncate
			}
		case "GRANT":
			if grantAllPublic(toks[k:], w) {
				f |= sqlGrantPublic
			}
		}
	}
	// DELETE and UPDATE where a statement starts: the first word (after
	// BEGIN, a CTE or EXPLAIN ANALYZE), or after THEN, ELSE, LOOP, BEGIN
	// (procedural code: IF ... THEN DELETE FROM t; a DO block).
	for k := 0; k < len(toks); k++ {
		start := k == 0
		if k > 0 && !merge && toks[k-1].kind == tokWord {
			switch toks[k-1].text {
			case "THEN", "ELSE", "LOOP", "BEGIN":
				start = true
			}
		}
		if !start {
			continue
		}
		v, explained := sqlVerb(toks, k, w)
		if v < 0 || explained {
			continue
		}
		f |= sqlDML(toks, v, w)
		if w.left < 0 {
			return f
		}
	}
	return f
}

// sqlVerb returns the index of the statement's verb when the statement
// starting at k is a DELETE, UPDATE or ALTER TABLE (skipping BEGIN,
// START TRANSACTION, a WITH clause and EXPLAIN), or -1; explained reports
// an EXPLAIN that does not run it.
func sqlVerb(toks []sqlTok, k int, w *sqlWork) (v int, explained bool) {
	explain, analyze := false, false
	base := toks[k].depth
	for j := k; j < len(toks) && w.step(); j++ {
		t := toks[j]
		if t.kind != tokWord {
			if t.kind == tokPunct && (t.text == "(" || t.text == ")" || t.text == ",") {
				continue
			}
			if explain || j > k && toks[k].text == "WITH" {
				continue
			}
			return -1, false
		}
		switch t.text {
		case "BEGIN", "START", "TRANSACTION", "WORK", "ATOMIC":
			continue
		case "EXPLAIN":
			explain = true
			continue
		case "ANALYZE", "ANALYSE":
			if explain {
				analyze = true
			}
			continue
		case "DELETE", "UPDATE":
			if t.depth != base && !explain && toks[k].text != "WITH" {
				continue
			}
			return j, explain && !analyze
		case "ALTER":
			if j+1 < len(toks) && toks[j+1].kind == tokWord && toks[j+1].text == "TABLE" {
				return j, explain && !analyze
			}
			return -1, false
		case "WITH", "RECURSIVE":
			continue
		}
		if explain || toks[k].text == "WITH" {
			// EXPLAIN's options, a CTE's name, AS, its body.
			continue
		}
		return -1, false
	}
	return -1, false
}

// sqlDML classifies the DELETE, UPDATE or ALTER TABLE statement whose verb
// is at v.
func sqlDML(toks []sqlTok, v int, w *sqlWork) sqlFinding {
	depth := toks[v].depth
	switch toks[v].text {
	case "DELETE":
		if at := whereAt(toks, v+1, depth, w); at < 0 || trivialWhere(toks, at, depth, w) {
			return sqlDeleteAll
		}
	case "UPDATE":
		set := false
		for j := v + 1; j < len(toks) && w.step(); j++ {
			if toks[j].kind == tokWord && toks[j].text == "SET" && toks[j].depth == depth {
				set = true
				break
			}
		}
		if !set {
			return 0
		}
		if at := whereAt(toks, v+1, depth, w); at < 0 || trivialWhere(toks, at, depth, w) {
			return sqlUpdateAll
		}
	case "ALTER":
		var f sqlFinding
		for j := v + 2; j < len(toks) && w.step(); j++ {
			t := toks[j]
			if t.kind != tokWord || t.depth != depth {
				continue
			}
			switch t.text {
			case "DELETE":
				// ClickHouse: ALTER TABLE t DELETE WHERE expr.
				if at := whereAt(toks, j+1, depth, w); at >= 0 && trivialWhere(toks, at, depth, w) {
					f |= sqlDeleteAll
				}
			case "UPDATE":
				if at := whereAt(toks, j+1, depth, w); at >= 0 && trivialWhere(toks, at, depth, w) {
					f |= sqlUpdateAll
				}
			}
		}
		return f
	}
	return 0
}

// whereAt returns the index of the first WHERE at depth from k on, before
// the statement leaves that depth (a data-modifying CTE ends at its
// closing parenthesis), or -1.
func whereAt(toks []sqlTok, k, depth int, w *sqlWork) int {
	for j := k; j < len(toks) && w.step(); j++ {
		if toks[j].depth < depth {
			return -1
		}
		if toks[j].kind == tokWord && toks[j].text == "WHERE" && toks[j].depth == depth {
			return j
		}
	}
	return -1
}

// trivialWhere reports a WHERE clause that holds for every row: WHERE 1,
// WHERE true, WHERE 1=1, WHERE 1 <> 0, ...
func trivialWhere(toks []sqlTok, at, depth int, w *sqlWork) bool {
	var b strings.Builder
	for j := at + 1; j < len(toks) && w.step(); j++ {
		t := toks[j]
		if t.kind == tokWord && t.depth == depth {
			switch t.text {
			case "RETURNING", "ORDER", "LIMIT", "OUTPUT", "SETTINGS":
				j = len(toks)
				continue
			}
		}
		if t.kind == tokPunct && (t.text == "(" || t.text == ")") {
			continue
		}
		if t.kind == tokLit && t.text == "" {
			// A string literal: 'a' = 'a' is as trivial as 1 = 1, but
			// rare; any other comparison is a real filter.
			b.WriteString("'")
			continue
		}
		b.WriteString(t.text)
		if b.Len() > 16 {
			return false
		}
	}
	switch b.String() {
	case "1", "TRUE", "1=1", "0=0", "1<>0", "1!=0", "1>0", "2>1", "NOTFALSE", "TRUE=TRUE", "'='", "1=1ORTRUE":
		return true
	}
	return false
}

// sqlDrop classifies DROP at k: a database, a schema, a table, or (in ALTER
// TABLE) a column or partition.
func sqlDrop(toks []sqlTok, k int, inAlter bool) sqlFinding {
	next := func(j int) string {
		if j < len(toks) && toks[j].kind == tokWord {
			return toks[j].text
		}
		return ""
	}
	if inAlter {
		j := k + 1
		for next(j) == "COLUMN" || next(j) == "IF" || next(j) == "EXISTS" {
			j++
		}
		switch next(j) {
		case "CONSTRAINT", "INDEX", "KEY", "FOREIGN", "PRIMARY", "UNIQUE", "CHECK", "DEFAULT", "NOT", "IDENTITY",
			"EXPRESSION", "TRIGGER", "PROJECTION", "STATISTICS", "ROW", "CLUSTERING", "SEARCH", "TTL", "CONSTRAINTS":
			return 0
		}
		if j < len(toks) && (toks[j].kind == tokWord || toks[j].kind == tokIdent) {
			return sqlAlterDrop
		}
		return 0
	}
	j := k + 1
	// DROP [TEMPORARY|TEMP] TABLE, DROP EXTERNAL TABLE, DROP MATERIALIZED ...
	switch next(j) {
	case "DATABASE", "SCHEMA", "KEYSPACE", "OWNED":
		return sqlDropDatabase
	case "ALL":
		if next(j+1) == "OBJECTS" {
			return sqlDropDatabase
		}
	case "TEMPORARY", "TEMP":
		return 0
	case "EXTERNAL":
		if next(j+1) == "TABLE" {
			return sqlDropTable
		}
	case "TABLE":
		// T-SQL's #temp tables are gone at the end of the session anyway.
		n := j + 1
		for next(n) == "IF" || next(n) == "EXISTS" {
			n++
		}
		if n < len(toks) && toks[n].kind == tokWord && strings.HasPrefix(toks[n].text, "#") {
			return 0
		}
		return sqlDropTable
	}
	return 0
}

// truncateStatement reports TRUNCATE [TABLE|ONLY] name at k, not the
// function truncate(x) nor the privilege (GRANT TRUNCATE ON t).
func truncateStatement(toks []sqlTok, k int) bool {
	if k > 0 && toks[k-1].kind == tokPunct && (toks[k-1].text == "." || toks[k-1].text == ",") {
		return false
	}
	if k > 0 && toks[k-1].kind == tokWord && (toks[k-1].text == "GRANT" || toks[k-1].text == "REVOKE" || toks[k-1].text == "ON" ||
		toks[k-1].text == "AFTER" || toks[k-1].text == "BEFORE" || toks[k-1].text == "OR" || toks[k-1].text == "AS") {
		return false
	}
	if k+1 >= len(toks) {
		return false
	}
	n := toks[k+1]
	switch n.kind {
	case tokIdent:
		return true
	case tokWord:
		switch n.text {
		case "ON", "TO", "FROM", "AS", "AND", "OR", "END", "THEN":
			return false
		}
		return true
	}
	return false
}

// grantAllPublic reports GRANT ALL [PRIVILEGES] ... TO PUBLIC.
func grantAllPublic(toks []sqlTok, w *sqlWork) bool {
	if len(toks) < 2 || toks[1].kind != tokWord || toks[1].text != "ALL" {
		return false
	}
	for j := 2; j+1 < len(toks) && w.step(); j++ {
		if toks[j].kind == tokWord && toks[j].text == "TO" && toks[j+1].kind == tokWord && toks[j+1].text == "PUBLIC" {
			return true
		}
	}
	return false
}
