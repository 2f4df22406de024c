package glrender

import (
	"image"
	"image/color"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/assets"
	"github.com/voltex-editor/voltex/viewport"
)

const testW, testH = 320, 200

// render renders dl with cam and returns the image.
func render(t testing.TB, r *Renderer, dl *viewport.DrawList, cam viewport.Camera) *image.RGBA {
	t.Helper()
	if err := r.Render(dl, cam); err != nil {
		t.Fatal(err)
	}
	return r.ReadImage()
}

// framed returns the default camera framing dl.
func framed(dl *viewport.DrawList, w, h int) viewport.Camera {
	cam := viewport.DefaultCamera()
	cam.Frame(dl.Bounds(), float32(w)/float32(h))
	return cam
}

func near(c color.RGBA, want [3]float32, tol int) bool {
	return absDiff(c.R, uint8(want[0]*255)) <= tol && absDiff(c.G, uint8(want[1]*255)) <= tol && absDiff(c.B, uint8(want[2]*255)) <= tol
}

// TestOrientation checks that both the image and the id buffer come out
// the right way up and not mirrored: an entity above the pivot is drawn
// (and picked) in the upper half, one on the +X side (camera at yaw 0 looks
// down -Z, so +X is to the right) in the right half.
func TestOrientation(t *testing.T) {
	dl := viewport.NewDrawList()
	dl.SetMesh(assets.BuiltinCube, builtin(t, assets.BuiltinCube))
	dl.Set(assets.BuiltinCube, viewport.Instance{ID: 1, World: mgl32.Translate3D(0, 2, 0), Color: [4]float32{1, 0, 0, 1}})
	dl.Set(assets.BuiltinCube, viewport.Instance{ID: 2, World: mgl32.Translate3D(3, 0, 0), Color: [4]float32{0, 1, 0, 1}})
	cam := viewport.Camera{Yaw: 0, Pitch: 0, Distance: 10, FovY: 60, Near: 0.1, Far: 100}
	withRenderer(t, testW, testH, func(r *Renderer) {
		r.Settings.Grid = false
		img := render(t, r, dl, cam)
		for _, tc := range []struct {
			id         uint32
			p          mgl32.Vec3
			top, right bool
		}{{1, mgl32.Vec3{0, 2, 0}, true, false}, {2, mgl32.Vec3{3, 0, 0}, false, true}} {
			x, y, _ := cam.WorldToPixel(tc.p, testW, testH)
			if (y < testH/2-1) != tc.top || (x > testW/2+1) != tc.right {
				t.Fatalf("entity %d projects to (%v,%v): test setup wrong", tc.id, x, y)
			}
			if got := r.ReadID(int(x), int(y)); got != tc.id {
				t.Errorf("id buffer at (%d,%d) = %d, want %d", int(x), int(y), got, tc.id)
			}
			c := img.RGBAAt(int(x), int(y))
			isRed, isGreen := c.R > 2*c.G && c.R > 100, c.G > 2*c.R && c.G > 100
			if (tc.id == 1 && !isRed) || (tc.id == 2 && !isGreen) {
				t.Errorf("image at (%d,%d) = %v: entity %d's colour is not there (image flipped?)", int(x), int(y), c, tc.id)
			}
		}
		if id := r.ReadID(5, 5); id != 0 {
			t.Errorf("background id %d, want 0", id)
		}
		if c := img.RGBAAt(5, 5); !near(c, r.Settings.Background, 2) {
			t.Errorf("background pixel %v, want %v", c, r.Settings.Background)
		}
	})
}

func TestPicking(t *testing.T) {
	const side = 5
	dl := cubesScene(t, side)
	cam := framed(dl, testW, testH)
	withRenderer(t, testW, testH, func(r *Renderer) {
		render(t, r, dl, cam)
		for id := uint32(1); id <= side*side; id++ {
			in, _, _ := dl.Get(id)
			top := in.World.Col(3).Vec3().Add(mgl32.Vec3{0, 0.5, 0})
			x, y, _ := cam.WorldToPixel(top, testW, testH)
			if got := r.ReadID(int(x), int(y)); got != id {
				t.Errorf("GPU pick at the top of entity %d (%d,%d) = %d", id, int(x), int(y), got)
			}
			// The CPU fallback agrees at the pixel centre.
			if h, ok := dl.Pick(cam.Ray(float32(int(x))+0.5, float32(int(y))+0.5, testW, testH)); !ok || h.ID != id {
				t.Errorf("CPU pick at the top of entity %d = %+v %v", id, h, ok)
			}
		}
		for _, p := range [][2]int{{0, 0}, {testW - 1, 0}, {-1, 5}, {testW, 5}, {5, testH}} {
			if got := r.ReadID(p[0], p[1]); got != 0 {
				t.Errorf("ReadID%v = %d, want 0 (background or outside)", p, got)
			}
		}

		all := r.ReadIDs(image.Rect(-10, -10, testW+10, testH+10))
		want := make([]uint32, side*side)
		for i := range want {
			want[i] = uint32(i + 1)
		}
		if !slices.Equal(all, want) {
			t.Errorf("box over everything: %v", all)
		}
		// A box around two entities' top pixels contains them.
		a, _, _ := dl.Get(1)
		b, _, _ := dl.Get(2)
		ax, ay, _ := cam.WorldToPixel(a.World.Col(3).Vec3().Add(mgl32.Vec3{0, 0.5, 0}), testW, testH)
		bx, by, _ := cam.WorldToPixel(b.World.Col(3).Vec3().Add(mgl32.Vec3{0, 0.5, 0}), testW, testH)
		box := r.ReadIDs(image.Rect(int(bx), int(by), int(ax), int(ay)).Inset(-1))
		if !slices.Contains(box, 1) || !slices.Contains(box, 2) || len(box) >= side*side {
			t.Errorf("box around entities 1 and 2: %v", box)
		}
		if got := r.ReadIDs(image.Rect(0, 0, 3, 3)); got != nil {
			t.Errorf("box over background: %v", got)
		}
		if got := r.ReadIDs(image.Rect(testW+5, 0, testW+9, 9)); got != nil {
			t.Errorf("box outside: %v", got)
		}
	})
}

// TestIncrementalUpload checks that only changed instances are uploaded, chunk by chunk, and that the
// incrementally updated buffers draw the same image as a fresh full upload.
func TestIncrementalUpload(t *testing.T) {
	const side = 30 // 900 cubes, 45 units wide: several chunks
	const size = viewport.InstanceSize
	dl := cubesScene(t, side)
	cube := builtin(t, assets.BuiltinCube)
	meshBytes := meshBytesOf(cube)
	cam := framed(dl, testW, testH)
	chunks := func() int {
		n := 0
		for _, b := range dl.Batches() {
			for _, c := range b.Chunks() {
				if c.Len() > 0 && b.Mesh != nil {
					n++
				}
			}
		}
		return n
	}
	// The chunk of the cell at the origin, where new cubes go.
	origin := func() *viewport.Chunk {
		for _, c := range dl.Batch(assets.BuiltinCube).Chunks() {
			if c.Cell() == [3]int32{} {
				return c
			}
		}
		t.Fatal("no chunk at the origin")
		return nil
	}
	in450, _, _ := dl.Get(450)
	p450 := in450.World.Col(3)
	n := chunks()
	if n < 4 {
		t.Fatalf("%d chunks: the test wants several", n)
	}
	withRenderer(t, testW, testH, func(r *Renderer) {
		steps := []struct {
			name        string
			edit        func()
			bytes       func() int
			calls       int
			instances   int
			drawCalls   int
			meshesAfter int
		}{
			{"first render uploads everything", func() {}, func() int { return side*side*size + meshBytes }, n + 3, side * side, n, 1},
			{"nothing changed: nothing uploaded", func() {}, func() int { return 0 }, 0, side * side, n, 1},
			{"one transform edit: one instance", func() { dl.SetWorld(450, mgl32.Translate3D(p450[0], 3, p450[2])) }, func() int { return size }, 1, side * side, n, 1},
			{"re-setting the same value: nothing", func() { dl.SetWorld(450, mgl32.Translate3D(p450[0], 3, p450[2])) }, func() int { return 0 }, 0, side * side, n, 1},
			{"selection of one: no instance", func() { dl.SetSelected(7, true) }, func() int { return 0 }, 0, side * side, n, 1},
			{"two far apart: two ranges", func() { dl.SetColor(3, [4]float32{1, 1, 1, 1}); dl.SetColor(800, [4]float32{0, 0, 0, 1}) }, func() int { return 2 * size }, 2, side * side, n, 1},
			{"growing past capacity: the chunk's full upload", func() {
				dl.Set(assets.BuiltinCube, viewport.Instance{ID: 5000, World: mgl32.Translate3D(0, 4, 0), Color: [4]float32{1, 0, 1, 1}})
			}, func() int { return origin().Len() * size }, 1, side*side + 1, n, 1},
			{"one more fits: one instance", func() {
				dl.Set(assets.BuiltinCube, viewport.Instance{ID: 5001, World: mgl32.Translate3D(1, 4, 0), Color: [4]float32{1, 1, 0, 1}})
			}, func() int { return size }, 1, side*side + 2, n, 1},
			{"removal: the moved instance", func() { dl.Remove(5000) }, func() int { return size }, 1, side*side + 1, n, 1},
			{"a second mesh: one more draw call", func() {
				dl.SetMesh(assets.BuiltinSphere, builtin(t, assets.BuiltinSphere))
				dl.Set(assets.BuiltinSphere, viewport.Instance{ID: 6000, World: mgl32.Translate3D(0, 2, 0), Color: [4]float32{1, 1, 1, 1}})
			}, func() int { return size + meshBytesOf(builtin(t, assets.BuiltinSphere)) }, 3, side*side + 2, n + 1, 2},
			{"mesh gone: its buffers freed", func() { dl.Remove(6000); dl.SetMesh(assets.BuiltinSphere, nil) }, func() int { return 0 }, 0, side*side + 1, n, 1},
		}
		for _, st := range steps {
			st.edit()
			want := st.bytes()
			render(t, r, dl, cam)
			s := r.Stats()
			if s.UploadedBytes != want || s.UploadCalls != st.calls {
				t.Errorf("%s: uploaded %d bytes in %d calls, want %d in %d", st.name, s.UploadedBytes, s.UploadCalls, want, st.calls)
			}
			if s.Instances != st.instances || s.DrawCalls != st.drawCalls || s.MeshesResident != st.meshesAfter {
				t.Errorf("%s: %d instances, %d draw calls, %d meshes; want %d, %d, %d", st.name, s.Instances, s.DrawCalls, s.MeshesResident, st.instances, st.drawCalls, st.meshesAfter)
			}
		}
		// The cubes small on the screen are drawn as points (points.go): their twelve triangles are not drawn.
		if s := r.Stats(); s.Renders != uint64(len(steps)) || s.Triangles+12*r.pics.shown.points != (side*side+1)*12 {
			t.Errorf("renders %d triangles %d (and %d points)", s.Renders, s.Triangles, r.pics.shown.points)
		}
		sameAsFullUpload(t, r, dl, cam)
	})
}

// sameAsFullUpload checks that r's last image (kept up to date by
// incremental uploads) equals what a new renderer, uploading dl whole,
// draws. It runs on the GL thread.
func sameAsFullUpload(t *testing.T, r *Renderer, dl *viewport.DrawList, cam viewport.Camera) {
	t.Helper()
	incremental := r.ReadImage()
	fresh, err := New()
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Delete()
	w, h := r.Size()
	if err := fresh.Resize(w, h); err != nil {
		t.Fatal(err)
	}
	if _, n := diffImages(incremental, render(t, fresh, dl, cam), 0); n != 0 {
		t.Errorf("the incrementally updated picture differs from a full upload in %d pixels", n)
	}
}

// meshBytesOf is what a renderer uploads for mesh m: its vertices and indices (those of flatVertices for a
// flat-shaded mesh), and a small mesh's indices for pulled drawing (pullMesh).
func meshBytesOf(m *assets.Mesh) int {
	v, i := m.Vertices, m.Indices
	if fv, fi, ok := flatVertices(m); ok {
		v, i = fv, fi
	}
	n := (len(v) + len(i)) * 4
	if len(v)/assets.FloatsPerVertex <= pullMaxVertices {
		n += len(i) * 4 * pullInstances
	}
	return n
}

func TestSelectionOutline(t *testing.T) {
	dl := cubesScene(t, 3)
	cam := framed(dl, testW, testH)
	withRenderer(t, testW, testH, func(r *Renderer) {
		r.Settings.Grid = false
		countOrange := func(img *image.RGBA) int {
			n := 0
			for y := range testH {
				for x := range testW {
					if near(img.RGBAAt(x, y), r.Settings.SelectColor, 3) {
						n++
					}
				}
			}
			return n
		}
		if n := countOrange(render(t, r, dl, cam)); n != 0 {
			t.Fatalf("%d outline pixels with nothing selected", n)
		}
		dl.SetSelected(5, true)
		img := render(t, r, dl, cam)
		n := countOrange(img)
		if n < 50 {
			t.Errorf("only %d outline pixels around the selected cube", n)
		}
		// The outline surrounds entity 5: every outline pixel is within 2
		// pixels of one of its id pixels, and not on it.
		in5 := func(x, y int) bool { return r.ReadID(x, y) == 5 }
		for y := 2; y < testH-2; y += 3 {
			for x := 2; x < testW-2; x += 3 {
				if !near(img.RGBAAt(x, y), r.Settings.SelectColor, 3) {
					continue
				}
				if in5(x, y) {
					t.Fatalf("outline drawn over the selected entity at (%d,%d)", x, y)
				}
				adjacent := false
				for dy := -2; dy <= 2 && !adjacent; dy++ {
					for dx := -2; dx <= 2 && !adjacent; dx++ {
						adjacent = in5(x+dx, y+dy)
					}
				}
				if !adjacent {
					t.Fatalf("outline pixel (%d,%d) is not next to the selected entity", x, y)
				}
			}
		}
		r.Settings.Outline = false
		if n := countOrange(render(t, r, dl, cam)); n != 0 {
			t.Errorf("Outline off: %d outline pixels", n)
		}
	})
}

func TestResizeAndCulling(t *testing.T) {
	dl := cubesScene(t, 2)
	withRenderer(t, testW, testH, func(r *Renderer) {
		tex := r.Texture()
		if tex == 0 {
			t.Fatal("no output texture")
		}
		if err := r.Resize(64, 48); err != nil {
			t.Fatal(err)
		}
		if w, h := r.Size(); w != 64 || h != 48 {
			t.Errorf("Size %d×%d", w, h)
		}
		img := render(t, r, dl, framed(dl, 64, 48))
		if img.Bounds() != image.Rect(0, 0, 64, 48) {
			t.Errorf("image bounds %v", img.Bounds())
		}
		if r.ReadID(32, 24) == 0 {
			t.Error("nothing drawn in the middle after resize")
		}
		// Looking away from everything: the batch is culled, no draw calls.
		away := viewport.Camera{Pivot: mgl32.Vec3{0, 0, 100}, Yaw: 180, Distance: 1, FovY: 60, Near: 0.1, Far: 50}
		render(t, r, dl, away)
		if s := r.Stats(); s.CulledBatches != 1 || s.DrawCalls != 0 || s.Instances != 0 {
			t.Errorf("looking away: %+v", s)
		}
		if err := r.Resize(0, 0); err != nil {
			t.Fatal(err)
		}
		if err := r.Render(dl, away); err != nil || r.ReadImage() != nil || r.ReadID(0, 0) != 0 {
			t.Error("zero-size renderer rendered something")
		}
		if err := r.Resize(1<<20, 10); err == nil || !strings.Contains(err.Error(), "MAX_TEXTURE_SIZE") {
			t.Errorf("huge size: %v", err)
		}
	})
}

func TestWrongThreadPanics(t *testing.T) {
	c := glContext(t)
	var r *Renderer
	_ = c.Do(func() {
		var err error
		if r, err = New(); err != nil {
			t.Fatal(err)
		}
	})
	defer func() { _ = c.Do(r.Delete) }()
	defer func() {
		msg, _ := recover().(string)
		if !strings.Contains(msg, "only where its GL context is current") {
			t.Errorf("panic %q, want the wrong-thread message", msg)
		}
	}()
	_ = r.Resize(10, 10) // not inside Do: another thread
	t.Error("no panic")
}

func TestRenderToImage(t *testing.T) {
	dl := cubesScene(t, 2)
	cam := framed(dl, 80, 60)
	img, err := RenderToImage(dl, cam, 80, 60)
	if err != nil {
		t.Fatal(err)
	}
	if img.Bounds() != image.Rect(0, 0, 80, 60) {
		t.Fatalf("bounds %v", img.Bounds())
	}
	dl.Batch(assets.BuiltinCube).MarkAllDirty()
	withRenderer(t, 80, 60, func(r *Renderer) {
		if _, n := diffImages(img, render(t, r, dl, cam), 0); n != 0 {
			t.Errorf("RenderToImage differs from Renderer output in %d pixels", n)
		}
	})
	if _, err := RenderToImage(dl, cam, 0, 10); err == nil {
		t.Error("size 0×10 accepted")
	}
}

func TestInitCurrentContext(t *testing.T) {
	// Inside a context (as the editor calls it): succeeds and reports 4.1+.
	// gl.Init resolves through glXGetProcAddress; with libglvnd those entry
	// points dispatch to the current EGL context as well: rendering works.
	if err := glContext(t).Do(func() {
		if err := InitCurrentContext(); err != nil {
			t.Error(err)
		}
	}); err != nil {
		t.Fatal(err)
	}
	dl := cubesScene(t, 1)
	withRenderer(t, 40, 30, func(r *Renderer) {
		render(t, r, dl, framed(dl, 40, 30))
		if r.ReadID(20, 15) != 1 {
			t.Error("rendering after InitCurrentContext (GLX-resolved functions on an EGL context) drew nothing")
		}
	})
	// On a thread with no current context: a clear error, no crash.
	errc := make(chan error)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		errc <- checkVersion()
	}()
	if err := <-errc; err == nil || !strings.Contains(err.Error(), "no current OpenGL context") {
		t.Errorf("without a context: %v", err)
	}
}

// TestNewPictureAllocatesLittle: a new picture of a scene (the view turned, as in every frame of an orbit) allocates
// the picture and little else: the uniforms GL reads are not copied to the heap, the meshes and materials in use are
// counted in maps kept from one picture to the next.
func TestNewPictureAllocatesLittle(t *testing.T) {
	cubesDrawn(t, 8, func(r *Renderer, dl *viewport.DrawList, cam viewport.Camera) {
		turn := 0
		allocs := testing.AllocsPerRun(20, func() {
			turn++
			c := cam
			c.Yaw += float32(turn) * 0.01
			if _, err := r.Draw(dl, c, viewport.DrawOptions{}); err != nil {
				t.Fatal(err)
			}
		})
		if allocs > 2 {
			t.Errorf("a new picture: %v allocations, want at most 2", allocs)
		}
	})
}

// cubesDrawn draws a side×side grid of cubes, framed, on a small renderer, then runs f with them.
func cubesDrawn(t *testing.T, side int, f func(r *Renderer, dl *viewport.DrawList, cam viewport.Camera)) {
	t.Helper()
	dl := cubesScene(t, side)
	cam := viewport.DefaultCamera()
	cam.Frame(dl.Bounds(), 1)
	withRenderer(t, 64, 64, func(r *Renderer) {
		render(t, r, dl, cam)
		f(r, dl, cam)
	})
}
