//! A NULL-terminated array of C strings (argv, envp) that owns its strings.

use std::ffi::{CString, c_char};
use std::ptr;

/// The strings and the pointer array the kernel reads.
#[derive(Debug, Default)]
pub(crate) struct CStringArray {
    strings: Vec<CString>,
    ptrs: Vec<*const c_char>,
}

// SAFETY: the pointers point into the heap buffers of `strings`, which this
// struct owns and never mutates; moving the struct does not move them.
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

    pub(crate) fn as_ptr(&self) -> *const *const c_char {
        self.ptrs.as_ptr()
    }

    #[cfg(test)]
    pub(crate) fn iter(&self) -> impl Iterator<Item = &std::ffi::CStr> {
        self.strings.iter().map(|s| s.as_c_str())
    }
}
