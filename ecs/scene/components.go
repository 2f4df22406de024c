package scene

import (
	"reflect"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/ecs"
)

// Name is an entity's display name.
type Name struct {
	Value string `json:"value"`
}

// SceneID is an entity's identity and place in its scene file.
//
// ID is a positive integer, unique within the scene and stable across saves
// (new ones are random: see [IDs]); parent links and entity references are
// written as these ids. Zero means "not assigned yet".
//
// Order places the entity among its siblings (the children of its parent,
// or the roots): siblings are listed by ascending Order, then ID (see
// [Compare]). Keys need not be consecutive, so that moving an entity
// changes only its own key ([OrderBetween]) and entities added apart keep
// their own keys ([NextOrder]).
type SceneID struct {
	ID    uint64  `json:"id" voltex:"readonly,tooltip=The entity's id in the scene file"`
	Order float64 `json:"order" voltex:"readonly,tooltip=The entity's place among its siblings (lower first)"`
}

// Built-in mesh assets.
const (
	MeshCube   = "builtin:cube"
	MeshPlane  = "builtin:plane"
	MeshSphere = "builtin:sphere"
)

// Mesh names the mesh an entity is drawn with: one of the builtin:… assets
// or a path relative to the scene file's folder.
type Mesh struct {
	Asset string `json:"asset" voltex:"asset"`
}

// Default returns a cube.
func (Mesh) Default() Mesh { return Mesh{Asset: MeshCube} }

// Color is an entity's colour as linear RGBA, each channel in 0..1.
type Color struct {
	RGBA [4]float32 `json:"rgba" voltex:"color,min=0,max=1,step=0.01"`
}

// Default returns opaque white.
func (Color) Default() Color { return Color{RGBA: [4]float32{1, 1, 1, 1}} }

// Spin rotates an entity about Axis (in its parent's space) at Speed degrees
// per second while the scene plays (see [SpinSystem]).
type Spin struct {
	Axis  mgl32.Vec3 `json:"axis"`
	Speed float32    `json:"speed" voltex:"step=1,tooltip=Degrees per second"`
}

// Default returns 45°/s about +Y.
func (Spin) Default() Spin { return Spin{Axis: mgl32.Vec3{0, 1, 0}, Speed: 45} }

// Camera is a game camera looking down its entity's -Z axis (glTF's cameras). A perspective
// camera sees FOV degrees vertically, Aspect (width / height) times as wide, or as wide as the
// view's shape when Aspect is 0. An orthographic one sees YMag up and down (1 when YMag is 0) and
// XMag to either side (YMag times the view's aspect when XMag is 0). Both see from Near to Far.
// Scene files written before Projection, Aspect, XMag and YMag existed load as perspective
// cameras with the view's aspect.
type Camera struct {
	FOV        float32    `json:"fov" voltex:"degrees,min=1,max=179,tooltip=Vertical field of view (perspective)"`
	Near       float32    `json:"near" voltex:"min=0.001"`
	Far        float32    `json:"far" voltex:"min=0.001"`
	Projection Projection `json:"projection"`
	Aspect     float32    `json:"aspect" voltex:"min=0,step=0.01,tooltip=Width / height (perspective); 0: the view's"`
	XMag       float32    `json:"xmag" voltex:"min=0,step=0.1,tooltip=Half the width seen (orthographic); 0: from YMag and the view's shape"`
	YMag       float32    `json:"ymag" voltex:"min=0,step=0.1,tooltip=Half the height seen (orthographic); 0: 1"`
}

// Default returns a 60° perspective camera with the view's aspect, seeing from 0.1 to 1000. The
// fields added for orthographic cameras are zero by default, so that a camera written without
// them (by an older file, or a Go literal) means the same.
func (Camera) Default() Camera { return Camera{FOV: 60, Near: 0.1, Far: 1000} }

// RawComponent is one component a scene file named but this build does not
// know: its name and its value as JSON, exactly as it will be written back.
type RawComponent struct {
	Name string `json:"name"`
	JSON string `json:"json" voltex:"multiline"`
}

// Unknown holds an entity's [RawComponent]s, sorted by name. The serializer
// fills it when loading and writes its contents back as ordinary components
// when saving; it is never written under its own name.
type Unknown struct {
	Components []RawComponent `json:"components" voltex:"readonly"`
}

// EditorOnly is implemented by component types that only the editor cares
// about (locks, gizmo state, …): they are saved in scene files but stripped
// from game exports.
type EditorOnly interface{ EditorOnly() }

// Transient is implemented by component types that are never written to any
// file (selection markers, play-mode bookkeeping, …).
type Transient interface{ Transient() }

// Register registers the built-in scene components with w (idempotent, like
// ecs.Register) and gives it an [IDs] resource if it has none.
func Register(w *ecs.World) {
	ecs.Register[Name](w)
	ecs.Register[SceneID](w)
	ecs.Register[Mesh](w)
	ecs.Register[Color](w)
	ecs.Register[Spin](w)
	ecs.Register[Camera](w, ecs.WithStorage(ecs.SparseSet))
	ecs.Register[Material](w)
	ecs.Register[Light](w, ecs.WithStorage(ecs.SparseSet))
	ecs.Register[Unknown](w, ecs.WithStorage(ecs.SparseSet))
	registerConflicts(w)
	registerPrefabs(w)
	if ecs.Resource[IDs](w) == nil {
		ecs.SetResource(w, RandomIDs())
	}
}

// NewWorld returns a new world with the scene components registered.
func NewWorld() *ecs.World {
	w := ecs.NewWorld()
	Register(w)
	return w
}

// IsEditorOnly reports whether a registered component is saved in scenes but left out of game
// exports: its type implements [EditorOnly], or it was registered with ecs.WithEditorOnly.
func IsEditorOnly(info *ecs.ComponentInfo) bool {
	return info.EditorOnly || info.Type.Implements(editorOnlyType)
}

// IsTransient reports whether a registered component is never written to files: its type
// implements [Transient], or it was registered with ecs.WithTransient.
func IsTransient(info *ecs.ComponentInfo) bool {
	return info.Transient || info.Type.Implements(transientType)
}

var (
	editorOnlyType = reflect.TypeFor[EditorOnly]()
	transientType  = reflect.TypeFor[Transient]()
)

// Builtin reports whether a registered component is one of the built-in scene components
// (ecs.Transform, Name, SceneID, Mesh, Color, Spin, Camera, Material, Light, Unknown,
// Prefab, PrefabPart, PrefabKept) or computed by the world.
func Builtin(info *ecs.ComponentInfo) bool {
	switch info.Type {
	case reflect.TypeFor[ecs.Transform](), reflect.TypeFor[Name](), reflect.TypeFor[SceneID](), reflect.TypeFor[Mesh](),
		reflect.TypeFor[Color](), reflect.TypeFor[Spin](), reflect.TypeFor[Camera](), reflect.TypeFor[Material](), reflect.TypeFor[Light](), reflect.TypeFor[Unknown](),
		reflect.TypeFor[Prefab](), reflect.TypeFor[PrefabPart](), reflect.TypeFor[PrefabKept]():
		return true
	}
	return info.Computed
}
