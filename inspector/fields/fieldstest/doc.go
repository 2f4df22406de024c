// Package fieldstest provides component types that carry every kind of inspector field, for tests,
// benchmarks and screenshots of the inspector.
package fieldstest
