package program

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"

	"github.com/voltex-editor/voltex/editor"
	"github.com/voltex-editor/voltex/editor/workspace"
	"github.com/voltex-editor/voltex/serialize"
	"github.com/voltex-editor/voltex/serialize/live"
	"github.com/voltex-editor/voltex/serialize/query"
)

// runAttach opens the editor attached to the game at ADDR, or with --snapshot writes the game's world as a scene
// file without a window.
func runAttach(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("attach", "ADDR [--token TOKEN] [--snapshot OUT.json [--select QUERY | --ids ID,...]]",
		"Attach to a running game's live link (the game prints \"live: ADDR token TOKEN\"): the editor shows its world\n"+
			"as it changes and sends edits to it. With --snapshot, write the game's world as a scene file and exit;\n"+
			"with --select or --ids too, only the entities the query matches or the ids name, with their descendants.")
	token := fs.String("token", "", "the token the game printed (default: the "+workspace.LiveTokenEnv+" environment variable)")
	snapshot := fs.String("snapshot", "", "write the game's world to this scene file and exit (no window)")
	sel := fs.String("select", "", "with --snapshot: only the entities this query matches (as voltex-editor query), with their descendants")
	ids := fs.String("ids", "", "with --snapshot: only the entities of these ids (comma-separated, as a snapshot gives them), with their descendants")
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
	if (*sel != "" || *ids != "") && (*snapshot == "" || (*sel != "" && *ids != "")) {
		fmt.Fprintln(stderr, "voltex-editor attach: --select or --ids (not both) goes with --snapshot")
		return 2
	}
	if *snapshot != "" {
		if err := snapshotGame(addr, *token, *snapshot, *sel, *ids); err != nil {
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

// snapshotGame writes the world of the game at addr, as it is when the call is made, to path: every entity, or
// those the query sel matches or the ids list (comma-separated) names, with their descendants.
func snapshotGame(addr, token, path, sel, ids string) error {
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
	name := "Snapshot of the game at " + addr
	if sel == "" && ids == "" {
		return c.SnapshotFile(ctx, path, name)
	}
	all, byID, err := c.SnapshotSceneIDs(name)
	if err != nil {
		return err
	}
	var roots []uint64
	if ids != "" {
		roots, err = handlesOfIDs(ids, byID)
	} else {
		roots, err = handlesOfQuery(ctx, sel, all, byID)
	}
	if err != nil {
		return err
	}
	rs, err := c.SnapshotSceneOf(name, roots)
	if err != nil {
		return err
	}
	return serialize.WriteRawFile(ctx, path, rs)
}

// handlesOfIDs returns the game's entities of the comma-separated ids (byID: a snapshot's ids).
func handlesOfIDs(ids string, byID map[uint64]uint64) ([]uint64, error) {
	var out []uint64
	for s := range strings.SplitSeq(ids, ",") {
		id, err := strconv.ParseUint(strings.TrimSpace(s), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("--ids: %q is not an id", s)
		}
		h, ok := byID[id]
		if !ok {
			return nil, fmt.Errorf("--ids: the game has no entity of id %d", id)
		}
		out = append(out, h)
	}
	return out, nil
}

// handlesOfQuery returns the game's entities the query src matches, run over all (the game's world as a scene,
// loaded with the game's components; byID: its ids).
func handlesOfQuery(ctx context.Context, src string, all *serialize.RawScene, byID map[uint64]uint64) ([]uint64, error) {
	var b bytes.Buffer
	if err := serialize.WriteRaw(ctx, &b, all); err != nil {
		return nil, err
	}
	s, err := serialize.Load(ctx, &b, serialize.LoadOptions{NewWorld: theGame.newWorld()})
	if err != nil {
		return nil, err
	}
	q, err := query.Parse(s.World, src)
	if err != nil {
		return nil, fmt.Errorf("--select: %w", err)
	}
	sids := ecs.NewMap[scene.SceneID](s.World)
	var out []uint64
	for _, e := range q.Eval(s.World).Entities() {
		if h, ok := byID[sids.Get(e).ID]; ok {
			out = append(out, h)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("--select: no entity of the game matches %s", src)
	}
	return out, nil
}
