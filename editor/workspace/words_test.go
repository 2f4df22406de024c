package workspace

import (
	"fmt"
	"io/fs"
	"os"
	"testing"

	"github.com/voltex-editor/voltex/serialize"
)

// Counts agree with their numbers, and a delete mentions children only when there were some.
func TestDeletedText(t *testing.T) {
	for _, c := range []struct {
		n, removed int
		want       string
	}{
		{1, 1, "deleted 1 entity"},
		{3, 3, "deleted 3 entities"},
		{1, 4, "deleted 1 entity and 3 children"},
		{2, 3, "deleted 2 entities and 1 child"},
	} {
		if got := deletedText(c.n, c.removed); got != c.want {
			t.Errorf("deletedText(%d, %d) = %q, want %q", c.n, c.removed, got, c.want)
		}
	}
}

// The error dialog names the file once, in its first line; the problems below it do not repeat it.
func TestProblemAndErrTextDoNotRepeatThePath(t *testing.T) {
	const path = "/tmp/x/scene.json"
	p := serialize.Problem{File: path, Line: 3, Col: 5, Path: "entities[0].name", Msg: "expected a string"}
	if got, want := problemText(path, p), "line 3, column 5: entities[0].name: expected a string"; got != want {
		t.Errorf("problemText = %q, want %q", got, want)
	}
	p = serialize.Problem{File: "other.obj", Line: 2, Col: 1, Msg: "bad face", Warning: true}
	if got, want := problemText(path, p), "other.obj: line 2, column 1: warning: bad face"; got != want {
		t.Errorf("problemText = %q, want %q", got, want)
	}
	err := fmt.Errorf("opening: %w", &fs.PathError{Op: "open", Path: path, Err: os.ErrPermission})
	if got := errText(path, err); got != "permission denied" {
		t.Errorf("errText = %q, want permission denied", got)
	}
	if got := errText(path, fmt.Errorf("%s: disk full", path)); got != "disk full" {
		t.Errorf("errText = %q, want disk full", got)
	}
	if got := errText(path, fmt.Errorf("writing %s: disk full", path)); got != "writing /tmp/x/scene.json: disk full" {
		t.Errorf("errText of another error = %q", got)
	}
}

// A dialog lists at most maxListedProblems problems, then says how many more the console has.
func TestProblemLines(t *testing.T) {
	var probs []serialize.Problem
	for i := range 10 {
		probs = append(probs, serialize.Problem{Line: i + 1, Msg: "bad"})
	}
	line := func(p serialize.Problem) string { return fmt.Sprint(p.Line) }
	if got, want := problemLines(probs[:2], line), "1\n2\n"; got != want {
		t.Errorf("two problems: %q, want %q", got, want)
	}
	if got, want := problemLines(probs, line), "1\n2\n3\n4\n5\n6\n7\n8\n… and 2 more (see the Console)\n"; got != want {
		t.Errorf("ten problems: %q, want %q", got, want)
	}
}
