//! The `fastspawn._fastspawn` extension module: the part of the Python
//! package written in Rust.
//!
//! `spawn` starts one child with every option `subprocess.Popen` knows
//! (plus fastspawn's own) on the vfork path, with the GIL released;
//! [`Child`](child::Child) waits on the child's pidfd; `aio` hands spawns to
//! fastspawn's spawner threads for `fastspawn.asyncio`. The Python modules
//! in `python/fastspawn/` give these the standard library's API.

#![deny(unsafe_code)]

mod aio;
mod child;
mod errors;
mod run;
mod spawn;
#[allow(unsafe_code)]
mod sys;

use pyo3::prelude::*;

#[pymodule]
fn _fastspawn(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<child::Child>()?;
    m.add_class::<aio::Spawner>()?;
    m.add_function(wrap_pyfunction!(spawn::spawn, m)?)?;
    m.add_function(wrap_pyfunction!(spawn::spawn_args, m)?)?;
    m.add_function(wrap_pyfunction!(run::run, m)?)?;
    m.add_function(wrap_pyfunction!(run::run_args, m)?)?;
    m.add_function(wrap_pyfunction!(run::run_std, m)?)?;
    m.add_function(wrap_pyfunction!(run::popen_std, m)?)?;
    m.add_function(wrap_pyfunction!(aio::set_spawn_linger, m)?)?;
    m.add_function(wrap_pyfunction!(aio::unfinished_spawns, m)?)?;
    m.add_function(wrap_pyfunction!(aio::set_pool_spin, m)?)?;
    m.add_function(wrap_pyfunction!(aio::set_spawner_threads, m)?)?;
    m.add_function(wrap_pyfunction!(aio::set_defer_spawn_wake, m)?)?;
    m.add_function(wrap_pyfunction!(aio::set_exit_ring, m)?)?;
    m.add_function(wrap_pyfunction!(aio::set_ring_linked_timeout, m)?)?;
    m.add_function(wrap_pyfunction!(aio::exit_ring_in_use, m)?)?;
    run::make_wake_pipe();
    Ok(())
}
