package serialize

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math"
	"os"

	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/serialize/game"
	"github.com/voltex-editor/voltex/serialize/internal/jsonpos"
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
	s, err := Load(context.Background(), bytes.NewReader(src), opts)
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

// FileKind is what a file claims to be, by its "format" key.
type FileKind int

// File kinds returned by [Sniff].
const (
	KindScene   FileKind = iota // "voltex.scene", or no format key (a version 0 scene)
	KindExport                  // "voltex.export"
	KindProject                 // "voltex.project" (a project file declaring a game's components)
)

// Sniff reads the top level of a JSON file just far enough to find its
// "format" key. Anything unreadable or without the key counts as a scene (so
// the scene loader reports what is wrong with it).
func Sniff(r io.Reader) FileKind {
	format, _ := sniffTop(r)
	switch format {
	case ExportFormat:
		return KindExport
	case "voltex.project":
		return KindProject
	}
	return KindScene
}

// IsScene reports whether r holds what looks like a scene file: a JSON
// object whose "format" is "voltex.scene", or a version 0 scene (no format,
// an "entities" key). `fmt DIR` rewrites only these.
func IsScene(r io.Reader) bool {
	format, entities := sniffTop(r)
	return format == SceneFormat || format == "" && entities
}

// sniffTop reads the top-level keys of a JSON object up to its "format"
// value, and reports whether an "entities" key came before it (or at all,
// when there is no format).
func sniffTop(r io.Reader) (format string, entities bool) {
	d := jsonpos.NewDecoder(r, jsonpos.Limits{MaxDepth: DefaultMaxDepth, MaxString: DefaultMaxString, MaxValues: 1 << 20})
	if _, err := d.EnterObject(); err != nil {
		return "", false
	}
	for {
		key, _, ok, err := d.NextMember()
		if err != nil || !ok {
			return "", entities
		}
		switch string(key) {
		case "format":
			v, err := d.Value()
			if err != nil || v.Kind() != jsonpos.String {
				return "", entities
			}
			return v.Str(), entities
		case "entities":
			entities = true
		}
		if err := d.Skip(); err != nil {
			return "", entities
		}
	}
}

// ValidateFile checks a scene or export file (told apart by its "format")
// without keeping anything. It returns nil if the file loads, otherwise an
// *[Error] (or an I/O error); warnings of a file that loads are returned
// either way.
func ValidateFile(ctx context.Context, path string, opts LoadOptions) (warnings []Problem, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	kind := Sniff(f)
	f.Close()
	if kind == KindExport {
		_, err := game.LoadFile(path)
		return nil, err
	}
	s, err := LoadFile(ctx, path, opts)
	if err != nil {
		return nil, err
	}
	return s.Warnings, nil
}

// Grid returns a new scene file named name holding the cube grid p (made by
// scene.SpawnGrid, the generator the editor's Spawn Cube Grid uses), with
// the editor camera framing it. The entities get random ids, or ids that
// depend only on seed if it is not 0 (reproducible files).
func Grid(p scene.GridParams, name string, seed uint64) ([]byte, error) {
	if err := p.Validate(); err != nil {
		return nil, err
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
	s := &Scene{Name: name, World: w, Camera: &EditorCamera{Pivot: p.Origin, Yaw: 30, Pitch: -25, Distance: dist}}
	var out bytes.Buffer
	if err := Save(context.Background(), &out, s, SaveOptions{}); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
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
