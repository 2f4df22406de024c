package merge

import (
	"cmp"
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/serialize"
	"github.com/voltex-editor/voltex/serialize/internal/jsonpos"
)

var mergeRuns = flag.Int("merge-runs", 2000, "random bases and edit sequences tried by TestMergeProperties")

// A cell is one independently editable value of a scene: an entity's name or place, one field of
// Transform or Nested, or the whole Spin component (present or not, and its value). Edits on
// different cells never conflict, so giving each cell to at most one side makes disjoint edit
// sequences.
type cell struct {
	id   int64
	what string // "name", "place", "Transform.position", "Transform.rotation", "Transform.scale", "Spin", "Nested.inner.x", "Nested.inner.y", "Nested.tags"
}

var cellKinds = []string{"name", "place", "Transform.position", "Transform.rotation", "Transform.scale", "Spin",
	"Nested.inner.x", "Nested.inner.y", "Nested.tags"}

// propGen makes random scenes and edits.
type propGen struct {
	rng     *rand.Rand
	ids     scene.IDs
	anchors []int64 // roots nobody moves or deletes: new entities and moves go under them
}

func (g *propGen) num() string  { return strconv.Itoa(g.rng.IntN(7) - 3) }
func (g *propGen) vec3() string { return "[" + g.num() + ", " + g.num() + ", " + g.num() + "]" }

// base makes a random scene: a few anchors, and other entities under them or at the root, some
// nested one level deeper, with Transform, Nested and sometimes Spin.
func (g *propGen) base() *serialize.RawScene {
	s := &serialize.RawScene{Name: "P"}
	g.anchors = nil
	n := 3 + g.rng.IntN(20)
	var all []int64
	for i := range n {
		id := int64(g.ids.New())
		e := serialize.RawEntity{ID: id, Name: "e" + strconv.Itoa(i), HasName: true, Order: float64(g.rng.IntN(4))}
		switch {
		case i < 2:
			g.anchors = append(g.anchors, id)
		case len(all) > 2 && g.rng.IntN(3) == 0:
			e.Parent = all[2+g.rng.IntN(len(all)-2)] // under a non-anchor
		case g.rng.IntN(2) == 0:
			e.Parent = g.anchors[g.rng.IntN(2)]
		}
		e.Components = []scene.RawComponent{
			{Name: "Nested", JSON: `{ "inner": { "x": ` + g.num() + `, "y": ` + g.num() + ` }, "tags": ["t` + g.num() + `"] }`},
			{Name: "Transform", JSON: `{ "position": ` + g.vec3() + `, "rotation": ` + g.vec3() + `, "scale": [1, 1, 1] }`},
		}
		if g.rng.IntN(2) == 0 {
			e.Components = slices.Insert(e.Components, 1, scene.RawComponent{Name: "Spin", JSON: `{ "axis": [0, 1, 0], "speed": ` + g.num() + ` }`})
		}
		s.Entities = append(s.Entities, e)
		all = append(all, id)
	}
	slices.SortFunc(s.Entities, func(a, b serialize.RawEntity) int { return cmp.Compare(a.ID, b.ID) })
	return s
}

// clone deep-copies a scene (components are copied; their strings are immutable).
func clone(s *serialize.RawScene) *serialize.RawScene {
	c := *s
	c.Entities = slices.Clone(s.Entities)
	for i := range c.Entities {
		c.Entities[i].Components = slices.Clone(c.Entities[i].Components)
	}
	return &c
}

// setPath sets the value at path (keys) in a component's JSON.
func setPath(js string, path []string, val string) string {
	v, err := jsonpos.Parse([]byte(js), jsonpos.Limits{})
	if err != nil {
		panic(err)
	}
	x, err := jsonpos.Parse([]byte(val), jsonpos.Limits{})
	if err != nil {
		panic(err)
	}
	cur := &v
	for _, k := range path[:len(path)-1] {
		cur = cur.Get(k)
	}
	cur.Set(path[len(path)-1], x)
	return string(jsonpos.AppendInline(nil, &v))
}

// edit is one edit of a cell, an addition or a deletion, as a function of a scene.
type edit struct {
	desc string
	do   func(*serialize.RawScene)
}

// editCell makes a random edit of c.
func (g *propGen) editCell(s *serialize.RawScene, c cell) edit {
	e := s.Entity(c.id)
	switch c.what {
	case "name":
		n := "n" + g.num()
		return edit{fmt.Sprintf("rename %d %s", c.id, n), rename(c.id, n)}
	case "place":
		p := int64(0)
		if g.rng.IntN(3) > 0 {
			p = g.anchors[g.rng.IntN(len(g.anchors))]
		}
		o := float64(g.rng.IntN(8)) / 2
		return edit{fmt.Sprintf("move %d under %d at %v", c.id, p, o), move(c.id, p, o)}
	case "Spin":
		if _, ok := e.Component("Spin"); ok && g.rng.IntN(2) == 0 {
			return edit{fmt.Sprintf("remove %d Spin", c.id), delComp(c.id, "Spin")}
		}
		v := `{ "axis": [0, 1, 0], "speed": ` + g.num() + ` }`
		return edit{fmt.Sprintf("set %d Spin %s", c.id, v), setComp(c.id, "Spin", v)}
	}
	comp, rest, _ := strings.Cut(c.what, ".")
	path := strings.Split(rest, ".")
	val := g.num()
	switch rest {
	case "position", "rotation", "scale":
		val = g.vec3()
	case "tags":
		val = `["t` + g.num() + `", "u"]`
	}
	return edit{fmt.Sprintf("set %d %s %s", c.id, c.what, val), func(s *serialize.RawScene) {
		js, _ := s.Entity(c.id).Component(comp)
		setComp(c.id, comp, setPath(js, path, val))(s)
	}}
}

// sides gives each cell of s to side 0 (A), 1 (B) or nobody, and makes each side's random edits
// of its own cells, entities it adds (under anchors or at the root) and deletions of leaves all
// of whose cells it owns.
func (g *propGen) sides(s *serialize.RawScene) (a, b []edit) {
	owner := map[cell]int{}
	full := map[int64][]int{} // entity → owners of its cells
	hasKids := map[int64]bool{}
	for _, e := range s.Entities {
		hasKids[e.Parent] = true
	}
	var cells [2][]cell
	for _, e := range s.Entities {
		if slices.Contains(g.anchors, e.ID) {
			continue
		}
		for _, k := range cellKinds {
			o := g.rng.IntN(3)
			c := cell{e.ID, k}
			owner[c] = o
			full[e.ID] = append(full[e.ID], o)
			if o < 2 {
				cells[o] = append(cells[o], c)
			}
		}
	}
	var out [2][]edit
	deleted := map[int64]bool{}
	for side := range 2 {
		for range g.rng.IntN(8) {
			switch r := g.rng.IntN(10); {
			case r == 0: // add an entity
				id := int64(g.ids.New())
				p := int64(0)
				if g.rng.IntN(2) == 0 {
					p = g.anchors[g.rng.IntN(len(g.anchors))]
				}
				o := float64(g.rng.IntN(6))
				out[side] = append(out[side], edit{fmt.Sprintf("add %d under %d", id, p),
					add(id, "new", p, o, "Transform", `{ "position": `+g.vec3()+`, "rotation": [0, 0, 0], "scale": [1, 1, 1] }`)})
			case r == 1: // delete a leaf whose cells are all this side's
				for _, e := range s.Entities {
					if deleted[e.ID] || hasKids[e.ID] || slices.Contains(g.anchors, e.ID) {
						continue
					}
					if os := full[e.ID]; len(os) > 0 && !slices.ContainsFunc(os, func(o int) bool { return o != side }) {
						deleted[e.ID] = true
						out[side] = append(out[side], edit{fmt.Sprintf("delete %d", e.ID), del(e.ID)})
						break
					}
				}
			default:
				if len(cells[side]) == 0 {
					continue
				}
				c := cells[side][g.rng.IntN(len(cells[side]))]
				if deleted[c.id] {
					continue
				}
				out[side] = append(out[side], g.editCell(s, c))
			}
		}
	}
	// Deletions last on each side (an edit of a cell of an entity the side then deletes is fine,
	// but not the other way round).
	for side := range 2 {
		slices.SortStableFunc(out[side], func(x, y edit) int {
			return btoi(strings.HasPrefix(x.desc, "delete")) - btoi(strings.HasPrefix(y.desc, "delete"))
		})
	}
	return out[0], out[1]
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func run(s *serialize.RawScene, es ...[]edit) *serialize.RawScene {
	c := clone(s)
	for _, l := range es {
		for _, e := range l {
			e.do(c)
		}
	}
	return c
}

func descs(es []edit) string {
	var out []string
	for _, e := range es {
		out = append(out, e.desc)
	}
	return strings.Join(out, "; ")
}

// TestMergeProperties: for random bases and random disjoint edit sequences A and B,
// merge(base, A, B) is the base with both applied and has no conflict; merge(base, X, X) = X;
// merge(base, base, X) = merge(base, X, base) = X.
func TestMergeProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 14))
	g := &propGen{rng: rng, ids: scene.SeededIDs(99)}
	for i := range *mergeRuns {
		base := g.base()
		ea, eb := g.sides(base)
		a, b := run(base, ea), run(base, eb)
		want := write(t, run(base, ea, eb))
		res := Merge(base, a, b)
		if got := write(t, res.Scene); got != want || len(res.Conflicts) > 0 {
			t.Fatalf("run %d: merge(base, A, B) ≠ A+B (%d conflicts %v)\nA: %s\nB: %s\nbase:\n%s\ngot:\n%s\nwant:\n%s",
				i, len(res.Conflicts), res.Conflicts, descs(ea), descs(eb), write(t, base), got, want)
		}
		if p := validate(t, want); p != "" {
			t.Fatalf("run %d: the expected scene is not valid (generator bug): %s", i, p)
		}
		xa := write(t, a)
		for name, r := range map[string]*Result{"merge(base, A, A)": Merge(base, a, a), "merge(base, base, A)": Merge(base, base, a),
			"merge(base, A, base)": Merge(base, a, base)} {
			if got := write(t, r.Scene); got != xa || len(r.Conflicts) > 0 {
				t.Fatalf("run %d: %s ≠ A\nA: %s\ngot:\n%s\nwant:\n%s", i, name, descs(ea), got, xa)
			}
		}
	}
}
