package glrender

import (
	"fmt"

	"github.com/go-gl/gl/v4.1-core/gl"
)

// InitCurrentContext loads the OpenGL functions for the context current on this thread (gl.Init). The editor calls
// it once on the giu loop thread after the window exists, before [New], so that no other package needs to import
// go-gl. It reports the context's version on failure.
func InitCurrentContext() error {
	if err := gl.Init(); err != nil {
		return fmt.Errorf("glrender: loading OpenGL functions: %w", err)
	}
	return nil
}
