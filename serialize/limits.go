package serialize

import (
	"github.com/voltex-editor/voltex/serialize/internal/diag"
	"github.com/voltex-editor/voltex/serialize/internal/jsonpos"
)

// Limits protect the loader against hostile or broken files. A file over a
// limit is refused with a message naming the limit, before (size) or while
// (everything else) it is read, so it never exhausts memory. A zero field
// means "use the default"; a negative field means "no limit".
type Limits struct {
	MaxFileSize int64 // bytes; default 1 GiB
	MaxEntities int   // entities in one file, those its prefab instances make included; default 4,000,000
	MaxDepth    int   // nesting of JSON arrays and objects; default 64
	MaxString   int   // bytes in one string or number literal; default 1 MiB
	MaxProblems int   // problems listed (the rest are counted); default 100
	// MaxEntityValues bounds the JSON values (numbers, strings, …) in one
	// entity, and in each top-level member; default 250,000. Each is held in
	// memory while its entity is read (about 100 bytes apiece).
	MaxEntityValues int
	// MaxEntityBytes bounds the bytes of strings, keys and numbers in one
	// entity, and in each top-level member; default 16 MiB. They are held in
	// memory (a few times over) while the entity is read.
	MaxEntityBytes int
	// MaxBuffered bounds the text of the entities kept in memory when a
	// stream (a pipe, standard input) lists them before its "version" and
	// they cannot be read again; default 64 MiB. Files on disk are read a
	// second time instead.
	MaxBuffered int64
	// MaxWorldBytes bounds an estimate of the memory the loaded world takes
	// — component values (with their fixed size: a declared component with
	// a big array costs its size even when the file says "{}", and what
	// its default's lists hold, copied into each value), strings,
	// slices, the JSON of unknown components kept verbatim, entity
	// references, and about 200 bytes of bookkeeping per entity; default 1
	// GiB (a cube with a name, Transform, Mesh, Color and Spin takes about
	// 350 bytes: about 3,000,000 cubes). With the other limits it bounds the
	// peak memory of a load: see docs/limits.md.
	MaxWorldBytes int64
}

// Default limits; see [Limits].
const (
	DefaultMaxFileSize    = 1 << 30
	DefaultMaxEntities    = 4_000_000
	DefaultMaxDepth       = 64
	DefaultMaxString      = 1 << 20
	DefaultMaxProblems    = 100
	DefaultMaxValues      = 250_000
	DefaultMaxBuffered    = 64 << 20
	DefaultMaxEntityBytes = 16 << 20
	DefaultMaxWorldBytes  = 1 << 30
)

// DefaultLimits returns the limits used when none are given.
func DefaultLimits() Limits {
	return Limits{MaxFileSize: DefaultMaxFileSize, MaxEntities: DefaultMaxEntities, MaxDepth: DefaultMaxDepth,
		MaxString: DefaultMaxString, MaxProblems: DefaultMaxProblems, MaxEntityValues: DefaultMaxValues,
		MaxBuffered: DefaultMaxBuffered, MaxEntityBytes: DefaultMaxEntityBytes, MaxWorldBytes: DefaultMaxWorldBytes}
}

// resolved fills zero fields with defaults and turns negative ones into 0
// ("unlimited" in the internal representation).
func (l Limits) resolved() Limits {
	d := DefaultLimits()
	pick := diag.Limit
	return Limits{
		MaxFileSize:     pick(l.MaxFileSize, d.MaxFileSize),
		MaxEntities:     int(pick(int64(l.MaxEntities), int64(d.MaxEntities))),
		MaxDepth:        int(pick(int64(l.MaxDepth), int64(d.MaxDepth))),
		MaxString:       int(pick(int64(l.MaxString), int64(d.MaxString))),
		MaxProblems:     int(pick(int64(l.MaxProblems), int64(d.MaxProblems))),
		MaxEntityValues: int(pick(int64(l.MaxEntityValues), int64(d.MaxEntityValues))),
		MaxBuffered:     pick(l.MaxBuffered, d.MaxBuffered),
		MaxEntityBytes:  int(pick(int64(l.MaxEntityBytes), int64(d.MaxEntityBytes))),
		MaxWorldBytes:   pick(l.MaxWorldBytes, d.MaxWorldBytes),
	}
}

func (l Limits) json() jsonpos.Limits {
	return jsonpos.Limits{MaxBytes: l.MaxFileSize, MaxDepth: l.MaxDepth, MaxString: l.MaxString, MaxValues: l.MaxEntityValues,
		MaxArenaBytes: l.MaxEntityBytes, Unit: "entity"}
}
