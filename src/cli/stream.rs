//! Ordered streaming over many inputs: work in parallel, emit in input
//! order, keep only a window of results alive.
//!
//! `check` and `report` over a directory of thousands of files must neither
//! wait for every file before printing the first result nor hold every
//! file's analysis: [`ordered`] runs the work over a window of inputs at a
//! time (twice the worker threads), hands each result to the caller in input
//! order as soon as it and the ones before it are done, and drops it. Memory
//! is bounded by the window times the largest input's analysis, whatever the
//! number of inputs.

use rayon::prelude::*;

/// Runs `work` over `items` in parallel, a window at a time, and calls
/// `emit` with each result in input order. `prepare` runs first for each
/// item, on this thread and in order (for work that needs `&mut` state,
/// such as configuration lookup with a cache). Stops at the first `Err` of
/// `prepare` or `emit` and returns it.
pub fn ordered<T, P, R, E>(
    items: &[T],
    mut prepare: impl FnMut(&T) -> Result<P, E>,
    work: impl Fn(&T, P) -> R + Sync,
    mut emit: impl FnMut(&T, R) -> Result<(), E>,
) -> Result<(), E>
where
    T: Sync,
    P: Send,
    R: Send,
{
    let window = (rayon::current_num_threads() * 2).max(2);
    for chunk in items.chunks(window) {
        let mut prepared = Vec::with_capacity(chunk.len());
        for item in chunk {
            prepared.push(prepare(item)?);
        }
        let results: Vec<R> = chunk
            .par_iter()
            .zip(prepared.into_par_iter())
            .map(|(item, p)| work(item, p))
            .collect();
        for (item, r) in chunk.iter().zip(results) {
            emit(item, r)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
