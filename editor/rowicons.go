package editor

import (
	"image"
	"image/color"
	"math"

	"github.com/AllenDang/cimgui-go/imgui"
	g "github.com/AllenDang/giu"
)

// rowIcons draws the Hierarchy rows' eye and lock toggles as pictures from one small texture, all of a frame's in
// one batch after the rows (one draw command, two triangles each). Drawn as shapes (drawEye, drawLock), the
// anti-aliased curves of about 50 rows came to thousands of triangles a frame, which a software renderer (llvmpipe)
// pays for in every frame, a keystroke's too.
type rowIcons struct {
	// newTexture uploads a picture (newGiuTexture); nil (windowless tests): each icon is drawn as shapes at once.
	newTexture func(img *image.RGBA) *g.Texture
	tex        *g.Texture
	side       int // the icons' size in pixels in tex
	queued     []queuedIcon
}

// iconKind is one of the pictures of rowIcons' texture, in its order.
type iconKind int

const (
	iconEye iconKind = iota
	iconEyeShut
	iconLockOpen
	iconLockShut
	iconKinds
)

type queuedIcon struct {
	p    imgui.Vec2
	kind iconKind
	col  uint32
}

// add draws the icon kind in the square at p of side s, in colour col (its alpha too): queued for flush, or drawn
// as shapes now without a texture.
func (r *rowIcons) add(kind iconKind, p imgui.Vec2, s float32, col uint32) {
	side := int(math.Round(float64(s)))
	if r.newTexture == nil || side < 4 {
		drawIcon(kind, p, s, col)
		return
	}
	if r.tex == nil || side != r.side {
		r.flush()
		r.tex, r.side = r.newTexture(iconAtlas(side)), side
	}
	r.queued = append(r.queued, queuedIcon{p: p, kind: kind, col: col})
}

// flush draws the queued icons into the current window's draw list.
func (r *rowIcons) flush() {
	if len(r.queued) == 0 || r.tex == nil {
		r.queued = r.queued[:0]
		return
	}
	dl := imgui.WindowDrawList()
	s := float32(r.side)
	w := float32(int(iconKinds) * (r.side + 1))
	for _, q := range r.queued {
		u0 := float32(int(q.kind)*(r.side+1)) / w
		dl.AddImageV(r.tex.ID(), q.p, imgui.Vec2{X: q.p.X + s, Y: q.p.Y + s}, imgui.Vec2{X: u0, Y: 0},
			imgui.Vec2{X: u0 + s/w, Y: 1}, q.col)
	}
	r.queued = r.queued[:0]
}

// drawIcon draws the icon kind as shapes.
func drawIcon(kind iconKind, p imgui.Vec2, s float32, col uint32) {
	switch kind {
	case iconEye, iconEyeShut:
		drawEye(p, s, col, kind == iconEyeShut)
	default:
		drawLock(p, s, col, kind == iconLockShut)
	}
}

// iconAtlas paints the icons side pixels square, white with their coverage as alpha (the draw's colour tints
// them), in a row with a pixel between them: the shapes drawEye and drawLock draw, sampled 4×4 times a pixel.
func iconAtlas(side int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, int(iconKinds)*(side+1), side))
	s := float64(side)
	for k := range iconKinds {
		shape := iconShape(k, s)
		for y := range side {
			for x := range side {
				n := 0
				for sy := range 4 {
					for sx := range 4 {
						if shape(float64(x)+(float64(sx)+0.5)/4, float64(y)+(float64(sy)+0.5)/4) {
							n++
						}
					}
				}
				if n > 0 {
					img.SetRGBA(int(k)*(side+1)+x, y, color.RGBA{R: 255, G: 255, B: 255, A: uint8(n * 255 / 16)})
				}
			}
		}
	}
	return img
}

// iconShape reports whether a point of the square of side s is inside the icon kind (the geometry of drawEye and
// drawLock, lines 1.5 pixels wide).
func iconShape(kind iconKind, s float64) func(x, y float64) bool {
	const half = 0.75 // half a line's width
	switch kind {
	case iconEye, iconEyeShut:
		cx, cy, w, hh := s/2, s/2, s*0.45, s*0.28
		top := bezierPoints(cx-w, cy, cx, cy-2*hh, cx+w, cy)
		bottom := bezierPoints(cx-w, cy, cx, cy+2*hh, cx+w, cy)
		r := s * 0.14
		return func(x, y float64) bool {
			if math.Hypot(x-cx, y-cy) <= r || nearPolyline(x, y, top, half) || nearPolyline(x, y, bottom, half) {
				return true
			}
			return kind == iconEyeShut && segmentDist(x, y, 2, s-2, s-2, 2) <= half
		}
	default:
		locked := kind == iconLockShut
		x0, y0, x1, y1 := s*0.2, s*0.48, s*0.8, s*0.92
		r := s * 0.2
		cx := s / 2
		if !locked {
			cx += s * 0.15
		}
		cy := s*0.08 + r
		var arc [][2]float64
		for i := range 17 {
			a := math.Pi + math.Pi*float64(i)/16
			arc = append(arc, [2]float64{cx + r*math.Cos(a), cy + r*math.Sin(a)})
		}
		return func(x, y float64) bool {
			d := roundRectDist(x, y, x0, y0, x1, y1, 2)
			if locked && d <= 0 || !locked && math.Abs(d) <= half {
				return true
			}
			if nearPolyline(x, y, arc, half) || segmentDist(x, y, cx-r, cy, cx-r, y0) <= half {
				return true
			}
			return locked && segmentDist(x, y, cx+r, cy, cx+r, y0) <= half
		}
	}
}

// bezierPoints returns a quadratic Bézier curve from (ax, ay) through control (bx, by) to (cx, cy) as 16 segments.
func bezierPoints(ax, ay, bx, by, cx, cy float64) [][2]float64 {
	pts := make([][2]float64, 0, 17)
	for i := range 17 {
		t := float64(i) / 16
		u := 1 - t
		pts = append(pts, [2]float64{u*u*ax + 2*u*t*bx + t*t*cx, u*u*ay + 2*u*t*by + t*t*cy})
	}
	return pts
}

// nearPolyline reports whether (x, y) is within d of the polyline pts.
func nearPolyline(x, y float64, pts [][2]float64, d float64) bool {
	for i := 1; i < len(pts); i++ {
		if segmentDist(x, y, pts[i-1][0], pts[i-1][1], pts[i][0], pts[i][1]) <= d {
			return true
		}
	}
	return false
}

// segmentDist is the distance from (x, y) to the segment from (ax, ay) to (bx, by).
func segmentDist(x, y, ax, ay, bx, by float64) float64 {
	dx, dy := bx-ax, by-ay
	t := 0.0
	if l := dx*dx + dy*dy; l > 0 {
		t = max(0, min(1, ((x-ax)*dx+(y-ay)*dy)/l))
	}
	return math.Hypot(x-ax-t*dx, y-ay-t*dy)
}

// roundRectDist is the signed distance from (x, y) to the rectangle (x0, y0)–(x1, y1) with corners rounded by r
// (negative inside).
func roundRectDist(x, y, x0, y0, x1, y1, r float64) float64 {
	qx := math.Abs(x-(x0+x1)/2) - ((x1-x0)/2 - r)
	qy := math.Abs(y-(y0+y1)/2) - ((y1-y0)/2 - r)
	return math.Hypot(max(qx, 0), max(qy, 0)) + min(max(qx, qy), 0) - r
}
