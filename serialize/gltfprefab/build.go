package gltfprefab

import (
	"context"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math"
	"net/url"
	"path"
	"path/filepath"
	"strconv"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/assets/gltf"
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/serialize"
)

func init() {
	serialize.RegisterPrefabFormat(".gltf", Load)
	serialize.RegisterPrefabFormat(".glb", Load)
}

// Load imports the model at file and builds its template world ([Build]); it is the
// [serialize.ModelLoader] of .gltf and .glb files. opts.MaxFileSize bounds the bytes read (the
// importer's own default when that is smaller).
func Load(ctx context.Context, file string, opts serialize.ModelOptions) (*ecs.World, []string, error) {
	lim := gltf.Limits{MaxBytes: gltf.DefaultMaxBytes}
	if opts.MaxFileSize > 0 && opts.MaxFileSize < lim.MaxBytes {
		lim.MaxBytes = opts.MaxFileSize
	}
	m, err := gltf.Import(file, lim)
	if err != nil {
		return nil, nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	w := opts.NewWorld()
	warnings, err := Build(m, filepath.Base(file), w, opts.MaxEntities)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", file, err)
	}
	return w, append(m.Warnings, warnings...), nil
}

// Build spawns the entities of model m into w (a world with the scene components registered).
// base is the model's file name, which its mesh and image references start with. maxEntities
// (0: no limit) bounds the entities made. It returns warnings about what the entities cannot say
// (a matrix with shear). The node tree is walked without recursion, whatever its depth.
func Build(m *gltf.Model, base string, w *ecs.World, maxEntities int) ([]string, error) {
	b := builder{m: m, base: base, w: w, max: maxEntities, ids: map[uint64]string{}}
	roots := rootsOf(m)
	keys := siblingKeys(m, roots)
	stack := make([]pending, 0, len(roots))
	for i := len(roots) - 1; i >= 0; i-- {
		stack = append(stack, pending{node: roots[i], path: pathHash(0, keys[i]), order: float64(i)})
	}
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		kids, err := b.node(p)
		if err != nil {
			return b.warnings, err
		}
		stack = append(stack, kids...)
	}
	return b.warnings, nil
}

// pending is a node to spawn: under parent, with the hash of its name path and its order.
type pending struct {
	node   int
	path   uint64
	parent ecs.Entity
	order  float64
}

type builder struct {
	m        *gltf.Model
	base     string
	w        *ecs.World
	max      int
	n        int
	ids      map[uint64]string // id → node name, for collisions
	warnings []string
}

// rootsOf returns the root nodes of the default scene (every parentless node when there is none).
func rootsOf(m *gltf.Model) []int {
	if m.Scene >= 0 {
		return m.Scenes[m.Scene].Nodes
	}
	var out []int
	for i, n := range m.Nodes {
		if n.Parent < 0 {
			out = append(out, i)
		}
	}
	return out
}

// nodeName is the name a node's entity gets: its own, else what it holds.
func nodeName(m *gltf.Model, n int) string {
	nd := &m.Nodes[n]
	switch {
	case nd.Name != "":
		return nd.Name
	case nd.Mesh >= 0 && m.Meshes[nd.Mesh].Name != "":
		return m.Meshes[nd.Mesh].Name
	case nd.Camera >= 0 && m.Cameras[nd.Camera].Name != "":
		return m.Cameras[nd.Camera].Name
	case nd.Light >= 0 && m.Lights[nd.Light].Name != "":
		return m.Lights[nd.Light].Name
	case nd.Mesh >= 0:
		return "mesh"
	case nd.Camera >= 0:
		return "camera"
	case nd.Light >= 0:
		return "light"
	}
	return "node"
}

// siblingKeys returns the key of each of the sibling nodes in its parent's path: its name, with
// "~K" added for the K-th (K ≥ 2) sibling of the same name.
func siblingKeys(m *gltf.Model, nodes []int) []string {
	seen := map[string]int{}
	keys := make([]string, len(nodes))
	for i, n := range nodes {
		name := nodeName(m, n)
		seen[name]++
		keys[i] = name
		if k := seen[name]; k > 1 {
			keys[i] = name + "~" + strconv.Itoa(k)
		}
	}
	return keys
}

// pathHash is the hash of a name path: its parent's path hash (0 for a root) and its key. Hashing
// link by link keeps the work per node constant, however deep the tree.
func pathHash(parent uint64, key string) uint64 {
	h := fnv.New64a()
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], parent)
	_, _ = h.Write(b[:]) // a hash.Hash never fails
	_, _ = h.Write([]byte(key))
	return h.Sum64()
}

// idOf is the scene id of the entity whose name path hashes to path: in 1..scene.MaxID.
func idOf(path uint64) uint64 { return path%scene.MaxID + 1 }

// spawn adds an entity named name, with the id of path, under parent.
func (b *builder) spawn(path uint64, name string, parent ecs.Entity, order float64, comps ...any) (ecs.Entity, error) {
	b.n++
	if b.max > 0 && b.n > b.max {
		return ecs.Entity{}, fmt.Errorf("the model makes more than %d entities (Limits.MaxEntities)", b.max)
	}
	id := idOf(path)
	if other, ok := b.ids[id]; ok {
		return ecs.Entity{}, fmt.Errorf("nodes %q and %q get the same id: rename one", other, name)
	}
	b.ids[id] = name
	comps = append(comps, &scene.Name{Value: name}, &scene.SceneID{ID: id, Order: order})
	e := b.w.Spawn(comps...)
	if !parent.IsZero() {
		if err := b.w.SetParent(e, parent); err != nil {
			return ecs.Entity{}, err
		}
	}
	return e, nil
}

// node spawns a node's entity (and one per primitive when its mesh has several) and returns its
// children to spawn, last first.
func (b *builder) node(p pending) ([]pending, error) {
	nd := &b.m.Nodes[p.node]
	name := nodeName(b.m, p.node)
	tr, sheared := transformOf(nd.Local)
	if sheared {
		b.warnings = append(b.warnings, fmt.Sprintf("node %q: its matrix shears, which a Transform cannot: drawn without the shear", name))
	}
	comps := []any{&tr}
	if nd.Camera >= 0 {
		c := cameraOf(&b.m.Cameras[nd.Camera])
		comps = append(comps, &c)
	}
	if nd.Light >= 0 {
		l := lightOf(&b.m.Lights[nd.Light])
		comps = append(comps, &l)
	}
	var prims []int
	if nd.Mesh >= 0 {
		for i, pr := range b.m.Meshes[nd.Mesh].Primitives {
			if !pr.Skipped {
				prims = append(prims, i)
			}
		}
		if len(prims) == 1 {
			comps = append(comps, b.primitive(nd.Mesh, prims[0])...)
		}
	}
	e, err := b.spawn(p.path, name, p.parent, p.order, comps...)
	if err != nil {
		return nil, err
	}
	next := 0.0
	if len(prims) > 1 {
		for _, i := range prims {
			pc := append([]any{&ecs.Transform{Scale: mgl32.Vec3{1, 1, 1}}}, b.primitive(nd.Mesh, i)...)
			if _, err := b.spawn(pathHash(p.path, "#"+strconv.Itoa(i)), "primitive "+strconv.Itoa(i), e, next, pc...); err != nil {
				return nil, err
			}
			next++
		}
	}
	keys := siblingKeys(b.m, nd.Children)
	kids := make([]pending, 0, len(nd.Children))
	for i := len(nd.Children) - 1; i >= 0; i-- {
		kids = append(kids, pending{node: nd.Children[i], path: pathHash(p.path, keys[i]), parent: e, order: next + float64(i)})
	}
	return kids, nil
}

// primitive returns the Mesh and Material of primitive p of mesh mi.
func (b *builder) primitive(mi, p int) []any {
	mesh := &scene.Mesh{Asset: b.base + "#" + gltf.MeshPart(b.m, mi, p)}
	mat := scene.Material{}.Default()
	if i := b.m.Meshes[mi].Primitives[p].Material; i >= 0 {
		mat = b.material(&b.m.Materials[i])
	}
	return []any{mesh, &mat}
}

// material converts a glTF material.
func (b *builder) material(g *gltf.Material) scene.Material {
	mat := scene.Material{}.Default()
	mat.BaseColor = g.BaseColorFactor
	mat.BaseColorTexture = b.texture(g.BaseColorTexture)
	mat.Metallic, mat.Roughness = clamp01(g.MetallicFactor), clamp01(g.RoughnessFactor)
	mat.MetallicRoughnessTexture = b.texture(g.MetallicRoughnessTexture)
	mat.NormalTexture = b.texture(g.NormalTexture)
	if g.NormalTexture != nil {
		mat.NormalScale = g.NormalTexture.Scale
	}
	mat.OcclusionTexture = b.texture(g.OcclusionTexture)
	if g.OcclusionTexture != nil {
		mat.OcclusionStrength = clamp01(g.OcclusionTexture.Scale)
	}
	mat.Emissive = g.EmissiveFactor
	mat.EmissiveStrength = max(g.EmissiveStrength, 0)
	mat.EmissiveTexture = b.texture(g.EmissiveTexture)
	switch g.AlphaMode {
	case gltf.AlphaMask:
		mat.AlphaMode = scene.AlphaMask
	case gltf.AlphaBlend:
		mat.AlphaMode = scene.AlphaBlend
	}
	mat.AlphaCutoff = clamp01(g.AlphaCutoff)
	mat.DoubleSided = g.DoubleSided
	for i := range mat.BaseColor {
		mat.BaseColor[i] = clamp01(mat.BaseColor[i])
	}
	for i := range mat.Emissive {
		mat.Emissive[i] = clamp01(mat.Emissive[i])
	}
	return mat
}

func clamp01(x float32) float32 { return min(max(x, 0), 1) }

// texture converts a material's use of a texture (nil: none).
func (b *builder) texture(r *gltf.TextureRef) scene.Texture {
	t := scene.Texture{}.Default()
	if r == nil || r.Texture < 0 {
		return t
	}
	tex := &b.m.Textures[r.Texture]
	if tex.Source >= 0 {
		t.Image = b.image(tex.Source)
	}
	t.UV = uint8(min(max(r.TexCoord, 0), 1))
	if tex.Sampler >= 0 {
		s := &b.m.Samplers[tex.Sampler]
		t.WrapS, t.WrapT = wrapOf(s.WrapS), wrapOf(s.WrapT)
		if s.MagFilter == glNearest {
			t.MagFilter = scene.FilterNearest
		}
		t.MinFilter, t.Mipmaps = minFilterOf(s.MinFilter)
	}
	if tr := r.Transform; tr != nil {
		t.Offset, t.Scale = tr.Offset, tr.Scale
		t.Rotation = mgl32.RadToDeg(tr.Rotation)
		if tr.TexCoord >= 0 {
			t.UV = uint8(min(tr.TexCoord, 1))
		}
	}
	return t
}

// image returns the reference of image i: the file a .gltf names, relative to the model's folder,
// else the image inside the model.
func (b *builder) image(i int) string {
	img := &b.m.Images[i]
	if img.URI != "" {
		if p, err := url.PathUnescape(img.URI); err == nil && p != "" && !path.IsAbs(p) {
			return path.Clean(p)
		}
	}
	return b.base + "#" + gltf.ImagePart(i)
}

// OpenGL sampler enums glTF uses.
const (
	glNearest              = 9728
	glLinear               = 9729
	glNearestMipmapNearest = 9984
	glLinearMipmapNearest  = 9985
	glNearestMipmapLinear  = 9986
	glLinearMipmapLinear   = 9987
	glClampToEdge          = 33071
	glMirroredRepeat       = 33648
)

func wrapOf(v int) scene.Wrap {
	switch v {
	case glClampToEdge:
		return scene.WrapClamp
	case glMirroredRepeat:
		return scene.WrapMirror
	}
	return scene.WrapRepeat
}

func minFilterOf(v int) (scene.Filter, scene.Mipmaps) {
	switch v {
	case glNearest:
		return scene.FilterNearest, scene.MipmapsNone
	case glLinear:
		return scene.FilterLinear, scene.MipmapsNone
	case glNearestMipmapNearest:
		return scene.FilterNearest, scene.MipmapsNearest
	case glLinearMipmapNearest:
		return scene.FilterLinear, scene.MipmapsNearest
	case glNearestMipmapLinear:
		return scene.FilterNearest, scene.MipmapsLinear
	}
	return scene.FilterLinear, scene.MipmapsLinear // unset: trilinear
}

// cameraOf converts a glTF camera. An infinite perspective projection gets a far plane a
// million times its near one.
func cameraOf(g *gltf.Camera) scene.Camera {
	c := scene.Camera{}.Default()
	c.Near = max(g.ZNear, 0.001)
	if g.ZFar > 0 {
		c.Far = max(g.ZFar, c.Near)
	} else {
		c.Far = c.Near * 1e6
	}
	if g.Type == "orthographic" {
		c.Projection = scene.Orthographic
		c.XMag, c.YMag = float32(math.Abs(float64(g.XMag))), float32(math.Abs(float64(g.YMag)))
		return c
	}
	c.FOV = min(max(mgl32.RadToDeg(g.YFov), 1), 179)
	c.Aspect = max(g.AspectRatio, 0)
	return c
}

// lightOf converts a KHR_lights_punctual light (cone angles from radians to degrees).
func lightOf(g *gltf.Light) scene.Light {
	l := scene.Light{Color: g.Color, Intensity: max(g.Intensity, 0), Range: max(g.Range, 0)}
	switch g.Type {
	case "directional":
		l.Kind = scene.LightDirectional
	case "spot":
		l.Kind = scene.LightSpot
	default:
		l.Kind = scene.LightPoint
	}
	for i := range l.Color {
		l.Color[i] = clamp01(l.Color[i])
	}
	l.InnerCone = min(max(mgl32.RadToDeg(g.InnerConeAngle), 0), 90)
	l.OuterCone = min(max(mgl32.RadToDeg(g.OuterConeAngle), 0), 90)
	return l
}

// transformOf decomposes a node's local matrix into a Transform (T·Ry·Rx·Rz·S, see
// ecs.TransformFromMatrix) and reports whether the matrix has shear it cannot hold. A matrix
// that flattens an axis keeps its translation only.
func transformOf(m mgl32.Mat4) (ecs.Transform, bool) {
	t, ok := ecs.TransformFromMatrix(m, mgl32.Vec3{})
	if !ok {
		return ecs.Transform{Position: m.Col(3).Vec3(), Scale: mgl32.Vec3{1, 1, 1}}, false
	}
	var c [3]mgl32.Vec3
	for i := range c {
		c[i] = m.Col(i).Vec3().Normalize()
	}
	sheared := absf(c[0].Dot(c[1])) > 1e-3 || absf(c[0].Dot(c[2])) > 1e-3 || absf(c[1].Dot(c[2])) > 1e-3
	return t, sheared
}

func absf(x float32) float32 { return float32(math.Abs(float64(x))) }
