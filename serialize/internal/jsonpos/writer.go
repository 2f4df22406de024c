package jsonpos

import (
	"math"
	"strconv"
	"unicode/utf8"
)

// AppendFloat appends the shortest decimal that parses back to f at the
// given precision (32 or 64 bits): strconv's 'g' format with precision -1,
// so 1000000 is "1e+06" and 0.1 is "0.1". Integers below a million take a
// fast path with the same output. f must be finite.
func AppendFloat(buf []byte, f float64, bits int) []byte {
	if f == math.Trunc(f) && f > -1e6 && f < 1e6 && (f != 0 || !math.Signbit(f)) {
		return strconv.AppendInt(buf, int64(f), 10)
	}
	return strconv.AppendFloat(buf, f, 'g', -1, bits)
}

const hexDigits = "0123456789abcdef"

// AppendString appends s as a JSON string literal in canonical form: '"',
// '\\' and control characters escaped (\n, \r, \t, \b, \f by name, others
// as \u00XX), everything else — including non-ASCII UTF-8 — as is. s must be
// valid UTF-8 (invalid bytes are written as U+FFFD).
func AppendString[S ~string | ~[]byte](buf []byte, s S) []byte {
	buf = append(buf, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < 0x80 {
			i++
			continue
		}
		if c >= 0x80 {
			r, size := utf8.DecodeRuneInString(string(s[i:min(i+utf8.UTFMax, len(s))]))
			if r == utf8.RuneError && size == 1 {
				buf = append(buf, s[start:i]...)
				buf = append(buf, "\uFFFD"...)
				i++
				start = i
				continue
			}
			i += size
			continue
		}
		buf = append(buf, s[start:i]...)
		switch c {
		case '"', '\\':
			buf = append(buf, '\\', c)
		case '\n':
			buf = append(buf, '\\', 'n')
		case '\r':
			buf = append(buf, '\\', 'r')
		case '\t':
			buf = append(buf, '\\', 't')
		case '\b':
			buf = append(buf, '\\', 'b')
		case '\f':
			buf = append(buf, '\\', 'f')
		default:
			buf = append(buf, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
		}
		i++
		start = i
	}
	buf = append(buf, s[start:]...)
	return append(buf, '"')
}

// AppendInline appends v on one line in canonical spacing:
// `{ "a": 1, "b": [1, 2] }`, `[]`, `{}`. Number literals are written as they
// were read; strings are re-escaped canonically.
func AppendInline(buf []byte, v *Value) []byte {
	switch v.kind {
	case Null:
		return append(buf, "null"...)
	case Bool:
		if v.boolean {
			return append(buf, "true"...)
		}
		return append(buf, "false"...)
	case Number:
		return append(buf, v.text...)
	case String:
		return AppendString(buf, v.text)
	case Array:
		if len(v.kids) == 0 {
			return append(buf, "[]"...)
		}
		buf = append(buf, '[')
		for i := range v.kids {
			if i > 0 {
				buf = append(buf, ", "...)
			}
			buf = AppendInline(buf, &v.kids[i])
		}
		return append(buf, ']')
	case Object:
		if len(v.kids) == 0 {
			return append(buf, "{}"...)
		}
		buf = append(buf, "{ "...)
		for i := range v.kids {
			if i > 0 {
				buf = append(buf, ", "...)
			}
			buf = AppendString(buf, v.kids[i].key)
			buf = append(buf, ": "...)
			buf = AppendInline(buf, &v.kids[i])
		}
		return append(buf, " }"...)
	}
	panic("jsonpos.AppendInline: invalid Value (kind " + v.kind.String() + "); build values with the New* functions")
}
