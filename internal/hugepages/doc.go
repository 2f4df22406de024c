// Package hugepages asks the operating system to back the Go heap's next growth with huge pages (2 MiB on
// x86-64), before a load that fills hundreds of megabytes. A first touch of fresh memory costs a page fault for
// every 4 KiB page; under virtualisation that fault, not the work, is most of the time of a big load (see
// docs/performance.md, "The machine"). Linux gives transparent huge pages only on request (madvise) on most
// distributions, and the Go runtime makes none for its heap, so [Reserve] grows the heap by the room asked for,
// advises it, and gives it back to the heap, where the allocations that follow take it. Elsewhere, or where the
// kernel refuses, Reserve does nothing. May import: the standard library.
package hugepages
