//! The progress bar of `check` and `report` over many files.
//!
//! Shown on stderr only when stderr is a terminal, more than one file is
//! checked and `--quiet` is not given: never in CI logs, pipes or editors.
//! Output written while it is shown goes through [`Progress::suspend`] so the
//! bar is cleared first and redrawn after.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;

/// A progress bar, or nothing.
pub struct Progress(Option<ProgressBar>);

impl Progress {
    /// A bar over `total` files, when it should be shown.
    pub fn new(total: usize, quiet: bool) -> Progress {
        if quiet || total < 2 || !std::io::stderr().is_terminal() {
            return Progress(None);
        }
        let bar = ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::stderr());
        let style = ProgressStyle::with_template(
            "{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} files {wide_msg}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar());
        bar.set_style(style);
        Progress(Some(bar))
    }

    /// One more file done; `name` is shown beside the bar.
    pub fn inc(&self, name: &str) {
        if let Some(b) = &self.0 {
            b.set_message(name.to_string());
            b.inc(1);
        }
    }

    /// Runs `f` (which writes output) with the bar cleared.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        match &self.0 {
            Some(b) => b.suspend(f),
            None => f(),
        }
    }

    /// Removes the bar.
    pub fn finish(&self) {
        if let Some(b) = &self.0 {
            b.finish_and_clear();
        }
    }
}
