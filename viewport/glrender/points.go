package glrender

import (
	"math"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/assets"
	"github.com/voltex-editor/voltex/viewport"
)

// Box instances small on the screen are drawn as points (level of detail). A mesh that is exactly its box (the
// built-in cube) drawn in the instances' colours costs, on a software renderer, its vertices, its twelve triangles'
// clipping and setup, and at least a block of pixels a triangle, whatever its size on the screen: 1,000,000 cubes of
// a few pixels each take over a second. Drawn as points — one vertex an instance, the point as big as the box's
// projection (pointVS) — each pixel of a point casts its ray at the box (pointFS): those that miss it are
// discarded, those that hit it take the colour of the face they hit, lit at the face's centre as meshFS lights it
// at each pixel. The picture is the cube's but for the light's change across a face of a few pixels and the
// depth, which is the box's centre's for the whole point: it decides between the points that overlap, and between
// a point and what is drawn with triangles, by less than the box's size.
//
// The choice is made on the CPU for each chunk of each picture (pointChunk): the chunk wholly in view (a point is
// clipped by its centre) and its biggest instance at most maxPointPixels across at the chunk's nearest depth. It
// serves a GPU too, which shades small triangles by blocks of pixels and runs eight vertices a cube. Zoomed in,
// every cube is drawn as before.

// maxPointPixels is the most pixels across the bounding sphere of an instance drawn as a point may project to.
const maxPointPixels = 10

// pointMargin is the pixels a point has on each side beyond the box's projection: a pixel whose centre its
// projection covers is in the point however the point's size is rounded.
const pointMargin = 0.5

// meshBox is the box a mesh is exactly (boxMesh): its centre and half size, in the mesh's space.
type meshBox struct {
	center, half mgl32.Vec3
}

// boxMesh returns the box m is, when it is one: a closed surface (closedMesh) whose vertices are all corners of its
// bounds, and whose triangles each lie in a face of the bounds with that face's outward normal at its vertices.
func boxMesh(m *assets.Mesh) *meshBox {
	n := m.VertexCount()
	if n == 0 || !closedMesh(m) {
		return nil
	}
	b := viewport.MeshBounds(m)
	for k := range 3 {
		if !(b.Max[k] > b.Min[k]) {
			return nil
		}
	}
	for i := range n {
		p := m.Position(i)
		for k := range 3 {
			if p[k] != b.Min[k] && p[k] != b.Max[k] {
				return nil
			}
		}
	}
	for t := 0; t+2 < len(m.Indices); t += 3 {
		face := -1 // axis×2 + (0 min, 1 max) of a face all three vertices lie in with its normal
		for f := range 6 {
			axis, side := f/2, f%2
			want := mgl32.Vec3{}
			want[axis] = float32(2*side - 1)
			at := b.Min[axis]
			if side == 1 {
				at = b.Max[axis]
			}
			ok := true
			for k := range 3 {
				v := int(m.Indices[t+k])
				if m.Position(v)[axis] != at || m.Normal(v).Sub(want).Len() > 1e-4 {
					ok = false
				}
			}
			if ok {
				face = f
			}
		}
		if face < 0 {
			return nil
		}
	}
	return &meshBox{center: b.Min.Add(b.Max).Mul(0.5), half: b.Max.Sub(b.Min).Mul(0.5)}
}

// pointVS draws instance uBase + gl_VertexID × uStride of a box mesh (uBoxCenter, uBoxHalf) as a point that covers
// the box's projection, and gives pointFS the pixels' rays in the box's space and its three faces toward the eye,
// lit. uRays are the world rays through the pixels: origin uRays[0]·x + uRays[1]·y + uRays[2] and direction
// uRays[3]·x + uRays[4]·y + uRays[5] for the window position (x, y).
const pointVS = `
uniform mat4 uViewProj;
uniform vec3 uBoxCenter;
uniform vec3 uBoxHalf;
uniform vec3 uRays[6];
uniform vec2 uHalfSize; // half the target's size in pixels
uniform float uMargin;  // pixels the point has on each side beyond the box's projection
` + meshInstanceInputs + lightingGLSL + `
flat out vec3 vRay[6];  // uRays in the box's space, from its centre
flat out vec3 vFace[3]; // sRGB colour of the face toward the eye on each axis
flat out uint vID;
flat out uint vFlags;

void main() {
	mat4 M = mat4(iModel0, iModel1, iModel2, iModel3);
	vec4 color = iColor;
	vID = iID;
	vFlags = iFlags;
	mat3 m = mat3(M);
	mat3 cof = mat3(cross(m[1], m[2]), cross(m[2], m[0]), cross(m[0], m[1]));
	float det = dot(m[0], cof[0]);
	mat3 inv = transpose(cof) / det;
	vec3 c = (M * vec4(uBoxCenter, 1.0)).xyz;
	vRay[0] = inv * uRays[0];
	vRay[1] = inv * uRays[1];
	vRay[2] = inv * (uRays[2] - c);
	vRay[3] = inv * uRays[3];
	vRay[4] = inv * uRays[4];
	vRay[5] = inv * uRays[5];

	vec4 cc = uViewProj * vec4(c, 1.0);
	vec4 ax = uViewProj * vec4(m[0] * uBoxHalf.x, 0.0);
	vec4 ay = uViewProj * vec4(m[1] * uBoxHalf.y, 0.0);
	vec4 az = uViewProj * vec4(m[2] * uBoxHalf.z, 0.0);
	vec2 cn = cc.xy / cc.w;
	vec2 ext = vec2(0.0);
	for (int k = 0; k < 8; k++) {
		vec4 q = cc + ((k & 1) != 0 ? ax : -ax) + ((k & 2) != 0 ? ay : -ay) + ((k & 4) != 0 ? az : -az);
		ext = max(ext, abs(q.xy / q.w - cn));
	}
	ext *= uHalfSize;
	gl_Position = cc;
	gl_PointSize = 2.0 * (max(ext.x, ext.y) + uMargin);

	// The faces the ray through the centre enters, lit at their centres.
	vec2 px = (cn + 1.0) * uHalfSize;
	vec3 d = vRay[3] * px.x + vRay[4] * px.y + vRay[5];
	vec3 base = toLinear(clamp(color.rgb, 0.0, 1.0));
	float flip = det < 0.0 ? -1.0 : 1.0;
	for (int i = 0; i < 3; i++) {
		float s = d[i] > 0.0 ? -1.0 : 1.0;
		vec3 n = normalize(cof[i] * (s * flip));
		vec3 p = c + m[i] * (s * uBoxHalf[i]);
		vec3 amb = mix(uGround, uSky, n.y * 0.5 + 0.5);
		vFace[i] = toSRGB(shade(base, n, normalize(uEye - p), amb, p));
	}
}
`

// pointFS keeps the pixels of a point whose ray (at the pixel's centre, where a triangle's coverage is decided)
// hits the box, in the colour of the face it enters by, and writes the id as meshFS does.
const pointFS = `
uniform vec3 uBoxHalf;
flat in vec3 vRay[6];
flat in vec3 vFace[3];
flat in uint vID;
flat in uint vFlags;

layout(location = 0) out vec4 oColor;
layout(location = 1) out uint oID;

void main() {
	vec2 f = gl_FragCoord.xy;
	vec3 o = vRay[0] * f.x + vRay[1] * f.y + vRay[2];
	vec3 d = vRay[3] * f.x + vRay[4] * f.y + vRay[5];
	vec3 r = 1.0 / d;
	vec3 t1 = (-uBoxHalf - o) * r;
	vec3 t2 = (uBoxHalf - o) * r;
	vec3 tn = min(t1, t2);
	vec3 tf = max(t1, t2);
	float near = max(max(tn.x, tn.y), tn.z);
	float far = min(min(tf.x, tf.y), tf.z);
	if (near > far || far < 0.0) discard;
	oColor = vec4(near == tn.x ? vFace[0] : near == tn.y ? vFace[1] : vFace[2], 1.0);
	oID = vID | ((vFlags & 1u) != 0u ? 0x80000000u : 0u);
}
`

// pointUniforms are the point programs' uniforms.
var pointUniforms = []string{"uViewProj", "uSky", "uGround", "uEye", "uLightCount", "uLightPos", "uLightDir",
	"uLightColor", "uLightCone", "uBoxCenter", "uBoxHalf", "uRays", "uHalfSize", "uMargin"}

// pointProgram returns the point program for the pass's lights (made on first use), in use with the pass's
// uniforms; nil when it does not compile (the instances are drawn as triangles then).
func (d *drawer) pointProgram() *program {
	one := b2i(d.lightSet.oneDirectional())
	p := d.pointProgs[one]
	if p == nil {
		if d.pointsFailed {
			return nil
		}
		var defines []string
		if one == 1 {
			defines = []string{"ONE_LIGHT"}
		}
		var err error
		if p, err = newProgram("point program", pointVS, pointFS, defines, pointUniforms...); err != nil {
			d.pointsFailed = true
			return nil
		}
		gl.UseProgram(p.id)
		d.pointProgs[one] = p
		d.inUse = p
	}
	if d.inUse != p {
		gl.UseProgram(p.id)
		d.inUse = p
	}
	if p.pass != d.pass.serial {
		f := d.pass.frame
		gl.Uniform3fv(p.loc("uRays"), 6, &f.rays[0][0])
		gl.Uniform2f(p.loc("uHalfSize"), f.size[0]/2, f.size[1]/2)
		gl.Uniform1f(p.loc("uMargin"), pointMargin+d.pointMarginOff)
	}
	d.passUniforms(p)
	return p
}

// drawPoints draws count instances of buf — instance base + k×stride — of box mesh gm as points (pointVS), and
// reports whether it could (else they are to be drawn as triangles). With list, only the n instances of the index
// list in buffer ebo are drawn (copies left out: copies.go).
func (d *drawer) drawPoints(buf *instanceBuffer, gm *gpuMesh, base, stride, count int, list bool, ebo uint32, n int) bool {
	if d.noPoints || d.pointsFailed || gm.box == nil {
		return false
	}
	p := d.pointProgram()
	if p == nil {
		return false
	}
	if list && n == 0 {
		return true // every instance a copy of one drawn before
	}
	gl.Uniform3fv(p.loc("uBoxCenter"), 1, &gm.box.center[0])
	gl.Uniform3fv(p.loc("uBoxHalf"), 1, &gm.box.half[0])
	if d.pointVAO == 0 {
		gl.GenVertexArrays(1, &d.pointVAO)
	}
	// The instances are the points' vertices (divisor 0): fetched as vertices are, the pipeline run once.
	gl.BindVertexArray(d.pointVAO)
	gl.BindBuffer(gl.ARRAY_BUFFER, buf.vbo)
	setupInstanceAttribs(stride, uintptr(base*viewport.InstanceSize), 0)
	if list {
		gl.BindBuffer(gl.ELEMENT_ARRAY_BUFFER, ebo)
		gl.DrawElements(gl.POINTS, int32(n), gl.UNSIGNED_INT, nil)
		return true
	}
	gl.DrawArrays(gl.POINTS, 0, int32(count))
	return true
}

// copyList returns the index list chunk ch's points are drawn from in picture p, read from buf (list false: every
// instance): made for p when the chunk is drawn whole from its own buffer and has copies of its own, else the
// chunk's own list when it has one (copies.go).
func (c *pictureCache) copyList(p *picture, buf *instanceBuffer, ch *viewport.Chunk, base, stride, count int) (list bool, ebo uint32, n int) {
	if c.d.allCopies || len(buf.keptIdx) == 0 || base != 0 || stride != 1 || count != buf.n {
		return false, 0, 0
	}
	if ch != nil && ch.Len() == buf.n && !c.d.chunkCopiesOnly && c.copies.indices(p.serial, buf, ch) {
		return true, buf.pebo, buf.pkept
	}
	return true, buf.ebo, len(buf.keptIdx)
}

// setRays sets f.rays, the world rays through the pixels of a w×h target seen through f.vp (pointVS's uRays), and
// f.size.
func (f *frame) setRays(w, h int) {
	f.size = [2]float32{float32(w), float32(h)}
	inv := f.vp.Inv()
	// A window position (x, y) is the clip position (2x/w - 1, 2y/h - 1, ±1, 1) on the near (-1) and far (+1)
	// planes. Their world positions' w does not depend on x and y (a projection's last row has no x or y), so the
	// points on both planes, and the direction between them, are linear in x and y.
	col := func(i int) [4]float64 {
		c := inv.Col(i)
		return [4]float64{float64(c[0]), float64(c[1]), float64(c[2]), float64(c[3])}
	}
	c0, c1, c2, c3 := col(0), col(1), col(2), col(3)
	var near, far [3][3]float64 // the x term, the y term and the constant of each plane's point
	for _, pl := range []struct {
		z   float64
		out *[3][3]float64
	}{{-1, &near}, {1, &far}} {
		wk := pl.z*c2[3] + c3[3]
		for k := range 3 {
			pl.out[0][k] = 2 / float64(w) * c0[k] / wk
			pl.out[1][k] = 2 / float64(h) * c1[k] / wk
			pl.out[2][k] = (-c0[k] - c1[k] + pl.z*c2[k] + c3[k]) / wk
		}
	}
	for i := range 3 {
		for k := range 3 {
			f.rays[i][k] = float32(near[i][k])
			f.rays[3+i][k] = float32(far[i][k] - near[i][k])
		}
	}
}

// pointChunk reports whether the instances of chunk ch (of box mesh gm, state cs) are drawn as points in picture
// p: wholly in view, and the biggest of them at most maxPointPixels across at the chunk's nearest depth. The
// answer is kept for the picture; ch nil asks for the one kept (false when none is).
func (c *pictureCache) pointChunk(p *picture, gm *gpuMesh, mat *gpuMaterial, cs *chunkState, ch *viewport.Chunk) bool {
	if gm.box == nil || mat != nil || gm.colors != 0 { // a material's or the vertices' colours: triangles
		return false
	}
	if cs.pointsAt == p.serial || ch == nil {
		return cs.pointsAt == p.serial && cs.points
	}
	cs.pointsAt, cs.points = p.serial, false
	box := ch.Bounds()
	if box.IsEmpty() {
		return false
	}
	vp := &p.f.vp
	wmin := float32(math.Inf(1))
	for k := range 8 {
		q := vp.Mul4x1(corner(box, k))
		if !(q[3] > 0) || abs32(q[0]) > q[3] || abs32(q[1]) > q[3] || abs32(q[2]) > q[3] {
			return false
		}
		wmin = min(wmin, q[3])
	}
	r := cs.boxRadius(ch, gm.box)
	scale := max(vp.Row(0).Vec3().Len()*p.f.size[0], vp.Row(1).Vec3().Len()*p.f.size[1]) / 2
	cs.points = 2*r*scale/wmin <= maxPointPixels
	return cs.points
}

// corner is corner k (0–7: bit a for the box's Max on axis a) of box, as a point.
func corner(box viewport.AABB, k int) mgl32.Vec4 {
	q := mgl32.Vec4{box.Min[0], box.Min[1], box.Min[2], 1}
	for a := range 3 {
		if k&(1<<a) != 0 {
			q[a] = box.Max[a]
		}
	}
	return q
}

// sameLinear reports whether a and b have the same rotation and scale (upper 3×3).
func sameLinear(a, b *mgl32.Mat4) bool {
	return a[0] == b[0] && a[1] == b[1] && a[2] == b[2] && a[4] == b[4] && a[5] == b[5] && a[6] == b[6] &&
		a[8] == b[8] && a[9] == b[9] && a[10] == b[10]
}

func abs32(v float32) float32 { return float32(math.Abs(float64(v))) }

// boxRadius is the radius of the sphere about its centre that holds each instance of chunk ch's box b, the
// biggest; the chunk's state keeps it as of the chunk's Changes.
func (cs *chunkState) boxRadius(ch *viewport.Chunk, b *meshBox) float32 {
	if cs.radiusAt == ch.Changes()+1 && cs.radiusOf == *b {
		return cs.radius
	}
	var r2 float32
	for i := range ch.Instances {
		m := &ch.Instances[i].World
		if i > 0 && sameLinear(m, &ch.Instances[i-1].World) {
			continue // a grid's instances are mostly moved copies of one another
		}
		x, y, z := m.Col(0).Vec3().Mul(b.half[0]), m.Col(1).Vec3().Mul(b.half[1]), m.Col(2).Vec3().Mul(b.half[2])
		// The farthest corner: ±x ± y ± z, four of them up to the sign.
		for _, v := range [4]mgl32.Vec3{x.Add(y).Add(z), x.Add(y).Sub(z), x.Sub(y).Add(z), x.Sub(y).Sub(z)} {
			r2 = max(r2, v.Dot(v))
		}
	}
	cs.radius = float32(math.Sqrt(float64(r2)))
	cs.radiusAt, cs.radiusOf = ch.Changes()+1, *b
	return cs.radius
}
