package live

import (
	"bufio"
	"bytes"
	"fmt"
	"net"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/ecs"
)

// bigWorld is a game of n moving entities: every Update moves them all (and propagates their
// transforms), so every frame changes every entity.
func bigWorld(n int) *ecs.World {
	w := newWorld()
	m := ecs.NewMap2[ecs.Transform, Mover](w)
	for i := range n {
		m.Spawn(ecs.Transform{Position: mgl32.Vec3{float32(i % 300), 0, float32(i / 300)}, Scale: mgl32.Vec3{1, 1, 1}},
			Mover{Velocity: mgl32.Vec3{0.01, 0, 0}, Speed: 1})
	}
	w.AddSystem(moveSystem(w))
	w.Update()
	return w
}

// BenchmarkLiveServe100k is a game's frame at 100k entities that all move every frame: the same
// loop without the link and with it, one client watching (a client that reads and acknowledges
// every delta in another goroutine and decodes nothing, as another process would). The loops run
// on one locked OS thread and are timed by that thread's CPU time (what the game's loop spends,
// however loaded the machine is): ns/frame-without, ns/frame-with and their ratio; wall-ratio is
// the same by the wall clock, and entities/frame what the client received.
func BenchmarkLiveServe100k(b *testing.B) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	const n = 100_000
	plain := bigWorld(n)
	linked := bigWorld(n)
	srv, err := Serve(linked, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = srv.Close() }() // a benchmark's server: nothing of it is kept
	got := make(chan int64, 1)
	first := make(chan struct{})
	stop := watchRaw(b, srv, got, first)
	// The client has the whole world (the first delta, sent without a budget): what follows is
	// watching, every frame's moves.
	srv.opts.FrameShare = 1
	for waiting := true; waiting; {
		select {
		case <-first:
			waiting = false
		default:
			if srv.Frame() {
				linked.Update()
			}
		}
	}
	srv.opts.FrameShare = Options{}.share()
	b.ResetTimer()
	// Blocks of frames of each loop in turn, so that the machine's load weighs on both alike; the
	// link's clock restarts with each of its blocks, as if the other loop's frames were not there.
	const block = 10
	var without, with, wallWithout, wallWith time.Duration
	for done := 0; done < b.N; done += block {
		k := min(block, b.N-done)
		cpu, wall := threadCPU(), time.Now()
		for range k {
			plain.Update()
		}
		without += threadCPU() - cpu
		wallWithout += time.Since(wall)
		srv.loop.last = time.Time{}
		cpu, wall = threadCPU(), time.Now()
		for range k {
			if srv.Frame() {
				linked.Update()
			}
		}
		with += threadCPU() - cpu
		wallWith += time.Since(wall)
	}
	b.StopTimer()
	close(stop)
	ents := <-got
	perFrame := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / float64(b.N) }
	b.ReportMetric(perFrame(without), "ns/frame-without")
	b.ReportMetric(perFrame(with), "ns/frame-with")
	b.ReportMetric(float64(with)/float64(without), "ratio")
	b.ReportMetric(float64(wallWith)/float64(wallWithout), "wall-ratio")
	b.ReportMetric(float64(ents)/float64(b.N), "entities/frame")
	b.ReportMetric(0, "ns/op")
}

// watchRaw connects to srv, watches, acknowledges every delta and counts the entities received
// after the first delta (sent on got when stop closes; first closes when the first delta ends).
func watchRaw(b *testing.B, srv *Server, got chan<- int64, first chan struct{}) chan struct{} {
	nc, err := net.Dial("tcp", srv.Addr())
	if err != nil {
		b.Fatal(err)
	}
	fmt.Fprintf(nc, `{"op":"hello","token":%q}`+"\n"+`{"op":"watch"}`+"\n", srv.Token())
	stop := make(chan struct{})
	var count int64
	done := make(chan struct{})
	go func() {
		defer close(done)
		br := bufio.NewReaderSize(nc, 1<<20)
		var line []byte
		for {
			chunk, err := br.ReadSlice('\n')
			line = append(line, chunk...)
			if err == bufio.ErrBufferFull {
				continue
			}
			if err != nil {
				return
			}
			if first == nil {
				count += int64(bytes.Count(line, []byte(`{"e":`)))
			}
			if bytes.HasSuffix(line, []byte(`"end":true}`+"\n")) {
				if first != nil {
					close(first)
					first = nil
				}
				rest, _ := bytes.CutPrefix(line, []byte(`{"op":"delta","seq":`))
				i := bytes.IndexByte(rest, ',')
				seq, _ := strconv.ParseUint(string(rest[:max(i, 0)]), 10, 64)
				fmt.Fprintf(nc, `{"op":"ack","seq":%d}`+"\n", seq)
			}
			line = line[:0]
		}
	}()
	go func() {
		<-stop
		_ = nc.Close() // ends the reader, which is all that is wanted
		<-done
		got <- count
	}()
	return stop
}
