package jsonpos

import "strconv"

// Describe describes v for messages: `the string "abc"` (long strings cut to 40 bytes),
// "the number 1.5", "true", "null", "an array", "an object".
func (v *Value) Describe() string {
	switch v.Kind() {
	case String:
		s := v.Str()
		if len(s) > 40 {
			s = s[:37] + "..."
		}
		return "the string " + strconv.Quote(s)
	case Number:
		return "the number " + string(v.Text())
	case Bool:
		return strconv.FormatBool(v.Bool())
	case Null:
		return "null"
	case Array:
		return "an array"
	case Object:
		return "an object"
	}
	return v.Kind().String()
}
