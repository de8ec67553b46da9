//! A NULL-terminated array of C strings (argv, envp) that owns its strings,
//! or, for entries of the parent's environment, points at them.

use std::ffi::{CString, c_char};
use std::ptr;

/// The strings and the pointer array the kernel reads.
#[derive(Debug, Default)]
pub(crate) struct CStringArray {
    strings: Vec<CString>,
    ptrs: Vec<*const c_char>,
}

// SAFETY: the pointers point into the heap buffers of `strings`, which this
// struct owns and never mutates (moving the struct does not move them), or
// at strings of the process environment (`push_environ`), which are only
// read, under the contract of `env.rs`.
unsafe impl Send for CStringArray {}
// SAFETY: as above; shared access only reads.
unsafe impl Sync for CStringArray {}

impl CStringArray {
    pub(crate) fn with_capacity(n: usize) -> CStringArray {
        let mut ptrs = Vec::with_capacity(n + 1);
        ptrs.push(ptr::null());
        CStringArray {
            strings: Vec::with_capacity(n),
            ptrs,
        }
    }

    pub(crate) fn push(&mut self, s: CString) {
        let last = self.ptrs.len() - 1;
        self.ptrs[last] = s.as_ptr();
        self.ptrs.push(ptr::null());
        self.strings.push(s);
    }

    /// Adds an entry of the parent's `environ` by pointer, not by copy: the
    /// child reads the string as it is at spawn time, so a buffer given to
    /// `putenv` and rewritten in place is seen, as with std. The caller
    /// rebuilds the array whenever `environ`'s pointers change
    /// (`env::fingerprint`), so the pointer is never used after its string
    /// left the environment.
    pub(crate) fn push_environ(&mut self, entry: &std::ffi::CStr) {
        let last = self.ptrs.len() - 1;
        self.ptrs[last] = entry.as_ptr();
        self.ptrs.push(ptr::null());
    }

    pub(crate) fn as_ptr(&self) -> *const *const c_char {
        self.ptrs.as_ptr()
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = &std::ffi::CStr> {
        self.ptrs[..self.ptrs.len() - 1]
            .iter()
            // SAFETY: every pointer but the last is a live C string (see above).
            .map(|&p| unsafe { std::ffi::CStr::from_ptr(p) })
    }
}
