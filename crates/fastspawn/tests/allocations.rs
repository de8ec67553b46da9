//! The spawn path allocates nothing once a command is prepared: a
//! `Command` spawned and waited again and again (the loop of a task runner
//! or a build tool) makes no heap allocation in the parent, whatever the
//! options that are prepared once (environment overrides, a PATH lookup,
//! `/dev/null`, fd maps, credentials-free options on the vfork path).
//!
//! A test binary of its own: its global allocator counts the allocations
//! made on each thread, which would count those of every other test too.
//! The vfork child runs on the parent thread's thread-local storage, so an
//! allocation there (which must never happen) is counted as well.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use fastspawn::{Command, Resource, Stdio};

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

// SAFETY: every call goes to `System` unchanged; the counter is a
// thread-local `Cell` with a const initialiser and no destructor, so
// touching it never allocates and is valid at any point of a thread's life.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|n| n.set(n.get() + 1));
        // SAFETY: the caller's contract for `alloc` is passed on as is.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|n| n.set(n.get() + 1));
        // SAFETY: as for `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.with(|n| n.set(n.get() + 1));
        // SAFETY: as for `alloc`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as for `alloc`.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

fn allocations() -> u64 {
    ALLOCATIONS.with(Cell::get)
}

/// The allocations per spawn+wait of `cmd` on this thread, after a few
/// spawns that let it prepare and cache what it keeps.
fn per_spawn(what: &str, cmd: &mut Command, run: Run) -> f64 {
    for _ in 0..3 {
        run(cmd);
    }
    const N: u64 = 50;
    let before = allocations();
    for _ in 0..N {
        run(cmd);
    }
    let per = (allocations() - before) as f64 / N as f64;
    println!("{what}: {per} allocations per spawn+wait");
    per
}

/// How a case runs its command to the end.
type Run = fn(&mut Command);

fn spawn_wait(cmd: &mut Command) {
    let status = cmd.spawn().expect("spawn").wait().expect("wait");
    assert!(status.success(), "{status}");
}

fn status(cmd: &mut Command) {
    assert!(cmd.status().expect("status").success());
}

fn true_path() -> &'static str {
    ["/bin/true", "/usr/bin/true"]
        .into_iter()
        .find(|p| std::path::Path::new(p).exists())
        .expect("a true binary")
}

#[test]
fn a_prepared_command_spawns_and_waits_without_allocating() {
    let nofile = 1024;
    let cases: Vec<(&str, Command, Run)> = vec![
        (
            "absolute path, spawn + wait",
            Command::new(true_path()),
            spawn_wait,
        ),
        ("absolute path, status()", Command::new(true_path()), status),
        ("bare name found in PATH", Command::new("true"), spawn_wait),
        (
            "env overrides",
            {
                let mut c = Command::new(true_path());
                c.env("FASTSPAWN_TEST", "1").env_remove("HOME");
                c
            },
            spawn_wait,
        ),
        (
            "stdio null, cwd, setsid, rlimit, fd map",
            {
                let mut c = Command::new(true_path());
                c.stdin(Stdio::null())
                    .stdout(Stdio::null())
                    .current_dir("/")
                    .setsid(true)
                    .rlimit(Resource::Nofile, nofile, nofile)
                    .fd(3, std::fs::File::open("/dev/null").expect("open /dev/null"));
                c
            },
            spawn_wait,
        ),
    ];
    let mut allocating = Vec::new();
    for (what, mut cmd, run) in cases {
        let per = per_spawn(what, &mut cmd, run);
        if per != 0.0 {
            allocating.push(format!("{what}: {per}"));
        }
    }
    assert!(
        allocating.is_empty(),
        "allocations per spawn+wait: {allocating:?}"
    );
}

/// The counter counts: a spawn that must allocate (its output is read
/// into a `Vec`) is seen allocating.
#[test]
fn the_counter_sees_an_allocating_spawn() {
    let mut cmd = Command::new(true_path());
    let per = per_spawn("output()", &mut cmd, |c| {
        assert!(c.output().expect("output").status.success());
    });
    assert!(per >= 1.0, "output() counted {per} allocations per spawn");
}
