# Thin wrappers over cargo and wedge. `make run` starts the human console; `make test` runs
# every test of every crate of the workspace (the same command CI runs).

CARGO ?= cargo

.PHONY: build run install test test-long bench perft match strength fuzz fuzz-smoke lint fmt ci clean

build:
	$(CARGO) build --release

run: build
	./target/release/wedge

# The engine for GUIs: the executable in $(PREFIX)/bin, the weights and book in
# $(PREFIX)/share/wedge, where it finds them (see README.md, "Using Wedge from a GUI").
PREFIX ?= $(HOME)/.local
install: build
	./target/release/wedge install --prefix $(PREFIX)

test:
	$(CARGO) test --workspace

# Long tests (perft 10-12 in both conventions and other ignored-by-default checks).
test-long:
	$(CARGO) test --workspace -- --ignored

bench: build
	./target/release/wedge bench
	$(CARGO) bench --workspace

perft: build
	./target/release/wedge perft 13 --only

# Smoke test of `wedge match`: Wedge at depth MATCH_DEPTH+2 against itself at MATCH_DEPTH over
# NBoard, MATCH_GAMES games from the shipped balanced openings; games go to target/match.ggf.
MATCH_DEPTH ?= 2
MATCH_GAMES ?= 20
match: build
	./target/release/wedge match \
		--engine "./target/release/wedge --hash 16 --threads 1 nboard" \
		--engine "./target/release/wedge --hash 16 --threads 1 nboard" \
		--depth $$(( $(MATCH_DEPTH) + 2 )) --depth $(MATCH_DEPTH) \
		--games $(MATCH_GAMES) --concurrency 2 \
		--openings books/openings-8ply.txt --out target/match.ggf

# Wedge against the reference opponents that ../shared/opponents/build.sh built (not part of
# `make test`); GAMES, DEPTHS and CLOCKS as in scripts/strength.sh.
strength: build
	bash scripts/strength.sh

# Coverage-guided fuzzing with AFL++ (needs `cargo install cargo-afl`): every target in
# fuzz/ for FUZZ_SECS seconds, one after the other; findings under fuzz/target/afl/.
FUZZ_SECS ?= 60
fuzz:
	FUZZ_SECS=$(FUZZ_SECS) bash fuzz/run.sh

# The fuzz targets on the stable toolchain without AFL++: each over its seed corpus and
# WEDGE_FUZZ_ITERS (default 20000) deterministic mutations of it. Run by CI after `make test`.
fuzz-smoke:
	$(CARGO) test --manifest-path fuzz/Cargo.toml

lint:
	$(CARGO) fmt --all --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings

fmt:
	$(CARGO) fmt --all

ci:
	bash .ci/run

clean:
	$(CARGO) clean
