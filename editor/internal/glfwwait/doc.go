// Package glfwwait lets the editor sleep until the next input event when it is idle. giu's GLFW loop renders a
// frame at least once per target-FPS period; on a software rasteriser each frame of a large window costs tens of
// milliseconds, so an idle editor would never be idle. Waiting for events inside the frame callback makes an idle
// editor render nothing at all: any input, or giu.Update() from another goroutine (glfwPostEmptyEvent), wakes it.
//
// The GLFW symbols come from cimgui-go's prebuilt archive, which every giu binary links. May import: cgo only.
package glfwwait
