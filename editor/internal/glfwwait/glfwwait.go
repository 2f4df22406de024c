package glfwwait

/*
typedef struct GLFWwindow GLFWwindow;
typedef void (*GLFWwindowrefreshfun)(GLFWwindow*);
extern void glfwWaitEventsTimeout(double timeout);
extern GLFWwindow* glfwGetCurrentContext(void);
extern GLFWwindowrefreshfun glfwSetWindowRefreshCallback(GLFWwindow* window, GLFWwindowrefreshfun callback);

// voltex_no_refresh removes the window-refresh callback of the window whose context is current.
static int voltex_no_refresh(void) {
	GLFWwindow* w = glfwGetCurrentContext();
	if (w == 0) {
		return 0;
	}
	glfwSetWindowRefreshCallback(w, 0);
	return 1;
}
*/
import "C"

import "time"

// Wait blocks until a window event arrives or timeout passes. Call it only on the GUI loop thread, inside a frame,
// and only after Prepare.
func Wait(timeout time.Duration) {
	C.glfwWaitEventsTimeout(C.double(timeout.Seconds()))
}

// Prepare makes Wait safe to call inside a frame: it removes the backend's window-refresh callback, which renders
// a whole frame when the window is exposed — from inside Wait that would start a frame within a frame (an ImGui
// assertion). Without it an expose event simply wakes Wait, and the loop redraws. Call it on the GUI loop thread
// once the window exists; it reports whether a window was found.
func Prepare() bool {
	return C.voltex_no_refresh() != 0
}
