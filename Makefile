# fastspawn: the two commands that matter are `make bench` and `make test`.
CARGO ?= cargo
PEERS := $(CURDIR)/target/peers

.PHONY: all test bench lint unit peers peers-check bench-smoke http-tools clean

all: test

## test: everything CI runs: lint, unit and behaviour tests of every engine,
## the peers' smoke test, and a quick run of the whole benchmark
test: lint unit peers-check bench-smoke

lint:
	$(CARGO) fmt --all --check
	$(CARGO) clippy --workspace --all-targets --all-features --locked -- -D warnings

unit:
	$(CARGO) test --workspace --all-features --locked

## peers: build every benchmark peer (C, Rust, Go, Python, Node) into target/peers,
## and the HTTP servers (Go, Rust; Deno and Bun from npm) into target/peers/http
peers:
	$(MAKE) -C bench/peers OUT=$(PEERS)
	$(MAKE) -C bench/http OUT=$(PEERS)/http

## http-tools: the HTTP benchmark's load generator (hey, a Debian package)
http-tools:
	$(MAKE) -C bench/http tools

peers-check:
	bash bench/peers/check.sh

bench-smoke: peers
	$(CARGO) run --release --locked -p fastspawn-cli -- bench --quick --out target/bench-smoke

## bench: the full benchmark report into bench/results/<date>-<kernel>/
bench: peers http-tools
	$(CARGO) run --release --locked -p fastspawn-cli -- bench

clean:
	$(CARGO) clean
