package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/voltex-editor/voltex/cmd/voltex-editor/internal/guitest"
)

// The latency benchmarks drive the real editor as a user would and report what the user waits for: from the key,
// click or launch to the first presented frame that shows the result, from the timestamps the editor records in
// its probe (probe.Mark: the frame that handled the input, the result in the document, the first frame presented
// with it, the first frame whose viewport picture shows it) and the harness's clock when it sends the key (the same
// machine's clock). They assert nothing about speed. `make bench-ui` runs them and writes the table of
// docs/performance.md ("UI latency") when $VOLTEX_PERF_DOC names that file.

// uiSize is a scene size the benchmarks run at: a cube grid of Count cubes written by `voltex-editor grid`.
type uiSize struct {
	name   string
	nx, ny int
	nz     int
}

func (s uiSize) cubes() int { return s.nx * s.ny * s.nz }

var uiSizes = []uiSize{{"100k", 100, 10, 100}, {"1M", 100, 100, 100}}

// figures collects the measurements of one size over the iterations: scenario → values.
type figures map[string][]float64

func (f figures) add(key string, v float64) { f[key] = append(f[key], v) }

// ms records a duration in milliseconds.
func (f figures) ms(key string, d time.Duration) { f.add(key, float64(d.Microseconds())/1000) }

// median returns the median of key's values and whether there are any.
func (f figures) median(key string) (float64, bool) {
	v := slices.Clone(f[key])
	if len(v) == 0 {
		return 0, false
	}
	slices.Sort(v)
	return v[len(v)/2], true
}

// BenchmarkUI runs every scenario at 100,000 and 1,000,000 cubes (sub-benchmarks 100k and 1M; -benchtime 3x runs
// each three times, each time in a new editor) and reports each figure's median as a metric.
func BenchmarkUI(b *testing.B) {
	all := map[string]figures{}
	var loads []string
	for _, size := range uiSizes {
		b.Run(size.name, func(b *testing.B) {
			f := figures{}
			all[size.name] = f // what was measured is written even if a later scenario fails
			path := gridScene(b, size)
			for b.Loop() {
				b.StopTimer()
				loads = append(loads, loadAvg())
				uiScenarios(b, size, path, f)
				loads = append(loads, loadAvg())
				b.StartTimer()
			}
			keys := make([]string, 0, len(f))
			for k := range f {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			for _, k := range keys {
				m, _ := f.median(k)
				b.ReportMetric(m, metricUnit(k))
			}
		})
	}
	if doc := os.Getenv("VOLTEX_PERF_DOC"); doc != "" && len(all) > 0 {
		if err := writeLatencyTable(doc, all, loads); err != nil {
			b.Fatal(err)
		}
	}
}

// metricUnit makes a figure's name a benchmark metric unit (no spaces): "open: launch → picture" →
// "ms-open:launch→picture".
func metricUnit(key string) string {
	unit := "ms-"
	switch {
	case strings.HasSuffix(key, "(MB)"):
		unit, key = "MB-", strings.TrimSuffix(key, " (MB)")
	case strings.HasSuffix(key, "(ms)"):
		key = strings.TrimSuffix(key, " (ms)")
	case strings.Contains(key, "per second"), strings.Contains(key, "instances"):
		unit = ""
	}
	return unit + strings.ReplaceAll(strings.ReplaceAll(key, ": ", ":"), " ", "-")
}

// gridScene writes the size's cube grid with the program's own `grid` subcommand (as a user would make one).
func gridScene(b *testing.B, s uiSize) string {
	path := filepath.Join(b.TempDir(), "grid-"+s.name+".json")
	cmd := exec.Command(guitest.Binary(b), "grid", "--nx", strconv.Itoa(s.nx), "--ny", strconv.Itoa(s.ny), "--nz",
		strconv.Itoa(s.nz), "--color-from", "#3366cc", "--color-to", "#ffaa33", "--seed", "1", "-o", path)
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("grid: %v\n%s", err, out)
	}
	return path
}

// uiScenarios opens the scene at path in a new editor and times every scenario once.
func uiScenarios(b *testing.B, size uiSize, path string, f figures) {
	d := guitest.StartDisplay(b, 1600, 1000)
	n := size.cubes()
	var env []string
	if dir := os.Getenv("VOLTEX_BENCH_PROFILE"); dir != "" { // CPU profiles of the editor, for finding where time goes
		env = append(env, "VOLTEX_CPUPROFILE="+filepath.Join(dir, fmt.Sprintf("editor-%s-%d.pprof", size.name, time.Now().Unix())))
	}

	// Open: launch → the window with the progress → the scene in the panels → its picture.
	start := time.Now()
	e := guitest.LaunchIn(b, d, "", env, "--size", "1600x1000", "--settings", b.TempDir(), path)
	m := waitMark(e, "open", 0)
	if p, _ := e.ReadProbe(); p != nil && p.FirstFrame != 0 {
		f.ms("open: launch → window", time.Duration(p.FirstFrame-start.UnixNano()))
	}
	f.ms("open: launch → scene in the UI", time.Duration(m.Presented-start.UnixNano()))
	f.ms("open: launch → picture", time.Duration(m.Picture-start.UnixNano()))
	p := settle(e)
	if p.Entities != n {
		b.Fatalf("opened %d entities, want %d", p.Entities, n)
	}
	f.add("memory: RSS after open (MB)", rssMB(b, e))
	look(b, e, size.name+"-open.png")

	vx, vy := p.Viewport.Center()
	e.Move(vx, vy) // F needs the mouse over the viewport

	// Orbit: a middle-button drag across the viewport; the UI's frame times and the pictures drawn meanwhile.
	if stage("orbit") {
		orbit(b, e, f, vx, vy)
	}

	// Frame everything (F, nothing selected).
	if stage("frame") {
		timeKey(b, e, f, "frame (F)", "f", "frame")
	}

	// Zoomed in (the wheel over the viewport's centre): how many instances the picture draws of all.
	if stage("zoom") {
		zoomIn(b, e, f, size.name, vx, vy)
	}

	// One field edit: select an entity in the hierarchy, type a new X position in the inspector, Enter.
	if stage("field") {
		fieldEdit(b, e, f)
	}

	// Select all, delete, undo, redo (deletes again), undo.
	if stage("delete") {
		timeKey(b, e, f, "select all", "ctrl+a", "select all")
		timeKey(b, e, f, "delete", "Delete", "delete")
		timeKey(b, e, f, "undo (delete)", "ctrl+z", "undo")
		timeKey(b, e, f, "redo (delete)", "ctrl+y", "redo")
		timeKey(b, e, f, "undo (delete) again", "ctrl+z", "undo")
	}

	// One field edit on every entity (the undo gave the selection of all back), then undone.
	if stage("fieldall") {
		if !stage("delete") {
			e.Key("ctrl+a")
		}
		fieldEditAll(b, e, f, n)
	}
	e.Key("ctrl+shift+a") // Edit → Deselect All: nothing selected for what follows
	e.WaitProbe(time.Minute, "nothing selected", func(p *guitest.Probe) bool { return p.SelectedCount == 0 })
	if p := settle(e); p.Entities != n {
		b.Fatalf("after delete, undo, redo, undo: %d entities, want %d", p.Entities, n)
	}

	// Save (Ctrl+S): the result is the file written; the UI's frames meanwhile, the one that handled the key first.
	if stage("save") {
		p0 := settle(e)
		timeKey(b, e, f, "save", "ctrl+s", "save")
		if p1, _ := e.ReadProbe(); p1 != nil {
			longestFrame(f, "save: longest UI frame while saving (ms)", p0, p1)
		}
	}

	// Spawn 100,000 cubes beside the scene (Enter in the grid dialog, its preview shown), undo, redo, undo; the
	// memory before and after.
	if stage("spawn") {
		spawn(b, e, f, size.name)
	}

	// Typing in the grid dialog while its 100,000-cube preview is shown.
	if stage("typing") {
		if !stage("spawn") { // the dialog opens with the values last used: the spawn's 100 × 10 × 100
			gridValues(e, "100", "10", "100")
		}
		typing(b, e, f)
	}

	// Scrolling the hierarchy with the mouse wheel.
	if stage("scroll") {
		scroll(b, e, f)
	}

	// One cube framed (a row clicked, F), as a user looks at a detail: the instances drawn of all.
	if stage("frameone") {
		frameOne(b, e, f, size.name, vx, vy)
	}

	// The Hierarchy's query bar: a name typed a key at a time, then a field query.
	if stage("query") {
		querying(b, e, f)
	}

	e.RequestClose()
	if p, _ := e.ReadProbe(); p != nil && p.Dirty {
		e.Key("Tab") // Save / Don't Save / Cancel: nothing to keep
	}
	if _, err := e.Wait(time.Minute); err != nil {
		b.Logf("closing: %v", err) // killed by the cleanup
	}
}

// stage reports whether the scenario stage named runs: all of them unless $VOLTEX_UI_ONLY lists some
// (comma-separated: orbit, frame, zoom, field, delete, fieldall, save, spawn, typing, scroll, frameone, query), to
// time one step again without the others' minutes. The table of docs/performance.md comes from full runs only.
func stage(name string) bool {
	only := os.Getenv("VOLTEX_UI_ONLY")
	return only == "" || slices.Contains(strings.Split(only, ","), name)
}

// spawn spawns 100,000 cubes beside the scene from the grid dialog and undoes, redoes and undoes it, with the
// memory before and after.
func spawn(b *testing.B, e *guitest.Editor, f figures, name string) {
	b.Helper()
	rssBefore := rssMB(b, e)
	setGrid(e, "100", "10", "100")
	// Enter once the preview is shown and the spawn made ready behind it (as a user presses Enter after looking at
	// the preview for a moment: see editor's readyGrid).
	e.WaitProbe(10*time.Minute, "the grid's preview, its spawn ready", func(p *guitest.Probe) bool {
		return p.Grid != nil && p.Grid.Preview == "cubes" && p.Grid.PreviewCubes == 100_000 && p.Grid.Ready
	})
	timeKey(b, e, f, "spawn 100k", "Return", "spawn grid")
	look(b, e, name+"-spawned.png")
	f.add("memory: RSS after a 100k spawn (MB)", rssMB(b, e))
	timeKey(b, e, f, "undo (spawn)", "ctrl+z", "undo")
	timeKey(b, e, f, "redo (spawn)", "ctrl+y", "redo")
	timeKey(b, e, f, "undo (spawn) again", "ctrl+z", "undo")
	rssAfter := rssMB(b, e)
	f.add("memory: RSS before a 100k spawn (MB)", rssBefore)
	f.add("memory: RSS after undoing it (MB)", rssAfter)
}

// timeKey settles the editor, sends key and records key → result, key → UI frame, key → picture and the frames the
// result took under name.
func timeKey(b *testing.B, e *guitest.Editor, f figures, name, key, mark string) {
	b.Helper()
	settle(e)
	sent := e.KeyAt(key)
	m := waitMark(e, mark, sent.UnixNano()-int64(time.Second))
	f.ms(name+": key → UI", time.Duration(m.Presented-sent.UnixNano()))
	f.ms(name+": key → picture", time.Duration(m.Picture-sent.UnixNano()))
}

// settle waits for the editor to go idle, as guitest's Settle does but longer: at 1M cubes a big selection's
// inspector scan and the viewport's pictures take minutes on a busy machine.
func settle(e *guitest.Editor) *guitest.Probe {
	return e.WaitProbe(10*time.Minute, "the editor to go idle", func(p *guitest.Probe) bool { return p.Idle })
}

// waitMark waits for a new mark named what (newer than after, in editor time) whose picture has been presented.
func waitMark(e *guitest.Editor, what string, after int64) guitest.Mark {
	p := e.WaitProbe(10*time.Minute, what+" presented", func(p *guitest.Probe) bool {
		m, ok := lastMark(p, what)
		return ok && m.Input > after && m.Picture != 0
	})
	m, _ := lastMark(p, what)
	return m
}

// orbit drags with the middle button across the viewport and records the UI's frame times and the pictures drawn
// during the drag, and the time from the release to the full picture.
func orbit(b *testing.B, e *guitest.Editor, f figures, x, y int) {
	b.Helper()
	p0 := settle(e)
	args := []string{"mousemove", strconv.Itoa(x), strconv.Itoa(y), "mousedown", "2"}
	const steps = 60
	for i := 1; i <= steps; i++ {
		args = append(args, "sleep", "0.033", "mousemove", strconv.Itoa(x+i*4), strconv.Itoa(y+i))
	}
	start := time.Now()
	e.Xdotool(args...)
	dur := time.Since(start)
	p1, _ := e.ReadProbe()
	e.Xdotool("mouseup", "2")
	released := time.Now()
	frameTimes(f, "orbit: UI frame", p0, p1)
	f.add("orbit: pictures per second while dragging", float64(p1.Picture.Pictures-p0.Picture.Pictures)/dur.Seconds())
	f.add("orbit: instances in the last picture while dragging", float64(p1.Picture.Drawn))
	p := e.WaitProbe(10*time.Minute, "the full picture after the orbit", func(p *guitest.Probe) bool {
		return p.Idle && !p.Picture.Pending && p.Picture.Stride <= 1
	})
	f.ms("orbit: release → full picture", time.Duration(max(0, p.Picture.Completed-released.UnixNano())))
	f.add("picture: instances drawn", float64(p.Picture.Drawn))
	f.add("picture: instances in the scene", float64(p.Picture.Total))
}

// zoomIn turns the wheel over the viewport at (x, y) towards the scene and records the instances in the full
// picture of the zoomed-in view against all of them, and the time from the last notch to that picture.
func zoomIn(b *testing.B, e *guitest.Editor, f figures, name string, x, y int) {
	b.Helper()
	p0 := settle(e)
	const notches = 14 // 0.85^14: an eighth of the distance that frames the whole scene
	e.Xdotool("mousemove", strconv.Itoa(x), strconv.Itoa(y), "click", "--repeat", strconv.Itoa(notches), "--delay", "30", "4")
	sent := time.Now()
	p := e.WaitProbe(10*time.Minute, "the full zoomed-in picture", func(p *guitest.Probe) bool {
		return p.Idle && !p.Picture.Pending && p.Picture.Stride <= 1 && p.Camera.Distance < p0.Camera.Distance/4
	})
	f.ms("zoomed in: last notch → full picture", time.Duration(max(0, p.Picture.Completed-sent.UnixNano())))
	f.add("zoomed in: instances drawn", float64(p.Picture.Drawn))
	f.add("zoomed in: instances in the scene", float64(p.Picture.Total))
	look(b, e, name+"-zoomed.png")
	e.Key("f") // back to everything in view
	e.WaitProbe(10*time.Minute, "the framed picture", func(p *guitest.Probe) bool {
		return p.Idle && !p.Picture.Pending && p.Picture.Stride <= 1 && p.Camera.Distance > p0.Camera.Distance/2
	})
}

// frameOne selects the cube of a hierarchy row, frames it (F over the viewport at x, y) and records the instances in
// the full picture against all of them.
func frameOne(b *testing.B, e *guitest.Editor, f figures, name string, x, y int) {
	b.Helper()
	p0 := settle(e)
	if len(p0.Hierarchy) < 2 {
		b.Fatalf("no hierarchy rows: %+v", p0.Hierarchy)
	}
	rx, ry := p0.Hierarchy[len(p0.Hierarchy)/2].Center()
	e.Click(rx, ry, 1)
	e.WaitProbe(10*time.Minute, "one entity selected", func(p *guitest.Probe) bool { return p.SelectedCount == 1 })
	e.Move(x, y)
	e.Key("f")
	p := e.WaitProbe(10*time.Minute, "the full picture framed on one cube", func(p *guitest.Probe) bool {
		return p.Idle && !p.Picture.Pending && p.Picture.Stride <= 1 && p.Camera.Distance < p0.Camera.Distance/10
	})
	f.add("framed on one cube: instances drawn", float64(p.Picture.Drawn))
	look(b, e, name+"-framed-one.png")
}

// frameTimes records the median and the longest of the frames between probes p0 and p1.
func frameTimes(f figures, name string, p0, p1 *guitest.Probe) {
	n := int(p1.Frames - p0.Frames)
	ft := p1.FrameMs[max(0, len(p1.FrameMs)-n):]
	if len(ft) == 0 {
		return
	}
	s := slices.Clone(ft)
	slices.Sort(s)
	f.add(name+" median (ms)", float64(s[len(s)/2]))
	f.add(name+" longest (ms)", float64(s[len(s)-1]))
}

// longestFrame records under key the longest of the frames between probes p0 and p1.
func longestFrame(f figures, key string, p0, p1 *guitest.Probe) {
	n := int(p1.Frames - p0.Frames)
	if ft := p1.FrameMs[max(0, len(p1.FrameMs)-n):]; len(ft) > 0 {
		f.add(key, float64(slices.Max(ft)))
	}
}

// fieldEditRepeats is how many field edits fieldEdit times: one keystroke's latency spreads over a frame or so
// (where in the frame the key arrives), more than the difference a row is meant to show.
const fieldEditRepeats = 5

// fieldEdit selects a cube in the hierarchy and types a new X position into the inspector, fieldEditRepeats times;
// the last keystroke of each is timed.
func fieldEdit(b *testing.B, e *guitest.Editor, f figures) {
	b.Helper()
	p := settle(e)
	var row *guitest.Row
	for i := range p.Hierarchy {
		if p.Hierarchy[i].Depth > 0 || i > 0 {
			row = &p.Hierarchy[i]
			break
		}
	}
	if row == nil {
		b.Fatalf("no hierarchy rows: %+v", p.Hierarchy)
	}
	x, y := row.Center()
	e.Click(x, y, 1)
	p = e.WaitProbe(10*time.Minute, "an entity selected, its Transform shown", func(p *guitest.Probe) bool {
		return len(p.Selected) == 1 && p.Inspector["Transform.position[0]"].W > 0
	})
	for i := range fieldEditRepeats {
		if i > 0 {
			p = settle(e)
		}
		typeX(b, e, f, p, "field edit")
	}
}

// typeX types a new X position into the inspector's Transform (shown in probe p); its last keystroke is timed under
// name.
func typeX(b *testing.B, e *guitest.Editor, f figures, p *guitest.Probe, name string) {
	b.Helper()
	w := p.Inspector["Transform.position[0]"]
	e.Click(w.X+w.W/2, w.Y+w.H/2, 1, "ctrl")
	e.Key("ctrl+a")
	e.Type("7.2")
	// Typed text is applied as it is typed (one undo step until Enter): the last digit is the edit timed.
	timeKey(b, e, f, name, "5", "field edit")
	e.Key("Return")
}

// fieldEditAll types a new X position into the inspector with all n entities selected, its last keystroke timed,
// and undoes the edit.
func fieldEditAll(b *testing.B, e *guitest.Editor, f figures, n int) {
	b.Helper()
	p := e.WaitProbe(10*time.Minute, "all selected, their Transform shown", func(p *guitest.Probe) bool {
		return p.Idle && p.SelectedCount == n && p.Inspector["Transform.position[0]"].W > 0
	})
	typeX(b, e, f, p, "field edit on all selected")
	settle(e)
	timeKey(b, e, f, "undo (field edit on all selected)", "ctrl+z", "undo")
}

// typing opens the grid dialog (it remembers 100×10×100), waits for the 100,000-cube preview and types digits
// into Count X one key at a time: key → the frame showing it, and how long those frames took.
func typing(b *testing.B, e *guitest.Editor, f figures) {
	b.Helper()
	e.Key("ctrl+g")
	p := e.WaitProbe(10*time.Minute, "the grid's preview", func(p *guitest.Probe) bool {
		return p.Grid != nil && p.Grid.Preview == "cubes" && p.Grid.PreviewCubes == 100_000
	})
	fld := p.Grid.Fields["count"]
	e.Click(fld.X+fld.W/6, fld.Y+fld.H/2, 1, "ctrl")
	e.WaitProbe(10*time.Minute, "Count X takes text", func(p *guitest.Probe) bool { return p.Grid != nil && p.Grid.Typing })
	e.Key("ctrl+a")
	var keys, frames []float64
	for _, k := range []string{"4", "2", "BackSpace", "7", "BackSpace", "2"} {
		sent := e.KeyAt(k)
		m := waitMark(e, "grid edit", sent.UnixNano()-int64(time.Second))
		keys = append(keys, float64(time.Duration(m.Presented-sent.UnixNano()).Microseconds())/1000)
		frames = append(frames, float64(time.Duration(m.Presented-m.Input).Microseconds())/1000)
	}
	slices.Sort(keys)
	slices.Sort(frames)
	f.add("typing beside a 100k preview: key → UI median (ms)", keys[len(keys)/2])
	f.add("typing beside a 100k preview: key → UI longest (ms)", keys[len(keys)-1])
	f.add("typing beside a 100k preview: input frame longest (ms)", frames[len(frames)-1])
	e.Key("Escape", "Escape")
	e.WaitProbe(10*time.Minute, "the grid dialog closed", func(p *guitest.Probe) bool { return p.Grid == nil })
}

// querying types a name into the Hierarchy's search a key at a time — key → the frame showing it, while the searches
// run — and the last key → its filtered rows; then a field query's last key → its rows.
func querying(b *testing.B, e *guitest.Editor, f figures) {
	b.Helper()
	p := settle(e)
	sx, sy := p.HierarchySearch.Center()
	e.Click(sx, sy, 1)
	e.WaitProbe(time.Minute, "the search field", func(p *guitest.Probe) bool { return p.TextInput })
	e.Key("ctrl+a", "BackSpace")
	settle(e)
	var keys []float64
	var sent time.Time
	var edit guitest.Mark
	for _, k := range []string{"C", "u", "b", "e", "space", "5", "comma", "5"} { // "Cube 5,5"
		sent = e.KeyAt(k)
		edit = waitMark(e, "search edit", sent.UnixNano()-int64(time.Second))
		keys = append(keys, float64(time.Duration(edit.Presented-sent.UnixNano()).Microseconds())/1000)
	}
	m := waitMark(e, "search", edit.Input-1)
	f.ms("query bar: key → filtered rows (name search)", time.Duration(m.Presented-sent.UnixNano()))
	slices.Sort(keys)
	f.add("query bar: key → UI (typing) median (ms)", keys[len(keys)/2])
	f.add("query bar: key → UI (typing) longest (ms)", keys[len(keys)-1])
	e.Key("ctrl+a")
	e.Type("Transform.position.y>")
	settle(e)
	sent = e.KeyAt("5")
	edit = waitMark(e, "search edit", sent.UnixNano()-int64(time.Second))
	m = waitMark(e, "search", edit.Input-1)
	f.ms("query bar: key → filtered rows (field query)", time.Duration(m.Presented-sent.UnixNano()))
	if p := settle(e); p.HierarchySearchText != "Transform.position.y>5" || len(p.Hierarchy) == 0 {
		b.Fatalf("the query bar shows %q and %d rows", p.HierarchySearchText, len(p.Hierarchy))
	}
	e.Key("ctrl+a", "BackSpace", "Escape")
	settle(e)
}

// scroll turns the mouse wheel over the hierarchy and records the frame times meanwhile.
func scroll(b *testing.B, e *guitest.Editor, f figures) {
	b.Helper()
	p0 := settle(e)
	h := p0.Panels["Hierarchy"]
	e.Move(h.X+h.W/2, h.Y+h.H/2)
	p0 = settle(e)
	e.Xdotool("click", "--repeat", "40", "--delay", "40", "5")
	p1, _ := e.ReadProbe()
	frameTimes(f, "hierarchy scroll: frame", p0, p1)
	// (The first row the probe lists is always the first one: ImGui's list clipper measures it.)
	if last := func(p *guitest.Probe) string { return p.Hierarchy[len(p.Hierarchy)-1].Name }; last(p1) == last(p0) {
		b.Errorf("the hierarchy did not scroll: last row %q", last(p1))
	}
}

// rssMB returns the editor's resident memory in MB (VmRSS), after the editor settled.
func rssMB(b *testing.B, e *guitest.Editor) float64 {
	b.Helper()
	settle(e)
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", e.PID()))
	if err != nil {
		b.Fatal(err)
	}
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
			return float64(kb) / 1024
		}
	}
	b.Fatal("no VmRSS")
	return 0
}

// look saves a screenshot of the settled editor into $VOLTEX_SHOTS (if set) for a person to look at.
func look(b *testing.B, e *guitest.Editor, name string) {
	if dir := os.Getenv("VOLTEX_SHOTS"); dir != "" {
		img := e.ScreenshotNow()
		if err := guitest.WritePNG(filepath.Join(dir, name), img); err != nil {
			b.Error(err)
		}
	}
}

// loadAvg is the machine's load average (1, 5, 15 minutes) now.
func loadAvg() string {
	data, _ := os.ReadFile("/proc/loadavg")
	f := strings.Fields(string(data))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

// machine describes the machine: CPU, cores, memory, OpenGL renderer, Go.
func machine() string {
	cpu := "?"
	if data, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, l := range strings.Split(string(data), "\n") {
			if v, ok := strings.CutPrefix(l, "model name"); ok {
				cpu = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(v), ":"))
				break
			}
		}
	}
	mem := "?"
	if data, err := os.ReadFile("/proc/meminfo"); err == nil {
		f := strings.Fields(string(data))
		if len(f) > 1 {
			kb, _ := strconv.Atoi(f[1])
			mem = fmt.Sprintf("%.0f GiB", float64(kb)/(1<<20))
		}
	}
	return fmt.Sprintf("%s, %d cores, %s RAM, %s, %s", cpu, runtime.NumCPU(), mem, glRenderer(), runtime.Version())
}

// glRenderer is the OpenGL renderer the editor gets under Xvfb (glxinfo on a private display).
func glRenderer() string {
	out, err := exec.Command("xvfb-run", "-a", "glxinfo", "-B").CombinedOutput()
	if err != nil {
		return "OpenGL renderer unknown"
	}
	for _, l := range strings.Split(string(out), "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(l), "OpenGL renderer string:"); ok {
			return strings.TrimSpace(v) + " under Xvfb"
		}
	}
	return "OpenGL renderer unknown"
}

// latencyRows are the table's rows in order, with their targets (at 100,000 cubes unless said, on a 2-core machine
// without a GPU).
var latencyRows = []struct{ key, target string }{
	{"open: launch → window", "progress from the first frame"},
	{"open: launch → scene in the UI", ""},
	{"open: launch → picture", "≤ 1.5 s"},
	{"spawn 100k: key → UI", "≤ 400 ms"},
	{"spawn 100k: key → picture", "≤ 400 ms"},
	{"undo (spawn): key → UI", "≤ 300 ms"},
	{"undo (spawn): key → picture", "≤ 300 ms"},
	{"redo (spawn): key → UI", "≤ 300 ms"},
	{"redo (spawn): key → picture", "≤ 300 ms"},
	{"select all: key → UI", "≤ 100 ms"},
	{"select all: key → picture", "≤ 100 ms"},
	{"delete: key → UI", "≤ 300 ms"},
	{"delete: key → picture", "≤ 300 ms"},
	{"undo (delete): key → UI", "≤ 300 ms"},
	{"undo (delete): key → picture", "≤ 300 ms"},
	{"redo (delete): key → UI", "≤ 300 ms"},
	{"redo (delete): key → picture", "≤ 300 ms"},
	{"save: key → UI", "≤ 1.5 s at 1M"},
	{"save: longest UI frame while saving (ms)", "one frame"},
	{"frame (F): key → UI", ""},
	{"frame (F): key → picture", ""},
	{"field edit: key → UI", "≤ 50 ms"},
	{"field edit: key → picture", "≤ 50 ms"},
	{"field edit on all selected: key → UI", "≤ 300 ms at 1M"},
	{"field edit on all selected: key → picture", "≤ 300 ms at 1M"},
	{"orbit: UI frame median (ms)", "≤ 50 ms"},
	{"orbit: UI frame longest (ms)", "≤ 50 ms"},
	{"orbit: pictures per second while dragging", ""},
	{"orbit: instances in the last picture while dragging", ""},
	{"orbit: release → full picture", ""},
	{"zoomed in: instances drawn", "only what is visible"},
	{"zoomed in: instances in the scene", ""},
	{"framed on one cube: instances drawn", "only what is visible"},
	{"zoomed in: last notch → full picture", ""},
	{"typing beside a 100k preview: key → UI median (ms)", "≤ 50 ms"},
	{"typing beside a 100k preview: key → UI longest (ms)", "≤ 50 ms"},
	{"typing beside a 100k preview: input frame longest (ms)", "≤ 50 ms"},
	{"query bar: key → UI (typing) median (ms)", "≤ 50 ms: typing never waits for the search"},
	{"query bar: key → UI (typing) longest (ms)", "≤ 50 ms"},
	{"query bar: key → filtered rows (name search)", "≤ 100 ms at 1M"},
	{"query bar: key → filtered rows (field query)", "≤ 200 ms at 1M"},
	{"hierarchy scroll: frame median (ms)", "≤ 50 ms (≥ 20 FPS) at 1M"},
	{"hierarchy scroll: frame longest (ms)", ""},
	{"memory: RSS after open (MB)", "≤ 1.5 GB at 1M"},
	{"memory: RSS before a 100k spawn (MB)", ""},
	{"memory: RSS after a 100k spawn (MB)", ""},
	{"memory: RSS after undoing it (MB)", "within 20 % of before"},
}

// Markers of the generated part of docs/performance.md.
const (
	tableBegin = "<!-- bench-ui:begin -->"
	tableEnd   = "<!-- bench-ui:end -->"
)

// writeLatencyTable writes the figures into the "UI latency" section of the file at path (between tableBegin and
// tableEnd; the section is added at the end if the file has none).
func writeLatencyTable(path string, all map[string]figures, loads []string) error {
	var t strings.Builder
	fmt.Fprintf(&t, "%s\nMeasured %s by `make bench-ui` on %s. Load average (1, 5, 15 min) at the start and end of each run: %s — "+
		"on this 2-core machine anything else running (a load above about 1.5) shifts single figures, by a factor of 2 "+
		"or more when builds run beside it.\n\n",
		tableBegin, time.Now().Format("2006-01-02"), machine(), strings.Join(loads, "; "))
	t.WriteString("| scenario | target (100k) |")
	for _, s := range uiSizes {
		fmt.Fprintf(&t, " %s cubes |", s.name)
	}
	t.WriteString("\n|---|---|")
	for range uiSizes {
		t.WriteString("---|")
	}
	t.WriteString("\n")
	done := map[string]bool{}
	row := func(key, target string) {
		done[key] = true
		fmt.Fprintf(&t, "| %s | %s |", key, target)
		for _, s := range uiSizes {
			fmt.Fprintf(&t, " %s |", cell(key, all[s.name][key]))
		}
		t.WriteString("\n")
	}
	for _, r := range latencyRows {
		row(r.key, r.target)
	}
	var rest []string
	for _, f := range all {
		for k := range f {
			if !done[k] {
				rest = append(rest, k)
				done[k] = true
			}
		}
	}
	slices.Sort(rest)
	for _, k := range rest {
		row(k, "")
	}
	t.WriteString("\nEach cell: the median of the runs, with the smallest and largest in brackets. \"key → UI\": from the key " +
		"to the first frame presented with the result in the panels; \"key → picture\": to the first frame whose viewport " +
		"picture shows it too.\n" + tableEnd)

	old, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	s := string(old)
	i, j := strings.Index(s, tableBegin), strings.Index(s, tableEnd)
	if i < 0 || j < i {
		if s == "" {
			s = "# Performance\n"
		}
		s = strings.TrimRight(s, "\n") + "\n\n## UI latency\n\n" + t.String() + "\n"
	} else {
		s = s[:i] + t.String() + s[j+len(tableEnd):]
	}
	return os.WriteFile(path, []byte(s), 0o644)
}

// cell formats the values of one figure: the median, and the range when there are several.
func cell(key string, v []float64) string {
	if len(v) == 0 {
		return "–"
	}
	s := slices.Clone(v)
	slices.Sort(s)
	f := func(x float64) string {
		switch {
		case strings.HasSuffix(key, "(MB)"):
			return fmt.Sprintf("%.0f MB", x)
		case strings.Contains(key, "per second"):
			return fmt.Sprintf("%.1f", x)
		case strings.Contains(key, "instances"):
			return fmt.Sprintf("%.0f", x)
		case x >= 1000:
			return fmt.Sprintf("%.2f s", x/1000)
		default:
			return fmt.Sprintf("%.0f ms", x)
		}
	}
	out := f(s[len(s)/2])
	if len(s) > 1 {
		out += fmt.Sprintf(" (%s–%s)", f(s[0]), f(s[len(s)-1]))
	}
	return out
}

// gridValues makes the grid dialog's values, remembered for its next opening, nx × ny × nz cubes, as the spawn
// stage leaves them.
func gridValues(e *guitest.Editor, nx, ny, nz string) {
	setGrid(e, nx, ny, nz)
	e.Key("Escape", "Escape")
	e.WaitProbe(10*time.Minute, "the grid dialog closed", func(p *guitest.Probe) bool { return p.Grid == nil })
}
