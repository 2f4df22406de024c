package editor

import (
	"strings"
	"testing"

	"github.com/voltex-editor/voltex/ecs"
)

// TestHistoryPanelGoesToAClickedStep: View → History lists Start and the three steps made, the last one current;
// a click on the first step undoes the other two in one go (greyed then), a click on the last redoes them.
func TestHistoryPanelGoesToAClickedStep(t *testing.T) {
	f := newAppFixture(t, Options{ScenePath: "testdata/solar.json"})
	d := f.a.ws.Doc()
	sun, ok := d.Entity(1)
	if !ok {
		t.Fatal("no entity 1")
	}
	for _, name := range []string{"One", "Two", "Three"} {
		if err := d.Rename([]ecs.Entity{sun}, name); err != nil {
			t.Fatal(err)
		}
	}
	f.frames(2)
	if f.a.panels.open[panelHistory] || len(f.st.History) != 0 {
		t.Fatalf("the History panel is open at the start: %+v", f.st.History)
	}
	f.menu(t, "View", panelHistory)
	f.frames(2)
	rows := func() string {
		var b strings.Builder
		for _, r := range f.st.History {
			b.WriteString(r.Text)
			if r.Current {
				b.WriteString(" <")
			}
			if r.Redo {
				b.WriteString(" (redo)")
			}
			b.WriteString("; ")
		}
		return b.String()
	}
	if got, want := rows(), "Start; Rename One; Rename Two; Rename Three <; "; got != want {
		t.Fatalf("rows %q, want %q", got, want)
	}
	if !strings.HasPrefix(f.st.HistoryMemory, "History: ") || !strings.HasSuffix(f.st.HistoryMemory, " of 384.0 MB") {
		t.Fatalf("memory line %q", f.st.HistoryMemory)
	}
	f.click(t, "step 1", f.st.History[1].Rect)
	f.frames(2)
	if n := d.History().Undos(); n != 1 || d.Name(sun) != "One" {
		t.Fatalf("after a click on step 1: %d steps done, the name %q", n, d.Name(sun))
	}
	if got, want := rows(), "Start; Rename One <; Rename Two (redo); Rename Three (redo); "; got != want {
		t.Fatalf("rows %q, want %q", got, want)
	}
	f.click(t, "step 3", f.st.History[3].Rect)
	f.frames(2)
	if n := d.History().Undos(); n != 3 || d.Name(sun) != "Three" {
		t.Fatalf("after a click on step 3: %d steps done, the name %q", n, d.Name(sun))
	}
}
