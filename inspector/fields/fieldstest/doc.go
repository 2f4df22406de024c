// Package fieldstest provides component types that carry every kind of inspector field, for tests,
// benchmarks and screenshots of the inspector. It is pure Go: it imports ecs and mgl32 only.
package fieldstest
