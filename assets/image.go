package assets

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/draw"
	_ "image/jpeg" // JPEG textures
	_ "image/png"  // PNG textures
	"os"
	"path"
	"strings"
	"sync"
)

// Image is a decoded texture image: Width × Height texels of 8-bit RGBA, not premultiplied, the
// top row first (glTF's texture coordinates put v = 0 at the top). Ref and Version name it as
// [Mesh] names a mesh.
type Image struct {
	Ref           string
	Version       uint64
	Width, Height int
	Pix           []byte // 4 bytes a texel, row after row
}

// MaxImageSide bounds the width and height of a decoded image.
const MaxImageSide = 16384

// ImagePartLoader reads one image part ("image/0") of the model file at path, returning the
// encoded bytes (PNG or JPEG).
type ImagePartLoader func(path, part string, lim Limits) ([]byte, error)

var imageParts = struct {
	sync.RWMutex
	m map[string]ImagePartLoader
}{m: map[string]ImagePartLoader{}}

// RegisterImagePartFormat makes references to images held in files ending in ext
// ("ship.glb#image/0") readable by [Registry.Image]. Package assets/gltf registers .gltf and .glb.
func RegisterImagePartFormat(ext string, load ImagePartLoader) {
	imageParts.Lock()
	defer imageParts.Unlock()
	imageParts.m[strings.ToLower(ext)] = load
}

// DecodeImage decodes a PNG or JPEG file's bytes; name is for messages.
func DecodeImage(data []byte, name string) (*Image, error) {
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s: not a PNG or JPEG image: %w", name, err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width > MaxImageSide || cfg.Height > MaxImageSide {
		return nil, fmt.Errorf("%s: the image is %d×%d, outside 1..%d a side: %w", name, cfg.Width, cfg.Height, MaxImageSide, ErrLimit)
	}
	src, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	b := src.Bounds()
	dst := image.NewNRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(dst, dst.Bounds(), src, b.Min, draw.Src)
	return &Image{Width: b.Dx(), Height: b.Dy(), Pix: dst.Pix}, nil
}

// Image returns the decoded image of ref — a PNG or JPEG file in the scene folder, or an image
// part of a model file ("model.glb#image/0") — loading it on first use. Paths are checked as
// for meshes ([ResolvePath]): nothing outside the scene folder is read. Images (and failures)
// are kept until the next [Registry.Reload] or [Registry.SetRoot].
func (r *Registry) Image(ref string) (*Image, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if e, ok := r.images[ref]; ok {
		return e.img, e.err
	}
	img, err := r.loadImage(ref)
	if err != nil {
		err = refError(ref, err)
	} else {
		img.Ref = ref
		img.Version = r.nextVersion()
	}
	r.images[ref] = imageEntry{img, err}
	return img, err
}

type imageEntry struct {
	img *Image
	err error
}

// loadImage checks ref's path and decodes the image. r.mu must be held.
func (r *Registry) loadImage(ref string) (*Image, error) {
	norm, err := NormalizeRef(ref)
	if err != nil {
		return nil, err
	}
	if IsBuiltinRef(norm) {
		return nil, errors.New("a built-in reference is not an image")
	}
	p, err := ResolvePath(r.root, norm)
	if err != nil {
		return nil, err
	}
	file, part, isPart := SplitRef(norm)
	var data []byte
	if isPart {
		imageParts.RLock()
		load, ok := imageParts.m[strings.ToLower(path.Ext(file))]
		imageParts.RUnlock()
		if !ok {
			return nil, fmt.Errorf("%s files hold no images to name after \"#\"", path.Ext(file))
		}
		if data, err = load(p, part, r.lim); err != nil {
			return nil, err
		}
	} else {
		if fi, err := os.Stat(p); err == nil && fi.Size() > r.lim.MaxFileBytes {
			return nil, fmt.Errorf("%s: %d bytes, over the limit of %d (Limits.MaxFileBytes): %w", p, fi.Size(), r.lim.MaxFileBytes, ErrLimit)
		}
		if data, err = os.ReadFile(p); err != nil {
			return nil, err
		}
	}
	return DecodeImage(data, p)
}
