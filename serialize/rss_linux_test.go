//go:build linux

package serialize

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/voltex-editor/voltex/ecs/scene"
)

// TestPeakRSS1M checks that a 1,000,000-entity scene (cubes with Transform,
// Name, Mesh, Color and Spin) loads and saves within 680 MB of peak
// resident memory (a load in pieces holds the back pieces' entities twice
// until it has joined them: about 150 MB here; the tables' room grown while
// reading is mapped at once, internal/prefault): this process writes the file, then a child process loads
// it and saves it again (atomically) and reports its peak RSS (VmHWM from
// /proc/self/status, which unlike the rusage of a child does not count the
// parent's pages shared before exec). It takes a few tens of seconds, so it
// only runs when asked:
//
//	VOLTEX_RSS=1 go test -run TestPeakRSS1M -v ./serialize/
func TestPeakRSS1M(t *testing.T) {
	if os.Getenv("VOLTEX_RSS") == "" {
		t.Skip("set VOLTEX_RSS=1 to measure the peak RSS of loading and saving 1,000,000 entities")
	}
	const n = 1_000_000
	const limitMB = 680
	path := filepath.Join(t.TempDir(), "million.json")
	w := scene.NewWorld()
	p := cubesGrid()
	p.Count = [3]int{1000, 1, n / 1000}
	scene.SpawnGrid(w, p)
	if err := SaveFile(context.Background(), path, &Scene{Name: "Million", World: w}, SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	debug.FreeOSMemory() // the world is dead past SaveFile: its memory goes back
	st, _ := os.Stat(path)
	t.Logf("scene file: %d entities, %.0f MB", n, float64(st.Size())/1e6)

	cmd := exec.Command(os.Args[0], "-test.run=^TestRSSChild$", "-test.v")
	cmd.Env = append(os.Environ(), "VOLTEX_RSS_CHILD="+path)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	peakKB := -1
	for _, line := range strings.Split(string(out), "\n") {
		if strings.Contains(line, "child:") {
			t.Log(strings.TrimSpace(line))
		}
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "child: peak RSS kB "); ok {
			peakKB, _ = strconv.Atoi(v)
		}
	}
	if peakKB < 0 {
		t.Fatalf("the child did not report its peak RSS:\n%s", out)
	}
	peakMB := float64(peakKB) / 1024
	t.Logf("peak RSS of load + save of %d entities: %.0f MB (limit %d MB)", n, peakMB, limitMB)
	if peakMB > limitMB {
		t.Errorf("peak RSS %.0f MB is over %d MB", peakMB, limitMB)
	}
}

// TestRSSChild is the child process of TestPeakRSS1M.
func TestRSSChild(t *testing.T) {
	path := os.Getenv("VOLTEX_RSS_CHILD")
	if path == "" {
		t.Skip("run by TestPeakRSS1M")
	}
	debug.SetGCPercent(GCPercent) // as cmd/voltex-editor's main does
	start := time.Now()
	s, err := LoadFile(context.Background(), path, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	loaded := time.Since(start)
	fmt.Printf("child: loaded %d entities in %v, VmHWM %s\n", s.World.Len(), loaded.Round(time.Millisecond), vmHWM())
	start = time.Now()
	if err := SaveFile(context.Background(), path, s, SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	fmt.Printf("child: saved in %v, VmHWM %s\n", time.Since(start).Round(time.Millisecond), vmHWM())
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	fmt.Printf("child: heap in use %d MB, from the OS %d MB, GC cycles %d\n", ms.HeapInuse>>20, ms.Sys>>20, ms.NumGC)
	runtime.KeepAlive(s)
	fmt.Printf("child: peak RSS kB %s\n", strings.TrimSuffix(vmHWM(), " kB"))
}

func vmHWM() string {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return "?"
	}
	defer func() { _ = f.Close() }() // read only: closing loses nothing
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			return strings.TrimSpace(v)
		}
	}
	return "?"
}
