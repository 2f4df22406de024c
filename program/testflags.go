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
// --test-components flag registering the inspector's test components (Showcase, Marker). The shipped program
// links neither the flag nor the fixtures.
func init() {
	testFlags = func(fs *flag.FlagSet) func(*editor.Options) {
		on := fs.Bool("test-components", false, "also register the inspector's test components (Showcase, Marker), for tests and screenshots")
		return func(o *editor.Options) {
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
