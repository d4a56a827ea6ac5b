use warpscope::analysis::*;
use warpscope::source::SourceFile;

#[test]
fn scratch() {
    let path = std::env::var("PTX").unwrap_or("examples/kernels/indirect/indirect.ptx".into());
    let text = std::fs::read_to_string(&path).unwrap();
    let f = SourceFile::from_text(&path, text);
    let mut o = Options::default();
    if let Ok(b) = std::env::var("BLOCK") { let v: Vec<u32> = b.split(',').map(|x| x.parse().unwrap()).collect(); o.launch.block = Some([v[0], *v.get(1).unwrap_or(&1), *v.get(2).unwrap_or(&1)]); }
    if let Ok(b) = std::env::var("GRID") { let v: Vec<u32> = b.split(',').map(|x| x.parse().unwrap()).collect(); o.launch.grid = Some([v[0], *v.get(1).unwrap_or(&1), *v.get(2).unwrap_or(&1)]); }
    if let Ok(p) = std::env::var("PARAMS") { for kv in p.split(',') { let (k, v) = kv.split_once('=').unwrap(); o.launch.params.push((ParamKey::Index(k.parse().unwrap()), v.parse().unwrap())); } }
    if let Ok(k) = std::env::var("KERNEL") { o.kernel_filter = Some(k); }
    let a = analyze(&f, &o);
    for k in &a.kernels {
        println!("== {} ({}) block {:?} assumed {} totals {:?} {:?} {:?}", k.name, k.demangled, k.block, k.block_assumed, k.totals, k.totals_unavailable, k.caveats);
        for x in &k.accesses {
            println!("  {:>4} {:?} {:<22} {:?} {:?} bits {} {:?} stride {:?} lines {:.3} sec {:.3} ideal {:.2} [{}..{}] lanes {:?} req {:?} | {} | {:?}",
              x.ptx.line, x.source.as_ref().map(|s| s.line), x.instruction, x.op, x.space, x.bits, x.pattern, x.stride_bytes,
              x.per_request.l1_lines, x.per_request.sectors, x.per_request.ideal_sectors, x.per_request.sectors_min, x.per_request.sectors_max, x.per_request.active_lanes, x.requests, x.lane_pattern, x.caveats);
        }
    }
}
