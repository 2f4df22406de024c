package editor

import (
	"image"

	"github.com/AllenDang/cimgui-go/imgui"
	g "github.com/AllenDang/giu"

	"github.com/voltex-editor/voltex/editor/workspace"
)

// workspaceThumbnailSize is the side of the workspace's thumbnails in pixels.
const workspaceThumbnailSize = workspace.ThumbnailSize

// thumbTextures keeps the Assets panel's thumbnails as textures, each made again only when its picture has a
// new version. Without newTexture (the windowless tests) there are none.
type thumbTextures struct {
	newTexture func(img *image.RGBA) *g.Texture
	byName     map[string]thumbTexture
}

type thumbTexture struct {
	version uint64
	tex     *g.Texture // freed by giu when dropped
}

// get returns the texture of name's picture (0: none), uploading it when picture has a newer version.
func (t *thumbTextures) get(name string, picture func() (*image.RGBA, uint64)) imgui.TextureID {
	if t.newTexture == nil {
		return 0
	}
	img, v := picture()
	cur, ok := t.byName[name]
	if !ok || cur.version != v {
		if t.byName == nil {
			t.byName = map[string]thumbTexture{}
		}
		cur = thumbTexture{version: v}
		if img != nil {
			cur.tex = t.newTexture(img)
		}
		t.byName[name] = cur
	}
	if cur.tex == nil {
		return 0
	}
	return cur.tex.ID()
}

// newGiuTexture uploads img as a texture (on the loop thread, in a frame).
func newGiuTexture(img *image.RGBA) *g.Texture {
	var tex *g.Texture
	g.NewTextureFromRgba(img, func(t *g.Texture) { tex = t })
	return tex
}
