package viewport

import (
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/assets"
)

// TestDrawsAs: a list draws as another once the other's ids are renamed, and any difference in what is drawn
// (an instance's place, colour, mesh, a flag other than FlagSelected, one instance more or less) says no — with the
// renamed ids listed (the others then compared by their hashes) as without.
func TestDrawsAs(t *testing.T) {
	var renamed []uint32
	for i := range uint32(30) {
		renamed = append(renamed, adoptBase+i+1)
	}
	for _, r := range [][]uint32{nil, renamed} {
		drawsAs(t, r)
	}
}

const adoptBase = 1000

func drawsAs(t *testing.T, renamed []uint32) {
	cube, plane := &assets.Mesh{Ref: "cube"}, &assets.Mesh{Ref: "plane"}
	rename := func(id uint32) uint32 {
		if id > adoptBase {
			return id - adoptBase + 500
		}
		return id
	}
	make2 := func() (from, to *DrawList) {
		from, to = NewDrawList(), NewDrawList()
		for _, dl := range []*DrawList{from, to} {
			dl.SetMesh("cube", cube)
			dl.SetMesh("plane", plane)
		}
		for i := range uint32(40) { // the scene's, in both
			in := Instance{World: mgl32.Translate3D(float32(i)*3, 0, 0), Color: [4]float32{0.5, 0.5, 0.5, 1}, ID: i + 1}
			ref := "cube"
			if i%5 == 0 {
				ref = "plane"
			}
			from.Set(ref, in)
			to.Set(ref, in)
		}
		for i := range uint32(30) { // the preview's cubes, and the spawned ones in the opposite order
			in := Instance{World: mgl32.Translate3D(float32(i)*2, 5, 0), Color: [4]float32{1, 0, 0, 1}}
			in.ID, in.Flags = adoptBase+i+1, FlagSelected
			from.Set("cube", in)
			j := 29 - i
			in = Instance{World: mgl32.Translate3D(float32(j)*2, 5, 0), Color: [4]float32{1, 0, 0, 1}, ID: 500 + j + 1}
			to.Set("cube", in)
		}
		return from, to
	}
	from, to := make2()
	if !to.DrawsAs(from, rename, renamed) {
		t.Fatal("the spawned list does not draw as its preview")
	}
	if same, sure := to.drawsAsRenamed(from, rename, renamed); renamed != nil && (!same || !sure) {
		t.Fatalf("with the renamed ids listed, told by hashes: same %v, sure %v (want both)", same, sure)
	}
	if to.DrawsAs(from, func(id uint32) uint32 { return id }, renamed) {
		t.Error("draws as the preview without the rename")
	}
	changes := map[string]func(to *DrawList){
		"moved":       func(to *DrawList) { to.SetWorld(510, mgl32.Translate3D(0, 9, 0)) },
		"recoloured":  func(to *DrawList) { to.SetColor(3, [4]float32{0, 1, 0, 1}) },
		"removed":     func(to *DrawList) { to.Remove(7) },
		"one more":    func(to *DrawList) { to.Set("cube", Instance{ID: 9999}) },
		"other mesh":  func(to *DrawList) { in, _, _ := to.Get(2); to.Remove(2); to.Set("plane", in) },
		"other flags": func(to *DrawList) { to.SetFlag(4, 1<<3, true) },
		"new mesh":    func(to *DrawList) { to.SetMesh("plane", &assets.Mesh{Ref: "plane"}) },
	}
	for name, change := range changes {
		from, to := make2()
		change(to)
		if to.DrawsAs(from, rename, renamed) {
			t.Errorf("%s (renamed listed: %v): still draws as the preview", name, renamed != nil)
		}
	}
	// Selection does not count: what is selected is composed over a picture, not drawn in it.
	from, to = make2()
	to.SetSelected(510, true)
	to.SetFlag(3, FlagSelected, true)
	if !to.DrawsAs(from, rename, renamed) {
		t.Error("a selection or FlagSelected made the lists differ")
	}
}

// TestContentHashComesBack: a list's content hash follows what it draws — changed by any change of an instance,
// its batch or a mesh, and the same again when the same instances are back (in other chunks, in another order:
// the undo of a delete), which DrawList.Check recomputes.
func TestContentHashComesBack(t *testing.T) {
	cube := &assets.Mesh{Ref: "cube"}
	dl := NewDrawList()
	dl.SetMesh("cube", cube)
	dl.SetMesh("plane", &assets.Mesh{Ref: "plane"})
	in := func(i uint32) Instance {
		return Instance{World: mgl32.Translate3D(float32(i%50)*7, 0, float32(i/50)*7), Color: [4]float32{1, 0, 0, 1}, ID: i + 1}
	}
	for i := range uint32(5000) {
		dl.Set("cube", in(i))
	}
	h0 := dl.ContentHash()
	seen := map[uint64]string{h0: "first"}
	changed := func(what string) {
		t.Helper()
		if err := dl.Check(); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		h := dl.ContentHash()
		if was, ok := seen[h]; ok {
			t.Errorf("%s: the hash of %q", what, was)
		}
		seen[h] = what
	}
	dl.SetColor(7, [4]float32{0, 1, 0, 1})
	changed("recoloured")
	dl.SetColor(7, [4]float32{1, 0, 0, 1})
	if dl.ContentHash() != h0 {
		t.Error("the colour set back: not the first hash")
	}
	dl.SetWorld(9, mgl32.Translate3D(1000, 0, 0)) // another cell
	changed("moved")
	dl.SetWorld(9, in(8).World)
	if dl.ContentHash() != h0 {
		t.Error("moved back: not the first hash")
	}
	dl.SetFlag(12, FlagSelected, true)
	changed("flagged")
	dl.SetFlag(12, FlagSelected, false)
	other := in(20)
	dl.Set("plane", other)
	changed("another batch")
	dl.Set("cube", other)
	for i := range uint32(5000) { // a delete of all, and its undo in the opposite order
		dl.Remove(i + 1)
	}
	changed("deleted")
	for i := uint32(5000); i > 0; i-- {
		dl.Set("cube", in(i-1))
	}
	if err := dl.Check(); err != nil {
		t.Fatal(err)
	}
	if dl.ContentHash() != h0 {
		t.Error("every instance back: not the first hash")
	}
	dl.SetMesh("cube", &assets.Mesh{Ref: "cube"})
	changed("a mesh reloaded")
	dl.SetMesh("cube", cube)
	changed("the mesh before it again")
	dl.Clear()
	changed("cleared")
}
