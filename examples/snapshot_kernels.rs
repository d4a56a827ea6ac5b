//! Keep your kernels' memory behaviour under review: snapshot warpscope's
//! report of each kernel with [insta](https://insta.rs), so that a change that
//! breaks coalescing shows up as a diff of the report in code review.
//!
//! This is written as a crate that ships CUDA kernels would write it, against
//! warpscope's public API only. In your crate:
//!
//! ```toml
//! [dev-dependencies]
//! warpscope = "0.1"
//! insta = "1"
//! ```
//!
//! and a test like the ones below (in `tests/`). Here the kernels are the
//! transpose examples of this repository (`examples/kernels/transpose`: 32x32
//! tiles, 32x8 blocks, a 512x512 matrix), compiled to PTX with
//! `nvcc -arch=sm_90 -lineinfo -O3 -ptx`; commit the PTX, or generate it in a
//! build script.
//!
//! - `cargo test --example snapshot_kernels` checks the snapshots (this file is
//!   declared with `test = true` in Cargo.toml, so plain `cargo test` runs it);
//! - `cargo insta review` shows a changed report as a diff and accepts it;
//! - `cargo run --example snapshot_kernels` prints the reports.

use warpscope::analysis::{LaunchConfig, Options, ParamKey};
use warpscope::report::{render_text, Report};
use warpscope::source::SourceFile;

/// The kernels' PTX, as the build produced it.
const TRANSPOSE_PTX: &str = include_str!("kernels/transpose/transpose.ptx");

/// How the application launches the transpose kernels: `<<<dim3(16, 16),
/// dim3(32, 8)>>>(out, in, 512)`. Launch facts make the report exact: with
/// them warpscope knows which lanes are active and how often each access runs.
fn transpose_launch() -> Options {
    Options {
        launch: LaunchConfig {
            block: Some([32, 8, 1]),
            grid: Some([16, 16, 1]),
            // `width`, the third parameter (PTX names it `<kernel>_param_2`).
            params: vec![(ParamKey::Index(2), 512.into())],
        },
        ..Options::default()
    }
}

/// The text report of one PTX module.
fn report(name: &str, ptx: &str, options: &Options) -> String {
    let file = SourceFile::from_text(name, ptx);
    let analysis = warpscope::analyze(&file, options);
    render_text(&Report::from_analysis(&file, &analysis))
}

fn main() {
    print!(
        "{}",
        report(
            "kernels/transpose/transpose.ptx",
            TRANSPOSE_PTX,
            &transpose_launch()
        )
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The whole report is the snapshot: a kernel whose stores stop being
    /// coalesced changes its rows (pattern, sectors, efficiency), its totals and
    /// its summary line, and the review shows exactly which access changed.
    #[test]
    fn transpose_report() {
        // Snapshots go where your project keeps them; this repository keeps
        // them in `snapshots/` at its root (insta's default would be
        // `examples/snapshots/` next to this file).
        insta::with_settings!({ snapshot_path => "../snapshots", omit_expression => true }, {
            insta::assert_snapshot!(
                "transpose",
                report("kernels/transpose/transpose.ptx", TRANSPOSE_PTX, &transpose_launch())
            );
        });
    }

    /// A snapshot records; an assertion states intent. The tiled transpose
    /// exists to make both its global load and its global store coalesced.
    #[test]
    fn tiled_transpose_moves_no_wasted_sectors() {
        let file = SourceFile::from_text("transpose.ptx", TRANSPOSE_PTX);
        let options = Options {
            kernel_filter: Some("transpose_smem_pad".into()),
            ..transpose_launch()
        };
        let report = Report::from_analysis(&file, &warpscope::analyze(&file, &options));
        let kernel = &report.files[0].kernels[0];
        assert_eq!(
            kernel.summary.weighted_efficiency,
            Some(1.0),
            "{}",
            render_text(&report)
        );
    }
}
