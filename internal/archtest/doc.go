// Package archtest holds architecture tests: the pure core of the editor (ecs, the scene model, serialize, assets,
// the viewport's camera and picking math, the inspector's field model, the editor's document model) must not link
// cgo, OpenGL, GLFW or giu, so that it builds anywhere, tests without a display, and a game can import it.
// It has no non-test code.
package archtest
