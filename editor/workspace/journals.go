package workspace

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/voltex-editor/voltex/editor/doc"
	"github.com/voltex-editor/voltex/internal/words"
)

// pendingJournal is a journal in the state folder with unsaved work of a scene file that exists.
type pendingJournal struct {
	journal, scene string
	changes        int
}

// Offer asks, at the start, about the unsaved work the state folder's journals hold for scenes other
// than opened (the scene named on the command line, "" for none, whose own journal is asked about as it opens):
// Recover opens that scene, which then offers its recovery; Discard deletes the journal; Later keeps it for the
// next start. One scene at a time, each question listing them all.
func (js *Journals) Offer(opened string) {
	js.ask(pendingJournals(opened, js.w.docOpts))
}

// pendingJournals lists, by scene path, the journals of the state folder, but opened's, that hold unsaved work of a scene file
// that still exists (replaying each: what Recover will show).
func pendingJournals(opened string, opts doc.Options) []pendingJournal {
	dir, err := doc.JournalDir()
	if err != nil {
		return nil
	}
	paths, _ := filepath.Glob(filepath.Join(dir, "*.journal"))
	skip := ""
	if opened != "" {
		skip, _ = doc.JournalPath(opened)
	}
	var list []pendingJournal
	for _, p := range paths {
		if p == skip {
			continue
		}
		scene, err := doc.JournalScene(p)
		if err != nil {
			continue // not readable: its scene, opened, says so
		}
		if st, err := os.Stat(scene); err != nil || !st.Mode().IsRegular() {
			continue // the scene is gone: nothing to open it on
		}
		if jp, err := doc.JournalPath(scene); err != nil || jp != p {
			continue // not the journal that opening the scene finds
		}
		rc, err := doc.Recover(context.Background(), p, opts)
		if err != nil || !rc.Unsaved {
			continue
		}
		list = append(list, pendingJournal{journal: p, scene: scene, changes: len(rc.Changes)})
	}
	slices.SortFunc(list, func(x, y pendingJournal) int { return strings.Compare(x.scene, y.scene) })
	return list
}

// ask asks about list[0], then (unless it is recovered) about the rest.
func (js *Journals) ask(list []pendingJournal) {
	if len(list) == 0 {
		return
	}
	j, rest := list[0], list[1:]
	var msg strings.Builder
	if len(list) == 1 {
		msg.WriteString("An editor session ended without saving its work (a crash, a kill):\n\n")
	} else {
		msg.WriteString("Editor sessions ended without saving their work (a crash, a kill):\n\n")
	}
	for _, p := range list {
		fmt.Fprintf(&msg, "  %s  (%s)\n", p.scene, words.Count(p.changes, "change", "changes"))
	}
	fmt.Fprintf(&msg, "\n%s: Recover opens it and shows what can be recovered; Later asks again at the next start.",
		filepath.Base(j.scene))
	js.w.ui.Ask("Unsaved work of other scenes", msg.String(), 2, func(i int) {
		switch i {
		case 0:
			js.w.OpenRecent(j.scene) // the rest: at the next start
		case 1:
			if err := os.Remove(j.journal); err != nil {
				js.w.log.Errorf("discarding the unsaved work of %s: %v", j.scene, err)
			} else {
				js.w.log.Infof("discarded the unsaved work of %s", j.scene)
			}
			js.ask(rest)
		default:
			js.ask(rest)
		}
	}, "Recover", "Discard", "Later")
}
