package gltf

import (
	"fmt"
	"sort"

	"github.com/go-gl/mathgl/mgl32"
)

func (im *importer) loadMeshes() error {
	im.m.Meshes = make([]Mesh, len(im.doc.Meshes))
	for i, mj := range im.doc.Meshes {
		if len(mj.Primitives) == 0 {
			return fmt.Errorf("meshes[%d].primitives: empty (a mesh has at least one)", i)
		}
		me := Mesh{Name: mj.Name, Primitives: make([]Primitive, len(mj.Primitives))}
		for j, pj := range mj.Primitives {
			p, err := im.primitive(pj, fmt.Sprintf("meshes[%d].primitives[%d]", i, j))
			if err != nil {
				return err
			}
			me.Primitives[j] = p
		}
		im.m.Meshes[i] = me
	}
	return nil
}

func (im *importer) primitive(pj primitiveJSON, at string) (Primitive, error) {
	p := Primitive{Mode: ModeTriangles, Material: -1}
	if pj.Mode != nil {
		p.Mode = *pj.Mode
	}
	if pj.Material != nil {
		if err := index(*pj.Material, len(im.m.Materials), at+".material", "material"); err != nil {
			return p, err
		}
		p.Material = *pj.Material
	}
	switch p.Mode {
	case ModeTriangles, ModeTriangleStrip, ModeTriangleFan:
	case ModePoints, ModeLines, ModeLineLoop, ModeLineStrip:
		im.warn("%s: mode %d (points or lines) skipped: only triangles are imported", at, p.Mode)
		p.Skipped = true
		return p, nil
	default:
		return p, fmt.Errorf("%s.mode: %d is not a glTF primitive mode (0..6)", at, p.Mode)
	}
	pos, ok := pj.Attributes["POSITION"]
	if !ok {
		return p, fmt.Errorf("%s.attributes: no POSITION", at)
	}
	vertsLeft := int64(im.lim.MaxVertices - im.verts)
	const vertLimit = "vertices (Limits.MaxVertices)"
	f, _, err := im.floats(pos, at+".attributes.POSITION", vertsLeft, vertLimit, false, "VEC3")
	if err != nil {
		return p, err
	}
	n := len(f) / 3
	im.verts += n
	p.Positions = vec3s(f)
	// attr reads another attribute (nil if absent), which must have POSITION's count.
	attr := func(name string, normInts bool, types ...string) ([]float32, int, error) {
		a, ok := pj.Attributes[name]
		if !ok {
			return nil, 0, nil
		}
		f, nc, err := im.floats(a, at+".attributes."+name, int64(n), "the POSITION count", normInts, types...)
		if err == nil && len(f) != n*nc {
			err = fmt.Errorf("%s.attributes.%s: accessor %d has %d elements, POSITION has %d", at, name, a, len(f)/nc, n)
		}
		return f, nc, err
	}
	f, _, err = attr("NORMAL", false, "VEC3")
	if err != nil {
		return p, err
	}
	if f != nil {
		p.Normals = vec3s(f)
	}
	for k, dst := range []*[]mgl32.Vec2{&p.UVs, &p.UVs1} {
		f, _, err := attr(fmt.Sprintf("TEXCOORD_%d", k), false, "VEC2")
		if err != nil {
			return p, err
		}
		if f != nil {
			*dst = make([]mgl32.Vec2, n)
			for i := range *dst {
				(*dst)[i] = mgl32.Vec2{f[2*i], f[2*i+1]}
			}
		}
	}
	// Integer colours are normalized by definition (exporters that forget the flag mean it).
	f, nc, err := attr("COLOR_0", true, "VEC3", "VEC4")
	if err != nil {
		return p, err
	}
	if f != nil {
		p.Colors = make([]mgl32.Vec4, n)
		for i := range p.Colors {
			c := mgl32.Vec4{f[nc*i], f[nc*i+1], f[nc*i+2], 1}
			if nc == 4 {
				c[3] = f[nc*i+3]
			}
			p.Colors[i] = c
		}
	}
	if f, _, err = attr("TANGENT", false, "VEC4"); err != nil {
		return p, err
	}
	if f != nil {
		p.Tangents = make([]mgl32.Vec4, n)
		for i := range p.Tangents {
			p.Tangents[i] = mgl32.Vec4{f[4*i], f[4*i+1], f[4*i+2], f[4*i+3]}
		}
	}
	for _, name := range sortedKeys(pj.Attributes) {
		switch name {
		case "POSITION", "NORMAL", "TEXCOORD_0", "TEXCOORD_1", "COLOR_0", "TANGENT":
		default:
			if err := index(pj.Attributes[name], len(im.doc.Accessors), at+".attributes."+name, "accessor"); err != nil {
				return p, err
			}
		}
	}
	trisLeft := int64(im.lim.MaxTriangles - im.tris)
	var idx []uint32
	if pj.Indices != nil {
		idx, err = im.indices(*pj.Indices, at+".indices", 3*trisLeft+2, n)
		if err != nil {
			return p, err
		}
	} else {
		if int64(n) > 3*trisLeft+2 {
			return p, fmt.Errorf("%s: %d vertices without indices would take the model past the limit of triangles (Limits.MaxTriangles)", at, n)
		}
		idx = make([]uint32, n)
		for i := range idx {
			idx[i] = uint32(i)
		}
	}
	if nt := triangleCount(p.Mode, len(idx)); int64(nt) > trisLeft {
		return p, fmt.Errorf("%s: %d triangles would take the model past the limit of %d (Limits.MaxTriangles)", at, nt, im.lim.MaxTriangles)
	}
	p.Indices = triangulate(p.Mode, idx)
	im.tris += len(p.Indices) / 3
	if p.Normals == nil {
		p.Normals = smoothNormals(p.Positions, p.Indices)
	}
	if p.Tangents == nil && p.Material >= 0 {
		if nt := im.m.Materials[p.Material].NormalTexture; nt != nil {
			uvs := p.UVs
			if nt.TexCoord == 1 {
				uvs = p.UVs1
			}
			if len(uvs) == len(p.Positions) {
				p.Tangents = computeTangents(p.Positions, p.Normals, uvs, p.Indices)
			}
		}
	}
	return p, nil
}

// computeTangents returns per-vertex tangents for a normal map read with uvs: the direction of +u
// on each triangle, area-weighted, made perpendicular to the vertex's normal, with w the sign that
// turns normal × tangent into the image's up, −v (+1 for an image seen as it is, −1 where it is
// mirrored), as glTF's viewers do. A vertex whose triangles
// have degenerate coordinates gets any tangent perpendicular to its normal.
func computeTangents(pos, nrm []mgl32.Vec3, uvs []mgl32.Vec2, idx []uint32) []mgl32.Vec4 {
	tu := make([]mgl32.Vec3, len(pos))
	tv := make([]mgl32.Vec3, len(pos))
	for t := 0; t+2 < len(idx); t += 3 {
		a, b, c := idx[t], idx[t+1], idx[t+2]
		e1, e2 := pos[b].Sub(pos[a]), pos[c].Sub(pos[a])
		d1, d2 := uvs[b].Sub(uvs[a]), uvs[c].Sub(uvs[a])
		det := d1[0]*d2[1] - d2[0]*d1[1]
		if det == 0 {
			continue
		}
		// Not divided by det's size: bigger triangles (in space over texture) weigh more.
		s := float32(1)
		if det < 0 {
			s = -1
		}
		u := e1.Mul(d2[1]).Sub(e2.Mul(d1[1])).Mul(s)
		v := e2.Mul(d1[0]).Sub(e1.Mul(d2[0])).Mul(s)
		for _, k := range idx[t : t+3] {
			tu[k], tv[k] = tu[k].Add(u), tv[k].Add(v)
		}
	}
	out := make([]mgl32.Vec4, len(pos))
	for i, n := range nrm {
		t := tu[i].Sub(n.Mul(n.Dot(tu[i])))
		if l := t.Len(); l > 1e-20 {
			t = t.Mul(1 / l)
		} else {
			t = anyPerpendicular(n)
		}
		w := float32(1)
		if n.Cross(t).Dot(tv[i]) > 0 { // the bitangent is up the image: −v, glTF's v running down
			w = -1
		}
		out[i] = t.Vec4(w)
	}
	return out
}

// anyPerpendicular returns a unit vector perpendicular to unit vector n.
func anyPerpendicular(n mgl32.Vec3) mgl32.Vec3 {
	a := mgl32.Vec3{1, 0, 0}
	if n[0]*n[0] > 0.5 {
		a = mgl32.Vec3{0, 1, 0}
	}
	return a.Sub(n.Mul(n.Dot(a))).Normalize()
}

func vec3s(f []float32) []mgl32.Vec3 {
	out := make([]mgl32.Vec3, len(f)/3)
	for i := range out {
		out[i] = mgl32.Vec3{f[3*i], f[3*i+1], f[3*i+2]}
	}
	return out
}

func sortedKeys(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// triangleCount is the number of triangles n indices make in mode.
func triangleCount(mode, n int) int {
	if mode == ModeTriangles {
		return n / 3
	}
	return max(n-2, 0)
}

// triangulate turns the indices of a triangle list, strip or fan into a triangle list with
// counter-clockwise triangles (every other strip triangle flipped back).
func triangulate(mode int, idx []uint32) []uint32 {
	switch mode {
	case ModeTriangleStrip:
		if len(idx) < 3 {
			return nil
		}
		out := make([]uint32, 0, 3*(len(idx)-2))
		for i := 0; i+2 < len(idx); i++ {
			if i%2 == 0 {
				out = append(out, idx[i], idx[i+1], idx[i+2])
			} else {
				out = append(out, idx[i+1], idx[i], idx[i+2])
			}
		}
		return out
	case ModeTriangleFan:
		if len(idx) < 3 {
			return nil
		}
		out := make([]uint32, 0, 3*(len(idx)-2))
		for i := 1; i+1 < len(idx); i++ {
			out = append(out, idx[0], idx[i], idx[i+1])
		}
		return out
	}
	return idx[:len(idx)/3*3]
}

// smoothNormals computes area-weighted vertex normals; a vertex in no triangle (or only in
// degenerate ones) gets +Z.
func smoothNormals(pos []mgl32.Vec3, idx []uint32) []mgl32.Vec3 {
	n := make([]mgl32.Vec3, len(pos))
	for t := 0; t+2 < len(idx); t += 3 {
		a, b, c := pos[idx[t]], pos[idx[t+1]], pos[idx[t+2]]
		f := b.Sub(a).Cross(c.Sub(a))
		for _, k := range idx[t : t+3] {
			n[k] = n[k].Add(f)
		}
	}
	for i, v := range n {
		if l := v.Len(); l > 1e-20 {
			n[i] = v.Mul(1 / l)
		} else {
			n[i] = mgl32.Vec3{0, 0, 1}
		}
	}
	return n
}
