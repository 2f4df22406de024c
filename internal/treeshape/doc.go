// Package treeshape makes entity hierarchies of the shapes that hierarchy code must handle in
// linear time — flat, one deep chain, one wide parent, random — for tests and benchmarks of the
// ECS, the scene loader, the document model and the command line.
package treeshape
