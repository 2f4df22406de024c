// Package radix sorts unsigned 64-bit keys, each carrying a value, by a least-significant-digit radix sort:
// stable, linear in the number of keys, for the big sorts of the editor (a load's records by id and by sibling
// order, a flat scene's roots, a selection's ids), where a comparison sort of a million keys costs several times as
// much. The caller maps its keys to uint64 in the order it wants (see [Sort]) and keeps its own fallback for short
// inputs. Pure Go; may import: the standard library.
package radix
