package program

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
)

// withStdin runs fn with os.Stdin reading data from a pipe.
func withStdin(t *testing.T, data string, fn func()) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		// The command may stop reading early (a limit): a failed write is its business, not the test's.
		_, _ = io.WriteString(w, data)
		_ = w.Close()
	}()
	old := os.Stdin
	os.Stdin = r
	defer func() { os.Stdin = old; _ = r.Close() }()
	fn()
}

// A scene piped in is read once: `cat scene.json | voltex-editor validate -` (or a named pipe,
// like /dev/stdin) says ok: a pipe can be read only once, so validate must not read it again.
func TestValidateAndFmtFromPipes(t *testing.T) {
	src, err := os.ReadFile("testdata/solar.json")
	if err != nil {
		t.Fatal(err)
	}
	withStdin(t, string(src), func() {
		code, out, errOut := runCLI("validate", "-")
		if code != 0 || out != "stdin: ok: scene \"Solar system\", 8 entities\n" {
			t.Errorf("validate -: code %d\n%s%s", code, out, errOut)
		}
	})
	withStdin(t, string(src), func() {
		code, out, errOut := runCLI("fmt", "-")
		if code != 0 || out != string(src) {
			t.Errorf("fmt -: code %d, %d bytes out (want %d)\n%s", code, len(out), len(src), errOut)
		}
	})
	if code, _, errOut := runCLI("fmt", "-w", "-"); code != 2 || !strings.Contains(errOut, "cannot write back standard input") {
		t.Errorf("fmt -w -: code %d %s", code, errOut)
	}
	fifo := filepath.Join(t.TempDir(), "pipe.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	go func() {
		f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err == nil {
			// What the command read is what the test checks.
			_, _ = f.Write(src)
			_ = f.Close()
		}
	}()
	if code, out, errOut := runCLI("validate", fifo); code != 0 || !strings.HasSuffix(out, "ok: scene \"Solar system\", 8 entities\n") {
		t.Errorf("validate FIFO: code %d\n%s%s", code, out, errOut)
	}
}

// Endless or oversized input ends with an error at the size limit instead of growing without
// end (fmt /dev/zero, `yes ' ' | validate -`), and a file over the limit is refused unread.
func TestEndlessInputStops(t *testing.T) {
	if code, _, errOut := runCLI("fmt", "/dev/zero"); code != 1 || !strings.Contains(errOut, "/dev/zero:1:1: unexpected control character U+0000") {
		t.Errorf("fmt /dev/zero: code %d %q", code, errOut)
	}
	// Random bytes: the first problem is where they stop being JSON, on line 1 unless a newline came first.
	if code, _, errOut := runCLI("validate", "/dev/urandom"); code != 1 || !regexp.MustCompile(`/dev/urandom:\d+:\d+: `).MatchString(errOut) {
		t.Errorf("validate /dev/urandom: code %d %q", code, errOut)
	}
	big := filepath.Join(t.TempDir(), "big.json")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(1<<30 + 1); err != nil { // sparse: nothing to read but zeros
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"fmt", "validate", "export"} {
		args := []string{cmd, big}
		if cmd == "export" {
			args = append(args, "-o", big+".out")
		}
		code, _, errOut := runCLI(args...)
		if code != 1 || !strings.Contains(errOut, "big.json: file is 1,073,741,825 bytes, larger than the limit of 1 GiB") {
			t.Errorf("%s of a file over the limit: code %d %q", cmd, code, errOut)
		}
	}
}

// 10,000 broken ids: the first 100 problems, then how many more.
func TestProblemCountBeyondTheList(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"format": "voltex.scene", "version": 2, "entities": [`)
	for i := range 10_000 {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`{"id": -1}`)
	}
	b.WriteString("]}")
	path := filepath.Join(t.TempDir(), "ids.json")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runCLI("validate", path)
	lines := strings.Split(strings.TrimSpace(errOut), "\n")
	if code != 1 || len(lines) != 101 || lines[100] != "… and 9,900 more problems" {
		t.Errorf("code %d, %d lines, last %q", code, len(lines), lines[len(lines)-1])
	}
}

// An OBJ model piped in is checked as a model: `cat model.obj | voltex-editor validate -` (or
// /dev/stdin, or a FIFO) says what `validate model.obj` says, not what a scene's parser says of it
// ("stdin:1:1: unexpected '#'"). A broken model piped in gets the OBJ parser's problems, and
// endless text stops at the OBJ size limit.
func TestValidateOBJFromPipes(t *testing.T) {
	const cube = "# a cube\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3 4\n"
	const want = "ok: vertices 4, triangles 2, bounds [0 0 0] .. [1 1 0] (faces 1, texcoords 0, normals 0, mesh vertices 4)\n"
	withStdin(t, cube, func() {
		if code, out, errOut := runCLI("validate", "-"); code != 0 || out != "stdin: "+want {
			t.Errorf("validate - of an OBJ: code %d\n%s%s", code, out, errOut)
		}
	})
	withStdin(t, "\ufeffv 0 0 0\nv 1 0 0\nf 1 2 7\n", func() {
		if code, out, errOut := runCLI("validate", "-"); code != 1 || !strings.Contains(errOut, "stdin:3:") || out != "" {
			t.Errorf("validate - of a broken OBJ: code %d\n%s%s", code, out, errOut)
		}
	})
	fifo := filepath.Join(t.TempDir(), "model")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	go func() {
		f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err == nil {
			// What the command read is what the test checks.
			_, _ = f.WriteString(cube)
			_ = f.Close()
		}
	}()
	if code, out, errOut := runCLI("validate", fifo); code != 0 || out != fifo+": "+want {
		t.Errorf("validate FIFO of an OBJ: code %d\n%s%s", code, out, errOut)
	}
	// A scene piped in is still a scene, and a broken one still gets the scene loader's problems.
	withStdin(t, "{\"format\": \"voltex.scene\", \"version\": 2, \"entities\": [{\"id\": 0}]}", func() {
		if code, _, errOut := runCLI("validate", "-"); code != 1 || !strings.Contains(errOut, "entities[0].id") {
			t.Errorf("validate - of a broken scene: code %d\n%s", code, errOut)
		}
	})
}

// Endless OBJ-looking text on a pipe stops at the OBJ size limit.
func TestValidateEndlessOBJStops(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		line := []byte(strings.Repeat("v 1 2 3\n", 8192))
		for {
			select {
			case <-done:
				_ = w.Close()
				return
			default:
			}
			if _, err := w.Write(line); err != nil {
				return
			}
		}
	}()
	old := os.Stdin
	os.Stdin = r
	defer func() { os.Stdin = old; close(done); _ = r.Close() }()
	code, out, errOut := runCLI("validate", "-")
	if code != 1 || out != "" || !strings.Contains(errOut, "stdin") || !strings.Contains(errOut, "limit") {
		t.Errorf("endless OBJ on stdin: code %d\n%s%s", code, out, errOut)
	}
}

// A project file piped in that lists endless components is refused at the first one past the
// limit: validate reads a few kilobytes of it, not the 16 MiB the file size limit allows.
func TestValidateEndlessProjectStops(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	var written atomic.Int64
	done := make(chan struct{})
	go func() {
		defer func() { _ = w.Close() }()
		n, _ := io.WriteString(w, `{"format": "voltex.project", "version": 1, "components": [`+"\n")
		written.Add(int64(n))
		for i := 0; ; i++ {
			select {
			case <-done:
				return
			default:
			}
			n, err := fmt.Fprintf(w, "{\"name\": \"C%d\"},\n", i)
			written.Add(int64(n))
			if err != nil {
				return
			}
		}
	}()
	old := os.Stdin
	os.Stdin = r
	defer func() { os.Stdin = old; close(done); _ = r.Close() }()
	code, out, errOut := runCLI("validate", "-")
	if code != 1 || out != "" || !strings.Contains(errOut, "stdin:258:1: components[256]: more than 256 components") {
		t.Errorf("endless components on stdin: code %d\n%s%s", code, out, errOut)
	}
	// What was read, the read-ahead of the reader and what the pipe holds.
	if n := written.Load(); n > 1<<20 {
		t.Errorf("%d bytes were written before validate stopped", n)
	}
}
