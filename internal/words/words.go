package words

import "strconv"

// Count returns n followed by one (when n is 1) or many: Count(1, "entity", "entities") is "1 entity",
// Count(0, "entity", "entities") is "0 entities".
func Count(n int, one, many string) string {
	if n == 1 || n == -1 {
		return strconv.Itoa(n) + " " + one
	}
	return strconv.Itoa(n) + " " + many
}
