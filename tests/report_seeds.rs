//! The seeds' figures, reproduced by `warpscope report` on the seeds' kernels.
//!
//! Every expected number below is quoted from a seed (file and table named next
//! to it) or derived from one by the arithmetic the seed itself writes out. The
//! kernels are the hardware engineer's PTX (`examples/kernels/`,
//! `tests/hw/kernels.ptx`, built with `nvcc -arch=sm_90 -lineinfo -O3 -ptx`),
//! analysed through the public API and read back from the report's rows, so
//! a regression in the analysis or in the report's derived figures fails here.
//!
//! Seeds: `000` = `/work/shared/seeds/000_e6d595fddc4c5458.txt` (Carl Pearson,
//! "Measuring Memory Access Efficiency in Nsight Compute", Titan V tables);
//! `001` = `/work/shared/seeds/001_23660bb4ceb85b80.txt` (Nsight VSE,
//! "Memory Transactions", TransactionsExamples.cu).

use warpscope::analysis::{LaunchConfig, Options, ParamKey};
use warpscope::report::{AccessRow, KernelReport, Report};
use warpscope::source::SourceFile;

/// Reports one kernel of a PTX file (path relative to the repository root).
fn kernel_report(
    ptx: &str,
    kernel: &str,
    block: [u32; 3],
    grid: [u32; 3],
    params: &[(usize, i64)],
) -> KernelReport {
    let bytes = std::fs::read(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(ptx))
        .unwrap_or_else(|e| panic!("{ptx}: {e}"));
    let file = SourceFile::new(ptx, bytes).unwrap();
    let opts = Options {
        launch: LaunchConfig {
            block: Some(block),
            grid: Some(grid),
            params: params
                .iter()
                .map(|&(i, v)| (ParamKey::Index(i), v.into()))
                .collect(),
        },
        kernel_filter: Some(kernel.to_string()),
        ..Options::default()
    };
    let analysis = warpscope::analyze(&file, &opts);
    let report = Report::from_analysis(&file, &analysis);
    let mut kernels = report.files.into_iter().next().unwrap().kernels;
    assert_eq!(kernels.len(), 1, "{ptx}: expected exactly kernel {kernel}");
    kernels.remove(0)
}

/// The access with this mnemonic on this CUDA line (exactly one).
fn row<'a>(k: &'a KernelReport, instruction: &str, cuda_line: u32) -> &'a AccessRow {
    let found: Vec<&AccessRow> = k
        .accesses
        .iter()
        .filter(|a| {
            a.instruction == instruction && a.cuda.as_ref().map(|c| c.line) == Some(cuda_line)
        })
        .collect();
    assert_eq!(
        found.len(),
        1,
        "{}: one `{instruction}` on CUDA line {cuda_line}, found {}",
        k.name,
        found.len()
    );
    found[0]
}

/// Whole-launch figures of a row: (requests, thread instructions, L1 lines, sectors).
fn launch_figures(r: &AccessRow) -> (u64, u64, u64, u64) {
    let l = r
        .launch
        .as_ref()
        .unwrap_or_else(|| panic!("line {}: requests unknown", r.ptx_line));
    let bytes = l
        .bytes_requested
        .unwrap_or_else(|| panic!("line {}: active lanes unknown", r.ptx_line));
    (
        l.requests,
        bytes / (r.bits as u64 / 8),
        l.l1_lines,
        l.sectors,
    )
}

// --- Seed 000: 10,000 coalesced 4-byte elements ------------------------------

/// Seed 000, table "Coalesced: (Titan V, GV100, CC7.0)", row `float f = p[idx]`:
/// Instrs. Executed 313, Predicated-On Thread Instrs. Executed 10,000, Mem Access
/// Size 32, Mem L2 Transactions Global 1250, Mem L1 Transactions Global 313.
const SEED000_FLOAT: (u64, u64, u64, u64) = (313, 10_000, 313, 1250);
/// Seed 000, same table, row `double f = p[idx]`: 313, 10,000, 64 bits, L2 2500, L1 625.
const SEED000_DOUBLE: (u64, u64, u64, u64) = (313, 10_000, 625, 2500);

/// The `indirect` kernel (`examples/kernels/indirect`), launched as the seed's
/// experiment is in tests/hw/launches.json (`indirect_f32_coalesced`: grid 79,
/// block 128, n = 10,000). Its `off[i]` load (`int idx = off[i]`, CUDA line 17)
/// reads 10,000 consecutive 4-byte ints: seed 000's coalesced float geometry.
/// (The seed's `p[idx]` figures need the identity permutation, which is data,
/// not something a static analysis can see: that load is reported `random`.)
/// The H100 agrees: tests/hw/measured.json, launch `indirect_f32_coalesced`,
/// line 17: 313 requests, 10,000 thread instructions, 313 L1 tag requests,
/// 1,250 sectors.
#[test]
fn seed000_indirect_float_index_load_is_313_requests_1250_sectors() {
    let k = kernel_report(
        "examples/kernels/indirect/indirect.ptx",
        "_Z8indirectIfEvPT_PKim",
        [128, 1, 1],
        [79, 1, 1],
        &[(2, 10_000)],
    );
    let off = row(&k, "ld.global.u32", 17);
    assert_eq!(launch_figures(off), SEED000_FLOAT);
    assert_eq!(off.bits, 32); // seed 000: Mem Access Size 32
                              // Seed 000: "Each float load: 32 consecutive, aligned 4B regions = 1 128B L1
                              // request, = 4 32B L2 request": (312 * 4) + (1 * 2) = 1250, all ideal.
    assert_eq!(off.launch.as_ref().unwrap().ideal_sectors, 1250);
    assert_eq!(off.efficiency, Some(1.0));
    assert_eq!(off.overhead, Some(1.0));
}

/// The same figures for `indirect<double>`'s index load (still 4-byte ints;
/// launches.json `indirect_f64_coalesced`: grid 79, block 128, n = 10,000).
#[test]
fn seed000_indirect_double_index_load_is_313_requests_1250_sectors() {
    let k = kernel_report(
        "examples/kernels/indirect/indirect.ptx",
        "_Z8indirectIdEvPT_PKim",
        [128, 1, 1],
        [79, 1, 1],
        &[(2, 10_000)],
    );
    assert_eq!(launch_figures(row(&k, "ld.global.u32", 17)), SEED000_FLOAT);
}

/// `copy_f32` (tests/hw/kernels.cu) reading and writing 10,000 floats
/// (launches.json `copy_f32_n10000`: grid 40, block 256, n = 10,000): seed 000's
/// float row for both the load and the store, and seed 000's efficiency
/// T_i / T_e = E * (S/8) / 128 / T_e = 10,000 * 4 / 128 / 313 = 312.5 / 313.
/// (H100: tests/hw/measured.json, launch `copy_f32_n10000`, lines 43 and 44:
/// 313 / 10,000 / 313 / 1,250 each.)
#[test]
fn seed000_copy_of_10000_floats() {
    let k = kernel_report(
        "tests/hw/kernels.ptx",
        "copy_f32",
        [256, 1, 1],
        [40, 1, 1],
        &[(2, 10_000)],
    );
    let loads: Vec<&AccessRow> = k
        .accesses
        .iter()
        .filter(|a| a.instruction.starts_with("ld.global"))
        .collect();
    let stores: Vec<&AccessRow> = k
        .accesses
        .iter()
        .filter(|a| a.instruction.starts_with("st.global"))
        .collect();
    assert_eq!((loads.len(), stores.len()), (1, 1), "{:?}", k.accesses);
    for r in [loads[0], stores[0]] {
        assert_eq!(launch_figures(r), SEED000_FLOAT, "line {}", r.ptx_line);
        let l = r.launch.as_ref().unwrap();
        let t_i = l.bytes_requested.unwrap() as f64 / 128.0;
        assert_eq!(t_i, 312.5);
        assert_eq!(((t_i / l.l1_lines as f64) * 1e4).round() / 1e4, 0.9984);
    }
    // Whole-launch totals, as Nsight's memory tables give them.
    let t = k
        .totals
        .as_ref()
        .expect("totals of a launch with grid and n given");
    assert_eq!(
        (
            t.load_requests,
            t.load_sectors,
            t.store_requests,
            t.store_sectors
        ),
        (313, 1250, 313, 1250)
    );
    assert_eq!((t.bytes_requested, t.bytes_moved), (80_000, 80_000));
}

/// `copy_f64` over 10,000 doubles (the seed's double row; launched like
/// `copy_f32_n10000`, a launch chosen for this test): seed 000 "10K doubles =
/// 80KB contiguous region = 80KB / 128B = 625 128B L1 transactions = 2500 32B L2
/// transactions", 313 requests.
#[test]
fn seed000_copy_of_10000_doubles() {
    let k = kernel_report(
        "tests/hw/kernels.ptx",
        "copy_f64",
        [256, 1, 1],
        [40, 1, 1],
        &[(2, 10_000)],
    );
    let load = k
        .accesses
        .iter()
        .find(|a| a.instruction.starts_with("ld.global"))
        .expect("a global load");
    assert_eq!(load.bits, 64); // seed 000: Mem Access Size 64
    assert_eq!(launch_figures(load), SEED000_DOUBLE);
}

// --- Seed 001: 16-byte stores by the first k lanes of one warp ---------------

/// The 32 stores of a `*_each` kernel (`examples/kernels/transactions`,
/// <<<1,32>>> as in seed 001's `main`), in PTX order: the k-th is done by the
/// first k lanes.
fn each_stores(kernel: &str) -> Vec<AccessRow> {
    let k = kernel_report(
        "examples/kernels/transactions/transactions.ptx",
        kernel,
        [32, 1, 1],
        [1, 1, 1],
        &[],
    );
    let stores: Vec<AccessRow> = k
        .accesses
        .into_iter()
        .filter(|a| a.instruction == "st.global.v4.f32")
        .collect();
    assert_eq!(
        stores.len(),
        32,
        "{kernel}: seed 001 generates 32 store instructions"
    );
    stores
}

/// Seed 001, sequentialAddresses: "L1 Global Transactions Executed always
/// matches L1 Global Transactions Ideal for this kernel" (ideal: "threads in a
/// warp contiguously access a cache-line-aligned array", active mask taken into
/// account: ceil(16 k / 128) lines for k lanes), "and for 8/16/24/32 threads the
/// overhead is 1.0".
#[test]
fn seed001_sequential_addresses() {
    let stores = each_stores("_Z24sequentialAddresses_eachP6float4");
    for (i, r) in stores.iter().enumerate() {
        let k = i as u64 + 1;
        let (requests, lanes, l1, _) = launch_figures(r);
        assert_eq!((requests, lanes), (1, k), "store {k}");
        assert_eq!(
            l1,
            (16 * k).div_ceil(128),
            "store {k}: executed = ideal L1 lines"
        );
        assert_eq!(
            r.launch.as_ref().unwrap().ideal_sectors,
            r.launch.as_ref().unwrap().sectors,
            "store {k}"
        );
        if k.is_multiple_of(8) {
            assert_eq!(r.l1_overhead, Some(1.0), "store {k}: seed 001 overhead 1.0");
        }
    }
    // Over the 32 stores: sum of ceil(16k/128) = 80 lines and of ceil(16k/32)
    // = 272 sectors, which is also what the H100 measured for this kernel
    // (tests/hw/measured.json, launch `sequentialAddresses_each`, line 39:
    // 32 requests, 528 thread instructions, 80 L1 tag requests, 272 sectors).
    let sum = |f: fn(&AccessRow) -> u64| stores.iter().map(f).sum::<u64>();
    assert_eq!(sum(|r| launch_figures(r).1), 528);
    assert_eq!(sum(|r| launch_figures(r).2), 80);
    assert_eq!(sum(|r| launch_figures(r).3), 272);
}

/// Seed 001, separateCacheLines: "each thread doing a store incurs a full
/// 128-byte transaction, despite only accessing 16 bytes, so L1 Transfer
/// Overhead is always a factor of 8", and "for the full warp, L1 Above-Ideal
/// Transactions is 28 because 32 transactions were executed where an ideal
/// access pattern would only have executed 4".
#[test]
fn seed001_separate_cache_lines() {
    let stores = each_stores("_Z23separateCacheLines_eachP6float4");
    for (i, r) in stores.iter().enumerate() {
        let k = i as u64 + 1;
        assert_eq!(launch_figures(r).1, k, "store {k}: active lanes");
        assert_eq!(r.l1_overhead, Some(8.0), "store {k}: seed 001 factor of 8");
    }
    let full = stores[31].launch.as_ref().unwrap();
    let ideal_l1 = (full.ideal_sectors * 32).div_ceil(128);
    assert_eq!(
        (full.l1_lines, ideal_l1, full.l1_lines - ideal_l1),
        (32, 4, 28)
    );
}

/// Seed 001's own code (`sequentialAddresses`, `separateCacheLines`): nvcc -O3
/// keeps only the last store, done by all 32 lanes (see transactions.cu). Its
/// figures are the k = 32 ones above: 4 lines and overhead 1.0; 32 lines and 8.
/// (`sameAddress`'s 2 transactions and overhead 0.5 are Kepler's 16-thread limit
/// for 16-byte accesses, not a Volta-and-later figure, so they are not checked.)
#[test]
fn seed001_seed_kernels_as_compiled() {
    let path = "examples/kernels/transactions/transactions.ptx";
    let seq = kernel_report(
        path,
        "_Z19sequentialAddressesP6float4",
        [32, 1, 1],
        [1, 1, 1],
        &[],
    );
    let sep = kernel_report(
        path,
        "_Z18separateCacheLinesP6float4",
        [32, 1, 1],
        [1, 1, 1],
        &[],
    );
    let only_store = |k: &KernelReport| {
        let stores: Vec<AccessRow> = k
            .accesses
            .iter()
            .filter(|a| a.instruction == "st.global.v4.f32")
            .cloned()
            .collect();
        assert_eq!(stores.len(), 1, "{}: nvcc -O3 leaves one store", k.name);
        stores.into_iter().next().unwrap()
    };
    let (seq, sep) = (only_store(&seq), only_store(&sep));
    // Sectors: 512 contiguous bytes are 16 sectors; 16 bytes at the start of
    // each of 32 lines are 32 sectors (one per line).
    assert_eq!(launch_figures(&seq), (1, 32, 4, 16));
    assert_eq!(seq.l1_overhead, Some(1.0));
    assert_eq!(launch_figures(&sep), (1, 32, 32, 32));
    assert_eq!(sep.l1_overhead, Some(8.0));
}
