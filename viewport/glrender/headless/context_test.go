package headless

import (
	"strings"
	"sync"
	"testing"
)

func TestContext(t *testing.T) {
	c, err := New()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	version, renderer, err := c.Info()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("GL_VERSION %q, GL_RENDERER %q", version, renderer)
	if !strings.Contains(version, "Core Profile") {
		t.Errorf("GL_VERSION %q: want a core profile context", version)
	}
	var major, minor int
	if _, err := fmtSscanf(version, &major, &minor); err != nil || major*10+minor < Major*10+Minor {
		t.Errorf("GL_VERSION %q: want at least %d.%d", version, Major, Minor)
	}
	if ProcAddress("glDrawElementsInstanced") == nil {
		t.Error("no address for glDrawElementsInstanced")
	}
}

func TestDoFromManyGoroutinesRunsOnOneThread(t *testing.T) {
	c, err := New()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var mu sync.Mutex
	tids := map[int]bool{}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 10 {
				_ = c.Do(func() {
					mu.Lock()
					tids[gettid()] = true
					mu.Unlock()
					if glString(glVersion) == "" {
						t.Error("context not current inside Do")
					}
				})
			}
		})
	}
	wg.Wait()
	if len(tids) != 1 {
		t.Errorf("Do ran on %d threads, want 1", len(tids))
	}
}

func TestDoPanicAndGoexit(t *testing.T) {
	c, err := New()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	func() {
		defer func() {
			pe, ok := recover().(*PanicError)
			if !ok || pe.Value != "boom" || !strings.Contains(string(pe.Stack), "TestDoPanicAndGoexit") {
				t.Errorf("recovered %v, want a *PanicError with boom and the stack", pe)
			}
		}()
		_ = c.Do(func() { panic("boom") })
	}()
	// A goroutine whose Do body calls Goexit ends; the context survives on a
	// new thread.
	exited := make(chan bool)
	go func() {
		ok := false
		defer func() { exited <- ok }()
		_ = c.Do(func() { runtimeGoexit() })
		ok = true // not reached
	}()
	if <-exited {
		t.Error("caller continued after Goexit inside Do")
	}
	if v, _, err := c.Info(); err != nil || v == "" {
		t.Errorf("context unusable after Goexit: %q %v", v, err)
	}
	c.Close()
	c.Close()
	if err := c.Do(func() {}); err != ErrClosed {
		t.Errorf("Do after Close: %v", err)
	}
}
