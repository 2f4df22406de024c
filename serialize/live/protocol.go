package live

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/voltex-editor/voltex/ecs"
)

// Version is the protocol version a server announces in its hello.
const Version = 1

// Request limits: a line longer than Options.MaxMessage is refused before it is decoded; these
// bound what a decoded request may name.
const (
	maxNameLen  = 256  // component names and field paths
	maxSteps    = 1000 // one step request
	maxTokenLen = 256
	maxSpawnLen = 64 // components of one spawn
)

// request is one line a client sends.
type request struct {
	ID         uint64                     `json:"id,omitempty"`
	Op         string                     `json:"op"`
	Token      string                     `json:"token,omitempty"`
	Seq        uint64                     `json:"seq,omitempty"`
	E          uint64                     `json:"e,omitempty"`
	C          string                     `json:"c,omitempty"`
	Path       string                     `json:"path,omitempty"`
	Value      json.RawMessage            `json:"value,omitempty"`
	Parent     uint64                     `json:"parent,omitempty"`
	Components map[string]json.RawMessage `json:"components,omitempty"`
	Recursive  bool                       `json:"recursive,omitempty"`
	N          int                        `json:"n,omitempty"`
}

// The operations a request may name, and what each needs.
var ops = map[string]struct{ entity, comp, value bool }{
	"hello":   {},
	"watch":   {},
	"ack":     {},
	"status":  {},
	"set":     {entity: true, comp: true, value: true},
	"add":     {entity: true, comp: true},
	"remove":  {entity: true, comp: true},
	"spawn":   {},
	"despawn": {entity: true},
	"pause":   {},
	"resume":  {},
	"step":    {},
}

// errProtocol marks requests that break the protocol (the connection is closed), as opposed to
// requests the world refuses (answered with an error).
var errProtocol = errors.New("protocol error")

// parseRequest decodes and checks one request line. It never panics, and what it accepts is
// bounded by the line's length.
func parseRequest(line []byte) (request, error) {
	var r request
	if !utf8.Valid(line) {
		return r, fmt.Errorf("%w: the request is not UTF-8", errProtocol)
	}
	d := json.NewDecoder(bytes.NewReader(line))
	d.DisallowUnknownFields()
	if err := d.Decode(&r); err != nil {
		return request{}, fmt.Errorf("%w: %v", errProtocol, err)
	}
	if d.More() {
		return request{}, fmt.Errorf("%w: one JSON object per line", errProtocol)
	}
	spec, ok := ops[r.Op]
	if !ok {
		return request{}, fmt.Errorf("%w: unknown op %q", errProtocol, clip(r.Op))
	}
	switch {
	case len(r.Token) > maxTokenLen:
		return request{}, fmt.Errorf("%w: token too long", errProtocol)
	case len(r.C) > maxNameLen || len(r.Path) > maxNameLen:
		return request{}, fmt.Errorf("%w: name or path longer than %d bytes", errProtocol, maxNameLen)
	case len(r.Components) > maxSpawnLen:
		return request{}, fmt.Errorf("%w: more than %d components", errProtocol, maxSpawnLen)
	case spec.entity && r.E == 0:
		return request{}, fmt.Errorf("%w: %s needs an entity (e)", errProtocol, r.Op)
	case spec.comp && r.C == "":
		return request{}, fmt.Errorf("%w: %s needs a component (c)", errProtocol, r.Op)
	case spec.value && len(r.Value) == 0:
		return request{}, fmt.Errorf("%w: %s needs a value", errProtocol, r.Op)
	case r.Op == "step" && (r.N < 0 || r.N > maxSteps):
		return request{}, fmt.Errorf("%w: step n must be 1..%d", errProtocol, maxSteps)
	}
	for name := range r.Components {
		if len(name) > maxNameLen {
			return request{}, fmt.Errorf("%w: component name longer than %d bytes", errProtocol, maxNameLen)
		}
	}
	return r, nil
}

// clip shortens a string quoted back to a client.
func clip(s string) string {
	if len(s) > 40 {
		return strings.ToValidUTF8(s[:40], "") + "…"
	}
	return s
}

// Handle is an entity as the protocol names it: its generation in the high 32 bits and its slot
// index in the low ones (0 is no entity).
func Handle(e ecs.Entity) uint64 {
	if e.IsZero() {
		return 0
	}
	return uint64(e.Generation())<<32 | uint64(e.Index())
}

// entityOf is the inverse of Handle.
func entityOf(h uint64) ecs.Entity { return ecs.EntityAt(uint32(h), uint32(h>>32)) }

// reply answers one request.
type reply struct {
	Op    string `json:"op"` // "reply"
	ID    uint64 `json:"id"`
	OK    bool   `json:"ok"`
	Error string `json:"error,omitempty"`
	// Watch marks the reply to a watch: the deltas after it start from an empty view.
	Watch bool `json:"watch,omitempty"`
	// E is the entity a spawn made.
	E uint64 `json:"e,omitempty"`
	// Status, with every reply: the server's frame count, the world's updates, pause state.
	Frame   uint64 `json:"frame"`
	Updates uint64 `json:"updates"`
	Paused  bool   `json:"paused"`
}

// hello is the server's first message after a good token: the protocol version and the
// components' schemas.
type hello struct {
	Op         string   `json:"op"` // "hello"
	Version    int      `json:"version"`
	Components []Schema `json:"components"`
	// Scene is the scene file the game loaded (Options.Scene), absolute; "" when none.
	Scene string `json:"scene,omitempty"`
}

// Schema describes a component as a client needs it: its name, flags and fields (ecs.Schema in
// JSON form; defaults as scene JSON).
type Schema struct {
	Name       string          `json:"name"`
	Tag        bool            `json:"tag,omitempty"`
	Computed   bool            `json:"computed,omitempty"`
	Transient  bool            `json:"transient,omitempty"`
	EditorOnly bool            `json:"editorOnly,omitempty"`
	Sparse     bool            `json:"sparse,omitempty"`
	Default    json.RawMessage `json:"default,omitempty"`
	// Unstorable says why scene JSON cannot hold the component (its values are never sent).
	Unstorable string  `json:"unstorable,omitempty"`
	Fields     []Field `json:"fields,omitempty"`
}

// Field is one field of a [Schema] (or the element of an array or slice field).
type Field struct {
	Name   string  `json:"name,omitempty"` // JSON name ("" for elements)
	Kind   string  `json:"kind"`           // reflect kind: float32, struct, array, slice, ...
	Type   string  `json:"type"`           // Go type
	Entity bool    `json:"entity,omitempty"`
	Len    int     `json:"len,omitempty"`
	Elem   *Field  `json:"elem,omitempty"`
	Fields []Field `json:"fields,omitempty"`
	Enum   []Enum  `json:"enum,omitempty"`
	Hints  *Hints  `json:"hints,omitempty"`
}

// Enum is one named value of an enum field.
type Enum struct {
	Name  string `json:"name"`
	Value int64  `json:"value"`
}

// Hints are a field's inspector hints (ecs.Hints).
type Hints struct {
	Min       *float64 `json:"min,omitempty"`
	Max       *float64 `json:"max,omitempty"`
	Step      *float64 `json:"step,omitempty"`
	Degrees   bool     `json:"degrees,omitempty"`
	Color     bool     `json:"color,omitempty"`
	ReadOnly  bool     `json:"readonly,omitempty"`
	Hidden    bool     `json:"hidden,omitempty"`
	Multiline bool     `json:"multiline,omitempty"`
	Asset     bool     `json:"asset,omitempty"`
	Tooltip   string   `json:"tooltip,omitempty"`
}

func fieldOf(f *ecs.Field) Field {
	out := Field{Name: f.JSONName, Kind: f.Kind.String(), Type: f.Type.String(), Entity: f.IsEntity, Len: f.Len}
	for _, v := range f.Enum {
		out.Enum = append(out.Enum, Enum(v))
	}
	if f.Elem != nil {
		e := fieldOf(f.Elem)
		out.Elem = &e
	}
	for i := range f.Fields {
		out.Fields = append(out.Fields, fieldOf(&f.Fields[i]))
	}
	h := f.Hints
	if h != (ecs.Hints{}) {
		out.Hints = &Hints{Degrees: h.Degrees, Color: h.Color, ReadOnly: h.ReadOnly, Hidden: h.Hidden,
			Multiline: h.Multiline, Asset: h.Asset, Tooltip: h.Tooltip}
		if h.HasMin {
			out.Hints.Min = &h.Min
		}
		if h.HasMax {
			out.Hints.Max = &h.Max
		}
		if h.HasStep {
			out.Hints.Step = &h.Step
		}
	}
	return out
}

// deltaEntity is one entity of a delta: its parent, every component it has, and the values of
// those that changed since the client's last acknowledged delta (all of them the first time).
type deltaEntity struct {
	E      uint64                     `json:"e"`
	Parent uint64                     `json:"parent,omitempty"`
	Has    []string                   `json:"has"`
	C      map[string]json.RawMessage `json:"c,omitempty"`
	// Errors name values that could not be written (NaN, ...).
	Errors []string `json:"errors,omitempty"`
}

// delta is one part of a delta; the last part has End set and lists the entities gone since.
type delta struct {
	Op  string `json:"op"` // "delta"
	Seq uint64 `json:"seq"`
	// When the delta began: the server's frame, the world's updates, whether it was paused.
	Frame    uint64        `json:"frame"`
	Updates  uint64        `json:"updates"`
	Paused   bool          `json:"paused"`
	Entities []deltaEntity `json:"entities,omitempty"`
	Removed  []uint64      `json:"removed,omitempty"`
	End      bool          `json:"end,omitempty"`
}

// refNumber is how component JSON writes an entity reference: its handle.
func refNumber(e ecs.Entity) int64 { return int64(Handle(e)) }
