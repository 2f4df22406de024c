package glrender

import (
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/assets"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/viewport"
)

// TestGoldenPointAndSpotLights: a floor and three cubes lit by the scene's lights only — an orange point light
// with a range on the left, a blue spot shining down on the right — instead of the default rig: the floor is
// lit in a disc under the point light and a cone's ellipse under the spot, dark between them.
func TestGoldenPointAndSpotLights(t *testing.T) {
	dl := viewport.NewDrawList()
	dl.SetMesh(assets.BuiltinPlane, builtin(t, assets.BuiltinPlane))
	dl.SetMesh(assets.BuiltinCube, builtin(t, assets.BuiltinCube))
	grey := [4]float32{0.8, 0.8, 0.8, 1}
	dl.Set(assets.BuiltinPlane, viewport.Instance{ID: 1, Color: grey, World: mgl32.Scale3D(12, 1, 8)})
	for i, x := range []float32{-2.5, 0, 2.5} {
		dl.Set(assets.BuiltinCube, viewport.Instance{ID: uint32(2 + i), Color: grey, World: mgl32.Translate3D(x, 0.5, 0)})
	}
	down := mgl32.Vec3{0, -1, 0}
	dl.SetLights([]viewport.Light{
		{Kind: scene.LightPoint, Color: mgl32.Vec3{1, 0.5, 0.15}.Mul(6), Position: mgl32.Vec3{-2.5, 1.6, 1.2}, Range: 4},
		{Kind: scene.LightSpot, Color: mgl32.Vec3{0.3, 0.5, 1}.Mul(20), Position: mgl32.Vec3{2.5, 3, 0.8}, Direction: down,
			CosInner: cosDeg(20), CosOuter: cosDeg(30)},
	})
	cam := viewport.DefaultCamera()
	cam.Pivot = mgl32.Vec3{0, 0.5, 0}
	cam.Distance = 9
	withRenderer(t, testW, testH, func(r *Renderer) {
		r.Settings.Grid = false
		img := render(t, r, dl, cam)
		compareGolden(t, "lights_point_spot", img)
		// Where the lights are the floor is bright (orange under the point light, blue under the spot); between them
		// it has the ambient only.
		at := func(p mgl32.Vec3) [3]uint8 {
			s := cam.ViewProj(testW, testH).Mul4x1(p.Vec4(1))
			x, y := int((s[0]/s[3]*0.5+0.5)*testW), int((0.5-s[1]/s[3]*0.5)*testH)
			c := img.RGBAAt(x, y)
			return [3]uint8{c.R, c.G, c.B}
		}
		point, spot, between := at(mgl32.Vec3{-2.5, 0, 1.3}), at(mgl32.Vec3{2.5, 0, 1.2}), at(mgl32.Vec3{0, 0, 2.5})
		if point[0] < between[0]+40 || point[0] <= point[2] {
			t.Errorf("under the point light %v, between the lights %v: want much brighter and orange", point, between)
		}
		if spot[2] < between[2]+40 || spot[2] <= spot[0] {
			t.Errorf("under the spot %v, between the lights %v: want much brighter and blue", spot, between)
		}
	})
}

func cosDeg(d float32) float32 {
	return mgl32.Vec2{1, 0}.Dot(mgl32.Rotate2D(mgl32.DegToRad(d)).Mul2x1(mgl32.Vec2{1, 0}))
}

// TestPlainSceneDrawsWithTheOneLightProgram: cubes in their colours lit by the default rig are drawn by the
// variant for one directional light without a material, which the renderer makes when it is made; the material
// variants and the loop over the scene's lights (more work in every pixel on a software rasteriser) are not made
// for them. A scene with a point light is drawn by the loop.
func TestPlainSceneDrawsWithTheOneLightProgram(t *testing.T) {
	cubesDrawn(t, 4, func(r *Renderer, dl *viewport.DrawList, cam viewport.Camera) {
		for v, p := range r.d.meshProgs {
			if p != nil && variant(v)&varMaterial != 0 {
				t.Errorf("a scene without materials made material variant %b", v)
			}
		}
		if v := variantInUse(r); v&varOneLight == 0 {
			t.Errorf("the default rig's cubes were drawn by variant %b, want ONE_LIGHT", v)
		}
		dl.SetLights([]viewport.Light{{Kind: scene.LightPoint, Color: mgl32.Vec3{1, 1, 1}, Position: mgl32.Vec3{0, 3, 0}}})
		render(t, r, dl, cam)
		if v := variantInUse(r); v&varOneLight != 0 {
			t.Errorf("cubes under a point light were drawn by variant %b, want the loop over the lights", v)
		}
	})
}

// variantInUse returns the variant of r's mesh program in use (the last drawn with).
func variantInUse(r *Renderer) variant {
	for v, p := range r.d.meshProgs {
		if p != nil && p == r.d.inUse {
			return variant(v)
		}
	}
	return 0
}

// TestOneLightDrawsAsTheLightLoop: a scene lit by one directional light looks the same drawn by the ONE_LIGHT
// variant and by the loop over the lights (the same light and a black point light beside it).
func TestOneLightDrawsAsTheLightLoop(t *testing.T) {
	dl := cubesScene(t, 4)
	cam := viewport.DefaultCamera()
	cam.Frame(dl.Bounds(), float32(testW)/testH)
	sun := viewport.Light{Kind: scene.LightDirectional, Color: mgl32.Vec3{1, 0.9, 0.8}.Mul(2),
		Direction: mgl32.Vec3{-0.3, -1, -0.5}.Normalize()}
	withRenderer(t, testW, testH, func(r *Renderer) {
		dl.SetLights([]viewport.Light{sun})
		one := render(t, r, dl, cam)
		dl.SetLights([]viewport.Light{sun, {Kind: scene.LightPoint, Position: mgl32.Vec3{0, 2, 0}}})
		loop := render(t, r, dl, cam)
		if _, n := diffImages(one, loop, 1); n != 0 {
			t.Errorf("%d pixels differ between the ONE_LIGHT variant and the loop over the lights", n)
		}
	})
}
