//! fastspawn's integration tests, as one test binary (ripgrep-style): the
//! modules below share `util`, and the child of every test is the
//! `fastspawn-probe` binary (built on demand by `util::probe`).
//!
//! Behaviour tests run once per engine (`engine_tests!`); tests that count
//! fds or zombies, or change process-wide state, hold `util::exclusive()`.

#[macro_use]
mod util;

#[cfg(feature = "tokio")]
mod asynchronous;
mod behaviour;
mod communicate;
mod credentials;
mod engines;
mod errors;
mod exit_ring;
mod faults;
mod fds;
mod pool;
mod process;
mod semantics;
mod std_port;
mod stress;
#[cfg(feature = "tokio")]
mod tokio_port;
mod tree;
