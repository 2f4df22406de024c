package doc

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/serialize"
	"github.com/voltex-editor/voltex/serialize/game"
)

func TestSaveAsAndBackgroundSave(t *testing.T) {
	d := New("", testOpts)
	e, err := d.SpawnCube(ecs.Entity{})
	must(t, err)
	*d.Camera() = d.Camera().WithSaved(scene.EditorCamera{Yaw: 10, Pitch: -5, Distance: 7})
	path := filepath.Join(t.TempDir(), "level1.json")
	must(t, d.SaveAs(context.Background(), path, nil))
	if d.Path() != path || d.SceneName() != "level1" || d.Dirty() || d.Title() != "level1 — level1.json" {
		t.Fatalf("after SaveAs: %q %q %v %q", d.Path(), d.SceneName(), d.Dirty(), d.Title())
	}
	// Reopening gives the same scene and camera; the selection is editor state and is not saved.
	o, err := Open(context.Background(), path, testOpts, nil)
	must(t, err)
	if content(t, o) != content(t, d) || o.Camera().Yaw != 10 || len(o.Selection().IDs()) != 0 {
		t.Fatal("reopened scene differs")
	}
	// A background save: prepared, run elsewhere, finished; edits meanwhile keep the document dirty.
	must(t, d.Rename([]ecs.Entity{e}, "Box"))
	j := d.PrepareSave("")
	must(t, d.Rename([]ecs.Entity{e}, "Crate"))
	done := make(chan error)
	go func() { done <- j.Run(context.Background(), nil) }()
	d.Finish(j, <-done)
	if !d.Dirty() {
		t.Fatal("edits made during a background save must keep the document dirty")
	}
	must(t, d.History().Undo())
	if d.Dirty() {
		t.Fatal("undoing back to the state the job saved is clean")
	}
	data, _ := os.ReadFile(path)
	if !strings.Contains(string(data), `"name": "Box"`) {
		t.Fatal("the job did not save the prepared state")
	}
	if bak, err := os.ReadFile(path + ".bak"); err != nil || !strings.Contains(string(bak), `"name": "Cube"`) {
		t.Fatal("the previous version should be kept as .bak")
	}
	// Export for games.
	out := filepath.Join(t.TempDir(), "level1.export.json")
	must(t, d.Export(context.Background(), out))
	g, err := game.LoadFile(out)
	must(t, err)
	if len(g.Entities) != 1 || d.History().Undos() == 0 {
		t.Fatal("export")
	}
	ej := d.PrepareExport(filepath.Join(t.TempDir(), "bg.export.json"))
	go func() { done <- ej.Run(context.Background(), nil) }()
	must(t, <-done)
	if g, err := game.LoadFile(ej.Path()); err != nil || len(g.Entities) != 1 || d.Path() != path {
		t.Fatalf("background export: %v", err)
	}
	d.Finish(ej, nil)
	if d.Path() != path {
		t.Fatal("an export must not change the document's file")
	}
	// A failed save (folder missing) leaves the document as it was.
	must(t, d.History().Redo())
	err = d.SaveAs(context.Background(), filepath.Join(t.TempDir(), "no", "such", "dir.json"), nil)
	if err == nil || d.Path() != path || !d.Dirty() {
		t.Fatalf("failed save: %v", err)
	}
	// Save commits an open transaction first.
	d.BeginEdit("drag")
	must(t, d.SetField([]ecs.Entity{e}, cid[scene.Color](t, d), "rgba[0]", 0.5))
	must(t, d.Save(context.Background(), nil))
	if d.Editing() || d.Dirty() || d.History().UndoLabel() != "drag" {
		t.Fatal("save during a drag")
	}
	defer func() {
		if recover() == nil {
			t.Error("Finish with another document's job should panic")
		}
	}()
	New("", testOpts).Finish(j, nil)
}

// bigScene writes a 100×1×100 cube grid scene (10,000 entities) and returns its path.
func bigScene(t testing.TB) string {
	p := scene.DefaultGrid()
	p.Count = [3]int{100, 1, 100}
	data, err := serialize.Grid(p, "Big", 0)
	must(t, err)
	path := filepath.Join(t.TempDir(), "big.json")
	must(t, os.WriteFile(path, data, 0o644))
	return path
}

func TestLongWorkProgressAndCancel(t *testing.T) {
	path := bigScene(t)
	orig, _ := os.ReadFile(path)
	var last [2]int64
	calls := 0
	d, err := Open(context.Background(), path, Options{}, func(done, total int64) { last = [2]int64{done, total}; calls++ })
	must(t, err)
	if d.Len() != 10000 || calls < 2 || last[0] != last[1] || last[1] != int64(len(orig)) {
		t.Fatalf("open: %d entities, %d progress calls, last %v", d.Len(), calls, last)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Open(ctx, path, Options{}, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled open: %v", err)
	}
	// A save cancelled halfway leaves the old file and the dirty document.
	must(t, d.Rename([]ecs.Entity{d.Roots()[0]}, "first"))
	ctx, cancel = context.WithCancel(context.Background())
	err = d.Save(ctx, func(done, total int64) {
		if done > total/2 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) || !d.Dirty() {
		t.Fatalf("cancelled save: %v", err)
	}
	if now, _ := os.ReadFile(path); string(now) != string(orig) {
		t.Fatal("a cancelled save changed the file")
	}
	calls = 0
	must(t, d.Save(context.Background(), func(done, total int64) { last = [2]int64{done, total}; calls++ }))
	if calls < 10 || last != [2]int64{10000, 10000} || d.Dirty() {
		t.Fatalf("save progress: %d calls, last %v", calls, last)
	}
	// Paste of many entities cancelled: nothing changes.
	text, err := d.Copy(d.Selection().Entities()...)
	must(t, err)
	_ = text
	d.Selection().SelectAll()
	text, err = d.CopySelection()
	must(t, err)
	n := d.Len()
	if _, err := d.Paste(ctx, text, ecs.Entity{}); !errors.Is(err, context.Canceled) || d.Len() != n {
		t.Fatalf("cancelled paste: %v", err)
	}
}

func TestOutsideEdits(t *testing.T) {
	d := openSmall(t)
	d.Selection().Select(ent(t, d, 3), ent(t, d, 8))
	*d.Camera() = d.Camera().WithSaved(scene.EditorCamera{Yaw: 99, Distance: 3})
	if New("", testOpts).OnDisk(DiskChanged) != ActionNone {
		t.Fatal("a document without a file ignores disk events")
	}
	// Clean: reload. Another program removed A2 (id 8) and renamed B.
	if a := d.OnDisk(DiskChanged); a != ActionReload {
		t.Fatalf("clean document: %v", a)
	}
	src, _ := os.ReadFile(d.Path())
	s := strings.Replace(string(src), `"name": "B"`, `"name": "Bee"`, 1)
	i := strings.Index(s, "    {\n      \"id\": 8")
	s = s[:i-2] + "\n  ]\n}\n" // drop the last entity
	s = strings.Replace(s, `"selection": [2]`, `"selection": [1]`, 1)
	must(t, os.WriteFile(d.Path(), []byte(s), 0o644))
	d.PlayMode().Start()
	mustErr(t, d.SetSceneName("x"), ErrPlaying)
	must(t, d.Reload(context.Background(), nil))
	if d.PlayMode().Playing() || d.Len() != 7 || d.Name(ent(t, d, 3)) != "Bee" || d.History().Undos() != 0 || d.Dirty() {
		t.Fatal("reload")
	}
	if !eqIDs(d.Selection().IDs(), []uint64{3}) || d.Camera().Yaw != 99 {
		t.Fatalf("reload keeps selection %v and camera %v", d.Selection().IDs(), d.Camera())
	}
	// Dirty: ask. Keep mine: dirty even after undoing everything.
	must(t, d.Rename([]ecs.Entity{ent(t, d, 3)}, "Mine"))
	if a := d.OnDisk(DiskChanged); a != ActionAsk {
		t.Fatalf("dirty document: %v", a)
	}
	d.KeepMine()
	must(t, d.History().Undo())
	if !d.Dirty() {
		t.Fatal("after Keep mine the document stays dirty")
	}
	// A failed reload (broken file) changes nothing.
	must(t, os.WriteFile(d.Path(), []byte("{ broken"), 0o644))
	before := saved(t, d)
	if err := d.Reload(context.Background(), nil); err == nil || saved(t, d) != before || d.History().Redos() != 1 {
		t.Fatalf("broken reload: %v", err)
	}
	// Removed: warn, dirty until saved; Save writes it back.
	must(t, d.Save(context.Background(), nil))
	must(t, os.Remove(d.Path()))
	if a := d.OnDisk(DiskRemoved); a != ActionWarnRemoved || !d.Dirty() || a.String() != "warn-removed" {
		t.Fatalf("removed: %v dirty %v", a, d.Dirty())
	}
	must(t, d.Save(context.Background(), nil))
	if _, err := os.Stat(d.Path()); err != nil || d.Dirty() {
		t.Fatal("save after removal")
	}
	mustErr(t, New("", testOpts).Reload(context.Background(), nil), ErrNoPath)

	// The background way: Open on another goroutine, ReloadFrom on the loop thread.
	d.Selection().Select(ent(t, d, 4))
	res := make(chan *Document)
	go func() {
		nd, err := Open(context.Background(), d.Path(), d.Options(), nil)
		if err != nil {
			t.Error(err)
		}
		res <- nd
	}()
	nd := <-res
	must(t, d.Rename([]ecs.Entity{ent(t, d, 4)}, "changed"))
	d.ReloadFrom(nd)
	if d.Name(ent(t, d, 4)) != "A1" || d.Dirty() || !eqIDs(d.Selection().IDs(), []uint64{4}) {
		t.Fatal("ReloadFrom")
	}
	defer func() {
		if recover() == nil {
			t.Error("ReloadFrom(nil) should panic")
		}
	}()
	d.ReloadFrom(nil)
}

// A save to the document's own file changes only its dirty state: Version stays, so the panels keyed by it (the
// hierarchy's rows, the Inspector's override marks over a million selected entities) rebuild nothing after a
// save. A Save As to a new path, which changes what is shown, changes it.
func TestSaveKeepsVersionUnlessThePathOrNameChanges(t *testing.T) {
	d := New("", testOpts)
	_, err := d.SpawnCube(ecs.Entity{})
	must(t, err)
	path := filepath.Join(t.TempDir(), "level1.json")
	v := d.Version()
	must(t, d.SaveAs(context.Background(), path, nil))
	if d.Version() == v {
		t.Fatal("Save As of a new scene (a path and a name) must change Version")
	}
	_, err = d.SpawnCube(ecs.Entity{})
	must(t, err)
	v = d.Version()
	for _, background := range []bool{false, true} {
		if background {
			_, err = d.SpawnCube(ecs.Entity{})
			must(t, err)
			v = d.Version()
			j := d.PrepareSave("")
			d.Finish(j, j.Run(context.Background(), nil))
		} else {
			must(t, d.Save(context.Background(), nil))
		}
		if d.Dirty() || d.Version() != v {
			t.Fatalf("background %v: after Save: dirty %v, version %d → %d (want unchanged)", background, d.Dirty(), v, d.Version())
		}
	}
	must(t, d.SaveAs(context.Background(), filepath.Join(t.TempDir(), "level2.json"), nil))
	if d.Version() == v {
		t.Fatal("Save As to another file must change Version")
	}
}

// Open computes the world matrices on its own goroutine: the loaded world has them (a child's is its parent's
// times its own) before the frame that shows it asks.
func TestOpenComputesWorldMatrices(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nested.json")
	must(t, os.WriteFile(path, []byte(`{
  "format": "voltex.scene",
  "version": 2,
  "name": "nested",
  "entities": [
    { "id": 1, "order": 1, "components": { "Transform": { "position": [10, 0, 0], "rotation": [0, 0, 0], "scale": [2, 2, 2] } } },
    { "id": 2, "parent": 1, "order": 1, "components": { "Transform": { "position": [1, 0, 0], "rotation": [0, 0, 0], "scale": [1, 1, 1] } } }
  ]
}
`), 0o644))
	d, err := Open(context.Background(), path, testOpts, nil)
	must(t, err)
	child, ok := d.entity(2)
	if !ok {
		t.Fatal("no entity 2")
	}
	g := ecs.NewMap[ecs.GlobalTransform](d.world).Get(child)
	if p := g.Matrix.Col(3); p[0] != 12 || p[1] != 0 || p[2] != 0 {
		t.Fatalf("the child's world position is %v, want (12, 0, 0)", p.Vec3())
	}
}

// A background save reads the edit world itself (lent, not copied): edits made while it runs wait for it to have
// encoded the entities, and the file holds the scene as it was when the save was prepared, byte for byte what a
// save on the loop thread writes; reading the world and computing its matrices meanwhile wait for nothing.
func TestBackgroundSaveWritesThePreparedStateWhileEditsWait(t *testing.T) {
	d := New("", testOpts)
	p := scene.DefaultGrid()
	p.Count = [3]int{20, 10, 30} // enough entities to be encoded on several goroutines
	_, es, err := d.SpawnGrid(context.Background(), p, nil)
	must(t, err)
	path := filepath.Join(t.TempDir(), "grid.json")
	must(t, d.SaveAs(context.Background(), path, nil))
	want, err := os.ReadFile(path)
	must(t, err)
	tr := cid[ecs.Transform](t, d)

	for _, started := range []bool{true, false} {
		j := d.PrepareSave("")
		if !d.EditWorld().Lent() {
			t.Fatal("the save copied the world instead of reading it")
		}
		done := make(chan error, 1)
		run := func() { go func() { done <- j.Run(context.Background(), nil) }() }
		if started {
			run()
		}
		// The loop thread goes on reading and drawing...
		if d.World().Len() != len(es) || d.World().WorldMatrix(es[1]).Col(3).Vec3() == (mgl32.Vec3{}) {
			t.Fatal("reading the lent world")
		}
		// ... and edits: each waits for the encoding (or, before the job runs, hands it a copy).
		ids := d.IDs()
		last, mid := ent(t, d, ids[len(ids)-1]), ent(t, d, ids[len(ids)/2])
		must(t, d.SetField([]ecs.Entity{last}, tr, "position[0]", float32(1234)))
		must(t, d.Delete(mid))
		if d.EditWorld().Lent() {
			t.Fatal("an edit went on while the world was still lent")
		}
		if !started {
			run()
		}
		d.Finish(j, <-done)
		got, err := os.ReadFile(path)
		must(t, err)
		if !bytes.Equal(got, want) {
			t.Fatalf("started %v: the background save did not write the state it was prepared from", started)
		}
		if !d.Dirty() || d.Len() != len(es)-1 {
			t.Fatalf("started %v: the edits made during the save: dirty %v, %d entities", started, d.Dirty(), d.Len())
		}
		must(t, d.History().Undo())
		must(t, d.History().Undo())
		if d.Dirty() {
			t.Fatalf("started %v: undoing the edits made during the save is not clean", started)
		}
	}
}

// Roots after Open are the world's roots in sibling order, the load's list while the world is as loaded and
// the world's own after an edit that reorders them or a change of shape.
func TestOpenRootsFollowEdits(t *testing.T) {
	path := filepath.Join(t.TempDir(), "roots.json")
	must(t, os.WriteFile(path, []byte(`{"format": "voltex.scene", "version": 2, "entities": [
    { "id": 4, "order": 2 }, { "id": 1, "order": 3 }, { "id": 3, "order": 2 }, { "id": 2, "parent": 3 }, { "id": 5, "order": -1 }
  ]}`), 0o644))
	ids := func(es []ecs.Entity, d *Document) []uint64 {
		var out []uint64
		for _, e := range es {
			out = append(out, d.ID(e))
		}
		return out
	}
	check := func(d *Document, want []uint64) {
		t.Helper()
		if got, fresh := ids(d.Roots(), d), ids(scene.Roots(d.World()), d); !slices.Equal(got, want) || !slices.Equal(fresh, want) {
			t.Fatalf("roots %v (the world's %v), want %v", got, fresh, want)
		}
	}
	d, err := Open(context.Background(), path, testOpts, nil)
	must(t, err)
	check(d, []uint64{5, 3, 4, 1})
	check(d, []uint64{5, 3, 4, 1})

	d, err = Open(context.Background(), path, testOpts, nil)
	must(t, err)
	e5, _ := d.entity(5)
	e1, _ := d.entity(1)
	must(t, d.MoveNextTo(e1, true, false, e5)) // a reorder among the roots before the first Roots
	check(d, []uint64{3, 4, 1, 5})

	d, err = Open(context.Background(), path, testOpts, nil)
	must(t, err)
	e2, _ := d.entity(2)
	must(t, d.Reparent(ecs.Entity{}, e2)) // a change of shape: a new root
	check(d, []uint64{5, 3, 4, 1, 2})
}

// OpenSeen hands the hash it is given the file's bytes once, whole: a file read whole (and hashed for a
// journal) and a big one read as a stream, even when the load reads it twice (its entities before its version).
func TestOpenSeenHashesTheFile(t *testing.T) {
	dir := t.TempDir()
	later := filepath.Join(dir, "version-later.json")
	must(t, os.WriteFile(later, []byte(`{"entities": [{"id": 1, "name": "a"}, {"id": 2}], "format": "voltex.scene", "version": 2}`), 0o644))
	first := filepath.Join(dir, "version-first.json")
	must(t, os.WriteFile(first, []byte(`{"format": "voltex.scene", "version": 2, "entities": [{"id": 3}]}`+"\n"), 0o644))
	want := func(path string) uint64 {
		b, err := os.ReadFile(path)
		must(t, err)
		return maphash.Bytes(seed, b)
	}
	for _, path := range []string{later, first} {
		h := &maphash.Hash{}
		h.SetSeed(seed)
		d, whole, err := OpenSeen(context.Background(), path, testOpts, nil, h)
		must(t, err)
		if d.Len() == 0 || !whole || h.Sum64() != want(path) {
			t.Fatalf("%s read whole: %d entities, whole %v, hash %x, want %x", filepath.Base(path), d.Len(), whole, h.Sum64(), want(path))
		}
		h.Reset()
		sf := openSeenFile(path, h) // a file over keepOpened: hashed beside its load
		sf.hash(context.Background(), nil)
		s, err := serialize.Load(context.Background(), serialize.NewInput(sf, path), serialize.LoadOptions{File: path, NewWorld: testOpts.NewWorld})
		must(t, err)
		whole = sf.whole()
		_ = sf.f.Close()
		if s.World.Len() == 0 || !whole || h.Sum64() != want(path) {
			t.Fatalf("%s beside its load: %d entities, whole %v, hash %x, want %x", filepath.Base(path), s.World.Len(), whole, h.Sum64(), want(path))
		}
	}
	// A file written in place while it is open is not known whole: the load may have read other bytes.
	h := &maphash.Hash{}
	sf := openSeenFile(first, h)
	sf.hash(context.Background(), nil)
	time.Sleep(10 * time.Millisecond) // a later modification time
	must(t, os.WriteFile(first, []byte(`{"format": "voltex.scene", "version": 2, "entities": []}`), 0o644))
	whole := sf.whole()
	_ = sf.f.Close()
	if whole {
		t.Fatal("a file written while it was open counts as hashed whole")
	}
}

var seed = maphash.MakeSeed()

// A big scene's scene-id index is filled beside the goroutine that opened it, from the ids read first: the
// document OpenSeen returns finds every entity by its id, and the fill races with nothing (-race).
func TestOpenSeenFillsIndexBeside(t *testing.T) {
	old := asyncIndexFill
	defer func() { asyncIndexFill = old }()
	asyncIndexFill = 100
	path := filepath.Join(t.TempDir(), "grid.json")
	var b strings.Builder
	b.WriteString(`{"format": "voltex.scene", "version": 2, "entities": [`)
	const n = 2000
	for i := 1; i <= n; i++ {
		if i > 1 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"id": %d, "order": %d, "components": {"Transform": {"position": [%d, 0, 0]}, "Mesh": {"asset": "builtin:cube"}}}`, i, i, i)
	}
	b.WriteString("]}")
	must(t, os.WriteFile(path, []byte(b.String()), 0o644))
	d, _, err := OpenSeen(context.Background(), path, testOpts, nil, nil)
	must(t, err)
	if d.filling == nil {
		t.Fatal("the index of 2,000 entities (over the threshold of 100) was not filled beside")
	}
	for id := uint64(1); id <= n; id++ {
		e, ok := d.Entity(id)
		if !ok || d.World().WorldMatrix(e).Col(3).X() != float32(id) {
			t.Fatalf("entity %d: found %v at %v", id, ok, d.World().WorldMatrix(e).Col(3))
		}
	}
}

// The copies of the world that jobs read on other goroutines (an export, a save handed a copy, the journal's
// base) have no hook into the document in their id generator: scene.EnsureIDs there must not read the
// document's index, which only the loop's goroutine may (and which may still be filling).
func TestJobCopiesHaveNoDocumentHook(t *testing.T) {
	d := New("", testOpts)
	if _, err := d.SpawnCube(ecs.Entity{}); err != nil {
		t.Fatal(err)
	}
	if ecs.Resource[scene.IDs](d.world).Taken == nil {
		t.Fatal("the edit world's id generator has no hook: nothing to test")
	}
	path := filepath.Join(t.TempDir(), "s.json")
	save := d.PrepareSave(path) // lent: the job reads the edit world itself until reclaimed
	if !save.reclaim() {
		t.Fatal("a job not started must take a copy")
	}
	save.giveBack()
	for what, w := range map[string]*ecs.World{
		"export":         d.PrepareExport(path).scene.World,
		"reclaimed save": save.scene.World,
		"journal's base": d.readCopy().World,
	} {
		if w == d.world {
			t.Fatalf("%s: not a copy", what)
		}
		if r := ecs.Resource[scene.IDs](w); r == nil || r.Taken != nil {
			t.Fatalf("%s: id generator %v", what, r)
		}
	}
	if ecs.Resource[scene.IDs](d.world).Taken == nil {
		t.Fatal("the edit world lost its hook")
	}
}
