package editor

import (
	"fmt"
	"math"

	"github.com/AllenDang/cimgui-go/imgui"
	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/viewport"
	"github.com/voltex-editor/voltex/viewport/snap"
)

// vertexSnapRadius is how near the mouse (pixels) a vertex of another mesh must be drawn for a move to snap to it.
const vertexSnapRadius = 14

// snapModes are the snapping the toolbar turns on (settings.GridSnap, settings.SurfaceSnap).
type snapModes struct {
	grid, surface bool
}

// snapState is the snapping of a gizmo move: the meshes' indexes, what the drag moves (never a target), and the
// vertex snap in progress (hold V).
type snapState struct {
	cache snap.Cache
	world *ecs.World
	sel   []ecs.Entity // the dragged entities
	// moving marks by draw id the dragged entities and their descendants, and ids lists them; both are made when a
	// snap first needs them (a plain drag of a million entities does not pay for them).
	moving []bool
	ids    []uint32
	// source is the dragged vertex at the drag's start (world), chosen when V goes down: the one of the moved
	// meshes drawn nearest the mouse; hasSource is false until then.
	source    mgl32.Vec3
	hasSource bool
	target    snap.VertexHit // the vertex snapped to this frame (hasTarget)
	hasTarget bool
}

// beginSnap notes what a drag of the selection moves (sel is the drag's own: Selection.Entities makes it).
func (s *snapState) beginSnap(w *ecs.World, sel []ecs.Entity) {
	s.world, s.sel = w, sel
	s.moving, s.ids = nil, nil
	s.hasSource, s.hasTarget = false, false
}

// prepare marks what the drag moves, once per drag.
func (s *snapState) prepare() {
	if s.moving != nil || s.world == nil {
		return
	}
	s.moving = []bool{}
	stack := append([]ecs.Entity(nil), s.sel...)
	for len(stack) > 0 {
		e := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		id := viewport.EntityID(e)
		if int(id) >= len(s.moving) {
			s.moving = append(s.moving, make([]bool, int(id)+1-len(s.moving))...)
		}
		if s.moving[id] {
			continue
		}
		s.moving[id] = true
		s.ids = append(s.ids, id)
		stack = append(stack, s.world.Children(e)...)
	}
}

func (s *snapState) endSnap() {
	s.world, s.sel, s.moving, s.ids, s.hasSource, s.hasTarget = nil, nil, nil, nil, false, false
}

// still reports whether id is not moved by the drag (a target it may snap to).
func (s *snapState) still(id uint32) bool { return int(id) >= len(s.moving) || !s.moving[id] }

// snapView is the camera's view of the image and the mouse in it.
func (v *viewportPanel) snapView() (snap.View, mgl32.Vec2) {
	mp := imgui.MousePos()
	return snap.ViewOf(*v.doc.Camera(), v.area.w, v.area.h), mgl32.Vec2{mp.X - v.area.origin.X, mp.Y - v.area.origin.Y}
}

// vertexSnap returns the translation from the drag's start that puts the dragged vertex exactly on the vertex of
// another mesh drawn nearest the mouse (hold V); back maps the drawn list's positions to the drag's start (the
// inverse of the change it shows). ok is false when V is up or no vertex is near the mouse: the gizmo's own move
// stands.
func (v *viewportPanel) vertexSnap(back mgl32.Mat4) (delta mgl32.Vec3, ok bool) {
	s := &v.gz.snap
	if !imgui.IsKeyDown(imgui.KeyV) || v.scene.builder == nil {
		s.hasSource, s.hasTarget = false, false
		return mgl32.Vec3{}, false
	}
	s.prepare()
	dl := v.scene.builder.DrawList()
	view, mouse := v.snapView()
	if !s.hasSource {
		h, found := snap.VertexOf(dl, &s.cache, view, mouse, s.ids)
		if !found {
			return mgl32.Vec3{}, false
		}
		s.source, s.hasSource = back.Mul4x1(h.Point.Vec4(1)).Vec3(), true // where it was when the drag began
	}
	s.target, s.hasTarget = snap.Vertex(dl, &s.cache, view, mouse, vertexSnapRadius, s.still)
	if !s.hasTarget {
		return mgl32.Vec3{}, false
	}
	return s.target.Point.Sub(s.source), true
}

// surfaceSnap returns the world matrix that puts the dragged entity (its world matrix from when the drag began;
// its mesh's local bounds box) on the surface under the mouse: its bottom on the surface, its up axis turned to
// the surface's normal by the least rotation. ok is false when no other mesh is under the mouse.
func (v *viewportPanel) surfaceSnap(from mgl32.Mat4, box viewport.AABB) (mgl32.Mat4, bool) {
	if v.scene.builder == nil {
		return mgl32.Mat4{}, false
	}
	v.gz.snap.prepare()
	view, mouse := v.snapView()
	h, ok := snap.Surface(v.scene.builder.DrawList(), &v.gz.snap.cache, view.Ray(mouse[0], mouse[1]), v.gz.snap.still)
	if !ok {
		return mgl32.Mat4{}, false
	}
	return snap.OnSurface(from, box, h.Point, h.Normal), true
}

// surfaceAt is the surface r meets among the scene's meshes, if it does (a drop with surface snapping on): the
// same search as a move's surface snap, through the same indexes.
func (v *viewportPanel) surfaceAt(r viewport.Ray) (snap.SurfaceHit, bool) {
	if v.scene.builder == nil {
		return snap.SurfaceHit{}, false
	}
	return snap.Surface(v.scene.builder.DrawList(), &v.gz.snap.cache, r, nil)
}

// surfaceAhead is the surface the ray through the middle of the image meets, if it does (Place with surface
// snapping on).
func (v *viewportPanel) surfaceAhead() (snap.SurfaceHit, bool) {
	if v.area.w <= 0 || v.area.h <= 0 {
		return snap.SurfaceHit{}, false
	}
	return v.surfaceAt(v.doc.Camera().Ray(float32(v.area.w)/2, float32(v.area.h)/2, v.area.w, v.area.h))
}

// drawSnap marks the vertex snap (hold V) over the image: the dragged vertex and the one it snaps to.
func (v *viewportPanel) drawSnap() {
	s := &v.gz.snap
	if v.probe != nil {
		v.probe.SnapVertex = [2]int{}
	}
	if !v.gz.active || !s.hasTarget {
		return
	}
	dl := imgui.WindowDrawList()
	at := imgui.Vec2{X: v.area.origin.X + s.target.Pixel[0], Y: v.area.origin.Y + s.target.Pixel[1]}
	const ring, shadow = 0xff30f0ff, 0xc0000000 // ABGR: yellow on a dark edge
	dl.AddCircleV(at, 8, shadow, 20, 4)
	dl.AddCircleV(at, 8, ring, 20, 2)
	dl.AddCircleFilled(at, 3, ring)
	if v.probe != nil {
		v.probe.SnapVertex = [2]int{int(at.X), int(at.Y)}
	}
}

// drawSnapGrid draws the grid a move snaps to: lines step apart through origin (where the move began: it snaps to
// whole steps from there), on the horizontal plane through the dragged pivot (centre), around it; the lines fade
// towards its edge.
func (v *viewportPanel) drawSnapGrid(origin, centre mgl32.Vec3, step float32) {
	const n = 8 // lines each side of the centre
	cam := v.doc.Camera()
	dl := imgui.WindowDrawList()
	snapped := func(a int) float32 {
		return origin[a] + step*float32(math.Round(float64((centre[a]-origin[a])/step)))
	}
	cx, cz := snapped(0), snapped(2)
	px := func(x, z float32) (imgui.Vec2, bool) {
		sx, sy, ok := cam.WorldToPixel(mgl32.Vec3{x, centre[1], z}, v.area.w, v.area.h)
		return imgui.Vec2{X: v.area.origin.X + sx, Y: v.area.origin.Y + sy}, ok
	}
	for i := -n; i <= n; i++ {
		alpha := uint32(150 * (1 - float32(abs(i))/float32(n+1)))
		col := alpha<<24 | 0xf0d090 // ABGR: pale blue
		o := float32(i) * step
		ext := float32(n) * step
		for _, line := range [2][4]float32{{cx + o, cz - ext, cx + o, cz + ext}, {cx - ext, cz + o, cx + ext, cz + o}} {
			a, okA := px(line[0], line[1])
			b, okB := px(line[2], line[3])
			if okA && okB {
				dl.AddLineV(a, b, col, 1)
			}
		}
	}
}

func abs(i int) int {
	if i < 0 {
		return -i
	}
	return i
}

// snapLabel is the toolbar's Snap button: the move step it snaps to.
func snapLabel(step float32) string { return fmt.Sprintf("Snap %g", step) }
