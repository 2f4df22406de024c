package glrender

import (
	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/assets"
)

// Flat-shaded meshes (every triangle's three vertices have the same normal, as the built-in cube's and plane's
// faces) are drawn with their vertices shared between faces: the normal is a flat output of the vertex shader
// (FLAT_NORMAL), taken from each triangle's provoking (last) vertex, so the triangles of a face only need their last
// vertex to carry the face's normal. The built-in cube is drawn with 8 vertices instead of 24: a third of the
// vertex shader runs, with the same picture.

// flatVertices returns the vertices and indices with which flat-shaded mesh m is drawn with FLAT_NORMAL: its
// vertices welded by position, each triangle turned (its winding kept) so that its last vertex carries its normal,
// a position repeated only where one vertex cannot serve all the faces that need it. ok is false for a mesh that
// is not flat-shaded (it is drawn as it is).
func flatVertices(m *assets.Mesh) (vertices []float32, indices []uint32, ok bool) {
	if len(m.Indices) == 0 || len(m.Indices)%3 != 0 {
		return nil, nil, false
	}
	n := m.VertexCount()
	for t := 0; t < len(m.Indices); t += 3 {
		for k := range 3 {
			if int(m.Indices[t+k]) >= n {
				return nil, nil, false
			}
		}
		a := m.Normal(int(m.Indices[t]))
		if a != m.Normal(int(m.Indices[t+1])) || a != m.Normal(int(m.Indices[t+2])) {
			return nil, nil, false
		}
	}
	type key struct {
		p mgl32.Vec3
		n mgl32.Vec3
	}
	// want[p, n]: how many triangles of normal n have a vertex at p (a vertex there with n serves them all).
	want := map[key]int{}
	for t := 0; t < len(m.Indices); t += 3 {
		nt := m.Normal(int(m.Indices[t]))
		for k := range 3 {
			want[key{m.Position(int(m.Indices[t+k])), nt}]++
		}
	}
	type vert struct {
		src     uint32 // the source vertex (position, uv)
		normal  mgl32.Vec3
		claimed bool // some triangle's last vertex: its normal is fixed
	}
	var out []vert
	at := map[mgl32.Vec3][]uint32{} // the out vertices at a position
	indices = make([]uint32, 0, len(m.Indices))
	for t := 0; t < len(m.Indices); t += 3 {
		tri := [3]uint32{m.Indices[t], m.Indices[t+1], m.Indices[t+2]}
		nt := m.Normal(int(tri[0]))
		last, lastV := -1, uint32(0)
		// A vertex with this normal already there.
		for k := 0; k < 3 && last < 0; k++ {
			for _, v := range at[m.Position(int(tri[k]))] {
				if out[v].normal == nt {
					last, lastV = k, v
					break
				}
			}
		}
		if last < 0 { // else the corner most triangles of this normal share: an unclaimed vertex there, or a new one
			best := -1
			for k := range 3 {
				if best < 0 || want[key{m.Position(int(tri[k])), nt}] > want[key{m.Position(int(tri[best])), nt}] {
					best = k
				}
			}
			for pass := 0; pass < 2 && last < 0; pass++ {
				for d := range 3 {
					k := (best + d) % 3
					if pass == 1 {
						if d == 0 {
							out = append(out, vert{src: tri[k], normal: nt})
							at[m.Position(int(tri[k]))] = append(at[m.Position(int(tri[k]))], uint32(len(out)-1))
							last, lastV = k, uint32(len(out)-1)
						}
						break
					}
					for _, v := range at[m.Position(int(tri[k]))] {
						if !out[v].claimed {
							out[v].normal = nt
							last, lastV = k, v
							break
						}
					}
					if last >= 0 {
						break
					}
				}
			}
		}
		out[lastV].claimed = true
		// Turn the triangle so that corner `last` comes last; the other two take any vertex at their position.
		for d := 1; d <= 3; d++ {
			k := (last + d) % 3
			if k == last {
				indices = append(indices, lastV)
				break
			}
			p := m.Position(int(tri[k]))
			if len(at[p]) == 0 {
				out = append(out, vert{src: tri[k], normal: m.Normal(int(tri[k]))})
				at[p] = append(at[p], uint32(len(out)-1))
			}
			indices = append(indices, at[p][0])
		}
	}
	vertices = make([]float32, 0, len(out)*assets.FloatsPerVertex)
	for _, v := range out {
		s := m.Vertices[int(v.src)*assets.FloatsPerVertex:]
		vertices = append(vertices, s[0], s[1], s[2], v.normal[0], v.normal[1], v.normal[2], s[6], s[7])
	}
	return vertices, indices, true
}
