package serialize

import (
	"context"
	"fmt"
	"io"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/internal/atomicfile"
	"github.com/voltex-editor/voltex/serialize/internal/jsonpos"
)

// SaveOptions configure [Save] and [SaveFile]. The zero value is ready to
// use.
type SaveOptions struct {
	// Progress, if set, is called now and then with the entities written so
	// far and their total, on the saving goroutine.
	Progress func(done, total int64)
	// Also, if set, gets every byte the save writes, as out does (a hash of the file's content, say).
	Also io.Writer
}

// SaveFile saves s to path atomically, keeping the previous file as
// path+".bak" (see [atomicfile.WriteFileFunc] and [Save]).
func SaveFile(ctx context.Context, path string, s *Scene, opts SaveOptions) error {
	return atomicfile.WriteFileFunc(path, func(w io.Writer) error { return Save(ctx, w, s, opts) })
}

// Save writes s in the canonical scene format: entities in ascending id
// order, components sorted by name, fields in schema order, 2-space indent,
// one line per component, floats in the shortest form that reads back to
// the same value, and a final newline. Saving what [Load] returned gives the
// file back byte for byte if the editor wrote it.
//
// Save gives entities that have no [scene.SceneID] (or share one) a fresh
// id first, so ids stay stable across saves. Components whose type is
// [scene.Transient] or computed by the world are not written; components
// the file had but this build does not know ([scene.Unknown]) are written
// back as they were read. A value that JSON cannot hold (NaN, ±Inf) fails
// the save with an error naming the entity and field. Cancelling ctx stops
// the save with ctx's error; what was written to out is then incomplete
// (SaveFile leaves the old file in place).
func Save(ctx context.Context, out io.Writer, s *Scene, opts SaveOptions) error {
	if s == nil || s.World == nil {
		panic("serialize.Save: the scene has no world; load or create one first (scene.NewWorld)")
	}
	sw := newSceneWriter(s.World)
	if opts.Also != nil {
		out = io.MultiWriter(out, opts.Also)
	}
	return sw.write(ctx, out, s, opts.Progress)
}

// savedComp is a component type that scene files store.
type savedComp struct {
	name  string
	id    ecs.ComponentID
	codec *codec
	line  []byte // `        "Name": `
	// get returns a pointer to (a copy of) entity e's value.
	get func(e ecs.Entity) unsafe.Pointer
}

// sceneWriter writes one scene.
type sceneWriter struct {
	exporting bool // Export, not Save (for messages)
	w         *ecs.World
	comps     []savedComp // sorted by name
	sids      *ecs.Map[scene.SceneID]
	names     *ecs.Map[scene.Name]
	unknown   *ecs.Map[scene.Unknown]
	enc       encodeState
	buf       []byte
	out       io.Writer
	err       error
	wrote     bool        // an entity was written (the next needs a separator)
	iw        *instWriter // the world's prefab instances; nil if it has none
	cmpBuf    []byte      // a component as its prefab would write it (compare)
}

func newSceneWriter(w *ecs.World) *sceneWriter {
	if _, ok := ecs.ComponentIDOf[scene.SceneID](w); !ok {
		panic("serialize: the world has no scene components; call scene.Register(w) when creating it")
	}
	sw := &sceneWriter{w: w, sids: ecs.NewMap[scene.SceneID](w), names: ecs.NewMap[scene.Name](w),
		unknown: ecs.NewMap[scene.Unknown](w)}
	sw.enc.refID = func(e ecs.Entity) int64 {
		if e.IsZero() || !w.Alive(e) {
			return 0
		}
		v, _ := sw.sids.TryGet(e)
		return int64(v.ID)
	}
	for _, id := range w.ComponentIDs() {
		info := w.ComponentInfo(id)
		switch info.Type {
		case reflect.TypeFor[scene.Name](), reflect.TypeFor[scene.SceneID](), reflect.TypeFor[scene.Unknown](),
			reflect.TypeFor[scene.Prefab](), reflect.TypeFor[scene.PrefabPart](), reflect.TypeFor[scene.PrefabKept]():
			continue
		}
		if info.Computed || scene.IsTransient(info) {
			continue
		}
		c, err := newCodec(info)
		if err != nil {
			// Not storable: fail the save only if an entity has one.
			c = nil
		}
		sc := savedComp{name: info.Name, id: id, codec: c, get: getter(w, info)}
		sc.line = append(jsonpos.AppendString([]byte("        "), info.Name), ": "...)
		sw.comps = append(sw.comps, sc)
	}
	slices.SortFunc(sw.comps, func(a, b savedComp) int { return strings.Compare(a.name, b.name) })
	return sw
}

// getter returns a function that copies an entity's component into a
// scratch value and returns its address: typed (no allocation) for the
// built-in components, through the type-erased World.Get for others.
func getter(w *ecs.World, info *ecs.ComponentInfo) func(ecs.Entity) unsafe.Pointer {
	switch info.Type {
	case reflect.TypeFor[ecs.Transform]():
		return typedGetter[ecs.Transform](w)
	case reflect.TypeFor[scene.Mesh]():
		return typedGetter[scene.Mesh](w)
	case reflect.TypeFor[scene.Color]():
		return typedGetter[scene.Color](w)
	case reflect.TypeFor[scene.Spin]():
		return typedGetter[scene.Spin](w)
	case reflect.TypeFor[scene.Camera]():
		return typedGetter[scene.Camera](w)
	}
	scratch := reflect.New(info.Type)
	id := info.ID
	return func(e ecs.Entity) unsafe.Pointer {
		v, _ := w.Get(e, id)
		scratch.Elem().Set(reflect.ValueOf(v))
		return scratch.UnsafePointer()
	}
}

func typedGetter[T any](w *ecs.World) func(ecs.Entity) unsafe.Pointer {
	m := ecs.NewMap[T](w)
	scratch := new(T)
	return func(e ecs.Entity) unsafe.Pointer {
		*scratch = m.Get(e)
		return unsafe.Pointer(scratch)
	}
}

const flushAt = 256 << 10

func (sw *sceneWriter) flush() {
	if sw.err == nil && len(sw.buf) > 0 {
		_, sw.err = sw.out.Write(sw.buf)
	}
	sw.buf = sw.buf[:0]
}

func (sw *sceneWriter) write(ctx context.Context, out io.Writer, s *Scene, progress func(done, total int64)) error {
	sw.out = out
	sw.buf = make([]byte, 0, flushAt+4096)
	order := scene.EnsureIDs(sw.w)
	b := append(sw.buf, "{\n  \"format\": \"voltex.scene\",\n  \"version\": "...)
	b = appendUint(b, CurrentVersion)
	b = append(b, ",\n  \"name\": "...)
	b = jsonpos.AppendString(b, s.Name)
	b = append(b, ",\n"...)
	var err error
	if b, err = sw.editorSection(b, s); err != nil {
		return err
	}
	if len(order) == 0 {
		sw.buf = append(b, "  \"entities\": []\n}\n"...)
		sw.flush()
		return sw.err
	}
	sw.buf = append(b, "  \"entities\": [\n"...)
	var iw *instWriter
	if hasInstances(sw.w) {
		if iw, err = newInstWriter(ctx, sw, s, order); err != nil {
			return err
		}
		sw.iw = iw
	}
	if iw == nil && len(order) >= parallelMin && saveWorkers() > 1 {
		worker := func() *sceneWriter { return newSceneWriter(sw.w) }
		entity := func(ew *sceneWriter, _ int, e ecs.Entity) error { return ew.entity(e) }
		if err := sw.entitiesParallel(ctx, order, progress, worker, entity); err != nil {
			return err
		}
		return sw.end(len(order), progress)
	}
	total := int64(len(order))
	step := max(total/100, 1)
	for i, e := range order {
		if i&1023 == 1023 {
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("saving: %w", err)
			}
		}
		if progress != nil && int64(i)%step == 0 {
			progress(int64(i), total)
		}
		if iw != nil {
			id := sw.sids.Get(e).ID
			iw.writeRemovedBefore(id)
			if iw.parts.Has(e) {
				if rec := iw.recs[e]; rec != nil {
					pp := iw.parts.Get(e)
					sw.recordHead(id, pp.Instance, pp.Source)
					sw.buf = append(append(sw.buf, rec...), "\n    }"...)
				}
				if len(sw.buf) >= flushAt {
					sw.flush()
				}
				continue
			}
		}
		if err := sw.entity(e); err != nil {
			return err
		}
		if len(sw.buf) >= flushAt {
			sw.flush()
			if sw.err != nil {
				return sw.err
			}
		}
	}
	if iw != nil {
		iw.writeRemovedBefore(scene.MaxID + 1)
	}
	return sw.end(len(order), progress)
}

// end writes what follows the entities and reports the save complete.
func (sw *sceneWriter) end(n int, progress func(done, total int64)) error {
	sw.buf = append(sw.buf, "\n  ]\n}\n"...)
	sw.flush()
	if sw.err == nil && progress != nil {
		progress(int64(n), int64(n))
	}
	return sw.err
}

// Entities are encoded in chunks on saveWorkers goroutines when a scene has at least parallelMin of
// them (and no prefab instances, whose records are written in one pass): chunks of a 64th of the
// entities, at least 256 (for the progress bar) and at most chunkEntities.
const (
	chunkEntities = 2048 // about 700 KB of JSON for cubes
	parallelMin   = 2 * chunkEntities
	chunkCap      = 1 << 20
)

func chunkSize(n int) int { return min(chunkEntities, max(256, n/64)) }

// saveWorkers returns how many goroutines encode entities at once (tests change it).
var saveWorkers = func() int { return runtime.GOMAXPROCS(0) }

// entitiesParallel writes the entities of order exactly as a sequential loop calling entity for each
// (entity i of order, appending to ew.buf; ew.wrote is false for the first only) does: workers, each
// with its own writer made by worker, encode chunks (chunkSize) into pooled buffers, which this
// goroutine writes in order (one write per chunk) and hands back. At most twice as many chunks as
// workers are in flight, so the memory it takes is a few MB whatever the scene's size. The first error
// in entity order is returned, as the sequential loop would return it; progress is reported on this
// goroutine (nil: none). entity must only read the world.
func (sw *sceneWriter) entitiesParallel(ctx context.Context, order []ecs.Entity, progress func(done, total int64),
	worker func() *sceneWriter, entity func(ew *sceneWriter, i int, e ecs.Entity) error) error {
	sw.flush() // what comes before the entities
	if sw.err != nil {
		return sw.err
	}
	size := chunkSize(len(order))
	chunks := (len(order) + size - 1) / size
	workers := min(saveWorkers(), chunks)
	type encoded struct {
		buf []byte
		err error
	}
	results := make([]chan encoded, chunks)
	for k := range results {
		results[k] = make(chan encoded, 1)
	}
	// A worker takes a buffer before it takes a chunk, so every chunk handed out has one: the lowest
	// chunk not yet written is always being encoded, or waits for a buffer that a written chunk gives back.
	free := make(chan []byte, 2*workers)
	for range cap(free) {
		free <- nil
	}
	wctx, cancel := context.WithCancel(ctx)
	var next atomic.Int64
	var wg sync.WaitGroup
	defer func() {
		cancel()
		wg.Wait() // no goroutine reads the world once Save returns
	}()
	for range workers {
		ew := worker()
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				var buf []byte
				select {
				case buf = <-free:
				case <-wctx.Done():
					return
				}
				k := int(next.Add(1)) - 1
				if k >= chunks {
					return
				}
				if buf == nil {
					buf = make([]byte, 0, chunkCap)
				}
				ew.buf, ew.wrote = buf[:0], k > 0
				var err error
				for i := k * size; i < min((k+1)*size, len(order)); i++ {
					if err = entity(ew, i, order[i]); err != nil {
						break
					}
				}
				results[k] <- encoded{ew.buf, err}
			}
		}()
	}
	total := int64(len(order))
	step := max(total/100, 1)
	for k := range chunks {
		var c encoded
		select {
		case c = <-results[k]:
		case <-ctx.Done():
			return fmt.Errorf("saving: %w", ctx.Err())
		}
		if c.err != nil {
			return c.err
		}
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("saving: %w", err)
		}
		if done := int64(k * size); progress != nil && (k == 0 || done/step != (done-int64(size))/step) {
			progress(done, total)
		}
		if _, err := sw.out.Write(c.buf); err != nil {
			sw.err = err
			return err
		}
		free <- c.buf
	}
	return nil
}

func (sw *sceneWriter) editorSection(b []byte, s *Scene) ([]byte, error) {
	var sel []uint64
	for _, e := range s.Selection {
		if sw.w.Alive(e) {
			if v, ok := sw.sids.TryGet(e); ok && v.ID > 0 {
				sel = append(sel, v.ID)
			}
		}
	}
	return appendEditor(b, s.Camera, sel, s.Conflicts)
}

// appendEditor appends the "editor" member (and its comma and newline), or
// nothing when there is nothing to say.
func appendEditor(b []byte, c *scene.EditorCamera, sel []uint64, conflicts []scene.MergeConflict) ([]byte, error) {
	if c == nil && len(sel) == 0 && len(conflicts) == 0 {
		return b, nil
	}
	b = append(b, "  \"editor\": {\n"...)
	more := func(rest bool) {
		if rest {
			b = append(b, ',')
		}
		b = append(b, '\n')
	}
	if c != nil {
		for _, f := range []float32{c.Pivot[0], c.Pivot[1], c.Pivot[2], c.Yaw, c.Pitch, c.Distance} {
			if !finite32(f) {
				return b, fmt.Errorf("saving: the editor camera has a value that is not a finite number (%v)", f)
			}
		}
		b = append(b, "    \"camera\": { \"pivot\": ["...)
		b = appendFloats32(b, c.Pivot[:])
		b = append(b, "], \"yaw\": "...)
		b = jsonpos.AppendFloat(b, float64(c.Yaw), 32)
		b = append(b, ", \"pitch\": "...)
		b = jsonpos.AppendFloat(b, float64(c.Pitch), 32)
		b = append(b, ", \"distance\": "...)
		b = jsonpos.AppendFloat(b, float64(c.Distance), 32)
		b = append(b, " }"...)
		more(len(sel) > 0 || len(conflicts) > 0)
	}
	if len(sel) > 0 {
		b = append(b, "    \"selection\": ["...)
		for i, id := range sel {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = appendUint(b, id)
		}
		b = append(b, ']')
		more(len(conflicts) > 0)
	}
	if len(conflicts) > 0 {
		b = append(b, "    \"conflicts\": ["...)
		for i, x := range conflicts {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = appendConflict(b, x)
		}
		b = append(b, "]\n"...)
	}
	return append(b, "  },\n"...), nil
}

// ConflictsJSON returns the JSON of a scene.MergeConflicts component holding items, exactly as a
// save writes it (for tools that write raw scenes).
func ConflictsJSON(items []scene.MergeConflict) string {
	b := []byte(`{ "items": [`)
	for i, x := range items {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = appendConflict(b, x)
	}
	return string(append(b, "] }"...))
}

// appendConflict appends a conflict record as an inline object.
func appendConflict(b []byte, x scene.MergeConflict) []byte {
	b = append(b, `{ "path": `...)
	b = jsonpos.AppendString(b, x.Path)
	b = append(b, `, "base": `...)
	b = jsonpos.AppendString(b, x.Base)
	b = append(b, `, "ours": `...)
	b = jsonpos.AppendString(b, x.Ours)
	b = append(b, `, "theirs": `...)
	b = jsonpos.AppendString(b, x.Theirs)
	return append(b, " }"...)
}

func appendFloats32(b []byte, fs []float32) []byte {
	for i, f := range fs {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = jsonpos.AppendFloat(b, float64(f), 32)
	}
	return b
}

func appendUint(b []byte, n uint64) []byte {
	if n < 10 {
		return append(b, byte('0'+n))
	}
	var tmp [20]byte
	i := len(tmp)
	for n > 0 {
		i--
		tmp[i] = byte('0' + n%10)
		n /= 10
	}
	return append(b, tmp[i:]...)
}

// sep appends the separator before an entity: nothing before the first.
func (sw *sceneWriter) sep(b []byte) []byte {
	if sw.wrote {
		b = append(b, ",\n"...)
	}
	sw.wrote = true
	return b
}

// entity appends one entity object (after the separator).
func (sw *sceneWriter) entity(e ecs.Entity) error {
	w := sw.w
	sid := sw.sids.Get(e)
	b := append(sw.sep(sw.buf), "    {\n      \"id\": "...)
	b = appendUint(b, sid.ID)
	if n, ok := sw.names.TryGet(e); ok {
		b = append(b, ",\n      \"name\": "...)
		b = jsonpos.AppendString(b, n.Value)
	}
	if p := w.Parent(e); !p.IsZero() {
		b = append(b, ",\n      \"parent\": "...)
		b = appendUint(b, sw.sids.Get(p).ID)
	}
	if !finite64(sid.Order) {
		sw.buf = b
		return fmt.Errorf("saving: entity %d: its order key is not a finite number (%v)", sid.ID, sid.Order)
	}
	b = append(b, ",\n      \"order\": "...)
	b = jsonpos.AppendFloat(b, sid.Order, 64)
	if sw.iw != nil {
		if pf, ok := sw.iw.prefabs.TryGet(e); ok {
			b = append(b, ",\n      \"prefab\": "...)
			b = jsonpos.AppendString(b, pf.Path)
		}
	}
	b = append(b, ",\n      \"components\": {"...)
	sw.buf = b
	if err := sw.components(e); err != nil {
		return err
	}
	sw.buf = append(sw.buf, "\n    }"...)
	return nil
}

// components appends the members of e's "components" object and its
// closing brace (the opening one is already written): one line per
// component, sorted by name, unknown components merged in.
func (sw *sceneWriter) components(e ecs.Entity) error {
	w := sw.w
	b := sw.buf
	var raw []scene.RawComponent
	if u, ok := sw.unknown.TryGet(e); ok {
		raw = sw.rawComponents(e, u.Components)
	}
	first := true
	sep := func() {
		if first {
			b = append(b, '\n')
			first = false
		} else {
			b = append(b, ",\n"...)
		}
	}
	for i := range sw.comps {
		c := &sw.comps[i]
		if !w.Has(e, c.id) {
			continue
		}
		for len(raw) > 0 && raw[0].Name < c.name {
			sep()
			b = appendRaw(b, raw[0])
			raw = raw[1:]
		}
		if c.codec == nil {
			_, err := newCodec(w.ComponentInfo(c.id))
			sw.buf = b
			return fmt.Errorf("saving entity %d: %w", sw.sids.Get(e).ID, err)
		}
		sep()
		b = append(b, c.line...)
		var err error
		if b, err = c.codec.encode(&sw.enc, b, c.get(e)); err != nil {
			sw.buf = b
			return sw.valueError(e, c.name, err)
		}
	}
	for _, r := range raw {
		sep()
		b = appendRaw(b, r)
	}
	if first {
		b = append(b, '}')
	} else {
		b = append(b, "\n      }"...)
	}
	sw.buf = b
	return nil
}

// rawComponents returns the unknown components to write: sorted by name,
// without repeated names or names of components the entity has.
func (sw *sceneWriter) rawComponents(e ecs.Entity, raw []scene.RawComponent) []scene.RawComponent {
	clean := !slices.IsSortedFunc(raw, func(a, b scene.RawComponent) int { return strings.Compare(a.Name, b.Name) })
	for i := range raw {
		if (i > 0 && raw[i].Name == raw[i-1].Name) || sw.hasNamed(e, raw[i].Name) {
			clean = true
		}
	}
	if !clean {
		return raw
	}
	out := slices.Clone(raw)
	slices.SortStableFunc(out, func(a, b scene.RawComponent) int { return strings.Compare(a.Name, b.Name) })
	out = slices.CompactFunc(out, func(a, b scene.RawComponent) bool { return a.Name == b.Name })
	return slices.DeleteFunc(out, func(r scene.RawComponent) bool { return sw.hasNamed(e, r.Name) })
}

// hasNamed reports whether e has a saved component registered as name.
func (sw *sceneWriter) hasNamed(e ecs.Entity, name string) bool {
	i, ok := slices.BinarySearchFunc(sw.comps, name, func(c savedComp, n string) int { return strings.Compare(c.name, n) })
	return ok && sw.w.Has(e, sw.comps[i].id)
}

func appendRaw(b []byte, r scene.RawComponent) []byte {
	b = append(b, "        "...)
	b = jsonpos.AppendString(b, r.Name)
	b = append(b, ": "...)
	return append(b, r.JSON...)
}

func (sw *sceneWriter) valueError(e ecs.Entity, comp string, err error) error {
	desc := fmt.Sprintf("entity %d", sw.sids.Get(e).ID)
	if n, ok := sw.names.TryGet(e); ok {
		desc += fmt.Sprintf(" (%q)", n.Value)
	}
	ee := err.(*encodeError).under(comp)
	verb := "saving"
	if sw.exporting {
		verb = "exporting"
	}
	return fmt.Errorf("%s: %s: %s %s", verb, desc, ee.path, ee.msg)
}
