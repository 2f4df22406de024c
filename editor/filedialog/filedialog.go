package filedialog

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Mode says what the dialog is for.
type Mode uint8

// Dialog modes.
const (
	// Open chooses an existing file.
	Open Mode = iota
	// Save chooses a file name to write; an existing file needs confirmation.
	Save
)

// Entry is one row of a folder listing.
type Entry struct {
	Name  string
	IsDir bool
	Size  int64
}

// Dialog is the state of one file dialog.
type Dialog struct {
	Mode  Mode
	Title string
	// Exts are the accepted extensions with the dot, e.g. ".json"; empty accepts every file.
	Exts []string
	// Dir is the folder being shown (absolute, cleaned).
	Dir string
	// Name is the file name typed or clicked.
	Name string
	// Entries is Dir's listing after the last Refresh.
	Entries []Entry
	// Err is the last navigation or validation problem, for the dialog to show.
	Err string
	// ShowHidden lists dot-files too.
	ShowHidden bool
	// Home is the user's home folder (absolute, cleaned; empty: none): the breadcrumbs of a folder inside it
	// start at "~", as shells write it.
	Home string
}

// New returns a dialog showing dir (the working directory when empty or unreadable).
func New(mode Mode, title, dir string, exts ...string) *Dialog {
	d := &Dialog{Mode: mode, Title: title, Exts: exts}
	if dir == "" {
		dir, _ = os.Getwd()
	}
	if err := d.Chdir(dir); err != nil {
		wd, _ := os.Getwd()
		_ = d.Chdir(wd)
	}
	return d
}

// Chdir shows folder dir (relative paths are relative to the current folder).
func (d *Dialog) Chdir(dir string) error {
	if !filepath.IsAbs(dir) {
		if d.Dir == "" {
			if abs, err := filepath.Abs(dir); err == nil {
				dir = abs
			}
		} else {
			dir = filepath.Join(d.Dir, dir)
		}
	}
	dir = filepath.Clean(dir)
	st, err := os.Stat(dir)
	if err != nil {
		d.Err = fmt.Sprintf("cannot open folder: %v", err)
		return err
	}
	if !st.IsDir() {
		d.Err = fmt.Sprintf("%s is not a folder", dir)
		return errors.New(d.Err)
	}
	d.Dir = dir
	d.Err = ""
	return d.Refresh()
}

// Up shows the parent folder.
func (d *Dialog) Up() error { return d.Chdir(filepath.Dir(d.Dir)) }

// Accepts reports whether a file name passes the extension filter.
func (d *Dialog) Accepts(name string) bool {
	if len(d.Exts) == 0 {
		return true
	}
	ext := strings.ToLower(filepath.Ext(name))
	for _, e := range d.Exts {
		if ext == strings.ToLower(e) {
			return true
		}
	}
	return false
}

// Refresh re-reads the current folder: folders first, then accepted files, each sorted case-insensitively.
func (d *Dialog) Refresh() error {
	ents, err := os.ReadDir(d.Dir)
	if err != nil {
		d.Entries = nil
		d.Err = fmt.Sprintf("cannot list folder: %v", err)
		return err
	}
	d.Entries = d.Entries[:0]
	for _, e := range ents {
		name := e.Name()
		if !d.ShowHidden && strings.HasPrefix(name, ".") {
			continue
		}
		isDir := e.IsDir()
		if e.Type()&fs.ModeSymlink != 0 {
			if st, err := os.Stat(filepath.Join(d.Dir, name)); err == nil {
				isDir = st.IsDir()
			}
		}
		if !isDir && !d.Accepts(name) {
			continue
		}
		var size int64
		if !isDir {
			if info, err := e.Info(); err == nil {
				size = info.Size()
			}
		}
		d.Entries = append(d.Entries, Entry{Name: name, IsDir: isDir, Size: size})
	}
	sort.Slice(d.Entries, func(i, j int) bool {
		a, b := d.Entries[i], d.Entries[j]
		if a.IsDir != b.IsDir {
			return a.IsDir
		}
		return strings.ToLower(a.Name) < strings.ToLower(b.Name)
	})
	return nil
}

// Activate handles a double click (or Enter) on an entry: folders are entered; files become the chosen name.
// It returns true when the entry is a file that should be chosen at once.
func (d *Dialog) Activate(e Entry) bool {
	if e.IsDir {
		_ = d.Chdir(e.Name)
		return false
	}
	d.Name = e.Name
	return true
}

// Choice is the outcome of Choose.
type Choice struct {
	// Path is the absolute path chosen.
	Path string
	// NeedsOverwriteConfirm is true when saving over an existing file: ask before writing.
	NeedsOverwriteConfirm bool
}

// Choose validates the typed name and returns the path it means. In Save mode the first filter extension is added
// when the name has none of the accepted ones. A typed folder path (or a name ending in a separator) navigates there
// instead and returns ok=false.
func (d *Dialog) Choose() (c Choice, ok bool) {
	name := strings.TrimSpace(d.Name)
	if name == "" {
		d.Err = "type a file name"
		return Choice{}, false
	}
	p := name
	if strings.HasPrefix(p, "~"+string(filepath.Separator)) {
		if home, err := os.UserHomeDir(); err == nil {
			p = filepath.Join(home, p[2:])
		}
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(d.Dir, p)
	}
	p = filepath.Clean(p)
	if st, err := os.Stat(p); err == nil && st.IsDir() {
		if d.Chdir(p) == nil {
			d.Name = ""
		}
		return Choice{}, false
	}
	if d.Mode == Save && len(d.Exts) > 0 && !d.Accepts(p) {
		p += d.Exts[0]
	}
	st, err := os.Stat(p)
	switch d.Mode {
	case Open:
		if err != nil {
			d.Err = fmt.Sprintf("%s does not exist", filepath.Base(p))
			return Choice{}, false
		}
		if !d.Accepts(p) {
			d.Err = fmt.Sprintf("%s is not a %s file", filepath.Base(p), strings.Join(d.Exts, "/"))
			return Choice{}, false
		}
		return Choice{Path: p}, true
	default:
		if st, err := os.Stat(filepath.Dir(p)); err != nil || !st.IsDir() {
			d.Err = fmt.Sprintf("folder %s does not exist", filepath.Dir(p))
			return Choice{}, false
		}
		if err == nil && st.IsDir() {
			d.Err = fmt.Sprintf("%s is a folder", filepath.Base(p))
			return Choice{}, false
		}
		d.Err = ""
		return Choice{Path: p, NeedsOverwriteConfirm: err == nil}, true
	}
}

// Breadcrumbs splits Dir into clickable parts: each element is (label, absolute path). Inside Home they start
// at "~" (Up still goes above it).
func (d *Dialog) Breadcrumbs() [][2]string {
	var out [][2]string
	p := d.Dir
	for {
		parent := filepath.Dir(p)
		label := filepath.Base(p)
		if parent == p {
			label = p
		}
		if d.Home != "" && p == d.Home && parent != p {
			out = append(out, [2]string{"~", p})
			break
		}
		out = append(out, [2]string{label, p})
		if parent == p {
			break
		}
		p = parent
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// DisplayDir is Dir as the dialog shows it: inside Home it starts with "~" ("~/my-game/scenes").
func (d *Dialog) DisplayDir() string {
	if d.Home != "" {
		if d.Dir == d.Home {
			return "~"
		}
		if rel, ok := strings.CutPrefix(d.Dir, d.Home+string(filepath.Separator)); ok {
			return "~" + string(filepath.Separator) + rel
		}
	}
	return d.Dir
}

// PlaceLabels names folders for a list of places: each folder's base name, with as many parent folders in front
// as it takes to tell apart folders whose names are the same ("main/scenes" and "tmp/scenes").
func PlaceLabels(places []string) []string {
	labels := make([]string, len(places))
	depth := make([]int, len(places))
	for i := range places {
		depth[i] = 1
	}
	for range 64 { // each round adds a parent to the labels that still collide; paths are not deeper than this
		for i, p := range places {
			labels[i] = lastParts(p, depth[i])
		}
		same := map[string][]int{}
		for i, l := range labels {
			same[l] = append(same[l], i)
		}
		grew := false
		for _, is := range same {
			if len(is) < 2 {
				continue
			}
			for _, i := range is {
				if lastParts(places[i], depth[i]+1) != labels[i] {
					depth[i]++
					grew = true
				}
			}
		}
		if !grew {
			break
		}
	}
	return labels
}

// lastParts returns the last n elements of path p ("/a/b/c", 2 → "b/c"), or p itself when it has no more.
func lastParts(p string, n int) string {
	p = filepath.Clean(p)
	i := len(p)
	for ; n > 0; n-- {
		j := strings.LastIndexByte(p[:i], filepath.Separator)
		if j < 0 {
			return p
		}
		if j == 0 { // the root
			return p
		}
		i = j
	}
	return p[i+1:]
}
