//! An environment built once and shared by the commands that start
//! children in it ([`Command::environment`](crate::Command::environment)).

use std::collections::BTreeMap;
use std::ffi::{CStr, CString, OsStr, OsString};
use std::fmt;
use std::os::unix::ffi::OsStrExt;
use std::sync::Arc;

use crate::error::{Error, Result};
use crate::sys::cstr::CStringArray;

/// A complete child environment, prepared once as the `envp` array that
/// `execve` reads, and shared (it is an `Arc`) by every command given it
/// with [`Command::environment`](crate::Command::environment).
///
/// A command with `env_clear()` and `envs(...)` of 35 variables copies and
/// joins those 35 strings again for each command; one `Environment` made
/// from them costs that once. Clones share the same array.
#[derive(Clone)]
pub struct Environment(Arc<Block>);

struct Block {
    array: CStringArray,
    path: Option<OsString>,
    len: usize,
}

impl Environment {
    /// An environment of these variables (a variable given twice keeps its
    /// last value, as with repeated `env` calls). A key or value with a NUL
    /// byte is an error.
    pub fn new<I, K, V>(vars: I) -> Result<Environment>
    where
        I: IntoIterator<Item = (K, V)>,
        K: AsRef<OsStr>,
        V: AsRef<OsStr>,
    {
        let program = OsStr::new("environment");
        let mut map: BTreeMap<OsString, OsString> = BTreeMap::new();
        for (key, value) in vars {
            let (key, value) = (key.as_ref(), value.as_ref());
            map.insert(key.to_owned(), value.to_owned());
        }
        let mut array = CStringArray::with_capacity(map.len());
        for (key, value) in &map {
            let mut entry = Vec::with_capacity(key.len() + value.len() + 2);
            entry.extend_from_slice(key.as_bytes());
            entry.push(b'=');
            entry.extend_from_slice(value.as_bytes());
            let entry = CString::new(entry).map_err(|_| {
                Error::invalid(
                    program,
                    format!("environment variable {key:?} or its value contains a NUL byte"),
                )
            })?;
            array.push(entry);
        }
        Ok(Environment(Arc::new(Block {
            path: map.get(OsStr::new("PATH")).cloned(),
            len: map.len(),
            array,
        })))
    }

    /// A copy of the process's environment as it is now
    /// ([`std::env::vars_os`]).
    pub fn capture() -> Environment {
        Environment::new(std::env::vars_os()).expect("the process environment has no NUL byte")
    }

    /// How many variables it has.
    pub fn len(&self) -> usize {
        self.0.len
    }

    /// Whether it has no variable.
    pub fn is_empty(&self) -> bool {
        self.0.len == 0
    }

    /// Its variables, sorted by key.
    pub fn iter(&self) -> impl Iterator<Item = (&OsStr, &OsStr)> {
        self.entries().map(split_entry)
    }

    /// The `PATH` it sets, if any.
    pub(crate) fn path(&self) -> Option<&OsStr> {
        self.0.path.as_deref()
    }

    /// Its `KEY=VALUE` entries.
    pub(crate) fn entries(&self) -> impl Iterator<Item = &CStr> {
        self.0.array.iter()
    }

    pub(crate) fn array(&self) -> &CStringArray {
        &self.0.array
    }
}

/// `KEY=VALUE` split at the first `=` after the key's first byte.
pub(crate) fn split_entry(entry: &CStr) -> (&OsStr, &OsStr) {
    let bytes = entry.to_bytes();
    let split = bytes
        .iter()
        .skip(1)
        .position(|&b| b == b'=')
        .map_or(bytes.len(), |i| i + 1);
    (
        OsStr::from_bytes(&bytes[..split]),
        OsStr::from_bytes(bytes.get(split + 1..).unwrap_or_default()),
    )
}

impl fmt::Debug for Environment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}
