# fastspawn: the two commands that matter are `make bench` and `make test`.
CARGO ?= cargo
PEERS := $(CURDIR)/target/peers

.PHONY: all test test-tools bench bench-venv lint unit asan peers peers-check bench-smoke http-tools node-addon node-test python-test prereqs prereqs-bench dist install-test clean

all: test

## test: everything CI runs: lint, unit and behaviour tests of every engine,
## the same under AddressSanitizer, the peers' smoke test, a quick run of the whole benchmark, the npm package,
## the PyPI package and the install test of what `make dist` makes
test: prereqs test-tools lint unit asan peers-check bench-smoke node-test python-test install-test

## prereqs: name every missing tool (Rust with clippy/rustfmt, Go, gcc, Node >= 18,
## Python >= 3.9, make) before anything is built
prereqs:
	scripts/prereqs.sh test

## test-tools: strace (a Debian package), with which `fastspawn doctor` observes how
## each runtime spawns; without it those tests skip and say why
test-tools:
	@command -v strace >/dev/null 2>&1 || apt-get install -y strace >/dev/null 2>&1 || \
		{ apt-get update >/dev/null 2>&1 && apt-get install -y strace >/dev/null 2>&1; } || \
		echo "test-tools: strace could not be installed: fastspawn doctor's tests will skip the runtime checks"

prereqs-bench:
	scripts/prereqs.sh bench

## dist: what users install, into dist/: the crate (.crate), the npm package and its
## prebuilt addon package (.tgz, release and stripped), the Python wheel (manylinux, checked
## with auditwheel) and sdist
dist:
	CARGO=$(CARGO) scripts/dist.sh

## install-test: each artefact of dist installed outside the repository runs `echo hi`
install-test: dist
	CARGO=$(CARGO) scripts/install-test.sh

lint:
	$(CARGO) fmt --all --check
	$(CARGO) clippy --workspace --all-targets --all-features --locked -- -D warnings
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc -p fastspawn --no-deps --all-features --locked

unit:
	$(CARGO) test --workspace --all-features --locked

## asan: the integration tests of the library built with AddressSanitizer
## (nightly): a user's ASan build must be able to spawn (the vfork child is
## kept out of the instrumentation). The probe child is the normal build.
ASAN_TARGET ?= $(shell rustc -vV | sed -n 's/^host: //p')
asan:
	rustup run nightly rustc -V >/dev/null 2>&1 || rustup toolchain install nightly --profile minimal
	$(CARGO) build --locked -p fastspawn-probe
	RUSTFLAGS="-Zsanitizer=address" ASAN_OPTIONS=detect_leaks=0 \
	FASTSPAWN_PROBE=$(CURDIR)/target/debug/fastspawn-probe \
	$(CARGO) +nightly test --locked -p fastspawn --all-features --test integration \
		--target $(ASAN_TARGET) --target-dir target/asan

## node-test: the npm package (bindings/node): npm ci, the addon (release),
## eslint, node --test, the smoke test under Bun and Deno, and the smoke test and
## node --test under Node 18, 22, 24 and 26 from npm (target/nodes/, installed once)
node-test:
	$(MAKE) -C bindings/node check CARGO=$(CARGO)
	cd bench && ../bindings/node/node_modules/.bin/eslint -c eslint.config.mjs .

## python-test: the PyPI package (bindings/python): a venv with maturin, pytest,
## ruff and uvloop from PyPI, pip install of the package, ruff, pytest, and
## CPython's own test_subprocess and test_asyncio.test_subprocess against it
python-test:
	$(MAKE) -C bindings/python check

## peers: build every benchmark peer (C, Rust, Go, Python, Node) into target/peers
## (the Python peer runs in the benchmark's venv, which has the fastspawn package),
## and the HTTP servers (Go, Rust; Deno and Bun from npm) into target/peers/http
peers: bench-venv
	$(MAKE) -C bench/peers OUT=$(PEERS) PYTHON=$(BENCH_VENV)/bin/python
	$(MAKE) -C bench/http OUT=$(PEERS)/http

## http-tools: the HTTP benchmark's load generator (hey, a Debian package)
http-tools:
	$(MAKE) -C bench/http tools

## node-addon: bindings/node's addon, loaded by the node-fastspawn runner and HTTP server
node-addon:
	$(MAKE) -C bindings/node build CARGO=$(CARGO)

## bench-venv: the benchmark's own Python venv (target/bench-venv): dask[distributed]
## for the `distributed` experiment, and the fastspawn wheel (bindings/python)
BENCH_VENV := $(CURDIR)/target/bench-venv
bench-venv:
	test -x $(BENCH_VENV)/bin/python || python3 -m venv $(BENCH_VENV)
	$(BENCH_VENV)/bin/pip install -q --disable-pip-version-check 'dask[distributed]==2026.8.0' maturin==1.16.0
	PATH="$(BENCH_VENV)/bin:$$PATH" $(BENCH_VENV)/bin/pip install -q --disable-pip-version-check \
		--no-build-isolation --no-deps --force-reinstall ./bindings/python

peers-check:
	bash bench/peers/check.sh

bench-smoke: peers node-addon bench-venv
	$(CARGO) run --release --locked -p fastspawn-cli -- bench --quick --out target/bench-smoke

## bench: the full benchmark report into bench/results/<date>-<kernel>/
bench: prereqs-bench peers http-tools node-addon bench-venv
	$(CARGO) run --release --locked -p fastspawn-cli -- bench

clean:
	$(CARGO) clean
	rm -rf dist
