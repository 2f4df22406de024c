package doc

import (
	"os"
	"path/filepath"
	"testing"
)

// TestJournalScene: a journal names its scene file (absolute); a file that is not a journal, or one cut short in
// its base record, is an error that names it.
func TestJournalScene(t *testing.T) {
	d := openSmall(t)
	jpath := filepath.Join(t.TempDir(), "small.journal")
	if _, err := d.StartJournal(jpath, JournalOptions{}); err != nil {
		t.Fatal(err)
	}
	must(t, d.Journal().Flush())
	got, err := JournalScene(jpath)
	if want, _ := filepath.Abs(d.Path()); err != nil || got != want {
		t.Fatalf("JournalScene = %q, %v; want %q", got, err, want)
	}
	data, err := os.ReadFile(jpath)
	must(t, err)
	must(t, d.CloseJournal(true))
	for name, b := range map[string][]byte{"empty": nil, "text": []byte("not a journal at all"), "cut": data[:len(data)/2],
		"huge": {0xff, 0xff, 0xff, 0x7f, 0, 0, 0, 0, 1}} {
		p := filepath.Join(t.TempDir(), name+".journal")
		must(t, os.WriteFile(p, b, 0o644))
		if s, err := JournalScene(p); err == nil || s != "" {
			t.Errorf("%s: %q, %v", name, s, err)
		}
	}
}
