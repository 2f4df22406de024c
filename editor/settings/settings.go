package settings

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/voltex-editor/voltex/internal/words"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/voltex-editor/voltex/internal/atomicfile"
)

// MaxRecent is how many recent files and places are kept.
const MaxRecent = 10

// maxFileSize bounds what Load reads: a settings file is a few kilobytes, more with many hidden entities (Views).
const maxFileSize = 16 << 20

// FileName is the settings file's name inside its folder.
const FileName = "settings.json"

// Settings are the persisted preferences.
type Settings struct {
	// Recent lists recently opened or saved scenes, newest first.
	Recent []string `json:"recent"`
	// Places lists recently used folders for the file dialog, newest first.
	Places []string `json:"places"`
	// SnapTranslate, SnapRotate (degrees) and SnapScale are the gizmo snapping steps, used while GridSnap is on
	// or Ctrl is held.
	SnapTranslate float32 `json:"snapTranslate"`
	SnapRotate    float32 `json:"snapRotate"`
	SnapScale     float32 `json:"snapScale"`
	// GridSnap makes every gizmo drag snap to the steps (the toolbar's Snap button); without it Ctrl snaps.
	GridSnap bool `json:"gridSnap"`
	// SurfaceSnap makes a move put the moved entity on the surface under the mouse, turned to its normal, and a
	// drop from the Assets panel land on that surface (the toolbar's Surface button).
	SurfaceSnap bool `json:"surfaceSnap"`
	// ShowStats shows the viewport's statistics overlay.
	ShowStats bool `json:"showStats"`
	// UndoMemoryMB is the undo history's memory budget in MiB (the oldest steps are dropped over it, as
	// Blender's Undo Memory Limit): 0 means the default (doc.DefaultMaxHistoryBytes, 384 MiB), otherwise
	// 16…65536.
	UndoMemoryMB int `json:"undoMemoryMB,omitempty"`
	// Grid holds the Spawn Cube Grid dialog's last values (nil until it was first closed).
	Grid *Grid `json:"grid,omitempty"`
	// KeepPlayEdits is whether the edits the user made while playing are checked to be kept when play
	// mode stops (nil: yes; see KeepsPlayEdits).
	KeepPlayEdits *bool `json:"keepPlayEdits,omitempty"`
	// Views holds, per scene file (its absolute path), what the user hid, locked and isolated in it: the user's
	// own view of the scene, kept here and not in the scene file, so that it never causes a merge conflict.
	Views map[string]*SceneView `json:"views,omitempty"`

	path string
}

// Grid is what the Spawn Cube Grid dialog remembers between uses: everything but the centre, which is placed
// anew each time (beside the scene's content).
type Grid struct {
	Count     [3]int     `json:"count"`
	Spacing   [3]float32 `json:"spacing"`
	Mesh      string     `json:"mesh"`
	Gradient  bool       `json:"gradient"`
	From      [4]float32 `json:"from"`
	To        [4]float32 `json:"to"`
	Group     bool       `json:"group"`
	GroupName string     `json:"groupName"`
	Spin      bool       `json:"spin"`
	Speed     float32    `json:"speed"`
}

// Limits of the grid dialog's values, as its fields clamp them.
const (
	MaxGridCount   = 1000
	MinGridSpacing = 0.01
	MaxGridSpacing = 1000
	MaxGridSpeed   = 3600
	maxGridText    = 256
)

// valid reports whether every value is one the dialog could have made.
func (g *Grid) valid() bool {
	in := func(f, lo, hi float32) bool { return f >= lo && f <= hi } // false for NaN
	for i := range 3 {
		if g.Count[i] < 1 || g.Count[i] > MaxGridCount || !in(g.Spacing[i], MinGridSpacing, MaxGridSpacing) {
			return false
		}
	}
	for i := range 4 {
		if !in(g.From[i], 0, 1) || !in(g.To[i], 0, 1) {
			return false
		}
	}
	return in(g.Speed, -MaxGridSpeed, MaxGridSpeed) && len(g.Mesh) <= maxGridText && len(g.GroupName) <= maxGridText
}

// KeepsPlayEdits reports whether the "Keep changes made while playing?" dialog starts with the user's own edits
// checked (the default) or with nothing checked.
func (s *Settings) KeepsPlayEdits() bool {
	return s == nil || s.KeepPlayEdits == nil || *s.KeepPlayEdits
}

// Defaults returns the settings of a first run.
func Defaults() *Settings {
	return &Settings{SnapTranslate: 0.5, SnapRotate: 15, SnapScale: 0.1}
}

// DefaultDir is the folder used when none is given: $XDG_CONFIG_HOME/voltex-editor or ~/.config/voltex-editor.
func DefaultDir() string {
	if d, err := os.UserConfigDir(); err == nil {
		return filepath.Join(d, "voltex-editor")
	}
	return filepath.Join(os.TempDir(), "voltex-editor")
}

// Load reads dir/settings.json. A missing file gives defaults and no error; a broken one gives defaults and an
// error naming the position (file:line:col) — the caller shows it and carries on.
func Load(dir string) (*Settings, error) {
	s := Defaults()
	s.path = filepath.Join(dir, FileName)
	// A named pipe or a device is refused before it is opened (opening a pipe blocks).
	if st, err := os.Stat(s.path); err == nil && !st.Mode().IsRegular() {
		return s, fmt.Errorf("%s: not a regular file (%s); using the default settings", s.path, st.Mode().Type())
	}
	f, err := os.Open(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return s, err
	}
	defer func() { _ = f.Close() }() // read only: closing loses nothing
	data, err := readLimited(f, maxFileSize)
	if err != nil {
		return s, fmt.Errorf("%s: %v", s.path, err)
	}
	var loaded Settings
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&loaded); err != nil {
		return s, fmt.Errorf("%s: %s", s.path, describe(data, err))
	}
	loaded.path = s.path
	loaded.sanitize()
	return &loaded, nil
}

func readLimited(r io.Reader, limit int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("file is larger than %s; not a settings file", words.Bytes(limit))
	}
	return data, nil
}

// describe turns a json error into "line:col: message".
func describe(data []byte, err error) string {
	var off int64 = -1
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		off = se.Offset
	case errors.As(err, &te):
		off = te.Offset
	}
	if off < 0 {
		return err.Error()
	}
	line, col := 1, 1
	for i := int64(0); i < off && i < int64(len(data)); i++ {
		if data[i] == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return fmt.Sprintf("%d:%d: %v", line, col, err)
}

// sanitize drops what cannot be right: empty or duplicate paths, too many entries, non-positive snap steps, grid
// dialog values out of the dialog's ranges.
func (s *Settings) sanitize() {
	s.Recent = dedupe(s.Recent)
	for i, p := range s.Places { // settings written before places were made absolute
		if p != "" && !filepath.IsAbs(p) {
			if abs, err := filepath.Abs(p); err == nil {
				s.Places[i] = abs
			}
		}
	}
	s.Places = dedupe(s.Places)
	d := Defaults()
	if !(s.SnapTranslate > 0 && s.SnapTranslate < 1e6) {
		s.SnapTranslate = d.SnapTranslate
	}
	if !(s.SnapRotate > 0 && s.SnapRotate <= 360) {
		s.SnapRotate = d.SnapRotate
	}
	if !(s.SnapScale > 0 && s.SnapScale < 1e6) {
		s.SnapScale = d.SnapScale
	}
	if s.Grid != nil && !s.Grid.valid() {
		s.Grid = nil // the dialog's defaults
	}
	for path, v := range s.Views {
		if path == "" || v == nil || v.empty() {
			delete(s.Views, path)
			continue
		}
		v.Hidden, v.Locked, v.Isolated = capIDs(v.Hidden), capIDs(v.Locked), capIDs(v.Isolated)
	}
	if s.UndoMemoryMB != 0 {
		s.UndoMemoryMB = min(max(s.UndoMemoryMB, MinUndoMemoryMB), MaxUndoMemoryMB)
	}
}

// Bounds of UndoMemoryMB (a value outside them is brought within them).
const (
	MinUndoMemoryMB = 16
	MaxUndoMemoryMB = 65536
)

func dedupe(in []string) []string {
	out := in[:0]
	seen := map[string]bool{}
	for _, p := range in {
		if p == "" || seen[p] || len(p) > 4096 {
			continue
		}
		seen[p] = true
		out = append(out, p)
		if len(out) == MaxRecent {
			break
		}
	}
	return out
}

// AddRecent puts path first in the recent files (absolute, at most MaxRecent) and its folder first in the places.
func (s *Settings) AddRecent(path string) {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	s.Recent = dedupe(append([]string{path}, s.Recent...))
	s.AddPlace(filepath.Dir(path))
}

// AddPlace puts a folder first in the recent places, as an absolute path (so "scenes" and the same folder given
// absolutely are one place).
func (s *Settings) AddPlace(dir string) {
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	s.Places = dedupe(append([]string{dir}, s.Places...))
}

// RemoveRecent forgets path (e.g. a recent file that no longer exists).
func (s *Settings) RemoveRecent(path string) {
	out := s.Recent[:0]
	for _, p := range s.Recent {
		if p != path {
			out = append(out, p)
		}
	}
	s.Recent = out
}

// Path is the file Load read or Save writes.
func (s *Settings) Path() string { return s.path }

// SaveTo sets the folder Save writes to.
func (s *Settings) SaveTo(dir string) { s.path = filepath.Join(dir, FileName) }

// Save writes the settings atomically: a temporary file in the same folder, synced, renamed over the old one.
func (s *Settings) Save() error {
	data, err := s.Encode()
	if err != nil {
		return err
	}
	return WriteFile(s.path, data)
}

// Encode returns the file Save writes, for WriteFile to write later (on another goroutine: the settings may change
// meanwhile, the bytes do not).
func (s *Settings) Encode() ([]byte, error) {
	if s.path == "" {
		return nil, errors.New("settings: no path; call Load or SaveTo first")
	}
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(data, '\n'), nil
}

// WriteFile writes data, made by Encode, to path as Save does.
func WriteFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return atomicfile.ReplaceFile(path, data)
}

// Flags are how the user shows an entity in the editor: hidden (not drawn, not picked), locked (drawn, not
// picked or moved), isolated (while anything is isolated, only what is isolated is drawn). A layer — a saved
// query — carries the same flags for every entity it matches.
type Flags struct {
	Hidden   bool `json:"hidden,omitempty"`
	Locked   bool `json:"locked,omitempty"`
	Isolated bool `json:"isolated,omitempty"`
}

// Layer is a saved query with the flags it gives every entity the query matches (re-evaluated as the scene
// changes).
type Layer struct {
	Name  string `json:"name"`
	Query string `json:"query"`
	Flags
}

// Any reports whether any flag is set.
func (f Flags) Any() bool { return f.Hidden || f.Locked || f.Isolated }

// MaxFlagged is how many entities of a scene each of SceneView's lists keeps.
const MaxFlagged = 200_000

// SceneView is what the user hid, locked and isolated in one scene, by the entities' scene ids (which stay the
// same across saves).
type SceneView struct {
	Hidden   []uint64 `json:"hidden,omitempty"`
	Locked   []uint64 `json:"locked,omitempty"`
	Isolated []uint64 `json:"isolated,omitempty"`
	Layers   []Layer  `json:"layers,omitempty"`
}

func (v *SceneView) empty() bool {
	return len(v.Hidden)+len(v.Locked)+len(v.Isolated)+len(v.Layers) == 0
}

func capIDs(ids []uint64) []uint64 { return ids[:min(len(ids), MaxFlagged)] }

// Flags returns v's entities' flags by scene id (empty for a nil v).
func (v *SceneView) Flags() map[uint64]Flags {
	m := map[uint64]Flags{}
	if v == nil {
		return m
	}
	set := func(ids []uint64, on func(*Flags)) {
		for _, id := range ids {
			f := m[id]
			on(&f)
			m[id] = f
		}
	}
	set(v.Hidden, func(f *Flags) { f.Hidden = true })
	set(v.Locked, func(f *Flags) { f.Locked = true })
	set(v.Isolated, func(f *Flags) { f.Isolated = true })
	return m
}

// SetView keeps flags (by scene id) as the view of the scene at path; no flags forget it.
func (s *Settings) SetView(path string, flags map[uint64]Flags) {
	v := &SceneView{}
	if old := s.Views[path]; old != nil {
		v.Layers = old.Layers
	}
	for id, f := range flags {
		if f.Hidden {
			v.Hidden = append(v.Hidden, id)
		}
		if f.Locked {
			v.Locked = append(v.Locked, id)
		}
		if f.Isolated {
			v.Isolated = append(v.Isolated, id)
		}
	}
	for _, l := range [][]uint64{v.Hidden, v.Locked, v.Isolated} {
		slices.Sort(l) // a stable file: the same flags write the same bytes
	}
	v.Hidden, v.Locked, v.Isolated = capIDs(v.Hidden), capIDs(v.Locked), capIDs(v.Isolated)
	s.putView(path, v)
}

// putView keeps v as the view of the scene at path, or forgets it when empty.
func (s *Settings) putView(path string, v *SceneView) {
	if v.empty() {
		delete(s.Views, path)
		return
	}
	if s.Views == nil {
		s.Views = map[string]*SceneView{}
	}
	s.Views[path] = v
}

// SetLayers keeps layers as the layers of the scene at path (beside its entities' flags).
func (s *Settings) SetLayers(path string, layers []Layer) {
	v := &SceneView{}
	if old := s.Views[path]; old != nil {
		*v = *old
	}
	v.Layers = slices.Clone(layers)
	s.putView(path, v)
}

// Layers returns the layers kept for the scene at path (a copy; none when there are none).
func (s *Settings) Layers(path string) []Layer {
	if v := s.Views[path]; v != nil {
		return slices.Clone(v.Layers)
	}
	return nil
}

// View returns the flags kept for the scene at path (empty when none).
func (s *Settings) View(path string) map[uint64]Flags { return s.Views[path].Flags() }
