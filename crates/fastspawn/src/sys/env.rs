//! Reading the parent's environment without copying it.
//!
//! # Safety
//!
//! `environ` is read while no other thread changes it: Rust's `set_var` and
//! `remove_var` are `unsafe` with exactly that requirement, and C code that
//! calls `setenv` concurrently with any `getenv` is already undefined. This
//! is what every spawn in C does.

use std::ffi::{CStr, c_char};

unsafe extern "C" {
    static environ: *const *const c_char;
}

/// The parent's `environ` array, as it is now.
pub(crate) fn environ_ptr() -> *const *const c_char {
    // SAFETY: reading the pointer value; see the file header.
    unsafe { environ }
}

/// Visits every `KEY=VALUE` entry of the parent's environment.
pub(crate) fn for_each(mut f: impl FnMut(&CStr)) {
    let mut entry = environ_ptr();
    if entry.is_null() {
        return;
    }
    // SAFETY: environ is a NULL-terminated array of NUL-terminated strings.
    unsafe {
        while !(*entry).is_null() {
            f(CStr::from_ptr(*entry));
            entry = entry.add(1);
        }
    }
}

/// A cheap identity of the environment's current state: changes when a
/// variable is set, replaced or removed (each replaces the array's
/// pointers), without reading the strings.
pub(crate) fn fingerprint() -> u64 {
    let base = environ_ptr();
    let mut hash = base as u64 ^ 0x9e37_79b9_7f4a_7c15;
    if base.is_null() {
        return hash;
    }
    let mut entry = base;
    // SAFETY: as in for_each.
    unsafe {
        while !(*entry).is_null() {
            hash = (hash ^ (*entry as u64)).wrapping_mul(0x100_0000_01b3);
            entry = entry.add(1);
        }
    }
    hash
}

/// A copy of the parent's `PATH`, if it has one.
pub(crate) fn path_var() -> Option<std::ffi::OsString> {
    use std::os::unix::ffi::OsStrExt;
    let mut found = None;
    for_each(|entry| {
        if found.is_none() {
            if let Some(value) = entry.to_bytes().strip_prefix(b"PATH=") {
                found = Some(std::ffi::OsStr::from_bytes(value).to_owned());
            }
        }
    });
    found
}
