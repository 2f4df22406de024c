package watch_test

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/voltex-editor/voltex/assets/watch"
)

// The editor's side: watch the scene file, save it without hearing about it, and hear about
// a change made by another program.
func Example() {
	dir, _ := os.MkdirTemp("", "watch-example")
	defer func() { check(os.RemoveAll(dir)) }()
	scene := filepath.Join(dir, "level.json")
	check(os.WriteFile(scene, []byte(`{"v":1}`), 0o644))

	w, err := watch.New(watch.Options{Quiet: 50 * time.Millisecond /*, Wake: giu.Update */})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer func() { check(w.Close()) }()
	check(w.Add(scene))

	// The editor saves: declare the content, then write it atomically.
	saved := []byte(`{"v":2}`)
	w.ExpectOwnWrite(scene, saved)
	check(os.WriteFile(scene+".tmp", saved, 0o644))
	check(os.Rename(scene+".tmp", scene))

	// Another program edits the file.
	time.Sleep(200 * time.Millisecond)
	check(os.WriteFile(scene, []byte(`{"v":3}`), 0o644))

	// The GUI loop polls once per frame; here we wait for the wake-up instead.
	select {
	case <-w.Ready():
	case <-time.After(10 * time.Second):
	}
	time.Sleep(200 * time.Millisecond)
	for _, ev := range w.Poll() {
		fmt.Println(ev.Kind, filepath.Base(ev.Path))
	}
	// Output:
	// changed level.json
}

// check stops an example whose own setup (writing its input files) failed.
func check(err error) {
	if err != nil {
		panic(err)
	}
}
