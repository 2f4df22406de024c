package glrender

import (
	"slices"

	"github.com/go-gl/gl/v4.1-core/gl"
)

// variant is a mesh program's set of features (its GLSL defines), a bit each. What a flat-coloured or plainly
// textured mesh needs are the low bits (variantPlain programs, made by init); the rest are made on first use, so
// that a mesh without vertex colours or extra maps runs the same shader however many other meshes have them.
type variant uint8

// Variant bits.
const (
	varMaterial    variant = 1 << iota // MATERIAL: a viewport.Material's surface
	varPulled                          // pulledVS (pull.go)
	varFlat                            // FLAT_NORMAL (flat.go)
	varVertexColor                     // VERTEX_COLOR: the mesh's colours multiply the surface's
	varNormalMap                       // NORMAL_MAP: a material's normal texture, with the mesh's tangents
	varOcclusion                       // OCCLUSION_MAP: a material's occlusion texture darkens the ambient light
	varEmissiveMap                     // EMISSIVE_MAP: a material's emissive texture multiplies its emission
	varUV1                             // UV1: some of a material's textures read the mesh's second texture coordinates
	variantCount   = 1 << iota

	variantPlain = varFlat << 1 // the variants below this one: made by init
)

// variantDefines are the defines of each variant bit, in bit order.
var variantDefines = [...]string{"MATERIAL", "", "FLAT_NORMAL", "VERTEX_COLOR", "NORMAL_MAP", "OCCLUSION_MAP", "EMISSIVE_MAP", "UV1"}

// variantOf is the variant that draws gm with mat (nil: the instances' colours), pulled or not. A normal map needs
// the mesh's tangents; without them the mesh is drawn with its own normals. A texture that names the second
// texture coordinates reads the first ones on a mesh without.
func variantOf(gm *gpuMesh, mat *gpuMaterial, pull bool) variant {
	var v variant
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

// makeVariant makes variant v during a pass and gives it the pass's uniforms; it is left in use. Should it not
// compile (it does wherever the plain ones do), the plain variant below it draws instead, without the features.
func (d *drawer) makeVariant(v variant) *program {
	p, err := d.program(v)
	if err != nil {
		p = d.meshProgs[v%variantPlain]
		d.meshProgs[v] = p
		gl.UseProgram(p.id)
	}
	if d.pass != nil {
		d.passUniforms(p)
	}
	d.inUse = p
	return p
}
