package viewport

import (
	"image"
	"image/color"
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/assets"
	"github.com/voltex-editor/voltex/ecs/scene"
)

// MaxThumbnailTriangles bounds the triangles a thumbnail draws: a bigger list is drawn in part.
const MaxThumbnailTriangles = 1 << 21

// Thumbnail draws dl into a size×size picture on the CPU (no GL: it runs on any goroutine), seen from above and
// to the side and framed to fit, flat-shaded in each batch's base colour (its material's, or the instances')
// times its vertex colours and its base-colour texture (the nearest texel; a masked material's holes left out),
// on a transparent background. It returns nil for an empty list.
func Thumbnail(dl *DrawList, size int) *image.RGBA {
	b := dl.Bounds()
	if b.IsEmpty() || size <= 0 {
		return nil
	}
	const ss = 2 // samples a side per pixel
	n := size * ss
	cam := DefaultCamera()
	cam.Frame(b, 1)
	cam = cam.Normalized()
	vp := cam.ViewProj(n, n)
	light := cam.Right().Mul(-0.4).Add(cam.Up().Mul(0.7)).Sub(cam.Forward().Mul(0.6)).Normalize()
	r := raster{n: n, depth: make([]float32, n*n), rgba: make([][4]float32, n*n)}
	for i := range r.depth {
		r.depth[i] = 2
	}
	left := MaxThumbnailTriangles
	var ins []Instance
	for _, bt := range dl.Batches() {
		m := bt.Mesh
		if m == nil || m.Placeholder {
			continue
		}
		tex := newThumbTexture(bt.Material, m)
		ins = bt.AppendInstances(ins[:0])
		for _, in := range ins {
			col := in.Color
			if bt.Material != nil {
				col = bt.Material.BaseColor
			}
			for t := 0; t+2 < len(m.Indices) && left > 0; t += 3 {
				left--
				var w [3]mgl32.Vec3
				var s [3]mgl32.Vec3 // screen x, y (samples) and depth 0..1
				var idx [3]int
				behind := false
				for k := range 3 {
					idx[k] = int(m.Indices[t+k])
					if idx[k] >= m.VertexCount() {
						behind = true
						break
					}
					w[k] = in.World.Mul4x1(m.Position(idx[k]).Vec4(1)).Vec3()
					c := vp.Mul4x1(w[k].Vec4(1))
					if c[3] <= 1e-6 {
						behind = true
						break
					}
					s[k] = mgl32.Vec3{(c[0]/c[3] + 1) / 2 * float32(n), (1 - c[1]/c[3]) / 2 * float32(n), (c[2]/c[3] + 1) / 2}
				}
				if behind {
					continue
				}
				normal := w[1].Sub(w[0]).Cross(w[2].Sub(w[0]))
				if normal.Len() == 0 {
					continue
				}
				shade := 0.3 + 0.7*float32(math.Abs(float64(normal.Normalize().Dot(light)))) // both sides lit
				// each corner's colour: the base colour times its vertex colour, shaded
				var vc [3][4]float32
				for k := range 3 {
					vc[k] = [4]float32{col[0] * shade, col[1] * shade, col[2] * shade, col[3]}
					if j := idx[k] * 4; j+3 < len(m.Colors) {
						for c := range 4 {
							vc[k][c] *= m.Colors[j+c]
						}
					}
				}
				r.triangle(s, func(a, b, g float32) ([4]float32, bool) {
					var c [4]float32
					for k := range 4 {
						c[k] = a*vc[0][k] + b*vc[1][k] + g*vc[2][k]
					}
					if tex.img != nil {
						u, v := tex.uv(idx, a, b, g)
						texel := tex.sample(u, v)
						for k := range 4 {
							c[k] *= texel[k]
						}
					}
					if tex.cutoff > 0 && c[3] < tex.cutoff {
						return c, false
					}
					c[3] = 1
					return c, true
				})
			}
		}
	}
	return r.image(size, ss)
}

// raster is a z-buffered picture of n×n samples in linear colour.
type raster struct {
	n     int
	depth []float32
	rgba  [][4]float32
}

// triangle fills the samples whose centres are inside s (screen positions and depths), nearer than what is there,
// with the colours shade gives for their barycentric coordinates (false: a hole, nothing drawn).
func (r *raster) triangle(s [3]mgl32.Vec3, shade func(a, b, g float32) ([4]float32, bool)) {
	area := edge(s[0], s[1], s[2])
	if area == 0 || math.IsNaN(float64(area)) {
		return
	}
	x0 := max(int(math.Floor(float64(min(s[0][0], s[1][0], s[2][0])))), 0)
	x1 := min(int(math.Ceil(float64(max(s[0][0], s[1][0], s[2][0])))), r.n-1)
	y0 := max(int(math.Floor(float64(min(s[0][1], s[1][1], s[2][1])))), 0)
	y1 := min(int(math.Ceil(float64(max(s[0][1], s[1][1], s[2][1])))), r.n-1)
	for y := y0; y <= y1; y++ {
		for x := x0; x <= x1; x++ {
			p := mgl32.Vec3{float32(x) + 0.5, float32(y) + 0.5}
			a, b, g := edge(s[1], s[2], p)/area, edge(s[2], s[0], p)/area, edge(s[0], s[1], p)/area
			if a < 0 || b < 0 || g < 0 {
				continue
			}
			z := a*s[0][2] + b*s[1][2] + g*s[2][2]
			if i := y*r.n + x; z >= 0 && z < r.depth[i] {
				if c, ok := shade(a, b, g); ok {
					r.depth[i], r.rgba[i] = z, c
				}
			}
		}
	}
}

// edge is twice the signed area of triangle a, b, p on the screen.
func edge(a, b, p mgl32.Vec3) float32 {
	return (b[0]-a[0])*(p[1]-a[1]) - (b[1]-a[1])*(p[0]-a[0])
}

// image averages ss×ss samples into each pixel of a size×size picture, in sRGB.
func (r *raster) image(size, ss int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, size, size))
	for y := range size {
		for x := range size {
			var sum [4]float32
			for j := range ss {
				for i := range ss {
					c := r.rgba[(y*ss+j)*r.n+x*ss+i]
					for k := range 3 {
						sum[k] += c[k] * c[3]
					}
					sum[3] += c[3]
				}
			}
			if sum[3] == 0 {
				continue
			}
			a := sum[3] / float32(ss*ss)
			px := color.RGBA{A: uint8(a*255 + 0.5)}
			for k, v := range []*uint8{&px.R, &px.G, &px.B} {
				*v = uint8(srgb(sum[k]/sum[3])*a*255 + 0.5) // premultiplied
			}
			img.SetRGBA(x, y, px)
		}
	}
	return img
}

// srgb encodes linear v (clamped to 0..1) for display.
func srgb(v float32) float32 {
	v = min(max(v, 0), 1)
	if v <= 0.0031308 {
		return v * 12.92
	}
	return 1.055*float32(math.Pow(float64(v), 1/2.4)) - 0.055
}

// thumbTexture is a material's base-colour texture as a thumbnail samples it (img nil: none), and the alpha
// below which a masked material has holes (0: none).
type thumbTexture struct {
	img        *assets.Image
	t          scene.Texture
	uvs        func(i int) (u, v float32)
	row0, row1 [3]float32
	cutoff     float32
}

// newThumbTexture returns mat's base-colour texture as drawn on mesh m.
func newThumbTexture(mat *Material, m *assets.Mesh) thumbTexture {
	var tt thumbTexture
	if mat == nil {
		return tt
	}
	if mat.AlphaMode == scene.AlphaMask {
		tt.cutoff = mat.AlphaCutoff
	}
	img, t := mat.BaseColorImage, mat.BaseColorTexture
	if img == nil || img.Width <= 0 || img.Height <= 0 || len(img.Pix) < img.Width*img.Height*4 {
		return tt
	}
	switch {
	case t.UV == 0:
		tt.uvs = func(i int) (float32, float32) {
			v := m.Vertices[i*assets.FloatsPerVertex+assets.OffsetUV/4:]
			return v[0], v[1]
		}
	case len(m.UVs1) >= m.VertexCount()*2:
		tt.uvs = func(i int) (float32, float32) { return m.UVs1[i*2], m.UVs1[i*2+1] }
	default:
		return tt
	}
	tt.img, tt.t = img, t
	tt.row0, tt.row1 = UVTransform(t)
	return tt
}

// uv returns the transformed texture coordinates at barycentric a, b, g of the triangle of vertices idx.
func (tt *thumbTexture) uv(idx [3]int, a, b, g float32) (float32, float32) {
	var u, v float32
	for k, w := range [3]float32{a, b, g} {
		x, y := tt.uvs(idx[k])
		u += w * x
		v += w * y
	}
	return tt.row0[0]*u + tt.row0[1]*v + tt.row0[2], tt.row1[0]*u + tt.row1[1]*v + tt.row1[2]
}

// sample returns the nearest texel to (u, v), wrapped as the texture says, in linear colour.
func (tt *thumbTexture) sample(u, v float32) [4]float32 {
	x := wrapTexel(u, tt.img.Width, tt.t.WrapS)
	y := wrapTexel(v, tt.img.Height, tt.t.WrapT)
	p := tt.img.Pix[(y*tt.img.Width+x)*4:]
	return [4]float32{srgbToLinear[p[0]], srgbToLinear[p[1]], srgbToLinear[p[2]], float32(p[3]) / 255}
}

// wrapTexel returns the texel of n that coordinate c (0..1 across the image) falls on, wrapped by w.
func wrapTexel(c float32, n int, w scene.Wrap) int {
	if !finite(c) {
		return 0
	}
	f := float64(c)
	switch w {
	case scene.WrapClamp:
		f = math.Min(math.Max(f, 0), 1)
	case scene.WrapMirror:
		f = math.Mod(math.Abs(f), 2)
		if f > 1 {
			f = 2 - f
		}
	default:
		f -= math.Floor(f)
	}
	return min(max(int(f*float64(n)), 0), n-1)
}

// srgbToLinear decodes an 8-bit sRGB channel.
var srgbToLinear = func() (t [256]float32) {
	for i := range t {
		c := float64(i) / 255
		if c <= 0.04045 {
			t[i] = float32(c / 12.92)
		} else {
			t[i] = float32(math.Pow((c+0.055)/1.055, 2.4))
		}
	}
	return t
}()
