package query

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"unicode"
	"unsafe"

	"github.com/voltex-editor/voltex/ecs"
)

// Edit is a change of one field (or of every item of a vector) of many entities, made for one
// world's components: Transform.position.y+=1, Transform.scale*=2, Health.current=x*2,
// Transform.position.x=rand(-10,10), Unit.team=Red, Name.value="Orc".
type Edit struct {
	src   string
	tg    target
	op    string // = += -= *= /=
	exprs []expr // one per leaf, or one for all
	// A value that is not a number: a string, an enum's name, true or false.
	text   string
	isText bool
}

// Change is an entity's component as an edit leaves it.
type Change struct {
	Entity ecs.Entity
	Value  any // the component's new value (its Go type, not a pointer)
}

// ParseEdit reads "Component.field OP EXPR" (see [Edit]) and checks it against the components
// registered in w; errors are *Error with the column.
func ParseEdit(w *ecs.World, src string) (*Edit, error) {
	p := &parser{src: []rune(src)}
	p.skipSpace()
	c := p.pos
	name := p.path()
	if name == "" {
		if p.pos == len(p.src) {
			return nil, p.errAt(c, "empty edit: give Component.field, an operator and a value (Transform.position.y+=1)")
		}
		return nil, p.errAt(c, "unexpected %q: an edit starts with Component.field", string(p.peek()))
	}
	if name == "name" {
		name = "Name.value"
	}
	tg, err := resolve(w, name, c+1)
	if err != nil {
		return nil, err
	}
	return parseEditOf(p, tg, src)
}

// ParseFieldEdit reads what is typed into one field's box ("+= 10", "*= 0.5", "= x*2", "rand(0,10)",
// or a plain value, which is set) for the field at path ("position.y", "scale") of component comp.
func ParseFieldEdit(w *ecs.World, comp, path, src string) (*Edit, error) {
	info, err := resolveComponent(w, comp, 1)
	if err != nil {
		return nil, err
	}
	tg, err := resolvePath(info, path, info.Name+"."+path, 1)
	if err != nil {
		return nil, err
	}
	p := &parser{src: []rune(src)}
	p.skipSpace()
	if !strings.ContainsAny(string(p.peek()), "+-*/=") || p.peek() == '-' && !strings.HasPrefix(strings.TrimSpace(src), "-=") {
		p.src = append([]rune("="), p.src...) // a plain value is set
	}
	e, err := parseEditOf(p, tg, src)
	if err != nil {
		var qe *Error
		if ok := asError(err, &qe); ok && len(p.src) > len([]rune(src)) && p.src[0] == '=' {
			qe.Col = max(1, qe.Col-1)
		}
		return nil, err
	}
	return e, nil
}

func asError(err error, out **Error) bool {
	e, ok := err.(*Error)
	if ok {
		*out = e
	}
	return ok
}

func parseEditOf(p *parser, tg target, src string) (*Edit, error) {
	p.skipSpace()
	e := &Edit{src: src, tg: tg}
	for _, op := range []string{"+=", "-=", "*=", "/=", "="} {
		if p.at(op) {
			e.op = op
			p.pos += len(op)
			break
		}
	}
	if e.op == "" {
		if p.pos == len(p.src) {
			return nil, p.errAt(p.pos, "the edit ends before its operator: =, +=, -=, *= or /=")
		}
		return nil, p.errAt(p.pos, "expected =, +=, -=, *= or /=, got %q", string(p.peek()))
	}
	p.skipSpace()
	first := tg.leaves[0]
	if p.pos == len(p.src) {
		return nil, p.errAt(p.pos, "the edit ends before its value")
	}
	switch first.kind {
	case kEntity:
		return nil, p.errAt(p.pos, "%s is an entity reference: edits change numbers, text, enums and true/false", first.name)
	case kString, kBool:
		if e.op != "=" {
			return nil, p.errAt(p.pos-len(e.op), "%s is %s: only = sets it", first.name, map[leafKind]string{kString: "text", kBool: "true or false"}[first.kind])
		}
		c := p.pos
		var v string
		if p.peek() == '"' {
			s, err := p.quoted()
			if err != nil {
				return nil, err
			}
			v = s
		} else {
			v = strings.TrimRightFunc(string(p.src[p.pos:]), unicode.IsSpace)
			p.pos = len(p.src)
		}
		p.skipSpace()
		if p.pos < len(p.src) {
			return nil, p.errAt(p.pos, "unexpected %q after the value", string(p.peek()))
		}
		if first.kind == kBool && v != "true" && v != "false" {
			return nil, p.errAt(c, "%s is true or false, not %q", first.name, v)
		}
		e.text, e.isText = v, true
		return e, nil
	}
	// An enum's name.
	if len(first.enum) > 0 && isNameRune(p.peek()) && !unicode.IsDigit(p.peek()) && !p.atWord("x") && !p.at("rand(") {
		c := p.pos
		for p.pos < len(p.src) && isNameRune(p.src[p.pos]) {
			p.pos++
		}
		name := string(p.src[c:p.pos])
		if e.op != "=" {
			return nil, p.errAt(c, "%s is an enum: set it with =", first.name)
		}
		n, ok := enumValue(first.enum, name)
		if !ok {
			var names []string
			for _, v := range first.enum {
				names = append(names, v.Name)
			}
			return nil, p.errAt(c, "%s has no value %q%s", first.name, name, didYouMean(name, names))
		}
		e.exprs = []expr{num(n)}
		return e, p.end()
	}
	if p.peek() == '[' {
		if !tg.vector {
			return nil, p.errAt(p.pos, "%s is a single value: give one value, not a list", first.name)
		}
		open := p.pos
		p.pos++
		for {
			x, err := p.expr(0)
			if err != nil {
				return nil, err
			}
			e.exprs = append(e.exprs, x)
			p.skipSpace()
			if p.peek() == ']' {
				p.pos++
				break
			}
			if p.peek() != ',' {
				if p.pos == len(p.src) {
					return nil, p.errAt(open, "this [ is not closed")
				}
				return nil, p.errAt(p.pos, "expected , or ], got %q", string(p.peek()))
			}
			p.pos++
		}
		if len(e.exprs) != len(tg.leaves) {
			return nil, p.errAt(open, "%s has %d items, the list %d", strings.TrimSuffix(first.name, "[0]"), len(tg.leaves), len(e.exprs))
		}
		return e, p.end()
	}
	x, err := p.expr(0)
	if err != nil {
		return nil, err
	}
	e.exprs = []expr{x}
	return e, p.end()
}

func (p *parser) end() error {
	p.skipSpace()
	if p.pos < len(p.src) {
		return p.errAt(p.pos, "unexpected %q", string(p.peek()))
	}
	return nil
}

// String returns the edit as written.
func (e *Edit) String() string { return e.src }

// Component returns the component the edit changes.
func (e *Edit) Component() ecs.ComponentID { return e.tg.leaves[0].comp }

// Fields names the values the edit changes (Transform.position[1], or each item of a vector).
func (e *Edit) Fields() []string {
	out := make([]string, len(e.tg.leaves))
	for i, l := range e.tg.leaves {
		out[i] = l.name
	}
	return out
}

// Apply computes the edit for each of ents that has the component, without changing w: the
// changes are the components' new values, for the entities whose value changes. rand(a, b)
// draws from seed and the entity's scene id, so the same seed gives the same values whatever the
// order or the number of entities. A result a field cannot hold (not finite, out of an integer
// type's range, a division by zero) is an error naming the entity; integer fields take results
// rounded to the nearest integer.
func (e *Edit) Apply(w *ecs.World, ents []ecs.Entity, seed uint64) ([]Change, error) {
	comp := e.Component()
	info := w.ComponentInfo(comp)
	var out []Change
	before := reflect.New(info.Type).Elem()
	for _, ent := range ents {
		v, ok := w.Get(ent, comp)
		if !ok {
			continue
		}
		root := reflect.New(info.Type).Elem()
		root.Set(reflect.ValueOf(v))
		before.Set(root)
		key := sceneID(w, ent)
		if key == 0 {
			key = uint64(ent.Index())
		}
		if err := e.applyTo(root.Addr().UnsafePointer(), seed, key); err != nil {
			return nil, fmt.Errorf("%s: %w", describe(w, ent), err)
		}
		if !reflect.DeepEqual(before.Interface(), root.Interface()) {
			out = append(out, Change{Entity: ent, Value: root.Interface()})
		}
	}
	return out, nil
}

// describe names an entity in messages: entity 1234 "Orc".
func describe(w *ecs.World, e ecs.Entity) string {
	s := "entity " + strconv.FormatUint(sceneID(w, e), 10)
	if id, ok := w.ComponentByName("Name"); ok {
		if v, ok := w.Get(e, id); ok {
			s += fmt.Sprintf(" %q", reflect.ValueOf(v).Field(0).String())
		}
	}
	return s
}

// applyTo applies the edit to the component value at base.
func (e *Edit) applyTo(base unsafe.Pointer, seed, key uint64) error {
	for i, l := range e.tg.leaves {
		p := unsafe.Add(base, l.off)
		if e.isText {
			if l.kind == kBool {
				*(*bool)(p) = e.text == "true"
			} else {
				*(*string)(p) = e.text
			}
			continue
		}
		x := e.exprs[0]
		if len(e.exprs) > 1 {
			x = e.exprs[i]
		}
		r := rng{state: seed ^ key*0x9e3779b97f4a7c15 ^ uint64(i+1)*0xbf58476d1ce4e5b9}
		var cur float64
		switch l.kind {
		case kInt:
			cur = float64(readInt(p, l.size))
		case kUint:
			cur = float64(readUint(p, l.size))
		default:
			cur = readFloat(p, l.size)
		}
		v := x.eval(cur, &r)
		switch e.op {
		case "+=":
			v = cur + v
		case "-=":
			v = cur - v
		case "*=":
			v = cur * v
		case "/=":
			if v == 0 {
				return fmt.Errorf("%s /= 0: a division by zero", l.name)
			}
			v = cur / v
		}
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%s would be %v: not a finite number", l.name, v)
		}
		if err := store(p, l, v); err != nil {
			return err
		}
	}
	return nil
}

// store writes v into the leaf at p, rounded for integers and checked against the type's range.
func store(p unsafe.Pointer, l leaf, v float64) error {
	switch l.kind {
	case kFloat:
		if l.size == 4 {
			if math.Abs(v) > math.MaxFloat32 {
				return fmt.Errorf("%s would be %g: more than a 32-bit float holds", l.name, v)
			}
			*(*float32)(p) = float32(v)
			return nil
		}
		*(*float64)(p) = v
		return nil
	case kInt, kUint:
		r := math.Round(v)
		bitsN := int(l.size * 8)
		lo, hi, what := -math.Ldexp(1, bitsN-1), math.Ldexp(1, bitsN-1), "integer"
		if l.kind == kUint {
			lo, hi, what = 0, math.Ldexp(1, bitsN), "unsigned integer"
		}
		if r < lo || r >= hi {
			return fmt.Errorf("%s would be %g: out of the range of a %d-bit %s", l.name, r, bitsN, what)
		}
		u := uint64(int64(r))
		if r >= math.Ldexp(1, 63) {
			u = uint64(r)
		}
		// Two's complement: the low bytes of the 64-bit value are the narrow value.
		switch l.size {
		case 1:
			*(*uint8)(p) = uint8(u)
		case 2:
			*(*uint16)(p) = uint16(u)
		case 4:
			*(*uint32)(p) = uint32(u)
		default:
			*(*uint64)(p) = u
		}
		return nil
	}
	return fmt.Errorf("%s cannot hold a number", l.name)
}

// rng is splitmix64: rand(a, b) of an edit, one stream per entity and item.
type rng struct{ state uint64 }

func (r *rng) float() float64 {
	r.state += 0x9e3779b97f4a7c15
	z := r.state
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	z ^= z >> 31
	return float64(z>>11) / (1 << 53)
}

// expr is the arithmetic of an edit's value: numbers, x (the value before), + - * /, parentheses
// and the functions rand(a, b), min, max, abs, round, floor, ceil.
type expr interface {
	eval(x float64, r *rng) float64
}

type (
	num   float64
	xVar  struct{}
	negOp struct{ a expr }
	binOp struct {
		op   rune
		a, b expr
	}
	call struct {
		name string
		args []expr
	}
)

func (n num) eval(float64, *rng) float64       { return float64(n) }
func (xVar) eval(x float64, _ *rng) float64    { return x }
func (n negOp) eval(x float64, r *rng) float64 { return -n.a.eval(x, r) }
func (b binOp) eval(x float64, r *rng) float64 {
	a, c := b.a.eval(x, r), b.b.eval(x, r)
	switch b.op {
	case '+':
		return a + c
	case '-':
		return a - c
	case '*':
		return a * c
	}
	if c == 0 {
		return math.NaN()
	}
	return a / c
}

func (c call) eval(x float64, r *rng) float64 {
	a := make([]float64, len(c.args))
	for i, e := range c.args {
		a[i] = e.eval(x, r)
	}
	switch c.name {
	case "rand":
		return a[0] + r.float()*(a[1]-a[0])
	case "min":
		return min(a[0], a[1])
	case "max":
		return max(a[0], a[1])
	case "abs":
		return math.Abs(a[0])
	case "round":
		return math.Round(a[0])
	case "floor":
		return math.Floor(a[0])
	}
	return math.Ceil(a[0])
}

var funcs = map[string]int{"rand": 2, "min": 2, "max": 2, "abs": 1, "round": 1, "floor": 1, "ceil": 1}

// expr parses arithmetic: level 0 is + and -, level 1 is * and /.
func (p *parser) expr(level int) (expr, error) {
	if p.depth >= maxDepth {
		return nil, p.errAt(p.pos, "nested more than %d deep", maxDepth)
	}
	p.depth++
	defer func() { p.depth-- }()
	if level == 2 {
		return p.factor()
	}
	a, err := p.expr(level + 1)
	if err != nil {
		return nil, err
	}
	for {
		p.skipSpace()
		r := p.peek()
		if level == 0 && r != '+' && r != '-' || level == 1 && r != '*' && r != '/' {
			return a, nil
		}
		p.pos++
		b, err := p.expr(level + 1)
		if err != nil {
			return nil, err
		}
		a = binOp{op: r, a: a, b: b}
	}
}

func (p *parser) factor() (expr, error) {
	p.skipSpace()
	c := p.pos
	switch r := p.peek(); {
	case p.pos == len(p.src):
		return nil, p.errAt(c, "the edit ends before a value")
	case r == '-':
		p.pos++
		a, err := p.expr(2)
		if err != nil {
			return nil, err
		}
		return negOp{a}, nil
	case r == '(':
		p.pos++
		a, err := p.expr(0)
		if err != nil {
			return nil, err
		}
		p.skipSpace()
		if p.peek() != ')' {
			return nil, p.errAt(c, "this ( is not closed")
		}
		p.pos++
		return a, nil
	case unicode.IsDigit(r) || r == '.':
		for p.pos < len(p.src) && (unicode.IsDigit(p.src[p.pos]) || p.src[p.pos] == '.' ||
			(p.src[p.pos] == 'e' || p.src[p.pos] == 'E') ||
			(p.src[p.pos] == '+' || p.src[p.pos] == '-') && p.pos > c && (p.src[p.pos-1] == 'e' || p.src[p.pos-1] == 'E')) {
			p.pos++
		}
		f, err := strconv.ParseFloat(string(p.src[c:p.pos]), 64)
		if err != nil || math.IsInf(f, 0) {
			return nil, p.errAt(c, "%q is not a number", string(p.src[c:p.pos]))
		}
		return num(f), nil
	case isNameRune(r):
		for p.pos < len(p.src) && isNameRune(p.src[p.pos]) {
			p.pos++
		}
		name := string(p.src[c:p.pos])
		if name == "x" {
			return xVar{}, nil
		}
		n, ok := funcs[name]
		if !ok {
			var names []string
			for f := range funcs {
				names = append(names, f)
			}
			return nil, p.errAt(c, "unknown %q: a value is a number, x (the value before) or a function (rand, min, max, abs, round, floor, ceil)%s", name, didYouMean(name, append(names, "x")))
		}
		p.skipSpace()
		if p.peek() != '(' {
			return nil, p.errAt(p.pos, "%s needs (…)", name)
		}
		p.pos++
		var args []expr
		for {
			a, err := p.expr(0)
			if err != nil {
				return nil, err
			}
			args = append(args, a)
			p.skipSpace()
			if p.peek() == ',' {
				p.pos++
				continue
			}
			if p.peek() != ')' {
				return nil, p.errAt(p.pos, "expected , or ) in %s(…)", name)
			}
			p.pos++
			break
		}
		if len(args) != n {
			return nil, p.errAt(c, "%s takes %d values, got %d", name, n, len(args))
		}
		return call{name: name, args: args}, nil
	default:
		return nil, p.errAt(c, "unexpected %q: expected a number, x or (", string(r))
	}
}
