//! Ordered streaming over many inputs: work in parallel, emit in input
//! order, keep only a window of results alive.
//!
//! `check` and `report` over a directory of thousands of files must neither
//! wait for every file before printing the first result nor hold every
//! file's analysis: [`ordered_parts`] runs the work over a window of inputs
//! at a time (twice the worker threads, and no more than [`WINDOW_BYTES`]
//! of input unless one input is larger), hands each result to the caller
//! in input order as soon as it and the ones before it are done, and drops
//! it. The work hands over parts of its result while it runs (`check`
//! prints a large file's findings a stretch at a time, `report` a kernel at
//! a time): the parts of the input being printed are printed as they come,
//! those of later inputs wait for their turn. Memory is bounded by the window's
//! inputs and their analysis, whatever the number of inputs.

use rayon::prelude::*;

/// Input bytes a window of inputs may hold (one input larger than this is
/// worked on alone: its functions still go to every worker).
pub const WINDOW_BYTES: u64 = 16 << 20;

/// What the work on one input hands to the caller of [`ordered_parts`].
pub enum Message<Q, R> {
    /// A part, while the work runs.
    Part(Q),
    /// The result, when it is done (after all its parts).
    Done(R),
}

/// Runs `work` over `items` in parallel, a window at a time, and calls
/// `emit` with each input's parts (handed over by `work` through the
/// function it is given, while it runs) and then its result, input after
/// input in order, the input being emitted as they come; `emit` runs on
/// this thread while the window is worked on. A window holds at most
/// [`WINDOW_BYTES`] of input by `size` (but always one input). `prepare`
/// runs first for each item, on this thread and in order (for work that
/// needs `&mut` state, such as configuration lookup with a cache). Stops
/// at the first `Err` of `prepare` or `emit` and returns it.
pub fn ordered_parts<T, P, Q, R, E>(
    items: &[T],
    size: impl Fn(&T) -> u64,
    mut prepare: impl FnMut(&T) -> Result<P, E>,
    work: impl Fn(&T, P, &(dyn Fn(Q) + Sync)) -> R + Sync,
    mut emit: impl FnMut(&T, Message<Q, R>) -> Result<(), E>,
) -> Result<(), E>
where
    T: Sync,
    P: Send,
    Q: Send,
    R: Send,
{
    let most = (rayon::current_num_threads() * 2).max(2);
    let mut rest = items;
    while !rest.is_empty() {
        let mut n = 1;
        let mut bytes = size(&rest[0]);
        while n < rest.len() && n < most {
            bytes = bytes.saturating_add(size(&rest[n]));
            if bytes > WINDOW_BYTES {
                break;
            }
            n += 1;
        }
        let (window, later) = rest.split_at(n);
        rest = later;
        let mut prepared = Vec::with_capacity(window.len());
        for item in window {
            prepared.push(prepare(item)?);
        }
        // A few parts may wait to be printed; then the workers wait.
        let (tx, rx) = std::sync::mpsc::sync_channel::<(usize, Message<Q, R>)>(16);
        let work = &work;
        let mut failed = None;
        std::thread::scope(|s| {
            s.spawn(move || {
                window
                    .par_iter()
                    .zip(prepared.into_par_iter())
                    .enumerate()
                    .for_each_with(tx, |tx, (j, (item, p))| {
                        let tx_part = tx.clone();
                        let part = move |q: Q| {
                            // The receiver only goes away once the window
                            // is done.
                            let _ = tx_part.send((j, Message::Part(q)));
                        };
                        let r = work(item, p, &part);
                        let _ = tx.send((j, Message::Done(r)));
                    });
            });
            let mut waiting: Vec<std::collections::VecDeque<Message<Q, R>>> =
                (0..window.len()).map(|_| Default::default()).collect();
            let mut current = 0;
            for (j, m) in rx {
                if failed.is_some() {
                    // Drained so that the workers finish.
                    continue;
                }
                waiting[j].push_back(m);
                while let Some(m) = waiting.get_mut(current).and_then(|w| w.pop_front()) {
                    let done = matches!(m, Message::Done(_));
                    if let Err(e) = emit(&window[current], m) {
                        failed = Some(e);
                        break;
                    }
                    if done {
                        current += 1;
                    }
                }
            }
        });
        if let Some(e) = failed {
            return Err(e);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Results only, no parts: each input's result in input order.
    fn ordered<T: Sync, P: Send, R: Send, E>(
        items: &[T],
        prepare: impl FnMut(&T) -> Result<P, E>,
        work: impl Fn(&T, P) -> R + Sync,
        mut emit: impl FnMut(&T, R) -> Result<(), E>,
    ) -> Result<(), E> {
        ordered_parts(
            items,
            |_| 0,
            prepare,
            |item, p, _: &(dyn Fn(()) + Sync)| work(item, p),
            |item, m| match m {
                Message::Part(()) => Ok(()),
                Message::Done(r) => emit(item, r),
            },
        )
    }

    #[test]
    fn results_come_in_input_order_and_errors_stop() {
        let items: Vec<u32> = (0..100).collect();
        let mut seen = Vec::new();
        let r: Result<(), String> = ordered(
            &items,
            |&i| Ok(i * 2),
            |_, p| p + 1,
            |&i, r| {
                assert_eq!(r, i * 2 + 1);
                seen.push(i);
                Ok(())
            },
        );
        assert!(r.is_ok());
        assert_eq!(seen, items);
        let mut n = 0;
        let r = ordered(
            &items,
            |&i| Ok::<_, String>(i),
            |_, p| p,
            |_, r| {
                n += 1;
                if r == 5 {
                    Err(format!("stop at {r}"))
                } else {
                    Ok(())
                }
            },
        );
        assert_eq!(r, Err("stop at 5".to_string()));
        assert_eq!(n, 6);
    }

    #[test]
    fn parts_come_before_their_result_in_input_order() {
        // Sizes: some inputs above the window's bytes, alone in theirs.
        let items: Vec<u64> = (0..40).map(|i| (i % 7) * (WINDOW_BYTES / 3)).collect();
        let mut seen = Vec::new();
        let r: Result<(), ()> = ordered_parts(
            &items,
            |&size| size,
            |_| Ok(()),
            |&size, (), part| {
                for k in 0..3 {
                    part((size, k));
                }
                size
            },
            |&size, m| {
                seen.push(match m {
                    Message::Part((s, k)) => {
                        assert_eq!(s, size);
                        k
                    }
                    Message::Done(s) => {
                        assert_eq!(s, size);
                        3
                    }
                });
                Ok(())
            },
        );
        assert!(r.is_ok());
        let want: Vec<u64> = (0..items.len()).flat_map(|_| 0..4).collect();
        assert_eq!(seen, want);
    }
}
