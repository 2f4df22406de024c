//go:build linux

package program

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"

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

// vcsBudgetMB is the memory budget of docs/limits.md (3 GiB with the process) scaled down.
func vcsBudgetMB(scale int) float64 { return 3 * 1024 / float64(scale) }

func checkVCSWorstCases(t *testing.T, scale int) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.json")
	if err := os.WriteFile(empty, []byte(`{"format": "voltex.scene", "version": 2, "entities": []}`), 0o644); err != nil {
		t.Fatal(err)
	}
	base, _ := vcsPeakRSS(t, scale, "merge", empty, empty, empty, "-o", filepath.Join(dir, "out.json"))
	budget := vcsBudgetMB(scale)
	size, entities, conflicts := vcsLimits(scale)
	t.Logf("baseline %.0f MB; budget %.0f MB above it (each side within %s and %s entities; %s conflicts)", base, budget,
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
		for _, args := range [][]string{{"merge", sides[0], sides[1], sides[2], "-o", out}, {"diff", sides[0], sides[2]}} {
			mb, code := vcsPeakRSS(t, scale, args...)
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

// TestDiffMergeWorstCaseMemory checks that the worst diffs and merges within a tenth of their limits
// (16 MiB sides, 100,000 entities, 100,000 conflicts and changes) stay within a tenth of the
// budget. Full size: TestPeakRSSDiffMerge (make bench).
func TestDiffMergeWorstCaseMemory(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector multiplies memory use; the budget is checked by the run without -race")
	}
	checkVCSWorstCases(t, 10)
}

// TestPeakRSSDiffMerge is TestDiffMergeWorstCaseMemory at the real limits (sides of 160 MiB, up
// to 2.3 GB a child), so it runs only when asked (make bench):
//
//	VOLTEX_RSS=1 go test -run TestPeakRSSDiffMerge -v -timeout 60m ./editor/program/
func TestPeakRSSDiffMerge(t *testing.T) {
	if os.Getenv("VOLTEX_RSS") == "" {
		t.Skip("set VOLTEX_RSS=1 to measure the peak RSS of the worst diffs and merges within their limits (make bench)")
	}
	checkVCSWorstCases(t, 1)
}
