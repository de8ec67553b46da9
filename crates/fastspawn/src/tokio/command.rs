//! The async `Command`.

use std::ffi::OsStr;
use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard};

use ::tokio::sync::oneshot;

use super::child::Child;
use crate::child::{ExitStatus, Output};
use crate::command::Purpose;
use crate::error::{Error, Result, Step};
use crate::pool::{Pool, Variant};
use crate::stdio::Stdio;

/// A process to start from async code; see the [module docs](super).
///
/// Every option of [`crate::Command`] has a method of the same name here
/// (std's and tokio's names, and fastspawn's own options);
/// [`as_fastspawn_mut`](Self::as_fastspawn_mut) gives the inner command.
#[derive(Debug)]
pub struct Command {
    inner: Arc<Mutex<crate::Command>>,
    kill_on_drop: bool,
    pool: Option<Arc<Pool>>,
}

impl From<crate::Command> for Command {
    fn from(cmd: crate::Command) -> Command {
        Command {
            inner: Arc::new(Mutex::new(cmd)),
            kill_on_drop: false,
            pool: None,
        }
    }
}

macro_rules! forward {
    ($(#[$doc:meta])* $name:ident($($arg:ident: $ty:ty),*) $(where $($gen:tt)*)?) => {
        $(#[$doc])*
        pub fn $name<$($($gen)*)?>(&mut self, $($arg: $ty),*) -> &mut Command {
            self.as_fastspawn_mut().$name($($arg),*);
            self
        }
    };
}

impl Command {
    /// A command that runs `program` (see [`crate::Command::new`]).
    pub fn new<S: AsRef<OsStr>>(program: S) -> Command {
        Command::from(crate::Command::new(program))
    }

    /// The synchronous command inside, for every fastspawn option (fd
    /// mapping, credentials, rlimits, pdeathsig, cgroup, engine...).
    pub fn as_fastspawn_mut(&mut self) -> MutexGuard<'_, crate::Command> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Adds an argument.
    pub fn arg<S: AsRef<OsStr>>(&mut self, arg: S) -> &mut Command {
        self.as_fastspawn_mut().arg(arg);
        self
    }

    /// Adds arguments.
    pub fn args<I, S>(&mut self, args: I) -> &mut Command
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        self.as_fastspawn_mut().args(args);
        self
    }

    /// Sets an environment variable of the child.
    pub fn env<K: AsRef<OsStr>, V: AsRef<OsStr>>(&mut self, key: K, val: V) -> &mut Command {
        self.as_fastspawn_mut().env(key, val);
        self
    }

    /// Sets several environment variables of the child.
    pub fn envs<I, K, V>(&mut self, vars: I) -> &mut Command
    where
        I: IntoIterator<Item = (K, V)>,
        K: AsRef<OsStr>,
        V: AsRef<OsStr>,
    {
        self.as_fastspawn_mut().envs(vars);
        self
    }

    forward!(
        /// Removes a variable from the child's environment.
        env_remove(key: K) where K: AsRef<OsStr>
    );
    forward!(
        /// Starts the child with an empty environment.
        env_clear()
    );
    forward!(
        /// Sets the child's working directory.
        current_dir(dir: P) where P: AsRef<Path>
    );
    forward!(
        /// Sets the child's stdin.
        stdin(cfg: T) where T: Into<Stdio>
    );
    forward!(
        /// Sets the child's stdout.
        stdout(cfg: T) where T: Into<Stdio>
    );
    forward!(
        /// Sets the child's stderr.
        stderr(cfg: T) where T: Into<Stdio>
    );

    forward!(
        /// Sets argv\[0\] (see [`crate::Command::arg0`]).
        arg0(arg: S) where S: AsRef<OsStr>
    );
    forward!(
        /// Maps a parent fd to a child fd (see [`crate::Command::fd`]).
        fd(child_fd: std::os::fd::RawFd, parent_fd: F) where F: Into<std::os::fd::OwnedFd>
    );
    forward!(
        /// Makes the child a session leader (`setsid`).
        setsid(on: bool)
    );
    forward!(
        /// Puts the child in a process group (0: a new one).
        process_group(pgroup: i32)
    );
    forward!(
        /// Runs the child as user `id`.
        uid(id: u32)
    );
    forward!(
        /// Runs the child with group `id`.
        gid(id: u32)
    );
    forward!(
        /// Sets the child's supplementary groups.
        groups(groups: &[u32])
    );
    forward!(
        /// Sets a resource limit of the child.
        rlimit(resource: crate::Resource, soft: u64, hard: u64)
    );
    forward!(
        /// The signal the child gets when its spawner thread exits.
        pdeathsig(signal: i32)
    );
    forward!(
        /// Sets the child's file mode creation mask.
        umask(mode: u32)
    );
    forward!(
        /// Starts the child in a cgroup2 directory.
        cgroup(dir: F) where F: Into<std::os::fd::OwnedFd>
    );
    forward!(
        /// Signals blocked in the child when the program starts.
        signal_mask(signals: &[i32])
    );
    forward!(
        /// Signals reset to their default disposition in the child.
        signal_default(signals: &[i32])
    );
    forward!(
        /// Chooses how the child is created.
        engine(engine: crate::Engine)
    );
    forward!(
        /// Refuses a spawn that could only fork.
        require_vfork(on: bool)
    );
    forward!(
        /// Whether the child gets a pidfd (default `true`).
        pidfd(on: bool)
    );

    /// The program, as given to [`new`](Self::new).
    pub fn get_program(&self) -> std::ffi::OsString {
        self.program()
    }

    /// The arguments after argv\[0\].
    pub fn get_args(&self) -> Vec<std::ffi::OsString> {
        let inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        inner.get_args().map(OsStr::to_owned).collect()
    }

    /// The working directory set with [`current_dir`](Self::current_dir).
    pub fn get_current_dir(&self) -> Option<std::path::PathBuf> {
        let inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        inner.get_current_dir().map(Path::to_owned)
    }

    /// Whether [`kill_on_drop`](Self::kill_on_drop) is set.
    pub fn get_kill_on_drop(&self) -> bool {
        self.kill_on_drop
    }

    /// Kill the child with SIGKILL when its [`Child`] is dropped before it
    /// was waited for, or when the spawn future is dropped (as tokio's).
    pub fn kill_on_drop(&mut self, kill: bool) -> &mut Command {
        self.kill_on_drop = kill;
        self
    }

    /// Spawn on `pool` instead of [`Pool::global`].
    pub fn pool(&mut self, pool: Arc<Pool>) -> &mut Command {
        self.pool = Some(pool);
        self
    }

    /// The pool given by [`pool`](Self::pool), else the global one; an
    /// error naming the program if the global pool's threads cannot start.
    fn spawner(&self) -> Result<&Pool> {
        match self.pool.as_deref() {
            Some(pool) => Ok(pool),
            None => Pool::try_global().map_err(|e| {
                let detail = format!("cannot start the spawner pool's threads: {e}");
                Error::io(&self.program(), Step::Clone, e).with_detail(detail)
            }),
        }
    }

    fn program(&self) -> std::ffi::OsString {
        self.inner
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get_program()
            .to_owned()
    }

    /// Starts the child on a spawner thread and returns once it runs (or
    /// failed to start). The calling thread does no spawning work.
    /// Cancel-safe: if this future is dropped, the child is handed to the
    /// background reaper (killed first with `kill_on_drop`).
    pub async fn spawn(&mut self) -> Result<Child> {
        self.spawn_for(Purpose::AsyncSpawn).await
    }

    /// Runs the child to its end and returns how it exited.
    pub async fn status(&mut self) -> Result<ExitStatus> {
        self.spawn_for(Purpose::AsyncSpawn).await?.wait().await
    }

    /// Runs the child to its end and collects its stdout and stderr (piped
    /// unless configured; stdin is `/dev/null` unless configured).
    pub async fn output(&mut self) -> Result<Output> {
        self.spawn_for(Purpose::AsyncOutput)
            .await?
            .wait_with_output()
            .await
    }

    async fn spawn_for(&mut self, purpose: Purpose) -> Result<Child> {
        // Cancel safety: a child that arrives after this future was
        // dropped is dropped with the channel, and the async `Child`'s own
        // `Drop` kills it (with `kill_on_drop`) and hands it to the reaper.
        let (tx, rx) = oneshot::channel::<Result<Child>>();
        let inner = Arc::clone(&self.inner);
        let kill_on_drop = self.kill_on_drop;
        // The spawner thread also registers the child's pidfd and pipes
        // with this runtime's reactor, so the caller's loop only receives
        // a finished `Child`.
        let runtime = ::tokio::runtime::Handle::current();
        self.spawner()?.run(move || {
            let result = inner
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .spawn_with(purpose);
            let _entered = runtime.enter();
            let result = result.and_then(|child| Child::new(child, kill_on_drop));
            let _ = tx.send(result);
        });
        rx.await.map_err(|_| self.pool_gone())?
    }

    /// Starts one child per variant (the command plus the variant's
    /// arguments and environment), spread over the pool's threads. The
    /// results come in the order of `variants`. Cancel-safe like `spawn`.
    pub async fn spawn_many<I>(&mut self, variants: I) -> Vec<Result<Child>>
    where
        I: IntoIterator<Item = Variant>,
    {
        let variants: Vec<Variant> = variants.into_iter().collect();
        let cloned = self.as_fastspawn_mut().try_clone_checked();
        let base = match cloned {
            Ok(base) => Arc::new(base),
            Err(e) => return variants.iter().map(|_| Err(e.clone())).collect(),
        };
        let kill_on_drop = self.kill_on_drop;
        let runtime = ::tokio::runtime::Handle::current();
        let pool = match self.spawner() {
            Ok(pool) => pool,
            Err(e) => return variants.iter().map(|_| Err(e.clone())).collect(),
        };
        let mut receivers: Vec<_> = crate::pool::chunks(variants, pool.threads())
            .into_iter()
            .map(|chunk| {
                let (tx, rx) = oneshot::channel::<Vec<Result<Child>>>();
                let base = Arc::clone(&base);
                let runtime = runtime.clone();
                pool.run(move || {
                    let results = crate::pool::spawn_variants(&base, chunk);
                    let _entered = runtime.enter();
                    let results: Vec<_> = results
                        .into_iter()
                        .map(|r| r.and_then(|c| Child::new(c, kill_on_drop)))
                        .collect();
                    let _ = tx.send(results);
                });
                rx
            })
            .collect();
        let mut out = Vec::new();
        for rx in &mut receivers {
            match rx.await {
                Ok(results) => out.extend(results),
                Err(_) => out.push(Err(self.pool_gone())),
            }
        }
        out
    }

    fn pool_gone(&self) -> Error {
        Error::new(
            &self.program(),
            Step::Clone,
            std::io::ErrorKind::Other,
            "the spawner pool stopped before answering",
        )
    }
}
