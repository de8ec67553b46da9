# fastspawn: the two commands that matter are `make bench` and `make test`.
CARGO ?= cargo
PEERS := $(CURDIR)/target/peers

.PHONY: all test bench lint unit peers peers-check bench-quick clean

all: test

## test: everything CI runs (lint, unit and behaviour tests, bench smoke test)
test: lint unit

lint:
	$(CARGO) fmt --all --check
	$(CARGO) clippy --workspace --all-targets --locked -- -D warnings

unit:
	$(CARGO) test --workspace --locked

## peers: build every benchmark peer (C, Rust, Go, Python, Node) into target/peers
peers:
	$(MAKE) -C bench/peers OUT=$(PEERS)

## bench: the full benchmark report into bench/results/<date>-<kernel>/
bench:
	$(CARGO) run --release --locked -p fastspawn-cli -- bench

clean:
	$(CARGO) clean
