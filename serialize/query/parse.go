package query

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// Error is a query or edit that cannot be read or does not fit the components: Col is the
// 1-based column (in characters) where the problem is.
type Error struct {
	Col int
	Msg string
}

func (e *Error) Error() string { return fmt.Sprintf("col %d: %s", e.Col, e.Msg) }

// The parsed form of a query: a tree of nodes.
type node interface{ col() int }

type (
	andNode struct {
		c    int
		a, b node
	}
	orNode struct {
		c    int
		a, b node
	}
	notNode struct {
		c int
		x node
	}
	// hasNode is a component's presence.
	hasNode struct {
		c    int
		comp string
	}
	// cmpNode compares a target (name, id, or Comp.path) with a value.
	cmpNode struct {
		c      int
		target string
		op     string
		val    literal
	}
	// parentNode matches the entities below (at any depth) those its inner query matches.
	parentNode struct {
		c     int
		inner node
	}
)

func (n *andNode) col() int    { return n.c }
func (n *orNode) col() int     { return n.c }
func (n *notNode) col() int    { return n.c }
func (n *hasNode) col() int    { return n.c }
func (n *cmpNode) col() int    { return n.c }
func (n *parentNode) col() int { return n.c }

// literal is a value as written: a number, a quoted string, a bare word or a list of numbers.
type literal struct {
	c      int
	kind   litKind
	num    float64
	str    string // a string's contents, a word, or a number's text
	list   []literal
	quoted bool
}

type litKind uint8

const (
	litNumber litKind = iota
	litString         // quoted, or a bare word that is not a number
	litList
)

// maxDepth bounds the nesting of parentheses and nots, so that no input runs the parser out of stack.
const maxDepth = 200

type parser struct {
	src   []rune
	pos   int
	depth int
}

func (p *parser) errAt(pos int, format string, args ...any) *Error {
	return &Error{Col: pos + 1, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) skipSpace() {
	for p.pos < len(p.src) && unicode.IsSpace(p.src[p.pos]) {
		p.pos++
	}
}

func (p *parser) peek() rune {
	if p.pos < len(p.src) {
		return p.src[p.pos]
	}
	return 0
}

func (p *parser) at(s string) bool {
	r := []rune(s)
	if p.pos+len(r) > len(p.src) {
		return false
	}
	for i, c := range r {
		if p.src[p.pos+i] != c {
			return false
		}
	}
	return true
}

// atWord reports whether the keyword w starts at the position and ends there (not a prefix of a name).
func (p *parser) atWord(w string) bool {
	if !p.at(w) {
		return false
	}
	end := p.pos + len([]rune(w))
	return end == len(p.src) || !isNameRune(p.src[end])
}

func isNameRune(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }

// parseQuery parses a whole query.
func parseQuery(src string) (node, error) {
	p := &parser{src: []rune(src)}
	p.skipSpace()
	if p.pos == len(p.src) {
		return nil, p.errAt(0, "empty query: give a component (Spin), a comparison (Transform.position.y>2) or name~\"Cube*\"")
	}
	n, err := p.or()
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.pos < len(p.src) {
		if p.peek() == ')' {
			return nil, p.errAt(p.pos, "a ) without its (")
		}
		return nil, p.errAt(p.pos, "unexpected %q", string(p.peek()))
	}
	return n, nil
}

func (p *parser) or() (node, error) {
	return p.binary(p.and, func(c int, a, b node) node { return &orNode{c: c, a: a, b: b} }, func() bool {
		switch {
		case p.at("||"):
			p.pos += 2
		case p.peek() == '|':
			p.pos++
		case p.atWord("or"):
			p.pos += 2
		default:
			return false
		}
		return true
	})
}

// and parses terms joined by "and", "&&", "&" or nothing (juxtaposition).
func (p *parser) and() (node, error) {
	return p.binary(p.unary, func(c int, a, b node) node { return &andNode{c: c, a: a, b: b} }, func() bool {
		switch {
		case p.at("&&"):
			p.pos += 2
		case p.peek() == '&':
			p.pos++
		case p.atWord("and"):
			p.pos += 3
		case p.pos == len(p.src) || p.peek() == ')' || p.peek() == '|' || p.atWord("or"):
			return false
		}
		return true
	})
}

// binary parses operands joined left to right while joined consumes a joiner (or reports one
// implied).
func (p *parser) binary(operand func() (node, error), join func(c int, a, b node) node, joined func() bool) (node, error) {
	a, err := operand()
	if err != nil {
		return nil, err
	}
	for {
		p.skipSpace()
		c := p.pos
		if !joined() {
			return a, nil
		}
		b, err := operand()
		if err != nil {
			return nil, err
		}
		a = join(c, a, b)
	}
}

func (p *parser) unary() (node, error) {
	p.skipSpace()
	c := p.pos
	if p.depth >= maxDepth {
		return nil, p.errAt(c, "nested more than %d deep", maxDepth)
	}
	p.depth++
	defer func() { p.depth-- }()
	switch {
	case p.peek() == '!' && !p.at("!="):
		p.pos++
		x, err := p.unary()
		if err != nil {
			return nil, err
		}
		return &notNode{c: c, x: x}, nil
	case p.atWord("not"):
		p.pos += 3
		x, err := p.unary()
		if err != nil {
			return nil, err
		}
		return &notNode{c: c, x: x}, nil
	case p.peek() == '(':
		return p.group()
	}
	return p.term()
}

// group parses "( query )".
func (p *parser) group() (node, error) {
	open := p.pos
	p.pos++
	p.skipSpace()
	if p.peek() == ')' {
		return nil, p.errAt(p.pos, "empty parentheses")
	}
	n, err := p.or()
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.peek() != ')' {
		if p.pos == len(p.src) {
			return nil, p.errAt(open, "this ( is not closed")
		}
		return nil, p.errAt(p.pos, "unexpected %q: expected )", string(p.peek()))
	}
	p.pos++
	return n, nil
}

// term parses a component, a comparison, name~…, id=… or parent:….
func (p *parser) term() (node, error) {
	c := p.pos
	if p.pos == len(p.src) {
		return nil, p.errAt(c, "the query ends too soon: expected a component, a comparison or (")
	}
	if !isNameRune(p.peek()) {
		return nil, p.errAt(c, "unexpected %q: expected a component, a comparison or (", string(p.peek()))
	}
	target := p.path()
	if target == "and" || target == "or" {
		return nil, p.errAt(c, "unexpected %q: expected a component, a comparison or (", target)
	}
	if target == "" {
		return nil, p.errAt(c, "unexpected %q", string(p.peek()))
	}
	p.skipSpace()
	if target == "parent" && p.peek() == ':' {
		p.pos++
		p.skipSpace()
		if p.peek() == '(' {
			inner, err := p.group()
			if err != nil {
				return nil, err
			}
			return &parentNode{c: c, inner: inner}, nil
		}
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		var inner node
		switch v.kind {
		case litNumber:
			inner = &cmpNode{c: v.c, target: "id", op: "=", val: v}
		case litString:
			inner = &cmpNode{c: v.c, target: "name", op: "=", val: v}
		default:
			return nil, p.errAt(v.c, "parent: takes a name, an id or a (query)")
		}
		return &parentNode{c: c, inner: inner}, nil
	}
	op := p.op()
	if op == "" {
		if target == "name" || target == "id" || target == "parent" {
			return nil, p.errAt(p.pos, "%s needs a comparison: %s", target, map[string]string{
				"name": `name~"Orc*"`, "id": "id=1234", "parent": `parent:"Wave 2"`}[target])
		}
		if strings.ContainsAny(target, ".[") {
			return nil, p.errAt(p.pos, "%s needs a comparison (=, !=, <, <=, >, >=, ~) and a value", target)
		}
		return &hasNode{c: c, comp: target}, nil
	}
	v, err := p.value()
	if err != nil {
		return nil, err
	}
	return &cmpNode{c: c, target: target, op: op, val: v}, nil
}

// path reads a name with dots and indexes: Transform.position.y, Waypoints.list[2].wait.
func (p *parser) path() string {
	start := p.pos
	for p.pos < len(p.src) {
		r := p.src[p.pos]
		switch {
		case isNameRune(r), r == '.':
			p.pos++
		case r == '[':
			j := p.pos + 1
			for j < len(p.src) && unicode.IsDigit(p.src[j]) {
				j++
			}
			if j == p.pos+1 || j == len(p.src) || p.src[j] != ']' {
				return string(p.src[start:p.pos])
			}
			p.pos = j + 1
		default:
			return string(p.src[start:p.pos])
		}
	}
	return string(p.src[start:p.pos])
}

var ops = []string{"!=", "<=", ">=", "!~", "=", "<", ">", "~", ":"}

func (p *parser) op() string {
	for _, o := range ops {
		if p.at(o) {
			p.pos += len(o)
			return o
		}
	}
	return ""
}

// value reads a value: "quoted", [1, 2, 3], a number or a bare word (up to a space or a parenthesis).
func (p *parser) value() (literal, error) {
	p.skipSpace()
	c := p.pos
	switch r := p.peek(); {
	case p.pos == len(p.src):
		return literal{}, p.errAt(c, "the query ends before the value")
	case r == '"':
		s, err := p.quoted()
		if err != nil {
			return literal{}, err
		}
		return literal{c: c, kind: litString, str: s, quoted: true}, nil
	case r == '[':
		return p.list()
	case r == '(' || r == ')':
		return literal{}, p.errAt(c, "expected a value, got %q", string(r))
	}
	for p.pos < len(p.src) && !unicode.IsSpace(p.src[p.pos]) && p.src[p.pos] != '(' && p.src[p.pos] != ')' {
		p.pos++
	}
	return word(c, string(p.src[c:p.pos])), nil
}

// word classifies a bare value: a number or a string.
func word(c int, s string) literal {
	if x, err := strconv.ParseFloat(s, 64); err == nil && !strings.ContainsAny(s, "xXpP_") {
		return literal{c: c, kind: litNumber, num: x, str: s}
	}
	return literal{c: c, kind: litString, str: s}
}

// quoted reads "…" with \" and \\ escapes.
func (p *parser) quoted() (string, error) {
	open := p.pos
	p.pos++
	var b strings.Builder
	for p.pos < len(p.src) {
		r := p.src[p.pos]
		switch r {
		case '"':
			p.pos++
			return b.String(), nil
		case '\\':
			if p.pos+1 < len(p.src) {
				p.pos++
				r = p.src[p.pos]
				if r != '"' && r != '\\' {
					b.WriteRune('\\') // a glob's own escape (\*) stays
				}
			}
		}
		b.WriteRune(r)
		p.pos++
	}
	return "", p.errAt(open, "this string is not closed (a \" is missing)")
}

// list reads [n, n, …].
func (p *parser) list() (literal, error) {
	open := p.pos
	p.pos++
	out := literal{c: open, kind: litList}
	for {
		p.skipSpace()
		if p.peek() == ']' && len(out.list) == 0 {
			return literal{}, p.errAt(p.pos, "an empty list")
		}
		c := p.pos
		for p.pos < len(p.src) && !unicode.IsSpace(p.src[p.pos]) && p.src[p.pos] != ',' && p.src[p.pos] != ']' {
			p.pos++
		}
		if c == p.pos {
			if p.pos == len(p.src) {
				return literal{}, p.errAt(open, "this [ is not closed")
			}
			return literal{}, p.errAt(c, "expected a number, got %q", string(p.peek()))
		}
		item := word(c, string(p.src[c:p.pos]))
		if item.kind != litNumber {
			return literal{}, p.errAt(c, "%q is not a number", item.str)
		}
		out.list = append(out.list, item)
		p.skipSpace()
		switch p.peek() {
		case ',':
			p.pos++
		case ']':
			p.pos++
			return out, nil
		default:
			if p.pos == len(p.src) {
				return literal{}, p.errAt(open, "this [ is not closed")
			}
			return literal{}, p.errAt(p.pos, "expected , or ], got %q", string(p.peek()))
		}
	}
}
