package guitest

import (
	"image"
	"image/color"
	"image/draw"
	"os"
	"path/filepath"

	"github.com/voltex-editor/voltex/internal/pngfile"
)

func toRGBA(img image.Image) *image.RGBA {
	if r, ok := img.(*image.RGBA); ok {
		return r
	}
	r := image.NewRGBA(img.Bounds())
	draw.Draw(r, r.Bounds(), img, img.Bounds().Min, draw.Src)
	return r
}

// WritePNG writes img to path, creating folders as needed.
func WritePNG(path string, img image.Image) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return pngfile.Write(path, img)
}

// Stats summarises the pixels of a region.
type Stats struct {
	Pixels   int
	Distinct int        // distinct colours (capped at 4096)
	Mean     [3]float64 // mean R, G, B
	Spread   [3]uint8   // max − min per channel
}

// RegionStats computes Stats over r ∩ img.Bounds().
func RegionStats(img *image.RGBA, r image.Rectangle) Stats {
	r = r.Intersect(img.Bounds())
	var s Stats
	seen := map[color.RGBA]struct{}{}
	lo := [3]uint8{255, 255, 255}
	var hi [3]uint8
	var sum [3]float64
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			c := img.RGBAAt(x, y)
			ch := [3]uint8{c.R, c.G, c.B}
			for i, v := range ch {
				sum[i] += float64(v)
				lo[i] = min(lo[i], v)
				hi[i] = max(hi[i], v)
			}
			if len(seen) < 4096 {
				seen[color.RGBA{c.R, c.G, c.B, 255}] = struct{}{}
			}
			s.Pixels++
		}
	}
	s.Distinct = len(seen)
	if s.Pixels > 0 {
		for i := range sum {
			s.Mean[i] = sum[i] / float64(s.Pixels)
			s.Spread[i] = hi[i] - lo[i]
		}
	}
	return s
}

// CountPixels counts the pixels in r for which match is true.
func CountPixels(img *image.RGBA, r image.Rectangle, match func(c color.RGBA) bool) int {
	r = r.Intersect(img.Bounds())
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if match(img.RGBAAt(x, y)) {
				n++
			}
		}
	}
	return n
}

// DiffPixels counts the pixels in r whose colour differs between a and b by more than tol in any channel.
func DiffPixels(a, b *image.RGBA, r image.Rectangle, tol uint8) int {
	r = r.Intersect(a.Bounds()).Intersect(b.Bounds())
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			ca, cb := a.RGBAAt(x, y), b.RGBAAt(x, y)
			if absDiff(ca.R, cb.R) > tol || absDiff(ca.G, cb.G) > tol || absDiff(ca.B, cb.B) > tol {
				n++
			}
		}
	}
	return n
}

func absDiff(a, b uint8) uint8 {
	if a > b {
		return a - b
	}
	return b - a
}
