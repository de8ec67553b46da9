//! Spawning from tokio with `fastspawn::tokio`: the runtime thread never
//! runs a clone or an exec.
//!
//! `cargo run --example tokio_spawn --features tokio`

use fastspawn::tokio::Command;
use fastspawn::{Stdio, Variant};

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), fastspawn::Error> {
    // One child, its output collected without blocking the runtime.
    let mut echo = Command::new("sh");
    echo.args(["-c", "echo hello from $0"])
        .stdout(Stdio::piped());
    let child = echo.spawn().await?;
    println!(
        "started by {} (pidfd: {})",
        child.engine(),
        child.has_pidfd()
    );
    let out = child.wait_with_output().await?;
    print!("{}", String::from_utf8_lossy(&out.stdout));

    // A batch: the same command with one argument per child, spread over
    // the spawner threads.
    let mut sleep = Command::new("sleep");
    let children = sleep
        .spawn_many((1..=8).map(|i| Variant::new().arg(format!("0.0{i}"))))
        .await;
    for child in children {
        let status = child?.wait().await?;
        assert!(status.success());
    }
    println!("8 children started by spawn_many and waited for");

    // kill_on_drop: dropping the Child kills and reaps it in the background.
    let mut long = Command::new("sleep");
    long.arg("60").kill_on_drop(true);
    let child = long.spawn().await?;
    println!("dropping pid {:?}", child.id());
    drop(child);
    Ok(())
}
