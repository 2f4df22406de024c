// Package inputq reads and rearranges Dear ImGui's queue of input events (ImGuiContext::InputEventsQueue) as
// raw memory: the editor holds queued input back for a frame while a field is about to take the keyboard, and
// times the mouse presses in it. cimgui-go exposes the queue as a vector but not the events' contents.
//
// The layout of an event is that of the Dear ImGui that cimgui-go ships (1.91.9); the package's test checks it
// against a live context. The queue's buffers come from ImGui's allocator (igMemAlloc, in cimgui-go's prebuilt
// archive, which every giu binary links). May import: stdlib, cgo.
package inputq
