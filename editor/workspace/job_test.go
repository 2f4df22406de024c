package workspace

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/voltex-editor/voltex/editor/probe"
)

// runJob starts a job whose work returns err once release is closed, and returns what finish receives.
func runJob(t *testing.T, a *Jobs, o JobOptions, err error) (release chan struct{}, finished *[]error) {
	t.Helper()
	release = make(chan struct{})
	var got []error
	if !a.Start("test", func(ctx context.Context, progress func(done, total int64)) error {
		progress(1, 2)
		<-release
		return err
	}, func(err error) { got = append(got, err) }, o) {
		t.Fatal("startJob refused")
	}
	return release, &got
}

// pollUntil polls the job as the loop does, frame by frame, until cond holds.
func pollUntil(t *testing.T, a *Jobs, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		a.clock.Frames++
		a.poll()
		time.Sleep(time.Millisecond)
	}
}

// TestJobResultWaitsAndLateCancel: a finished job whose result cannot be merged yet (wait says why) keeps it; a
// Cancel pressed meanwhile cancels a job that applies its result, but not one whose work is already done for good
// (a save that has written its file).
func TestJobResultWaitsAndLateCancel(t *testing.T) {
	for _, applies := range []bool{true, false} {
		a := newJobs(&testLog{}, &Clock{}, 0, nil)
		playing := true
		release, got := runJob(t, a, JobOptions{Applies: applies, Wait: func() string {
			if playing {
				return "waiting for Stop"
			}
			return ""
		}}, nil)
		if a.Start("second", nil, nil, JobOptions{}) {
			t.Fatal("a second job started while one runs")
		}
		close(release)
		pollUntil(t, a, "the work to end", func() bool { return a.job.finished })
		for range 5 {
			a.clock.Frames++
			a.poll()
		}
		if len(*got) != 0 || a.job == nil || a.job.waiting != "waiting for Stop" {
			t.Fatalf("applies %v: the result was merged while waiting (finish %v)", applies, *got)
		}
		a.cancel()
		playing = false
		a.poll()
		want := error(nil)
		if applies {
			want = context.Canceled
		}
		if a.job != nil || len(*got) != 1 || !errors.Is((*got)[0], want) {
			t.Fatalf("applies %v: after a late Cancel finish got %v, want [%v]", applies, *got, want)
		}
	}
}

// TestJobCancelMidwayAndMark: Cancel reaches the work through its context; the mark of the action records the
// result and is presented only once a later frame begins.
func TestJobCancelMidwayAndMark(t *testing.T) {
	a := newJobs(&testLog{}, &Clock{}, 0, nil)
	a.clock.Start = time.Now()
	m := a.beginMark("spawn grid")
	var got []error
	a.Start("cancel me", func(ctx context.Context, progress func(done, total int64)) error {
		progress(3, 10)
		<-ctx.Done()
		return ctx.Err()
	}, func(err error) { got = append(got, err) }, JobOptions{Applies: true, Mark: m})
	pollUntil(t, a, "progress", func() bool { return a.job.done.Load() == 3 })
	if f := a.job.Fraction(); f < 0.29 || f > 0.31 || a.job.StatusText() != "cancel me 30 %" {
		t.Fatalf("fraction %v, status %q", f, a.job.StatusText())
	}
	a.cancel()
	pollUntil(t, a, "the job to end", func() bool { return a.job == nil })
	if len(got) != 1 || !errors.Is(got[0], context.Canceled) {
		t.Fatalf("finish got %v", got)
	}
	if !m.Cancelled || m.Result == 0 || m.Presented != 0 || len(a.marks) != 1 {
		t.Fatalf("mark after the result frame: %+v", m.Mark)
	}
	a.clock.Frames++
	a.clock.Start = time.Now()
	a.presentMarks()
	if m.Presented == 0 || len(a.marks) != 0 || m.Frames == 0 {
		t.Fatalf("mark after the next frame began: %+v (%d pending)", m.Mark, len(a.marks))
	}
}

// TestBeginTimesAResultFramesLater: an action begun in one frame (a search on a goroutine) is timed from that
// frame's start to the frame presented after the one that has its result; without a probe nothing is timed.
func TestBeginTimesAResultFramesLater(t *testing.T) {
	a := newJobs(&testLog{}, &Clock{}, 0, nil)
	a.Begin("search")()
	if len(a.marks) != 0 {
		t.Fatalf("timed without a probe: %d marks", len(a.marks))
	}
	a.Probe = &probe.State{}
	a.clock.Start = time.Now()
	done := a.Begin("search")
	for range 3 { // frames while the search runs
		a.clock.Frames++
		a.clock.Start = time.Now()
		a.presentMarks()
	}
	if len(a.Probe.Marks) != 0 {
		t.Fatalf("a mark before its result: %+v", a.Probe.Marks)
	}
	done()
	a.clock.Frames++
	a.clock.Start = time.Now()
	a.presentMarks()
	if len(a.Probe.Marks) != 1 || a.Probe.Marks[0].What != "search" || a.Probe.Marks[0].Frames != 3 || a.Probe.Marks[0].Presented == 0 {
		t.Fatalf("marks %+v, want the search's, 3 frames after its input, presented", a.Probe.Marks)
	}
}
