# fastspawn: the two commands that matter are `make bench` and `make test`.
CARGO ?= cargo
PEERS := $(CURDIR)/target/peers

.PHONY: all test bench lint unit peers peers-check bench-smoke http-tools node-addon node-test python-test clean

all: test

## test: everything CI runs: lint, unit and behaviour tests of every engine,
## the peers' smoke test, a quick run of the whole benchmark, the npm package
## and the PyPI package
test: lint unit peers-check bench-smoke node-test python-test

lint:
	$(CARGO) fmt --all --check
	$(CARGO) clippy --workspace --all-targets --all-features --locked -- -D warnings

unit:
	$(CARGO) test --workspace --all-features --locked

## node-test: the npm package (bindings/node): npm ci, the addon (release),
## eslint, node --test, and the smoke test under Bun and Deno
node-test:
	$(MAKE) -C bindings/node check CARGO=$(CARGO)
	cd bench && ../bindings/node/node_modules/.bin/eslint -c eslint.config.mjs .

## python-test: the PyPI package (bindings/python): a venv with maturin, pytest,
## ruff and uvloop from PyPI, pip install of the package, ruff, pytest, and
## CPython's own test_subprocess and test_asyncio.test_subprocess against it
python-test:
	$(MAKE) -C bindings/python check

## peers: build every benchmark peer (C, Rust, Go, Python, Node) into target/peers,
## and the HTTP servers (Go, Rust; Deno and Bun from npm) into target/peers/http
peers:
	$(MAKE) -C bench/peers OUT=$(PEERS)
	$(MAKE) -C bench/http OUT=$(PEERS)/http

## http-tools: the HTTP benchmark's load generator (hey, a Debian package)
http-tools:
	$(MAKE) -C bench/http tools

## node-addon: bindings/node's addon, loaded by the node-fastspawn runner and HTTP server
node-addon:
	$(MAKE) -C bindings/node build CARGO=$(CARGO)

peers-check:
	bash bench/peers/check.sh

bench-smoke: peers node-addon
	$(CARGO) run --release --locked -p fastspawn-cli -- bench --quick --out target/bench-smoke

## bench: the full benchmark report into bench/results/<date>-<kernel>/
bench: peers http-tools node-addon
	$(CARGO) run --release --locked -p fastspawn-cli -- bench

clean:
	$(CARGO) clean
