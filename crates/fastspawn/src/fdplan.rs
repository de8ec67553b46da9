//! Turning "child fd N is parent fd M" into a list of `dup3` calls that is
//! correct for any mapping, swaps and cycles included.
//!
//! The plan is computed in the parent, so the child only walks a slice:
//!
//! 1. A source that some other mapping will overwrite is first parked on a
//!    fresh number above every fd involved (`dup3(.., O_CLOEXEC)`); after
//!    this no remaining source is the destination of another mapping.
//! 2. Each mapping is then a `dup3(src, dst, 0)`, or, when the fd is
//!    already in place, a `fcntl(F_SETFD, 0)` that clears close-on-exec.
//! 3. Every fd that is not a destination or explicitly kept is closed, as
//!    a few `close_range` calls over the gaps.
//!
//! Parking onto a fixed number may clobber an unrelated fd of the child's
//! copy of the fd table; that fd is closed in step 3 anyway.

use smallvec::SmallVec;

use crate::sys::child::FdOp;

/// The operations and the ranges to close.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct FdPlan {
    pub ops: SmallVec<[FdOp; 8]>,
    pub close: SmallVec<[(u32, u32); 8]>,
    /// One above every fd the plan reads or keeps: a child that shares the
    /// parent's fd table needs no fd from this number on.
    pub above: u32,
}

/// Plans `targets` (`(child fd, parent fd)`, destinations distinct) and
/// keeps `keep` open as they are (inherited stdio, the error pipe).
pub(crate) fn plan(targets: &[(i32, i32)], keep: &[i32]) -> FdPlan {
    let overwritten = |fd: i32| targets.iter().any(|&(dst, src)| dst == fd && src != dst);
    let above = targets
        .iter()
        .flat_map(|&(dst, src)| [dst, src])
        .chain(keep.iter().copied())
        .max()
        .map_or(0, |max| max + 1);
    let mut next = above;

    let mut ops = SmallVec::new();
    let mut sources: SmallVec<[i32; 8]> = targets.iter().map(|&(_, src)| src).collect();
    for (i, &(dst, src)) in targets.iter().enumerate() {
        if src != dst && overwritten(src) {
            // Another mapping with the same source may have parked it already.
            if let Some(parked) = (0..i).find(|&j| targets[j].1 == src && sources[j] != src) {
                sources[i] = sources[parked];
                continue;
            }
            ops.push(FdOp::Park { src, dst: next });
            sources[i] = next;
            next += 1;
        }
    }
    for (&(dst, _), &src) in targets.iter().zip(&sources) {
        ops.push(if src == dst {
            FdOp::Keep { fd: dst }
        } else {
            FdOp::Dup { src, dst }
        });
    }

    let mut kept: SmallVec<[u32; 8]> = targets
        .iter()
        .map(|&(dst, _)| dst)
        .chain(keep.iter().copied())
        .filter(|&fd| fd >= 0)
        .map(|fd| fd as u32)
        .collect();
    kept.sort_unstable();
    kept.dedup();
    let mut close = SmallVec::new();
    let mut start = 0u32;
    for fd in kept {
        if fd > start {
            close.push((start, fd - 1));
        }
        start = fd + 1;
    }
    close.push((start, u32::MAX));
    FdPlan {
        ops,
        close,
        above: above as u32,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// Runs a plan on a model fd table (fd -> the object it refers to) and
    /// returns the table the program would see.
    fn simulate(table: &HashMap<i32, &'static str>, plan: &FdPlan) -> HashMap<i32, &'static str> {
        let mut table = table.clone();
        let mut cloexec = std::collections::HashSet::new();
        for op in &plan.ops {
            match *op {
                FdOp::Dup { src, dst } => {
                    let obj = table[&src];
                    table.insert(dst, obj);
                    cloexec.remove(&dst);
                }
                FdOp::Park { src, dst } => {
                    let obj = table[&src];
                    table.insert(dst, obj);
                    cloexec.insert(dst);
                }
                FdOp::Keep { fd } => {
                    assert!(table.contains_key(&fd));
                    cloexec.remove(&fd);
                }
            }
        }
        for &(first, last) in &plan.close {
            table.retain(|&fd, _| !(first..=last).contains(&(fd as u32)));
        }
        table.retain(|fd, _| !cloexec.contains(fd));
        table
    }

    fn check(table: &[(i32, &'static str)], targets: &[(i32, i32)], keep: &[i32]) {
        let table: HashMap<_, _> = table.iter().copied().collect();
        let result = simulate(&table, &plan(targets, keep));
        let mut expected: HashMap<i32, &str> = targets
            .iter()
            .map(|&(dst, src)| (dst, table[&src]))
            .collect();
        for fd in keep {
            expected.insert(*fd, table[fd]);
        }
        assert_eq!(result, expected, "targets {targets:?}");
    }

    #[test]
    fn swap() {
        check(&[(3, "a"), (4, "b")], &[(3, 4), (4, 3)], &[]);
    }

    #[test]
    fn three_cycle_with_stdio_and_strangers() {
        let table = [
            (0, "in"),
            (1, "out"),
            (2, "err"),
            (5, "x"),
            (6, "y"),
            (7, "z"),
            (9, "stray"),
        ];
        check(&table, &[(5, 6), (6, 7), (7, 5)], &[0, 1, 2]);
    }

    #[test]
    fn identity_and_shared_source() {
        check(&[(3, "a"), (4, "b")], &[(3, 3), (4, 3), (5, 3)], &[]);
        check(&[(3, "a"), (4, "b")], &[(4, 3), (3, 4), (6, 4)], &[]);
    }

    #[test]
    fn every_permutation_of_four() {
        let table = [(3, "a"), (4, "b"), (5, "c"), (6, "d"), (10, "e")];
        let fds = [3, 4, 5, 6];
        let mut perm = fds;
        // Heap's algorithm over all 24 permutations.
        let mut c = [0usize; 4];
        let mut seen = 0;
        let mut i = 0;
        check(
            &table,
            &fds.iter()
                .zip(perm.iter())
                .map(|(&d, &s)| (d, s))
                .collect::<Vec<_>>(),
            &[],
        );
        seen += 1;
        while i < 4 {
            if c[i] < i {
                if i % 2 == 0 {
                    perm.swap(0, i)
                } else {
                    perm.swap(c[i], i)
                }
                let targets: Vec<_> = fds.iter().zip(perm.iter()).map(|(&d, &s)| (d, s)).collect();
                check(&table, &targets, &[10]);
                seen += 1;
                c[i] += 1;
                i = 0;
            } else {
                c[i] = 0;
                i += 1;
            }
        }
        assert_eq!(seen, 24);
    }

    #[test]
    fn close_ranges_cover_the_gaps() {
        let plan = plan(&[(0, 7), (4, 8)], &[1, 2, 20]);
        assert_eq!(plan.close.as_slice(), &[(3, 3), (5, 19), (21, u32::MAX)]);
    }

    #[test]
    fn above_is_past_every_fd_read_or_kept() {
        assert_eq!(plan(&[(0, 7), (4, 8)], &[1, 2, 20]).above, 21);
        assert_eq!(plan(&[(3, 9)], &[0, 1, 2]).above, 10);
        assert_eq!(plan(&[], &[]).above, 0);
    }

    #[test]
    fn nothing_to_map_closes_all_but_kept() {
        let plan = plan(&[], &[0, 1, 2]);
        assert!(plan.ops.is_empty());
        assert_eq!(plan.close.as_slice(), &[(3, u32::MAX)]);
    }
}
