package serialize

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/serialize/game"
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

// TestMaterialLightCameraExport: Material, Light and Camera go into the export and the game loader
// gives them back typed, every field as the editor had it, with the images the scene uses listed.
func TestMaterialLightCameraExport(t *testing.T) {
	w := testWorld()
	mat := shinyMaterial()
	light := scene.Light{Kind: scene.LightSpot, Color: [3]float32{1, 0.5, 0.25}, Intensity: 800, Range: 12, InnerCone: 10, OuterCone: 35}
	cam := scene.Camera{Projection: scene.Orthographic, FOV: 40, Aspect: 1.5, XMag: 4, YMag: 3, Near: 0.5, Far: 50}
	w.Spawn(&ecs.Transform{Scale: mgl32.Vec3{1, 1, 1}}, &scene.Name{Value: "Lit"}, &mat, &light, &cam)
	w.Spawn(&ecs.Transform{Scale: mgl32.Vec3{1, 1, 1}}, &scene.Name{Value: "Plain"}, &scene.Mesh{Asset: "ship.glb#mesh/Hull/0"})
	data := exportBytes(t, &Scene{Name: "M", World: w})
	gs, err := game.LoadWith(bytes.NewReader(data), "m.export.json", game.Limits{})
	if err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	var lit, plain *game.Entity
	for i := range gs.Entities {
		switch gs.Entities[i].Name {
		case "Lit":
			lit = &gs.Entities[i]
		case "Plain":
			plain = &gs.Entities[i]
		}
	}
	if lit == nil || plain == nil {
		t.Fatal("entities missing")
	}
	gm := lit.Material
	if gm == nil || lit.Light == nil || lit.Camera == nil || len(lit.Components) != 0 {
		t.Fatalf("typed components missing: %+v", lit)
	}
	tex := func(st scene.Texture) game.Texture {
		return game.Texture{Image: st.Image, UV: int(st.UV), WrapS: int(st.WrapS), WrapT: int(st.WrapT), MagFilter: int(st.MagFilter),
			MinFilter: int(st.MinFilter), Mipmaps: int(st.Mipmaps), Offset: st.Offset, Scale: st.Scale, Rotation: st.Rotation}
	}
	want := game.Material{BaseColor: mat.BaseColor, BaseColorTexture: tex(mat.BaseColorTexture), Metallic: mat.Metallic, Roughness: mat.Roughness,
		MetallicRoughnessTexture: tex(mat.MetallicRoughnessTexture), NormalTexture: tex(mat.NormalTexture), NormalScale: mat.NormalScale,
		OcclusionTexture: tex(mat.OcclusionTexture), OcclusionStrength: mat.OcclusionStrength, Emissive: mat.Emissive,
		EmissiveStrength: mat.EmissiveStrength, EmissiveTexture: tex(mat.EmissiveTexture), AlphaMode: int(mat.AlphaMode),
		AlphaCutoff: mat.AlphaCutoff, DoubleSided: mat.DoubleSided}
	if *gm != want {
		t.Errorf("material\n got %+v\nwant %+v", *gm, want)
	}
	if *lit.Light != (game.Light{Kind: 2, Color: light.Color, Intensity: 800, Range: 12, InnerCone: 10, OuterCone: 35}) {
		t.Errorf("light %+v", *lit.Light)
	}
	if *lit.Camera != (game.Camera{Orthographic: true, FOV: 40, Aspect: 1.5, XMag: 4, YMag: 3, Near: 0.5, Far: 50}) {
		t.Errorf("camera %+v", *lit.Camera)
	}
	if plain.Mesh < 0 || gs.Meshes[plain.Mesh] != "ship.glb#mesh/Hull/0" {
		t.Errorf("mesh part %d of %q", plain.Mesh, gs.Meshes)
	}
	if got := strings.Join(gs.Images(), ","); got != "textures/brick.png,model.glb#image/1,model.glb#image/2,ao.jpg,glow.png" {
		t.Errorf("Images() = %s", got)
	}
	// A game spawning the export into a world gets the components back as they were.
	gw := testWorld()
	ents, err := SpawnExport(gw, gs)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if ecs.NewMap[scene.Name](gw).Get(e).Value != "Lit" {
			continue
		}
		if got := ecs.NewMap[scene.Material](gw).Get(e); got != mat {
			t.Errorf("spawned material %+v", got)
		}
		if got := ecs.NewMap[scene.Light](gw).Get(e); got != light {
			t.Errorf("spawned light %+v", got)
		}
		if got := ecs.NewMap[scene.Camera](gw).Get(e); got != cam {
			t.Errorf("spawned camera %+v", got)
		}
	}
}

// TestGameRefusesBadMaterials: the game loader refuses an image path out of the folder, values out
// of range or of their set and unknown fields, at their position.
func TestGameRefusesBadMaterials(t *testing.T) {
	head := `{"format": "voltex.export", "version": 1, "meshes": [], "entities": [{"name": "a", "parent": -1, "mesh": -1,
 "world": [1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1], "components": {`
	for comp, want := range map[string]string{
		`"Material": {"emissiveTexture": {"image": "../../etc/x.png"}}`: `x:3:44: entities[0].components.Material.emissiveTexture.image: path "../../etc/x.png" refused`,
		`"Material": {"alphaMode": 4}`:                                  `x:3:28: entities[0].components.Material.alphaMode: expected an integer from 0 to 2, got 4`,
		`"Material": {"roughness": -1}`:                                 `x:3:28: entities[0].components.Material.roughness: expected a number within 0..1, got -1`,
		`"Material": {"baseColorTexture": {"wrapS": 3}}`:                `entities[0].components.Material.baseColorTexture.wrapS: expected an integer from 0 to 2, got 3`,
		`"Material": {"shiny": true}`:                                   `entities[0].components.Material.shiny: unknown field`,
		`"Light": {"outerCone": 91}`:                                    `entities[0].components.Light.outerCone: expected a number within 0..90, got 91`,
		`"Light": {"intensity": -2}`:                                    `entities[0].components.Light.intensity: expected a number of at least 0, got -2`,
		`"Camera": {"projection": 2}`:                                   `entities[0].components.Camera.projection: expected an integer from 0 to 1, got 2`,
	} {
		_, err := game.LoadWith(strings.NewReader(head+"\n "+comp+"}}]}"), "x", game.Limits{})
		if got := problemsText(err); !strings.Contains(got, want) {
			t.Errorf("%s:\n got %s\nwant %s", comp, got, want)
		}
	}
}
