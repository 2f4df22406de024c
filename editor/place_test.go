package editor

import (
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/editor/workspace"
	"github.com/voltex-editor/voltex/viewport"
)

// TestBesideSceneNeverBetweenCameraAndScene: something placed beside the scene never overlaps what it holds, sits
// on the content's floor two units from it, centred on it along the other axis, and never stands between the
// camera and the content: no line of sight from the eye to a point of the content passes through it. Looking
// along an axis, it goes to the side (on the view's right). In an empty scene it goes to the origin.
func TestBesideSceneNeverBetweenCameraAndScene(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := range 2000 {
		content := gridBounds(randomGrid(r))
		p := randomGrid(r)
		p.Origin = mgl32.Vec3{}
		box := gridBounds(p)
		dir := mgl32.Vec3{r.Float32()*2 - 1, r.Float32(), r.Float32()*2 - 1}
		if i%4 == 0 { // straight along an axis, from above
			dir = [...]mgl32.Vec3{{0, 0.5, 1}, {0, 0.5, -1}, {1, 0.5, 0}, {-1, 0.5, 0}}[i/4%4]
		}
		if dir.Len() < 1e-3 {
			continue
		}
		eye := content.Center().Add(dir.Normalize().Mul(content.Size().Len()/2 + 1 + 30*r.Float32()))
		pos := workspace.BesideScene(content, box, eye)
		b := viewport.AABB{Min: box.Min.Add(pos), Max: box.Max.Add(pos)}
		if overlaps(b, content) {
			t.Fatalf("box %v placed at %v overlaps the content %v", b, pos, content)
		}
		if abs32(b.Min[1]-content.Min[1]) > 1e-3 {
			t.Fatalf("box %v not on the content's floor %v", b, content)
		}
		gapX := max(b.Min[0]-content.Max[0], content.Min[0]-b.Max[0])
		gapZ := max(b.Min[2]-content.Max[2], content.Min[2]-b.Max[2])
		gap, other := gapX, 2
		if gapZ > gapX {
			gap, other = gapZ, 0
		}
		if gap < 2 || gap > 2.5 || abs32(b.Center()[other]-content.Center()[other]) > 1e-3 {
			t.Fatalf("box %v: gap %v to the content %v, or not centred on it along %c", b, gap, content, "XYZ"[other])
		}
		if i%4 == 0 && other == 0 && dir[0] == 0 || i%4 == 0 && other == 2 && dir[2] == 0 {
			t.Fatalf("looking along %v from %v, the box %v went behind or in front of the content %v, not beside it", dir, eye, b, content)
		}
		for _, target := range contentPoints(content) {
			ray := viewport.Ray{Origin: eye, Dir: target.Sub(eye)}
			if tHit, ok := ray.IntersectAABB(b); ok && tHit < 1 {
				t.Fatalf("eye %v: the box %v placed at %v stands between the camera and %v of the content %v", eye, b, pos, target, content)
			}
		}
	}
	if c := workspace.BesideScene(viewport.EmptyAABB(), gridBounds(randomGrid(r)), mgl32.Vec3{1, 0, 0}); c != (mgl32.Vec3{}) {
		t.Fatalf("in an empty scene the box goes to %v, want the origin", c)
	}
}

// contentPoints returns the corners, the middles of the edges and faces, and the centre of b.
func contentPoints(b viewport.AABB) []mgl32.Vec3 {
	var out []mgl32.Vec3
	for x := range 3 {
		for y := range 3 {
			for z := range 3 {
				f := mgl32.Vec3{float32(x) / 2, float32(y) / 2, float32(z) / 2}
				out = append(out, mgl32.Vec3{b.Min[0] + f[0]*(b.Max[0]-b.Min[0]), b.Min[1] + f[1]*(b.Max[1]-b.Min[1]), b.Min[2] + f[2]*(b.Max[2]-b.Min[2])})
			}
		}
	}
	return out
}
