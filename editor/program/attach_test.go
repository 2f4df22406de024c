package program

import (
	"context"
	"os"
	"path/filepath"
	"slices"
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
	srv := serveGame(t, w)
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

// attach --snapshot with --select or --ids writes only the entities the query matches or the ids name, with their
// descendants; a query that matches nothing, an unknown id or a misspelt query is an error, exit 1.
func TestAttachSnapshotOfSomeEntities(t *testing.T) {
	w := scene.NewWorld()
	scout := w.Spawn(scene.Name{Value: "Scout"}, scene.SceneID{ID: 77}, ecs.Transform{}.Default())
	gun := w.Spawn(scene.Name{Value: "Gun"}, scene.SceneID{ID: 78}, ecs.Transform{}.Default())
	if err := w.SetParent(gun, scout); err != nil {
		t.Fatal(err)
	}
	w.Spawn(scene.Name{Value: "Rock"}, scene.SceneID{ID: 80}, ecs.Transform{}.Default())
	w.Spawn(scene.Name{Value: "Tree"}, scene.SceneID{ID: 81}, ecs.Transform{}.Default())
	srv := serveGame(t, w)
	out := filepath.Join(t.TempDir(), "some.json")
	for _, tc := range []struct {
		flag, value string
		want        []string
	}{
		{"--select", `name~"Sc*"`, []string{"Gun", "Scout"}},
		{"--ids", "80, 81", []string{"Rock", "Tree"}},
		{"--ids", "78", []string{"Gun"}},
	} {
		code, stdout, stderr := runCLI("attach", srv.Addr(), "--token", srv.Token(), "--snapshot", out, tc.flag, tc.value)
		if code != 0 {
			t.Fatalf("%s %s: exit %d\n%s%s", tc.flag, tc.value, code, stdout, stderr)
		}
		rs, err := serialize.ReadRawFile(context.Background(), out, serialize.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, re := range rs.Entities {
			got = append(got, re.Name)
		}
		slices.Sort(got)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s %s: the snapshot holds %v, want %v", tc.flag, tc.value, got, tc.want)
		}
	}
	for _, tc := range []struct{ flag, value, want string }{
		{"--select", `name="Nobody"`, "no entity of the game matches"},
		{"--select", `Transfrom.position.x>0`, "Transform"},
		{"--ids", "99", "no entity of id 99"},
		{"--ids", "x", `"x" is not an id`},
	} {
		code, _, stderr := runCLI("attach", srv.Addr(), "--token", srv.Token(), "--snapshot", out, tc.flag, tc.value)
		if code != 1 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%s %s: exit %d: %s", tc.flag, tc.value, code, stderr)
		}
	}
	if code, _, _ := runCLI("attach", srv.Addr(), "--ids", "1"); code != 2 {
		t.Errorf("--ids without --snapshot: exit %d", code)
	}
}

// serveGame serves w's live link on a game loop until the test ends.
func serveGame(t *testing.T, w *ecs.World) *live.Server {
	t.Helper()
	srv, err := live.Serve(w, live.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { // the game's loop
		defer close(done)
		for ctx.Err() == nil {
			srv.Frame()
			time.Sleep(5 * time.Millisecond)
		}
	}()
	t.Cleanup(func() {
		cancel()
		<-done
		_ = srv.Close() // the test is over
	})
	return srv
}
