package merge

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/serialize"
)

// Follow is a test component with entity references.
type Follow struct {
	Target ecs.Entity   `json:"target"`
	Others []ecs.Entity `json:"others"`
}

// Nested is a test component with a nested struct.
type Nested struct {
	Inner struct {
		X float32 `json:"x"`
		Y float32 `json:"y"`
	} `json:"inner"`
	Tags []string `json:"tags"`
}

func testWorld() *ecs.World {
	w := scene.NewWorld()
	ecs.Register[Follow](w)
	ecs.Register[Nested](w)
	return w
}

var opts = serialize.LoadOptions{NewWorld: testWorld}

func read(t testing.TB, src string) *serialize.RawScene {
	t.Helper()
	s, err := serialize.ReadRaw(context.Background(), strings.NewReader(src), opts)
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	return s
}

func write(t testing.TB, s *serialize.RawScene) string {
	t.Helper()
	var b bytes.Buffer
	if err := serialize.WriteRaw(context.Background(), &b, s); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// validate loads text as a scene (the full loader: schemas, ids, parents, references) and returns
// the problems ("" if none), conflicts allowed.
func validate(t testing.TB, text string) string {
	t.Helper()
	_, err := serialize.Load(context.Background(), strings.NewReader(text), serialize.LoadOptions{File: "merged.json", NewWorld: testWorld})
	if err != nil {
		return err.Error()
	}
	return ""
}

const baseScene = `{"format": "voltex.scene", "version": 2, "name": "S",
 "editor": {"camera": {"pivot": [0, 0, 0], "yaw": 30, "pitch": -25, "distance": 40}},
 "entities": [
 {"id": 1, "name": "Root", "order": 1, "components": {"Transform": {"position": [0, 0, 0], "rotation": [0, 0, 0], "scale": [1, 1, 1]}}},
 {"id": 2, "name": "A", "parent": 1, "order": 1, "components": {"Color": {"rgba": [1, 0, 0, 1]}, "Transform": {"position": [1, 0, 0], "rotation": [0, 0, 0], "scale": [1, 1, 1]}}},
 {"id": 3, "name": "B", "parent": 1, "order": 2, "components": {"Follow": {"target": 2, "others": []}, "Nested": {"inner": {"x": 1, "y": 2}, "tags": ["a"]}}},
 {"id": 4, "name": "C", "order": 2, "components": {"Spin": {"axis": [0, 1, 0], "speed": 45}}},
 {"id": 5, "name": "D", "parent": 4, "order": 1, "components": {}}
]}`

// Edits of a RawScene (they keep entities sorted by id and components by name).

func ent(s *serialize.RawScene, id int64) *serialize.RawEntity {
	e := s.Entity(id)
	if e == nil {
		panic(fmt.Sprintf("no entity %d", id))
	}
	return e
}

func setComp(id int64, name, json string) func(*serialize.RawScene) {
	return func(s *serialize.RawScene) {
		e := ent(s, id)
		cs := slices.Clone(e.Components)
		i, ok := slices.BinarySearchFunc(cs, name, func(c scene.RawComponent, n string) int { return strings.Compare(c.Name, n) })
		if ok {
			cs[i].JSON = json
		} else {
			cs = slices.Insert(cs, i, scene.RawComponent{Name: name, JSON: json})
		}
		e.Components = cs
	}
}

func delComp(id int64, name string) func(*serialize.RawScene) {
	return func(s *serialize.RawScene) {
		e := ent(s, id)
		e.Components = slices.DeleteFunc(slices.Clone(e.Components), func(c scene.RawComponent) bool { return c.Name == name })
	}
}

func rename(id int64, name string) func(*serialize.RawScene) {
	return func(s *serialize.RawScene) { e := ent(s, id); e.Name, e.HasName = name, true }
}

func move(id, parent int64, order float64) func(*serialize.RawScene) {
	return func(s *serialize.RawScene) { e := ent(s, id); e.Parent, e.Order = parent, order }
}

func del(id int64) func(*serialize.RawScene) {
	return func(s *serialize.RawScene) {
		s.Entities = slices.DeleteFunc(slices.Clone(s.Entities), func(e serialize.RawEntity) bool { return e.ID == id })
	}
}

func add(id int64, name string, parent int64, order float64, comps ...string) func(*serialize.RawScene) {
	return func(s *serialize.RawScene) {
		e := serialize.RawEntity{ID: id, Name: name, HasName: true, Parent: parent, Order: order}
		for k := 0; k+1 < len(comps); k += 2 {
			e.Components = append(e.Components, scene.RawComponent{Name: comps[k], JSON: comps[k+1]})
		}
		s.Entities = append(slices.Clone(s.Entities), e)
		slices.SortFunc(s.Entities, func(a, b serialize.RawEntity) int { return int(a.ID - b.ID) })
	}
}

func sceneName(n string) func(*serialize.RawScene) {
	return func(s *serialize.RawScene) { s.Name = n }
}

func camera(yaw float32) func(*serialize.RawScene) {
	return func(s *serialize.RawScene) { c := *s.Camera; c.Yaw = yaw; s.Camera = &c }
}

// apply returns a copy of the base with the edits made.
func apply(t testing.TB, edits ...func(*serialize.RawScene)) *serialize.RawScene {
	s := read(t, baseScene)
	for _, e := range edits {
		e(s)
	}
	return s
}

type edits []func(*serialize.RawScene)

// mergeCase is a merge of two edits of baseScene: the expected scene and conflicts ("id path").
type mergeCase struct {
	name               string
	ours, theirs, want edits
	conflicts          []string
}

// mergeCases are the cases TestMergeCases checks (and TestEveryMergeOutputLoads draws from).
func mergeCases() []mergeCase {
	red, green, blue := `{ "rgba": [1, 0, 0, 1] }`, `{ "rgba": [0, 1, 0, 1] }`, `{ "rgba": [0, 0, 1, 1] }`
	tr := func(x string) string {
		return `{ "position": [` + x + `, 0, 0], "rotation": [0, 0, 0], "scale": [1, 1, 1] }`
	}
	return []mergeCase{
		{name: "different fields of one component",
			ours:   edits{setComp(2, "Transform", `{ "position": [5, 0, 0], "rotation": [0, 0, 0], "scale": [1, 1, 1] }`)},
			theirs: edits{setComp(2, "Transform", `{ "position": [1, 0, 0], "rotation": [0, 90, 0], "scale": [1, 1, 1] }`)},
			want:   edits{setComp(2, "Transform", `{ "position": [5, 0, 0], "rotation": [0, 90, 0], "scale": [1, 1, 1] }`)}},
		{name: "different components of one entity",
			ours:   edits{setComp(2, "Color", green)},
			theirs: edits{setComp(2, "Transform", tr("7"))},
			want:   edits{setComp(2, "Color", green), setComp(2, "Transform", tr("7"))}},
		{name: "different entities",
			ours:   edits{setComp(2, "Color", green)},
			theirs: edits{rename(4, "Cee"), setComp(1, "Transform", tr("3"))},
			want:   edits{setComp(2, "Color", green), rename(4, "Cee"), setComp(1, "Transform", tr("3"))}},
		{name: "the same change on both sides",
			ours:   edits{setComp(2, "Color", green), rename(5, "Dee")},
			theirs: edits{setComp(2, "Color", green), rename(5, "Dee")},
			want:   edits{setComp(2, "Color", green), rename(5, "Dee")}},
		{name: "entities added on both sides",
			ours:   edits{add(100, "Lamp", 1, 3, "Color", blue)},
			theirs: edits{add(200, "Tree", 0, 3), add(201, "Leaf", 200, 1)},
			want:   edits{add(100, "Lamp", 1, 3, "Color", blue), add(200, "Tree", 0, 3), add(201, "Leaf", 200, 1)}},
		{name: "children added to one parent on both sides (same order key)",
			ours:   edits{add(100, "X", 4, 2)},
			theirs: edits{add(90, "Y", 4, 2)},
			want:   edits{add(100, "X", 4, 2), add(90, "Y", 4, 2)}},
		{name: "the same entity added on both sides",
			ours:   edits{add(100, "Lamp", 1, 3, "Color", blue)},
			theirs: edits{add(100, "Lamp", 1, 3, "Color", blue)},
			want:   edits{add(100, "Lamp", 1, 3, "Color", blue)}},
		{name: "one id added with different contents",
			ours:      edits{add(100, "Lamp", 1, 3, "Color", blue)},
			theirs:    edits{add(100, "Lamp", 1, 3, "Color", green, "Spin", `{ "axis": [0, 1, 0], "speed": 1 }`)},
			want:      edits{add(100, "Lamp", 1, 3, "Color", blue, "Spin", `{ "axis": [0, 1, 0], "speed": 1 }`)},
			conflicts: []string{"100 components.Color.rgba"}},
		{name: "same field changed two ways",
			ours:      edits{setComp(2, "Color", green)},
			theirs:    edits{setComp(2, "Color", blue)},
			want:      edits{setComp(2, "Color", green)},
			conflicts: []string{`2 components.Color.rgba base=[1, 0, 0, 1] ours=[0, 1, 0, 1] theirs=[0, 0, 1, 1]`}},
		{name: "name changed two ways",
			ours:      edits{rename(2, "Alpha")},
			theirs:    edits{rename(2, "Apple")},
			want:      edits{rename(2, "Alpha")},
			conflicts: []string{`2 name base="A" ours="Alpha" theirs="Apple"`}},
		{name: "nested fields",
			ours:   edits{setComp(3, "Nested", `{ "inner": { "x": 9, "y": 2 }, "tags": ["a"] }`)},
			theirs: edits{setComp(3, "Nested", `{ "inner": { "x": 1, "y": 8 }, "tags": ["a"] }`)},
			want:   edits{setComp(3, "Nested", `{ "inner": { "x": 9, "y": 8 }, "tags": ["a"] }`)}},
		{name: "an array is one value",
			ours:      edits{setComp(3, "Nested", `{ "inner": { "x": 1, "y": 2 }, "tags": ["a", "b"] }`)},
			theirs:    edits{setComp(3, "Nested", `{ "inner": { "x": 1, "y": 2 }, "tags": ["c"] }`)},
			want:      edits{setComp(3, "Nested", `{ "inner": { "x": 1, "y": 2 }, "tags": ["a", "b"] }`)},
			conflicts: []string{`3 components.Nested.tags`}},
		{name: "component added on one side, removed on the other",
			ours:   edits{setComp(5, "Color", red)},
			theirs: edits{delComp(4, "Spin")},
			want:   edits{setComp(5, "Color", red), delComp(4, "Spin")}},
		{name: "component added on both sides the same",
			ours:   edits{setComp(5, "Color", red)},
			theirs: edits{setComp(5, "Color", red)},
			want:   edits{setComp(5, "Color", red)}},
		{name: "component removed on one side, changed on the other",
			ours:      edits{delComp(4, "Spin")},
			theirs:    edits{setComp(4, "Spin", `{ "axis": [0, 1, 0], "speed": 90 }`)},
			want:      edits{delComp(4, "Spin")},
			conflicts: []string{`4 components.Spin base={ "axis": [0, 1, 0], "speed": 45 } ours= theirs={ "axis": [0, 1, 0], "speed": 90 }`}},
		{name: "component changed on one side, removed on the other",
			ours:      edits{setComp(4, "Spin", `{ "axis": [0, 1, 0], "speed": 90 }`)},
			theirs:    edits{delComp(4, "Spin")},
			want:      edits{setComp(4, "Spin", `{ "axis": [0, 1, 0], "speed": 90 }`)},
			conflicts: []string{`4 components.Spin`}},
		{name: "deleted on one side, untouched on the other",
			ours:   edits{del(5)},
			theirs: edits{setComp(2, "Color", green)},
			want:   edits{del(5), setComp(2, "Color", green)}},
		{name: "deleted on both sides",
			ours:   edits{del(5)},
			theirs: edits{del(5)},
			want:   edits{del(5)}},
		{name: "deleted by ours, changed by theirs",
			ours:      edits{del(5)},
			theirs:    edits{rename(5, "Dee")},
			want:      edits{rename(5, "Dee")},
			conflicts: []string{`5 entity base=present ours=deleted theirs=present`}},
		{name: "changed by ours, deleted by theirs",
			ours:      edits{setComp(2, "Color", green)},
			theirs:    edits{del(2), setComp(3, "Follow", `{ "target": 0, "others": [] }`)},
			want:      edits{setComp(2, "Color", green), setComp(3, "Follow", `{ "target": 0, "others": [] }`)},
			conflicts: []string{`2 entity base=present ours=present theirs=deleted`}},
		{name: "parent deleted by ours, child added under it by theirs",
			ours:      edits{del(5), del(4)},
			theirs:    edits{add(300, "New", 4, 2)},
			want:      edits{del(5), add(300, "New", 4, 2)},
			conflicts: []string{`4 entity base=present ours=deleted theirs=present`}},
		{name: "reference target deleted by ours, referenced by theirs",
			ours:      edits{del(5)},
			theirs:    edits{setComp(3, "Follow", `{ "target": 2, "others": [5] }`)},
			want:      edits{setComp(3, "Follow", `{ "target": 2, "others": [5] }`)},
			conflicts: []string{`5 entity base=present ours=deleted theirs=present`}},
		{name: "moved on one side, changed on the other",
			ours:   edits{move(2, 4, 5)},
			theirs: edits{setComp(2, "Color", green)},
			want:   edits{move(2, 4, 5), setComp(2, "Color", green)}},
		{name: "reordered on one side, renamed on the other",
			ours:   edits{move(3, 1, 0.5)},
			theirs: edits{rename(3, "Bee")},
			want:   edits{move(3, 1, 0.5), rename(3, "Bee")}},
		{name: "moved two ways",
			ours:      edits{move(2, 0, 3)},
			theirs:    edits{move(2, 4, 2)},
			want:      edits{move(2, 0, 3)},
			conflicts: []string{`2 place base={ "parent": 1, "order": 1 } ours={ "parent": 0, "order": 3 } theirs={ "parent": 4, "order": 2 }`}},
		{name: "two moves that make a cycle",
			ours:      edits{move(1, 4, 2)},
			theirs:    edits{move(4, 2, 1)},
			want:      edits{move(1, 4, 2)},
			conflicts: []string{`4 place base={ "parent": 0, "order": 2 } ours={ "parent": 0, "order": 2 } theirs={ "parent": 2, "order": 1 }`}},
		{name: "scene name changed two ways",
			ours:      edits{sceneName("Ours")},
			theirs:    edits{sceneName("Theirs")},
			want:      edits{sceneName("Ours")},
			conflicts: []string{`0 scene.name base="S" ours="Ours" theirs="Theirs"`}},
		{name: "scene name and camera changed on one side",
			ours:   edits{setComp(2, "Color", green)},
			theirs: edits{sceneName("T"), camera(90)},
			want:   edits{setComp(2, "Color", green), sceneName("T"), camera(90)}},
	}
}

// TestMergeCases: one row per merge case the format must handle: the merged file is the expected
// scene (conflict records aside), loads as a valid scene, and records exactly the expected
// conflicts ("id path").
func TestMergeCases(t *testing.T) {
	for _, tc := range mergeCases() {
		t.Run(tc.name, func(t *testing.T) {
			base, ours, theirs := apply(t), apply(t, tc.ours...), apply(t, tc.theirs...)
			res := Merge(base, ours, theirs)
			text := write(t, res.Scene)
			if p := validate(t, text); p != "" {
				t.Fatalf("merged scene does not load: %s\n%s", p, text)
			}
			var got []string
			for _, c := range res.Conflicts {
				s := fmt.Sprintf("%d %s base=%s ours=%s theirs=%s", c.Entity, c.Path, c.Base, c.Ours, c.Theirs)
				got = append(got, s)
			}
			if len(got) != len(tc.conflicts) {
				t.Fatalf("conflicts %q, want %q", got, tc.conflicts)
			}
			for i, w := range tc.conflicts {
				if !strings.HasPrefix(got[i], w) {
					t.Errorf("conflict %q, want %q", got[i], w)
				}
			}
			// The records are in the file; without them it is the expected scene.
			clean := read(t, text)
			n := len(clean.Conflicts)
			clean.Conflicts = nil
			for i := range clean.Entities {
				e := &clean.Entities[i]
				if _, ok := e.Component(ConflictsComponent); ok {
					n++
					e.Components = slices.DeleteFunc(slices.Clone(e.Components), func(c scene.RawComponent) bool { return c.Name == ConflictsComponent })
				}
			}
			if (n > 0) != (len(tc.conflicts) > 0) {
				t.Errorf("%d records in the file for %d conflicts", n, len(tc.conflicts))
			}
			if want := write(t, apply(t, tc.want...)); write(t, clean) != want {
				t.Errorf("merged:\n%s\nwant:\n%s", write(t, clean), want)
			}
			// Swapping the sides merges the same changes (conflicts keep the other side).
			if len(tc.conflicts) == 0 {
				if swapped := write(t, Merge(base, theirs, ours).Scene); swapped != text && !strings.Contains(tc.name, "camera") {
					t.Errorf("merge(base, theirs, ours) differs:\n%s", swapped)
				}
			}
		})
	}
}

// TestConflictRecordInFile: the record is a MergeConflicts component with base/ours/theirs, and
// validation refuses it until it is removed.
func TestConflictRecordInFile(t *testing.T) {
	base := apply(t)
	res := Merge(base, apply(t, setComp(2, "Color", `{ "rgba": [0, 1, 0, 1] }`)), apply(t, setComp(2, "Color", `{ "rgba": [0, 0, 1, 1] }`)))
	text := write(t, res.Scene)
	want := `"MergeConflicts": { "items": [{ "path": "components.Color.rgba", "base": "[1, 0, 0, 1]", "ours": "[0, 1, 0, 1]", "theirs": "[0, 0, 1, 1]" }] }`
	if !strings.Contains(text, want) {
		t.Fatalf("no record %s in\n%s", want, text)
	}
	_, err := serialize.Load(context.Background(), strings.NewReader(text), serialize.LoadOptions{File: "m.json", NewWorld: testWorld, RefuseConflicts: true})
	if err == nil || !strings.Contains(err.Error(), "unresolved merge conflict: components.Color.rgba") {
		t.Fatalf("validation: %v", err)
	}
}
