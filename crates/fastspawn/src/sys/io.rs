//! `Stdio::from_raw_fd`. (Reading a child's outputs, which lived here as
//! `read2`, is `Child::communicate`: `exchange.rs`.)

impl std::os::fd::FromRawFd for crate::Stdio {
    /// Takes ownership of `fd` as the child's stream (as std's
    /// `Stdio::from_raw_fd`); it is closed when the `Stdio` is dropped.
    ///
    /// # Safety
    /// `fd` must be open and owned by nobody else.
    unsafe fn from_raw_fd(fd: std::os::fd::RawFd) -> crate::Stdio {
        // SAFETY: the caller hands over an open fd it owns.
        crate::Stdio::from(unsafe { std::os::fd::OwnedFd::from_raw_fd(fd) })
    }
}
