package query

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
)

var propNames = []string{"Orc 1", "orc 2", "Orc Chief", "Elf", "Wave 2", "", "a*b"}

// randomWorld makes up to 60 entities with random components, names and parents; some are
// despawned again, so that indexes are reused with new generations.
func randomWorld(r *rand.Rand) *ecs.World {
	w := newWorld()
	var es []ecs.Entity
	n := r.IntN(60)
	for i := range n {
		var comps []any
		if r.IntN(4) > 0 {
			comps = append(comps, scene.Name{Value: propNames[r.IntN(len(propNames))]})
		}
		comps = append(comps, scene.SceneID{ID: uint64(i + 1)})
		if r.IntN(2) == 0 {
			u := unit{Team: team(r.IntN(2)), Speed: []float32{-2, -1.3, 0, 0.1, 1.5, 2, 4}[r.IntN(7)], Level: int16(r.IntN(5) - 2), Gold: uint8(r.IntN(3) * 100),
				Tag: []string{"", "boss", "melee"}[r.IntN(3)], Alive: r.IntN(2) == 0, Home: mgl32.Vec3{float32(r.IntN(3)), float32(r.IntN(3)), 1}}
			if len(es) > 0 && r.IntN(2) == 0 {
				u.Target = es[r.IntN(len(es))]
			}
			comps = append(comps, u)
		}
		if r.IntN(2) == 0 {
			comps = append(comps, health{Current: float64(r.IntN(100)), Max: 100})
		}
		if r.IntN(3) == 0 {
			comps = append(comps, frozen{})
		}
		if r.IntN(2) == 0 {
			comps = append(comps, ecs.Transform{Position: mgl32.Vec3{float32(r.IntN(5)) - 2, float32(r.IntN(5)) - 2, 0}, Scale: mgl32.Vec3{1, float32(r.IntN(2) + 1), 1}})
		}
		e := w.Spawn(comps...)
		if len(es) > 0 && r.IntN(3) > 0 {
			_ = w.SetParent(e, es[r.IntN(len(es))])
		}
		es = append(es, e)
	}
	for range r.IntN(5) {
		if len(es) > 0 {
			w.Despawn(es[r.IntN(len(es))])
		}
	}
	return w
}

// randomQuery writes a random query of the grammar, depth bounding its nesting.
func randomQuery(r *rand.Rand, depth int) string {
	if depth > 0 {
		switch r.IntN(7) {
		case 0:
			return randomQuery(r, depth-1) + " " + randomQuery(r, depth-1)
		case 1:
			return randomQuery(r, depth-1) + " or " + randomQuery(r, depth-1)
		case 2:
			return "!" + randomQuery(r, depth-1)
		case 3:
			return "(" + randomQuery(r, depth-1) + ")"
		case 4:
			return "parent:(" + randomQuery(r, depth-1) + ")"
		}
	}
	pick := func(s ...string) string { return s[r.IntN(len(s))] }
	ord := pick("=", "!=", "<", "<=", ">", ">=")
	eq := pick("=", "!=")
	switch r.IntN(17) {
	case 0:
		return pick("Unit", "Health", "Frozen", "Transform", "Name")
	case 1:
		return "Unit.speed" + ord + pick("-1", "0", "1.5", "2", "4")
	case 2:
		return "Unit.level" + ord + pick("-2", "0", "1")
	case 3:
		return "Unit.gold" + ord + pick("0", "100", "150")
	case 4:
		return "Unit.team" + eq + pick("Red", "blue", "1")
	case 5:
		return "Unit.tag" + pick("=", "!=", "~", "!~", "<", ">") + pick(`boss`, `""`, `"*e*"`, `M?lee`)
	case 6:
		return "Unit.alive" + eq + pick("true", "false")
	case 7:
		return "Unit.target" + eq + pick("none", "1", "3", `"Orc*"`, `"*"`)
	case 8:
		return "Unit.home" + eq + pick("[0, 1, 1]", "1", "[2,2,1]")
	case 9:
		return "Unit.home." + pick("x", "y", "z") + ord + pick("0", "1")
	case 10:
		return "Health.current" + ord + pick("10", "50", "99.5")
	case 16:
		return "Unit.speed" + ord + pick("0.1", "-1.3", "1e-50")
	case 11:
		return "name" + pick("~", "!~", "=", "!=") + pick(`"Orc*"`, `orc*`, `"*"`, `""`, `"a\*b"`, `"?lf"`)
	case 12:
		return "Transform.position.y" + ord + pick("0", "-1", "2")
	case 13:
		return "Transform.scale" + eq + pick("[1,2,1]", "1")
	case 14:
		return "parent:" + pick(`"Wave 2"`, "1", "2", `Orc*`)
	}
	return "id" + ord + pick("1", "5", "30")
}

// brute evaluates the parsed query n on entity e by reflection, entity by entity: the reference
// the column-by-column evaluation is checked against.
func brute(t *testing.T, w *ecs.World, n node, e ecs.Entity) bool {
	switch n := n.(type) {
	case *andNode:
		return brute(t, w, n.a, e) && brute(t, w, n.b, e)
	case *orNode:
		return brute(t, w, n.a, e) || brute(t, w, n.b, e)
	case *notNode:
		return !brute(t, w, n.x, e)
	case *hasNode:
		id, _ := w.ComponentByName(n.comp)
		return w.Has(e, id)
	case *parentNode:
		for p := w.Parent(e); !p.IsZero(); p = w.Parent(p) {
			if brute(t, w, n.inner, p) {
				return true
			}
		}
		return false
	case *cmpNode:
		tg, err := resolve(w, n.target, 1)
		if err != nil {
			t.Fatal(err)
		}
		if !tg.vector {
			return bruteLeaf(t, w, tg.leaves[0], n.op, n.val, e)
		}
		all := n.op == "="
		for i, l := range tg.leaves {
			v := n.val
			if v.kind == litList {
				v = v.list[i]
			}
			if bruteLeaf(t, w, l, n.op, v, e) != all {
				return !all
			}
		}
		return all
	}
	t.Fatalf("node %T", n)
	return false
}

func bruteLeaf(t *testing.T, w *ecs.World, l leaf, op string, v literal, e ecs.Entity) bool {
	c, ok := w.Get(e, l.comp)
	if !ok {
		return false
	}
	var path []string
	for _, s := range l.json {
		if s.key != "" {
			path = append(path, "."+s.key)
		} else {
			path = append(path, "["+strconv.Itoa(s.index)+"]")
		}
	}
	x, err := ecs.FieldOf(c, strings.TrimPrefix(strings.Join(path, ""), "."))
	if err != nil {
		t.Fatal(err)
	}
	globRE := func(p string, fold bool) *regexp.Regexp {
		var b strings.Builder
		if fold {
			b.WriteString("(?i)")
		}
		b.WriteString("^")
		for i := 0; i < len(p); i++ {
			switch {
			case p[i] == '\\' && i+1 < len(p) && strings.ContainsRune(`*?\`, rune(p[i+1])):
				i++
				b.WriteString(regexp.QuoteMeta(p[i : i+1]))
			case p[i] == '*':
				b.WriteString("(?s:.*)")
			case p[i] == '?':
				b.WriteString("(?s:.)")
			default:
				b.WriteString(regexp.QuoteMeta(p[i : i+1]))
			}
		}
		return regexp.MustCompile(b.String() + "$")
	}
	cmpOrder := func(c int) bool {
		return map[string]bool{"=": c == 0, "!=": c != 0, "<": c < 0, "<=": c <= 0, ">": c > 0, ">=": c >= 0}[op]
	}
	switch x := x.(type) {
	case string:
		switch op {
		case "~", "!~", "=", "!=":
			m := globRE(v.str, op == "~" || op == "!~").MatchString(x)
			return m == (op == "~" || op == "=")
		}
		return cmpOrder(strings.Compare(x, v.str))
	case bool:
		return (x == (v.str == "true")) == (op == "=")
	case ecs.Entity:
		alive := !x.IsZero() && w.Alive(x)
		var m bool
		switch {
		case v.kind == litNumber:
			m = alive && sceneID(w, x) == uint64(v.num)
		case v.str == "none" && !v.quoted:
			m = !alive
		default:
			nm, has := ecs.NewMap[scene.Name](w).TryGet(x)
			m = alive && has && globRE(v.str, false).MatchString(nm.Value)
		}
		return m == (op == "=")
	}
	f := reflect.ValueOf(x)
	var got float64
	switch f.Kind() {
	case reflect.Float32, reflect.Float64:
		got = f.Float()
	case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		got = float64(f.Uint())
	default:
		got = float64(f.Int())
	}
	want := v.num
	if v.kind != litNumber {
		n, _ := enumValue(l.enum, v.str)
		want = float64(n)
	}
	if f.Kind() == reflect.Float32 {
		want = float64(float32(want))
	}
	switch {
	case got < want:
		return cmpOrder(-1)
	case got > want:
		return cmpOrder(1)
	}
	return cmpOrder(0)
}

// eachRandomQuery parses 20 random queries over each of seeds random worlds (stream picks the sequence) and hands
// each to check, which returns how many entities the query should match; it fails when none matched anything.
func eachRandomQuery(t *testing.T, seeds, stream uint64, check func(seed uint64, w *ecs.World, src string, q *Query) int) {
	t.Helper()
	matched := 0
	for seed := range seeds {
		r := rand.New(rand.NewPCG(seed, stream))
		w := randomWorld(r)
		for range 20 {
			src := randomQuery(r, 3)
			q, err := Parse(w, src)
			if err != nil {
				t.Fatalf("seed %d: %s: %v", seed, src, err)
			}
			matched += check(seed, w, src, q)
		}
	}
	if matched == 0 {
		t.Fatal("no query matched anything: the test checks nothing")
	}
}

// TestQueryMatchesBruteForce: over random worlds and random queries, the column-by-column result
// is exactly what a reflective entity-by-entity evaluation gives.
func TestQueryMatchesBruteForce(t *testing.T) {
	eachRandomQuery(t, 400, 99, func(seed uint64, w *ecs.World, src string, q *Query) int {
		n, _ := parseQuery(src)
		res := q.Eval(w)
		var want []ecs.Entity
		w.EachEntity(func(e ecs.Entity) bool {
			if brute(t, w, n, e) {
				want = append(want, e)
			}
			return true
		})
		if got := res.Entities(); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("seed %d: %s: got %v, brute force %v", seed, src, got, want)
		}
		return len(want)
	})
}

// TestQueryOnAReadCopyOfWhatItReads: a query evaluated on a copy of the world with only the values it reads
// (Reads, ecs.World.ReadCopyOf: what the editor's search runs on another goroutine) matches what it matches on the
// world.
func TestQueryOnAReadCopyOfWhatItReads(t *testing.T) {
	eachRandomQuery(t, 200, 7, func(seed uint64, w *ecs.World, src string, q *Query) int {
		want := q.Eval(w).Entities()
		if got := q.Eval(w.ReadCopyOf(q.Reads(w)...)).Entities(); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("seed %d: %s: on the read copy %v, on the world %v", seed, src, got, want)
		}
		return len(want)
	})
}
