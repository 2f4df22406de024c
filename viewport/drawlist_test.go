package viewport

import (
	"encoding/binary"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/assets"
)

func inst(id uint32, x float32) Instance {
	return Instance{World: mgl32.Translate3D(x, 0, 0), Color: [4]float32{1, 1, 1, 1}, ID: id}
}

func TestInstanceLayout(t *testing.T) {
	// The renderer's vertex attribute layout depends on this.
	if InstanceSize != 88 {
		t.Fatalf("InstanceSize = %d, want 88 (mat4 + vec4 + 2×uint32, no padding)", InstanceSize)
	}
}

// dirtyOf returns the dirty ranges of batch ref's chunks, chunk after chunk.
func dirtyOf(d *DrawList, ref string) []Range {
	var out []Range
	for _, c := range d.Batch(ref).Chunks() {
		out = append(out, c.Dirty()...)
	}
	return out
}

func clearAllDirty(d *DrawList) {
	for _, b := range d.Batches() {
		for _, c := range b.Chunks() {
			c.ClearDirty()
		}
	}
}

// TestDrawListDirtyRanges: within a chunk (instances close together, in one cell), only changed slots are dirty.
func TestDrawListDirtyRanges(t *testing.T) {
	type op func(d *DrawList)
	near := func(id uint32, x float32) Instance { return inst(id, x/1000) } // all in one cell
	set := func(ref string, id uint32, x float32) op { return func(d *DrawList) { d.Set(ref, near(id, x)) } }
	remove := func(id uint32) op { return func(d *DrawList) { d.Remove(id) } }
	world := func(id uint32, x float32) op {
		return func(d *DrawList) { d.SetWorld(id, mgl32.Translate3D(x/1000, 0, 0)) }
	}
	fill := func(n int) op {
		return func(d *DrawList) {
			for i := range n {
				d.Set("cube", near(uint32(i+1), float32(i)))
			}
		}
	}
	tests := []struct {
		name  string
		setup []op // applied, then dirty cleared
		ops   []op
		want  map[string][]Range
	}{
		{"new instances are dirty", nil, []op{fill(5)}, map[string][]Range{"cube": {{0, 5}}}},
		{"setting the same value is free", []op{fill(5)}, []op{set("cube", 3, 2)}, map[string][]Range{"cube": nil}},
		{"one changed instance", []op{fill(100)}, []op{world(50, 1)}, map[string][]Range{"cube": {{49, 50}}}},
		{"two apart", []op{fill(100)}, []op{world(80, 1), world(10, 1)}, map[string][]Range{"cube": {{9, 10}, {79, 80}}}},
		{"neighbours merge", []op{fill(100)}, []op{world(11, 1), world(10, 1), world(12, 1)}, map[string][]Range{"cube": {{9, 12}}}},
		{"remove the middle: the last moves in", []op{fill(10)}, []op{remove(3)}, map[string][]Range{"cube": {{2, 3}}}},
		{"remove the last: nothing to upload", []op{fill(10)}, []op{remove(10)}, map[string][]Range{"cube": nil}},
		{"changed then removed is clipped", []op{fill(10)}, []op{world(10, 1), remove(10)}, map[string][]Range{"cube": nil}},
		{"mesh change moves batch", []op{fill(4)}, []op{set("sphere", 2, 1)},
			map[string][]Range{"cube": {{1, 2}}, "sphere": {{0, 1}}}},
		{"many scattered changes collapse", []op{fill(1000)}, func() []op {
			var ops []op
			for i := range maxDirtyRanges + 1 {
				ops = append(ops, world(uint32(i*10+1), 1))
			}
			return ops
		}(), map[string][]Range{"cube": {{0, maxDirtyRanges*10 + 1}}}},
	}
	for _, tt := range tests {
		d := NewDrawList()
		for _, o := range tt.setup {
			o(d)
		}
		clearAllDirty(d)
		for _, o := range tt.ops {
			o(d)
		}
		for ref, want := range tt.want {
			got := dirtyOf(d, ref)
			if !slices.Equal(got, want) {
				t.Errorf("%s: %s dirty %v, want %v", tt.name, ref, got, want)
			}
		}
		if err := d.Check(); err != nil {
			t.Errorf("%s: %v", tt.name, err)
		}
	}
}

// TestDrawListSelectionAndGet: the selection is the list's own (no instance changes, its own version); Get
// finds instances by id.
func TestDrawListSelectionAndGet(t *testing.T) {
	d := NewDrawList()
	for i := range 6 {
		d.Set("cube", inst(uint32(i+1), float32(i)))
	}
	clearAllDirty(d)
	v, sv := d.Version(), d.SelectionVersion()
	d.SetSelection([]uint32{2, 5, 5})
	if got := dirtyOf(d, "cube"); got != nil || d.Version() != v {
		t.Errorf("selecting dirtied %v, version %d → %d", got, v, d.Version())
	}
	if d.SelectionVersion() == sv || d.SelectionLen() != 2 || !d.Selected(2) || !d.Selected(5) || d.Selected(3) || d.Selected(99) {
		t.Errorf("selection: version %d → %d, %d selected", sv, d.SelectionVersion(), d.SelectionLen())
	}
	sv = d.SelectionVersion()
	d.SetSelected(5, true)
	if d.SelectionVersion() != sv {
		t.Error("selecting a selected id again changed the version")
	}
	if in, ref, ok := d.Get(5); !ok || ref != "cube" || in.Selected() || in.World != mgl32.Translate3D(4, 0, 0) {
		t.Errorf("Get(5) = %+v %q %v", in, ref, ok)
	}
	if _, _, ok := d.Get(99); ok {
		t.Error("Get(99) found something")
	}
	if d.SetColor(99, [4]float32{}) || d.SetFlag(99, FlagSelected, true) || d.Remove(99) {
		t.Error("updates of an unknown id reported true")
	}
	d.SetSelected(99, true) // selected before it is drawn
	d.SetSelected(5, false)
	if d.Selected(5) || !d.Selected(99) || d.SelectionLen() != 2 {
		t.Errorf("SetSelected: 5 %v, 99 %v, %d selected", d.Selected(5), d.Selected(99), d.SelectionLen())
	}
	if err := d.Check(); err != nil {
		t.Error(err)
	}
	defer func() {
		if recover() == nil {
			t.Error("Set with ID 0 did not panic")
		}
	}()
	d.Set("cube", Instance{})
}

func TestDrawListBounds(t *testing.T) {
	d := NewDrawList()
	cube, ok := assets.Builtin(assets.BuiltinCube)
	if !ok {
		t.Fatal("no builtin cube")
	}
	d.SetMesh(assets.BuiltinCube, cube)
	d.Set(assets.BuiltinCube, inst(1, -3))
	d.Set(assets.BuiltinCube, Instance{ID: 2, World: mgl32.Translate3D(5, 2, 0).Mul4(mgl32.Scale3D(2, 2, 2))})
	want := AABB{Min: mgl32.Vec3{-3.5, -0.5, -1}, Max: mgl32.Vec3{6, 3, 1}}
	if got := d.Bounds(); got != want {
		t.Errorf("Bounds %+v, want %+v", got, want)
	}
	if got := d.BoundsOf([]uint32{1, 77}); got != (AABB{Min: mgl32.Vec3{-3.5, -0.5, -0.5}, Max: mgl32.Vec3{-2.5, 0.5, 0.5}}) {
		t.Errorf("BoundsOf(1) %+v", got)
	}
	d.Remove(2)
	if got := d.Bounds(); got.Max[0] != -2.5 {
		t.Errorf("Bounds after removal %+v: cached box not invalidated", got)
	}
	if !NewDrawList().Bounds().IsEmpty() {
		t.Error("empty list has bounds")
	}
}

// FuzzDrawList applies random operations and checks the list against a map
// model, and that uploading only the dirty ranges keeps a mirror (the "GPU
// buffer") equal to the instances.
func FuzzDrawList(f *testing.F) {
	f.Add([]byte{0, 1, 0, 2, 1, 1, 3, 1})
	f.Add([]byte{0, 5, 0, 6, 0, 7, 2, 6, 4, 0, 0, 5, 1, 7, 3, 0})
	f.Add(binary.LittleEndian.AppendUint64(nil, 0x0102030405060708))
	f.Add([]byte{0, 1, 0, 2, 0, 3, 0, 20, 5, 4, 4, 0, 6, 9, 5, 200, 6, 3, 4, 0})
	f.Fuzz(func(t *testing.T, ops []byte) {
		defer func(n int) { rekeyMin = n }(rekeyMin)
		rekeyMin = 2 // chunks of a few instances change cell whole too
		d := NewDrawList()
		model := map[uint32]string{}
		refs := []string{"a", "b", "c"}
		type key struct {
			ref   string
			chunk int
		}
		mirror := map[key][]Instance{}
		sync := func() {
			for _, b := range d.Batches() {
				for ci, c := range b.Chunks() {
					k := key{b.Ref, ci}
					m := mirror[k]
					if len(m) < c.Len() {
						m = append(m, make([]Instance, c.Len()-len(m))...)
					}
					m = m[:c.Len()]
					for _, r := range c.Dirty() {
						copy(m[r.Start:r.End], c.Instances[r.Start:r.End])
					}
					c.ClearDirty()
					mirror[k] = m
				}
			}
		}
		for i := 0; i+1 < len(ops); i += 2 {
			op, arg := ops[i]%7, ops[i+1]
			id := uint32(arg%16) + 1
			switch op {
			case 0, 1:
				ref := refs[int(arg/16)%len(refs)]
				d.Set(ref, inst(id, float32(arg)))
				model[id] = ref
			case 2:
				if d.Remove(id) != (model[id] != "") {
					t.Fatalf("Remove(%d) disagrees with the model", id)
				}
				delete(model, id)
			case 3: // moves within a cell or to another one
				d.SetWorld(id, mgl32.Translate3D(0, float32(arg)/4, 0))
			case 4:
				sync()
			case 5: // everything moves by one offset in one update, as the builder moves them
				d.deferMoves = true
				d.IDs(func(id uint32) {
					in, _, _ := d.Get(id)
					d.SetWorld(id, mgl32.Translate3D(float32(arg)*3, 0, 0).Mul4(in.World))
				})
				d.settleMoves()
			case 6: // a few move apart in one update
				d.deferMoves = true
				for k := range 4 {
					d.SetWorld(uint32((int(arg)+5*k)%16)+1, mgl32.Translate3D(float32(k)*40, float32(arg)/4, 0))
				}
				d.settleMoves()
			}
			if err := d.Check(); err != nil {
				t.Fatal(err)
			}
		}
		if d.Len() != len(model) {
			t.Fatalf("Len %d, model %d", d.Len(), len(model))
		}
		for id, ref := range model {
			if _, got, ok := d.Get(id); !ok || got != ref {
				t.Fatalf("id %d in %q, model says %q", id, got, ref)
			}
		}
		sync()
		for _, b := range d.Batches() {
			for ci, c := range b.Chunks() {
				if !slices.Equal(mirror[key{b.Ref, ci}], c.Instances) {
					t.Fatalf("batch %s chunk %d: mirror updated from dirty ranges differs from the instances", b.Ref, ci)
				}
			}
		}
	})
}

func TestPick(t *testing.T) {
	cube, _ := assets.Builtin(assets.BuiltinCube)
	sphere, _ := assets.Builtin(assets.BuiltinSphere)
	d := NewDrawList()
	d.SetMesh(assets.BuiltinCube, cube)
	d.SetMesh(assets.BuiltinSphere, sphere)
	// A row of cubes along X, a sphere in front of cube 3, a bare-box batch.
	for i := range 5 {
		d.Set(assets.BuiltinCube, inst(uint32(i+1), float32(i*2)))
	}
	d.Set(assets.BuiltinSphere, Instance{ID: 10, World: mgl32.Translate3D(4, 0, 2)})
	d.Set("nomesh", Instance{ID: 20, World: mgl32.Translate3D(0, 5, 0).Mul4(mgl32.Scale3D(2, 2, 2))})
	d.Set(assets.BuiltinCube, Instance{ID: 30, World: mgl32.Scale3D(0, 0, 0)}) // singular: never hit
	down := mgl32.Vec3{0, 0, -1}
	tests := []struct {
		name   string
		r      Ray
		wantID uint32
		wantT  float32
	}{
		{"cube 1 head on", Ray{mgl32.Vec3{0, 0, 10}, down}, 1, 9.5},
		{"cube 4", Ray{mgl32.Vec3{6.2, 0.3, 10}, down}, 4, 9.5},
		{"sphere in front of cube 3", Ray{mgl32.Vec3{4, 0, 10}, down}, 10, 7.5},
		{"cube 3 beside the sphere", Ray{mgl32.Vec3{4.45, 0.45, 10}, down}, 3, 9.5},
		{"gap between cubes", Ray{mgl32.Vec3{1, 0, 10}, down}, 0, 0},
		{"sphere's bounding-box corner is a miss", Ray{mgl32.Vec3{3.6, 0.4, 10}, down}, 3, 9.5},
		{"no-mesh batch is a unit box", Ray{mgl32.Vec3{0.9, 5.9, 10}, down}, 20, 9},
		{"along the row from the side", Ray{mgl32.Vec3{-10, 0, 0}, mgl32.Vec3{1, 0, 0}}, 1, 9.5},
		{"scaled dir keeps t in its units", Ray{mgl32.Vec3{0, 0, 10}, mgl32.Vec3{0, 0, -2}}, 1, 4.75},
	}
	for _, tt := range tests {
		h, ok := d.Pick(tt.r)
		if ok != (tt.wantID != 0) || h.ID != tt.wantID || (ok && !near(h.T, tt.wantT, 1e-4)) {
			t.Errorf("%s: hit %+v ok=%v, want id %d at t=%v", tt.name, h, ok, tt.wantID, tt.wantT)
		}
		if ok && !nearVec(h.Point, tt.r.At(h.T), 1e-5) {
			t.Errorf("%s: point %v not on the ray", tt.name, h.Point)
		}
	}
	// Through the camera: the pixel where an entity's centre projects picks it.
	cam := DefaultCamera()
	cam.Pivot = mgl32.Vec3{4, 0, 0}
	cam.Distance = 15
	x, y, _ := cam.WorldToPixel(mgl32.Vec3{8, 0, 0}, 640, 480)
	if h, ok := d.Pick(cam.Ray(x, y, 640, 480)); !ok || h.ID != 5 {
		t.Errorf("camera pick at (%v,%v): %+v %v, want entity 5", x, y, h, ok)
	}
}

func BenchmarkDrawListUpdate(b *testing.B) {
	const n = 100_000
	d := NewDrawList()
	for i := range n {
		d.Set("cube", inst(uint32(i+1), float32(i)))
	}
	rng := rand.New(rand.NewPCG(1, 1))
	var k float32
	for b.Loop() {
		k++
		for range 1000 {
			d.SetWorld(uint32(rng.IntN(n)+1), mgl32.Translate3D(k, 0, 0))
		}
		clearAllDirty(d)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1000, "ns/update")
}

func TestDrawListVersion(t *testing.T) {
	d := NewDrawList()
	cube := func() *assets.Mesh { m, _ := assets.Builtin(assets.BuiltinCube); return m }()
	steps := []struct {
		name    string
		op      func()
		changes bool
	}{
		{"add", func() { d.Set("a", inst(1, 0)) }, true},
		{"same value", func() { d.Set("a", inst(1, 0)) }, false},
		{"move", func() { d.SetWorld(1, mgl32.Translate3D(1, 2, 3)) }, true},
		{"same move", func() { d.SetWorld(1, mgl32.Translate3D(1, 2, 3)) }, false},
		{"unknown id", func() { d.SetColor(9, [4]float32{}) }, false},
		{"select", func() { d.SetSelection([]uint32{1}) }, false},
		{"flag", func() { d.SetFlag(1, FlagSelected, true) }, true},
		{"same flag", func() { d.SetFlag(1, FlagSelected, true) }, false},
		{"mesh", func() { d.SetMesh("a", cube) }, true},
		{"same mesh", func() { d.SetMesh("a", cube) }, false},
		{"remove", func() { d.Remove(1) }, true},
		{"remove again", func() { d.Remove(1) }, false},
		{"clear empty", func() { d.Clear() }, false},
	}
	for _, st := range steps {
		v := d.Version()
		st.op()
		if got := d.Version() != v; got != st.changes {
			t.Errorf("%s: version changed = %v, want %v", st.name, got, st.changes)
		}
	}
}

// TestEmptiedChunksAreReused: removing every instance and adding them again (a delete of many and its undo), in
// any order, or adding as many elsewhere, reuses the emptied chunks: the list does not grow new chunks beside
// them (it did when a cell had several chunks: after a million cubes were deleted and undone, the list held a
// second set of chunks, about 100 MB more, and a renderer a second set of buffers).
func TestEmptiedChunksAreReused(t *testing.T) {
	// 32×16×32 instances one unit apart: cells of 16 hold 4,096 of them, two chunks each.
	var ins []Instance
	for x := range 32 {
		for y := range 16 {
			for z := range 32 {
				ins = append(ins, Instance{World: mgl32.Translate3D(float32(x), float32(y), float32(z)), ID: uint32(len(ins) + 1)})
			}
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	d := NewDrawList()
	rng.Shuffle(len(ins), func(i, j int) { ins[i], ins[j] = ins[j], ins[i] })
	for _, in := range ins {
		d.Set("cube", in)
	}
	size := func() (chunks, capacity int) {
		for _, c := range d.Batch("cube").Chunks() {
			capacity += cap(c.Instances)
		}
		return len(d.Batch("cube").Chunks()), capacity
	}
	chunks, capacity := size()
	if chunks < 8 {
		t.Fatalf("%d chunks: want several per cell for this test", chunks)
	}
	for round := range 3 {
		rng.Shuffle(len(ins), func(i, j int) { ins[i], ins[j] = ins[j], ins[i] })
		for _, in := range ins {
			d.Remove(in.ID)
		}
		if round == 2 { // elsewhere: the same cubes 1,000 units away
			for i := range ins {
				ins[i].World[12] += 1000
			}
		}
		rng.Shuffle(len(ins), func(i, j int) { ins[i], ins[j] = ins[j], ins[i] })
		for _, in := range ins {
			d.Set("cube", in)
		}
		if err := d.Check(); err != nil {
			t.Fatal(err)
		}
		if n, c := size(); n != chunks || c > capacity {
			t.Fatalf("round %d: %d chunks with room for %d instances, want %d chunks with room for at most %d", round, n, c,
				chunks, capacity)
		}
	}
	d.Clear()
	for _, in := range ins[:100] {
		d.Set("cube", in)
	}
	if err := d.Check(); err != nil {
		t.Fatal(err)
	}
	if n, _ := size(); n != chunks {
		t.Fatalf("after Clear and 100 instances: %d chunks, want %d", n, chunks)
	}
}

// An update that flags an instance selected and moves it to another cell at once counts it selected once, and
// one that clears the flag and moves it back counts it no longer.
func TestMoveAndFlagInOneUpdate(t *testing.T) {
	d := NewDrawList()
	for i := range 4 {
		d.Set("cube", inst(uint32(i+1), float32(i)))
	}
	far := mgl32.Translate3D(10*DefaultCellSize, 0, 0)
	d.updateID(2, func(in *Instance) { in.World, in.Flags = far, in.Flags|FlagSelected })
	if err := d.Check(); err != nil || d.Flagged() != 1 {
		t.Fatalf("flagged %d: %v", d.Flagged(), err)
	}
	d.updateID(2, func(in *Instance) { in.World, in.Flags = mgl32.Translate3D(1, 0, 0), in.Flags&^FlagSelected })
	if err := d.Check(); err != nil || d.Flagged() != 0 {
		t.Fatalf("flagged %d: %v", d.Flagged(), err)
	}
}
