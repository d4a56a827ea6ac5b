//! Speed of the analysis on a large file (run by hand, in release mode:
//! `cargo test --release --test analysis_perf -- --ignored --nocapture`).
//! Prints timings; asserts nothing about time (no wall-clock limits in tests).

use warpscope::analysis::Options;
use warpscope::analyze;
use warpscope::source::SourceFile;

#[test]
#[ignore]
fn one_megabyte_of_nvcc_ptx() {
    let base = std::fs::read_to_string("tests/hw/kernels.ptx").expect("PTX");
    let mut text = String::new();
    let mut copies = 0;
    while text.len() < 1 << 20 {
        // rename the entries so that every copy is a distinct kernel
        text.push_str(&base.replace(".entry ", &format!(".entry c{copies}_")));
        copies += 1;
    }
    let file = SourceFile::from_text("big.ptx", text);
    let opts = Options::default();
    let mut best = [std::time::Duration::MAX; 4];
    let mut accesses = 0;
    for _ in 0..5 {
        let t0 = std::time::Instant::now();
        let (m, _) = warpscope::syntax::parse_file(&file);
        let parse = t0.elapsed();
        let t1 = std::time::Instant::now();
        let (_, _) = warpscope::sema::check_module(&m);
        let sema = t1.elapsed();
        let t2 = std::time::Instant::now();
        let k = warpscope::analyze_module(&file, &m, &opts);
        let analysis = t2.elapsed();
        let t3 = std::time::Instant::now();
        let a = analyze(&file, &opts);
        let all = t3.elapsed();
        accesses = a.kernels.iter().map(|k| k.accesses.len()).sum::<usize>();
        assert_eq!(k.len(), a.kernels.len());
        for (b, t) in best.iter_mut().zip([parse, sema, analysis, all]) {
            *b = (*b).min(t);
        }
    }
    println!(
        "{} bytes, {} copies, {} accesses, best of 5: parse {:?}, sema {:?}, analysis {:?}, analyze() in all {:?}",
        file.text().len(),
        copies,
        accesses,
        best[0],
        best[1],
        best[2],
        best[3]
    );
}

#[test]
#[ignore]
fn simulation_of_a_long_single_warp_loop() {
    // fma<float,1> with one thread over n = 131,072: ~1.6 million warp instructions.
    let text = std::fs::read_to_string("examples/kernels/fma/fma.ptx").expect("PTX");
    let file = SourceFile::from_text("fma.ptx", text);
    let opts = Options {
        launch: warpscope::analysis::LaunchConfig {
            block: Some([1, 1, 1]),
            grid: Some([1, 1, 1]),
            params: vec![(warpscope::analysis::ParamKey::Index(0), 131_072.into())],
        },
        kernel_filter: Some("_Z3fmaIfLi1EEvlPT_S1_Pf".into()),
        ..Options::default()
    };
    let t0 = std::time::Instant::now();
    let a = analyze(&file, &opts);
    println!(
        "simulated {:?} load requests in {:?}",
        a.kernels[0].totals.as_ref().map(|t| t.load_requests),
        t0.elapsed()
    );
}
