package glrender

import (
	"fmt"
	"image/color"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/assets"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/viewport"
)

// withExtras returns a copy of mesh m with every vertex of colour c (nil: none) and tangent tg (nil: none).
func withExtras(m *assets.Mesh, c, tg []float32) *assets.Mesh {
	out := *m
	out.Colors, out.Tangents = nil, nil
	for range m.VertexCount() {
		out.Colors = append(out.Colors, c...)
		out.Tangents = append(out.Tangents, tg...)
	}
	return &out
}

// solid is a 1×1 image of one colour.
func solid(c [4]byte) *assets.Image {
	return &assets.Image{Ref: fmt.Sprint(c), Width: 1, Height: 1, Pix: c[:]}
}

// centre draws the ground plane (scaled 4×) seen from above, with mesh m and material mat (nil: none), lit by
// one directional light shining straight down, on both software-renderer paths, and returns the centre pixel of
// each (software, GPU) and the variants made beyond the plain ones (whether pulled or lit by one light left out).
func centre(t *testing.T, m *assets.Mesh, mat *viewport.Material) (px [2]color.RGBA, made [2][]variant) {
	t.Helper()
	dl := viewport.NewDrawList()
	dl.SetMesh("p", m)
	dl.SetMaterial("p", mat)
	dl.Set("p", viewport.Instance{ID: 1, Color: white, World: mgl32.Scale3D(4, 1, 4)})
	dl.SetLights([]viewport.Light{{Kind: scene.LightDirectional, Color: mgl32.Vec3{0.8, 0.8, 0.8}, Direction: mgl32.Vec3{0, -1, 0}}})
	cam := viewport.DefaultCamera()
	cam.Pitch, cam.Distance = -50, 3 // off the specular highlight
	for i, software := range []bool{true, false} {
		withSwitch(t, 64, 64, software, func(r *Renderer) {
			r.Settings.Grid = false
			px[i] = render(t, r, dl, cam).RGBAAt(32, 32)
			for v := int(variantPlain); v < variantCount; v++ {
				if r.d.meshProgs[v] != nil {
					made[i] = append(made[i], variant(v)&^(varPulled|varOneLight))
				}
			}
		})
	}
	if px[0] != px[1] {
		t.Errorf("software paths %v, GPU paths %v: want the same", px[0], px[1])
	}
	return px, made
}

func plainMaterial() scene.Material {
	m := scene.Material{}.Default()
	m.Metallic, m.Roughness = 0, 1
	return m
}

// TestVertexColoursMultiplyTheSurface: a mesh's vertex colours tint what it is drawn in — its instances' colour
// or its material's — through a variant of its own; a mesh without them makes no variant.
func TestVertexColoursMultiplyTheSurface(t *testing.T) {
	plane := builtin(t, assets.BuiltinPlane)
	green := withExtras(plane, []float32{0.1, 1, 0.1, 1}, nil)
	mat := &viewport.Material{Material: plainMaterial()}
	for _, c := range []struct {
		name string
		mat  *viewport.Material
		want variant
	}{{"instance colour", nil, varVertexColor}, {"material", mat, varVertexColor | varMaterial}} {
		px, made := centre(t, green, c.mat)
		if p := px[0]; p.G < 150 || p.R > p.G/2 || p.B > p.G/2 {
			t.Errorf("%s: green vertices drawn %v", c.name, p)
		}
		if len(made[0]) != 1 || made[0][0] != c.want {
			t.Errorf("%s: variants made %v, want %v", c.name, made[0], c.want)
		}
		px, made = centre(t, plane, c.mat)
		if p := px[0]; p.G < 150 || p.R < p.G-20 || p.B < p.G-20 {
			t.Errorf("%s: the plain plane drawn %v, want white-grey", c.name, p)
		}
		if len(made[0]) != 0 || len(made[1]) != 0 {
			t.Errorf("%s: the plain plane made variants %v", c.name, made)
		}
	}
}

// TestNormalMapBendsTheNormal: a normal map whose normals lean along the tangent (+X) darkens a floor lit from
// straight above, by its scale; a flat one, a scale of 0, or a mesh without tangents leave it as lit.
func TestNormalMapBendsTheNormal(t *testing.T) {
	plane := builtin(t, assets.BuiltinPlane)
	tangents := withExtras(plane, nil, []float32{1, 0, 0, 1})
	lit := func(m *assets.Mesh, img *assets.Image, scale float32) (uint8, []variant) {
		t.Helper()
		mat := plainMaterial()
		mat.NormalScale = scale
		px, made := centre(t, m, &viewport.Material{Material: mat, NormalImage: img})
		return px[0].G, made[0]
	}
	flat, _ := lit(plane, nil, 1)
	leaning := solid([4]byte{218, 128, 202, 255}) // about 60° from the normal towards +X
	bent, made := lit(tangents, leaning, 1)
	if bent+30 > flat || len(made) != 1 || made[0] != varMaterial|varNormalMap {
		t.Errorf("leaning normal map: %d (variants %v); without: %d: want much darker, drawn with NORMAL_MAP", bent, made, flat)
	}
	if half, _ := lit(tangents, leaning, 0.4); half <= bent+5 || half >= flat {
		t.Errorf("scale 0.4: %d, want between %d and %d", half, bent, flat)
	}
	for name, g := range map[string]uint8{
		"flat map": first(lit(tangents, solid([4]byte{128, 128, 255, 255}), 1)),
		"scale 0":  first(lit(tangents, leaning, 0)),
		"no tangents": func() uint8 {
			g, made := lit(plane, leaning, 1)
			if len(made) != 0 {
				t.Errorf("no tangents: variants %v, want none", made)
			}
			return g
		}(),
	} {
		if d := int(g) - int(flat); d < -4 || d > 4 {
			t.Errorf("%s: %d, want as without a normal map (%d)", name, g, flat)
		}
	}
}

func first[A, B any](a A, _ B) A { return a }

// TestOcclusionAndEmissiveMaps: an occlusion texture darkens the surface by its strength (the ambient light it
// receives); an emissive texture multiplies the emission, which shows on a black surface.
func TestOcclusionAndEmissiveMaps(t *testing.T) {
	plane := builtin(t, assets.BuiltinPlane)
	occluded := func(strength float32) uint8 {
		mat := plainMaterial()
		mat.OcclusionStrength = strength
		px, made := centre(t, plane, &viewport.Material{Material: mat, OcclusionImage: solid([4]byte{0, 0, 0, 255})})
		if len(made[0]) != 1 || made[0][0] != varMaterial|varOcclusion {
			t.Errorf("variants %v, want MATERIAL with OCCLUSION_MAP", made[0])
		}
		return px[0].G
	}
	if none, full := occluded(0), occluded(1); full+5 > none {
		t.Errorf("fully occluded %d, not at all %d: want darker", full, none)
	}
	black := plainMaterial()
	black.BaseColor = [4]float32{0, 0, 0, 1}
	black.Emissive, black.EmissiveStrength = [3]float32{1, 1, 1}, 0.5
	px, made := centre(t, plane, &viewport.Material{Material: black, EmissiveImage: solid([4]byte{0, 255, 0, 255})})
	if p := px[0]; p.G < 150 || p.R > 40 || p.B > 40 || len(made[0]) != 1 || made[0][0] != varMaterial|varEmissiveMap {
		t.Errorf("emissive green texture on black: %v (variants %v)", p, made[0])
	}
	px, _ = centre(t, plane, &viewport.Material{Material: black})
	if p := px[0]; p.G < 150 || p.R < 150 || p.B < 150 {
		t.Errorf("emissive white factor on black: %v", p)
	}
}

// stripes returns an n×n image of vertical stripes 2 texels wide, colours a and b.
func stripes(n int, a, b [4]byte) *assets.Image {
	img := &assets.Image{Ref: fmt.Sprint("stripes", a, b), Width: n, Height: n, Pix: make([]byte, 4*n*n)}
	for y := range n {
		for x := range n {
			c := a
			if x/2%2 == 1 {
				c = b
			}
			copy(img.Pix[4*(y*n+x):], c[:])
		}
	}
	return img
}

// TestGoldenMaterialMaps: a floor ridged by a normal map (stripes leaning left and right, repeated by the texture
// transform), a cube in vertex colours (its corners' positions), a white cube whose occlusion texture darkens
// its faces in stripes, and an upright black panel glowing through an emissive checker.
func TestGoldenMaterialMaps(t *testing.T) {
	dl := viewport.NewDrawList()
	plane, cube := builtin(t, assets.BuiltinPlane), builtin(t, assets.BuiltinCube)
	floor := plainMaterial()
	floor.BaseColor = [4]float32{0.7, 0.7, 0.75, 1}
	floor.NormalTexture.Scale = mgl32.Vec2{6, 6}
	dl.SetMesh("floor", withExtras(plane, nil, []float32{1, 0, 0, 1}))
	dl.SetMaterial("floor", &viewport.Material{Material: floor,
		NormalImage: stripes(8, [4]byte{218, 128, 202, 255}, [4]byte{38, 128, 202, 255})})
	dl.Set("floor", viewport.Instance{ID: 1, Color: white, World: mgl32.Scale3D(6, 1, 6)})

	coloured := *cube
	for i := range cube.VertexCount() {
		p := cube.Position(i)
		coloured.Colors = append(coloured.Colors, p[0]+0.5, p[1]+0.5, p[2]+0.5, 1)
	}
	dl.SetMesh("coloured", &coloured)
	dl.Set("coloured", viewport.Instance{ID: 2, Color: white, World: mgl32.Translate3D(-1.2, 0.5, 0.5)})

	occluded := plainMaterial()
	dl.SetMesh("occluded", cube)
	dl.SetMaterial("occluded", &viewport.Material{Material: occluded,
		OcclusionImage: stripes(8, [4]byte{255, 255, 255, 255}, [4]byte{40, 40, 40, 255})})
	dl.Set("occluded", viewport.Instance{ID: 3, Color: white, World: mgl32.Translate3D(1.2, 0.5, 0.5)})

	glow := plainMaterial()
	glow.BaseColor = [4]float32{0, 0, 0, 1}
	glow.Emissive, glow.EmissiveStrength = [3]float32{1, 0.6, 0.2}, 1
	dl.SetMesh("glow", plane)
	dl.SetMaterial("glow", &viewport.Material{Material: glow,
		EmissiveImage: checker(8, [4]byte{255, 255, 255, 255}, [4]byte{0, 0, 0, 255})})
	dl.Set("glow", viewport.Instance{ID: 4, Color: white,
		World: mgl32.Translate3D(0, 1.2, -1.5).Mul4(mgl32.HomogRotate3DX(mgl32.DegToRad(90))).Mul4(mgl32.Scale3D(2, 1, 2))})

	cam := viewport.DefaultCamera()
	cam.Pivot = mgl32.Vec3{0, 0.6, 0}
	cam.Distance = 7
	withRenderer(t, testW, testH, func(r *Renderer) {
		r.Settings.Grid = false
		compareGolden(t, "material_maps", render(t, r, dl, cam))
	})
}

// TestSecondTextureCoordinates: a texture that names the second texture coordinates reads them (here: an
// occlusion texture, dark where the second coordinates point and bright where the first ones do), through a
// variant of its own; on a mesh without them it reads the first ones.
func TestSecondTextureCoordinates(t *testing.T) {
	plane := builtin(t, assets.BuiltinPlane)
	twoUVs := *plane
	twoUVs.Vertices = append([]float32(nil), plane.Vertices...)
	for i := range plane.VertexCount() {
		twoUVs.Vertices[i*assets.FloatsPerVertex+6], twoUVs.Vertices[i*assets.FloatsPerVertex+7] = 0.1, 0.5
		twoUVs.UVs1 = append(twoUVs.UVs1, 0.4, 0.5)
	}
	oneUV := twoUVs
	oneUV.UVs1 = nil
	lit := func(m *assets.Mesh, uv uint8) (uint8, []variant) {
		mat := plainMaterial()
		tex := &mat.OcclusionTexture
		tex.UV, tex.MagFilter, tex.MinFilter, tex.Mipmaps = uv, scene.FilterNearest, scene.FilterNearest, scene.MipmapsNone
		px, made := centre(t, m, &viewport.Material{Material: mat, OcclusionImage: stripes(8, [4]byte{255, 255, 255, 255}, [4]byte{0, 0, 0, 255})})
		return px[0].G, made[0]
	}
	first, _ := lit(&twoUVs, 0)
	second, made := lit(&twoUVs, 1)
	if second+5 > first || len(made) != 1 || made[0] != varMaterial|varOcclusion|varUV1 {
		t.Errorf("occlusion by the second coordinates %d (variants %v), by the first %d: want darker, with UV1", second, made, first)
	}
	if without, made := lit(&oneUV, 1); without != first || len(made) != 1 || made[0] != varMaterial|varOcclusion {
		t.Errorf("a mesh without second coordinates: %d (variants %v), want %d as by the first", without, made, first)
	}
}
