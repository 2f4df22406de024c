package serialize

// GCPercent is the garbage-collector target (runtime/debug.SetGCPercent) that keeps the peak memory of loading
// and saving a big scene close to the size of its world: with Go's default of 100 the heap may grow to twice what
// is live before a collection, and a world that doubles its tables as a million entities stream in leaves a lot
// of short-lived garbage. At 25 the load and save of 1,000,000 entities stay under 680 MB (TestPeakRSS1M) for a
// few percent more CPU. This package never changes the setting itself (it is process-wide): a program decides,
// as cmd/voltex-editor's main does.
const GCPercent = 25
