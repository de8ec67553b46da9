use fastspawn::{Command, Engine};
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let n: usize = a[2].parse().unwrap();
    for engine in [Engine::Auto, Engine::CloneVfork, Engine::PosixSpawn, Engine::Fork] {
        let mut c = Command::new(&a[1]); c.engine(engine);
        let t = std::time::Instant::now();
        for _ in 0..n { c.status().unwrap(); }
        println!("{engine} {:.1} us/spawn", t.elapsed().as_secs_f64()*1e6/n as f64);
    }
    let t = std::time::Instant::now();
    for _ in 0..n { std::process::Command::new(&a[1]).status().unwrap(); }
    println!("std {:.1} us/spawn", t.elapsed().as_secs_f64()*1e6/n as f64);
}
