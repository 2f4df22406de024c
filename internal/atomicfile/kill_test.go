package atomicfile

import (
	"bytes"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// atomicContents are the two versions the child process keeps writing.
func atomicContents() (a, b []byte) {
	return bytes.Repeat([]byte("old version\n"), 100_000), bytes.Repeat([]byte("NEW VERSION!\n"), 90_000)
}

// TestWriteFileSurvivesKill kills a process that keeps saving a file, at
// random moments, and checks that the file (and its backup) always hold one
// complete version, never a mix or nothing.
func TestWriteFileSurvivesKill(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	a, b := atomicContents()
	path := filepath.Join(t.TempDir(), "scene.json")
	if err := WriteFile(path, a); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 8 {
		cmd := exec.Command(os.Args[0], "-test.run=^TestWriteFileKillChild$")
		cmd.Env = append(os.Environ(), "VOLTEX_ATOMIC_CHILD="+path)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(20+rng.IntN(80)) * time.Millisecond)
		if err := cmd.Process.Kill(); err != nil {
			t.Fatal(err)
		}
		_ = cmd.Wait() // "signal: killed": the kill is the point
		for _, p := range []string{path, path + ".bak"} {
			got, err := os.ReadFile(p)
			if err != nil && p == path {
				t.Fatalf("kill %d: %v", i, err)
			}
			if err == nil && !bytes.Equal(got, a) && !bytes.Equal(got, b) {
				t.Fatalf("kill %d: %s holds %d bytes that are neither version", i, p, len(got))
			}
		}
	}
}

// TestWriteFileKillChild is the process TestWriteFileSurvivesKill kills.
func TestWriteFileKillChild(t *testing.T) {
	path := os.Getenv("VOLTEX_ATOMIC_CHILD")
	if path == "" {
		t.Skip("run by TestWriteFileSurvivesKill")
	}
	a, b := atomicContents()
	for i := 0; ; i++ {
		data := a
		if i%2 == 0 {
			data = b
		}
		if err := WriteFile(path, data); err != nil {
			t.Fatal(err)
		}
	}
}
