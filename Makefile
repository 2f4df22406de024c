# Voltex Editor — build, run and test. `make run` opens the editor; `make test` runs every test.
# Both install the Debian packages they need first (scripts/install-deps.sh; apt-get, with sudo when not root).

export PATH := /usr/local/go/bin:$(PATH)
GO      ?= go
BIN     := bin/voltex-editor
SCENE   ?= scenes/cubes.json
PREFIX  ?= $(HOME)/.local

.PHONY: all deps build install run test lint screenshot docs-shots fuzz bench bench-ui compare clean

all: build

deps:
	@./scripts/install-deps.sh

build: deps
	$(GO) build -o $(BIN) ./cmd/voltex-editor

## install: build and copy the program to $(PREFIX)/bin/voltex-editor (default ~/.local/bin, which Debian's ~/.profile
## puts on PATH; PREFIX=/usr/local, with sudo, for every user), so that `voltex-editor …` works in any folder
install: build
	install -D -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/voltex-editor
	@case ":$$PATH:" in *":$(PREFIX)/bin:"*) ;; *) echo "note: $(PREFIX)/bin is not on your PATH yet (log in again, or add it)";; esac

## run: open the editor on the default scene (SCENE=path to open another)
run: build
	./$(BIN) $(SCENE)

## test: gofmt, go vet, every unit/GL/GUI test (own Xvfb when DISPLAY is unset), race detector on the pure
## packages, the inspector and the editor, golangci-lint; every step runs, then the skipped tests and each step's
## result. STRESS=1 keeps every core busy meanwhile.
test: deps
	@./scripts/test.sh

## lint: golangci-lint alone with .golangci.yml (staticcheck, govet, errcheck, gocritic, gocyclo, revive, …; pinned in
## scripts/lint.sh, which installs it into a cache folder on first use, never into go.mod)
lint:
	@./scripts/lint.sh

## screenshot: launch the editor under a private Xvfb and write docs/screenshot.png
screenshot: build
	@./scripts/screenshot.sh $(BIN) $(SCENE) docs/screenshot.png

## docs-shots: regenerate the screenshots in docs/ (editor, inspector, workflows) and the render PNGs
docs-shots: screenshot
	VOLTEX_DOCS_SHOTS=$(CURDIR)/docs $(GO) test -count=1 -run 'Workflow|EveryKind|EditsProjectComponents|GridOfPrefab|KeepHandMove|KeepDuplicateReparent|AttachToRunningGame|RecoverAfterKill|PaletteRunsSave|FourViews|PrefabModeEditsThePrefabAlone|VertexSnapOntoACorner|SurfaceSnap|GridSnapToggle' ./cmd/voltex-editor/e2e/
	./$(BIN) render scenes/cubes.json -o docs/render-cubes.png
	./$(BIN) render scenes/solar.json --frame --pitch -35 -o docs/render-solar.png

## fuzz: run every fuzz target for FUZZTIME each (default 3m, as the hostile-input review ran them; make test runs the seeds)
fuzz: deps
	@./scripts/fuzz.sh $(or $(FUZZTIME),3m)

## bench: every benchmark at every size (slow); BENCH=regex to choose
bench: deps
	$(GO) test -run '^$$' -bench '$(or $(BENCH),.)' -benchmem -timeout 60m ./...
	VOLTEX_RSS=1 $(GO) test -count=1 -timeout 90m -run 'TestPeakRSS1M|TestPeakRSSWorstCases' -v ./serialize/
	VOLTEX_RSS=1 $(GO) test -count=1 -timeout 90m -run 'TestPeakRSSDiffMerge|TestPeakRSSGitDrivers1M' -v ./editor/program/
	VOLTEX_CRASH_RUNS=200 $(GO) test -count=1 -timeout 60m -run 'TestJournalCrash' -v ./editor/doc/
	VOLTEX_CRASH_RUNS=200 $(GO) test -count=1 -timeout 120m -run 'TestEditorCrash' -v ./cmd/voltex-editor/e2e/

## bench-ui: what a user waits for in the real editor (key or launch → first frame presented with the result), at
## 100,000 and 1,000,000 cubes; writes the "UI latency" table of docs/performance.md. UI_RUNS=1 runs each size once
## instead of 3 times (a run took 3 minutes at 100k and 4 at 1M on 2 cores, longer when they are busy). Only BenchmarkUI
## writes the table; BenchmarkUISelectAll (Select All alone, repeated) runs with `make bench`.
UI_RUNS ?= 3
bench-ui: deps
	VOLTEX_PERF_DOC=$(CURDIR)/docs/performance.md $(GO) test -run '^$$' -bench '^BenchmarkUI$$' -benchtime $(UI_RUNS)x -timeout 180m ./cmd/voltex-editor/e2e/

## compare: the ECS against Ark, Arche and donburi (../shared/bench/ecs-peers)
compare:
	../shared/bench/ecs-peers/compare.sh . '(1000|100000)$$'


clean:
	rm -rf bin
