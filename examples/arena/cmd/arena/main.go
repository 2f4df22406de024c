// Command arena is the arena game without graphics: it loads a level exported by the editor (or
// the level's scene file itself), runs the game's systems for a few ticks and prints what happened.
//
//	arena [-ticks 8] [-dt 0.5] LEVEL.export.json
//
// A level loaded from its scene file keeps its entities' scene ids, so a snapshot of the game taken
// through the live link compares with that file entity by entity (voltex-editor diff).
//
// With -live ADDR the game serves its world to tools (package serialize/live) on ADDR
// ("127.0.0.1:0": a port the system picks; "unix:PATH": a Unix socket) and runs -fps frames a
// second until interrupted (or for -ticks updates if given), printing "live: ADDR token TOKEN".
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"example.com/arena/components"
	"example.com/arena/systems"
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/serialize"
	"github.com/voltex-editor/voltex/serialize/game"
	"github.com/voltex-editor/voltex/serialize/live"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("arena", flag.ContinueOnError)
	fs.SetOutput(stderr)
	ticks := fs.Int("ticks", 8, "ticks to run")
	dt := fs.Float64("dt", 0.5, "seconds per tick")
	liveAddr := fs.String("live", "", "serve the world to tools on this address (127.0.0.1:PORT or unix:PATH)")
	fps := fs.Float64("fps", 30, "frames a second with -live")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 1 || *fps <= 0 {
		fmt.Fprintln(stderr, "usage: arena [-ticks N] [-dt SECONDS] [-live ADDR [-fps N]] LEVEL.export.json|LEVEL.json")
		return 2
	}
	ticksSet := false
	fs.Visit(func(f *flag.Flag) { ticksSet = ticksSet || f.Name == "ticks" })
	w, ents, name, isScene, err := loadLevel(fs.Arg(0))
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	for _, mk := range systems.All {
		w.AddSystem(mk(w))
	}
	fmt.Fprintf(stdout, "%s: %d entities\n", name, len(ents))
	report(stdout, w, ents, 0)
	if *liveAddr != "" {
		limit := -1 // until interrupted
		if ticksSet {
			limit = *ticks
		}
		opts := live.Options{Addr: *liveAddr}
		if isScene { // a tool may compare the world with it
			opts.Scene = fs.Arg(0)
		}
		return serveLive(w, opts, limit, *dt, *fps, stdout, stderr)
	}
	for i := 1; i <= *ticks; i++ {
		ecs.SetResource(w, scene.Time{Delta: float32(*dt), Elapsed: float64(i) * *dt})
		w.Update()
		report(stdout, w, ents, float64(i)**dt)
	}
	return 0
}

// loadLevel makes the game's world from a level: a world with the scene components and the arena's
// (the types voltex-editor gen made from the project file), filled from the export (references
// become entities, missing fields defaults) or from the scene file (isScene).
func loadLevel(path string) (w *ecs.World, ents []ecs.Entity, name string, isScene bool, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, "", false, err
	}
	isScene = serialize.IsScene(f)
	_ = f.Close() // only read
	newWorld := func() *ecs.World {
		w := scene.NewWorld()
		components.Register(w)
		return w
	}
	if isScene {
		s, err := serialize.LoadFile(context.Background(), path, serialize.LoadOptions{NewWorld: newWorld})
		if err != nil {
			return nil, nil, "", false, err
		}
		return s.World, scene.EnsureIDs(s.World), s.Name, true, nil
	}
	level, err := game.LoadFile(path)
	if err != nil {
		return nil, nil, "", false, err
	}
	w = newWorld()
	ents, err = serialize.SpawnExport(w, level)
	return w, ents, level.Name, false, err
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

// serveLive runs the game with the live link: a frame every 1/fps seconds, the systems running
// unless a tool paused them, until interrupted or, if limit >= 0, after limit updates.
func serveLive(w *ecs.World, opts live.Options, limit int, dt, fps float64, stdout, stderr io.Writer) int {
	srv, err := live.Serve(w, opts)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	defer func() { _ = srv.Close() }() // the game ends here: nothing it serves outlives it
	fmt.Fprintf(stdout, "live: %s token %s\n", srv.Addr(), srv.Token())
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(stop)
	tick := time.NewTicker(time.Duration(float64(time.Second) / fps))
	defer tick.Stop()
	for n := 0; limit < 0 || n < limit; {
		select {
		case <-stop:
			return 0
		case <-tick.C:
		}
		if srv.Frame() {
			n++
			ecs.SetResource(w, scene.Time{Delta: float32(dt), Elapsed: float64(n) * dt})
			w.Update()
		}
	}
	return 0
}
