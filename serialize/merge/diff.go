package merge

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/serialize"
	"github.com/voltex-editor/voltex/serialize/internal/jsonpos"
)

// Op is what happened to an entity, a component or a value.
type Op string

// The ops of a Change.
const (
	Added   Op = "add"
	Removed Op = "remove"
	Changed Op = "change"
)

// Change is one difference between two scenes.
type Change struct {
	Op Op
	// Entity is the entity's id; 0 for the scene itself.
	Entity int64
	// Name is the entity's name (in the new scene, or in the old one if it was removed).
	Name string
	// Path says what changed: "" (the entity itself, added or removed), "name", "parent", "order",
	// "prefab" (the prefab an instance instances), "removed" (an override record that removes its
	// entity from its instance), "components.C" (component C added or removed; in an override
	// record, an override added or dropped, "null" for a removed component), "components.C.f.g" (a
	// field of C; fields of nested objects separately, arrays as one value), "scene.name",
	// "editor.camera", "editor.selection".
	Path string
	// From and To are the values as JSON text, "" when absent.
	From, To string
}

// MaxChanges is the most changes Diff lists (each takes about 300 bytes) before it stops, so
// that a diff stays within the memory budget of docs/limits.md. (A variable so that tests can
// scale it down.)
var MaxChanges = 1_000_000

// Diff lists the differences from a to b: scene-level ones first, then by entity id. It stops
// after the entity that takes the list past MaxChanges: then the list is longer than MaxChanges
// (by less than the values of one entity) and incomplete.
func Diff(a, b *serialize.RawScene) []Change {
	var out []Change
	if a.Name != b.Name {
		out = append(out, Change{Op: Changed, Path: "scene.name", From: quote(a.Name), To: quote(b.Name)})
	}
	if !sameCamera(a.Camera, b.Camera) {
		out = append(out, Change{Op: opOf(a.Camera != nil, b.Camera != nil), Path: "editor.camera", From: cameraJSON(a.Camera), To: cameraJSON(b.Camera)})
	}
	if fmt.Sprint(a.Selection) != fmt.Sprint(b.Selection) {
		out = append(out, Change{Op: Changed, Path: "editor.selection", From: idsJSON(a.Selection), To: idsJSON(b.Selection)})
	}
	as, bs := a.Entities, b.Entities
	i, j := 0, 0
	for (i < len(as) || j < len(bs)) && len(out) <= MaxChanges {
		switch {
		case j == len(bs) || (i < len(as) && as[i].ID < bs[j].ID):
			out = append(out, Change{Op: Removed, Entity: as[i].ID, Name: as[i].Name})
			i++
		case i == len(as) || bs[j].ID < as[i].ID:
			out = append(out, Change{Op: Added, Entity: bs[j].ID, Name: bs[j].Name})
			j++
		default:
			if !sameEntity(&as[i], &bs[j]) {
				out = diffEntity(out, &as[i], &bs[j])
			}
			i++
			j++
		}
	}
	return out
}

func opOf(from, to bool) Op {
	switch {
	case !from:
		return Added
	case !to:
		return Removed
	}
	return Changed
}

func diffEntity(out []Change, a, b *serialize.RawEntity) []Change {
	ch := func(path, from, to string) {
		out = append(out, Change{Op: opOf(from != "", to != ""), Entity: b.ID, Name: b.Name, Path: path, From: from, To: to})
	}
	if an, bn := nameJSON(a), nameJSON(b); an != bn {
		ch("name", an, bn)
	}
	if ap, bp := prefabJSON(a), prefabJSON(b); ap != bp {
		ch("prefab", ap, bp)
	}
	if ar, br := removedJSON(a), removedJSON(b); ar != br {
		ch("removed", ar, br)
	}
	if a.Parent != b.Parent {
		ch("parent", strconv.FormatInt(a.Parent, 10), strconv.FormatInt(b.Parent, 10))
	}
	if a.Order != b.Order {
		ch("order", string(jsonpos.AppendFloat(nil, a.Order, 64)), string(jsonpos.AppendFloat(nil, b.Order, 64)))
	}
	ac, bc := a.Components, b.Components
	for len(ac) > 0 || len(bc) > 0 {
		switch {
		case len(bc) == 0 || (len(ac) > 0 && ac[0].Name < bc[0].Name):
			ch("components."+ac[0].Name, ac[0].JSON, "")
			ac = ac[1:]
		case len(ac) == 0 || bc[0].Name < ac[0].Name:
			ch("components."+bc[0].Name, "", bc[0].JSON)
			bc = bc[1:]
		default:
			if ac[0].JSON != bc[0].JSON {
				av, bv := parse(ac[0].JSON, true), parse(bc[0].JSON, true)
				if av == nil || bv == nil {
					ch("components."+ac[0].Name, ac[0].JSON, bc[0].JSON)
				} else {
					diffValue(ch, "components."+ac[0].Name, av, bv)
				}
			}
			ac, bc = ac[1:], bc[1:]
		}
	}
	return out
}

// diffValue reports the differences of two JSON values, field by field inside objects.
func diffValue(ch func(path, from, to string), path string, a, b *jsonpos.Value) {
	if equal(a, b) {
		return
	}
	if a == nil || b == nil || a.Kind() != jsonpos.Object || b.Kind() != jsonpos.Object {
		ch(path, inline(a), inline(b))
		return
	}
	for i := range a.Len() {
		k := a.Index(i).Key()
		diffValue(ch, path+"."+k, a.Index(i), b.Get(k))
	}
	for i := range b.Len() {
		if k := b.Index(i).Key(); a.Get(k) == nil {
			diffValue(ch, path+"."+k, nil, b.Index(i))
		}
	}
}

func cameraJSON(c *scene.EditorCamera) string {
	if c == nil {
		return ""
	}
	b := []byte(`{ "pivot": [`)
	for i, f := range c.Pivot {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = jsonpos.AppendFloat(b, float64(f), 32)
	}
	b = append(b, `], "yaw": `...)
	b = jsonpos.AppendFloat(b, float64(c.Yaw), 32)
	b = append(b, `, "pitch": `...)
	b = jsonpos.AppendFloat(b, float64(c.Pitch), 32)
	b = append(b, `, "distance": `...)
	b = jsonpos.AppendFloat(b, float64(c.Distance), 32)
	return string(append(b, " }"...))
}

func idsJSON(ids []int64) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, id := range ids {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.FormatInt(id, 10))
	}
	b.WriteByte(']')
	return b.String()
}

// WriteText writes changes (Diff(a, b)) for people: one block per entity,
//
//   - entity 5678 "Lamp" under 12 "Room": Color, Mesh, Transform
//   - entity 91 "Old"
//     ~ entity 1234 "Cube 3,4"
//     parent: 3 "A" → 4 "B"
//   - Spin { "axis": [0, 1, 0], "speed": 45 }
//     Transform.position: [1, 0, 0] → [1, 2, 0]
//
// with scene-level changes first ("scene name: …", "editor camera: …").
func WriteText(w io.Writer, a, b *serialize.RawScene, changes []Change) error {
	ew := &errWriter{w: w}
	var label func(s *serialize.RawScene, id int64) string
	label = func(s *serialize.RawScene, id int64) string {
		if id == 0 {
			return "(root)"
		}
		e := s.Entity(id)
		l := strconv.FormatInt(id, 10)
		if e != nil && e.HasName {
			l += " " + quote(e.Name)
		}
		if e != nil && e.IsRecord() { // an entity of an instance: say which and which entity of its prefab
			l += fmt.Sprintf(" (entity %d of instance %s)", e.Source, label(s, e.Instance))
		}
		if e != nil && e.Prefab != "" {
			l += " (instance of " + e.Prefab + ")"
		}
		return l
	}
	last := int64(-1)
	for _, c := range changes {
		if c.Entity == 0 {
			ew.printf("%s: %s → %s\n", strings.Replace(c.Path, ".", " ", 1), orNone(c.From), orNone(c.To))
			continue
		}
		switch {
		case c.Path == "" && c.Op == Added && b.Entity(c.Entity).IsRecord():
			e := b.Entity(c.Entity)
			ew.printf("~ entity %s\n", label(b, c.Entity))
			if e.HasName {
				ew.printf("    name: %s\n", quote(e.Name))
			}
			if e.Removed {
				ew.printf("    removed from the instance\n")
			}
			for _, x := range e.Components {
				if x.JSON == "null" {
					ew.printf("    removes %s\n", x.Name)
				} else {
					ew.printf("    overrides %s %s\n", x.Name, x.JSON)
				}
			}
			last = -1
			continue
		case c.Path == "" && c.Op == Added:
			e := b.Entity(c.Entity)
			ew.printf("+ entity %s", label(b, c.Entity))
			if e.Parent != 0 {
				ew.printf(" under %s", label(b, e.Parent))
			}
			ew.printf(":%s\n", componentNames(e.Components))
			last = -1
			continue
		case c.Path == "" && a.Entity(c.Entity).IsRecord():
			ew.printf("~ entity %s\n    overrides dropped (back to the prefab)\n", label(a, c.Entity))
			last = -1
			continue
		case c.Path == "":
			ew.printf("- entity %s\n", label(a, c.Entity))
			last = -1
			continue
		}
		if c.Entity != last {
			ew.printf("~ entity %s\n", label(b, c.Entity))
			last = c.Entity
		}
		switch {
		case c.Path == "parent":
			from, _ := strconv.ParseInt(c.From, 10, 64)
			to, _ := strconv.ParseInt(c.To, 10, 64)
			ew.printf("    parent: %s → %s\n", label(a, from), label(b, to))
		case strings.HasPrefix(c.Path, "components.") && strings.Count(c.Path, ".") == 1 && c.Op != Changed:
			sign, v := "+", c.To
			if c.Op == Removed {
				sign, v = "-", c.From
			}
			ew.printf("    %s %s %s\n", sign, strings.TrimPrefix(c.Path, "components."), v)
		default:
			ew.printf("    %s: %s → %s\n", strings.TrimPrefix(c.Path, "components."), orNone(c.From), orNone(c.To))
		}
	}
	return ew.err
}

func componentNames(cs []scene.RawComponent) string {
	if len(cs) == 0 {
		return " no components"
	}
	var b strings.Builder
	for i, c := range cs {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte(' ')
		b.WriteString(c.Name)
	}
	return b.String()
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) printf(format string, args ...any) {
	if e.err == nil {
		_, e.err = fmt.Fprintf(e.w, format, args...)
	}
}

// jsonChange is a Change as WriteJSON writes it.
type jsonChange struct {
	Op     Op              `json:"op"`
	Entity int64           `json:"entity,omitempty"`
	Name   string          `json:"name,omitempty"`
	Path   string          `json:"path,omitempty"`
	From   json.RawMessage `json:"from,omitempty"`
	To     json.RawMessage `json:"to,omitempty"`
}

// WriteJSON writes changes for tools, one change per line:
//
//	{"changes": [
//	  {"op":"change","entity":12,"name":"Cube","path":"components.Transform.position","from":[1,0,0],"to":[1,2,0]},
//	  …
//	]}
//
// with values as JSON values (left out when absent; "parent" 0 means the root).
func WriteJSON(w io.Writer, changes []Change) error {
	ew := &errWriter{w: w}
	ew.printf("{\"changes\": [")
	for i, c := range changes {
		jc := jsonChange{Op: c.Op, Entity: c.Entity, Name: c.Name, Path: c.Path}
		if c.From != "" {
			jc.From = json.RawMessage(c.From)
		}
		if c.To != "" {
			jc.To = json.RawMessage(c.To)
		}
		line, err := json.Marshal(jc)
		if err != nil {
			return err
		}
		sep := ","
		if i == len(changes)-1 {
			sep = ""
		}
		ew.printf("\n  %s%s", line, sep)
	}
	if len(changes) > 0 {
		ew.printf("\n")
	}
	ew.printf("]}\n")
	return ew.err
}
