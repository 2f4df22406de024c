package glfwwait

/*
extern void glfwWaitEventsTimeout(double timeout);
*/
import "C"

import "time"

// Wait blocks until a window event arrives or timeout passes. Call it only on the GUI loop thread, inside a frame.
func Wait(timeout time.Duration) {
	C.glfwWaitEventsTimeout(C.double(timeout.Seconds()))
}
