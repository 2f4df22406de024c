package query

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
)

// Query is a query made for one world's components: [Parse] checks it against them, [Query.Eval]
// runs it over that world.
type Query struct {
	src   string
	root  cnode
	shown []leaf // the values the query compares, in order, once each
}

// The compiled tree.
type cnode interface{}

type (
	cAnd    struct{ a, b cnode }
	cOr     struct{ a, b cnode }
	cNot    struct{ x cnode }
	cHas    struct{ id ecs.ComponentID }
	cParent struct{ inner cnode }
	// cCmp compares one leaf with a value.
	cCmp struct {
		l     leaf
		op    string // = != < <= > >= ~ !~
		f     float64
		i     int64
		u     uint64
		exact bool // i / u hold the value exactly (an integer literal)
		b     bool
		s     string
		g     glob
		// Entity references: to the entity with scene id refID (0: none), or to entities whose name
		// matches g (byName).
		refID  uint64
		byName bool
	}
)

// Parse reads a query and checks it against the components registered in w: an error is an
// *Error with the column and, for a misspelt component or field, the nearest name.
func Parse(w *ecs.World, src string) (*Query, error) {
	n, err := parseQuery(src)
	if err != nil {
		return nil, err
	}
	q := &Query{src: src}
	q.root, err = q.compile(w, n)
	if err != nil {
		return nil, err
	}
	return q, nil
}

// String returns the query as written.
func (q *Query) String() string { return q.src }

// Compared lists the values the query compares (Transform.position.y, name), once each, for
// showing them beside the matches.
func (q *Query) Compared() []string {
	out := make([]string, len(q.shown))
	for i, l := range q.shown {
		out[i] = l.name
	}
	return out
}

// Values returns the values of e that the query compares (as Compared names them), formatted as
// text; a value e lacks is "-".
func (q *Query) Values(w *ecs.World, e ecs.Entity) []string {
	out := make([]string, len(q.shown))
	for i, l := range q.shown {
		out[i] = "-"
		v, ok := w.Get(e, l.comp)
		if !ok {
			continue
		}
		root := reflect.New(reflect.TypeOf(v)).Elem()
		root.Set(reflect.ValueOf(v))
		out[i] = formatLeaf(w, l, root.Addr().UnsafePointer())
	}
	return out
}

func formatLeaf(w *ecs.World, l leaf, base unsafe.Pointer) string {
	p := unsafe.Add(base, l.off)
	switch l.kind {
	case kBool:
		return strconv.FormatBool(*(*bool)(p))
	case kInt:
		n := readInt(p, l.size)
		for _, ev := range l.enum {
			if ev.Value == n {
				return ev.Name
			}
		}
		return strconv.FormatInt(n, 10)
	case kUint:
		return strconv.FormatUint(readUint(p, l.size), 10)
	case kFloat:
		if l.size == 4 {
			return strconv.FormatFloat(float64(*(*float32)(p)), 'g', -1, 32)
		}
		return strconv.FormatFloat(*(*float64)(p), 'g', -1, 64)
	case kString:
		return strconv.Quote(*(*string)(p))
	case kEntity:
		r := *(*ecs.Entity)(p)
		if r.IsZero() || !w.Alive(r) {
			return "none"
		}
		return strconv.FormatUint(sceneID(w, r), 10)
	}
	return "?"
}

// Reads lists the components of w whose values Eval reads: those the query compares, and the names and scene ids
// that entity references are matched by. A snapshot or copy of w with only these values (ecs.World.Snapshot,
// ecs.World.ReadCopyOf) evaluates alike, on another goroutine.
func (q *Query) Reads(w *ecs.World) []ecs.ComponentID {
	var out []ecs.ComponentID
	if id, ok := ecs.ComponentIDOf[scene.Name](w); ok {
		out = append(out, id)
	}
	if id, ok := ecs.ComponentIDOf[scene.SceneID](w); ok {
		out = append(out, id)
	}
	for _, l := range q.shown {
		if !slices.Contains(out, l.comp) {
			out = append(out, l.comp)
		}
	}
	return out
}

func (q *Query) addShown(l leaf) {
	for _, s := range q.shown {
		if s.name == l.name {
			return
		}
	}
	q.shown = append(q.shown, l)
}

func (q *Query) compile2(w *ecs.World, a, b node) (cnode, cnode, error) {
	ca, err := q.compile(w, a)
	if err != nil {
		return nil, nil, err
	}
	cb, err := q.compile(w, b)
	return ca, cb, err
}

func (q *Query) compile(w *ecs.World, n node) (cnode, error) {
	switch n := n.(type) {
	case *andNode:
		a, b, err := q.compile2(w, n.a, n.b)
		if err != nil {
			return nil, err
		}
		return &cAnd{a, b}, nil
	case *orNode:
		a, b, err := q.compile2(w, n.a, n.b)
		if err != nil {
			return nil, err
		}
		return &cOr{a, b}, nil
	case *notNode:
		x, err := q.compile(w, n.x)
		if err != nil {
			return nil, err
		}
		return &cNot{x}, nil
	case *parentNode:
		x, err := q.compile(w, n.inner)
		if err != nil {
			return nil, err
		}
		return &cParent{x}, nil
	case *hasNode:
		info, err := resolveComponent(w, n.comp, n.c+1)
		if err != nil {
			return nil, err
		}
		return &cHas{info.ID}, nil
	case *cmpNode:
		return q.compileCmp(w, n)
	}
	panic(fmt.Sprintf("query: unknown node %T", n))
}

func (q *Query) compileCmp(w *ecs.World, n *cmpNode) (cnode, error) {
	if n.op == ":" {
		return nil, &Error{Col: n.c + 1, Msg: fmt.Sprintf("%s: is not a comparison (only parent: is); use = != < <= > >= or ~", n.target)}
	}
	tg, err := resolve(w, n.target, n.c+1)
	if err != nil {
		return nil, err
	}
	if !tg.vector {
		c, err := leafCmp(tg.leaves[0], n.op, n.val)
		if err != nil {
			return nil, err
		}
		q.addShown(tg.leaves[0])
		return c, nil
	}
	vcol := n.val.c + 1
	items := n.val.list
	switch {
	case n.op != "=" && n.op != "!=":
		return nil, &Error{Col: n.c + 1, Msg: fmt.Sprintf("%s is a vector: compare one item (%s.y %s …) or all with = or != [x, y, …]",
			n.target, n.target, n.op)}
	case n.val.kind == litNumber:
		for range tg.leaves {
			items = append(items, n.val)
		}
	case n.val.kind != litList:
		return nil, &Error{Col: vcol, Msg: fmt.Sprintf("%s is a vector: compare it with [x, y, …] or one number", n.target)}
	case len(items) != len(tg.leaves):
		return nil, &Error{Col: vcol, Msg: fmt.Sprintf("%s has %d items, the list %d", n.target, len(tg.leaves), len(items))}
	}
	// v = [a, b] is every item equal; v != [a, b] is any item different.
	var out cnode
	for i, l := range tg.leaves {
		c, err := leafCmp(l, n.op, items[i])
		if err != nil {
			return nil, err
		}
		q.addShown(l)
		switch {
		case out == nil:
			out = c
		case n.op == "=":
			out = &cAnd{out, c}
		default:
			out = &cOr{out, c}
		}
	}
	return out, nil
}

// leafCmp compiles the comparison of one leaf with a literal.
func leafCmp(l leaf, op string, v literal) (*cCmp, error) {
	c := &cCmp{l: l, op: op}
	col := v.c + 1
	if v.kind == litList {
		return nil, &Error{Col: col, Msg: fmt.Sprintf("%s is a single value, not a vector: compare it with one value", l.name)}
	}
	isOrder := op == "<" || op == "<=" || op == ">" || op == ">="
	isGlob := op == "~" || op == "!~"
	if isGlob && l.kind != kString {
		return nil, &Error{Col: col, Msg: fmt.Sprintf("~ matches text, and %s is not text: use = or !=", l.name)}
	}
	switch l.kind {
	case kString:
		c.s = v.str
		c.g = newGlob(v.str, isGlob)
		if isGlob {
			c.op = map[string]string{"~": "=", "!~": "!="}[op]
		}
	case kBool:
		if isOrder {
			return nil, &Error{Col: col, Msg: fmt.Sprintf("%s is true or false: use = or !=", l.name)}
		}
		switch strings.ToLower(v.str) {
		case "true":
			c.b = true
		case "false":
		default:
			return nil, &Error{Col: col, Msg: fmt.Sprintf("%s is true or false, not %q", l.name, v.str)}
		}
	case kEntity:
		if isOrder {
			return nil, &Error{Col: col, Msg: fmt.Sprintf("%s is an entity: use = or != with its id, its \"name\", or none", l.name)}
		}
		switch {
		case v.kind == litNumber:
			id, err := strconv.ParseUint(v.str, 10, 64)
			if err != nil {
				return nil, &Error{Col: col, Msg: fmt.Sprintf("%s is an entity: %q is not an entity id", l.name, v.str)}
			}
			c.refID = id
		case !v.quoted && v.str == "none":
		default:
			c.byName = true
			c.g = newGlob(v.str, false)
		}
	case kInt, kUint, kFloat:
		if v.kind != litNumber {
			n, ok := enumValue(l.enum, v.str)
			if !ok {
				if len(l.enum) > 0 {
					var names []string
					for _, e := range l.enum {
						names = append(names, e.Name)
					}
					return nil, &Error{Col: col, Msg: fmt.Sprintf("%s has no value %q%s", l.name, v.str, didYouMean(v.str, names))}
				}
				return nil, &Error{Col: col, Msg: fmt.Sprintf("%s is a number, not %q", l.name, v.str)}
			}
			v = literal{kind: litNumber, num: float64(n), str: strconv.FormatInt(n, 10)}
		}
		c.f = v.num
		if l.kind == kFloat && l.size == 4 {
			c.f = float64(float32(v.num)) // 0.6 is the float32 nearest 0.6, as stored
		}
		if i, err := strconv.ParseInt(v.str, 10, 64); err == nil {
			c.i, c.u, c.exact = i, uint64(i), i >= 0 || l.kind != kUint
		} else if u, err := strconv.ParseUint(v.str, 10, 64); err == nil {
			c.u, c.exact = u, l.kind == kUint
			c.i = math.MaxInt64
		}
		if math.IsNaN(c.f) {
			return nil, &Error{Col: col, Msg: "NaN is no number to compare with"}
		}
	}
	return c, nil
}

func enumValue(enum []ecs.EnumValue, name string) (int64, bool) {
	for _, e := range enum {
		if e.Name == name {
			return e.Value, true
		}
	}
	for _, e := range enum {
		if strings.EqualFold(e.Name, name) {
			return e.Value, true
		}
	}
	return 0, false
}

func readInt(p unsafe.Pointer, size uintptr) int64 {
	switch size {
	case 1:
		return int64(*(*int8)(p))
	case 2:
		return int64(*(*int16)(p))
	case 4:
		return int64(*(*int32)(p))
	}
	return *(*int64)(p)
}

func readUint(p unsafe.Pointer, size uintptr) uint64 {
	switch size {
	case 1:
		return uint64(*(*uint8)(p))
	case 2:
		return uint64(*(*uint16)(p))
	case 4:
		return uint64(*(*uint32)(p))
	}
	return *(*uint64)(p)
}

func readFloat(p unsafe.Pointer, size uintptr) float64 {
	if size == 4 {
		return float64(*(*float32)(p))
	}
	return *(*float64)(p)
}

// order applies op to the result of a three-way comparison.
func order(op string, c int) bool {
	switch op {
	case "=":
		return c == 0
	case "!=":
		return c != 0
	case "<":
		return c < 0
	case "<=":
		return c <= 0
	case ">":
		return c > 0
	}
	return c >= 0
}

func cmp3[T int64 | uint64 | float64 | string](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
