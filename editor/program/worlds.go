package program

import (
	"path/filepath"

	"errors"
	"fmt"
	"github.com/voltex-editor/voltex/assets"
	"io"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/serialize"
	"github.com/voltex-editor/voltex/serialize/project"
)

// worldSource makes the worlds the subcommands load files into: the game's own Go components
// (base) plus the components declared in the project file that applies to each file (found next to
// it or in a folder above, like go.mod). Project files are read once per run.
type worldSource struct {
	base     func() *ecs.World // nil: scene.NewWorld
	projects map[string]*projectResult
}

type projectResult struct {
	newWorld func() *ecs.World
	err      error
	reported bool
}

func newWorldSource(base func() *ecs.World) *worldSource {
	if base == nil {
		base = scene.NewWorld
	}
	return &worldSource{base: base, projects: map[string]*projectResult{}}
}

// errProject is returned by options when the project file of a file is broken; its problems were
// printed already.
var errProject = errors.New("the project file has problems")

// options returns the load options for the file at path. Errors are printed to stderr: a broken
// project file once (every problem as file:line:col; errProject is returned for each file it
// applies to).
func (ws *worldSource) options(path string, stderr io.Writer) (serialize.LoadOptions, error) {
	opts := serialize.LoadOptions{NewWorld: ws.base}
	// Asset references are checked on disk, in the scene's folder: a missing file is a warning (an
	// error with --strict), a symlink out of the folder an error.
	dir := filepath.Dir(path)
	opts.CheckAsset = func(ref string) error { return assets.CheckRef(dir, ref) }
	opts.CheckWorldMatrices = true // a world matrix that overflows is a warning at its entity
	opts.Prefabs = prefabsFor(opts)
	pf, err := project.FindFor(path)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", path, err)
		return opts, err
	}
	if pf == "" {
		return opts, nil
	}
	r := ws.projects[pf]
	if r == nil {
		r = &projectResult{}
		p, err := project.Load(pf)
		if err == nil {
			r.newWorld, err = p.NewWorld(ws.base)
		}
		r.err = err
		ws.projects[pf] = r
	}
	if r.err != nil {
		if !r.reported {
			printProblems(stderr, pf, r.err)
			r.reported = true
		}
		return opts, fmt.Errorf("%w: %s", errProject, pf)
	}
	opts.NewWorld = r.newWorld
	opts.Prefabs = prefabsFor(opts)
	return opts, nil
}

// prefabsFor returns the prefab set for loads with opts: prefab files are loaded into the same
// worlds, with the same limits and strictness, and their paths and asset references checked on
// disk like the scene's (a symlink out of the folder is an error).
func prefabsFor(opts serialize.LoadOptions) *serialize.Prefabs {
	return serialize.NewPrefabs(serialize.PrefabOptions{NewWorld: opts.NewWorld, Limits: opts.Limits, Strict: opts.Strict,
		CheckAsset: assets.CheckRef})
}

// worlds is the world source of the current run of the program (run sets it).
var worlds = newWorldSource(nil)
