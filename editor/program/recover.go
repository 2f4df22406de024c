package program

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/voltex-editor/voltex/editor/doc"
	"github.com/voltex-editor/voltex/internal/words"
	"github.com/voltex-editor/voltex/serialize/merge"
)

// runRecover is `voltex-editor recover`: what the session journal of a scene holds that its file
// lacks, and (--apply -o OUT) the recovered scene written out.
func runRecover(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("recover", "[--journal FILE] [--apply -o OUT] SCENE.json",
		"Shows the work a crashed or killed editor session left in its journal and the scene file lacks, as the\n"+
			"changes from the file to the recovered scene (like 'voltex-editor diff'). The journal is in the user's state\n"+
			"folder ($XDG_STATE_HOME/voltex/journal, or ~/.local/state/voltex/journal). If the file changed since the\n"+
			"session began, the session's work is merged into it (values both changed become merge conflicts).\n"+
			"With --apply the recovered scene is written to OUT; neither the scene nor the journal is changed.\n"+
			"Exit 0 if there is nothing to recover, 1 if there is, 2 on trouble.")
	apply := fs.Bool("apply", false, "write the recovered scene to OUT (-o)")
	out := fs.String("o", "", "where --apply writes the recovered scene")
	jflag := fs.String("journal", "", "the journal to read (default: the scene's, in the state folder)")
	if code, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return code
	}
	if fs.NArg() != 1 {
		return usageError(fs, stderr, "voltex-editor recover: need one scene file")
	}
	if *apply != (*out != "") {
		return usageError(fs, stderr, "voltex-editor recover: --apply and -o OUT go together")
	}
	path := fs.Arg(0)
	jpath := *jflag
	if jpath == "" {
		var err error
		if jpath, err = doc.JournalPath(path); err != nil {
			fmt.Fprintf(stderr, "voltex-editor recover: %v\n", err)
			return 2
		}
	}
	if _, err := os.Stat(jpath); os.IsNotExist(err) {
		fmt.Fprintf(stderr, "%s: no session journal (%s): nothing to recover\n", path, jpath)
		return 0
	}
	lo, err := worlds.options(path, stderr)
	if err != nil {
		return 2
	}
	rc, err := doc.Recover(context.Background(), jpath, doc.Options{NewWorld: lo.NewWorld})
	if err != nil {
		fmt.Fprintf(stderr, "voltex-editor recover: %v\n", err)
		return 2
	}
	if rc.Torn {
		fmt.Fprintf(stderr, "%s: the journal's last record was cut short (a crash mid-write): it was dropped\n", jpath)
	}
	if rc.Merged {
		fmt.Fprintf(stderr, "%s changed since the session began: the session's work is merged into it, with %s\n",
			rc.File, words.Count(len(rc.Conflicts), "conflict", "conflicts"))
	}
	if *apply {
		if err := rc.Doc.SaveAs(context.Background(), *out, nil); err != nil {
			fmt.Fprintf(stderr, "voltex-editor recover: %v\n", err)
			return 2
		}
	}
	if !rc.Unsaved {
		fmt.Fprintf(stderr, "%s: the journal holds nothing the file lacks\n", path)
		return 0
	}
	if err := merge.WriteText(stdout, rc.FileRaw, rc.RecoveredRaw, rc.Changes); err != nil {
		fmt.Fprintf(stderr, "voltex-editor recover: %v\n", err)
		return 2
	}
	return 1
}
