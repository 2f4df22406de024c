package serialize

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/internal/words"
	"github.com/voltex-editor/voltex/serialize/game"
)

// Format returns the canonical form of a scene file: what saving it after
// loading it gives (so fmt and the editor agree byte for byte). Older
// versions come out migrated to the current one; unknown components are
// kept. file names the source in problems. A file that does not load
// returns the load's *[Error] and no output.
func Format(src []byte, file string) ([]byte, error) {
	return FormatWith(src, file, LoadOptions{})
}

// FormatWith is [Format] with load options: the world maker that knows a
// game's components (whose former names come out as the current ones).
// opts.File is set to file.
func FormatWith(src []byte, file string, opts LoadOptions) ([]byte, error) {
	opts.File = file
	s, _, err := LoadCanonical(context.Background(), bytes.NewReader(src), opts)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	out.Grow(len(src) + len(src)/8)
	if err := Save(context.Background(), &out, s, SaveOptions{}); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// Canonical tells whether a scene's bytes are its canonical form, without
// holding either in memory: [LoadCanonical] hashes the input while it loads
// it, and Same hashes a save of the scene.
type Canonical struct {
	sum  [sha256.Size]byte
	size int64
}

// LoadCanonical loads r like [Load] and returns, beside the scene, a digest
// of the bytes read, to compare with the canonical form ([Canonical.Same]).
// r is read once, as a stream.
func LoadCanonical(ctx context.Context, r io.Reader, opts LoadOptions) (*Scene, *Canonical, error) {
	h := sha256.New()
	c := &countWriter{w: h}
	in := NewInput(r, opts.File)
	// The same input, read once as a stream (no second pass: every byte is hashed once); its
	// size, if known, is still checked before reading.
	tee := &Input{Name: in.Name, Path: in.Path, r: io.TeeReader(in, c), size: in.size}
	s, err := Load(ctx, tee, opts)
	if err != nil {
		return nil, nil, err
	}
	var can Canonical
	h.Sum(can.sum[:0])
	can.size = c.n
	return s, &can, nil
}

// Same reports whether saving s gives the bytes that were loaded (s must be
// the scene LoadCanonical returned, unchanged). It saves s once, into a
// hash.
func (c *Canonical) Same(ctx context.Context, s *Scene) (bool, error) {
	h := sha256.New()
	cw := &countWriter{w: h}
	if err := Save(ctx, cw, s, SaveOptions{}); err != nil {
		return false, err
	}
	var sum [sha256.Size]byte
	return cw.n == c.size && bytes.Equal(h.Sum(sum[:0]), c.sum[:]), nil
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// FileKind is what a file claims to be, by its "format" key.
type FileKind int

// File kinds returned by [Input.Kind].
const (
	KindScene   FileKind = iota // "voltex.scene", or no format key (a version 0 scene)
	KindExport                  // "voltex.export"
	KindProject                 // "voltex.project" (a project file declaring a game's components)
)

// Validated is what [ValidateInput] reports about a valid file.
type Validated struct {
	Kind     FileKind
	Warnings []Problem
	// Summary describes the file in a few words: `scene "Cubes", 400
	// entities` or `export, 8 entities, 1 mesh`.
	Summary string
}

// ValidateInput checks a scene or export (told apart by [Input.Kind])
// without keeping anything, reading it once; an export's components are
// also decoded as [SpawnExport] does, into a world from opts.NewWorld. It returns an *[Error] (or an
// I/O error) if the file does not load or has unresolved merge conflicts
// (see LoadOptions.RefuseConflicts); warnings of a file that loads are in
// the result. Project files are checked by package serialize/project.
//
// A scene file on disk of 4 MiB or more is checked in pieces, one a core,
// without building its world; if it has any problem (a warning too) or
// prefab instances, it is read a second time and loaded, so that what is
// reported is what a load reports. opts.CheckAsset is then called from
// several goroutines, one at a time, and still once for each reference.
func ValidateInput(ctx context.Context, in *Input, opts LoadOptions) (Validated, error) {
	v := Validated{Kind: in.Kind()}
	if opts.File == "" {
		opts.File = in.Name
	}
	switch v.Kind {
	case KindExport:
		s, err := game.LoadWith(in, opts.File, game.Limits{})
		if err != nil {
			return v, err
		}
		// The game components are checked the way a game decodes them: spawned into a world with the
		// components of opts.NewWorld (the project file's, the game's Go types), references and all.
		if opts.NewWorld != nil {
			if _, err := SpawnExport(opts.NewWorld(), s); err != nil {
				var se *Error
				if errors.As(err, &se) {
					for i := range se.Problems {
						if se.Problems[i].File == "" {
							se.Problems[i].File = opts.File
						}
					}
				}
				return v, err
			}
		}
		v.Summary = fmt.Sprintf("export, %s, %s", plural(len(s.Entities), "entity", "entities"), plural(len(s.Meshes), "mesh", "meshes"))
	case KindProject:
		return v, fmt.Errorf("%s is a project file: check it with package serialize/project", opts.File)
	default:
		opts.RefuseConflicts = true
		if opts.CheckAsset != nil {
			opts.CheckAsset = askOnce(opts.CheckAsset)
		}
		if name, n, ok := checkInPieces(ctx, in, opts); ok {
			v.Summary = fmt.Sprintf("scene %q, %s", name, plural(n, "entity", "entities"))
			return v, nil
		}
		s, err := Load(ctx, in, opts)
		if err != nil {
			return v, err
		}
		v.Warnings = s.Warnings
		v.Summary = fmt.Sprintf("scene %q, %s", s.Name, plural(s.World.Len(), "entity", "entities"))
		if n := countInstances(s.World); n > 0 {
			v.Summary += fmt.Sprintf(" (%s of %s)", plural(n, "prefab instance", "prefab instances"), plural(len(s.used), "prefab", "prefabs"))
		}
	}
	return v, nil
}

// ValidateFile checks the scene or export file at path ("-": standard
// input); see [ValidateInput].
func ValidateFile(ctx context.Context, path string, opts LoadOptions) (warnings []Problem, err error) {
	in, err := OpenInput(path)
	if err != nil {
		return nil, err
	}
	defer in.Close()
	v, err := ValidateInput(ctx, in, opts)
	return v.Warnings, err
}

// Grid returns a new scene file named name holding the cube grid p (made by
// scene.SpawnGrid, the generator the editor's Spawn Cube Grid uses), with
// the editor camera framing it. The entities get random ids, or ids that
// depend only on seed if it is not 0 (reproducible files). See GridScene to
// save a big grid without holding its file in memory.
func Grid(p scene.GridParams, name string, seed uint64) ([]byte, error) {
	s, err := GridScene(p, name, seed)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := Save(context.Background(), &out, s, SaveOptions{}); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// GridScene returns the scene of [Grid] (save it with SaveFile, which
// streams it to disk). A grid of more entities than a scene file may hold
// (DefaultMaxEntities) is refused, so that what grid writes always loads.
func GridScene(p scene.GridParams, name string, seed uint64) (*Scene, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	total := p.Count[0] * p.Count[1] * p.Count[2]
	if p.Group != "" {
		total++
	}
	if total > DefaultMaxEntities {
		return nil, fmt.Errorf("a grid of %s entities is more than a scene file may hold (%s; Limits.MaxEntities)",
			words.Thousands(int64(total)), words.Thousands(DefaultMaxEntities))
	}
	w := scene.NewWorld()
	if seed != 0 {
		scene.SeedIDs(w, seed)
	}
	scene.SpawnGrid(w, p)
	var ext float64
	for i, n := range p.Count {
		d := float64(n-1) * float64(p.Spacing[i])
		ext += d * d
	}
	dist := float32(math.Round(max(10, math.Sqrt(ext))))
	return &Scene{Name: name, World: w, Camera: &scene.EditorCamera{Pivot: p.Origin, Yaw: 30, Pitch: -25, Distance: dist}}, nil
}

// ProblemsOf returns the problems of an error returned by this package's
// loaders (one Problem carrying the message for other errors), for printing
// one per line.
func ProblemsOf(err error) []Problem {
	var e *Error
	if errors.As(err, &e) {
		return e.Problems
	}
	return []Problem{{Msg: err.Error()}}
}
