package glrender

import (
	"unsafe"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/voltex-editor/voltex/assets"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/viewport"
)

// A material's textures, by slot: base colour, metallic-roughness, normal, occlusion and emissive.
const (
	slotBase = iota
	slotMetalRough
	slotNormal
	slotOcclusion
	slotEmissive
	slotCount
)

// materialSlots are each slot's texture unit, its sampler and transform uniforms, and whether its texels are data
// (RGBA8) rather than sRGB colours.
var materialSlots = [slotCount]struct {
	unit            uint32
	sampler, r0, r1 string
	linear          bool
}{
	{5, "uBaseTex", "uUV0", "uUV1", false},
	{6, "uMRTex", "uMRUV0", "uMRUV1", true},
	{7, "uNormTex", "uNormUV0", "uNormUV1", true},
	{8, "uOccTex", "uOccUV0", "uOccUV1", true},
	{9, "uEmTex", "uEmUV0", "uEmUV1", false},
}

// Texture unit a texture is bound to while it is uploaded.
const unitBaseColor = 5

// materialUniforms are the mesh programs' material uniforms (meshFS).
var materialUniforms = func() []string {
	u := []string{"uBaseColor", "uMetalRough", "uEmissive", "uAlpha", "uTexOn", "uMRTexOn", "uNormScale", "uOccStrength", "uUV1Slots"}
	for _, s := range materialSlots {
		u = append(u, s.sampler, s.r0, s.r1)
	}
	return u
}()

// gpuTexture is one of a material's textures: its GL texture (0: none), what it is made from, and its transform's
// rows (a 2×3 affine matrix).
type gpuTexture struct {
	id         uint32
	key        textureKey
	row0, row1 [3]float32
}

// gpuMaterial is a viewport.Material's uniforms and textures.
type gpuMaterial struct {
	base       [4]float32
	metalRough [2]float32
	emissive   [3]float32
	alpha      [2]float32 // mode (0 opaque, 1 mask, 2 blend), cutoff
	normScale  float32
	occlusion  float32 // the occlusion texture's strength
	texs       [slotCount]gpuTexture
	uv1Slots   int32 // bit k: the texture of slot k reads the second texture coordinates
	blend      bool
	double     bool
}

// singleSided reports whether m's back faces are not drawn (nil: the default look, which lights them).
func (m *gpuMaterial) singleSided() bool { return m != nil && !m.double }

// textured reports whether m reads texture coordinates.
func (m *gpuMaterial) textured() bool {
	if m != nil {
		for _, t := range m.texs {
			if t.id != 0 {
				return true
			}
		}
	}
	return false
}

// has reports whether m has the texture of slot.
func (m *gpuMaterial) has(slot int) bool { return m != nil && m.texs[slot].id != 0 }

// material returns the GPU side of m (nil for nil), uploading its textures on first use.
func (d *drawer) material(m *viewport.Material) *gpuMaterial {
	if m == nil {
		return nil
	}
	if gm, ok := d.materials[m]; ok {
		return gm
	}
	gm := &gpuMaterial{
		base: m.BaseColor, metalRough: [2]float32{clamp01(m.Metallic), clamp01(m.Roughness)},
		alpha:     [2]float32{float32(m.AlphaMode), m.AlphaCutoff},
		normScale: m.NormalScale, occlusion: clamp01(m.OcclusionStrength),
		blend: m.AlphaMode == scene.AlphaBlend, double: m.DoubleSided,
	}
	for i := range 3 {
		gm.emissive[i] = m.Emissive[i] * m.EmissiveStrength
	}
	for slot, src := range [slotCount]struct {
		img *assets.Image
		t   scene.Texture
	}{
		{m.BaseColorImage, m.BaseColorTexture}, {m.MetallicRoughnessImage, m.MetallicRoughnessTexture},
		{m.NormalImage, m.NormalTexture}, {m.OcclusionImage, m.OcclusionTexture}, {m.EmissiveImage, m.EmissiveTexture},
	} {
		t := &gm.texs[slot]
		if src.img != nil {
			t.key = newTextureKey(src.img, src.t, materialSlots[slot].linear)
			t.id = d.texture(t.key)
			if t.id != 0 && src.t.UV == 1 {
				gm.uv1Slots |= 1 << slot
			}
		}
		t.row0, t.row1 = viewport.UVTransform(src.t)
	}
	d.materials[m] = gm
	return gm
}

func clamp01(v float32) float32 { return min(max(v, 0), 1) }

// newTextureKey returns the key of img sampled as t says; linear is for data (not colours, which are sRGB).
func newTextureKey(img *assets.Image, t scene.Texture, linear bool) textureKey {
	return textureKey{img, t.WrapS, t.WrapT, t.MagFilter, t.MinFilter, t.Mipmaps, linear}
}

// textureKey is what a texture is made from: an image (one per asset reference and version) and its sampling.
type textureKey struct {
	img          *assets.Image
	wrapS, wrapT scene.Wrap
	mag, min     scene.Filter
	mips         scene.Mipmaps
	linear       bool // RGBA8 data, not SRGB8_ALPHA8 colours
}

// sharedTexture is a texture and the materials using it.
type sharedTexture struct {
	id    uint32
	users int
}

// texture returns the 2D texture of k (shared by the materials using it), uploading it on first use: sRGB texels
// (SRGB8_ALPHA8: read in linear space), with mipmaps unless k has none.
func (d *drawer) texture(k textureKey) uint32 {
	img := k.img
	if img.Width <= 0 || img.Height <= 0 || len(img.Pix) < img.Width*img.Height*4 {
		return 0
	}
	if st, ok := d.textures[k]; ok {
		st.users++
		return st.id
	}
	t := scene.Texture{WrapS: k.wrapS, WrapT: k.wrapT, MagFilter: k.mag, MinFilter: k.min, Mipmaps: k.mips}
	var tex uint32
	gl.GenTextures(1, &tex)
	gl.ActiveTexture(gl.TEXTURE0 + unitBaseColor)
	gl.BindTexture(gl.TEXTURE_2D, tex)
	gl.PixelStorei(gl.UNPACK_ALIGNMENT, 1)
	format := int32(gl.SRGB8_ALPHA8)
	if k.linear {
		format = gl.RGBA8
	}
	gl.TexImage2D(gl.TEXTURE_2D, 0, format, int32(img.Width), int32(img.Height), 0, gl.RGBA, gl.UNSIGNED_BYTE,
		unsafe.Pointer(&img.Pix[0]))
	gl.PixelStorei(gl.UNPACK_ALIGNMENT, 4)
	d.countUpload(nil, len(img.Pix))
	wrap := func(w scene.Wrap) int32 {
		switch w {
		case scene.WrapClamp:
			return gl.CLAMP_TO_EDGE
		case scene.WrapMirror:
			return gl.MIRRORED_REPEAT
		}
		return gl.REPEAT
	}
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, wrap(t.WrapS))
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, wrap(t.WrapT))
	mag := int32(gl.LINEAR)
	if t.MagFilter == scene.FilterNearest {
		mag = gl.NEAREST
	}
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, mag)
	near := t.MinFilter == scene.FilterNearest
	minf := map[[2]int]int32{
		{0, int(scene.MipmapsLinear)}: gl.LINEAR_MIPMAP_LINEAR, {1, int(scene.MipmapsLinear)}: gl.NEAREST_MIPMAP_LINEAR,
		{0, int(scene.MipmapsNearest)}: gl.LINEAR_MIPMAP_NEAREST, {1, int(scene.MipmapsNearest)}: gl.NEAREST_MIPMAP_NEAREST,
		{0, int(scene.MipmapsNone)}: gl.LINEAR, {1, int(scene.MipmapsNone)}: gl.NEAREST,
	}[[2]int{b2i(near), int(t.Mipmaps)}]
	if minf == 0 {
		minf = gl.LINEAR_MIPMAP_LINEAR
	}
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, minf)
	if t.Mipmaps != scene.MipmapsNone {
		gl.GenerateMipmap(gl.TEXTURE_2D)
	}
	gl.BindTexture(gl.TEXTURE_2D, 0)
	gl.ActiveTexture(gl.TEXTURE0)
	d.textures[k] = &sharedTexture{id: tex, users: 1}
	return tex
}

// keepMaterials frees the materials (and their textures) that used does not report used.
func (d *drawer) keepMaterials(used func(m *viewport.Material) bool) {
	for m, gm := range d.materials {
		if !used(m) {
			for _, t := range gm.texs {
				if st, ok := d.textures[t.key]; ok && t.key.img != nil {
					if st.users--; st.users == 0 {
						gl.DeleteTextures(1, &st.id)
						delete(d.textures, t.key)
					}
				}
			}
			delete(d.materials, m)
		}
	}
	if d.matSet != nil {
		d.matSet, d.matProg = nil, nil
	}
}

// useMaterial gives the program in use mat's uniforms and binds its texture.
func (d *drawer) useMaterial(mat *gpuMaterial) {
	if d.matSet == mat && d.matProg == d.inUse {
		return
	}
	setMaterial(d.inUse, mat)
	d.matSet, d.matProg = mat, d.inUse
}

// setMaterial sets mat's uniforms in p, a material program in use, and binds its textures. Uniforms a variant
// lacks have location -1, which GL ignores.
func setMaterial(p *program, mat *gpuMaterial) {
	gl.Uniform4fv(p.loc("uBaseColor"), 1, &mat.base[0])
	gl.Uniform2fv(p.loc("uMetalRough"), 1, &mat.metalRough[0])
	gl.Uniform3fv(p.loc("uEmissive"), 1, &mat.emissive[0])
	gl.Uniform2fv(p.loc("uAlpha"), 1, &mat.alpha[0])
	gl.Uniform1i(p.loc("uTexOn"), int32(b2i(mat.has(slotBase))))
	gl.Uniform1i(p.loc("uMRTexOn"), int32(b2i(mat.has(slotMetalRough))))
	if mat.has(slotNormal) {
		gl.Uniform1f(p.loc("uNormScale"), mat.normScale)
	}
	if mat.has(slotOcclusion) {
		gl.Uniform1f(p.loc("uOccStrength"), mat.occlusion)
	}
	if mat.uv1Slots != 0 {
		gl.Uniform1i(p.loc("uUV1Slots"), mat.uv1Slots)
	}
	for slot, t := range mat.texs {
		if t.id != 0 { // a texture's transform is read only when it is there
			s := &materialSlots[slot]
			gl.Uniform3fv(p.loc(s.r0), 1, &t.row0[0])
			gl.Uniform3fv(p.loc(s.r1), 1, &t.row1[0])
			gl.ActiveTexture(gl.TEXTURE0 + s.unit)
			gl.BindTexture(gl.TEXTURE_2D, t.id)
		}
	}
	gl.ActiveTexture(gl.TEXTURE0)
}

// blend turns a blended material's state on (blending, no depth writes) or off.
func (d *drawer) blend(on bool) {
	if on == d.blending {
		return
	}
	if on {
		gl.Enable(gl.BLEND)
		gl.BlendFuncSeparate(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA, gl.ZERO, gl.ONE)
		gl.DepthMask(false)
	} else {
		gl.Disable(gl.BLEND)
		gl.DepthMask(true)
	}
	d.blending = on
}
