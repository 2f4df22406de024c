package ecs_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/internal/treeshape"
)

func spawnTree(w *ecs.World, ps []int) []ecs.Entity {
	es := make([]ecs.Entity, len(ps))
	tm := ecs.NewMap[ecs.Transform](w)
	for i := range es {
		es[i] = tm.Spawn(ecs.Transform{Position: mgl32.Vec3{1, 0, 0}, Scale: mgl32.Vec3{1, 1, 1}})
	}
	return es
}

func linksOf(es []ecs.Entity, ps []int, order []int) []ecs.ParentLink {
	var links []ecs.ParentLink
	for _, i := range order {
		if ps[i] >= 0 {
			links = append(links, ecs.ParentLink{Child: es[i], Parent: es[ps[i]]})
		}
	}
	return links
}

// TestHierarchyLinear checks, by counting the links followed (not by timing), that building,
// propagating, reordering and deleting hierarchies cost O(n) whatever the shape, a deep chain
// too (O(n²) if SetParent walked every ancestor, propagation computed every depth from scratch
// or detaching scanned the sibling list).
func TestHierarchyLinear(t *testing.T) {
	const n = 20_000
	const perEntity = 6 // allowed links followed per entity and operation
	for _, shape := range treeshape.Names {
		t.Run(shape, func(t *testing.T) {
			ps := treeshape.Parents(shape, n)
			check := func(what string, w *ecs.World, before uint64) {
				t.Helper()
				if d := ecs.HierarchySteps(w) - before; d > perEntity*n {
					t.Errorf("%s: %d steps for %d entities (more than %d each): not linear", what, d, n, perEntity)
				}
			}
			orders := map[string][]int{"top-down": make([]int, n), "bottom-up": make([]int, n), "shuffled": make([]int, n)}
			for i := range n {
				orders["top-down"][i], orders["bottom-up"][i], orders["shuffled"][i] = i, n-1-i, i
			}
			rand.New(rand.NewPCG(1, 2)).Shuffle(n, func(i, j int) {
				orders["shuffled"][i], orders["shuffled"][j] = orders["shuffled"][j], orders["shuffled"][i]
			})
			for _, name := range []string{"top-down", "bottom-up", "shuffled"} {
				order := orders[name]
				// SetParents in any order.
				w := ecs.NewWorld()
				es := spawnTree(w, ps)
				s := ecs.HierarchySteps(w)
				if err := w.SetParents(linksOf(es, ps, order)); err != nil {
					t.Fatal(err)
				}
				check("SetParents "+name, w, s)
				checkTree(t, w, es, ps)
				// SetParent one by one: linear when built top-down or bottom-up.
				if name != "shuffled" {
					w := ecs.NewWorld()
					es := spawnTree(w, ps)
					s := ecs.HierarchySteps(w)
					for _, l := range linksOf(es, ps, order) {
						if err := w.SetParent(l.Child, l.Parent); err != nil {
							t.Fatal(err)
						}
					}
					check("SetParent "+name, w, s)
					checkTree(t, w, es, ps)
				}
			}
			w := ecs.NewWorld()
			es := spawnTree(w, ps)
			if err := w.SetParents(linksOf(es, ps, orders["top-down"])); err != nil {
				t.Fatal(err)
			}
			s := ecs.HierarchySteps(w)
			w.PropagateTransforms() // every entity changed: the load case
			check("propagation", w, s)
			checkTree(t, w, es, ps)
			// Move every entity a little: again every entity changed.
			tm := ecs.NewMap[ecs.Transform](w)
			for _, e := range es {
				tm.Mut(e).Position[1] = 1
			}
			s = ecs.HierarchySteps(w)
			w.PropagateTransforms()
			check("propagation of moved entities", w, s)
			checkTree(t, w, es, ps)
			// Reverse every child list.
			s = ecs.HierarchySteps(w)
			for _, e := range es {
				cs := w.Children(e)
				slices.Reverse(cs)
				if err := w.SetChildren(e, cs); err != nil {
					t.Fatal(err)
				}
			}
			check("SetChildren", w, s)
			// Delete everything from the roots.
			s = ecs.HierarchySteps(w)
			removed := 0
			for i, e := range es {
				if ps[i] < 0 {
					removed += w.DespawnRecursive(e)
				}
			}
			check("DespawnRecursive", w, s)
			eq(t, "removed", removed, n)
			eq(t, "left", w.Len(), 0)
		})
	}
}

// checkTree checks parents, child counts and world matrices (every Transform is +1 on X, so an
// entity's world X is its depth + 1).
func checkTree(t *testing.T, w *ecs.World, es []ecs.Entity, ps []int) {
	t.Helper()
	depth := make([]int, len(ps))
	kids := make([]int, len(ps))
	gm := ecs.NewMap[ecs.GlobalTransform](w)
	w.PropagateTransforms()
	for i, p := range ps {
		want := ecs.Entity{}
		if p >= 0 {
			want = es[p]
			depth[i] = depth[p] + 1
			kids[p]++
		}
		if got := w.Parent(es[i]); got != want {
			t.Fatalf("parent of %d: got %v, want %v", i, got, want)
		}
		if x, y := gm.Get(es[i]).Matrix.At(0, 3), gm.Get(es[i]).Matrix.At(1, 3); x != float32(depth[i]+1) || y != 0 && y != float32(depth[i]+1) {
			t.Fatalf("world position of %d (depth %d): %v, %v", i, depth[i], x, y)
		}
	}
	for i := range ps {
		eq(t, fmt.Sprintf("children of %d", i), w.ChildCount(es[i]), kids[i])
	}
}

// TestHierarchyModel applies random hierarchy operations to a world and to a simple model (a
// parent per entity and ordered child lists) and compares them after every step.
func TestHierarchyModel(t *testing.T) {
	for seed := range uint64(20) {
		h := &hierModel{t: t, seed: seed, r: rand.New(rand.NewPCG(seed, 99)), w: ecs.NewWorld()}
		h.tm = ecs.NewMap[ecs.Transform](h.w)
		for h.step = range 400 {
			if h.apply() {
				h.compare()
			}
		}
		c := h.w.Clone()
		for i, n := range h.m {
			if n.alive && (c.Parent(n.e) != h.w.Parent(n.e) || !slices.Equal(c.Children(n.e), h.w.Children(n.e))) {
				t.Fatalf("seed %d: the clone's hierarchy differs at %d", seed, i)
			}
		}
	}
}

// hierModel is TestHierarchyModel's world and the model it is checked against.
type hierModel struct {
	t    *testing.T
	seed uint64
	step int
	r    *rand.Rand
	w    *ecs.World
	tm   *ecs.Map[ecs.Transform]
	m    []hierNode
}

type hierNode struct {
	e      ecs.Entity
	parent int // -1 root
	kids   []int
	alive  bool
}

func (h *hierModel) live() []int {
	var out []int
	for i := range h.m {
		if h.m[i].alive {
			out = append(out, i)
		}
	}
	return out
}

// isAnc reports whether a is b or an ancestor of b.
func (h *hierModel) isAnc(a, b int) bool {
	for x := b; x >= 0; x = h.m[x].parent {
		if x == a {
			return true
		}
	}
	return false
}

func (h *hierModel) detach(c int) {
	if p := h.m[c].parent; p >= 0 {
		h.m[p].kids = slices.DeleteFunc(h.m[p].kids, func(k int) bool { return k == c })
	}
	h.m[c].parent = -1
}

func (h *hierModel) attach(c, p int) {
	if h.m[c].parent == p {
		return
	}
	h.detach(c)
	if p >= 0 {
		h.m[c].parent = p
		h.m[p].kids = append(h.m[p].kids, c)
	}
}

// pick returns a live node, or -1 (no entity) now and then.
func (h *hierModel) pick() int {
	l := h.live()
	if len(l) == 0 || h.r.IntN(8) == 0 {
		return -1
	}
	return l[h.r.IntN(len(l))]
}

func (h *hierModel) ent(i int) ecs.Entity {
	if i < 0 {
		return ecs.Entity{}
	}
	return h.m[i].e
}

// apply makes one random operation on the world and the model; it reports whether they are to
// be compared (not after an operation that did nothing or was refused).
func (h *hierModel) apply() bool {
	switch op := h.r.IntN(10); {
	case op < 2 || len(h.live()) < 3:
		e := h.tm.Spawn(ecs.Transform{Position: mgl32.Vec3{float32(h.r.IntN(5)), 0, 0}, Scale: mgl32.Vec3{1, 1, 1}})
		h.m = append(h.m, hierNode{e: e, parent: -1, alive: true})
		return true
	case op < 4:
		return h.setParent()
	case op < 6:
		h.setParents()
		return true
	case op < 7:
		return h.setChildren()
	case op < 8:
		c := h.pick()
		if c < 0 {
			return false
		}
		h.w.Despawn(h.ent(c))
		h.detach(c)
		for _, k := range h.m[c].kids {
			h.m[k].parent = -1
		}
		h.m[c].kids, h.m[c].alive = nil, false
		return true
	case op < 9:
		return h.despawnRecursive()
	default:
		if c := h.pick(); c >= 0 {
			h.tm.Mut(h.ent(c)).Position[2] = float32(h.r.IntN(9))
		}
		return true
	}
}

func (h *hierModel) setParent() bool {
	c, p := h.pick(), h.pick()
	if c < 0 {
		return false
	}
	err := h.w.SetParent(h.ent(c), h.ent(p))
	if p >= 0 && h.isAnc(c, p) {
		if !errors.Is(err, ecs.ErrCycle) {
			h.t.Fatalf("seed %d step %d: SetParent(%d, %d) = %v, want a cycle", h.seed, h.step, c, p, err)
		}
		return false
	}
	if err != nil {
		h.t.Fatal(err)
	}
	h.attach(c, p)
	return true
}

func (h *hierModel) setParents() {
	var links []ecs.ParentLink
	var pairs [][2]int
	for range 1 + h.r.IntN(4) {
		if c, p := h.pick(), h.pick(); c >= 0 {
			links = append(links, ecs.ParentLink{Child: h.ent(c), Parent: h.ent(p)})
			pairs = append(pairs, [2]int{c, p})
		}
	}
	// The model: apply them all, then look for a cycle (and undo them if there is one).
	saved := make([]hierNode, len(h.m))
	for i := range h.m {
		saved[i] = h.m[i]
		saved[i].kids = slices.Clone(h.m[i].kids)
	}
	for _, pr := range pairs {
		h.attach(pr[0], pr[1])
	}
	cycle := false
	for i := range h.m {
		steps := 0
		for x := i; x >= 0 && !cycle; x = h.m[x].parent {
			steps++
			cycle = steps > len(h.m)
		}
	}
	if cycle {
		h.m = saved
	}
	err := h.w.SetParents(links)
	if cycle != errors.Is(err, ecs.ErrCycle) || (!cycle && err != nil) {
		h.t.Fatalf("seed %d step %d: SetParents(%v) = %v, model cycle %v", h.seed, h.step, pairs, err, cycle)
	}
}

func (h *hierModel) setChildren() bool {
	p := h.pick()
	if p < 0 {
		return false
	}
	var cs []int
	for _, c := range h.live() {
		if h.r.IntN(3) == 0 {
			cs = append(cs, c)
		}
	}
	h.r.Shuffle(len(cs), func(i, j int) { cs[i], cs[j] = cs[j], cs[i] })
	es := make([]ecs.Entity, len(cs))
	cycle := false
	for i, c := range cs {
		es[i] = h.ent(c)
		cycle = cycle || h.isAnc(c, p)
	}
	err := h.w.SetChildren(h.ent(p), es)
	if cycle {
		if !errors.Is(err, ecs.ErrCycle) {
			h.t.Fatalf("seed %d step %d: SetChildren = %v, want a cycle", h.seed, h.step, err)
		}
		return false
	}
	if err != nil {
		h.t.Fatal(err)
	}
	for _, k := range slices.Clone(h.m[p].kids) {
		if !slices.Contains(cs, k) {
			h.detach(k)
		}
	}
	for _, c := range cs {
		h.detach(c)
		h.m[c].parent = p
	}
	h.m[p].kids = cs
	return true
}

func (h *hierModel) despawnRecursive() bool {
	c := h.pick()
	if c < 0 {
		return false
	}
	var sub []int
	var walk func(int)
	walk = func(x int) {
		sub = append(sub, x)
		for _, k := range h.m[x].kids {
			walk(k)
		}
	}
	walk(c)
	eq(h.t, "despawned", h.w.DespawnRecursive(h.ent(c)), len(sub))
	h.detach(c)
	for _, x := range sub {
		h.m[x].alive, h.m[x].kids = false, nil
	}
	return true
}

// compare checks the world against the model: liveness, parents, ordered children, world matrices.
func (h *hierModel) compare() {
	t, w, m := h.t, h.w, h.m
	w.PropagateTransforms()
	for i := range m {
		if m[i].alive != w.Alive(m[i].e) {
			t.Fatalf("seed %d step %d: alive %d", h.seed, h.step, i)
		}
		if !m[i].alive {
			continue
		}
		if got := w.Parent(m[i].e); got != h.ent(m[i].parent) {
			t.Fatalf("seed %d step %d: parent of %d: %v, want %v", h.seed, h.step, i, got, h.ent(m[i].parent))
		}
		want := make([]ecs.Entity, len(m[i].kids))
		for k, c := range m[i].kids {
			want[k] = h.ent(c)
		}
		if got := w.Children(m[i].e); !slices.Equal(got, want) {
			t.Fatalf("seed %d step %d: children of %d: %v, want %v", h.seed, h.step, i, got, want)
		}
		eq(t, "child count", w.ChildCount(m[i].e), len(want))
		mat := mgl32.Ident4()
		for x := i; x >= 0; x = m[x].parent {
			mat = h.tm.Get(m[x].e).Matrix().Mul4(mat)
		}
		if got := w.WorldMatrix(m[i].e); !got.ApproxEqual(mat) {
			t.Fatalf("seed %d step %d: world matrix of %d:\n%v\nwant\n%v", h.seed, h.step, i, got, mat)
		}
	}
}

func TestSetChildrenErrors(t *testing.T) {
	w := ecs.NewWorld()
	a, b, c := w.Spawn(), w.Spawn(), w.Spawn()
	if err := w.SetChildren(a, []ecs.Entity{b, b}); err == nil {
		t.Fatal("a child listed twice")
	}
	if err := w.SetParent(b, a); err != nil {
		t.Fatal(err)
	}
	if err := w.SetChildren(b, []ecs.Entity{c, a}); !errors.Is(err, ecs.ErrCycle) {
		t.Fatalf("a parent's ancestor as its child: %v", err)
	}
	if err := w.SetChildren(b, []ecs.Entity{b}); !errors.Is(err, ecs.ErrCycle) {
		t.Fatalf("itself as its child: %v", err)
	}
	if w.Parent(b) != a || w.ChildCount(b) != 0 || w.Parent(c) != (ecs.Entity{}) {
		t.Fatal("a refused SetChildren changed something")
	}
	w.Despawn(c)
	if err := w.SetChildren(b, []ecs.Entity{c}); !errors.Is(err, ecs.ErrDeadEntity) {
		t.Fatalf("a dead child: %v", err)
	}
	if err := w.SetParents([]ecs.ParentLink{{Child: b, Parent: ecs.Entity{}}, {Child: a, Parent: c}}); !errors.Is(err, ecs.ErrDeadEntity) || w.Parent(b) != a {
		t.Fatalf("SetParents with a dead parent: %v, parent %v", err, w.Parent(b))
	}
	if err := w.SetParents([]ecs.ParentLink{{Child: a, Parent: b}}); !errors.Is(err, ecs.ErrCycle) || w.Parent(a) != (ecs.Entity{}) {
		t.Fatalf("SetParents making a cycle: %v", err)
	}
	// A cycle that a later link undoes is fine: the links are checked as a whole.
	if err := w.SetParents([]ecs.ParentLink{{Child: a, Parent: b}, {Child: b, Parent: ecs.Entity{}}}); err != nil || w.Parent(a) != b {
		t.Fatalf("SetParents reversing a pair: %v", err)
	}
}
