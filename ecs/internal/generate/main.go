package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/format"
	"os"
	"path/filepath"
	"strings"
	"text/template"
)

const maxN = 6

type arity struct {
	N       int
	Letters []string
}

func (a arity) join(f func(i int, l string) string, sep string) string {
	parts := make([]string, len(a.Letters))
	for i, l := range a.Letters {
		parts[i] = f(i, l)
	}
	return strings.Join(parts, sep)
}

// TypeParams is "A, B any".
func (a arity) TypeParams() string { return strings.Join(a.Letters, ", ") + " any" }

// Types is "A, B".
func (a arity) Types() string { return strings.Join(a.Letters, ", ") }

// Ptrs is "*A, *B".
func (a arity) Ptrs() string { return a.join(func(_ int, l string) string { return "*" + l }, ", ") }

// Slices is "[]A, []B".
func (a arity) Slices() string { return a.join(func(_ int, l string) string { return "[]" + l }, ", ") }

// IDs is "mustID[A](w), mustID[B](w)".
func (a arity) IDs() string {
	return a.join(func(_ int, l string) string { return "mustID[" + l + "](w)" }, ", ")
}

// Args is "a A, b B".
func (a arity) Args() string {
	return a.join(func(_ int, l string) string { return strings.ToLower(l) + " " + l }, ", ")
}

// ArgNames is "a, b".
func (a arity) ArgNames() string {
	return a.join(func(_ int, l string) string { return strings.ToLower(l) }, ", ")
}

// PtrArgs is "a *A, b *B".
func (a arity) PtrArgs() string {
	return a.join(func(_ int, l string) string { return strings.ToLower(l) + " *" + l }, ", ")
}

// GetBody computes the pointers. Absent Optional components (nil) only occur in one-row runs,
// where row is 0: rows after the first add row*unsafe.Sizeof(T) (a constant in the compiled shape
// code) to the run's pointers, the first row returns them as they are. One test instead of one per
// component; the compiler assumes pointer arithmetic never yields nil, so nil must not go through it.
// The common case (row != 0) comes first: the compiler lays it out as the fall-through path, one
// taken branch less per entity.
func (a arity) GetBody() string {
	var b strings.Builder
	b.WriteString("if it.row != 0 {\n\t\treturn " + a.join(func(i int, l string) string {
		return fmt.Sprintf("(*%s)(unsafe.Add(it.ptr[%d], it.row*unsafe.Sizeof(*a%s)))", l, i, l)
	}, ",\n\t\t\t") + "\n\t}\n\t")
	b.WriteString("return " + a.ItPtrs() + "\n")
	return b.String()
}

// ItPtrs is "(*A)(it.ptr[0]), (*B)(it.ptr[1])".
func (a arity) ItPtrs() string {
	return a.join(func(i int, l string) string { return fmt.Sprintf("(*%s)(it.ptr[%d])", l, i) }, ", ")
}

// SliceArgs is "a []A, b []B".
func (a arity) SliceArgs() string {
	return a.join(func(_ int, l string) string { return strings.ToLower(l) + " []" + l }, ", ")
}

// NamedPtrs is "aA *A, aB *B" (named so that Get can take their sizes).
func (a arity) NamedPtrs() string {
	return a.join(func(_ int, l string) string { return "a" + l + " *" + l }, ", ")
}

// ColExpr is "colSlice[A](c, 0, n), ...".
func (a arity) ColExpr() string {
	return a.join(func(i int, l string) string { return fmt.Sprintf("colSlice[%s](c, %d, n)", l, i) }, ", ")
}

// PtrVals is "(*A)(p[0]), (*B)(p[1])".
func (a arity) PtrVals() string {
	return a.join(func(i int, l string) string { return fmt.Sprintf("(*%s)(p[%d])", l, i) }, ", ")
}

// Derefs is "*(*A)(p[0]), *(*B)(p[1])".
func (a arity) Derefs() string {
	return a.join(func(i int, l string) string { return fmt.Sprintf("*(*%s)(p[%d])", l, i) }, ", ")
}

// Stores is "*(*A)(p[0]) = a\n*(*B)(p[1]) = b".
func (a arity) Stores() string {
	return a.join(func(i int, l string) string {
		return fmt.Sprintf("*(*%s)(p[%d]) = %s", l, i, strings.ToLower(l))
	}, "\n\t")
}

// Last is the index of the last letter.
func (a arity) Last() int { return a.N - 1 }

// LastLetter is the last letter.
func (a arity) LastLetter() string { return a.Letters[a.N-1] }

// GenTypes is "genA, genB" (the generated tests' components).
func (a arity) GenTypes() string {
	return a.join(func(_ int, l string) string { return "gen" + l }, ", ")
}

// OddArgs is "genA{V: -1}" for arity 2: values of every component but the last.
func (a arity) OddArgs() string {
	parts := make([]string, 0, a.N-1)
	for _, l := range a.Letters[:a.N-1] {
		parts = append(parts, "gen"+l+"{V: -1}")
	}
	return strings.Join(parts, ", ")
}

// OptVars is "_, _, gC": only the last of the pointers Get returns.
func (a arity) OptVars() string {
	return a.join(func(i int, l string) string {
		if i == a.N-1 {
			return "g" + l
		}
		return "_"
	}, ", ")
}

// GenVars is "gA, gB".
func (a arity) GenVars() string { return a.join(func(_ int, l string) string { return "g" + l }, ", ") }

// GenValVars is "vA, vB".
func (a arity) GenValVars() string {
	return a.join(func(_ int, l string) string { return "v" + l }, ", ")
}

// GenValVarsAssign is GenValVars (for assignments; a separate name keeps the templates readable).
func (a arity) GenValVarsAssign() string { return a.GenValVars() }

// GenSliceVars is "sA, sB".
func (a arity) GenSliceVars() string {
	return a.join(func(_ int, l string) string { return "s" + l }, ", ")
}

// GenSliceArgs is "sA []genA, sB []genB".
func (a arity) GenSliceArgs() string {
	return a.join(func(_ int, l string) string { return "s" + l + " []gen" + l }, ", ")
}

// GenPtrArgs is "gA *genA, gB *genB".
func (a arity) GenPtrArgs() string {
	return a.join(func(_ int, l string) string { return "g" + l + " *gen" + l }, ", ")
}

// Plural is "component" or "components".
func (a arity) Plural() string {
	if a.N == 1 {
		return "component"
	}
	return "components"
}

const queryTmpl = `// Code generated by ecs/internal/generate; DO NOT EDIT.

package ecs

import "unsafe"
{{range .}}
// Query{{.N}} is a typed query over entities that have the {{.Plural}} {{.Types}} (see Term for filters
// and options). Create it once with NewQuery{{.N}} and iterate it every frame with Iter; it remembers
// the tick of its last run for Changed and Added filters.
type Query{{.N}}[{{.TypeParams}}] struct{ s *queryState }

// NewQuery{{.N}} creates a query over {{.Types}} with the given terms. It panics if a type is not
// registered or the terms are inconsistent.
func NewQuery{{.N}}[{{.TypeParams}}](w *World, terms ...Term) *Query{{.N}}[{{.Types}}] {
	return &Query{{.N}}[{{.Types}}]{s: newQueryState(w, []ComponentID{ {{- .IDs -}} }, terms)}
}

// Iter starts an iteration. Loop with Next and Get (or NextTable and Columns); the world is locked
// against structural changes until the loop ends (or Close is called).
//
// A query runs one iteration at a time: starting a second one before the first ended (a nested loop
// over the same query) panics; use a second query.
func (q *Query{{.N}}[{{.Types}}]) Iter() Iter{{.N}}[{{.Types}}] {
	q.s.cur.begin(q.s)
	return Iter{{.N}}[{{.Types}}]{iter{c: &q.s.cur}}
}

// Count returns the number of entities the query would visit now. It does not count as a run.
func (q *Query{{.N}}[{{.Types}}]) Count() int { return q.s.count() }

// Access returns the components this query reads and writes (for system declarations).
func (q *Query{{.N}}[{{.Types}}]) Access() Access { return q.s.access() }

// Each calls fn for every matching entity (a convenience over Iter).
func (q *Query{{.N}}[{{.Types}}]) Each(fn func(ent Entity, {{.PtrArgs}})) {
	it := q.Iter()
	defer q.s.cur.closeAt(0)
	for it.Next() {
		{{.ArgNames}} := it.Get()
		fn(it.Entity(), {{.ArgNames}})
	}
}

// EachTable calls fn once for every matching non-empty table, with the table's entities and
// {{if gt .N 1}}columns (of the same length; nil for an absent Optional component){{else}}column{{end}}. It is the way to write a
// system that loops over columns: fn is an ordinary function, so the compiler keeps the slices
// and the loop's index in registers.{{if gt .N 1}} Reslicing the other columns to the first's
// length before the loop (b = b[:len(a)]) also drops their bounds checks.{{end}}
//
// Components the query writes are marked changed for every entity of the table, as with Columns,
// also when fn panics. fn must not keep the slices after it returns, nor make structural changes
// (the world is locked: record them in a Commands buffer). Like NextTable, EachTable panics for
// queries with per-row conditions (Changed, Added, SparseSet components), and like Iter, it panics
// if the query is already being iterated.
func (q *Query{{.N}}[{{.Types}}]) EachTable(fn func(ents []Entity, {{.SliceArgs}})) {
	it := q.Iter()
	defer q.s.cur.closeTable()
	for it.NextTable() {
		{{.ArgNames}} := it.Columns()
		fn(it.Entities(), {{.ArgNames}})
	}
}

// Iter{{.N}} iterates a Query{{.N}}: Next (or NextTable), Get, Entity, Close. The zero value is not
// usable; get one from Query{{.N}}.Iter.
type Iter{{.N}}[{{.TypeParams}}] struct{ iter }

// Get returns pointers to the current entity's components (nil for an absent Optional one). The
// pointers are valid until the next call to Next; components the query writes are marked changed.
func (it *Iter{{.N}}[{{.Types}}]) Get() ({{.NamedPtrs}}) {
	{{.GetBody}}}

// Columns returns the current table's columns (nil for an absent Optional component). Elements of
// components the query writes are marked changed.{{if gt .N 1}} Present columns have the same length:
// reslicing the others to the first's length (b = b[:len(a)]) before a loop over a lets the compiler
// drop their bounds checks.{{end}}
func (it *Iter{{.N}}[{{.Types}}]) Columns() ({{.Slices}}) {
	c := it.c
	n := int(c.end - c.start)
	return {{.ColExpr}}
}

{{end}}`

const mapTmpl = `// Code generated by ecs/internal/generate; DO NOT EDIT.

package ecs

import "unsafe"
{{range .}}{{if gt .N 1}}
// Map{{.N}} is a typed accessor for the components {{.Types}} of entities. Create it once with
// NewMap{{.N}} and reuse it.
type Map{{.N}}[{{.TypeParams}}] struct{ m mapN }

// NewMap{{.N}} creates an accessor for {{.Types}}. It panics if a type is not registered.
func NewMap{{.N}}[{{.TypeParams}}](w *World) *Map{{.N}}[{{.Types}}] {
	return &Map{{.N}}[{{.Types}}]{m: newMapN(w, []ComponentID{ {{- .IDs -}} })}
}

// Spawn creates an entity with the given component values.
func (m *Map{{.N}}[{{.Types}}]) Spawn({{.Args}}) Entity {
	ent, p := m.m.spawn()
	{{.Stores}}
	return ent
}

// PlanRoom plans room for n more entities with these components (see Room): nil when their table has room
// for them already or n is not positive.
func (m *Map{{.N}}[{{.Types}}]) PlanRoom(n int) *Room { return m.m.planRoom(n) }

// SpawnBatch creates n entities, calling fn (if not nil) to initialise each one's components, which
// start at their defaults. The entities take the slots freed last in the order they were freed (see
// Map.SpawnBatch).
func (m *Map{{.N}}[{{.Types}}]) SpawnBatch(n int, fn func(ent Entity, {{.PtrArgs}})) {
	m.m.spawnBatch(n, func(ent Entity, p *[maxQ]unsafe.Pointer) {
		if fn != nil {
			fn(ent, {{.PtrVals}})
		}
	})
}

// Get returns copies of the entity's components. It panics if the entity is dead or lacks one.
func (m *Map{{.N}}[{{.Types}}]) Get(ent Entity) ({{.Types}}) {
	p := m.m.get(ent, false)
	return {{.Derefs}}
}

// Mut returns pointers to the entity's components and marks them changed. It panics if the entity
// is dead or lacks one.
func (m *Map{{.N}}[{{.Types}}]) Mut(ent Entity) ({{.Ptrs}}) {
	p := m.m.get(ent, true)
	return {{.PtrVals}}
}

// Set overwrites the entity's components and marks them changed.
func (m *Map{{.N}}[{{.Types}}]) Set(ent Entity, {{.Args}}) {
	p := m.m.get(ent, true)
	{{.Stores}}
}

// Has reports whether the entity is alive and has all the components.
func (m *Map{{.N}}[{{.Types}}]) Has(ent Entity) bool { return m.m.has(ent) }

// Add adds the components to a live entity that has none of them. It panics otherwise.
func (m *Map{{.N}}[{{.Types}}]) Add(ent Entity, {{.Args}}) {
	p := m.m.add(ent)
	{{.Stores}}
}

// Remove removes the components from a live entity that has all of them. It panics otherwise.
func (m *Map{{.N}}[{{.Types}}]) Remove(ent Entity) { m.m.remove(ent) }
{{end}}{{end}}`

// queryTestTmpl exercises every generated query type (as the generated code, its tests are generated).
const queryTestTmpl = `// Code generated by ecs/internal/generate; DO NOT EDIT.

package ecs_test

import (
	"testing"

	"github.com/voltex-editor/voltex/ecs"
)

// Components for the generated tests: genA … genF.
type (
{{- range (index . 5).Letters}}
	gen{{.}} struct{ V int }
{{- end}}
)

func registerGen(w *ecs.World) {
{{- range (index . 5).Letters}}
	ecs.Register[gen{{.}}](w)
{{- end}}
}
{{range .}}
// TestQuery{{.N}}Generated: Query{{.N}} visits exactly the entities with all {{.N}} components, through Iter/Get/Entity,
// Each, NextTable/Columns and EachTable; writes stick; Read and Optional terms work.
func TestQuery{{.N}}Generated(t *testing.T) {
	w := ecs.NewWorld()
	registerGen(w)
	byEntity := map[ecs.Entity]int{}
	for i := range 5 {
		e := w.Spawn({{range $k, $l := .Letters}}{{if $k}}, {{end}}gen{{$l}}{V: i*10 + {{$k}}}{{end}})
		byEntity[e] = i
	}
	odd := w.Spawn({{.OddArgs}}) // lacks gen{{.LastLetter}}
	q := ecs.NewQuery{{.N}}[{{.GenTypes}}](w)
	if n := q.Count(); n != 5 {
		t.Fatalf("Count = %d, want 5", n)
	}
	seen := 0
	for it := q.Iter(); it.Next(); {
		{{.GenVars}} := it.Get()
		i, ok := byEntity[it.Entity()]
		if !ok {
			t.Fatalf("visited %v, which lacks a component", it.Entity())
		}
{{- range $k, $l := .Letters}}
		if g{{$l}}.V != i*10+{{$k}} {
			t.Fatalf("entity %d: gen{{$l}} = %d", i, g{{$l}}.V)
		}
		g{{$l}}.V += 1000
{{- end}}
		seen++
	}
	if seen != 5 {
		t.Fatalf("Iter visited %d entities, want 5", seen)
	}
	seen = 0
	q.Each(func(e ecs.Entity, {{.GenPtrArgs}}) {
		seen++
{{- range $k, $l := .Letters}}
		if g{{$l}}.V != byEntity[e]*10+{{$k}}+1000 {
			t.Errorf("Each: %v gen{{$l}} = %d, the write through Get was lost", e, g{{$l}}.V)
		}
{{- end}}
	})
	if seen != 5 {
		t.Fatalf("Each visited %d entities, want 5", seen)
	}
	rows := 0
	for it := q.Iter(); it.NextTable(); {
		{{.GenSliceVars}} := it.Columns()
		n := len(it.Entities())
		rows += n
{{- range .Letters}}
		if len(s{{.}}) != n {
			t.Fatalf("Columns: %d gen{{.}} for %d entities", len(s{{.}}), n)
		}
{{- end}}
	}
	if rows != 5 {
		t.Fatalf("NextTable covered %d rows, want 5", rows)
	}
	rows = 0
	q.EachTable(func(ents []ecs.Entity, {{.GenSliceArgs}}) {
		rows += len(ents)
		for r, e := range ents {
{{- range $k, $l := .Letters}}
			if s{{$l}}[r].V != byEntity[e]*10+{{$k}}+1000 {
				t.Fatalf("EachTable: %v gen{{$l}} = %d", e, s{{$l}}[r].V)
			}
{{- end}}
		}
	})
	if rows != 5 {
		t.Fatalf("EachTable covered %d rows, want 5", rows)
	}
	if a := q.Access(); len(a.Writes) != {{.N}} || len(a.Reads) != 0 {
		t.Fatalf("Access of a writing query: %+v", a)
	}
	if a := ecs.NewQuery{{.N}}[{{.GenTypes}}](w, ecs.Read[genA]()).Access(); len(a.Reads) != 1 || len(a.Writes) != {{.Last}} {
		t.Fatalf("Access with Read[genA]: %+v", a)
	}
{{- if gt .N 1}}
	opt := ecs.NewQuery{{.N}}[{{.GenTypes}}](w, ecs.Optional[gen{{.LastLetter}}]())
	if n := opt.Count(); n != 6 {
		t.Fatalf("with Optional: Count = %d, want 6", n)
	}
	for it := opt.Iter(); it.Next(); {
		{{.OptVars}} := it.Get()
		if (g{{.LastLetter}} == nil) != (it.Entity() == odd) {
			t.Fatalf("Optional: %v got gen{{.LastLetter}} %v", it.Entity(), g{{.LastLetter}})
		}
	}
{{- else}}
	_ = odd
{{- end}}
}
{{end}}`

// mapTestTmpl exercises every generated map type.
const mapTestTmpl = `// Code generated by ecs/internal/generate; DO NOT EDIT.

package ecs_test

import (
	"testing"

	"github.com/voltex-editor/voltex/ecs"
)
{{range .}}{{if gt .N 1}}
// TestMap{{.N}}Generated: Map{{.N}} spawns, reads, writes, adds and removes its {{.N}} components together.
func TestMap{{.N}}Generated(t *testing.T) {
	w := ecs.NewWorld()
	registerGen(w)
	m := ecs.NewMap{{.N}}[{{.GenTypes}}](w)
	e := m.Spawn({{range $k, $l := .Letters}}{{if $k}}, {{end}}gen{{$l}}{V: {{$k}}}{{end}})
	if !m.Has(e) {
		t.Fatal("Has after Spawn")
	}
	{{.GenValVars}} := m.Get(e)
{{- range $k, $l := .Letters}}
	if v{{$l}}.V != {{$k}} {
		t.Fatalf("Get: gen{{$l}} = %d", v{{$l}}.V)
	}
{{- end}}
	{{.GenVars}} := m.Mut(e)
{{- range $k, $l := .Letters}}
	g{{$l}}.V = {{$k}} + 10
{{- end}}
	{{.GenValVarsAssign}} = m.Get(e)
{{- range $k, $l := .Letters}}
	if v{{$l}}.V != {{$k}}+10 {
		t.Fatalf("after Mut: gen{{$l}} = %d", v{{$l}}.V)
	}
{{- end}}
	m.Set(e, {{range $k, $l := .Letters}}{{if $k}}, {{end}}gen{{$l}}{V: {{$k}} + 20}{{end}})
	{{.GenValVarsAssign}} = m.Get(e)
{{- range $k, $l := .Letters}}
	if v{{$l}}.V != {{$k}}+20 {
		t.Fatalf("after Set: gen{{$l}} = %d", v{{$l}}.V)
	}
{{- end}}
	m.Remove(e)
	if m.Has(e) || !w.Alive(e) {
		t.Fatal("Remove: the components are still there, or the entity died")
	}
	m.Add(e, {{range $k, $l := .Letters}}{{if $k}}, {{end}}gen{{$l}}{V: {{$k}} + 30}{{end}})
	if {{.GenValVarsAssign}} = m.Get(e); !m.Has(e) || vA.V != 30 {
		t.Fatalf("Add: %v", vA)
	}
	var batch []ecs.Entity
	m.SpawnBatch(3, func(ent ecs.Entity, {{.GenPtrArgs}}) {
		batch = append(batch, ent)
{{- range $k, $l := .Letters}}
		g{{$l}}.V = 100*len(batch) + {{$k}}
{{- end}}
	})
	for i, b := range batch {
		{{.GenValVarsAssign}} = m.Get(b)
{{- range $k, $l := .Letters}}
		if v{{$l}}.V != 100*(i+1)+{{$k}} {
			t.Fatalf("SpawnBatch entity %d: gen{{$l}} = %d", i, v{{$l}}.V)
		}
{{- end}}
	}
	m.SpawnBatch(2, nil)
	if n := ecs.NewQuery{{.N}}[{{.GenTypes}}](w).Count(); n != 6 {
		t.Fatalf("%d entities have the components, want 6", n)
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("Get of an entity without the components did not panic")
			}
		}()
		m.Get(w.Spawn())
	}()
}
{{end}}{{end}}`

func main() {
	dir := flag.String("dir", ".", "directory to write the files to")
	flag.Parse()
	for file, src := range generate() {
		if err := os.WriteFile(filepath.Join(*dir, file), src, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "generate:", err)
			os.Exit(1)
		}
	}
}

// generate returns the generated files by name.
func generate() map[string][]byte {
	var as []arity
	for n := 1; n <= maxN; n++ {
		as = append(as, arity{N: n, Letters: strings.Split("ABCDEF"[:n], "")})
	}
	return map[string][]byte{
		"query_gen.go":      render("query_gen.go", queryTmpl, as),
		"map_gen.go":        render("map_gen.go", mapTmpl, as),
		"query_gen_test.go": render("query_gen_test.go", queryTestTmpl, as),
		"map_gen_test.go":   render("map_gen_test.go", mapTestTmpl, as),
	}
}

// render executes a template and formats the result; templates are constants, so errors are bugs.
func render(name, tmpl string, data any) []byte {
	t := template.Must(template.New(name).Parse(tmpl))
	var buf bytes.Buffer
	if err := t.Execute(&buf, data); err != nil {
		panic(fmt.Sprintf("generate: %s: %v", name, err))
	}
	src, err := format.Source(buf.Bytes())
	if err != nil {
		panic(fmt.Sprintf("generate: %s: %v\n%s", name, err, buf.Bytes()))
	}
	return src
}
