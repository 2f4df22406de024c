//go:build linux

package serialize

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/serialize/game"
)

// Components a game could declare whose memory per byte of file is the highest: a big array
// that "{}" fills with defaults, a slice of entity references, a slice of strings.
type (
	bigArr struct {
		V [1024]float64 `json:"v"`
	}
	refList struct {
		L []ecs.Entity `json:"l"`
	}
	tagList struct {
		L []string `json:"l"`
	}
)

// worstWorld is scene.NewWorld with those components.
func worstWorld() *ecs.World {
	w := scene.NewWorld()
	ecs.Register[bigArr](w)
	ecs.Register[refList](w)
	ecs.Register[tagList](w)
	return w
}

// worstCases are the files within (or just past) the limits that take the most memory per byte:
// each kind fills the file size, the entity count or the world memory limit.
var worstCases = []string{"strings", "unknown", "values", "cubes", "chain", "big", "refs", "tags", "prefabs", "export-cubes", "export-meshes", "export-components"}

// writeWorstCase writes the worst case kind for the limits lim (scenes) or glim (exports).
func writeWorstCase(out io.Writer, kind string, lim Limits, glim game.Limits) error {
	lim = lim.resolved()
	w := bufio.NewWriterSize(out, 1<<20)
	size := int64(0)
	put := func(s string) { _, _ = w.WriteString(s); size += int64(len(s)) } // Flush returns the first error
	room := func(next int) bool { return size+int64(next)+64 < lim.MaxFileSize }
	long := strings.Repeat("x", lim.MaxString-16)
	list := func(item string, n int) string {
		var b strings.Builder
		b.WriteByte('[')
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(item)
		}
		b.WriteByte(']')
		return b.String()
	}
	perEntity := min(lim.MaxEntityValues-16, lim.MaxEntityBytes/2-16)
	entities := func(fn func(i int) string) {
		put(`{"format": "voltex.scene", "version": 2, "name": "worst", "entities": [` + "\n")
		for i := 1; i <= lim.MaxEntities; i++ {
			e := fn(i)
			if !room(len(e)) {
				break
			}
			if i > 1 {
				put(",\n")
			}
			put(e)
		}
		put("\n]}\n")
	}
	switch kind {
	case "strings":
		entities(func(i int) string { return fmt.Sprintf(`{"id": %d, "name": "%s"}`, i, long) })
	case "unknown":
		entities(func(i int) string { return fmt.Sprintf(`{"id": %d, "components": {"Blob": {"s": "%s"}}}`, i, long) })
	case "values":
		v := list("0", perEntity)
		entities(func(i int) string { return fmt.Sprintf(`{"id": %d, "components": {"Blob": {"v": %s}}}`, i, v) })
	case "cubes":
		entities(func(i int) string {
			return fmt.Sprintf(`{"id": %d, "order": %d, "name": "Cube %d", "components": {"Color": {"rgba": [0.2, 0.5, 1, 1]}, `+
				`"Mesh": {"asset": "builtin:cube"}, "Spin": {"axis": [0, 1, 0], "speed": 45}, `+
				`"Transform": {"position": [%d, 0, 1.5], "rotation": [0, 0, 0], "scale": [1, 1, 1]}}}`, i, i, i, i)
		})
	case "chain":
		entities(func(i int) string {
			p := ""
			if i > 1 {
				p = `, "parent": ` + strconv.Itoa(i-1)
			}
			return fmt.Sprintf(`{"id": %d%s, "components": {"Transform": {"position": [1, 0, 0]}}}`, i, p)
		})
	case "big":
		entities(func(i int) string { return fmt.Sprintf(`{"id": %d, "components": {"bigArr": {}}}`, i) })
	case "refs":
		v := list("1", perEntity)
		entities(func(i int) string { return fmt.Sprintf(`{"id": %d, "components": {"refList": {"l": %s}}}`, i, v) })
	case "tags":
		v := list(`""`, perEntity)
		entities(func(i int) string { return fmt.Sprintf(`{"id": %d, "components": {"tagList": {"l": %s}}}`, i, v) })
	case "prefabs":
		// Ten levels of nested prefabs around a prefab of cubes that fills a third of the world
		// limit (writePrefabChain writes them): every loaded prefab holds a world of its own.
		put(`{"format": "voltex.scene", "version": 2, "name": "worst", "entities": [{"id": 1, "prefab": "level10.json"}]}` + "\n")
	case "export-cubes", "export-meshes", "export-components":
		glim.MaxFileSize = lim.MaxFileSize
		put(`{"format": "voltex.export", "version": 1, "name": "worst", "meshes": [`)
		if kind == "export-meshes" {
			mesh := strings.Repeat("m", 4080)
			for i := 0; room(4200); i++ {
				if i > 0 {
					put(",")
				}
				put(fmt.Sprintf(`"%s%07d.obj"`, mesh, i))
			}
		} else {
			put(`"builtin:cube"`)
		}
		put(`], "entities": [` + "\n")
		for i := 0; i < lim.MaxEntities && kind != "export-meshes"; i++ {
			e := `{"name": "Cube", "parent": -1, "mesh": 0, "color": [1, 1, 1, 1], "world": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], ` +
				`"components": {"Transform": {"position": [0, 0, 0], "rotation": [0, 0, 0], "scale": [1, 1, 1]}, "Spin": {"axis": [0, 1, 0], "speed": 45}}}`
			if kind == "export-components" {
				e = fmt.Sprintf(`{"name": "x", "world": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], "components": {"Blob": {"s": "%s"}}}`, long)
			}
			if !room(len(e)) {
				break
			}
			if i > 0 {
				put(",\n")
			}
			put(e)
		}
		put("\n]}\n")
	default:
		return fmt.Errorf("no worst case %q", kind)
	}
	return w.Flush()
}

// writePrefabChain writes the prefabs of the "prefabs" worst case into dir: base.json, cubes that
// take about a third of lim.MaxWorldBytes, and level1.json … level10.json, each an instance of the
// one before.
func writePrefabChain(t *testing.T, dir string, lim Limits) {
	lim = lim.resolved()
	var b strings.Builder
	b.WriteString(`{"format": "voltex.scene", "version": 2, "name": "base", "entities": [` + "\n")
	for i := 1; i <= int(lim.MaxWorldBytes/3/350); i++ {
		if i > 1 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `{"id": %d, "name": "Cube %d", "components": {"Color": {"rgba": [0.2, 0.5, 1, 1]}, "Mesh": {"asset": "builtin:cube"}, `+
			`"Spin": {"axis": [0, 1, 0], "speed": 45}, "Transform": {"position": [%d, 0, 1.5]}}}`, i, i, i)
	}
	b.WriteString("\n]}\n")
	files := map[string]string{"base.json": b.String()}
	prev := "base.json"
	for level := 1; level <= 10; level++ {
		name := fmt.Sprintf("level%d.json", level)
		files[name] = fmt.Sprintf(`{"format": "voltex.scene", "version": 2, "entities": [{"id": 1, "prefab": %q}]}`, prev)
		prev = name
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// loadWorstCase loads the file at path as the tools do (a scene is loaded then saved and exported
// to nowhere; an export is loaded by the game loader) and returns the load's error.
func loadWorstCase(path string, lim Limits, glim game.Limits) error {
	in, err := OpenInput(path)
	if err != nil {
		return err
	}
	defer in.Close()
	if in.Kind() == KindExport {
		_, err := game.LoadWith(in, path, glim)
		return err
	}
	// validate first (in pieces, one a core, when the file is valid and big enough), then the load.
	if _, err := ValidateInput(context.Background(), in, LoadOptions{Limits: lim, NewWorld: worstWorld}); err != nil {
		var e *Error
		if !errors.As(err, &e) {
			return err
		}
	}
	if err := in.rewind(); err != nil {
		return err
	}
	s, err := Load(context.Background(), in, LoadOptions{Limits: lim, NewWorld: worstWorld})
	if err != nil {
		return err
	}
	if err := Save(context.Background(), io.Discard, s, SaveOptions{}); err != nil {
		return err
	}
	return Export(context.Background(), io.Discard, s)
}

// peakRSS runs the worst case kind in a child process (this test binary, as the tools run: GC
// target serialize.GCPercent) and returns its peak resident memory and the load's error text.
func peakRSS(t *testing.T, kind string, lim Limits, glim game.Limits) (mb float64, loadErr string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), kind+".json")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := writeWorstCase(f, kind, lim, glim); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = os.Remove(path) }() // in t.TempDir: removed anyway; this frees the space sooner
	if kind == "prefabs" {
		writePrefabChain(t, filepath.Dir(path), lim)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestWorstCaseChild$")
	cmd.Env = append(os.Environ(), "VOLTEX_WORST_CHILD="+path, fmt.Sprintf("VOLTEX_WORST_LIMITS=%d,%d,%d,%d,%d,%d", lim.MaxFileSize,
		lim.MaxEntities, lim.MaxString, lim.MaxEntityBytes, lim.MaxWorldBytes, glim.MaxWorldBytes))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: child: %v\n%s", kind, err, out)
	}
	kb := -1
	for _, line := range strings.Split(string(out), "\n") {
		if v, ok := strings.CutPrefix(line, "child: peak RSS kB "); ok {
			kb, _ = strconv.Atoi(v)
		}
		if v, ok := strings.CutPrefix(line, "child: load: "); ok {
			loadErr = v
		}
	}
	if kb < 0 {
		t.Fatalf("%s: the child did not report its peak RSS:\n%s", kind, out)
	}
	return float64(kb) / 1024, loadErr
}

// TestWorstCaseChild is the child process of the worst-case memory tests.
func TestWorstCaseChild(t *testing.T) {
	path := os.Getenv("VOLTEX_WORST_CHILD")
	if path == "" {
		t.Skip("run by TestWorstCaseMemory and TestPeakRSSWorstCases")
	}
	debug.SetGCPercent(GCPercent) // as cmd/voltex-editor does
	var n [6]int64
	for i, s := range strings.Split(os.Getenv("VOLTEX_WORST_LIMITS"), ",") {
		n[i], _ = strconv.ParseInt(s, 10, 64)
	}
	lim := Limits{MaxFileSize: n[0], MaxEntities: int(n[1]), MaxString: int(n[2]), MaxEntityBytes: int(n[3]), MaxWorldBytes: n[4]}
	glim := game.Limits{MaxFileSize: 2 * n[0], MaxEntities: int(n[1]), MaxString: int(n[2]), MaxEntityBytes: int(n[3]), MaxWorldBytes: n[5]}
	err := loadWorstCase(path, lim, glim)
	msg := "ok"
	if err != nil {
		var e *Error
		if !errors.As(err, &e) {
			t.Fatal(err)
		}
		msg = strings.SplitN(err.Error(), "\n", 2)[0]
	}
	fmt.Printf("child: load: %s\n", msg)
	fmt.Printf("child: peak RSS kB %s\n", strings.TrimSuffix(vmHWM(), " kB"))
}

// memoryBudget is the peak memory (MB) that loading any file within lim may take, beyond the
// baseline of the process: the world (MaxWorldBytes) with the collector's headroom and the slack
// of growing tables, plus the entity being read (its text a few times over, and its parsed
// values: about 300 bytes each while they are collected).
func memoryBudget(lim Limits) float64 {
	lim = lim.resolved()
	return (2.5*float64(lim.MaxWorldBytes) + 5*float64(lim.MaxEntityBytes) + 300*float64(lim.MaxEntityValues)) / (1 << 20)
}

// TestWorstCaseMemory generates the worst case of every kind for scaled-down limits (32 MiB files,
// 48 MiB worlds) and checks that loading each stays within the budget of docs/limits.md above the
// baseline measured in the same run (an empty scene). Full size: TestPeakRSSWorstCases (make bench).
func TestWorstCaseMemory(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector multiplies memory use; the budget is checked by the run without -race")
	}
	lim := Limits{MaxFileSize: 32 << 20, MaxEntities: 150_000, MaxString: 64 << 10, MaxEntityBytes: 1 << 20, MaxWorldBytes: 48 << 20}
	glim := game.Limits{MaxWorldBytes: 48 << 20}
	checkWorstCases(t, lim, glim)
}

func checkWorstCases(t *testing.T, lim Limits, glim game.Limits) {
	base, _ := peakRSS(t, "cubes", Limits{MaxFileSize: 1 << 10}, glim) // an almost empty scene: the process itself
	budget := memoryBudget(lim)
	r := lim.resolved()
	t.Logf("baseline %.0f MB; budget %.0f MB above it (limits: file %d MiB, world %d MiB, %d entities)", base, budget,
		r.MaxFileSize>>20, r.MaxWorldBytes>>20, r.MaxEntities)
	for _, kind := range worstCases {
		mb, loadErr := peakRSS(t, kind, lim, glim)
		t.Logf("%-18s peak %6.0f MB (%.2f of the budget): %s", kind, mb, (mb-base)/budget, loadErr)
		if mb-base > budget {
			t.Errorf("%s: peak RSS %.0f MB is %.0f MB over the baseline, more than the budget of %.0f MB", kind, mb, mb-base, budget)
		}
	}
}

// TestPeakRSSWorstCases is TestWorstCaseMemory at the default limits (1 GiB files, 4,000,000
// entities, 1.5 GiB worlds): each case writes a file of about 1 GB and loads it in a child that
// may take 2.5 GB, so it runs only when asked (make bench):
//
//	VOLTEX_RSS=1 go test -run TestPeakRSSWorstCases -v -timeout 60m ./serialize/
func TestPeakRSSWorstCases(t *testing.T) {
	if os.Getenv("VOLTEX_RSS") == "" {
		t.Skip("set VOLTEX_RSS=1 to measure the peak RSS of the worst files within the default limits (make bench)")
	}
	checkWorstCases(t, Limits{}, game.Limits{})
}
