// Command arena-editor is the Voltex Editor built with the arena's components and systems: Play runs
// Chase and Attack on the open scene, and every subcommand (validate, export, fmt, …) knows the
// arena's types.
package main

import (
	"example.com/arena/components"
	"example.com/arena/systems"
	"github.com/voltex-editor/voltex/editor/program"
)

func main() {
	program.Main(program.Game{
		Register: components.Register,
		Systems:  systems.All,
	})
}
