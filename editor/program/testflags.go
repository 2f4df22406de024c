//go:build voltextest

package program

import (
	"flag"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/editor"
	"github.com/voltex-editor/voltex/inspector/fields/fieldstest"
)

// The e2e tests build the program with -tags voltextest (guitest.Binary): this file gives that build a
// --test-components flag registering the inspector's test components (Showcase, Marker), --test-job-delay
// (background jobs that last as long as a test needs) and --test-frame-delay (a low frame rate). The shipped
// program links neither the flags nor the fixtures.
func init() {
	testFlags = func(fs *flag.FlagSet) func(*editor.Options) {
		on := fs.Bool("test-components", false, "also register the inspector's test components (Showcase, Marker), for tests and screenshots")
		delay := fs.Duration("test-job-delay", 0, "pause this long after each progress step of a background job, so tests can act while one runs")
		frame := fs.Duration("test-frame-delay", 0, "make every frame last this much longer, as a big scene on a software renderer does")
		return func(o *editor.Options) {
			o.JobStepDelay = *delay
			o.FrameDelay = *frame
			if *on {
				o.NewWorld = func() *ecs.World {
					w := scene.NewWorld()
					fieldstest.RegisterShowcase(w)
					return w
				}
			}
		}
	}
}
