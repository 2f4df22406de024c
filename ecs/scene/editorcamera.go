package scene

import "github.com/go-gl/mathgl/mgl32"

// EditorCamera is the editor's orbit camera as scene files store it (the
// first four fields of viewport.Camera): it orbits Pivot at Distance, turned
// by Yaw and Pitch degrees. It is editor state saved with the scene, not a
// component: a scene's world holds no EditorCamera.
type EditorCamera struct {
	Pivot    mgl32.Vec3
	Yaw      float32
	Pitch    float32
	Distance float32
}
