package serialize

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/voltex-editor/voltex/ecs/scene"
)

// loadIn makes loads read every scene in n pieces on workers goroutines (workers 0: never in pieces) until the
// test ends.
func loadIn(t testing.TB, workers, n int) {
	oldMin, oldW, oldN := loadInPiecesMin, loadWorkers, loadPieces
	t.Cleanup(func() { loadInPiecesMin, loadWorkers, loadPieces = oldMin, oldW, oldN })
	loadInPiecesMin, loadWorkers, loadPieces = 0, func() int { return workers }, func(int) int { return n }
	if workers == 0 {
		loadInPiecesMin = math.MaxInt64
	}
}

// loaded is what a load of src gives: the scene saved again, its roots and warnings, or its problems, as text
// (and whether Scene.ByID is the entities in id order).
func loaded(t testing.TB, src []byte, opts LoadOptions) string {
	t.Helper()
	opts.File = "t.json"
	s, err := Load(context.Background(), bytes.NewReader(src), opts)
	if err != nil {
		return "problems:\n" + problemsText(err)
	}
	if (s.ByID != nil) != (s.Roots != nil) {
		return "the load knows its roots but not its entities in id order, or the other way round"
	}
	if s.ByID != nil {
		es, ids := scene.EnsureIDsWith(s.World)
		if !slices.Equal(es, s.ByID) || !slices.Equal(ids, s.ByIDIDs) {
			return "the load's ByID is not the entities in id order"
		}
	}
	var out bytes.Buffer
	if err := Save(context.Background(), &out, s, SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	var w []string
	for _, p := range s.Warnings {
		w = append(w, p.String())
	}
	return fmt.Sprintf("%s\nroots %d, %d entities\nwarnings:\n%s", out.String(), len(s.Roots), s.World.Len(), strings.Join(w, "\n"))
}

// A load in pieces gives what a load in turn gives, for every file validation is tested on (valid and broken
// in every way, with borders anywhere), in any number of pieces on two or three workers; and the files that load
// without a problem or a warning, but those it cannot split (or whose version comes after them), are loaded in
// pieces.
func TestLoadInPiecesAgreesWithLoadInTurn(t *testing.T) {
	for name, tc := range pieceCases(t) {
		loadIn(t, 0, 0)
		want := loaded(t, tc.src, tc.opts)
		for _, workers := range []int{2, 3} {
			for _, n := range []int{2, 3, 7, 40} {
				loadIn(t, workers, n)
				before := loadedInPieces.Load()
				if got := loaded(t, tc.src, tc.opts); got != want {
					t.Errorf("%s in %d pieces on %d workers:\n%s\nin turn:\n%s", name, n, workers, got, want)
				}
				inPieces := loadedInPieces.Load() > before
				clean := !strings.HasPrefix(want, "problems:") && strings.HasSuffix(want, "warnings:\n")
				if split := clean && name != "one line" && name != "empty" && name != "entities first"; inPieces != split {
					t.Errorf("%s in %d pieces on %d workers: loaded in pieces %v, want %v", name, n, workers, inPieces, split)
				}
			}
		}
	}
}

// A load in pieces that the editor starts while its window opens reads on one worker until Alternate is closed:
// never closed, the front reads every piece.
func TestLoadInPiecesWaitsForAlternate(t *testing.T) {
	src := cubeGrid(t, 10, 10, 3, "Group")
	loadIn(t, 0, 0)
	want := loaded(t, src, LoadOptions{})
	loadIn(t, 2, 9)
	never := make(chan struct{})
	before := loadedInPieces.Load()
	if got := loaded(t, src, LoadOptions{Alternate: never}); got != want || loadedInPieces.Load() == before {
		t.Fatalf("with the window never up (in pieces: %v):\n%s\nwant:\n%s", loadedInPieces.Load() > before, got, want)
	}
}

// A cancelled load in pieces stops with the context's error.
func TestLoadInPiecesCancelled(t *testing.T) {
	src := cubeGrid(t, 10, 10, 3, "")
	loadIn(t, 2, 9)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Load(ctx, bytes.NewReader(src), LoadOptions{File: "t.json"}); !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled load: %v", err)
	}
}

// The first piece is the front's even when the front begins after the back workers took every other piece: a
// back worker cannot enter the array.
func TestLoadInPiecesFrontBeginsLate(t *testing.T) {
	src := cubeGrid(t, 10, 10, 3, "")
	loadIn(t, 0, 0)
	want := loaded(t, src, LoadOptions{})
	loadIn(t, 3, 5)
	old := beforeFront
	t.Cleanup(func() { beforeFront = old })
	beforeFront = func(p *loadParts) {
		for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
			p.mu.Lock()
			left := p.nextBack
			p.mu.Unlock()
			if left <= 0 {
				time.Sleep(10 * time.Millisecond) // time for a back worker to take the first piece, if it could
				return
			}
		}
	}
	before := loadedInPieces.Load()
	if got := loaded(t, src, LoadOptions{}); got != want || loadedInPieces.Load() == before {
		t.Fatalf("with the front late (in pieces: %v):\n%s\nwant:\n%s", loadedInPieces.Load() > before, got, want)
	}
}
