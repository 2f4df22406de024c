package query

import (
	"math"
	"math/bits"
	"reflect"
	"unsafe"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
)

// set is a set of entities by index: one bit each.
type set []uint64

func (s *set) add(i uint32) {
	w := int(i >> 6)
	if w >= len(*s) {
		n := make(set, max(w+1, 2*len(*s)))
		copy(n, *s)
		*s = n
	}
	(*s)[w] |= 1 << (i & 63)
}

func (s set) has(i uint32) bool {
	w := int(i >> 6)
	return w < len(s) && s[w]&(1<<(i&63)) != 0
}

// Result is the entities a query matched in a world.
type Result struct {
	w    *ecs.World
	bits set
	n    int
}

// Len returns the number of matches.
func (r *Result) Len() int { return r.n }

// Has reports whether e matched.
func (r *Result) Has(e ecs.Entity) bool { return r.w.Alive(e) && r.bits.has(e.Index()) }

// Entities returns the matches in ascending entity index.
func (r *Result) Entities() []ecs.Entity { return r.AppendEntities(nil) }

// AppendEntities appends the matches in ascending entity index to dst[:0] and returns it: Entities in memory of the
// caller's (a million matches each time make fresh pages of the heap).
func (r *Result) AppendEntities(dst []ecs.Entity) []ecs.Entity {
	out := dst[:0]
	if cap(out) < r.n {
		out = make([]ecs.Entity, 0, r.n)
	}
	if r.n == 0 {
		return out
	}
	r.w.EachEntity(func(e ecs.Entity) bool {
		if r.bits.has(e.Index()) {
			out = append(out, e)
		}
		return len(out) < r.n
	})
	return out
}

// evaluator runs one query over one world.
type evaluator struct {
	w   *ecs.World
	all set // every live entity, made when a not needs it
}

// Eval runs q over w (registered with the components q was parsed against): column by column,
// without copying values. It does not change w.
func (q *Query) Eval(w *ecs.World) *Result {
	ev := &evaluator{w: w}
	s := ev.eval(q.root)
	n := 0
	for _, x := range s {
		n += bits.OnesCount64(x)
	}
	return &Result{w: w, bits: s, n: n}
}

func (ev *evaluator) universe() set {
	if ev.all == nil {
		ev.all = set{}
		ev.w.EachEntity(func(e ecs.Entity) bool { ev.all.add(e.Index()); return true })
	}
	return ev.all
}

func (ev *evaluator) eval(n cnode) set {
	switch n := n.(type) {
	case *cAnd:
		a := ev.eval(n.a)
		if isEmpty(a) {
			return a
		}
		b := ev.eval(n.b)
		out := make(set, min(len(a), len(b)))
		for i := range out {
			out[i] = a[i] & b[i]
		}
		return out
	case *cOr:
		a, b := ev.eval(n.a), ev.eval(n.b)
		if len(a) < len(b) {
			a, b = b, a
		}
		out := make(set, len(a))
		copy(out, a)
		for i, x := range b {
			out[i] |= x
		}
		return out
	case *cNot:
		x := ev.eval(n.x)
		all := ev.universe()
		out := make(set, len(all))
		for i, a := range all {
			if i < len(x) {
				a &^= x[i]
			}
			out[i] = a
		}
		return out
	case *cHas:
		out := set{}
		ev.w.EachColumn(n.id, func(ents []ecs.Entity, _ reflect.Value) bool {
			for _, e := range ents {
				out.add(e.Index())
			}
			return true
		})
		return out
	case *cParent:
		return ev.below(ev.eval(n.inner))
	case *cCmp:
		return ev.compare(n)
	}
	panic("query: unknown compiled node")
}

func isEmpty(s set) bool {
	for _, x := range s {
		if x != 0 {
			return false
		}
	}
	return true
}

// below returns the entities under (at any depth) those of roots.
func (ev *evaluator) below(roots set) set {
	out := set{}
	if isEmpty(roots) {
		return out
	}
	var stack, kids []ecs.Entity
	ev.w.EachEntity(func(e ecs.Entity) bool {
		if roots.has(e.Index()) {
			stack = append(stack, e)
		}
		return true
	})
	for len(stack) > 0 {
		e := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		kids = ev.w.AppendChildren(kids[:0], e)
		for _, k := range kids {
			if !out.has(k.Index()) {
				out.add(k.Index())
				stack = append(stack, k)
			}
		}
	}
	return out
}

// compare scans the leaf's component column by column.
func (ev *evaluator) compare(c *cCmp) set {
	pred := ev.predicate(c)
	out := set{}
	off := c.l.off
	ev.w.EachColumn(c.l.comp, func(ents []ecs.Entity, values reflect.Value) bool {
		if len(ents) == 0 {
			return true
		}
		stride := values.Type().Elem().Size()
		base := values.UnsafePointer()
		for i, e := range ents {
			if pred(unsafe.Add(base, uintptr(i)*stride+off)) {
				out.add(e.Index())
			}
		}
		return true
	})
	return out
}

// predicate returns the test of one stored value (a pointer to the leaf).
func (ev *evaluator) predicate(c *cCmp) func(unsafe.Pointer) bool {
	op, size := c.op, c.l.size
	switch c.l.kind {
	case kBool:
		want := c.b == (op == "=")
		return func(p unsafe.Pointer) bool { return *(*bool)(p) == want }
	case kString:
		if c.op == "=" || c.op == "!=" {
			eq := op == "="
			g := c.g
			return func(p unsafe.Pointer) bool { return g.match(*(*string)(p)) == eq }
		}
		return func(p unsafe.Pointer) bool { return order(op, cmp3(*(*string)(p), c.s)) }
	case kFloat:
		f := c.f
		if size == 4 && op == ">" {
			f32 := float32(f)
			if float64(f32) == f {
				return func(p unsafe.Pointer) bool { return *(*float32)(p) > f32 }
			}
		}
		return func(p unsafe.Pointer) bool {
			x := readFloat(p, size)
			if math.IsNaN(x) {
				return op == "!="
			}
			return order(op, cmp3(x, f))
		}
	case kInt:
		if !c.exact {
			return func(p unsafe.Pointer) bool { return order(op, cmp3(float64(readInt(p, size)), c.f)) }
		}
		return func(p unsafe.Pointer) bool { return order(op, cmp3(readInt(p, size), c.i)) }
	case kUint:
		if !c.exact {
			return func(p unsafe.Pointer) bool { return order(op, cmp3(float64(readUint(p, size)), c.f)) }
		}
		return func(p unsafe.Pointer) bool { return order(op, cmp3(readUint(p, size), c.u)) }
	case kEntity:
		eq := op == "="
		w := ev.w
		switch {
		case c.byName:
			named := ev.named(&c.g)
			return func(p unsafe.Pointer) bool {
				r := *(*ecs.Entity)(p)
				return (!r.IsZero() && w.Alive(r) && named.has(r.Index())) == eq
			}
		case c.refID == 0:
			return func(p unsafe.Pointer) bool {
				r := *(*ecs.Entity)(p)
				return (r.IsZero() || !w.Alive(r)) == eq
			}
		default:
			target := ev.withID(c.refID)
			return func(p unsafe.Pointer) bool {
				r := *(*ecs.Entity)(p)
				return (!r.IsZero() && r == target && w.Alive(r)) == eq
			}
		}
	}
	panic("query: unknown leaf kind")
}

// named returns the entities whose name matches g.
func (ev *evaluator) named(g *glob) set {
	out := set{}
	id, ok := ecs.ComponentIDOf[scene.Name](ev.w)
	if !ok {
		return out
	}
	ev.w.EachColumn(id, func(ents []ecs.Entity, values reflect.Value) bool {
		names := values.Interface().([]scene.Name)
		for i, e := range ents {
			if g.match(names[i].Value) {
				out.add(e.Index())
			}
		}
		return true
	})
	return out
}

// withID returns the entity whose scene id is id (the zero Entity if none).
func (ev *evaluator) withID(id uint64) ecs.Entity {
	var found ecs.Entity
	sid, ok := ecs.ComponentIDOf[scene.SceneID](ev.w)
	if !ok {
		return found
	}
	ev.w.EachColumn(sid, func(ents []ecs.Entity, values reflect.Value) bool {
		for i, s := range values.Interface().([]scene.SceneID) {
			if s.ID == id {
				found = ents[i]
				return false
			}
		}
		return true
	})
	return found
}

// sceneID returns e's scene id (0 without one).
func sceneID(w *ecs.World, e ecs.Entity) uint64 {
	if id, ok := ecs.ComponentIDOf[scene.SceneID](w); ok {
		if v, ok := w.Get(e, id); ok {
			return v.(scene.SceneID).ID
		}
	}
	return 0
}
