package program

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	iofs "io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/assets"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/internal/atomicfile"
	"github.com/voltex-editor/voltex/internal/pngfile"
	"github.com/voltex-editor/voltex/internal/words"
	"github.com/voltex-editor/voltex/serialize"
	"github.com/voltex-editor/voltex/serialize/project"
	"github.com/voltex-editor/voltex/viewport"
	"github.com/voltex-editor/voltex/viewport/glrender"
)

func init() {
	commands = []command{
		{"validate", "check scenes, exports and OBJ models; exit 1 if any is invalid", runValidate},
		{"export", "write a scene's game export: export IN.json -o OUT.json", runExport},
		{"grid", "write a cube-grid scene: grid --nx 20 --nz 20 --spacing 1.5 -o FILE", runGrid},
		{"fmt", "print or rewrite scene files in canonical form (like gofmt)", runFmt},
		{"gen", "write Go types for the components of a project file: gen [-o FILE] [PROJECT]", runGen},
		{"render", "render a scene to PNG without a window: render SCENE -o OUT.png", runRender},
		{"diff", "what changed between two scenes, by entity, component and field", runDiff},
		{"merge", "three-way merge of scenes (git's merge driver): merge BASE OURS THEIRS -o OUT", runMerge},
		{"git-setup", "make git merge and diff scene files with voltex-editor", runGitSetup},
		{"model", "what a glTF 2.0 model (.gltf, .glb) holds: model [--json] FILE", runModel},
		{"attach", "open the editor on a running game's world: attach ADDR [--token T] [--snapshot OUT]", runAttach},
		{"recover", "the unsaved work a crashed session left in its journal: recover SCENE [--apply -o OUT]", runRecover},
		{"query", "list the entities a query matches: query DIR|FILE... 'Unit.team=Red !Spin'", runQuery},
		{"set", "change a field of the entities a query matches: set FILE... QUERY 'Transform.position.y+=1'", runSet},
	}
}

// newFlags returns a flag set for a subcommand whose usage goes to stderr (and --help to stdout, exit 0).
func newFlags(name, args, summary string) *flag.FlagSet {
	fs := flag.NewFlagSet("voltex-editor "+name, flag.ContinueOnError)
	fs.Usage = func() {
		out := fs.Output()
		fmt.Fprintf(out, "usage: voltex-editor %s %s\n\n%s\n", name, args, summary)
		if hasFlags(fs) {
			fmt.Fprintf(out, "\nflags:\n")
			fs.PrintDefaults()
		}
	}
	return fs
}

func hasFlags(fs *flag.FlagSet) bool {
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	return n > 0
}

// parseFlags parses args; it returns (exit code, false) when the command must stop: 0 after --help, 2 on errors.
// Flags may come before or after the positional arguments.
func parseFlags(fs *flag.FlagSet, args []string, stdout, stderr io.Writer) (int, bool) {
	fs.SetOutput(io.Discard) // errors and usage are printed below, once
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fs.SetOutput(stdout)
				fs.Usage()
				return 0, false
			}
			fs.SetOutput(stderr)
			fmt.Fprintf(stderr, "%s: %v\n", fs.Name(), err)
			fs.Usage()
			return 2, false
		}
		if fs.NArg() == 0 {
			break
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
	_ = fs.Parse(append([]string{"--"}, pos...))
	fs.SetOutput(stderr)
	return 0, true
}

// usageError reports a wrong command line: msg, then the command's usage, on stderr; exit code 2.
func usageError(fs *flag.FlagSet, stderr io.Writer, msg string) int {
	fmt.Fprintln(stderr, msg)
	fs.SetOutput(stderr)
	fs.Usage()
	return 2
}

func runValidate(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("validate", "[--strict] FILE...", "Checks scene files, game exports, project files and OBJ models. Prints a summary of each valid\n"+
		"file on stdout and every problem of an invalid one on stderr as file:line:col: message. Components\n"+
		"come from the project file next to each scene (voltex.project.json, or one in a folder above).\n"+
		"FILE - is standard input; a file not named .json or .obj (a pipe) is told an OBJ model or JSON by\n"+
		"its first bytes. Exit 0 if all are valid, 1 if not.")
	strict := fs.Bool("strict", false, "components that nothing declares are errors, not warnings")
	if code, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return code
	}
	if fs.NArg() == 0 {
		return usageError(fs, stderr, "voltex-editor validate: no files given")
	}
	bad := 0
	for _, path := range fs.Args() {
		if !validateOne(path, *strict, stdout, stderr) {
			bad++
		}
	}
	if bad > 0 {
		return 1
	}
	return 0
}

// validateOne checks one file ("-": standard input), reading it once, and reports whether it is
// valid.
func validateOne(path string, strict bool, stdout, stderr io.Writer) bool {
	ext := strings.ToLower(filepath.Ext(path))
	if ext == ".obj" && path != "-" {
		return describeOBJ(path, func() (string, error) { return assets.DescribeOBJ(path) }, stdout, stderr)
	}
	in, err := serialize.OpenInput(path)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return false
	}
	defer in.Close()
	// A model piped in (standard input, a FIFO) or named otherwise is told from a scene by its
	// first bytes.
	if ext != ".json" && assets.LooksLikeOBJ(in.Peek(512)) {
		return describeOBJ(in.Name, func() (string, error) { return assets.DescribeOBJFrom(in.Name, in) }, stdout, stderr)
	}
	if in.Kind() == serialize.KindProject {
		p, err := readProject(in)
		if err == nil {
			_, err = p.NewWorld(worlds.base)
		}
		if err != nil {
			printProblems(stderr, in.Name, err)
			return false
		}
		fmt.Fprintf(stdout, "%s: ok: project file, %s\n", in.Name, plural(len(p.Components), "component"))
		return true
	}
	opts, err := worlds.options(path, stderr)
	if err != nil { // printed by options
		return false
	}
	opts.Strict = strict
	opts.Prefabs = prefabsFor(opts)
	v, err := serialize.ValidateInput(context.Background(), in, opts)
	printWarnings(stderr, v.Warnings)
	if err != nil {
		printProblems(stderr, in.Name, err)
		return false
	}
	fmt.Fprintf(stdout, "%s: ok: %s\n", in.Name, v.Summary)
	return true
}

// describeOBJ prints the summary of a model (describe returns it) or its problems.
func describeOBJ(name string, describe func() (string, error), stdout, stderr io.Writer) bool {
	desc, err := describe()
	if err != nil {
		fmt.Fprintln(stderr, strings.TrimRight(err.Error(), "\n"))
		return false
	}
	fmt.Fprintf(stdout, "%s: ok: %s\n", name, desc)
	return true
}

// readProject reads the project file in as a stream (within the project file limits).
func readProject(in *serialize.Input) (*project.Project, error) { return project.Read(in, in.Name) }

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// printWarnings prints the warnings of a load, one per line (file:line:col: warning: path: message).
func printWarnings(w io.Writer, warnings []serialize.Problem) {
	for _, p := range warnings {
		fmt.Fprintln(w, p.String())
	}
}

// printProblems prints a load error: one problem per line (file:line:col: path: message), then how
// many more were found ("… and 9,900 more problems").
func printProblems(w io.Writer, path string, err error) {
	var se *serialize.Error
	if errors.As(err, &se) {
		for _, p := range se.Problems {
			fmt.Fprintln(w, p.String())
		}
		if more := se.More(); more != "" {
			fmt.Fprintln(w, more)
		}
		return
	}
	fmt.Fprintf(w, "%s: %v\n", path, err)
}

func runExport(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("export", "IN.json -o OUT.json", "Writes the game export (format voltex.export, read by package serialize/game) of a scene.")
	out := fs.String("o", "", "output file (required)")
	if code, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return code
	}
	if fs.NArg() != 1 || *out == "" {
		return usageError(fs, stderr, "voltex-editor export: need one input scene and -o OUT.json")
	}
	opts, err := worlds.options(fs.Arg(0), stderr)
	if err != nil { // printed by options
		return 1
	}
	ctx := context.Background()
	s, err := serialize.LoadFile(ctx, fs.Arg(0), opts)
	if err != nil {
		printProblems(stderr, fs.Arg(0), err)
		return 1
	}
	printWarnings(stderr, s.Warnings)
	if err := atomicfile.WriteFileFunc(*out, func(w io.Writer) error { return serialize.Export(ctx, w, s) }); err != nil {
		fmt.Fprintf(stderr, "voltex-editor export: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "wrote %s\n", *out)
	return 0
}

// vec3Flag parses "x,y,z" (or one number for all three).
type vec3Flag struct{ v *mgl32.Vec3 }

func (f vec3Flag) String() string {
	if f.v == nil {
		return ""
	}
	return fmt.Sprintf("%g,%g,%g", f.v[0], f.v[1], f.v[2])
}

func (f vec3Flag) Set(s string) error {
	parts := strings.Split(s, ",")
	if len(parts) != 1 && len(parts) != 3 {
		return fmt.Errorf("want x,y,z or one number, got %q", s)
	}
	var v mgl32.Vec3
	for i := range 3 {
		p := parts[0]
		if len(parts) == 3 {
			p = parts[i]
		}
		x, err := strconv.ParseFloat(strings.TrimSpace(p), 32)
		if err != nil || math.IsInf(x, 0) || math.IsNaN(x) {
			return fmt.Errorf("%q is not a finite number", p)
		}
		v[i] = float32(x)
	}
	*f.v = v
	return nil
}

// optFloat is a float flag whose unset value is NaN (and is not shown as a default).
type optFloat float64

func (f *optFloat) String() string {
	if f == nil || math.IsNaN(float64(*f)) || *f == 0 {
		return ""
	}
	return strconv.FormatFloat(float64(*f), 'g', -1, 64)
}

func (f *optFloat) Set(s string) error {
	x, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
		return fmt.Errorf("%q is not a finite number", s)
	}
	*f = optFloat(x)
	return nil
}

// optionalFlag is a flag whose default depends on other flags: it records whether it was set, and its usage
// shows no "(default …)" (its help text says what happens without it).
type optionalFlag struct {
	flag.Value
	set *bool
}

func (f optionalFlag) String() string {
	if f.Value == nil || f.set == nil || !*f.set {
		return ""
	}
	return f.Value.String()
}

func (f optionalFlag) Set(s string) error {
	if err := f.Value.Set(s); err != nil {
		return err
	}
	*f.set = true
	return nil
}

// colorFlag parses "#rrggbb", "#rrggbbaa" or "r,g,b[,a]" with channels in 0..1.
type colorFlag struct{ c *[4]float32 }

func (f colorFlag) String() string {
	if f.c == nil {
		return ""
	}
	return fmt.Sprintf("%g,%g,%g,%g", f.c[0], f.c[1], f.c[2], f.c[3])
}

func (f colorFlag) Set(s string) error {
	c, err := parseColor(s)
	if err != nil {
		return err
	}
	*f.c = c
	return nil
}

func parseColor(s string) ([4]float32, error) {
	c := [4]float32{0, 0, 0, 1}
	if h, ok := strings.CutPrefix(s, "#"); ok {
		if len(h) != 6 && len(h) != 8 {
			return c, fmt.Errorf("colour %q: want #rrggbb or #rrggbbaa", s)
		}
		for i := range len(h) / 2 {
			b, err := strconv.ParseUint(h[2*i:2*i+2], 16, 8)
			if err != nil {
				return c, fmt.Errorf("colour %q: %q is not hex", s, h[2*i:2*i+2])
			}
			c[i] = float32(b) / 255
		}
		return c, nil
	}
	parts := strings.Split(s, ",")
	if len(parts) != 3 && len(parts) != 4 {
		return c, fmt.Errorf("colour %q: want r,g,b[,a] (0..1) or #rrggbb", s)
	}
	for i, p := range parts {
		x, err := strconv.ParseFloat(strings.TrimSpace(p), 32)
		if err != nil || !(x >= 0 && x <= 1) {
			return c, fmt.Errorf("colour %q: channel %q is not a number in 0..1", s, p)
		}
		c[i] = float32(x)
	}
	return c, nil
}

func runGrid(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("grid", "[flags] -o FILE.json", "Writes a scene holding a grid of cubes, made by the same code as the editor's Spawn Cube Grid.")
	p := scene.DefaultGrid()
	nx := fs.Int("nx", p.Count[0], "cubes along X")
	ny := fs.Int("ny", p.Count[1], "cubes along Y")
	nz := fs.Int("nz", p.Count[2], "cubes along Z")
	spacing := fs.Float64("spacing", 1.5, "distance between neighbouring cubes (all axes)")
	var setXYZ, setTo bool
	fs.Var(optionalFlag{vec3Flag{&p.Spacing}, &setXYZ}, "spacing-xyz", "per-axis spacing x,y,z (overrides --spacing)")
	fs.Var(vec3Flag{&p.Origin}, "origin", "centre of the grid x,y,z")
	fs.Var(colorFlag{&p.ColorFrom}, "color-from", "colour of the first corner: #rrggbb or r,g,b[,a]")
	fs.Var(optionalFlag{colorFlag{&p.ColorTo}, &setTo}, "color-to", "colour of the last corner (default: same as --color-from)")
	mesh := fs.String("mesh", scene.MeshCube, "mesh of every cube")
	spin := fs.Float64("spin", 0, "add Spin about +Y at this many degrees per second (0: no Spin)")
	group := fs.String("group", "", "put the cubes under a new parent entity with this name")
	name := fs.String("name", "Cubes", "scene name")
	seed := fs.Uint64("seed", 0, "make the entity ids from this seed, so the same flags give the same file (0: random ids)")
	out := fs.String("o", "", "output file (required)")
	if code, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return code
	}
	if *out == "" || fs.NArg() != 0 {
		return usageError(fs, stderr, "voltex-editor grid: need -o FILE.json and no other arguments")
	}
	p.Count = [3]int{*nx, *ny, *nz}
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "color-from" && !setTo {
			p.ColorTo = p.ColorFrom
		}
	})
	if !setXYZ {
		s := float32(*spacing)
		p.Spacing = mgl32.Vec3{s, s, s}
	}
	p.Mesh, p.Group = *mesh, *group
	if *spin != 0 {
		p.Spin = &scene.Spin{Axis: mgl32.Vec3{0, 1, 0}, Speed: float32(*spin)}
	}
	s, err := serialize.GridScene(p, *name, *seed)
	if err != nil {
		fmt.Fprintf(stderr, "voltex-editor grid: %v\n", err)
		return 1
	}
	if err := serialize.SaveFile(context.Background(), *out, s, serialize.SaveOptions{}); err != nil { // streamed
		fmt.Fprintf(stderr, "voltex-editor grid: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "wrote %s: %s\n", *out, plural(p.Count[0]*p.Count[1]*p.Count[2], "cube"))
	return 0
}

func runFmt(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("fmt", "[-w] [-l] FILE|DIR...", "Prints scene files in canonical form (what the editor writes), like gofmt. A folder stands for\n"+
		"every scene file in it and below (.json files whose format is voltex.scene). Components renamed\n"+
		"in the project file (formerNames) are written under their new names, so fmt -w DIR migrates a\n"+
		"whole folder of scenes.")
	write := fs.Bool("w", false, "write the canonical form back to each file (atomically) instead of printing it")
	list := fs.Bool("l", false, "list the files whose formatting differs from the canonical form")
	if code, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return code
	}
	if fs.NArg() == 0 {
		return usageError(fs, stderr, "voltex-editor fmt: no files given")
	}
	if *write && slices.Contains(fs.Args(), "-") {
		return usageError(fs, stderr, "voltex-editor fmt: -w cannot write back standard input")
	}
	code := 0
	for _, arg := range fs.Args() {
		if st, err := os.Stat(arg); err == nil && st.IsDir() {
			found, err := sceneFiles(arg)
			if err != nil {
				fmt.Fprintf(stderr, "%v\n", err)
				code = 1
			}
			for _, path := range found {
				if !formatOne(path, true, *write, *list, stdout, stderr) {
					code = 1
				}
			}
			continue
		}
		if !formatOne(arg, false, *write, *list, stdout, stderr) {
			code = 1
		}
	}
	return code
}

// formatOne formats one file ("-": standard input), reading it once: printed to stdout, listed
// (list) or written back (write) if it is not in canonical form. With onlyScenes, a file that
// does not say it is a scene is left alone. It reports false on errors.
func formatOne(path string, onlyScenes, write, list bool, stdout, stderr io.Writer) bool {
	in, err := serialize.OpenInput(path)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return false
	}
	defer in.Close()
	if onlyScenes && !in.IsScene() {
		return true
	}
	opts, err := worlds.options(path, stderr)
	if err != nil { // printed by options
		return false
	}
	opts.File = in.Name
	ctx := context.Background()
	s, canon, err := serialize.LoadCanonical(ctx, in, opts)
	if err != nil {
		printProblems(stderr, in.Name, err)
		return false
	}
	if !write && !list {
		if err := serialize.Save(ctx, stdout, s, serialize.SaveOptions{}); err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", in.Name, err)
			return false
		}
		return true
	}
	same, err := canon.Same(ctx, s)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", in.Name, err)
		return false
	}
	if list && !same {
		fmt.Fprintln(stdout, in.Name)
	}
	if write && !same {
		if err := serialize.SaveFile(ctx, path, s, serialize.SaveOptions{}); err != nil {
			fmt.Fprintln(stderr, err)
			return false
		}
	}
	return true
}

// sceneFiles lists the .json files in dir and below, in lexical order (hidden folders skipped);
// formatOne leaves alone those that do not say they are scenes (exports, project files, other
// JSON).
func sceneFiles(dir string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(path string, d iofs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != dir && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir // .git and friends
			}
			return nil
		}
		if !strings.EqualFold(filepath.Ext(path), ".json") || !d.Type().IsRegular() {
			return nil
		}
		out = append(out, path) // formatOne checks that it is a scene
		return nil
	})
	return out, err
}

// runGen is `voltex-editor gen`: a project file's components as Go types.
func runGen(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("gen", "[-o FILE.go] [-pkg NAME] [PROJECT]", "Writes Go source for the components a project file declares (json tags, voltex hints, Default\n"+
		"methods, enum constants and a Register function), so that a game decodes its exports into the\n"+
		"same types the editor edits, and a Go-built editor can register them. PROJECT defaults to the\n"+
		"voltex.project.json of the current folder or the nearest folder above.")
	out := fs.String("o", "", "write to this file (atomically) instead of stdout")
	pkg := fs.String("pkg", "components", "Go package name of the generated file")
	if code, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return code
	}
	if fs.NArg() > 1 {
		return usageError(fs, stderr, "voltex-editor gen: at most one project file")
	}
	path := fs.Arg(0)
	if path == "" {
		found, err := project.Find(".")
		if err != nil || found == "" {
			fmt.Fprintf(stderr, "voltex-editor gen: no %s here or in a folder above; name one\n", project.FileName)
			return 1
		}
		path = found
	}
	p, err := project.Load(path)
	if err != nil {
		printProblems(stderr, path, err)
		return 1
	}
	src, err := project.Generate(p, project.GenOptions{Package: *pkg, Source: filepath.Base(path)})
	if err != nil {
		fmt.Fprintf(stderr, "voltex-editor gen: %v\n", err)
		return 1
	}
	if *out == "" {
		_, _ = stdout.Write(src) // like the other commands' output: a closed stdout is not reported
		return 0
	}
	if err := atomicfile.ReplaceFile(*out, src); err != nil {
		fmt.Fprintf(stderr, "voltex-editor gen: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "wrote %s: %s\n", *out, plural(len(p.Components), "component"))
	return 0
}

// The biggest image render draws: each side up to 8192 pixels, and 32 Mpixels in all (rendering,
// reading back and encoding take about 20 bytes per pixel: 640 MB at most; see docs/limits.md).
const (
	renderMaxSide   = 8192
	renderMaxPixels = 8192 * 4096
)

func runRender(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("render", "SCENE.json -o OUT.png [flags]", "Renders a scene offscreen (no display needed) and writes a PNG. Without camera flags the\n"+
		"scene's saved editor camera is used, and without one the camera frames the whole scene.")
	out := fs.String("o", "", "output PNG (required)")
	size := fs.String("size", "1280x720", "image size WIDTHxHEIGHT: each side 64..8192, at most 8192x4096 pixels in all")
	yaw, pitch, dist := optFloat(math.NaN()), optFloat(math.NaN()), optFloat(math.NaN())
	fs.Var(&yaw, "yaw", "camera yaw in degrees (default: the scene's camera, or 30)")
	fs.Var(&pitch, "pitch", "camera pitch in degrees (default: the scene's camera, or -25)")
	fs.Var(&dist, "distance", "camera distance from the pivot (default: the scene's camera, or framing the scene)")
	var pivot mgl32.Vec3
	fs.Var(vec3Flag{&pivot}, "pivot", "camera pivot x,y,z")
	frame := fs.Bool("frame", false, "frame the whole scene (keeping the yaw and pitch) even if it has a saved camera")
	if code, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return code
	}
	if fs.NArg() != 1 || *out == "" {
		return usageError(fs, stderr, "voltex-editor render: need one scene and -o OUT.png")
	}
	w, h, err := parseSize(*size, renderMaxSide)
	if err == nil && w*h > renderMaxPixels {
		err = fmt.Errorf("%dx%d is %s pixels, more than the limit of %s (8192x4096; about 20 bytes of memory per pixel)",
			w, h, words.Thousands(int64(w*h)), words.Thousands(renderMaxPixels))
	}
	if err != nil {
		fmt.Fprintf(stderr, "voltex-editor render: --size: %v\n", err)
		return 2
	}
	path := fs.Arg(0)
	opts, err := worlds.options(path, stderr)
	if err != nil { // printed by options
		return 1
	}
	opts.KeepBroken = true // an instance whose prefab cannot be used is drawn as a placeholder
	s, err := serialize.LoadFile(context.Background(), path, opts)
	if err != nil {
		printProblems(stderr, path, err)
		return 1
	}
	printWarnings(stderr, s.Warnings) // missing meshes (with their positions), Meshes without a Transform
	for _, p := range s.Broken {
		fmt.Fprintf(stderr, "%s\n", p.String())
	}
	reg := assets.NewRegistry(filepath.Dir(path), assets.DefaultLimits())
	b := viewport.NewBuilder(s.World, reg)
	b.Update()
	for _, ref := range reg.List() {
		// Missing files and unknown built-ins were reported by the load, at the reference.
		if err := reg.Err(ref); err != nil && !errors.Is(err, iofs.ErrNotExist) && !errors.Is(err, assets.ErrUnknownBuiltin) {
			fmt.Fprintf(stderr, "warning: %v: drawn as a placeholder\n", err)
		}
	}
	cam := viewport.DefaultCamera()
	pivotSet := false
	fs.Visit(func(f *flag.Flag) { pivotSet = pivotSet || f.Name == "pivot" })
	anyCamFlag := pivotSet || !math.IsNaN(float64(yaw)) || !math.IsNaN(float64(pitch)) || !math.IsNaN(float64(dist))
	switch {
	case s.Camera != nil:
		cam = cam.WithSaved(*s.Camera)
	case !anyCamFlag || math.IsNaN(float64(dist)):
		cam.Frame(b.DrawList().Bounds(), float32(w)/float32(h))
	}
	if !math.IsNaN(float64(yaw)) {
		cam.Yaw = float32(float64(yaw))
	}
	if !math.IsNaN(float64(pitch)) {
		cam.Pitch = float32(float64(pitch))
	}
	if !math.IsNaN(float64(dist)) {
		cam.Distance = float32(float64(dist))
	}
	if pivotSet {
		cam.Pivot = pivot
	}
	if (*frame || s.Camera == nil && anyCamFlag) && math.IsNaN(float64(dist)) {
		// Angles given but no distance: frame the scene from those angles.
		cam.Frame(b.DrawList().Bounds(), float32(w)/float32(h))
	}
	cam = cam.Normalized()
	img, err := glrender.RenderToImage(b.DrawList(), cam, w, h)
	if err != nil {
		fmt.Fprintf(stderr, "voltex-editor render: %v\n", err)
		return 1
	}
	if err := pngfile.Write(*out, img); err != nil {
		fmt.Fprintf(stderr, "voltex-editor render: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "wrote %s (%dx%d)\n", *out, w, h)
	return 0
}
