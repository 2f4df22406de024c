package gltf

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	_ "image/jpeg" // image.DecodeConfig reads JPEG headers
	_ "image/png"  // and PNG headers
	"math"

	"github.com/go-gl/mathgl/mgl32"
)

func (im *importer) loadImages() error {
	im.m.Images = make([]Image, len(im.doc.Images))
	for i, ij := range im.doc.Images {
		at := fmt.Sprintf("images[%d]", i)
		img := Image{Name: ij.Name, MimeType: ij.MimeType}
		switch {
		case ij.URI != nil && ij.BufferView != nil:
			return fmt.Errorf("%s: both uri and bufferView (an image has one)", at)
		case ij.URI != nil:
			data, err := im.readURI(*ij.URI, at+".uri")
			if err != nil {
				return err
			}
			if !bytes.HasPrefix([]byte(*ij.URI), []byte("data:")) {
				img.URI = *ij.URI
			}
			img.Data = data
		case ij.BufferView != nil:
			if err := index(*ij.BufferView, len(im.doc.BufferViews), at+".bufferView", "bufferView"); err != nil {
				return err
			}
			if ij.MimeType == "" {
				return fmt.Errorf("%s.mimeType: missing (an image in a bufferView names its type)", at)
			}
			img.Data = im.view(*ij.BufferView)
		default:
			return fmt.Errorf("%s: neither uri nor bufferView", at)
		}
		cfg, format, err := image.DecodeConfig(bytes.NewReader(img.Data))
		switch {
		case errors.Is(err, image.ErrFormat):
			im.warn("%s: not a PNG or JPEG image: its size is unknown", at)
		case err != nil:
			return fmt.Errorf("%s: broken %s: %v", at, sniff(img.Data), err)
		case cfg.Width > im.lim.MaxImageSide || cfg.Height > im.lim.MaxImageSide:
			return fmt.Errorf("%s: %d×%d pixels, over the limit of %d a side (Limits.MaxImageSide)", at, cfg.Width, cfg.Height, im.lim.MaxImageSide)
		default:
			img.Width, img.Height = cfg.Width, cfg.Height
			if img.MimeType == "" {
				img.MimeType = "image/" + format
			}
		}
		im.m.Images[i] = img
	}
	return nil
}

func sniff(b []byte) string {
	if bytes.HasPrefix(b, []byte("\x89PNG")) {
		return "PNG"
	}
	return "JPEG"
}

func (im *importer) loadSamplers() error {
	im.m.Samplers = make([]Sampler, len(im.doc.Samplers))
	for i, sj := range im.doc.Samplers {
		s := Sampler{Name: sj.Name, MagFilter: sj.MagFilter, MinFilter: sj.MinFilter, WrapS: 10497, WrapT: 10497}
		if sj.WrapS != nil {
			s.WrapS = *sj.WrapS
		}
		if sj.WrapT != nil {
			s.WrapT = *sj.WrapT
		}
		for _, w := range []int{s.WrapS, s.WrapT} {
			if w != 33071 && w != 33648 && w != 10497 {
				return fmt.Errorf("samplers[%d]: wrap mode %d is not 33071, 33648 or 10497", i, w)
			}
		}
		if !oneOf(s.MagFilter, 0, 9728, 9729) || !oneOf(s.MinFilter, 0, 9728, 9729, 9984, 9985, 9986, 9987) {
			return fmt.Errorf("samplers[%d]: filter %d/%d is not a glTF filter", i, s.MagFilter, s.MinFilter)
		}
		im.m.Samplers[i] = s
	}
	return nil
}

func oneOf(v int, set ...int) bool {
	for _, s := range set {
		if v == s {
			return true
		}
	}
	return false
}

func (im *importer) loadTextures() error {
	im.m.Textures = make([]Texture, len(im.doc.Textures))
	for i, tj := range im.doc.Textures {
		at := fmt.Sprintf("textures[%d]", i)
		t := Texture{Name: tj.Name, Source: -1, Sampler: -1}
		if tj.Source != nil {
			if err := index(*tj.Source, len(im.m.Images), at+".source", "image"); err != nil {
				return err
			}
			t.Source = *tj.Source
		}
		if tj.Sampler != nil {
			if err := index(*tj.Sampler, len(im.m.Samplers), at+".sampler", "sampler"); err != nil {
				return err
			}
			t.Sampler = *tj.Sampler
		}
		im.m.Textures[i] = t
	}
	return nil
}

// extension decodes extension name of exts into v; false if it is absent.
func extension(exts map[string]rawExt, name, at string, v any) (bool, error) {
	raw, ok := exts[name]
	if !ok {
		return false, nil
	}
	if err := json.Unmarshal(raw, v); err != nil {
		if at != "" {
			at += "."
		}
		return false, fmt.Errorf("%sextensions.%s: %v", at, name, err)
	}
	return true, nil
}

func (im *importer) textureRef(tj *textureInfoJSON, at string, scale *float32) (*TextureRef, error) {
	if tj == nil {
		return nil, nil
	}
	if err := index(tj.Index, len(im.m.Textures), at+".index", "texture"); err != nil {
		return nil, err
	}
	r := &TextureRef{Texture: tj.Index, TexCoord: tj.TexCoord, Scale: 1}
	if tj.TexCoord < 0 {
		return nil, fmt.Errorf("%s.texCoord: %d is negative", at, tj.TexCoord)
	}
	if scale != nil {
		r.Scale = *scale
	}
	var tt textureTransformJSON
	ok, err := extension(tj.Extensions, "KHR_texture_transform", at, &tt)
	if err != nil || !ok {
		return r, err
	}
	x := &TextureTransform{Rotation: tt.Rotation, Scale: mgl32.Vec2{1, 1}, TexCoord: -1}
	if err := vec(tt.Offset, x.Offset[:], at+".extensions.KHR_texture_transform.offset"); err != nil {
		return nil, err
	}
	if err := vec(tt.Scale, x.Scale[:], at+".extensions.KHR_texture_transform.scale"); err != nil {
		return nil, err
	}
	if tt.TexCoord != nil {
		x.TexCoord = *tt.TexCoord
	}
	r.Transform = x
	return r, nil
}

// vec copies src into dst when the file gives it, refusing a wrong length.
func vec(src []float32, dst []float32, at string) error {
	if src == nil {
		return nil
	}
	if len(src) != len(dst) {
		return fmt.Errorf("%s: %d numbers, expected %d", at, len(src), len(dst))
	}
	copy(dst, src)
	return nil
}

func (im *importer) loadMaterials() error {
	im.m.Materials = make([]Material, len(im.doc.Materials))
	for i, mj := range im.doc.Materials {
		at := fmt.Sprintf("materials[%d]", i)
		m := Material{Name: mj.Name, BaseColorFactor: mgl32.Vec4{1, 1, 1, 1}, MetallicFactor: 1, RoughnessFactor: 1,
			EmissiveStrength: 1, AlphaMode: AlphaOpaque, AlphaCutoff: 0.5, DoubleSided: mj.DoubleSided}
		var err error
		if pbr := mj.PBR; pbr != nil {
			pat := at + ".pbrMetallicRoughness"
			if err := vec(pbr.BaseColorFactor, m.BaseColorFactor[:], pat+".baseColorFactor"); err != nil {
				return err
			}
			if pbr.MetallicFactor != nil {
				m.MetallicFactor = *pbr.MetallicFactor
			}
			if pbr.RoughnessFactor != nil {
				m.RoughnessFactor = *pbr.RoughnessFactor
			}
			if m.BaseColorTexture, err = im.textureRef(pbr.BaseColorTexture, pat+".baseColorTexture", nil); err != nil {
				return err
			}
			if m.MetallicRoughnessTexture, err = im.textureRef(pbr.MetallicRoughnessTexture, pat+".metallicRoughnessTexture", nil); err != nil {
				return err
			}
		}
		if m.NormalTexture, err = im.textureRef(mj.NormalTexture, at+".normalTexture", scaleOf(mj.NormalTexture, false)); err != nil {
			return err
		}
		if m.OcclusionTexture, err = im.textureRef(mj.OcclusionTexture, at+".occlusionTexture", scaleOf(mj.OcclusionTexture, true)); err != nil {
			return err
		}
		if m.EmissiveTexture, err = im.textureRef(mj.EmissiveTexture, at+".emissiveTexture", nil); err != nil {
			return err
		}
		if err := vec(mj.EmissiveFactor, m.EmissiveFactor[:], at+".emissiveFactor"); err != nil {
			return err
		}
		if mj.AlphaMode != nil {
			m.AlphaMode = *mj.AlphaMode
			if !(m.AlphaMode == AlphaOpaque || m.AlphaMode == AlphaMask || m.AlphaMode == AlphaBlend) {
				return fmt.Errorf("%s.alphaMode: %q, must be OPAQUE, MASK or BLEND", at, m.AlphaMode)
			}
		}
		if mj.AlphaCutoff != nil {
			if *mj.AlphaCutoff < 0 {
				return fmt.Errorf("%s.alphaCutoff: %g is negative", at, *mj.AlphaCutoff)
			}
			m.AlphaCutoff = *mj.AlphaCutoff
		}
		var es emissiveStrengthJSON
		ok, err := extension(mj.Extensions, "KHR_materials_emissive_strength", at, &es)
		if err != nil {
			return err
		}
		if ok && es.EmissiveStrength != nil {
			if *es.EmissiveStrength < 0 {
				return fmt.Errorf("%s.extensions.KHR_materials_emissive_strength.emissiveStrength: %g is negative", at, *es.EmissiveStrength)
			}
			m.EmissiveStrength = *es.EmissiveStrength
		}
		im.m.Materials[i] = m
	}
	return nil
}

// scaleOf is a normal texture's scale or an occlusion texture's strength.
func scaleOf(t *textureInfoJSON, strength bool) *float32 {
	switch {
	case t == nil:
		return nil
	case strength:
		return t.Strength
	}
	return t.Scale
}

func (im *importer) loadCameras() error {
	im.m.Cameras = make([]Camera, len(im.doc.Cameras))
	for i, cj := range im.doc.Cameras {
		at := fmt.Sprintf("cameras[%d]", i)
		c := Camera{Name: cj.Name, Type: cj.Type}
		switch cj.Type {
		case "perspective":
			p := cj.Perspective
			if p == nil {
				return fmt.Errorf("%s.perspective: missing for a perspective camera", at)
			}
			if p.ZNear == nil || *p.ZNear <= 0 || p.YFov <= 0 || p.AspectRatio < 0 || (p.ZFar != 0 && p.ZFar <= *p.ZNear) {
				return fmt.Errorf("%s.perspective: needs yfov > 0, znear > 0, zfar > znear if given, aspectRatio > 0 if given", at)
			}
			c.AspectRatio, c.YFov, c.ZNear, c.ZFar = p.AspectRatio, p.YFov, *p.ZNear, p.ZFar
		case "orthographic":
			o := cj.Orthographic
			if o == nil {
				return fmt.Errorf("%s.orthographic: missing for an orthographic camera", at)
			}
			if o.ZNear == nil || o.ZFar == nil || *o.ZNear < 0 || *o.ZFar <= *o.ZNear || o.XMag == 0 || o.YMag == 0 {
				return fmt.Errorf("%s.orthographic: needs xmag and ymag not 0, znear ≥ 0 and zfar > znear", at)
			}
			c.XMag, c.YMag, c.ZNear, c.ZFar = o.XMag, o.YMag, *o.ZNear, *o.ZFar
		default:
			return fmt.Errorf("%s.type: %q, must be perspective or orthographic", at, cj.Type)
		}
		im.m.Cameras[i] = c
	}
	return nil
}

func (im *importer) loadLights() error {
	var lj lightsJSON
	if _, err := extension(im.doc.Extensions, "KHR_lights_punctual", "", &lj); err != nil {
		return err
	}
	im.m.Lights = make([]Light, len(lj.Lights))
	for i, l := range lj.Lights {
		at := fmt.Sprintf("extensions.KHR_lights_punctual.lights[%d]", i)
		li := Light{Name: l.Name, Type: l.Type, Color: mgl32.Vec3{1, 1, 1}, Intensity: 1, OuterConeAngle: math.Pi / 4}
		if l.Type != "directional" && l.Type != "point" && l.Type != "spot" {
			return fmt.Errorf("%s.type: %q, must be directional, point or spot", at, l.Type)
		}
		if err := vec(l.Color, li.Color[:], at+".color"); err != nil {
			return err
		}
		if l.Intensity != nil {
			li.Intensity = *l.Intensity
		}
		if l.Range != nil {
			if *l.Range <= 0 {
				return fmt.Errorf("%s.range: %g, must be above 0", at, *l.Range)
			}
			li.Range = *l.Range
		}
		if l.Type == "spot" && l.Spot != nil {
			if l.Spot.InnerConeAngle != nil {
				li.InnerConeAngle = *l.Spot.InnerConeAngle
			}
			if l.Spot.OuterConeAngle != nil {
				li.OuterConeAngle = *l.Spot.OuterConeAngle
			}
			if li.InnerConeAngle < 0 || li.InnerConeAngle >= li.OuterConeAngle || li.OuterConeAngle > math.Pi/2 {
				return fmt.Errorf("%s.spot: cone angles %g and %g, need 0 ≤ inner < outer ≤ π/2", at, li.InnerConeAngle, li.OuterConeAngle)
			}
		}
		im.m.Lights[i] = li
	}
	return nil
}

func (im *importer) loadNodes() error {
	n := len(im.doc.Nodes)
	nodes := make([]Node, n)
	for i := range nodes {
		nodes[i].Parent = -1
	}
	for i, nj := range im.doc.Nodes {
		at := fmt.Sprintf("nodes[%d]", i)
		nd := &nodes[i]
		nd.Name, nd.Mesh, nd.Camera, nd.Light = nj.Name, -1, -1, -1
		nd.Children = nj.Children
		for k, c := range nj.Children {
			cat := fmt.Sprintf("%s.children[%d]", at, k)
			if err := index(c, n, cat, "node"); err != nil {
				return err
			}
			if c == i {
				return fmt.Errorf("%s: node %d is its own child (a cycle)", cat, c)
			}
			if p := nodes[c].Parent; p != -1 {
				return fmt.Errorf("%s: node %d is already a child of node %d (a node has one parent)", cat, c, p)
			}
			nodes[c].Parent = i
		}
		if nj.Mesh != nil {
			if err := index(*nj.Mesh, len(im.m.Meshes), at+".mesh", "mesh"); err != nil {
				return err
			}
			nd.Mesh = *nj.Mesh
		}
		if nj.Camera != nil {
			if err := index(*nj.Camera, len(im.m.Cameras), at+".camera", "camera"); err != nil {
				return err
			}
			nd.Camera = *nj.Camera
		}
		var nl nodeLightJSON
		if _, err := extension(nj.Extensions, "KHR_lights_punctual", at, &nl); err != nil {
			return err
		}
		if nl.Light != nil {
			if err := index(*nl.Light, len(im.m.Lights), at+".extensions.KHR_lights_punctual.light", "light"); err != nil {
				return err
			}
			nd.Light = *nl.Light
		}
		local, err := localMatrix(nj, at)
		if err != nil {
			return err
		}
		nd.Local = local
	}
	// With one parent each, the nodes a walk down from the roots does not reach are in cycles.
	order := make([]int, 0, n)
	for i := range nodes {
		if nodes[i].Parent == -1 {
			nodes[i].World = nodes[i].Local
			order = append(order, i)
		}
	}
	for k := 0; k < len(order); k++ {
		p := order[k]
		for _, c := range nodes[p].Children {
			nodes[c].World = nodes[p].World.Mul4(nodes[c].Local)
			order = append(order, c)
		}
	}
	if len(order) < n {
		seen := make([]bool, n)
		for _, i := range order {
			seen[i] = true
		}
		for i := range nodes {
			if !seen[i] {
				return fmt.Errorf("nodes[%d]: in a cycle of children (node %d's parent is node %d)", i, i, nodes[i].Parent)
			}
		}
	}
	im.m.Nodes = nodes
	return nil
}

// localMatrix is a node's matrix, or T × R × S.
func localMatrix(nj nodeJSON, at string) (mgl32.Mat4, error) {
	if nj.Matrix != nil {
		var m mgl32.Mat4
		if err := vec(nj.Matrix, m[:], at+".matrix"); err != nil {
			return m, err
		}
		return m, nil
	}
	t, r, s := mgl32.Vec3{}, mgl32.Vec4{0, 0, 0, 1}, mgl32.Vec3{1, 1, 1}
	if err := vec(nj.Translation, t[:], at+".translation"); err != nil {
		return mgl32.Mat4{}, err
	}
	if err := vec(nj.Rotation, r[:], at+".rotation"); err != nil {
		return mgl32.Mat4{}, err
	}
	if err := vec(nj.Scale, s[:], at+".scale"); err != nil {
		return mgl32.Mat4{}, err
	}
	q := mgl32.Quat{W: r[3], V: mgl32.Vec3{r[0], r[1], r[2]}}
	if l := q.Len(); l > 1e-12 {
		q = q.Scale(1 / l)
	} else {
		q = mgl32.QuatIdent()
	}
	return mgl32.Translate3D(t[0], t[1], t[2]).Mul4(q.Mat4()).Mul4(mgl32.Scale3D(s[0], s[1], s[2])), nil
}

func (im *importer) loadScenes() error {
	im.m.Scenes = make([]Scene, len(im.doc.Scenes))
	for i, sj := range im.doc.Scenes {
		for k, nd := range sj.Nodes {
			if err := index(nd, len(im.m.Nodes), fmt.Sprintf("scenes[%d].nodes[%d]", i, k), "node"); err != nil {
				return err
			}
		}
		im.m.Scenes[i] = Scene(sj)
	}
	if s := im.doc.Scene; s != nil {
		if err := index(*s, len(im.m.Scenes), "scene", "scene"); err != nil {
			return err
		}
		im.m.Scene = *s
	}
	return nil
}
