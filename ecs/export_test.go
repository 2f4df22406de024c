package ecs

// HierarchySteps returns how many links the hierarchy's checks and traversals have followed in
// w so far: tests use it to check that hierarchy operations are linear whatever the shape.
func HierarchySteps(w *World) uint64 { return w.hier.steps }

// SharesMemory reports whether a snapshot of w may still read some of w's memory (w copies it before writing).
func SharesMemory(w *World) bool { return len(w.shares) > 0 && w.sharesLive() }
