package serialize

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
)

// shinyMaterial is a material with every field away from its default.
func shinyMaterial() scene.Material {
	tex := func(img string, n float32) scene.Texture {
		return scene.Texture{Image: img, UV: 1, WrapS: scene.WrapClamp, WrapT: scene.WrapMirror, MagFilter: scene.FilterNearest,
			MinFilter: scene.FilterNearest, Mipmaps: scene.MipmapsNone, Offset: mgl32.Vec2{n, -n}, Scale: mgl32.Vec2{2, 3}, Rotation: 30 + n}
	}
	return scene.Material{
		BaseColor: [4]float32{0.5, 0.25, 0.125, 0.75}, BaseColorTexture: tex("textures/brick.png", 1),
		Metallic: 0.25, Roughness: 0.5, MetallicRoughnessTexture: tex("model.glb#image/1", 2),
		NormalTexture: tex("model.glb#image/2", 3), NormalScale: 0.5,
		OcclusionTexture: tex("ao.jpg", 4), OcclusionStrength: 0.75,
		Emissive: [3]float32{1, 0.5, 0}, EmissiveStrength: 4, EmissiveTexture: tex("glow.png", 5),
		AlphaMode: scene.AlphaMask, AlphaCutoff: 0.25, DoubleSided: true,
	}
}

// TestMaterialLightCameraRoundTrip: every field of Material, Light and an orthographic Camera
// survives save → load, and the reloaded world saves to the same bytes.
func TestMaterialLightCameraRoundTrip(t *testing.T) {
	w := testWorld()
	mat := shinyMaterial()
	light := scene.Light{Kind: scene.LightSpot, Color: [3]float32{1, 0.5, 0.25}, Intensity: 800, Range: 12, InnerCone: 10, OuterCone: 35}
	cam := scene.Camera{Projection: scene.Orthographic, FOV: 40, Aspect: 1.5, XMag: 4, YMag: 3, Near: 0.5, Far: 50}
	w.Spawn(&ecs.Transform{Scale: mgl32.Vec3{1, 1, 1}}, &scene.Name{Value: "Lit"}, &mat, &light, &cam)
	first := saveBytes(t, &Scene{Name: "M", World: w})
	for _, want := range []string{`"Material": {`, `"image": "model.glb#image/1"`, `"alphaMode": 1`, `"Light": {`, `"kind": 2`, `"projection": 1`} {
		if !bytes.Contains(first, []byte(want)) {
			t.Errorf("saved file lacks %s:\n%s", want, first)
		}
	}
	s, err := Load(context.Background(), bytes.NewReader(first), LoadOptions{NewWorld: testWorld})
	if err != nil {
		t.Fatal(err)
	}
	sameWorlds(t, w, s.World)
	if again := saveBytes(t, s); !bytes.Equal(first, again) {
		t.Errorf("re-save differs:\n%s", firstDiff(first, again))
	}
}

// TestMaterialLightCameraDefaults: fields a file leaves out take glTF's defaults (also inside a
// texture), and a camera written before the orthographic fields existed is the same perspective
// camera.
func TestMaterialLightCameraDefaults(t *testing.T) {
	s, err := loadString(t, sceneHead+`{"id": 1, "components": {"Material": {"metallic": 0, "baseColorTexture": {"image": "a.png"}},
		"Light": {"kind": 0}, "Camera": {"fov": 50, "near": 0.1, "far": 500}}}]}`)
	if err != nil {
		t.Fatal(err)
	}
	e := scene.EnsureIDs(s.World)[0]
	mat := ecs.NewMap[scene.Material](s.World).Get(e)
	want := scene.Material{}.Default()
	want.Metallic = 0
	want.BaseColorTexture.Image = "a.png"
	if mat != want {
		t.Errorf("material %+v\nwant %+v", mat, want)
	}
	if mat.Roughness != 1 || mat.BaseColor != [4]float32{1, 1, 1, 1} || mat.BaseColorTexture.Scale != (mgl32.Vec2{1, 1}) || mat.AlphaCutoff != 0.5 {
		t.Errorf("glTF defaults not filled: %+v", mat)
	}
	if l := ecs.NewMap[scene.Light](s.World).Get(e); l != (scene.Light{Kind: scene.LightDirectional, Color: [3]float32{1, 1, 1}, Intensity: 1, OuterCone: 45}) {
		t.Errorf("light %+v", l)
	}
	if c := ecs.NewMap[scene.Camera](s.World).Get(e); c != (scene.Camera{FOV: 50, Near: 0.1, Far: 500}) {
		t.Errorf("camera %+v", c)
	}
}

// TestMaterialLightCameraRefusals: values out of range, enums out of their set and unsafe texture
// paths are refused with their position and path.
func TestMaterialLightCameraRefusals(t *testing.T) {
	for _, tc := range []struct{ comp, want string }{
		{`"Material": {"alphaMode": 3}`, `t.json:2:43: entities[0].components.Material.alphaMode: 3 is not a value of AlphaMode (Opaque=0, Mask=1, Blend=2)`},
		{`"Material": {"roughness": 1.5}`, `entities[0].components.Material.roughness: 1.5 is outside the allowed range 0..1`},
		{`"Material": {"emissiveTexture": {"image": "../secret.png"}}`, `entities[0].components.Material.emissiveTexture.image: path "../secret.png" refused`},
		{`"Material": {"normalTexture": {"wrapS": 7}}`, `entities[0].components.Material.normalTexture.wrapS: 7 is not a value of Wrap`},
		{`"Light": {"outerCone": 100}`, `entities[0].components.Light.outerCone: 100 is outside the allowed range 0..90`},
		{`"Light": {"kind": -1}`, `entities[0].components.Light.kind:`},
		{`"Camera": {"projection": 2}`, `entities[0].components.Camera.projection: 2 is not a value of Projection (Perspective=0, Orthographic=1)`},
	} {
		_, err := loadString(t, sceneHead+"{\"id\": 1,\n \"components\": {"+tc.comp+"}}]}")
		if got := problemsText(err); !strings.Contains(got, tc.want) {
			t.Errorf("%s:\n got %s\nwant %s", tc.comp, got, tc.want)
		}
	}
}
