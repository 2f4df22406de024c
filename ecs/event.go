package ecs

import "reflect"

// eventQueue is the type-erased view of an events[T] used by World.Update and Clone.
type eventQueue interface {
	update()
}

// events is the queue of one event type. Events get increasing sequence numbers; a queue keeps the
// events sent during the current and the previous Update, so every reader that reads once per
// Update sees every event exactly once.
type events[T any] struct {
	buf      []T
	base     uint64 // sequence number of buf[0]
	boundary uint64 // first sequence number sent in the current update
}

func (q *events[T]) update() {
	// drop what was sent before the current update began
	if drop := int(q.boundary - q.base); drop > 0 {
		var z T
		for i := range drop {
			q.buf[i] = z
		}
		q.buf = append(q.buf[:0], q.buf[drop:]...)
		q.base = q.boundary
	}
	q.boundary = q.base + uint64(len(q.buf))
}

func (w *World) updateEvents() {
	for _, q := range w.events {
		q.update()
	}
}

func eventsOf[T any](w *World) *events[T] {
	t := reflect.TypeFor[T]()
	if q, ok := w.events[t]; ok {
		return q.(*events[T])
	}
	q := &events[T]{}
	w.events[t] = q
	return q
}

// SendEvent appends ev to the world's queue of events of type T.
func SendEvent[T any](w *World, ev T) {
	q := eventsOf[T](w)
	q.buf = append(q.buf, ev)
}

// EventReader reads events of type T; each reader sees each event once. Events are kept for two
// Updates, so a reader must read at least once per Update not to miss any.
type EventReader[T any] struct {
	q    *events[T]
	next uint64
}

// NewEventReader returns a reader that will see the events still queued and all later ones.
func NewEventReader[T any](w *World) *EventReader[T] {
	q := eventsOf[T](w)
	return &EventReader[T]{q: q, next: q.base}
}

// Read returns the events sent since the previous Read. The slice aliases the queue: read it before
// the next SendEvent or Update and do not modify it.
func (r *EventReader[T]) Read() []T {
	q := r.q
	from := r.next
	if from < q.base {
		from = q.base // missed events were dropped
	}
	out := q.buf[from-q.base:]
	r.next = q.base + uint64(len(q.buf))
	return out
}

// Len returns the number of unread events.
func (r *EventReader[T]) Len() int {
	from := max(r.next, r.q.base)
	return int(r.q.base + uint64(len(r.q.buf)) - from)
}
