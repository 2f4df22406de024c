// Package words writes counts in English: "1 entity", "2 entities". The editor and the command-line tools use it
// for every count they show. Pure Go; may import: the standard library.
package words
