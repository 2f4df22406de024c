// Command arena is the arena game without graphics: it loads a level exported by the editor, runs
// the game's systems for a few ticks and prints what happened.
//
//	arena [-ticks 8] [-dt 0.5] LEVEL.export.json
package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"example.com/arena/components"
	"example.com/arena/systems"
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/serialize"
	"github.com/voltex-editor/voltex/serialize/game"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("arena", flag.ContinueOnError)
	fs.SetOutput(stderr)
	ticks := fs.Int("ticks", 8, "ticks to run")
	dt := fs.Float64("dt", 0.5, "seconds per tick")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "usage: arena [-ticks N] [-dt SECONDS] LEVEL.export.json")
		return 2
	}
	// The level as the editor exported it: entities in hierarchy order, references as indices.
	level, err := game.LoadFile(fs.Arg(0))
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	// A world with the scene components and the arena's (the types voltex-editor gen made from the
	// project file), filled from the export: references become entities, missing fields defaults.
	w := scene.NewWorld()
	components.Register(w)
	ents, err := serialize.SpawnExport(w, level)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	for _, mk := range systems.All {
		w.AddSystem(mk(w))
	}
	fmt.Fprintf(stdout, "%s: %d entities\n", level.Name, len(ents))
	report(stdout, w, ents, 0)
	for i := 1; i <= *ticks; i++ {
		ecs.SetResource(w, scene.Time{Delta: float32(*dt), Elapsed: float64(i) * *dt})
		w.Update()
		report(stdout, w, ents, float64(i)**dt)
	}
	return 0
}

// report prints every unit: where it is, whom it chases and its health; at the start, the banners too.
func report(out io.Writer, w *ecs.World, ents []ecs.Entity, t float64) {
	names := ecs.NewMap[scene.Name](w)
	if t == 0 {
		banners := ecs.NewMap[components.Banner](w)
		for _, e := range ents {
			if b, ok := banners.TryGet(e); ok {
				fmt.Fprintf(out, "  %s flies the %v banner, motto %q, tint %.2f\n", names.Get(e).Value, b.Team, b.Motto, b.Tint)
			}
		}
	}
	units := ecs.NewMap[components.Unit](w)
	health := ecs.NewMap[components.Health](w)
	pos := ecs.NewMap[ecs.Transform](w)
	fmt.Fprintf(out, "t=%.1fs\n", t)
	for _, e := range ents {
		u, ok := units.TryGet(e)
		if !ok {
			continue
		}
		target := "nobody"
		if n, ok := names.TryGet(u.Target); ok {
			target = n.Value
		}
		p := pos.Get(e).Position
		h := health.Get(e)
		fmt.Fprintf(out, "  %-8s %-4v at (%5.1f, %4.1f, %5.1f) chasing %-7s health %3.0f/%.0f\n",
			names.Get(e).Value, u.Team, p[0], p[1], p[2], target, h.Current, h.Max)
	}
}
