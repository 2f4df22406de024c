package game

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"unsafe"

	"github.com/voltex-editor/voltex/internal/assetref"
	"github.com/voltex-editor/voltex/internal/words"
	"github.com/voltex-editor/voltex/serialize/internal/diag"
	"github.com/voltex-editor/voltex/serialize/internal/jsonpos"
)

// Format and Version identify the files this package reads.
const (
	Format  = "voltex.export"
	Version = 1
)

// Scene is a loaded export.
type Scene struct {
	Name string
	// File is the name the export was read under (LoadFile's path, LoadWith's file): the file of
	// the positions [Scene.Where] gives.
	File string
	// Meshes are the mesh assets: "builtin:cube", "builtin:plane", "builtin:sphere" or
	// slash-separated paths relative to the export's folder that stay inside it (Load refuses
	// absolute paths, drive letters, URLs and ".." escapes, so a game can open them safely
	// below its folder; symlinks are the game's to check). A reference to a glTF model may name a
	// part of it: "models/ship.glb#mesh/Hull/0" is primitive 0 of the model's mesh Hull.
	Meshes   []string
	Entities []Entity // parents before children
	where    []byte   // where the game components were in the file (see where.go)
}

// Entity is one exported entity.
type Entity struct {
	Name   string
	Parent int // index into Scene.Entities, -1 for a root; always less than the entity's own index
	Mesh   int // index into Scene.Meshes, -1 for none
	// Color is the entity's linear RGBA colour, each channel 0..1; opaque
	// white when HasColor is false.
	Color    [4]float32
	HasColor bool
	// World is the entity's world matrix, column-major (element [col*4+row],
	// the layout of mgl32.Mat4 and of OpenGL): the product of its ancestors'
	// local transforms and its own.
	World [16]float32
	where uint32 // 1 + the offset of the entity's component positions in Scene.where; 0 for none
	// Transform, Spin, Camera, Material and Light are the built-in components, nil when the
	// entity does not have them.
	Transform *Transform
	Spin      *Spin
	Camera    *Camera
	Material  *Material
	Light     *Light
	// Components holds every other component as compact JSON, keyed by
	// name; decode one with [Entity.Decode]. Entity references inside them
	// are entity indices (-1 for none).
	Components map[string][]byte
}

// Transform is an entity's local transform relative to its parent:
// rotation is Euler angles in degrees, applied as T·Ry·Rx·Rz·S.
type Transform struct {
	Position, Rotation, Scale [3]float32
}

// Spin turns an entity about Axis (in its parent's space) at Speed degrees
// per second.
type Spin struct {
	Axis  [3]float32
	Speed float32
}

// Camera is a camera looking down its entity's -Z axis, seeing from Near to Far.
type Camera struct {
	// Orthographic says which projection: perspective (FOV, Aspect) when false, orthographic
	// (XMag, YMag) when true.
	Orthographic bool
	FOV          float32 // vertical field of view, degrees
	Aspect       float32 // width / height; 0: the screen's
	XMag, YMag   float32 // half the width and height seen; XMag 0: YMag × the screen's aspect, YMag 0: 1
	Near         float32
	Far          float32
}

// Decode unmarshals component name (from [Entity.Components]) into v with
// encoding/json. It returns an error if the entity has no such component.
func (e *Entity) Decode(name string, v any) error {
	raw, ok := e.Components[name]
	if !ok {
		return fmt.Errorf("entity %q has no component %q", e.Name, name)
	}
	return json.Unmarshal(raw, v)
}

// MeshOf returns the mesh asset of entity i ("" for none).
func (s *Scene) MeshOf(i int) string {
	if m := s.Entities[i].Mesh; m >= 0 {
		return s.Meshes[m]
	}
	return ""
}

// Children returns the indices of entity i's children, in order.
func (s *Scene) Children(i int) []int {
	var out []int
	for j := i + 1; j < len(s.Entities); j++ {
		if s.Entities[j].Parent == i {
			out = append(out, j)
		}
	}
	return out
}

// Problem is one problem found in an export, formatted by its String
// method as "file:line:col: path: message".
type Problem = diag.Problem

// Error lists the problems of an export that could not be loaded.
type Error = diag.Error

// Limits protect Load against hostile files; zero fields take the defaults,
// negative ones mean no limit. With the defaults, loading any export takes
// at most about 3 GiB of memory (see docs/limits.md in the editor's
// repository).
type Limits struct {
	MaxFileSize int64 // bytes; default 2 GiB (the export of a scene within the editor's limits fits)
	MaxEntities int   // default 4,000,000
	MaxDepth    int   // nesting of arrays and objects; default 64
	MaxString   int   // bytes in one string or number; default 1 MiB
	// MaxEntityBytes bounds the bytes of strings and numbers in one entity
	// (and in each other top-level member but "meshes", which is read a mesh
	// at a time); default 16 MiB.
	MaxEntityBytes int
	// MaxWorldBytes bounds an estimate of the memory the loaded Scene takes
	// (entities, names, meshes, components kept as JSON); default 1 GiB.
	MaxWorldBytes int64
}

func (l Limits) resolved() Limits {
	pick := diag.Limit
	return Limits{pick(l.MaxFileSize, 2<<30), int(pick(int64(l.MaxEntities), 4_000_000)),
		int(pick(int64(l.MaxDepth), 64)), int(pick(int64(l.MaxString), 1<<20)),
		int(pick(int64(l.MaxEntityBytes), 16<<20)), pick(l.MaxWorldBytes, 1<<30)}
}

// LoadFile loads the export at path; problems are reported under path.
func LoadFile(path string) (*Scene, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }() // read only: closing loses nothing
	return LoadWith(f, path, Limits{})
}

// Load reads an export from r with the default limits.
func Load(r io.Reader) (*Scene, error) { return LoadWith(r, "", Limits{}) }

// LoadWith reads an export from r, reporting problems under the name file.
// On failure it returns an *[Error] — always, whatever went wrong (broken
// JSON, a limit, a read error) — listing the first 100 problems found with
// their positions, and how many more there were ([Error.Dropped]).
func LoadWith(r io.Reader, file string, lim Limits) (*Scene, error) {
	lim = lim.resolved()
	l := &loader{probs: &diag.List{File: file}, lim: lim, s: &Scene{File: file}}
	l.d = jsonpos.NewDecoder(r, jsonpos.Limits{MaxBytes: lim.MaxFileSize, MaxDepth: lim.MaxDepth, MaxString: lim.MaxString,
		MaxValues: 1_000_000, MaxArenaBytes: lim.MaxEntityBytes, Unit: "entity"})
	if err := l.run(); err != nil {
		var se *jsonpos.SyntaxError
		switch {
		case errors.As(err, &se):
			l.probs.Add(diag.Problem{Line: se.Pos.Line, Col: se.Pos.Col, Msg: se.Msg})
		case errors.Is(err, errStop): // reported
		default:
			l.probs.Add(diag.Problem{Msg: err.Error()})
		}
	}
	if err := l.probs.Err(); err != nil {
		return nil, err
	}
	return l.s, nil
}

type loader struct {
	d     *jsonpos.Decoder
	probs *diag.List
	path  diag.Path
	lim   Limits
	s     *Scene
	cur   jsonpos.Value
	// meshRefs remembers where each mesh index was used, to check against
	// the mesh table once it is known.
	meshRefs []meshRef
	seen     map[string]jsonpos.Pos
	data     int64 // the memory the Scene takes, estimated (Limits.MaxWorldBytes)
	compact  compacter
}

type meshRef struct {
	entity, mesh int
	pos          jsonpos.Pos
}

// errStop ends reading at a limit (already reported).
var errStop = errors.New("stopped at a limit")

func (l *loader) errAt(v *jsonpos.Value, format string, args ...any) {
	p := v.Pos()
	l.probs.Errorf(p.Line, p.Col, l.path.String(), format, args...)
}

func (l *loader) run() error {
	d := l.d
	kind, pos, err := d.Peek()
	if err != nil {
		return err
	}
	if kind != jsonpos.Object {
		if err := d.Skip(); err != nil {
			return err
		}
		if err := d.Finish(); err != nil {
			return err
		}
		l.probs.Errorf(pos.Line, pos.Col, "", "an export must be a JSON object, not a %s", kind)
		return nil
	}
	if _, err := d.EnterObject(); err != nil {
		return err
	}
	l.seen = map[string]jsonpos.Pos{}
	for {
		key, kp, ok, err := d.NextMember()
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		k := string(key)
		if first, dup := l.seen[k]; dup {
			l.probs.Errorf(kp.Line, kp.Col, k, "duplicate key (first at %d:%d)", first.Line, first.Col)
			if err := d.Skip(); err != nil {
				return err
			}
			continue
		}
		l.seen[k] = kp
		switch k {
		case "entities":
			if err := l.entities(); err != nil {
				return err
			}
			continue
		case "meshes":
			if err := l.meshes(); err != nil {
				return err
			}
			continue
		}
		v, err := d.Value()
		if err != nil {
			return err
		}
		mark := l.path.Key(k)
		l.header(k, &v, kp)
		l.path.Truncate(mark)
		d.ResetArena()
	}
	if err := d.Finish(); err != nil {
		return err
	}
	for _, k := range []string{"format", "version"} {
		if _, ok := l.seen[k]; !ok {
			l.probs.Errorf(1, 1, "", "missing %q (this does not look like a voltex.export file)", k)
		}
	}
	for _, r := range l.meshRefs {
		if r.mesh >= len(l.s.Meshes) {
			l.probs.Errorf(r.pos.Line, r.pos.Col, "entities["+strconv.Itoa(r.entity)+"].mesh",
				"mesh %d does not exist (the mesh table has %d)", r.mesh, len(l.s.Meshes))
		}
	}
	return nil
}

func (l *loader) header(k string, v *jsonpos.Value, kp jsonpos.Pos) {
	switch k {
	case "format":
		if !v.IsStr(Format) {
			l.errAt(v, "expected %q, got %s", Format, string(jsonpos.AppendInline(nil, v)))
		}
	case "version":
		n, err := v.Int()
		switch {
		case v.Kind() != jsonpos.Number || err != nil || n < 1:
			l.errAt(v, "expected a version number, got %s", string(jsonpos.AppendInline(nil, v)))
		case n > Version:
			l.errAt(v, "export version %d is newer than this loader supports (%d)", n, Version)
		}
	case "name":
		if v.Kind() != jsonpos.String {
			l.errAt(v, "expected a string")
			return
		}
		l.s.Name = v.Str()
	default:
		l.probs.Errorf(kp.Line, kp.Col, l.path.String(), "unknown key (an export has format, version, name, meshes and entities)")
	}
}

// meshes reads the mesh table a mesh at a time.
func (l *loader) meshes() error {
	d := l.d
	mark := l.path.Key("meshes")
	defer l.path.Truncate(mark)
	kind, pos, err := d.Peek()
	if err != nil {
		return err
	}
	if kind != jsonpos.Array {
		l.probs.Errorf(pos.Line, pos.Col, l.path.String(), "expected an array of mesh names")
		return d.Skip()
	}
	if _, err := d.EnterArray(); err != nil {
		return err
	}
	for i := 0; ; i++ {
		more, err := d.NextItem()
		if err != nil || !more {
			return err
		}
		m, err := d.Value()
		if err != nil {
			return err
		}
		im := l.path.Index(i)
		name := ""
		switch {
		case m.Kind() != jsonpos.String:
			l.errAt(&m, "expected a string")
		default:
			name = m.Str()
			if _, err := assetref.Check(name); err != nil {
				l.errAt(&m, "%v", err)
				name = ""
			}
		}
		l.path.Truncate(im)
		d.ResetArena()
		l.s.Meshes = append(l.s.Meshes, name)
		if !l.use(int64(len(name))+16, &m) {
			return errStop
		}
	}
}

// use counts n bytes of the memory the Scene takes; the first time over
// MaxWorldBytes it reports the error at v and returns false.
func (l *loader) use(n int64, v *jsonpos.Value) bool {
	l.data += n
	if l.lim.MaxWorldBytes <= 0 || l.data <= l.lim.MaxWorldBytes {
		return true
	}
	p := v.Pos()
	l.probs.Errorf(p.Line, p.Col, l.path.String(), "the export takes more than the limit of %s of memory (Limits.MaxWorldBytes)",
		words.Bytes(l.lim.MaxWorldBytes))
	return false
}

func (l *loader) entities() error {
	d := l.d
	mark := l.path.Key("entities")
	defer l.path.Truncate(mark)
	kind, pos, err := d.Peek()
	if err != nil {
		return err
	}
	if kind != jsonpos.Array {
		l.probs.Errorf(pos.Line, pos.Col, l.path.String(), "expected an array of entities, not a %s", kind)
		return d.Skip()
	}
	if _, err := d.EnterArray(); err != nil {
		return err
	}
	for i := 0; ; i++ {
		more, err := d.NextItem()
		if err != nil || !more {
			return err
		}
		if i >= l.lim.MaxEntities && l.lim.MaxEntities > 0 {
			_, p, _ := d.Peek()
			l.probs.Errorf(p.Line, p.Col, l.path.String(), "more than the limit of %s entities", words.Thousands(int64(l.lim.MaxEntities)))
			return errStop
		}
		l.cur, err = d.Value()
		if err != nil {
			return err
		}
		im := l.path.Index(i)
		l.entity(&l.cur, i)
		ok := l.use(l.entitySize(i), &l.cur)
		l.path.Truncate(im)
		d.ResetArena()
		if !ok {
			return errStop
		}
	}
}

func (l *loader) entity(v *jsonpos.Value, i int) {
	if v.Kind() != jsonpos.Object {
		l.errAt(v, "an entity must be an object")
		return
	}
	e := Entity{Parent: -1, Mesh: -1, Color: [4]float32{1, 1, 1, 1}}
	hasWorld := false
	keys := jsonpos.NewKeyIndex(v)
	for k := range v.Len() {
		m := v.Index(k)
		key := m.Key()
		if j := keys.First(k); j != k {
			kp, fp := m.KeyPos(), v.Index(j).KeyPos()
			l.probs.Errorf(kp.Line, kp.Col, l.path.String()+"."+key, "duplicate key (first at %d:%d)", fp.Line, fp.Col)
			continue
		}
		km := l.path.Key(key)
		switch key {
		case "name":
			if m.Kind() != jsonpos.String {
				l.errAt(m, "expected a string")
			} else {
				e.Name = m.Str()
			}
		case "parent":
			if n, ok := l.index(m); ok {
				if n >= i {
					l.errAt(m, "parent %d is not an earlier entity (entities must list parents first)", n)
				} else {
					e.Parent = n
				}
			}
		case "mesh":
			if n, ok := l.index(m); ok {
				e.Mesh = n
				_, tableRead := l.seen["meshes"]
				switch {
				case n >= 0 && tableRead && n >= len(l.s.Meshes):
					l.errAt(m, "mesh %d does not exist (the mesh table has %d)", n, len(l.s.Meshes))
				case n >= 0 && !tableRead: // checked once the table is read
					l.meshRefs = append(l.meshRefs, meshRef{entity: i, mesh: n, pos: m.Pos()})
				}
			}
		case "color":
			if l.floats(m, e.Color[:], 0, 1) {
				e.HasColor = true
			}
		case "world":
			hasWorld = l.floats(m, e.World[:], 0, 0)
		case "components":
			l.components(m, &e)
		default:
			kp := m.KeyPos()
			l.probs.Errorf(kp.Line, kp.Col, l.path.String(), "unknown key (an entity has name, parent, mesh, color, world and components)")
		}
		l.path.Truncate(km)
	}
	if !hasWorld && v.Get("world") == nil {
		l.errAt(v, "missing \"world\" matrix")
	}
	e.where = l.compact.endEntity(l.s)
	l.s.Entities = append(l.s.Entities, e)
}

// entitySize estimates the memory entity i takes in the Scene.
func (l *loader) entitySize(i int) int64 {
	if i >= len(l.s.Entities) {
		return 0
	}
	e := &l.s.Entities[i]
	n := int64(unsafe.Sizeof(Entity{})) + int64(len(e.Name))
	if _, tableRead := l.seen["meshes"]; !tableRead {
		n += int64(unsafe.Sizeof(meshRef{}))
	}
	if e.Transform != nil {
		n += 48
	}
	if e.Spin != nil || e.Camera != nil {
		n += 32
	}
	if e.Material != nil {
		n += int64(unsafe.Sizeof(Material{})) + int64(len(e.Material.BaseColorTexture.Image)+len(e.Material.MetallicRoughnessTexture.Image)+
			len(e.Material.NormalTexture.Image)+len(e.Material.OcclusionTexture.Image)+len(e.Material.EmissiveTexture.Image))
	}
	if e.Light != nil {
		n += int64(unsafe.Sizeof(Light{}))
	}
	if e.where != 0 { // the entity's component positions, the last in Scene.where
		n += int64(len(l.s.where) - int(e.where-1))
	}
	if e.Components != nil {
		n += 256
		for k, v := range e.Components {
			n += int64(len(k)+len(v)) + 64
		}
	}
	return n
}

// index reads an index that may be -1.
func (l *loader) index(v *jsonpos.Value) (int, bool) {
	n, err := v.Int()
	if v.Kind() != jsonpos.Number || err != nil || n < -1 || n > 1<<31 {
		l.errAt(v, "expected an index (or -1 for none), got %s", string(jsonpos.AppendInline(nil, v)))
		return 0, false
	}
	return int(n), true
}

// floats reads an array of exactly len(dst) finite float32s, within lo..hi
// unless both are 0.
func (l *loader) floats(v *jsonpos.Value, dst []float32, lo, hi float64) bool {
	if v.Kind() != jsonpos.Array || v.Len() != len(dst) {
		l.errAt(v, "expected an array of %d numbers", len(dst))
		return false
	}
	ok := true
	for i := range dst {
		x := v.Index(i)
		f, err := x.Float(32)
		if x.Kind() != jsonpos.Number || err != nil || ((lo != 0 || hi != 0) && (f < lo || f > hi)) {
			mark := l.path.Index(i)
			if lo != 0 || hi != 0 {
				l.errAt(x, "expected a number within %g..%g, got %s", lo, hi, string(jsonpos.AppendInline(nil, x)))
			} else {
				l.errAt(x, "expected a finite 32-bit number, got %s", string(jsonpos.AppendInline(nil, x)))
			}
			l.path.Truncate(mark)
			ok = false
			continue
		}
		dst[i] = float32(f)
	}
	return ok
}

func (l *loader) components(v *jsonpos.Value, e *Entity) {
	if v.Kind() != jsonpos.Object {
		l.errAt(v, "expected an object mapping component names to values")
		return
	}
	keys := jsonpos.NewKeyIndex(v)
	for k := range v.Len() {
		m := v.Index(k)
		name := m.Key()
		km := l.path.Key(name)
		if j := keys.First(k); j != k {
			l.duplicate(m, v.Index(j))
			l.path.Truncate(km)
			continue
		}
		if m.Kind() != jsonpos.Object {
			l.errAt(m, "a component must be an object")
			l.path.Truncate(km)
			continue
		}
		if l.duplicates(m) {
			l.path.Truncate(km)
			continue
		}
		switch name {
		case "Transform":
			t := Transform{Scale: [3]float32{1, 1, 1}}
			if l.fields(m, map[string][]float32{"position": t.Position[:], "rotation": t.Rotation[:], "scale": t.Scale[:]}) {
				e.Transform = &t
			}
		case "Spin":
			s, speed := Spin{Axis: [3]float32{0, 1, 0}}, [1]float32{45}
			if l.fields(m, map[string][]float32{"axis": s.Axis[:], "speed": speed[:]}) {
				s.Speed = speed[0]
				e.Spin = &s
			}
		case "Camera":
			fov, near, far := [1]float32{60}, [1]float32{0.1}, [1]float32{1000}
			var proj, aspect, xmag, ymag [1]float32
			if l.fields(m, map[string][]float32{"fov": fov[:], "near": near[:], "far": far[:], "projection": proj[:],
				"aspect": aspect[:], "xmag": xmag[:], "ymag": ymag[:]}) && l.enum(m, "projection", proj[0], 1) {
				e.Camera = &Camera{Orthographic: proj[0] == 1, FOV: fov[0], Aspect: aspect[0], XMag: xmag[0], YMag: ymag[0], Near: near[0], Far: far[0]}
			}
		case "Material":
			if mat, ok := l.material(m); ok {
				e.Material = mat
			}
		case "Light":
			if g, ok := l.light(m); ok {
				e.Light = g
			}
		default:
			if e.Components == nil {
				e.Components = map[string][]byte{}
			}
			e.Components[name] = l.compact.component(name, m)
		}
		l.path.Truncate(km)
	}
}

// enum reports whether x, the value of member key of v (if v has it), is an integer from 0 to hi,
// reporting it if not.
func (l *loader) enum(v *jsonpos.Value, key string, x float32, hi int) bool {
	if x == float32(int(x)) && x >= 0 && int(x) <= hi {
		return true
	}
	m := v.Get(key)
	km := l.path.Key(key)
	l.errAt(m, "expected an integer from 0 to %d, got %s", hi, string(jsonpos.AppendInline(nil, m)))
	l.path.Truncate(km)
	return false
}

// duplicate reports member m, whose key repeats that of first.
func (l *loader) duplicate(m, first *jsonpos.Value) {
	kp, fp := m.KeyPos(), first.KeyPos()
	l.probs.Errorf(kp.Line, kp.Col, l.path.String(), "duplicate key (first at %d:%d)", fp.Line, fp.Col)
}

// duplicates reports every repeated key in the objects of v (a component's
// value, kept as JSON for the game to decode: encoding/json would silently
// take the last) and reports whether there was one.
func (l *loader) duplicates(v *jsonpos.Value) bool {
	found := false
	switch v.Kind() {
	case jsonpos.Object:
		keys := jsonpos.NewKeyIndex(v)
		for k := range v.Len() {
			m := v.Index(k)
			km := l.path.Key(m.Key())
			if j := keys.First(k); j != k {
				l.duplicate(m, v.Index(j))
				found = true
			} else if l.duplicates(m) {
				found = true
			}
			l.path.Truncate(km)
		}
	case jsonpos.Array:
		for k := range v.Len() {
			im := l.path.Index(k)
			if l.duplicates(v.Index(k)) {
				found = true
			}
			l.path.Truncate(im)
		}
	}
	return found
}

// fields reads an object whose members are numbers or arrays of numbers
// into dst (single numbers into slices of length 1).
func (l *loader) fields(v *jsonpos.Value, dst map[string][]float32) bool {
	ok := true
	for k := range v.Len() {
		m := v.Index(k)
		d, known := dst[m.Key()]
		km := l.path.Key(m.Key())
		switch {
		case !known:
			kp := m.KeyPos()
			l.probs.Errorf(kp.Line, kp.Col, l.path.String(), "unknown field")
			ok = false
		case len(d) == 1:
			f, err := m.Float(32)
			if m.Kind() != jsonpos.Number || err != nil {
				l.errAt(m, "expected a finite 32-bit number")
				ok = false
			} else {
				d[0] = float32(f)
			}
		default:
			ok = l.floats(m, d, 0, 0) && ok
		}
		l.path.Truncate(km)
	}
	return ok
}
