//go:build linux

package program

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/ecs/scene"

	"github.com/voltex-editor/voltex/internal/words"
	"github.com/voltex-editor/voltex/serialize"
	"github.com/voltex-editor/voltex/serialize/merge"
)

// The worst diffs and merges within merge.SideLimits, MaxConflicts and MaxChanges (docs/limits.md):
//   - conflicts: every entity conflicts in its name, position and mesh (merge gives up at MaxConflicts);
//   - disjoint: ours moves every entity, theirs changes every mesh (all merged, no conflict);
//   - mixed: just under MaxConflicts small conflicts (1,000 fields an entity), the rest of the file
//     long strings that conflict too (each conflict keeps base, ours and theirs);
//   - strings: long strings that conflict, up to the file size.
//
// diff compares base and theirs of each.
var vcsWorstCases = []string{"conflicts", "disjoint", "mixed", "strings"}

// vcsLimits are the limits of diff and merge divided by scale.
func vcsLimits(scale int) (sizeLimit int64, entities, conflicts int) {
	return merge.SideLimits.MaxFileSize / int64(scale), merge.SideLimits.MaxEntities / scale, merge.MaxConflicts / scale
}

// writeVCSWorstCase writes side (0 base, 1 ours, 2 theirs) of the worst case kind for the limits
// divided by scale.
func writeVCSWorstCase(path, kind string, side, scale int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer func() { _ = f.Close() }() // for the early returns: the last line closes it and checks
	maxSize, maxEntities, maxConflicts := vcsLimits(scale)
	w := bufio.NewWriterSize(f, 1<<20)
	size := int64(0)
	id := 0
	put := func(s string) { _, _ = w.WriteString(s); size += int64(len(s)) } // Flush returns the first error
	entity := func(name, comps string) bool {
		s := fmt.Sprintf(`{"id": %d, %s"order": %d, "components": {%s}}`, id+1, name, id+1, comps)
		if size+int64(len(s))+16 >= maxSize || id >= maxEntities {
			return false
		}
		if id > 0 {
			put(",\n")
		}
		put(s)
		id++
		return true
	}
	put(`{"format": "voltex.scene", "version": 2, "name": "W", "entities": [` + "\n")
	long := strings.Repeat(string(rune('a'+side)), serialize.DefaultLimits().MaxString-64)
	switch kind {
	case "conflicts":
		for entity(fmt.Sprintf(`"name": "e%d", `, side), fmt.Sprintf(`"Mesh": {"asset": "m%d"}, "Transform": {"position": [%d, 0, 0]}`, side, side)) {
		}
	case "disjoint":
		for {
			pos, mesh := "0", "m"
			switch side {
			case 1:
				pos = "0.5"
			case 2:
				mesh = "n" + strconv.FormatInt(int64(id), 36)
			}
			if !entity("", fmt.Sprintf(`"Mesh": {"asset": %q}, "Transform": {"position": [%s, 0, 0]}`, mesh, pos)) {
				break
			}
		}
	case "mixed":
		var b strings.Builder
		for k := range 1000 {
			fmt.Fprintf(&b, `"f%d": %d, `, k, side)
		}
		fields := `"Note": {` + strings.TrimSuffix(b.String(), ", ") + `}`
		for range maxConflicts*99/100/1000 - 1 {
			entity("", fields)
		}
		for n := 0; n < maxConflicts/100 && entity("", `"Note": {"text": "`+long+`"}`); n++ {
		}
	case "strings":
		for n := 0; n < maxConflicts && entity("", `"Note": {"text": "`+long+`"}`); n++ {
		}
	}
	put("\n]}\n")
	if err := w.Flush(); err != nil {
		return err
	}
	return f.Close()
}

// vcsPeakRSS runs voltex-editor diff or merge (args) in a child process (this test binary, with
// the tools' GC target) with the limits divided by scale, and returns its peak RSS in MB and exit
// code.
func vcsPeakRSS(t *testing.T, scale int, args ...string) (mb float64, code int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestVCSMemoryChild$")
	cmd.Env = append(os.Environ(), "VOLTEX_VCS_CHILD="+strings.Join(args, "\n"), "VOLTEX_VCS_SCALE="+strconv.Itoa(scale))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v: child: %v\n%s", args, err, out)
	}
	kb := -1
	for _, line := range strings.Split(string(out), "\n") {
		if v, ok := strings.CutPrefix(line, "child: exit "); ok {
			f := strings.Fields(v)
			code, _ = strconv.Atoi(f[0])
			kb, _ = strconv.Atoi(f[len(f)-1])
		}
	}
	if kb < 0 {
		t.Fatalf("%v: the child did not report its peak RSS:\n%s", args, out)
	}
	return float64(kb) / 1024, code
}

// TestVCSMemoryChild is the child process of the diff and merge memory tests.
func TestVCSMemoryChild(t *testing.T) {
	args := os.Getenv("VOLTEX_VCS_CHILD")
	if args == "" {
		t.Skip("run by TestDiffMergeWorstCaseMemory and TestPeakRSSDiffMerge")
	}
	scale, _ := strconv.Atoi(os.Getenv("VOLTEX_VCS_SCALE"))
	size, entities, conflicts := vcsLimits(scale)
	merge.SideLimits.MaxFileSize, merge.SideLimits.MaxEntities = size, entities
	merge.MaxConflicts, merge.MaxChanges = conflicts, merge.MaxChanges/scale
	debug.SetGCPercent(serialize.GCPercent) // as program.Main does
	code := Run(Game{}, strings.Split(args, "\n"), io.Discard, io.Discard)
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	hwm := ""
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			hwm = strings.TrimSuffix(strings.TrimSpace(v), " kB")
		}
	}
	fmt.Printf("child: exit %d peak RSS kB %s\n", code, hwm)
}

// vcsBudgetMB is the memory budget of docs/limits.md for op ("diff" or "merge") of sides of
// sideBytes in all, with MaxConflicts and MaxChanges divided by scale: 1 GiB for the conflicts or
// changes, and per byte of the sides 5 (merge) or 3.5 (diff).
func vcsBudgetMB(op string, scale int, sideBytes int64) float64 {
	perByte := 3.5
	if op == "merge" {
		perByte = 5
	}
	return 1024/float64(scale) + perByte*float64(sideBytes)/(1<<20)
}

// filesSize is the size of files together.
func filesSize(t *testing.T, files []string) int64 {
	n := int64(0)
	for _, f := range files {
		st, err := os.Stat(f)
		if err != nil {
			t.Fatal(err)
		}
		n += st.Size()
	}
	return n
}

func checkVCSWorstCases(t *testing.T, scale int) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.json")
	if err := os.WriteFile(empty, []byte(`{"format": "voltex.scene", "version": 2, "entities": []}`), 0o644); err != nil {
		t.Fatal(err)
	}
	base, _ := vcsPeakRSS(t, scale, "merge", empty, empty, empty, "-o", filepath.Join(dir, "out.json"))
	size, entities, conflicts := vcsLimits(scale)
	t.Logf("baseline %.0f MB (each side within %s and %s entities; %s conflicts)", base,
		words.Bytes(size), words.Thousands(int64(entities)), words.Thousands(int64(conflicts)))
	for _, kind := range vcsWorstCases {
		var sides [3]string
		for i := range sides {
			sides[i] = filepath.Join(dir, fmt.Sprintf("%s%d.json", kind, i))
			if err := writeVCSWorstCase(sides[i], kind, i, scale); err != nil {
				t.Fatal(err)
			}
		}
		out := filepath.Join(dir, "out.json")
		for _, run := range []struct {
			args  []string
			sides []string
		}{{[]string{"merge", sides[0], sides[1], sides[2], "-o", out}, sides[:]}, {[]string{"diff", sides[0], sides[2]}, []string{sides[0], sides[2]}}} {
			args := run.args
			mb, code := vcsPeakRSS(t, scale, args...)
			budget := vcsBudgetMB(args[0], scale, filesSize(t, run.sides))
			t.Logf("%-5s %-9s peak %6.0f MB (%.2f of the budget), exit %d", args[0], kind, mb, (mb-base)/budget, code)
			want := 1 // they differ, or conflict
			switch {
			case args[0] == "merge" && kind == "conflicts":
				want = 2 // more than MaxConflicts: nothing written
			case args[0] == "merge" && kind == "disjoint":
				want = 0
			}
			if code != want {
				t.Errorf("%s %s: exit %d, want %d", args[0], kind, code, want)
			}
			if mb-base > budget {
				t.Errorf("%s %s: peak RSS %.0f MB is %.0f MB over the baseline, more than the budget of %.0f MB", args[0], kind, mb, mb-base, budget)
			}
		}
		for _, p := range append(sides[:], out) {
			_ = os.Remove(p) // absent already is as good
		}
	}
}

// TestDiffMergeWorstCaseMemory checks that the worst diffs and merges within a 64th of their limits
// (16 MiB sides, 62,500 entities, 15,625 conflicts and changes) stay within the budget for them. Full size: TestPeakRSSDiffMerge (make bench).
func TestDiffMergeWorstCaseMemory(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector multiplies memory use; the budget is checked by the run without -race")
	}
	checkVCSWorstCases(t, 64)
}

// TestPeakRSSDiffMerge is TestDiffMergeWorstCaseMemory at the real limits (sides of 1 GiB), so it
// runs only when asked (make bench):
//
//	VOLTEX_RSS=1 go test -run TestPeakRSSDiffMerge -v -timeout 60m ./editor/program/
func TestPeakRSSDiffMerge(t *testing.T) {
	if os.Getenv("VOLTEX_RSS") == "" {
		t.Skip("set VOLTEX_RSS=1 to measure the peak RSS of the worst diffs and merges within their limits (make bench)")
	}
	checkVCSWorstCases(t, 1)
}

// TestPeakRSSGitDrivers1M runs git's merge and diff drivers on sides of 1,000,000 cubes (about
// 320 MB each, as grid and the editor write them): theirs changes every cube, ours the scene's
// name. Both succeed within the budget of docs/limits.md. It runs only when asked (make bench):
//
//	VOLTEX_RSS=1 go test -run TestPeakRSSGitDrivers1M -v -timeout 60m ./editor/program/
func TestPeakRSSGitDrivers1M(t *testing.T) {
	if os.Getenv("VOLTEX_RSS") == "" {
		t.Skip("set VOLTEX_RSS=1 to run the git drivers on 1,000,000-cube scenes (make bench)")
	}
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.json")
	if err := os.WriteFile(empty, []byte(`{"format": "voltex.scene", "version": 2, "entities": []}`), 0o644); err != nil {
		t.Fatal(err)
	}
	baseline, _ := vcsPeakRSS(t, 1, "merge", empty, empty, empty, "-o", filepath.Join(dir, "out.json"))
	var sides [3]string
	for i, side := range []struct {
		name  string
		speed float32
	}{{"Grid", 45}, {"Ours", 45}, {"Grid", 90}} {
		p := scene.GridParams{Count: [3]int{1000, 1, 1000}, Spacing: mgl32.Vec3{1.5, 1.5, 1.5},
			ColorFrom: [4]float32{0.2, 0.5, 1, 1}, ColorTo: [4]float32{1, 0.3, 0.1, 1},
			Spin: &scene.Spin{Axis: mgl32.Vec3{0, 1, 0}, Speed: side.speed}}
		s, err := serialize.GridScene(p, side.name, 1)
		if err != nil {
			t.Fatal(err)
		}
		sides[i] = filepath.Join(dir, fmt.Sprintf("side%d.json", i))
		if err := serialize.SaveFile(context.Background(), sides[i], s, serialize.SaveOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	zero := strings.Repeat("0", 40)
	for _, run := range []struct {
		args  []string
		sides []string
	}{
		{[]string{"merge", sides[0], sides[1], sides[2], "-o", filepath.Join(dir, "out.json"), "--path", "level.json"}, sides[:]},
		{[]string{"diff", "--git", "level.json", sides[0], zero, "100644", sides[2], zero, "100644"}, []string{sides[0], sides[2]}},
	} {
		start := time.Now()
		mb, code := vcsPeakRSS(t, 1, run.args...)
		size := filesSize(t, run.sides)
		budget := vcsBudgetMB(run.args[0], 1, size)
		t.Logf("%-5s sides %s: %.1f s, peak %.0f MB (%.2f of the budget), exit %d", run.args[0], words.Bytes(size),
			time.Since(start).Seconds(), mb, (mb-baseline)/budget, code)
		if code != 0 {
			t.Errorf("%s: exit %d, want 0", run.args[0], code)
		}
		if mb-baseline > budget {
			t.Errorf("%s: peak RSS %.0f MB is %.0f MB over the baseline, more than the budget of %.0f MB", run.args[0], mb, mb-baseline, budget)
		}
	}
}
