package install

import (
	"encoding/json"
	"fmt"
)

// This file holds a small JSON parser that records where every value sits
// in the text, so that the settings editor can splice the hook entry in and
// out without re-encoding (and so reordering or reformatting) the rest of a
// user's file.

// node is one JSON value and its byte span [start, end) in the text.
type node struct {
	kind       byte // '{', '[', '"', or 'v' for numbers and literals
	start, end int
	members    []member // objects, in text order
	elems      []*node  // arrays
}

// member is one object member; keyStart is where its key's quote is.
type member struct {
	key      string
	keyStart int
	value    *node
}

// get returns the value of the last member named key (the one JSON.parse
// and most decoders keep), or nil.
func (n *node) get(key string) *node {
	if n == nil || n.kind != '{' {
		return nil
	}
	for i := len(n.members) - 1; i >= 0; i-- {
		if n.members[i].key == key {
			return n.members[i].value
		}
	}
	return nil
}

// maxDepth bounds nesting so a hostile file cannot exhaust the stack.
const maxDepth = 512

type parser struct {
	data     []byte
	pos      int
	comments bool // accept // and /* */ comments as whitespace
}

// SyntaxError reports where a settings file stops being valid JSON.
type SyntaxError struct {
	Offset int // byte offset of the problem
	Line   int // 1-based line
	Msg    string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

func (p *parser) fail(msg string) error {
	line := 1
	for _, c := range p.data[:min(p.pos, len(p.data))] {
		if c == '\n' {
			line++
		}
	}
	return &SyntaxError{Offset: p.pos, Line: line, Msg: msg}
}

// parseJSON parses data, which must hold exactly one JSON value (and, if
// comments is set, JavaScript-style comments between tokens).
func parseJSON(data []byte, comments bool) (*node, error) {
	p := &parser{data: data, comments: comments}
	if err := p.space(); err != nil {
		return nil, err
	}
	n, err := p.value(0)
	if err != nil {
		return nil, err
	}
	if err := p.space(); err != nil {
		return nil, err
	}
	if p.pos != len(p.data) {
		return nil, p.fail("unexpected data after the top-level value")
	}
	return n, nil
}

// space skips whitespace and, when enabled, comments.
func (p *parser) space() error {
	for p.pos < len(p.data) {
		switch c := p.data[p.pos]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			p.pos++
		case c == '/' && p.comments && p.pos+1 < len(p.data) && p.data[p.pos+1] == '/':
			for p.pos < len(p.data) && p.data[p.pos] != '\n' {
				p.pos++
			}
		case c == '/' && p.comments && p.pos+1 < len(p.data) && p.data[p.pos+1] == '*':
			end := -1
			for i := p.pos + 2; i+1 < len(p.data); i++ {
				if p.data[i] == '*' && p.data[i+1] == '/' {
					end = i + 2
					break
				}
			}
			if end < 0 {
				return p.fail("unterminated comment")
			}
			p.pos = end
		default:
			return nil
		}
	}
	return nil
}

func (p *parser) value(depth int) (*node, error) {
	if depth > maxDepth {
		return nil, p.fail("nesting is too deep")
	}
	if p.pos >= len(p.data) {
		return nil, p.fail("unexpected end of input")
	}
	switch c := p.data[p.pos]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		start := p.pos
		if err := p.str(); err != nil {
			return nil, err
		}
		return &node{kind: '"', start: start, end: p.pos}, nil
	case c == '-' || c >= '0' && c <= '9':
		start := p.pos
		if err := p.number(); err != nil {
			return nil, err
		}
		return &node{kind: 'v', start: start, end: p.pos}, nil
	default:
		for _, lit := range []string{"true", "false", "null"} {
			if len(p.data)-p.pos >= len(lit) && string(p.data[p.pos:p.pos+len(lit)]) == lit {
				start := p.pos
				p.pos += len(lit)
				return &node{kind: 'v', start: start, end: p.pos}, nil
			}
		}
		return nil, p.fail(fmt.Sprintf("unexpected character %q", c))
	}
}

func (p *parser) object(depth int) (*node, error) {
	n := &node{kind: '{', start: p.pos}
	done, err := p.enter(n, '}')
	for !done && err == nil {
		if p.pos >= len(p.data) || p.data[p.pos] != '"' {
			return nil, p.fail("expected a member name in double quotes")
		}
		keyStart := p.pos
		if err := p.str(); err != nil {
			return nil, err
		}
		var key string
		if err := json.Unmarshal(p.data[keyStart:p.pos], &key); err != nil {
			return nil, p.fail("invalid member name")
		}
		if err := p.space(); err != nil {
			return nil, err
		}
		if p.pos >= len(p.data) || p.data[p.pos] != ':' {
			return nil, p.fail("expected ':' after a member name")
		}
		p.pos++
		if err := p.space(); err != nil {
			return nil, err
		}
		v, verr := p.value(depth + 1)
		if verr != nil {
			return nil, verr
		}
		n.members = append(n.members, member{key: key, keyStart: keyStart, value: v})
		done, err = p.after(n, '}', "an object")
	}
	if err != nil {
		return nil, err
	}
	return n, nil
}

func (p *parser) array(depth int) (*node, error) {
	n := &node{kind: '[', start: p.pos}
	done, err := p.enter(n, ']')
	for !done && err == nil {
		v, verr := p.value(depth + 1)
		if verr != nil {
			return nil, verr
		}
		n.elems = append(n.elems, v)
		done, err = p.after(n, ']', "an array")
	}
	if err != nil {
		return nil, err
	}
	return n, nil
}

// enter skips an object's or array's opening bracket and the space after
// it; done reports an empty one, its closing bracket skipped too.
func (p *parser) enter(n *node, closer byte) (done bool, err error) {
	p.pos++
	if err := p.space(); err != nil {
		return false, err
	}
	if p.pos < len(p.data) && p.data[p.pos] == closer {
		p.pos++
		n.end = p.pos
		return true, nil
	}
	return false, nil
}

// after reads what follows a member or an element of what ("an object",
// "an array"): a comma and the space after it, or the closing bracket
// (done).
func (p *parser) after(n *node, closer byte, what string) (done bool, err error) {
	if err := p.space(); err != nil {
		return false, err
	}
	if p.pos >= len(p.data) {
		return false, p.fail("unexpected end of input in " + what)
	}
	switch p.data[p.pos] {
	case ',':
		p.pos++
		return false, p.space()
	case closer:
		p.pos++
		n.end = p.pos
		return true, nil
	}
	return false, p.fail("expected ',' or '" + string(closer) + "' in " + what)
}

func (p *parser) str() error {
	p.pos++ // opening quote
	for p.pos < len(p.data) {
		c := p.data[p.pos]
		switch {
		case c == '"':
			p.pos++
			return nil
		case c == '\\':
			if p.pos+1 >= len(p.data) {
				return p.fail("unterminated string")
			}
			switch p.data[p.pos+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				p.pos += 2
			case 'u':
				if p.pos+6 > len(p.data) {
					return p.fail("unterminated \\u escape")
				}
				for _, h := range p.data[p.pos+2 : p.pos+6] {
					if !isHex(h) {
						return p.fail("invalid \\u escape")
					}
				}
				p.pos += 6
			default:
				return p.fail("invalid escape in a string")
			}
		case c < 0x20:
			return p.fail("control character in a string")
		default:
			p.pos++
		}
	}
	return p.fail("unterminated string")
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

func (p *parser) digits() int {
	start := p.pos
	for p.pos < len(p.data) && p.data[p.pos] >= '0' && p.data[p.pos] <= '9' {
		p.pos++
	}
	return p.pos - start
}

func (p *parser) number() error {
	if p.data[p.pos] == '-' {
		p.pos++
	}
	if p.pos < len(p.data) && p.data[p.pos] == '0' {
		p.pos++
	} else if p.digits() == 0 {
		return p.fail("invalid number")
	}
	if p.pos < len(p.data) && p.data[p.pos] == '.' {
		p.pos++
		if p.digits() == 0 {
			return p.fail("invalid number")
		}
	}
	if p.pos < len(p.data) && (p.data[p.pos] == 'e' || p.data[p.pos] == 'E') {
		p.pos++
		if p.pos < len(p.data) && (p.data[p.pos] == '+' || p.data[p.pos] == '-') {
			p.pos++
		}
		if p.digits() == 0 {
			return p.fail("invalid number")
		}
	}
	return nil
}
