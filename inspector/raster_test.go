package inspector

import (
	"image"
	"image/color"
	"math"
	"unsafe"

	"github.com/AllenDang/cimgui-go/imgui"
)

// rasterize draws ImGui's draw data for the last frame into an image, in software: the windowless
// test context has no GPU, yet a person (and a golden-image test) can look at the panel. Every
// draw command samples the font atlas (the only texture the inspector uses); colours are blended
// with straight alpha as ImGui's OpenGL backend does.
func rasterize(width, height int, bg color.RGBA) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, width, height))
	for i := 0; i < len(img.Pix); i += 4 {
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = bg.R, bg.G, bg.B, 255
	}
	tex, tw, th, _ := imgui.CurrentIO().Fonts().GetTextureDataAsRGBA32()
	atlas := unsafe.Slice((*byte)(tex), int(tw*th*4))
	vsize, posOff, uvOff, colOff := imgui.VertexBufferLayout()
	isize := imgui.IndexBufferLayout()
	dd := imgui.CurrentDrawData()
	for _, list := range dd.CommandLists() {
		vp, vn := list.GetVertexBuffer()
		ip, in := list.GetIndexBuffer()
		vb := unsafe.Slice((*byte)(vp), vn)
		ib := unsafe.Slice((*byte)(ip), in)
		vert := func(i int) vertex {
			b := vb[i*vsize:]
			return vertex{
				x: *(*float32)(unsafe.Pointer(&b[posOff])), y: *(*float32)(unsafe.Pointer(&b[posOff+4])),
				u: *(*float32)(unsafe.Pointer(&b[uvOff])), v: *(*float32)(unsafe.Pointer(&b[uvOff+4])),
				col: *(*uint32)(unsafe.Pointer(&b[colOff])),
			}
		}
		index := func(i int) int {
			if isize == 2 {
				return int(*(*uint16)(unsafe.Pointer(&ib[i*2])))
			}
			return int(*(*uint32)(unsafe.Pointer(&ib[i*4])))
		}
		for _, cmd := range list.Commands() {
			if cmd.HasUserCallback() {
				continue
			}
			clip := cmd.ClipRect()
			for k := 0; k+2 < int(cmd.ElemCount()); k += 3 {
				base := int(cmd.IdxOffset()) + k
				vo := int(cmd.VtxOffset())
				tri := [3]vertex{vert(vo + index(base)), vert(vo + index(base+1)), vert(vo + index(base+2))}
				fill(img, tri, clip, atlas, int(tw), int(th))
			}
		}
	}
	return img
}

type vertex struct {
	x, y, u, v float32
	col        uint32
}

func fill(img *image.RGBA, t [3]vertex, clip imgui.Vec4, atlas []byte, tw, th int) {
	minX := max(math.Floor(float64(min(t[0].x, t[1].x, t[2].x))), float64(clip.X), 0)
	minY := max(math.Floor(float64(min(t[0].y, t[1].y, t[2].y))), float64(clip.Y), 0)
	maxX := min(math.Ceil(float64(max(t[0].x, t[1].x, t[2].x))), float64(clip.Z), float64(img.Rect.Dx()))
	maxY := min(math.Ceil(float64(max(t[0].y, t[1].y, t[2].y))), float64(clip.W), float64(img.Rect.Dy()))
	area := edge(t[0], t[1], t[2].x, t[2].y)
	if area == 0 {
		return
	}
	for y := int(minY); y < int(maxY); y++ {
		for x := int(minX); x < int(maxX); x++ {
			px, py := float32(x)+0.5, float32(y)+0.5
			w0 := edge(t[1], t[2], px, py) / area
			w1 := edge(t[2], t[0], px, py) / area
			w2 := edge(t[0], t[1], px, py) / area
			if w0 < 0 || w1 < 0 || w2 < 0 {
				continue
			}
			u := w0*t[0].u + w1*t[1].u + w2*t[2].u
			v := w0*t[0].v + w1*t[1].v + w2*t[2].v
			tx := min(max(int(u*float32(tw)), 0), tw-1)
			ty := min(max(int(v*float32(th)), 0), th-1)
			texel := atlas[(ty*tw+tx)*4:]
			var c [4]float32
			for ch := range 4 {
				vc := w0*channel(t[0].col, ch) + w1*channel(t[1].col, ch) + w2*channel(t[2].col, ch)
				c[ch] = vc * float32(texel[ch]) / 255
			}
			o := img.PixOffset(x, y)
			a := c[3]
			for ch := range 3 {
				dst := float32(img.Pix[o+ch]) / 255
				img.Pix[o+ch] = uint8(min(max((c[ch]*a+dst*(1-a))*255+0.5, 0), 255))
			}
		}
	}
}

func edge(a, b vertex, x, y float32) float32 { return (b.x-a.x)*(y-a.y) - (b.y-a.y)*(x-a.x) }

// channel extracts channel ch (R, G, B, A) of an ImGui colour (IM_COL32: R in the low byte).
func channel(col uint32, ch int) float32 { return float32(col>>(8*ch)&0xff) / 255 }
