package filedialog

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func tree(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range []string{"b.json", "A.json", "notes.txt", ".hidden.json", "sub/x.json", "Zed/y.obj"} {
		p := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func names(es []Entry) []string {
	var out []string
	for _, e := range es {
		n := e.Name
		if e.IsDir {
			n += "/"
		}
		out = append(out, n)
	}
	return out
}

func TestListingFoldersFirstFilteredSorted(t *testing.T) {
	d := New(Open, "Open", tree(t), ".json")
	want := []string{"sub/", "Zed/", "A.json", "b.json"}
	if got := names(d.Entries); !reflect.DeepEqual(got, want) {
		t.Fatalf("listing = %v, want %v", got, want)
	}
	d.ShowHidden = true
	_ = d.Refresh()
	if got := names(d.Entries); len(got) != 5 || got[2] != ".hidden.json" {
		t.Fatalf("with hidden: %v", got)
	}
}

func TestNavigation(t *testing.T) {
	root := tree(t)
	d := New(Open, "Open", root, ".json")
	if d.Activate(Entry{Name: "sub", IsDir: true}) {
		t.Fatal("activating a folder must not choose it")
	}
	if d.Dir != filepath.Join(root, "sub") || !reflect.DeepEqual(names(d.Entries), []string{"x.json"}) {
		t.Fatalf("after entering sub: %s %v", d.Dir, names(d.Entries))
	}
	_ = d.Up()
	if d.Dir != root {
		t.Fatalf("Up: %s, want %s", d.Dir, root)
	}
	if err := d.Chdir("nope"); err == nil || d.Err == "" || d.Dir != root {
		t.Fatalf("Chdir to a missing folder: err %v, Err %q, Dir %s", err, d.Err, d.Dir)
	}
	crumbs := d.Breadcrumbs()
	if last := crumbs[len(crumbs)-1]; last[1] != root || crumbs[0][1] != "/" {
		t.Fatalf("breadcrumbs %v", crumbs)
	}
	// Typing a folder name navigates into it.
	d.Name = "Zed"
	if _, ok := d.Choose(); ok || d.Dir != filepath.Join(root, "Zed") {
		t.Fatalf("typing a folder: ok %v dir %s", ok, d.Dir)
	}
}

func TestOpenChoose(t *testing.T) {
	root := tree(t)
	d := New(Open, "Open", root, ".json")
	d.Name = "A.json"
	if c, ok := d.Choose(); !ok || c.Path != filepath.Join(root, "A.json") || c.NeedsOverwriteConfirm {
		t.Fatalf("choose A.json: %+v %v %q", c, ok, d.Err)
	}
	for _, bad := range []string{"", "missing.json", "notes.txt"} {
		d.Name = bad
		if _, ok := d.Choose(); ok || d.Err == "" {
			t.Errorf("Open %q accepted (err %q)", bad, d.Err)
		}
	}
	d.Name = filepath.Join(root, "sub", "x.json")
	if c, ok := d.Choose(); !ok || c.Path != d.Name {
		t.Fatalf("absolute path: %+v %v", c, ok)
	}
}

func TestSaveChooseAddsExtensionAndAsksBeforeOverwrite(t *testing.T) {
	root := tree(t)
	d := New(Save, "Save As", root, ".json")
	d.Name = "new"
	c, ok := d.Choose()
	if !ok || c.Path != filepath.Join(root, "new.json") || c.NeedsOverwriteConfirm {
		t.Fatalf("new: %+v %v %q", c, ok, d.Err)
	}
	d.Name = "b"
	if c, ok := d.Choose(); !ok || !c.NeedsOverwriteConfirm || c.Path != filepath.Join(root, "b.json") {
		t.Fatalf("existing b.json: %+v %v", c, ok)
	}
	d.Name = "nofolder/x.json"
	if _, ok := d.Choose(); ok || d.Err == "" {
		t.Fatal("saving into a missing folder was accepted")
	}
}

func TestPlaceLabels(t *testing.T) {
	got := PlaceLabels([]string{"/work/main/scenes", "/tmp/x/scenes", "/home/me/models", "/", "/srv/a/b/scenes", "/srv/c/b/scenes"})
	want := []string{"main/scenes", "x/scenes", "models", "/", "a/b/scenes", "c/b/scenes"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("PlaceLabels = %q, want %q", got, want)
	}
}

// Inside the home folder the breadcrumbs start at "~"; a relative folder is made absolute.
func TestBreadcrumbsFromHome(t *testing.T) {
	home := t.TempDir()
	sub := filepath.Join(home, "my-game", "scenes")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	d := &Dialog{Home: home}
	if err := d.Chdir(sub); err != nil {
		t.Fatal(err)
	}
	got := d.Breadcrumbs()
	want := [][2]string{{"~", home}, {"my-game", filepath.Join(home, "my-game")}, {"scenes", sub}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("breadcrumbs %q, want %q", got, want)
	}
	if got := d.DisplayDir(); got != "~/my-game/scenes" {
		t.Errorf("DisplayDir = %q", got)
	}
	if err := d.Up(); err != nil || d.Dir != filepath.Join(home, "my-game") {
		t.Errorf("Up: %v %s", err, d.Dir)
	}
	d.Home = ""
	if got := d.Breadcrumbs(); got[0][0] != "/" || len(got) < 3 {
		t.Errorf("without a home: %q", got)
	}
	wd, _ := os.Getwd()
	r := New(Open, "Open", "testdata-missing-so-wd")
	if r.Dir != wd || !filepath.IsAbs(r.Dir) {
		t.Errorf("a missing relative folder: %q, want %q", r.Dir, wd)
	}
	r = New(Open, "Open", ".")
	if r.Dir != wd {
		t.Errorf("relative '.': %q, want %q", r.Dir, wd)
	}
}
