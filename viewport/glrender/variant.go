package glrender

import (
	"slices"

	"github.com/go-gl/gl/v4.1-core/gl"
)

// variant is a mesh program's set of features (its GLSL defines), a bit each. What a flat-coloured or plainly
// textured mesh needs are the low bits (variantPlain); init makes those that draw in the instances' colours lit
// by one directional light (the default rig), the rest are made on first use, so that a scene runs only the
// shaders it needs (a mesh without vertex colours or extra maps runs the same shader however many other meshes
// have them).
type variant uint16

// Variant bits.
const (
	varMaterial variant = 1 << iota // MATERIAL: a viewport.Material's surface
	varPulled                       // pulledVS (pull.go)
	varFlat                         // FLAT_NORMAL (flat.go)
	// ONE_LIGHT: lit by one directional light (the first), without the loop over the lights, whose every pixel
	// and iteration a software rasteriser pays for even when there is one light.
	varOneLight
	varVertexColor // VERTEX_COLOR: the mesh's colours multiply the surface's
	varNormalMap   // NORMAL_MAP: a material's normal texture, with the mesh's tangents
	varOcclusion   // OCCLUSION_MAP: a material's occlusion texture darkens the ambient light
	varEmissiveMap // EMISSIVE_MAP: a material's emissive texture multiplies its emission
	varUV1         // UV1: some of a material's textures read the mesh's second texture coordinates
	variantCount   = 1 << iota

	variantPlain = varOneLight << 1 // the variants below this one: without a mesh's or a material's extras
)

// variantDefines are the defines of each variant bit, in bit order.
var variantDefines = [...]string{"MATERIAL", "", "FLAT_NORMAL", "ONE_LIGHT", "VERTEX_COLOR", "NORMAL_MAP", "OCCLUSION_MAP", "EMISSIVE_MAP", "UV1"}

// variantOf is the variant that draws gm with mat (nil: the instances' colours), pulled or not, lit by one
// directional light or not. A normal map needs the mesh's tangents; without them the mesh is drawn with its own
// normals. A texture that names the second texture coordinates reads the first ones on a mesh without.
func variantOf(gm *gpuMesh, mat *gpuMaterial, pull, oneLight bool) variant {
	var v variant
	if oneLight {
		v |= varOneLight
	}
	if mat != nil {
		v |= varMaterial
		if mat.has(slotNormal) && gm.tangents != 0 {
			v |= varNormalMap
		}
		if mat.has(slotOcclusion) {
			v |= varOcclusion
		}
		if mat.has(slotEmissive) {
			v |= varEmissiveMap
		}
		if mat.uv1Slots != 0 && gm.uvs1 != 0 {
			v |= varUV1
		}
	}
	if pull {
		v |= varPulled
	}
	if gm.flat {
		v |= varFlat
	}
	if gm.colors != 0 {
		v |= varVertexColor
	}
	return v
}

// program compiles and links variant v, keeps it in meshProgs and leaves it in use with its samplers set.
func (d *drawer) program(v variant) (*program, error) {
	var defines []string
	for bit, def := range variantDefines {
		if v&(1<<bit) != 0 && def != "" {
			defines = append(defines, def)
		}
	}
	var p *program
	var err error
	if v&varPulled != 0 {
		p, err = newProgram("pulled mesh program", pulledVS, meshFS, append(defines, pulledDefines...),
			slices.Concat(meshUniforms, []string{"uInst", "uMesh", "uShift", "uBase", "uStride"})...)
	} else {
		p, err = newProgram("mesh program", meshVS, meshFS, defines, meshUniforms...)
	}
	if err != nil {
		return nil, err
	}
	gl.UseProgram(p.id)
	if v&varPulled != 0 {
		gl.Uniform1i(p.loc("uInst"), unitInst)
		gl.Uniform1i(p.loc("uMesh"), unitMesh)
	}
	for _, s := range materialSlots {
		gl.Uniform1i(p.loc(s.sampler), int32(s.unit))
	}
	d.meshProgs[v] = p
	return p, nil
}

// makeVariant makes variant v during a pass; it is left in use. Should it not compile (it does wherever the ones
// init made do), the plain variant below it draws instead, without the features, or else the one init made.
func (d *drawer) makeVariant(v variant) *program {
	p, err := d.program(v)
	if err != nil {
		if p = d.meshProgs[v%variantPlain]; p == nil {
			if p, err = d.program(v % variantPlain); err != nil {
				p = d.meshProgs[v&(varPulled|varFlat)|varOneLight]
			}
		}
		d.meshProgs[v] = p
		gl.UseProgram(p.id)
	}
	d.inUse = p
	return p
}
