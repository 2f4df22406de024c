package inputq

/*
#include <stddef.h>
#include <string.h>
extern void* igMemAlloc(size_t size);
extern void igMemFree(void* ptr);
*/
import "C"

import "unsafe"

// Event is one ImGuiInputEvent as it lies in ImGui's memory.
type Event struct {
	Type   int32  // ImGuiInputEventType
	Source int32  // ImGuiInputSource
	ID     uint32 // EventId: sequential, unique within a context
	data   [12]byte
	byTest bool
	_      [3]byte
}

// The event types the editor looks at (ImGuiInputEventType).
const (
	TypeMousePos    = 1
	TypeMouseButton = 3
	TypeKey         = 5
	TypeText        = 6
)

// EventSize is the size of an ImGuiInputEvent.
const EventSize = int(unsafe.Sizeof(Event{}))

// MouseButton returns the button and its new state of a TypeMouseButton event.
func (e *Event) MouseButton() (button int, down bool) {
	return int(*(*int32)(unsafe.Pointer(&e.data[0]))), e.data[4] != 0
}

// MousePos returns the position of a TypeMousePos event.
func (e *Event) MousePos() (x, y float32) {
	return *(*float32)(unsafe.Pointer(&e.data[0])), *(*float32)(unsafe.Pointer(&e.data[4]))
}

// Key returns the key (ImGuiKey) and its new state of a TypeKey event.
func (e *Event) Key() (key int32, down bool) {
	return *(*int32)(unsafe.Pointer(&e.data[0])), e.data[4] != 0
}

// Char returns the character of a TypeText event.
func (e *Event) Char() rune { return rune(*(*uint32)(unsafe.Pointer(&e.data[0]))) }

// Queue is an ImVector<ImGuiInputEvent>: Size events in a buffer of Capacity from ImGui's allocator (nil when
// Capacity is 0).
type Queue struct {
	Size, Capacity int
	Data           unsafe.Pointer
}

// Events returns the queue's events (ImGui's memory: valid until ImGui changes the queue).
func (q Queue) Events() []Event {
	if q.Size == 0 || q.Data == nil {
		return nil
	}
	return unsafe.Slice((*Event)(q.Data), q.Size)
}

// Split returns the events for which now(i) holds (in q's buffer) and the others (in a new buffer), each in their
// order in q. q must not be used after.
func Split(q Queue, now func(i int) bool) (front, back Queue) {
	ev := q.Events()
	n := 0
	for i := range ev {
		if !now(i) {
			n++
		}
	}
	if n == 0 {
		return q, Queue{}
	}
	data := C.igMemAlloc(C.size_t(n * EventSize))
	rest := unsafe.Slice((*Event)(data), n)
	f, r := 0, 0
	for i := range ev { // front events move down within q's buffer, never over one not yet read
		if now(i) {
			ev[f] = ev[i]
			f++
		} else {
			rest[r] = ev[i]
			r++
		}
	}
	q.Size = f
	return q, Queue{Size: n, Capacity: n, Data: data}
}

// Join returns a queue of front's events followed by back's, in whichever of the two buffers has room (or in a
// new one), and frees the buffers it does not keep. Both queues' buffers must come from ImGui's allocator; neither
// may be used after.
func Join(front, back Queue) Queue {
	n := front.Size + back.Size
	switch {
	case back.Size == 0:
		free(back.Data, front.Data)
		return front
	case front.Size == 0:
		free(front.Data, back.Data)
		return back
	case front.Capacity >= n:
		C.memcpy(at(front.Data, front.Size), back.Data, C.size_t(back.Size*EventSize))
		free(back.Data, nil)
		return Queue{Size: n, Capacity: front.Capacity, Data: front.Data}
	case back.Capacity >= n:
		C.memmove(at(back.Data, front.Size), back.Data, C.size_t(back.Size*EventSize))
		C.memcpy(back.Data, front.Data, C.size_t(front.Size*EventSize))
		free(front.Data, nil)
		return Queue{Size: n, Capacity: back.Capacity, Data: back.Data}
	}
	data := C.igMemAlloc(C.size_t(n * EventSize))
	C.memcpy(data, front.Data, C.size_t(front.Size*EventSize))
	C.memcpy(at(data, front.Size), back.Data, C.size_t(back.Size*EventSize))
	free(front.Data, nil)
	free(back.Data, nil)
	return Queue{Size: n, Capacity: n, Data: data}
}

// at is the address of event i of the buffer at data.
func at(data unsafe.Pointer, i int) unsafe.Pointer { return unsafe.Add(data, i*EventSize) }

// free frees buffer p unless it is nil or kept.
func free(p, kept unsafe.Pointer) {
	if p != nil && p != kept {
		C.igMemFree(p)
	}
}
