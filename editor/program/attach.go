package program

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/voltex-editor/voltex/editor"
	"github.com/voltex-editor/voltex/editor/workspace"
	"github.com/voltex-editor/voltex/serialize/live"
)

// runAttach opens the editor attached to the game at ADDR, or with --snapshot writes the game's world as a scene
// file without a window.
func runAttach(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("attach", "ADDR [--token TOKEN] [--snapshot OUT.json]",
		"Attach to a running game's live link (the game prints \"live: ADDR token TOKEN\"): the editor shows its world\n"+
			"as it changes and sends edits to it. With --snapshot, write the game's world as a scene file and exit.")
	token := fs.String("token", "", "the token the game printed (default: the "+workspace.LiveTokenEnv+" environment variable)")
	snapshot := fs.String("snapshot", "", "write the game's world to this scene file and exit (no window)")
	size := fs.String("size", "1600x1000", "initial window size, WIDTHxHEIGHT")
	settings := fs.String("settings", "", "settings folder (recent files); default: the user's config folder")
	var testOpts func(*editor.Options)
	if testFlags != nil {
		testOpts = testFlags(fs)
	}
	if code, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return code
	}
	if fs.NArg() != 1 {
		fmt.Fprintf(stderr, "voltex-editor attach: want one address, got %d arguments\n", fs.NArg())
		fs.SetOutput(stderr)
		fs.Usage()
		return 2
	}
	addr := fs.Arg(0)
	if *token == "" {
		*token = os.Getenv(workspace.LiveTokenEnv)
	}
	if *snapshot != "" {
		if err := snapshotGame(addr, *token, *snapshot); err != nil {
			fmt.Fprintf(stderr, "voltex-editor attach: %v\n", err)
			return 1
		}
		fmt.Fprintf(stdout, "wrote %s\n", *snapshot)
		return 0
	}
	w, h, err := parseSize(*size, 16384)
	if err != nil {
		fmt.Fprintf(stderr, "voltex-editor attach: --size: %v\n", err)
		return 2
	}
	opts := editor.Options{Width: w, Height: h, SettingsDir: *settings, NewWorld: theGame.newWorld(), Systems: theGame.Systems,
		AttachAddr: addr, AttachToken: *token}
	if testOpts != nil {
		testOpts(&opts)
	}
	return launch(opts, stderr)
}

// snapshotGame writes the world of the game at addr, as it is when the call is made, to path.
func snapshotGame(addr, token, path string) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := live.Dial(ctx, addr, token)
	if err != nil {
		return err
	}
	defer func() { _ = c.Close() }() // the snapshot is written or its error returned
	if err := c.Watch(ctx); err != nil {
		return err
	}
	if _, err := c.Sync(ctx); err != nil {
		return err
	}
	return c.SnapshotFile(ctx, path, "Snapshot of the game at "+addr)
}
