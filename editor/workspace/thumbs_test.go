package workspace

import (
	"image"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"
)

// TestThumbnailsAreMadeOffTheLoop: asking for a thumbnail returns at once while its picture is being made (the
// maker is held until the test lets it go), the loop is woken when it is done, the picture is kept (asking again
// makes none) and made again, with a new version, once the file changed.
func TestThumbnailsAreMadeOffTheLoop(t *testing.T) {
	dir := t.TempDir()
	mesh := filepath.Join(dir, "rock.obj")
	if err := os.WriteFile(mesh, []byte("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	release := make(chan struct{})
	var made, woken atomic.Int32
	th := &thumbnails{
		wake: func() { woken.Add(1) },
		make: func(src thumbSource) (*image.RGBA, error) {
			<-release
			made.Add(1)
			return image.NewRGBA(image.Rect(0, 0, 4, 4)), nil
		},
	}
	src := thumbSource{root: dir, ref: "rock.obj"}
	now := time.Now()
	returned := make(chan struct{})
	go func() {
		if img, _ := th.get(src, now); img != nil {
			t.Error("a picture before it was made")
		}
		close(returned)
	}()
	select {
	case <-returned:
	case <-time.After(10 * time.Second):
		t.Fatal("get waited for the picture to be made")
	}
	close(release)
	deadline := time.Now().Add(10 * time.Second)
	var v1 uint64
	for {
		img, v := th.get(src, now)
		if img != nil {
			v1 = v
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the picture never came")
		}
		time.Sleep(time.Millisecond)
	}
	if woken.Load() == 0 {
		t.Error("the loop was not woken when the picture was made")
	}
	if _, v := th.get(src, now.Add(2*thumbRecheck)); v != v1 || made.Load() != 1 {
		t.Errorf("asking again, the file unchanged: version %d (was %d), %d pictures made, want the one kept", v, v1, made.Load())
	}
	if err := os.WriteFile(mesh, []byte("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 2 3\nf 1 2 4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	th.get(src, now.Add(4*thumbRecheck))
	for made.Load() < 2 {
		if time.Now().After(deadline) {
			t.Fatal("the changed file's picture was not made again")
		}
		time.Sleep(time.Millisecond)
	}
	for {
		if _, v := th.get(src, now.Add(4*thumbRecheck)); v > v1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the new picture has no new version")
		}
		time.Sleep(time.Millisecond)
	}
}

// TestThumbnailOfBigPrefabIsNotMade: a scene file over thumbMaxPrefab (a level, whose picture would load all of
// it) gets no picture and nothing is made for it; once it is small again, its picture is made.
func TestThumbnailOfBigPrefabIsNotMade(t *testing.T) {
	path := filepath.Join(t.TempDir(), "level.json")
	if err := os.WriteFile(path, make([]byte, thumbMaxPrefab+1), 0o644); err != nil {
		t.Fatal(err)
	}
	var made atomic.Int32
	th := &thumbnails{make: func(src thumbSource) (*image.RGBA, error) {
		made.Add(1)
		return image.NewRGBA(image.Rect(0, 0, 4, 4)), nil
	}}
	src, now := thumbSource{ref: path, prefab: true}, time.Now()
	for i := range 3 {
		if img, _ := th.get(src, now.Add(time.Duration(i)*thumbRecheck)); img != nil {
			t.Fatal("a picture of a prefab over the limit")
		}
	}
	if th.running || made.Load() != 0 {
		t.Fatalf("%d pictures made (running %v) of a prefab over the limit", made.Load(), th.running)
	}
	if err := os.WriteFile(path, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for img, _ := th.get(src, now.Add(4*thumbRecheck)); img == nil; img, _ = th.get(src, now.Add(4*thumbRecheck)) {
		if time.Now().After(deadline) {
			t.Fatal("no picture once the prefab is small")
		}
		time.Sleep(time.Millisecond)
	}
}

// TestRenderThumbnailDrawsMeshesAndPrefabs: a built-in mesh, an OBJ file and a prefab (a scene file of a red
// cube) each get a picture with something drawn in the middle; a missing file gets none.
func TestRenderThumbnailDrawsMeshesAndPrefabs(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "tri.obj"), []byte("v -1 0 0\nv 1 0 0\nv 0 2 0\nf 1 2 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	prefab := filepath.Join(dir, "crate.json")
	if err := os.WriteFile(prefab, []byte(`{ "format": "voltex.scene", "version": 2, "name": "Crate", "entities": [
  { "id": 1, "name": "Box", "order": 1, "components": { "Color": { "rgba": [1, 0, 0, 1] }, "Mesh": { "asset": "builtin:cube" }, "Transform": {} } } ] }`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, src := range []thumbSource{{root: dir, ref: "builtin:sphere"}, {root: dir, ref: "tri.obj"}, {ref: prefab, prefab: true}} {
		img, err := renderThumbnail(src, nil)
		if err != nil || img == nil {
			t.Fatalf("%s: %v, %v", src.ref, img, err)
		}
		c := img.RGBAAt(ThumbnailSize/2, ThumbnailSize/2)
		if c.A == 0 {
			t.Errorf("%s: nothing drawn in the middle", src.ref)
		}
		if src.prefab && !(c.R > 2*c.G && c.R > 2*c.B) {
			t.Errorf("%s: the middle is %v, want the crate's red", src.ref, c)
		}
	}
	if img, err := renderThumbnail(thumbSource{ref: filepath.Join(dir, "gone.json"), prefab: true}, nil); err == nil || img != nil {
		t.Errorf("a missing prefab: %v, %v, want an error", img, err)
	}
}

// TestRenderThumbnailDrawsTexturesAndVertexColours: the textured crate's thumbnail shows its texture (many
// colours on its faces, not three flat shades) and the vertex-coloured box shows its several colours.
func TestRenderThumbnailDrawsTexturesAndVertexColours(t *testing.T) {
	dir := t.TempDir()
	samples := filepath.Join("..", "..", "..", "shared", "testdata", "gltf")
	for _, f := range []string{"Cube/glTF/Cube.gltf", "Cube/glTF/Cube.bin", "Cube/glTF/Cube_BaseColor.png",
		"Cube/glTF/Cube_MetallicRoughness.png", "BoxVertexColors/glTF-Binary/BoxVertexColors.glb"} {
		data, err := os.ReadFile(filepath.Join(samples, filepath.FromSlash(f)))
		if err != nil {
			t.Skipf("the shared glTF samples: %v", err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, ref := range []string{"Cube.gltf", "BoxVertexColors.glb"} {
		img, err := renderThumbnail(thumbSource{root: dir, ref: ref}, nil)
		if err != nil || img == nil {
			t.Fatalf("%s: %v, %v", ref, img, err)
		}
		colours := map[[3]uint8]bool{}
		var dominant [3]int // opaque pixels whose red, green or blue stands out
		for y := range ThumbnailSize {
			for x := range ThumbnailSize {
				c := img.RGBAAt(x, y)
				if c.A != 255 {
					continue
				}
				colours[[3]uint8{c.R >> 3, c.G >> 3, c.B >> 3}] = true
				for k, v := range [3]uint8{c.R, c.G, c.B} {
					o := [3]uint8{c.R, c.G, c.B}
					if int(v) > int(o[(k+1)%3])+40 && int(v) > int(o[(k+2)%3])+40 {
						dominant[k]++
					}
				}
			}
		}
		if len(colours) < 40 {
			t.Errorf("%s: %d distinct colours, want the texture or vertex colours drawn, not flat shades", ref, len(colours))
		}
		if ref == "BoxVertexColors.glb" {
			if hues := min(dominant[0], 1) + min(dominant[1], 1) + min(dominant[2], 1); hues < 2 {
				t.Errorf("%s: red, green, blue standing out in %v pixels: want several colours", ref, dominant)
			}
		}
	}
}

// TestHeldThumbnailsWaitForRelease: while held (the editor until it first goes idle), asked-for pictures are not
// made and do not count as busy; released, they are made.
func TestHeldThumbnailsWaitForRelease(t *testing.T) {
	var made atomic.Int32
	done := make(chan struct{}, 1)
	th := &thumbnails{held: true, wake: func() { done <- struct{}{} }, make: func(src thumbSource) (*image.RGBA, error) {
		made.Add(1)
		return image.NewRGBA(image.Rect(0, 0, 4, 4)), nil
	}}
	src := thumbSource{ref: "builtin:cube"}
	th.get(src, time.Now())
	time.Sleep(50 * time.Millisecond) // a goroutine started wrongly would have made it by now
	if made.Load() != 0 || th.busy() {
		t.Fatalf("held: %d made, busy %v", made.Load(), th.busy())
	}
	th.release()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("released: the picture was not made")
	}
	if img, _ := th.get(src, time.Now()); img == nil || made.Load() != 1 {
		t.Fatalf("released: picture %v, %d made", img != nil, made.Load())
	}
	th.release() // again: nothing to do
}
