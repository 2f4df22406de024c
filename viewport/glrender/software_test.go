package glrender

import (
	"image"
	"strings"
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/assets"
	"github.com/voltex-editor/voltex/viewport"
)

// withSwitch runs f on the GL thread with a fresh w×h renderer whose software switch is software, deleted
// afterwards.
func withSwitch(t testing.TB, w, h int, software bool, f func(r *Renderer)) {
	t.Helper()
	withMade(t, w, h, func() (*Renderer, error) { return newRenderer(software) }, f)
}

func TestIsSoftwareRenderer(t *testing.T) {
	for name, want := range map[string]bool{
		"llvmpipe (LLVM 15.0.6, 256 bits)":         true,
		"softpipe":                                 true,
		"Google SwiftShader":                       true,
		"Microsoft Basic Render Driver (Software)": true,
		"NVIDIA GeForce RTX 3060/PCIe/SSE2":        false,
		"AMD Radeon RX 6600 (radeonsi, navi23)":    false,
		"Mesa Intel(R) UHD Graphics 620 (KBL GT2)": false,
		"": false,
	} {
		if got := IsSoftwareRenderer(name); got != want {
			t.Errorf("IsSoftwareRenderer(%q) = %v, want %v", name, got, want)
		}
	}
}

// TestSoftwareEnv: VOLTEX_SOFTWARE_GL overrides what GL_RENDERER says, both ways, and anything but 0 and 1 is an
// error that names the variable; New takes it (the context here is llvmpipe).
func TestSoftwareEnv(t *testing.T) {
	for _, c := range []struct {
		env, renderer string
		want          bool
	}{{"", "llvmpipe", true}, {"", "NVIDIA GeForce", false}, {"0", "llvmpipe", false}, {"1", "NVIDIA GeForce", true}} {
		t.Setenv(SoftwareEnv, c.env)
		if got, err := softwareSwitch(c.renderer); got != c.want || err != nil {
			t.Errorf("%s=%q, GL_RENDERER %q: software %v, %v; want %v", SoftwareEnv, c.env, c.renderer, got, err, c.want)
		}
	}
	t.Setenv(SoftwareEnv, "yes")
	if _, err := softwareSwitch("llvmpipe"); err == nil || !strings.Contains(err.Error(), SoftwareEnv+`="yes"`) {
		t.Errorf("%s=yes: %v; want an error naming it", SoftwareEnv, err)
	}
	for env, want := range map[string]bool{"0": false, "1": true} {
		t.Setenv(SoftwareEnv, env)
		if err := glContext(t).Do(func() {
			r, err := New()
			if err != nil {
				t.Fatal(err)
			}
			defer r.Delete()
			if r.Software() != want {
				t.Errorf("%s=%s: New gave Software() = %v", SoftwareEnv, env, r.Software())
			}
		}); err != nil {
			t.Fatal(err)
		}
	}
}

// TestSwitchPositionsDrawAlike: the golden scenes drawn with the switch either way match the golden images, and
// an editing session — a scene drawn within a frame's budget, entities moved and added (patches on the software
// path), an orbit (thinned pictures), a selection — ends in the same picture and ids both ways.
func TestSwitchPositionsDrawAlike(t *testing.T) {
	for _, sc := range goldenScenes() {
		for _, sw := range []bool{false, true} {
			dl, cam := sc.build(t)
			withSwitch(t, testW, testH, sw, func(r *Renderer) {
				compareGolden(t, sc.name, render(t, r, dl, cam))
			})
		}
	}
	var imgs [2]*image.RGBA
	var ids [2][]uint32
	for k, sw := range []bool{false, true} {
		dl := spread(t, 40, [4]float32{0.8, 0.8, 0.2, 1})
		cam := framed(dl, testW, testH)
		withSwitch(t, testW, testH, sw, func(r *Renderer) {
			budget := viewport.DrawOptions{Budget: time.Millisecond}
			drawDone(t, r, dl, cam, budget)
			dl.SetWorld(7, mgl32.Translate3D(0, 3, 0))
			drawDone(t, r, dl, cam, budget)
			dl.Set(assets.BuiltinCube, viewport.Instance{ID: 5000, Color: [4]float32{0.2, 0.3, 0.9, 1}, World: mgl32.Translate3D(-2, 4, 1)})
			drawDone(t, r, dl, cam, viewport.DrawOptions{Budget: time.Millisecond, PatchOnly: true})
			drawDone(t, r, dl, cam, budget)
			cam.Orbit(15, 5)
			drawDone(t, r, dl, cam, viewport.DrawOptions{Budget: time.Millisecond, Interactive: true})
			dl.SetSelected(7, true)
			dl.SetSelected(300, true)
			drawDone(t, r, dl, cam, budget)
			if s := r.Stats(); s.Thinned || s.Stride != 1 {
				t.Errorf("software %v: the last picture is thinned: %+v", sw, s)
			}
			imgs[k], ids[k] = r.ReadImage(), allIDs(r)
		})
	}
	if _, n := diffImages(imgs[0], imgs[1], 16); float64(n) > 0.005*testW*testH {
		t.Errorf("the session's last picture differs in %d pixels between the GPU and the software paths", n)
	}
	diff := 0
	for i := range ids[0] {
		if ids[0][i] != ids[1][i] {
			diff++
		}
	}
	if float64(diff) > 0.005*testW*testH {
		t.Errorf("the session's ids differ in %d pixels between the GPU and the software paths", diff)
	}
}

// TestGPUPathWaitsForNothing: on the GPU path every picture is drawn whole in the call that asks for it, whatever
// the budget and options, without a wait for the GPU (the software path waits at every budgeted step), in place
// (the texture shown stays; no back target is made), without pulled meshes, and Adopt (which reads the picture
// back) declines.
func TestGPUPathWaitsForNothing(t *testing.T) {
	waits := [2]int{}
	for k, sw := range []bool{false, true} {
		dl := spread(t, 40, [4]float32{0.8, 0.8, 0.2, 1}) // 1600 cubes
		cam := framed(dl, testW, testH)
		withSwitch(t, testW, testH, sw, func(r *Renderer) {
			r.pics.pretendCost(1000, time.Millisecond) // pretend a triangle costs 1 µs: 1600 cubes ≈ 19 ms
			tex := r.Texture()
			for i, o := range []viewport.DrawOptions{
				{Budget: time.Millisecond},
				{Budget: time.Millisecond, Interactive: true},
				{Budget: time.Millisecond, Changing: true},
				{Budget: time.Millisecond, PatchOnly: true},
			} {
				cam.Orbit(5, 0)
				dl.SetWorld(uint32(i+1), mgl32.Translate3D(float32(i), 3, 0))
				done, err := r.Draw(dl, cam, o)
				if err != nil {
					t.Fatal(err)
				}
				if sw {
					drawDone(t, r, dl, cam, viewport.DrawOptions{Budget: time.Millisecond})
					continue
				}
				if s := r.Stats(); !done || s.Steps != 1 || s.Stride != 1 || s.Thinned || s.Instances != dl.Len() {
					t.Errorf("GPU path, %+v: done %v, %+v; want the whole picture at once", o, done, s)
				}
				if r.Texture() != tex {
					t.Errorf("GPU path, %+v: the texture shown changed", o)
				}
			}
			if !sw {
				if r.pics.t.back().fbo != 0 {
					t.Error("GPU path: a back target was made")
				}
				for m, gm := range r.d.meshes {
					if gm.pulled != nil {
						t.Errorf("GPU path: mesh %s is drawn pulled", m.Ref)
					}
				}
				preview := spread(t, 40, [4]float32{0.8, 0.8, 0.2, 1})
				render(t, r, preview, cam)
				if r.Adopt(preview, dl, func(id uint32) uint32 { return id }, nil) {
					t.Error("GPU path: Adopt read the picture back")
				}
			}
			waits[k] = r.pics.waits
		})
	}
	if waits[0] != 0 || waits[1] == 0 {
		t.Errorf("GPU waits: %d on the GPU path (want none), %d on the software path (want some)", waits[0], waits[1])
	}
}
