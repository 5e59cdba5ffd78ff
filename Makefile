# Thin wrappers over cargo and wedge. `make run` starts the human console; `make test` runs
# every test (the same command CI runs).

CARGO ?= cargo

.PHONY: build run test test-long bench perft lint fmt ci clean

build:
	$(CARGO) build --release

run: build
	./target/release/wedge

test:
	$(CARGO) test

# Long tests (perft 10-12 in both conventions and other ignored-by-default checks).
test-long:
	$(CARGO) test -- --ignored

bench: build
	./target/release/wedge bench
	$(CARGO) bench

perft: build
	./target/release/wedge perft 13 --only

lint:
	$(CARGO) fmt --check
	$(CARGO) clippy --all-targets -- -D warnings

fmt:
	$(CARGO) fmt

ci:
	bash .ci/run

clean:
	$(CARGO) clean
