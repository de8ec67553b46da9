#![doc = include_str!("../README.md")]
#![deny(unsafe_code)]
#![cfg_attr(fastspawn_asan, feature(sanitize))]
#![warn(missing_docs)]

mod background;
mod child;
mod command;
mod engine;
mod environment;
mod error;
mod exchange;
pub mod exit_ring;
mod fdplan;
mod features;
mod path;
pub mod per_process;
mod pidfd;
mod pool;
mod prepare;
#[cfg(feature = "tokio")]
mod reaper;
pub mod signal;
mod spawn;
mod stdio;
#[allow(unsafe_code)]
mod sys;
#[cfg(feature = "tokio")]
pub mod tokio;
mod tree;

pub use child::{Child, ExitStatus, ExitStatusError, Output};
pub use command::{Command, RLIM_INFINITY, Resource};
pub use engine::Engine;
pub use environment::Environment;
pub use error::{Error, Result, Step};
pub use exchange::{Collected, Communicated, Exchange, RunEnd};
pub use features::{KernelFeatures, features};
pub use pidfd::PidFd;
pub use pool::{Pool, Variant};
pub use stdio::{ChildStderr, ChildStdin, ChildStdout, Stdio};
pub use tree::{CgroupDir, Containment, Usage};

// The repository's README: its Rust examples are compiled as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
struct RepositoryReadme;
