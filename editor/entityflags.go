package editor

import (
	"maps"
	"path/filepath"
	"slices"
	"time"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/editor/settings"
	"github.com/voltex-editor/voltex/serialize/query"
)

// flagsDoc is what the entity flags read of the open document (doc.Document implements it).
type flagsDoc interface {
	Path() string
	World() *ecs.World
	Version() uint64
	ID(e ecs.Entity) uint64
	Entity(id uint64) (ecs.Entity, bool)
}

// entityFlags is what the user hid, locked and isolated in the open scene: settings.Flags by scene id, kept in the
// user's settings under the scene file's absolute path (never in the scene file). An entity is hidden when it or
// an ancestor is hidden, or when something is isolated and neither it nor an ancestor is; locked when it or an
// ancestor is locked. Hidden entities are not drawn nor picked; locked ones are drawn, not picked nor moved.
type entityFlags struct {
	st      *settings.Settings // nil: nothing is kept (tests)
	save    func()             // writes the settings
	doc     flagsDoc
	raw     string // the document's path as it gives it
	path    string // the scene's absolute path ("" for a scene never saved: its flags are not kept)
	flags   map[uint64]settings.Flags
	version uint64 // bumped on every change (the viewport asks the builder to hide anew)

	counted         uint64 // the version locks and isolated count
	locks, isolated int

	layers []layer
	// The document version and world the layers' matches were evaluated for: they are evaluated again only
	// when the scene changed.
	layersVersion uint64
	layersWorld   *ecs.World
	layersAt      time.Time        // when they last ran (in a big scene they run again at most every queryPause)
	layersWake    bool             // a run waits for the pause and the loop is to wake for it
	bigScene      int              // queryBigScene when 0 (tests lower it)
	now           func() time.Time // time.Now when nil (tests set the clock)
}

// layer is a saved query (settings.Layer) and what it matched when last evaluated.
type layer struct {
	settings.Layer
	matches *query.Result // nil: not evaluated, or the query does not parse against the scene
}

// has reports whether the layer gives e its flags.
func (l *layer) has(e ecs.Entity) bool { return l.Any() && l.matches != nil && l.matches.Has(e) }

// count brings the counts of locked and isolated entities up to date.
func (f *entityFlags) count() {
	if f.counted == f.version {
		return
	}
	f.counted, f.locks, f.isolated = f.version, 0, 0
	for _, fl := range f.flags {
		if fl.Locked {
			f.locks++
		}
		if fl.Isolated {
			f.isolated++
		}
	}
	for i := range f.layers {
		if l := &f.layers[i]; l.matches != nil && l.matches.Len() > 0 {
			if l.Locked {
				f.locks++
			}
			if l.Isolated {
				f.isolated++
			}
		}
	}
}

// sync follows the open document: another document brings its own flags; the same one saved under another path
// takes its flags there.
func (f *entityFlags) sync(d flagsDoc) {
	defer f.evaluateLayers()
	if d == f.doc && d.Path() == f.raw {
		return
	}
	f.raw = d.Path()
	path := absPath(f.raw)
	switch {
	case d != f.doc:
		f.doc, f.path = d, path
		f.flags, f.layers, f.layersWorld = map[uint64]settings.Flags{}, nil, nil
		if f.st != nil && path != "" {
			f.flags = f.st.View(path)
			for _, l := range f.st.Layers(path) {
				f.layers = append(f.layers, layer{Layer: l})
			}
		}
		f.version++
	case path != f.path:
		f.path = path
		f.keep()
	}
}

func absPath(p string) string {
	if p == "" {
		return ""
	}
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return p
}

// keep writes the flags to the settings.
func (f *entityFlags) keep() {
	if f.st == nil || f.path == "" {
		return
	}
	f.st.SetView(f.path, f.flags)
	f.st.SetLayers(f.path, f.layerList())
	if f.save != nil {
		f.save()
	}
}

// change applies set to the flags of es, then keeps them.
func (f *entityFlags) change(es []ecs.Entity, set func(*settings.Flags)) {
	ids := make([]uint64, len(es))
	for i, e := range es {
		ids[i] = f.doc.ID(e)
	}
	f.changeIDs(ids, set)
}

// changeIDs applies set to the flags of the entities of ids (scene ids), forgets those left with none, and keeps
// the flags.
func (f *entityFlags) changeIDs(ids []uint64, set func(*settings.Flags)) {
	for _, id := range ids {
		fl := f.flags[id]
		set(&fl)
		if fl.Any() {
			f.flags[id] = fl
		} else {
			delete(f.flags, id)
		}
	}
	f.version++
	f.keep()
}

// flagged returns the scene ids of every flagged entity.
func (f *entityFlags) flagged() []uint64 { return slices.Collect(maps.Keys(f.flags)) }

// hide hides es (H).
func (f *entityFlags) hide(es []ecs.Entity) {
	f.change(es, func(fl *settings.Flags) { fl.Hidden = true })
}

// unhideAll shows everything again: nothing hidden, nothing isolated, entities or layers (Alt+H). Locks stay.
func (f *entityFlags) unhideAll() {
	for i := range f.layers {
		f.layers[i].Hidden, f.layers[i].Isolated = false, false
	}
	f.changeIDs(f.flagged(), func(fl *settings.Flags) { fl.Hidden, fl.Isolated = false, false })
}

// isolate shows only es (Shift+H, /); pressed again while something is isolated, it shows everything again.
func (f *entityFlags) isolate(es []ecs.Entity) {
	if f.isolating() {
		for i := range f.layers {
			f.layers[i].Isolated = false
		}
		f.changeIDs(f.flagged(), func(fl *settings.Flags) { fl.Isolated = false })
		return
	}
	f.change(es, func(fl *settings.Flags) { fl.Isolated = true })
}

// toggleLock locks es, or unlocks them when the first is locked (the hierarchy's lock toggle).
func (f *entityFlags) toggleLock(es []ecs.Entity) {
	if len(es) == 0 {
		return
	}
	on := !f.flags[f.doc.ID(es[0])].Locked
	f.change(es, func(fl *settings.Flags) { fl.Locked = on })
}

// toggleHidden hides es, or shows them when the first is hidden (the hierarchy's eye toggle).
func (f *entityFlags) toggleHidden(es []ecs.Entity) {
	if len(es) == 0 {
		return
	}
	on := !f.flags[f.doc.ID(es[0])].Hidden
	f.change(es, func(fl *settings.Flags) { fl.Hidden = on })
}

// own returns e's own flags (not its ancestors').
func (f *entityFlags) own(e ecs.Entity) settings.Flags { return f.flags[f.doc.ID(e)] }

func (f *entityFlags) isolating() bool {
	f.count()
	return f.isolated > 0
}

// changes counts the changes (the viewport hides anew when it moves).
func (f *entityFlags) changes() uint64 { return f.version }

// hasLocks reports whether anything is locked.
func (f *entityFlags) hasLocks() bool {
	f.count()
	return f.locks > 0
}

// inherited ORs the flags of e and its ancestors.
func (f *entityFlags) inherited(e ecs.Entity) settings.Flags {
	var out settings.Flags
	w := f.doc.World()
	for n := 0; e != (ecs.Entity{}) && n < 1<<16; n++ {
		fl := f.flags[f.doc.ID(e)]
		for i := range f.layers {
			if l := &f.layers[i]; l.has(e) {
				fl.Hidden, fl.Locked, fl.Isolated = fl.Hidden || l.Hidden, fl.Locked || l.Locked, fl.Isolated || l.Isolated
			}
		}
		out.Hidden, out.Locked, out.Isolated = out.Hidden || fl.Hidden, out.Locked || fl.Locked, out.Isolated || fl.Isolated
		e = w.Parent(e)
	}
	return out
}

// hidden reports whether e is not drawn (nor picked).
func (f *entityFlags) hidden(e ecs.Entity) bool {
	if len(f.flags) == 0 && !f.layersFlag() {
		return false
	}
	in := f.inherited(e)
	return in.Hidden || !in.Isolated && f.isolating()
}

// locked reports whether e is drawn but not picked nor moved.
func (f *entityFlags) locked(e ecs.Entity) bool {
	return (len(f.flags) > 0 || f.layersFlag()) && f.inherited(e).Locked
}

// hideFunc is hidden for the viewport's builder, or nil when nothing is hidden (nothing to ask).
func (f *entityFlags) hideFunc() func(ecs.Entity) bool {
	hides := func(fl settings.Flags) bool { return fl.Hidden || fl.Isolated }
	some := slices.ContainsFunc(f.layers, func(l layer) bool { return hides(l.Flags) })
	for _, fl := range f.flags {
		if some {
			break
		}
		some = hides(fl)
	}
	if !some {
		return nil
	}
	iso := f.isolating()
	return func(e ecs.Entity) bool {
		in := f.inherited(e)
		return in.Hidden || iso && !in.Isolated
	}
}

// layersFlag reports whether a layer gives its matches a flag.
func (f *entityFlags) layersFlag() bool {
	return slices.ContainsFunc(f.layers, func(l layer) bool { return l.Any() })
}

// layerList returns the layers as the settings keep them.
func (f *entityFlags) layerList() []settings.Layer {
	out := make([]settings.Layer, len(f.layers))
	for i, l := range f.layers {
		out[i] = l.Layer
	}
	return out
}

// layerMatches returns how many entities layer i matches (-1: its query does not parse against the scene).
func (f *entityFlags) layerMatches(i int) int {
	if m := f.layers[i].matches; m != nil {
		return m.Len()
	}
	return -1
}

// evaluateLayers runs the layers' queries again when the scene changed since they last ran (a column scan
// each); the viewport hides anew when what they match may have moved.
func (f *entityFlags) evaluateLayers() {
	if len(f.layers) == 0 || f.doc == nil {
		return
	}
	w, v := f.doc.World(), f.doc.Version()
	if w == f.layersWorld && v == f.layersVersion {
		return
	}
	// A drag changes a big scene every frame: its layers follow at most every queryPause, not each frame.
	now, big := time.Now, queryBigScene
	if f.now != nil {
		now = f.now
	}
	if f.bigScene > 0 {
		big = f.bigScene
	}
	if w == f.layersWorld && w.Len() >= big && now().Sub(f.layersAt) < queryPause {
		if !f.layersWake {
			f.layersWake = true
			time.AfterFunc(queryPause, func() { wakeLoop() })
		}
		return
	}
	f.layersWorld, f.layersVersion, f.layersAt, f.layersWake = w, v, now(), false
	for i := range f.layers {
		l := &f.layers[i]
		l.matches = nil
		if q, err := query.Parse(w, l.Query); err == nil {
			l.matches = q.Eval(w)
		}
	}
	if f.layersFlag() {
		f.version++
	}
}

// addLayer saves the query src as the layer name (no flags yet).
func (f *entityFlags) addLayer(name, src string) {
	f.layers = append(f.layers, layer{Layer: settings.Layer{Name: name, Query: src}})
	f.layersWorld = nil
	f.evaluateLayers()
	f.version++
	f.keep()
}

// removeLayer forgets layer i.
func (f *entityFlags) removeLayer(i int) {
	f.layers = slices.Delete(f.layers, i, i+1)
	f.version++
	f.keep()
}

// setLayer applies set to layer i's flags.
func (f *entityFlags) setLayer(i int, set func(*settings.Flags)) {
	set(&f.layers[i].Flags)
	f.version++
	f.keep()
}
