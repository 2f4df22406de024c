package ecs

// HierarchySteps returns how many links the hierarchy's checks and traversals have followed in
// w so far: tests use it to check that hierarchy operations are linear whatever the shape.
func HierarchySteps(w *World) uint64 { return w.hier.steps }
