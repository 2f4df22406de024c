// Package headless creates an OpenGL 4.1 core-profile context with no window
// and no display server: EGL on Mesa's surfaceless platform
// (EGL_MESA_platform_surfaceless; llvmpipe renders on the CPU). It is what
// the `voltex-editor render` subcommand and the GL tests of viewport/glrender
// run on; the GUI editor uses the context GLFW/giu creates instead.
//
// An EGL context is current on one OS thread. A [Context] therefore owns a
// goroutine locked to its own OS thread, and [Context.Do] runs functions
// there, so GL objects are always created, used and freed on the thread
// that owns the context, whichever goroutine calls Do.
//
// This package does not import go-gl: it only hands out [ProcAddress]
// (eglGetProcAddress) for viewport/glrender to pass to
// gl.InitWithProcAddrFunc. EGL resolves core GL entry points through
// libglvnd's dispatch, so the same function pointers work whichever window
// system created the current context.
//
// May import: the standard library and cgo (libEGL).
package headless
