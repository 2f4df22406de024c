package program

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"strconv"
	"strings"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/editor"
	_ "github.com/voltex-editor/voltex/internal/glibcfix" // the glibc symbol cimgui-go needs on Debian 12
	"github.com/voltex-editor/voltex/serialize"
	_ "github.com/voltex-editor/voltex/serialize/gltfprefab" // .gltf and .glb files placed as prefabs, in the editor and every subcommand
)

// Main runs the program on os.Args and exits with its status: the editor, or the subcommand the first
// argument names.
func Main(g Game) {
	// The editor and its commands hold whole scenes in memory: a tighter garbage-collector target keeps the peak
	// of loading or saving a big one near its size (serialize.GCPercent). GOGC in the environment still wins.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(serialize.GCPercent)
	}
	os.Exit(Run(g, os.Args[1:], os.Stdout, os.Stderr))
}

// Game is what a game adds to the program: its components written in Go and its play-mode systems. The zero
// Game is the stock program.
type Game struct {
	// Register registers the game's Go components with w; every world the program makes (scenes, the clipboard,
	// play mode, each subcommand's loads) is scene.NewWorld followed by Register. Components declared in a
	// project file are registered after it (a declaration and a Go type of the same name must agree).
	Register func(w *ecs.World)
	// Systems make the play-mode systems, one call per Play, in this order. Default: scene.SpinSystem only
	// (list it too to keep the Spin behaviour).
	Systems []func(w *ecs.World) ecs.System
}

// newWorld returns the game's world maker (nil for the stock program: scene.NewWorld).
func (g Game) newWorld() func() *ecs.World {
	if g.Register == nil {
		return nil
	}
	return func() *ecs.World {
		w := scene.NewWorld()
		g.Register(w)
		return w
	}
}

// command is a subcommand of voltex-editor.
type command struct {
	name, summary string
	run           func(args []string, stdout, stderr io.Writer) int
}

// theGame is the Game Run was given (the attach command opens the editor with it).
var theGame Game

// commands lists the subcommands; the editor itself runs when the first argument names none of them.
var commands []command

func usage(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprintf(w, "Voltex Editor — a visual editor for ECS scenes.\n\n")
	fmt.Fprintf(w, "usage:\n  voltex-editor [flags] [SCENE.json]    open the editor (default: a new, empty scene)\n")
	for _, c := range commands {
		fmt.Fprintf(w, "  voltex-editor %-24s%s\n", c.name+" ...", c.summary)
	}
	fmt.Fprintf(w, "\nflags:\n")
	fs.SetOutput(w)
	fs.PrintDefaults()
	fmt.Fprintf(w, "\nRun 'voltex-editor COMMAND --help' for a command's flags.\n")
}

// testFlags is set only in the e2e tests' build of the program (build tag voltextest, testflags.go): it adds flags
// that the shipped program has not and returns what they change in the editor's options.
var testFlags func(fs *flag.FlagSet) func(*editor.Options)

// Run runs the program with the command-line arguments args (without the program name) and returns its exit
// status: 0 done, 1 failed, 2 wrong command line. Run is not safe for concurrent use.
func Run(g Game, args []string, stdout, stderr io.Writer) int {
	worlds = newWorldSource(g.newWorld())
	theGame = g
	if len(args) > 0 {
		for _, c := range commands {
			if args[0] == c.name {
				return c.run(args[1:], stdout, stderr)
			}
		}
	}
	fs := flag.NewFlagSet("voltex-editor", flag.ContinueOnError)
	size := fs.String("size", "1600x1000", "initial window size, WIDTHxHEIGHT")
	settings := fs.String("settings", "", "settings folder (recent files); default: the user's config folder")
	var testOpts func(*editor.Options)
	if testFlags != nil {
		testOpts = testFlags(fs)
	}
	fs.Usage = func() {} // errors are reported below, once
	fs.SetOutput(io.Discard)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			usage(stdout, fs)
			return 0
		}
		fmt.Fprintf(stderr, "voltex-editor: %v\n\n", err)
		usage(stderr, fs)
		return 2
	}
	if fs.NArg() > 1 {
		fmt.Fprintf(stderr, "voltex-editor: at most one scene file, got %d arguments\n\n", fs.NArg())
		usage(stderr, fs)
		return 2
	}
	w, h, err := parseSize(*size, 16384)
	if err != nil {
		fmt.Fprintf(stderr, "voltex-editor: --size: %v\n", err)
		return 2
	}
	opts := editor.Options{Width: w, Height: h, SettingsDir: *settings, NewWorld: g.newWorld(), Systems: g.Systems}
	if testOpts != nil {
		testOpts(&opts)
	}
	if fs.NArg() == 1 {
		opts.ScenePath = fs.Arg(0)
	}
	return launch(opts, stderr)
}

// launch opens the editor with opts and runs it until its window closes.
func launch(opts editor.Options, stderr io.Writer) int {
	if path := os.Getenv(CPUProfileEnv); path != "" {
		stop, err := startCPUProfile(path)
		if err != nil {
			fmt.Fprintf(stderr, "voltex-editor: %s: %v\n", CPUProfileEnv, err)
			return 1
		}
		defer stop()
	}
	app, err := editor.New(opts)
	if app != nil {
		defer app.FlushSettings() // what New wrote, when the window does not open
	}
	if err != nil {
		fmt.Fprintf(stderr, "voltex-editor: %v\n", err)
		return 1
	}
	if runtime.GOOS == "linux" && os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
		fmt.Fprintln(stderr, "voltex-editor: no display to open a window on (DISPLAY is not set): run it in a desktop "+
			"session, or in a virtual one with xvfb-run; 'voltex-editor render' draws scenes without a display")
		return 1
	}
	if err := app.Run(); err != nil {
		fmt.Fprintf(stderr, "voltex-editor: %v\n", err)
		return 1
	}
	return 0
}

// CPUProfileEnv names the environment variable that makes the editor write a CPU profile of its whole run to the
// file it names (go tool pprof reads it): for finding where the time of a slow action goes (docs/performance.md).
const CPUProfileEnv = "VOLTEX_CPUPROFILE"

// startCPUProfile starts profiling the CPU into the file at path; stop ends it and closes the file.
func startCPUProfile(path string) (stop func(), err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		_ = f.Close() // the profile is not written: nothing to keep
		return nil, err
	}
	return func() {
		pprof.StopCPUProfile()
		_ = f.Close() // a profile is a debugging aid: the run's result does not depend on it
	}, nil
}

// parseSize parses "WIDTHxHEIGHT", each side within 64..maxSide.
func parseSize(s string, maxSide int) (w, h int, err error) {
	ws, hs, ok := strings.Cut(strings.ToLower(s), "x")
	if ok {
		w, err = strconv.Atoi(ws)
		if err == nil {
			h, err = strconv.Atoi(hs)
		}
	}
	if !ok || err != nil {
		return 0, 0, fmt.Errorf("%q is not a size like 1600x1000", s)
	}
	if w < 64 || h < 64 || w > maxSide || h > maxSide {
		return 0, 0, fmt.Errorf("%dx%d is out of range: each side must be within 64..%d", w, h, maxSide)
	}
	return w, h, nil
}
