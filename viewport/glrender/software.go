package glrender

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/go-gl/gl/v4.1-core/gl"
)

// The software-renderer switch. A software renderer (Mesa's llvmpipe, the only GL on many a build machine or
// virtual desktop) draws a picture of 100,000 cubes in hundreds of milliseconds, so the picture cache spares it
// drawing wherever it can: budgeted pictures drawn over several frames, thinned pictures while the view moves,
// patches, kept and adopted pictures, and pulled vertices (pull.go). A GPU draws that picture in a millisecond or
// two, and those paths would only cost it: every step waited for the GPU to finish (to measure it), and adoption
// reads the picture back. So a Renderer decides once, in New, from the context's GL_RENDERER string (or
// SoftwareEnv), and on a GPU draws every picture whole, at once, without waiting for the GPU or reading back
// (frustum culling, instancing, shared flat vertices and the re-tint of a selection change are kept: they help a
// GPU too).

// SoftwareEnv names the environment variable that overrides the software-renderer switch: "1" takes the software
// renderer's paths whatever GL_RENDERER says, "0" the GPU's; unset or empty, GL_RENDERER decides
// ([IsSoftwareRenderer]).
const SoftwareEnv = "VOLTEX_SOFTWARE_GL"

// softwareNames are what a software renderer's GL_RENDERER string contains (lower case).
var softwareNames = []string{"llvmpipe", "softpipe", "swiftshader", "software", "swrast", "lavapipe"}

// IsSoftwareRenderer reports whether name, an OpenGL GL_RENDERER string, is a software renderer's ("llvmpipe
// (LLVM 15.0.6, 256 bits)", "softpipe", "SwiftShader", "Microsoft Basic Render Driver (Software)", ...).
func IsSoftwareRenderer(name string) bool {
	n := strings.ToLower(name)
	for _, s := range softwareNames {
		if strings.Contains(n, s) {
			return true
		}
	}
	return false
}

// rendererName is the current context's GL_RENDERER string.
func rendererName() string {
	s := gl.GetString(gl.RENDERER)
	if s == nil {
		return ""
	}
	return gl.GoStr(s)
}

// softwareSwitch decides the switch for a context whose GL_RENDERER is name: SoftwareEnv when it is set, else
// IsSoftwareRenderer.
func softwareSwitch(name string) (bool, error) {
	switch v := os.Getenv(SoftwareEnv); v {
	case "":
		return IsSoftwareRenderer(name), nil
	case "1":
		return true, nil
	case "0":
		return false, nil
	default:
		return false, fmt.Errorf("glrender: %s=%q: want 1 (software renderer's paths), 0 (GPU's) or nothing (decided by GL_RENDERER %q)",
			SoftwareEnv, v, name)
	}
}

// waitGPU blocks until the GL work issued so far is done, by a fence (the software path's budgeted steps measure
// their time with it; the GPU path never waits).
func waitGPU() {
	f := gl.FenceSync(gl.SYNC_GPU_COMMANDS_COMPLETE, 0)
	for gl.ClientWaitSync(f, gl.SYNC_FLUSH_COMMANDS_BIT, uint64(time.Second)) == gl.TIMEOUT_EXPIRED {
	}
	gl.DeleteSync(f)
}
