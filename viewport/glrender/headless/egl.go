package headless

/*
#cgo LDFLAGS: -lEGL
#include <stdlib.h>
#include <EGL/egl.h>
#include <EGL/eglext.h>

#ifndef EGL_PLATFORM_SURFACELESS_MESA
#define EGL_PLATFORM_SURFACELESS_MESA 0x31DD
#endif

typedef struct {
	EGLDisplay dpy;
	EGLContext ctx;
	EGLint err;
	const char *where;
} voltex_egl;

static int voltex_egl_fail(voltex_egl *e, const char *where) {
	e->err = eglGetError();
	e->where = where;
	return 0;
}

// voltex_egl_display opens and initialises the surfaceless display. The
// display is process-wide (EGL returns the same handle for the same
// platform), so it is opened once and never terminated: terminating it
// would pull it from under the other contexts.
static int voltex_egl_display(voltex_egl *e) {
	PFNEGLGETPLATFORMDISPLAYEXTPROC getPlatformDisplay =
		(PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
	if (!getPlatformDisplay) return voltex_egl_fail(e, "eglGetProcAddress(eglGetPlatformDisplayEXT)");
	e->dpy = getPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
	if (e->dpy == EGL_NO_DISPLAY) return voltex_egl_fail(e, "eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA)");
	EGLint maj, min;
	if (!eglInitialize(e->dpy, &maj, &min)) return voltex_egl_fail(e, "eglInitialize");
	return 1;
}

// voltex_egl_open creates an OpenGL major.minor core-profile context on the
// display e->dpy and makes it current on the calling thread.
static int voltex_egl_open(voltex_egl *e, int major, int minor) {
	if (!eglBindAPI(EGL_OPENGL_API)) return voltex_egl_fail(e, "eglBindAPI(EGL_OPENGL_API)");
	EGLint cfgAttr[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
	EGLConfig cfg;
	EGLint n = 0;
	if (!eglChooseConfig(e->dpy, cfgAttr, &cfg, 1, &n) || n < 1) return voltex_egl_fail(e, "eglChooseConfig(EGL_OPENGL_BIT)");
	EGLint ctxAttr[] = {
		EGL_CONTEXT_MAJOR_VERSION, major,
		EGL_CONTEXT_MINOR_VERSION, minor,
		EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
		EGL_NONE,
	};
	e->ctx = eglCreateContext(e->dpy, cfg, EGL_NO_CONTEXT, ctxAttr);
	if (e->ctx == EGL_NO_CONTEXT) return voltex_egl_fail(e, "eglCreateContext(OpenGL core)");
	if (!eglMakeCurrent(e->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, e->ctx)) return voltex_egl_fail(e, "eglMakeCurrent");
	return 1;
}

static int voltex_egl_current(voltex_egl *e, int on) {
	EGLContext c = on ? e->ctx : EGL_NO_CONTEXT;
	if (!eglMakeCurrent(e->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, c)) return voltex_egl_fail(e, "eglMakeCurrent");
	return 1;
}

// voltex_egl_close destroys the context (the display stays, see above).
static void voltex_egl_close(voltex_egl *e) {
	if (e->dpy == EGL_NO_DISPLAY) return;
	eglMakeCurrent(e->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
	if (e->ctx != EGL_NO_CONTEXT) eglDestroyContext(e->dpy, e->ctx);
	e->ctx = EGL_NO_CONTEXT;
}

static void *voltex_egl_proc(const char *name) { return (void *)eglGetProcAddress(name); }

typedef const unsigned char *(*voltex_getstring)(unsigned int);

// voltex_gl_string calls glGetString(name) on the current context.
static const char *voltex_gl_string(unsigned int name) {
	voltex_getstring f = (voltex_getstring)eglGetProcAddress("glGetString");
	if (!f) return NULL;
	return (const char *)f(name);
}
*/
import "C"

import (
	"fmt"
	"sync"
	"unsafe"
)

// egl is an EGL display + context; its methods must run on the thread the
// context is (to be) current on.
type egl struct{ c C.voltex_egl }

func (e *egl) err() error {
	return fmt.Errorf("headless: %s failed: EGL error 0x%04x", C.GoString(e.c.where), int(e.c.err))
}

// display is the process-wide surfaceless EGL display.
var display = sync.OnceValues(func() (C.EGLDisplay, error) {
	var e egl
	if C.voltex_egl_display(&e.c) == 0 { //nolint:gocritic // cgo's rewrite of a Go pointer argument checks it with `0 == 0`
		return C.EGLDisplay(C.EGL_NO_DISPLAY), e.err()
	}
	return e.c.dpy, nil
})

func (e *egl) open(major, minor int) error {
	dpy, err := display()
	if err != nil {
		return err
	}
	e.c.dpy = dpy
	if C.voltex_egl_open(&e.c, C.int(major), C.int(minor)) == 0 { //nolint:gocritic // cgo's rewrite of a Go pointer argument checks it with `0 == 0`
		C.voltex_egl_close(&e.c) //nolint:gocritic // cgo's rewrite of a Go pointer argument checks it with `0 == 0`
		return e.err()
	}
	return nil
}

func (e *egl) makeCurrent(on bool) error {
	b := C.int(0)
	if on {
		b = 1
	}
	if C.voltex_egl_current(&e.c, b) == 0 { //nolint:gocritic // cgo's rewrite of a Go pointer argument checks it with `0 == 0`
		return e.err()
	}
	return nil
}

func (e *egl) close() { C.voltex_egl_close(&e.c) } //nolint:gocritic // cgo's rewrite of a Go pointer argument checks it with `0 == 0`

// glString returns glGetString(name) of the current context ("" if none).
func glString(name uint32) string {
	p := C.voltex_gl_string(C.uint(name))
	if p == nil {
		return ""
	}
	return C.GoString(p)
}

// ProcAddress returns the address of the GL or EGL function name, or nil.
// It may be called from any thread.
func ProcAddress(name string) unsafe.Pointer {
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	return C.voltex_egl_proc(cname)
}
