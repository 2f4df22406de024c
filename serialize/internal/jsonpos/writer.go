package jsonpos

import (
	"math"
	"strconv"
	"unicode/utf8"
)

// AppendFloat appends the shortest decimal that parses back to f at the
// given precision (32 or 64 bits): strconv's 'g' format with precision -1,
// so 1000000 is "1e+06" and 0.1 is "0.1". Integers below a million take a
// fast path with the same output, and so do 32-bit floats below 8192 whose
// shortest form has at most three decimals (8.25, -0.125: positions of a
// grid). f must be finite.
func AppendFloat(buf []byte, f float64, bits int) []byte {
	if f == math.Trunc(f) && f > -1e6 && f < 1e6 && (f != 0 || !math.Signbit(f)) {
		return strconv.AppendInt(buf, int64(f), 10)
	}
	if bits == 32 {
		if b, ok := appendShortFloat32(buf, float32(f)); ok {
			return b
		}
	}
	return strconv.AppendFloat(buf, f, 'g', -1, bits)
}

var pow10 = [4]float64{1, 10, 100, 1000}

// appendShortFloat32 appends f as strconv's shortest form would and reports true when that form has
// one to three decimals and 0.001 ≤ |f| < 8192; otherwise it appends nothing. There a float32's
// spacing is below 0.001, so at most one number with d decimals parses back to f: the one nearest to
// f·10^d, which is exact in float64 (24 bits of mantissa times 10^d fit in 53), as is its distance
// to f·10^d, compared with half the spacing on its side (ties go to the even mantissa, as parsing
// rounds). The first d that gives one is the shortest form; it has no trailing zero (that would be a
// form with fewer decimals) and, being between 0.001 and 8192, no exponent.
func appendShortFloat32(buf []byte, f float32) ([]byte, bool) {
	a := math.Abs(float64(f))
	if !(a >= 0.001 && a < 8192) || a == math.Trunc(a) { // integers are AppendFloat's other fast path
		return buf, false
	}
	fb := math.Float32bits(f)
	ulp := math.Ldexp(1, int(fb>>23&0xff)-150)
	ulpBelow := ulp
	if fb&(1<<23-1) == 0 { // a power of two: the next float below is half as far
		ulpBelow = ulp / 2
	}
	even := fb&1 == 0
	for d := 1; d <= 3; d++ {
		x := a * pow10[d]
		m := math.Round(x)
		diff := m - x
		half := ulp / 2 * pow10[d]
		if diff < 0 {
			half = ulpBelow / 2 * pow10[d]
		}
		if ad := math.Abs(diff); m > 0 && (ad < half || ad == half && even) {
			if f < 0 {
				buf = append(buf, '-')
			}
			var digits [8]byte
			n := strconv.AppendUint(digits[:0], uint64(m), 10)
			if len(n) <= d { // 0.05: zeros after the point
				buf = append(buf, '0', '.')
				for range d - len(n) {
					buf = append(buf, '0')
				}
				return append(buf, n...), true
			}
			buf = append(buf, n[:len(n)-d]...)
			buf = append(buf, '.')
			return append(buf, n[len(n)-d:]...), true
		}
	}
	return buf, false
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
		return append(buf, v.text()...)
	case String:
		return AppendString(buf, v.text())
	case Array:
		if len(v.kids()) == 0 {
			return append(buf, "[]"...)
		}
		buf = append(buf, '[')
		for i := range v.kids() {
			if i > 0 {
				buf = append(buf, ", "...)
			}
			buf = AppendInline(buf, &v.kids()[i])
		}
		return append(buf, ']')
	case Object:
		if len(v.kids()) == 0 {
			return append(buf, "{}"...)
		}
		buf = append(buf, "{ "...)
		for i := range v.kids() {
			if i > 0 {
				buf = append(buf, ", "...)
			}
			buf = AppendString(buf, v.kids()[i].key())
			buf = append(buf, ": "...)
			buf = AppendInline(buf, &v.kids()[i])
		}
		return append(buf, " }"...)
	}
	panic("jsonpos.AppendInline: invalid Value (kind " + v.kind.String() + "); build values with the New* functions")
}
