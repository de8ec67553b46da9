use fastspawn::tokio::Command;
use fastspawn::{Stdio, Variant};
#[tokio::main(flavor = "current_thread")]
async fn main() {
    let mut cmd = Command::new("sh");
    cmd.args(["-c", "echo hello; exit 3"])
        .stdout(Stdio::piped());
    let child = cmd.spawn().await.unwrap();
    println!("pidfd {} engine {}", child.has_pidfd(), child.engine());
    let out = child.wait_with_output().await.unwrap();
    println!("{:?}", out);
    let mut many = Command::new("true");
    let res = many
        .spawn_many((0..10).map(|i| Variant::new().arg(i.to_string())))
        .await;
    let mut n = 0;
    for r in res {
        let mut c = r.unwrap();
        assert!(c.wait().await.unwrap().success());
        n += 1;
    }
    println!("spawned {n}");
    let mut s = Command::new("sleep");
    s.arg("10").kill_on_drop(true);
    let c = s.spawn().await.unwrap();
    let pid = c.id().unwrap();
    drop(c);
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    println!(
        "after drop, /proc/{pid} exists: {}",
        std::path::Path::new(&format!("/proc/{pid}")).exists()
    );
}
