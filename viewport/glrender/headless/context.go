package headless

import (
	"errors"
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
)

// Context is a headless OpenGL context bound to its own OS thread.
type Context struct {
	calls     chan call
	mu        sync.Mutex // serialises Close against Do
	closed    bool
	e         egl
	startErr  error
	startDone chan struct{}
	stopped   chan struct{} // closed when the thread has destroyed the context
}

type call struct {
	f    func()
	done chan outcome
}

// outcome of a call: a panic value, or goexit when f called runtime.Goexit
// (t.Fatal and friends).
type outcome struct {
	panicked any
	goexit   bool
}

// GL version the context is created with.
const (
	Major = 4
	Minor = 1
)

// New creates a headless OpenGL 4.1 core context on a new locked OS thread.
// It fails with a descriptive error where EGL, the surfaceless platform or
// a 4.1 core context is unavailable.
func New() (*Context, error) {
	c := &Context{calls: make(chan call), startDone: make(chan struct{}), stopped: make(chan struct{})}
	go c.serve(true)
	<-c.startDone
	if c.startErr != nil {
		return nil, c.startErr
	}
	return c, nil
}

// serve runs on a locked OS thread: it creates the context (first) or
// makes it current again (after a Goexit replaced the thread), then runs
// calls until Close.
func (c *Context) serve(first bool) {
	runtime.LockOSThread()
	if first {
		c.startErr = c.e.open(Major, Minor)
		close(c.startDone)
		if c.startErr != nil {
			return
		}
	} else if err := c.e.makeCurrent(true); err != nil {
		panic(fmt.Sprintf("headless: cannot move the GL context to a new thread: %v", err))
	}
	for cl := range c.calls {
		c.run(cl)
	}
	c.e.close()
	close(c.stopped)
}

// run executes one call. If f calls runtime.Goexit the deferred function
// releases the context, starts a replacement thread that takes it over, and
// reports the Goexit to the caller; this goroutine (and its locked thread)
// then ends.
func (c *Context) run(cl call) {
	finished := false
	defer func() {
		if finished {
			return
		}
		if p := recover(); p != nil {
			cl.done <- outcome{panicked: &PanicError{Value: p, Stack: debug.Stack()}}
			return
		}
		_ = c.e.makeCurrent(false)
		go c.serve(false)
		cl.done <- outcome{goexit: true}
	}()
	cl.f()
	finished = true
	cl.done <- outcome{}
}

// ErrClosed is returned by Do on a closed context.
var ErrClosed = errors.New("headless: context is closed")

// PanicError is what Do re-panics with when f panicked on the GL thread:
// the original value and the GL thread's stack at the panic.
type PanicError struct {
	Value any
	Stack []byte
}

// Error returns the panic value and the GL thread's stack.
func (e *PanicError) Error() string {
	return fmt.Sprintf("%v\n\n[panic on the GL thread]\n%s", e.Value, e.Stack)
}

// Do runs f on the context's thread, with the context current, and waits
// for it. A panic in f is re-raised in the caller as a *PanicError (so the
// stack of the GL thread is not lost); if f calls
// runtime.Goexit (t.Fatal inside Do), the caller's goroutine exits the same
// way, and the context stays usable. f must not call Do itself (that would
// deadlock: the thread is busy running f).
func (c *Context) Do(f func()) error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return ErrClosed
	}
	done := make(chan outcome, 1)
	c.calls <- call{f: f, done: done}
	c.mu.Unlock()
	o := <-done
	switch {
	case o.panicked != nil:
		panic(o.panicked)
	case o.goexit:
		runtime.Goexit()
	}
	return nil
}

// Close destroys the context, ends its thread and waits for both. GL
// objects created in it are freed with it. Close is idempotent.
func (c *Context) Close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.closed {
		c.closed = true
		close(c.calls)
		<-c.stopped
	}
}

// glGetString names.
const (
	glRenderer = 0x1F01
	glVersion  = 0x1F02
)

// Info returns the context's GL_VERSION and GL_RENDERER strings, e.g.
// "4.5 (Core Profile) Mesa 22.3.6" and "llvmpipe (LLVM 15.0.6, 256 bits)".
func (c *Context) Info() (version, renderer string, err error) {
	err = c.Do(func() { version, renderer = glString(glVersion), glString(glRenderer) })
	return version, renderer, err
}
