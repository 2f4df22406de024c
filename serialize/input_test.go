package serialize

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// stream hides every method but Read, like a pipe.
type stream struct{ r io.Reader }

func (s *stream) Read(p []byte) (int, error) { return s.r.Read(p) }

// endless yields the same byte forever and counts what it gave.
type endless struct {
	b byte
	n int64
}

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = e.b
	}
	e.n += int64(len(p))
	return len(p), nil
}

// failingReader fails the test if it is read.
type failingReader struct{ t *testing.T }

func (f failingReader) Read([]byte) (int, error) {
	f.t.Error("read a file that is over the size limit")
	return 0, io.EOF
}

const v1Scene = `{"format": "voltex.scene", "version": 1, "name": "S", "entities": [
  {"id": 1, "name": "a", "components": {"Transform": {"position": [0, 0, 0], "rotation": [0, 90, 0], "scale": [1, 1, 1]}}},
  {"id": 2, "parent": 1, "components": {"Color": {"rgba": [1, 0, 0, 1]}}}
]}`

// A scene read from a stream (a pipe, standard input) is read once and gives the same world as
// from a file; what Kind read to tell the kind of file is handed on to the loader.
func TestLoadFromStreamOnce(t *testing.T) {
	want := content(t, mustLoad(t, v1Scene))
	in := NewInput(&stream{strings.NewReader(v1Scene)}, "stdin")
	if in.Kind() != KindScene {
		t.Fatal("kind")
	}
	s, err := Load(context.Background(), in, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := content(t, s); got != want {
		t.Fatalf("from a stream:\n%s\nwant\n%s", got, want)
	}
	// validate on the stream: one read gives the kind, the check and the summary.
	in = NewInput(&stream{strings.NewReader(v1Scene)}, "stdin")
	v, err := ValidateInput(context.Background(), in, LoadOptions{})
	if err != nil || v.Kind != KindScene || v.Summary != `scene "S", 2 entities` {
		t.Fatalf("validate: %+v %v", v, err)
	}
	// An export through the same door.
	var exp bytes.Buffer
	if err := Export(context.Background(), &exp, s); err != nil {
		t.Fatal(err)
	}
	v, err = ValidateInput(context.Background(), NewInput(&stream{&exp}, "stdin"), LoadOptions{})
	if err != nil || v.Kind != KindExport || v.Summary != "export, 2 entities, 0 meshes" {
		t.Fatalf("validate an export: %+v %v", v, err)
	}
}

// Entities before the version: from a file they are read again, from a stream they are kept in
// memory (positions still those of the file), and over MaxBuffered the load says what to do.
func TestEntitiesBeforeVersion(t *testing.T) {
	src := "{\"entities\": [{\"id\": 1, \"components\": {\"Transform\": {\"rotation\": [0, 0.5, 0]}}},\n" +
		"  {\"id\": 2, \"components\": {\"Bogus\": 1}}],\n \"name\": \"v0\"}"
	for _, r := range []io.Reader{strings.NewReader(src), &stream{strings.NewReader(src)}} {
		_, err := Load(context.Background(), r, LoadOptions{File: "f.json"})
		want := "f.json:2:37: entities[1].components.Bogus: a component must be an object, not the number 1"
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("%T: %v\nwant %s", r, err, want)
		}
	}
	good := strings.Replace(src, `"Bogus": 1`, `"Color": {"rgba": [0, 1, 0, 1]}`, 1)
	s, err := Load(context.Background(), &stream{strings.NewReader(good)}, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if c := content(t, s); !strings.Contains(c, `"rotation": [0, 28.64789, 0]`) {
		t.Fatalf("the version 0 entity was not migrated:\n%s", c)
	}
	_, err = Load(context.Background(), &stream{strings.NewReader(good)}, LoadOptions{File: "f.json", Limits: Limits{MaxBuffered: 50}})
	if err == nil || !strings.Contains(err.Error(), `f.json:1:14: the entities come before the "version", and over 50 bytes`) {
		t.Fatalf("over MaxBuffered: %v", err)
	}
}

// Endless inputs (/dev/zero, `yes ' '`) end at the size limit with an error; a file over the
// limit is refused before anything is read.
func TestEndlessAndOversizedInputs(t *testing.T) {
	lim := Limits{MaxFileSize: 1 << 20}
	spaces := &endless{b: ' '}
	_, err := Load(context.Background(), spaces, LoadOptions{File: "stdin", Limits: lim})
	if err == nil || !strings.Contains(err.Error(), "larger than the limit of 1 MiB") || spaces.n > 2<<20 {
		t.Fatalf("endless spaces: %v after %d bytes", err, spaces.n)
	}
	zeros := &endless{b: 0}
	_, err = Load(context.Background(), zeros, LoadOptions{File: "zero", Limits: lim})
	if err == nil || !strings.Contains(err.Error(), "zero:1:1:") || zeros.n > 1<<20 {
		t.Fatalf("endless zeros: %v after %d bytes", err, zeros.n)
	}
	in := &Input{Name: "big.json", r: failingReader{t}, size: 2 << 20}
	_, err = Load(context.Background(), in, LoadOptions{Limits: lim})
	if err == nil || !strings.Contains(err.Error(), "big.json: file is 2 MiB, larger than the limit of 1 MiB") {
		t.Fatalf("oversized: %v", err)
	}
	// The kind of an endless input is found within its first MiB.
	if k := NewInput(&endless{b: ' '}, "").Kind(); k != KindScene {
		t.Fatal(k)
	}
}

// Past MaxProblems the loader goes on counting, and the error says how many more there were.
func TestProblemsBeyondTheLimitAreCounted(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"format": "voltex.scene", "version": 2, "entities": [`)
	for i := range 10_000 {
		if i > 0 {
			b.WriteString(",\n")
		}
		b.WriteString(`{"id": "x"}`)
	}
	b.WriteString("]}")
	_, err := Load(context.Background(), strings.NewReader(b.String()), LoadOptions{File: "ids.json"})
	var e *Error
	if !errors.As(err, &e) || len(e.Problems) != 100 || e.Dropped != 9_900 {
		t.Fatalf("%d problems, %d dropped: %v", len(e.Problems), e.Dropped, err)
	}
	if !strings.HasSuffix(err.Error(), "\n… and 9,900 more problems") {
		t.Fatalf("no count of the rest: …%s", err.Error()[len(err.Error())-80:])
	}
}

// LoadCanonical tells a canonical file from one that is not, reading each once.
func TestLoadCanonical(t *testing.T) {
	canon, err := Format([]byte(v1Scene), "f")
	if err != nil {
		t.Fatal(err)
	}
	for src, same := range map[string]bool{string(canon): true, v1Scene: false, string(canon) + "\n": false} {
		s, c, err := LoadCanonical(context.Background(), &stream{strings.NewReader(src)}, LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if got, err := c.Same(context.Background(), s); err != nil || got != same {
			t.Errorf("%.40q…: same %v, want %v (%v)", src, got, same, err)
		}
	}
}

// OpenInput: "-" is standard input; folders are refused with a clear message.
func TestOpenInput(t *testing.T) {
	dir := t.TempDir()
	if _, err := OpenInput(dir); err == nil || !strings.Contains(err.Error(), "is a folder") {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "s.json")
	if err := os.WriteFile(path, []byte(v1Scene), 0o644); err != nil {
		t.Fatal(err)
	}
	in, err := OpenInput(path)
	if err != nil || in.Size() != int64(len(v1Scene)) || in.Name != path {
		t.Fatal(in, err)
	}
	if err := in.Close(); err != nil {
		t.Fatal(err)
	}
	in, err = OpenInput("-")
	if err != nil || in.Name != StdinName || in.Size() != 0 {
		t.Fatal(in, err)
	}
}

func mustLoad(t *testing.T, src string) *Scene {
	t.Helper()
	s, err := Load(context.Background(), strings.NewReader(src), LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func content(t *testing.T, s *Scene) string {
	t.Helper()
	var b bytes.Buffer
	if err := Save(context.Background(), &b, s, SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// A version 0 rotation whose conversion to degrees overflows is an error at its position (it was
// silently kept in radians).
func TestV0RotationOverflow(t *testing.T) {
	src := `{"name": "old", "entities": [{"id": 1, "components": {"Transform": {"rotation": [0, 1e37, 0]}}}]}`
	_, err := Load(context.Background(), strings.NewReader(src), LoadOptions{File: "v0.json"})
	want := "v0.json:1:85: entities[0].components.Transform.rotation[1]: version 0 stored rotations in radians: 1e37 radians is 5.729577913387486e+38 degrees, beyond the range of a 32-bit float"
	if err == nil || err.Error() != want {
		t.Fatalf("got %v\nwant %s", err, want)
	}
}

// A world matrix that overflows is a warning at the entity when the scene loads, and export's
// error names the entity (it said only "entity 2").
func TestNonFiniteWorldMatrix(t *testing.T) {
	src := `{"format": "voltex.scene", "version": 2, "entities": [
  {"id": 1, "name": "big", "components": {"Transform": {"scale": [3e38, 1, 1]}}},
  {"id": 2, "name": "bigger", "parent": 1, "components": {"Transform": {"scale": [3e38, 1, 1]}}}
]}`
	s, err := Load(context.Background(), strings.NewReader(src), LoadOptions{File: "m.json", CheckWorldMatrices: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Warnings) != 1 || !strings.HasPrefix(s.Warnings[0].String(), "m.json:3:10: warning: entities[1].id: entity 2: its world matrix is not finite") {
		t.Fatalf("warnings %v", s.Warnings)
	}
	err = Export(context.Background(), io.Discard, s)
	if err == nil || !strings.HasPrefix(err.Error(), `exporting: entity 2 ("bigger"): Transform gives a world matrix that is not finite`) {
		t.Fatalf("export: %v", err)
	}
}

// Peek shows the first bytes without consuming them: the kind and the whole text read after it are
// those of the input, also when Peek read more (or less) than sniffing needs, and a read error it
// met comes back from Read.
func TestInputPeek(t *testing.T) {
	src, err := os.ReadFile("testdata/solar.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{0, 1, 7, 512, len(src) + 10} {
		in := NewInput(&stream{bytes.NewReader(src)}, "stdin")
		got := in.Peek(n)
		if want := src[:min(n, len(src))]; !bytes.Equal(got, want) {
			t.Fatalf("Peek(%d) = %q, want %q", n, got, want)
		}
		if in.Kind() != KindScene || !in.IsScene() {
			t.Errorf("Peek(%d): kind %v", n, in.Kind())
		}
		all, err := io.ReadAll(in)
		if err != nil || !bytes.Equal(all, src) {
			t.Errorf("Peek(%d): read back %d bytes (want %d), %v", n, len(all), len(src), err)
		}
	}
	boom := errors.New("boom")
	in := NewInput(io.MultiReader(strings.NewReader("{\"a\""), &failing{boom}), "stdin")
	if got := in.Peek(100); string(got) != "{\"a\"" {
		t.Errorf("Peek before an error = %q", got)
	}
	if all, err := io.ReadAll(in); string(all) != "{\"a\"" || !errors.Is(err, boom) {
		t.Errorf("read after Peek met an error: %q, %v", all, err)
	}
}

type failing struct{ err error }

func (f *failing) Read([]byte) (int, error) { return 0, f.err }
