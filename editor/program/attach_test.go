package program

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/editor/workspace"
	"github.com/voltex-editor/voltex/serialize"
	"github.com/voltex-editor/voltex/serialize/live"
)

// attach --snapshot writes a running game's world as a scene file that loads into the same entities and
// values, with the token from the flag or from the environment; a wrong token is an error, exit 1.
func TestAttachSnapshotWritesTheGamesWorld(t *testing.T) {
	w := scene.NewWorld()
	tr := ecs.Transform{}.Default()
	tr.Position = mgl32.Vec3{1, 2, 3}
	w.Spawn(scene.Name{Value: "Scout"}, scene.SceneID{ID: 77}, tr)
	srv, err := live.Serve(w, live.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = srv.Close() }() // the test is over
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { // the game's loop
		for ctx.Err() == nil {
			srv.Frame()
			time.Sleep(5 * time.Millisecond)
		}
	}()
	out := filepath.Join(t.TempDir(), "snap.json")
	code, stdout, stderr := runCLI("attach", srv.Addr(), "--token", srv.Token(), "--snapshot", out)
	if code != 0 || !strings.Contains(stdout, "wrote "+out) {
		t.Fatalf("attach --snapshot: exit %d\n%s%s", code, stdout, stderr)
	}
	s, err := serialize.LoadFile(context.Background(), out, serialize.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var found bool
	s.World.EachEntity(func(e ecs.Entity) bool {
		n, _ := ecs.NewMap[scene.Name](s.World).TryGet(e)
		id, _ := ecs.NewMap[scene.SceneID](s.World).TryGet(e)
		p, _ := ecs.NewMap[ecs.Transform](s.World).TryGet(e)
		found = n.Value == "Scout" && id.ID == 77 && p.Position == tr.Position
		return true
	})
	if !found || s.World.Len() != 1 {
		t.Fatalf("the snapshot does not hold the Scout as the game has it (%d entities)", s.World.Len())
	}

	t.Setenv(workspace.LiveTokenEnv, srv.Token())
	if code, _, stderr := runCLI("attach", "--snapshot", out, srv.Addr()); code != 0 {
		t.Fatalf("attach with the token from %s: exit %d: %s", workspace.LiveTokenEnv, code, stderr)
	}
	t.Setenv(workspace.LiveTokenEnv, "")
	if code, _, stderr := runCLI("attach", srv.Addr(), "--token", "nope", "--snapshot", out); code != 1 || !strings.Contains(stderr, "refused") {
		t.Fatalf("a wrong token: exit %d: %s", code, stderr)
	}
	if code, _, _ := runCLI("attach"); code != 2 {
		t.Fatalf("attach without an address: exit %d", code)
	}
	if code, out, _ := runCLI("attach", "--help"); code != 0 || !strings.Contains(out, workspace.LiveTokenEnv) {
		t.Fatalf("attach --help does not name %s: %s", workspace.LiveTokenEnv, out)
	}
	_ = os.Remove(out)
}
