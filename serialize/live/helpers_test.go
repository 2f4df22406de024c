package live

import (
	"context"
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
)

// Mover is a game component with an entity reference and a list.
type Mover struct {
	Velocity mgl32.Vec3   `json:"velocity"`
	Target   ecs.Entity   `json:"target"`
	Path     []mgl32.Vec3 `json:"path"`
	Speed    float32      `json:"speed" voltex:"min=0,max=100"`
}

// Frozen is a tag.
type Frozen struct{}

func newWorld() *ecs.World {
	w := scene.NewWorld()
	ecs.Register[Mover](w)
	ecs.Register[Frozen](w)
	return w
}

// moveSystem moves every Mover by its velocity each update.
func moveSystem(w *ecs.World) ecs.System {
	q := ecs.NewQuery2[ecs.Transform, Mover](w, ecs.Read[Mover]())
	return ecs.System{Name: "move", Access: q.Access(), Run: func(*ecs.World, *ecs.Commands) {
		q.Each(func(_ ecs.Entity, t *ecs.Transform, m *Mover) { t.Position = t.Position.Add(m.Velocity) })
	}}
}

// game runs a world's loop on its own goroutine as a game does: Frame, then Update when Frame
// says so. Tests reach the world only through run, between frames.
type game struct {
	w    *ecs.World
	srv  *Server
	do   chan func()
	stop chan struct{}
	done chan struct{}
}

func startGame(t testing.TB, w *ecs.World, opts Options) *game {
	t.Helper()
	srv, err := Serve(w, opts)
	if err != nil {
		t.Fatal(err)
	}
	g := &game{w: w, srv: srv, do: make(chan func()), stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(g.done)
		for {
			select {
			case <-g.stop:
				return
			case f := <-g.do:
				f()
			default:
			}
			if srv.Frame() {
				ecs.SetResource(w, scene.Time{Delta: 0.1})
				w.Update()
			}
			time.Sleep(200 * time.Microsecond)
		}
	}()
	t.Cleanup(func() {
		close(g.stop)
		<-g.done
		if err := srv.Close(); err != nil {
			t.Error(err)
		}
	})
	return g
}

// run calls f on the game's loop and waits for it.
func (g *game) run(f func(w *ecs.World)) {
	ch := make(chan struct{})
	g.do <- func() { f(g.w); close(ch) }
	<-ch
}

func dial(t testing.TB, g *game) *Client {
	t.Helper()
	c, err := Dial(ctx(t), g.srv.Addr(), g.srv.Token())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() }) // a client the game dropped is closed already
	return c
}

// ctx gives a test's calls a generous deadline.
func ctx(t testing.TB) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return c
}

func must[T any](t testing.TB) func(T, error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

// watchGame starts the game's loop and a client watching it.
func watchGame(t testing.TB, w *ecs.World, opts Options) (*game, *Client, context.Context) {
	t.Helper()
	g := startGame(t, w, opts)
	c := dial(t, g)
	x := ctx(t)
	if err := c.Watch(x); err != nil {
		t.Fatal(err)
	}
	return g, c, x
}
