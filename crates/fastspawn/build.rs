//! Tells the library whether it is built with AddressSanitizer
//! (`RUSTFLAGS=-Zsanitizer=address`, nightly): then the code that runs in
//! the vfork child is kept out of the instrumentation (`cfg(fastspawn_asan)`,
//! see `src/sys/child.rs`).

fn main() {
    println!("cargo::rustc-check-cfg=cfg(fastspawn_asan)");
    let sanitizers = std::env::var("CARGO_CFG_SANITIZE").unwrap_or_default();
    if sanitizers.split(',').any(|s| s == "address") {
        println!("cargo::rustc-cfg=fastspawn_asan");
    }
}
