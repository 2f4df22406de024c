package live

import (
	"encoding/json"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
)

// FuzzRequest feeds a line as a client's request to a game: decoding never panics, a request
// that decodes is applied to a small world on the loop without crashing it, and the deltas that
// follow are prepared and written.
func FuzzRequest(f *testing.F) {
	f.Add([]byte(`{"op":"set","e":2,"c":"Transform","path":"position[0]","value":1}`))
	f.Add([]byte(`{"op":"spawn","parent":1,"components":{"Name":{"value":"x"},"Mover":{"target":2}}}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		if len(line) > 1<<16 {
			return
		}
		req, err := parseRequest(line)
		if err != nil {
			return
		}
		if again, err := json.Marshal(req); err != nil {
			t.Fatalf("an accepted request does not write back: %v", err)
		} else if _, err := parseRequest(again); err != nil && req.Op != "hello" {
			t.Fatalf("%s accepted, written back as %s, refused: %v", line, again, err)
		}
		if req.Op == "hello" {
			return
		}
		w := newWorld()
		a := w.Spawn(scene.Name{Value: "A"}, ecs.Transform{Scale: mgl32.Vec3{1, 1, 1}})
		w.Spawn(scene.Name{Value: "B"}, Mover{Target: a, Path: []mgl32.Vec3{{1, 2, 3}}})
		s := &Server{w: w, opts: Options{FrameShare: 1}}
		s.opts.defaults()
		s.loop.init(s)
		c := &conn{s: s, out: make(chan outMsg, 1024), done: make(chan struct{})}
		s.loop.handle(inbound{c: c, req: request{Op: "join"}})
		wt := s.loop.watchers[c]
		s.loop.handle(inbound{c: c, req: request{Op: "watch"}})
		s.loop.handle(inbound{c: c, req: req})
		s.loop.progress(wt, deadlineNever)
		var en encoder
		for len(c.out) > 0 {
			m := <-c.out
			if m.batch != nil {
				var d delta
				if err := json.Unmarshal(en.batch(m.batch), &d); err != nil {
					t.Fatalf("a delta that is not JSON: %v", err)
				}
			}
		}
		w.Update()
	})
}
