package settings

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestMissingFileGivesDefaults(t *testing.T) {
	s, err := Load(t.TempDir())
	if err != nil || !reflect.DeepEqual(s.Recent, []string(nil)) || s.SnapRotate != 15 {
		t.Fatalf("Load of a missing file: %+v, %v", s, err)
	}
}

func TestRoundTripAndRecentOrder(t *testing.T) {
	dir := t.TempDir()
	s, _ := Load(dir)
	for i := range 12 {
		s.AddRecent(fmt.Sprintf("/scenes/s%d.json", i))
	}
	s.AddRecent("/scenes/s5.json")
	if len(s.Recent) != MaxRecent || s.Recent[0] != "/scenes/s5.json" || s.Recent[1] != "/scenes/s11.json" {
		t.Fatalf("recent = %v", s.Recent)
	}
	for _, p := range s.Recent[1:] {
		if p == "/scenes/s5.json" {
			t.Fatal("duplicate recent entry")
		}
	}
	if s.Places[0] != "/scenes" || len(s.Places) != 1 {
		t.Fatalf("places = %v", s.Places)
	}
	s.SnapTranslate = 0.25
	s.GridSnap, s.SurfaceSnap = true, true
	if err := s.Save(); err != nil {
		t.Fatal(err)
	}
	got, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Recent, s.Recent) || got.SnapTranslate != 0.25 || !got.GridSnap || !got.SurfaceSnap {
		t.Fatalf("reloaded %+v", got)
	}
	got.RemoveRecent("/scenes/s5.json")
	if got.Recent[0] != "/scenes/s11.json" || len(got.Recent) != MaxRecent-1 {
		t.Fatalf("after RemoveRecent: %v", got.Recent)
	}
}

func TestBrokenFileGivesPositionAndDefaults(t *testing.T) {
	dir := t.TempDir()
	bad := "{\n  \"recent\": [\"a\",\n  \"snapRotate\": 5\n}\n"
	path := filepath.Join(dir, FileName)
	if err := os.WriteFile(path, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Load(dir)
	if err == nil || !strings.Contains(err.Error(), path+": 3:") {
		t.Fatalf("want %s: 3:col error, got %v", path, err)
	}
	if s.SnapRotate != 15 || len(s.Recent) != 0 {
		t.Fatalf("broken file must give defaults, got %+v", s)
	}
	if data, _ := os.ReadFile(path); string(data) != bad {
		t.Fatal("Load modified the broken file")
	}
	for _, c := range []string{`{"recent": 5}`, `{"bogus": 1}`, `[]`, strings.Repeat(" ", maxFileSize+1)} {
		if err := os.WriteFile(path, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := Load(dir); err == nil {
			t.Errorf("Load accepted %.30q", c)
		}
	}
}

func TestSanitize(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte(`{"recent":["","a","a","b"],"snapRotate":-1,"snapScale":1e9}`), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(s.Recent, []string{"a", "b"}) || s.SnapRotate != 15 || s.SnapScale != 0.1 {
		t.Fatalf("sanitized: %+v", s)
	}
}

// A folder given relatively and absolutely is one place: the file dialog lists "scenes" once.
func TestPlacesAreAbsoluteAndUnique(t *testing.T) {
	s, _ := Load(t.TempDir())
	abs, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	s.AddPlace("testdata")
	s.AddPlace(abs)
	s.AddPlace("./testdata/")
	if len(s.Places) != 1 || s.Places[0] != abs {
		t.Fatalf("places = %q, want just %q", s.Places, abs)
	}
}

// TestGridValues: the grid dialog's values round-trip; values the dialog could not have made are dropped whole.
func TestGridValues(t *testing.T) {
	dir := t.TempDir()
	s, _ := Load(dir)
	g := Grid{Count: [3]int{100, 10, 100}, Spacing: [3]float32{2, 1.5, 2}, Mesh: "models/ship.obj", Gradient: true,
		From: [4]float32{1, 0, 0, 1}, To: [4]float32{0, 0, 1, 1}, Group: true, GroupName: "Big", Spin: true, Speed: -90}
	s.Grid = &g
	if err := s.Save(); err != nil {
		t.Fatal(err)
	}
	back, err := Load(dir)
	if err != nil || back.Grid == nil || *back.Grid != g {
		t.Fatalf("grid values after a round trip: %+v, %v", back.Grid, err)
	}
	for _, bad := range []string{
		`{"grid":{"count":[0,1,1],"spacing":[1,1,1]}}`,
		`{"grid":{"count":[1,1,1001],"spacing":[1,1,1]}}`,
		`{"grid":{"count":[1,1,1],"spacing":[1,0,1]}}`,
		`{"grid":{"count":[1,1,1],"spacing":[1,1,1],"from":[2,0,0,1]}}`,
		`{"grid":{"count":[1,1,1],"spacing":[1,1,1],"speed":1e9}}`,
	} {
		if err := os.WriteFile(filepath.Join(dir, FileName), []byte(bad), 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := Load(dir)
		if err != nil || s.Grid != nil {
			t.Errorf("%s: loaded %+v, %v; want the defaults (nil)", bad, s.Grid, err)
		}
	}
}

// A settings file that is not a regular file gives the defaults and an error, unread: a named
// pipe called settings.json would block the editor's start for good.
func TestSettingsThatAreNotAFile(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, FileName), 0o600); err != nil {
		t.Fatal(err)
	}
	type result struct {
		s   *Settings
		err error
	}
	done := make(chan result, 1)
	go func() { s, err := Load(dir); done <- result{s, err} }()
	select {
	case r := <-done:
		if r.err == nil || !strings.Contains(r.err.Error(), "not a regular file") || r.s == nil || r.s.SnapRotate != 15 {
			t.Errorf("a named pipe: %+v, %v", r.s, r.err)
		}
	case <-time.After(time.Minute):
		if f, err := os.OpenFile(filepath.Join(dir, FileName), os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			if err := f.Close(); err != nil {
				t.Fatal(err)
			}
		}
		t.Fatal("Load blocked on a named pipe")
	}
}

// The undo memory budget: absent means the default (0); values out of range are brought within it.
func TestUndoMemory(t *testing.T) {
	for in, want := range map[string]int{`{}`: 0, `{"undoMemoryMB":1}`: MinUndoMemoryMB, `{"undoMemoryMB":-5}`: MinUndoMemoryMB,
		`{"undoMemoryMB":512}`: 512, `{"undoMemoryMB":1000000000}`: MaxUndoMemoryMB} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, FileName), []byte(in), 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := Load(dir)
		if err != nil || s.UndoMemoryMB != want {
			t.Errorf("%s: %d, %v; want %d", in, s.UndoMemoryMB, err, want)
		}
	}
}

// TestKeepPlayEditsDefaultsToYes: without the key the user's play-mode edits start checked; false is read back.
func TestKeepPlayEditsDefaultsToYes(t *testing.T) {
	dir := t.TempDir()
	if s, err := Load(dir); err != nil || !s.KeepsPlayEdits() {
		t.Fatalf("first run: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte(`{"recent": [], "keepPlayEdits": false}`), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Load(dir)
	if err != nil || s.KeepsPlayEdits() {
		t.Fatalf("keepPlayEdits false: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte(`{"recent": []}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if s, err := Load(dir); err != nil || !s.KeepsPlayEdits() {
		t.Fatalf("without the key: %v", err)
	}
}

// TestViewsRoundTrip: what is hidden, locked and isolated in a scene is kept by the scene's path and read back;
// a scene with nothing flagged is forgotten.
func TestViewsRoundTrip(t *testing.T) {
	dir := t.TempDir()
	s, _ := Load(dir)
	flags := map[uint64]Flags{7: {Hidden: true}, 3: {Locked: true, Hidden: true}, 9: {Isolated: true}, 11: {}}
	s.SetView("/p/a.json", flags)
	s.SetView("/p/b.json", map[uint64]Flags{1: {}})
	if err := s.Save(); err != nil {
		t.Fatal(err)
	}
	got, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := map[uint64]Flags{7: {Hidden: true}, 3: {Locked: true, Hidden: true}, 9: {Isolated: true}}
	if v := got.View("/p/a.json"); !maps.Equal(v, want) {
		t.Errorf("read back %v, want %v", v, want)
	}
	if v := got.Views["/p/a.json"]; !slices.Equal(v.Hidden, []uint64{3, 7}) {
		t.Errorf("hidden ids %v, want them sorted (3, 7)", v.Hidden)
	}
	if _, ok := got.Views["/p/b.json"]; ok || len(got.View("/p/b.json")) != 0 {
		t.Error("a scene with nothing flagged is kept")
	}
	got.SetView("/p/a.json", nil)
	if _, ok := got.Views["/p/a.json"]; ok {
		t.Error("clearing the flags keeps the scene's view")
	}
}

// TestLayersRoundTrip: a scene's layers (name, query, flags) are kept beside its entities' flags and read back;
// changing either keeps the other; a scene with no layers and no flags is forgotten.
func TestLayersRoundTrip(t *testing.T) {
	dir := t.TempDir()
	s, _ := Load(dir)
	layers := []Layer{
		{Name: "Enemies", Query: `Unit.team=Red`, Flags: Flags{Hidden: true}},
		{Name: "Props", Query: `!Spin`, Flags: Flags{Locked: true, Isolated: true}},
		{Name: "Plain", Query: `Spin`},
	}
	s.SetLayers("/p/a.json", layers)
	s.SetView("/p/a.json", map[uint64]Flags{4: {Hidden: true}})
	if err := s.Save(); err != nil {
		t.Fatal(err)
	}
	got, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if l := got.Layers("/p/a.json"); !slices.Equal(l, layers) {
		t.Errorf("read back %+v, want %+v", l, layers)
	}
	if v := got.View("/p/a.json"); !v[4].Hidden || len(v) != 1 {
		t.Errorf("the entities' flags beside the layers read back as %v", v)
	}
	got.SetView("/p/a.json", nil)
	if l := got.Layers("/p/a.json"); len(l) != 3 {
		t.Errorf("clearing the entities' flags left %d layers, want 3", len(l))
	}
	got.SetLayers("/p/a.json", nil)
	if _, ok := got.Views["/p/a.json"]; ok {
		t.Error("a scene with no layers and no flags is kept")
	}
}
