// Package diag holds the problem reports shared by the scene loader
// (package serialize) and the export loader (package serialize/game): a
// [Problem] is one finding at a file position with a JSON path, a [List]
// collects them up to a limit, and [Error] is the error a failed load returns.
package diag
