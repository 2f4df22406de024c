// Package jsonpos is a strict (RFC 8259) JSON parser that remembers where every
// value came from.
//
// It exists for the scene loader (package serialize) and the game-side export
// loader (package serialize/game), both of which must report problems as
// line:col positions with a JSON path, refuse hostile files without exhausting
// memory, and be faster than encoding/json.
//
// Two ways in:
//
//   - [Parse] turns a whole document held in memory into a [Value] tree.
//   - [Decoder] reads an io.Reader in chunks and lets the caller walk the
//     outer structure itself ([Decoder.EnterObject], [Decoder.NextMember],
//     [Decoder.EnterArray], [Decoder.NextItem]) while parsing the inner values
//     into trees ([Decoder.Value]). Trees live in arenas that the caller
//     recycles with [Decoder.ResetArena], so a stream of a million small
//     values allocates almost nothing after warm-up.
//
// Positions are 1-based; lines end at '\n'; columns count bytes (like Go's
// own tools), so a tab or a multi-byte UTF-8 character advances the column by
// its byte length. A UTF-8 byte order mark at the very start of the input is
// skipped (RFC 8259 §8.1 allows this) but still counts towards columns.
//
// Strictness: everything RFC 8259 rejects is rejected, and in addition (both
// are implementation-defined by the RFC): invalid UTF-8 and \u escapes that
// are lone UTF-16 surrogates are rejected, because neither can be stored in a
// Go string without loss. Numbers are checked against the JSON grammar only;
// range checks belong to whoever converts them (see [Value.Float]).
// Duplicate object keys are kept in order; it is the caller's business to
// reject them.
package jsonpos
