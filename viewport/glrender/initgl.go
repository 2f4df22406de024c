package glrender

import (
	"errors"
	"fmt"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/voltex-editor/voltex/viewport/glrender/headless"
)

// InitCurrentContext loads the OpenGL functions for the context that is
// current on the calling thread — in the editor, the giu/GLFW window's,
// on the UI loop thread — and checks that it is OpenGL 4.1 core or later.
// Call it once before [New]. (Headless contexts from [NewHeadless] are
// initialised already.) Loading goes through glXGetProcAddress, falling
// back to eglGetProcAddress; with libglvnd both give entry points that
// dispatch to whichever context is current.
func InitCurrentContext() error {
	if err := gl.Init(); err != nil {
		if err2 := gl.InitWithProcAddrFunc(headless.ProcAddress); err2 != nil {
			return fmt.Errorf("glrender: loading OpenGL functions: %w", errors.Join(err, err2))
		}
	}
	return checkVersion()
}

// checkVersion reports an error unless the current context is OpenGL 4.1
// or later.
func checkVersion() error {
	v := gl.GetString(gl.VERSION)
	if v == nil {
		return errors.New("glrender: no current OpenGL context on this thread (call from the thread that owns the window)")
	}
	var major, minor int32
	gl.GetIntegerv(gl.MAJOR_VERSION, &major)
	gl.GetIntegerv(gl.MINOR_VERSION, &minor)
	if major*10+minor < 41 {
		return fmt.Errorf("glrender: OpenGL %d.%d (%s): the viewport needs OpenGL 4.1 core", major, minor, gl.GoStr(v))
	}
	return nil
}
