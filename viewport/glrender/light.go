package glrender

import (
	"slices"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/viewport"
)

// maxLights is how many of the scene's lights light a picture (meshFS's arrays): the directional ones first,
// then the brightest at the eye.
const maxLights = 8

// lightUniformValues are meshFS's light arrays: per light, position and kind (w: 0 directional, 1 point, 2
// spot), the direction it shines along, colour × intensity, and range, cos inner, cos outer.
type lightUniformValues struct {
	n, dirs          int32 // lights, of which the first dirs are directional
	pos              [maxLights][4]float32
	dir, color, cone [maxLights][3]float32
}

// oneDirectional reports whether the lights are one directional light (the default rig's), which the ONE_LIGHT
// variants draw.
func (u *lightUniformValues) oneDirectional() bool { return u.n == 1 && u.dirs == 1 }

// setLights makes ls the scene's lights, and reports whether they changed.
func (d *drawer) setLights(ls []viewport.Light) bool {
	if slices.Equal(ls, d.lights) {
		return false
	}
	d.lights = append(d.lights[:0], ls...)
	return true
}

// pickLights sets u to the uniforms of the lights of a picture seen from eye: the scene's (at most maxLights: the
// directional ones, then the brightest at the eye), or without any the default rig, s's directional light.
func (d *drawer) pickLights(u *lightUniformValues, s *Settings, eye mgl32.Vec3) {
	*u = lightUniformValues{}
	if len(d.lights) == 0 {
		l := s.LightDir
		if l.Len() == 0 {
			l = mgl32.Vec3{0, 1, 0}
		}
		l = l.Normalize().Mul(-1)
		u.n, u.dirs = 1, 1
		u.dir[0], u.color[0] = l, s.LightColor
		return
	}
	ls := append(d.lightOrder[:0], d.lights...) // sorted in a copy kept for the next picture: no allocation
	d.lightOrder = ls
	score := func(l *viewport.Light) float32 {
		bright := max(l.Color[0], l.Color[1], l.Color[2])
		if l.Kind == scene.LightDirectional {
			return 1e30 + bright
		}
		d2 := l.Position.Sub(eye).LenSqr()
		return bright / max(d2, 1)
	}
	slices.SortStableFunc(ls, func(a, b viewport.Light) int {
		sa, sb := score(&a), score(&b)
		switch {
		case sa > sb:
			return -1
		case sa < sb:
			return 1
		}
		return 0
	})
	for i, l := range ls[:min(len(ls), maxLights)] {
		u.pos[i] = [4]float32{l.Position[0], l.Position[1], l.Position[2], float32(l.Kind)}
		u.dir[i] = l.Direction
		u.color[i] = l.Color
		u.cone[i] = [3]float32{l.Range, l.CosInner, l.CosOuter}
		u.n++
		if l.Kind == scene.LightDirectional {
			u.dirs++
		}
	}
}

// set gives program p, in use, the lights.
func (u *lightUniformValues) set(p *program) {
	gl.Uniform1i(p.loc("uLightCount"), u.n)
	gl.Uniform4fv(p.loc("uLightPos"), maxLights, &u.pos[0][0])
	gl.Uniform3fv(p.loc("uLightDir"), maxLights, &u.dir[0][0])
	gl.Uniform3fv(p.loc("uLightColor"), maxLights, &u.color[0][0])
	gl.Uniform3fv(p.loc("uLightCone"), maxLights, &u.cone[0][0])
}
