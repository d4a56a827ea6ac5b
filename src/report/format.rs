//! Deterministic number formatting and column layout shared by the text and
//! Markdown renderers.

use super::AccessRow;

/// `x` with `decimals` fixed decimals; `-` when absent or not finite.
pub(crate) fn fixed(x: Option<f64>, decimals: usize) -> String {
    match x {
        Some(v) if v.is_finite() => {
            let s = format!("{v:.decimals$}");
            // `-0.00` is `0.00`.
            if s.starts_with('-') && s[1..].chars().all(|c| c == '0' || c == '.') {
                s[1..].to_string()
            } else {
                s
            }
        }
        _ => "-".to_string(),
    }
}

/// A ratio as a percentage with one decimal (`87.5%`), `-` when absent.
pub(crate) fn percent(x: Option<f64>) -> String {
    match x {
        Some(v) if v.is_finite() => format!("{}%", fixed(Some(v * 100.0), 1)),
        _ => "-".to_string(),
    }
}

/// An optional count.
pub(crate) fn count(x: Option<u64>) -> String {
    x.map_or_else(|| "-".to_string(), |v| v.to_string())
}

/// Column alignment.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Align {
    Left,
    Right,
}

/// The per-access table's columns: header, alignment.
pub(crate) const ACCESS_COLUMNS: &[(&str, Align)] = &[
    ("PTX", Align::Right),
    ("CUDA", Align::Left),
    ("instruction", Align::Left),
    ("space", Align::Left),
    ("bits", Align::Right),
    ("pattern", Align::Left),
    ("requests", Align::Right),
    ("lanes", Align::Right),
    ("L1/req", Align::Right),
    ("sect/req", Align::Right),
    ("ideal", Align::Right),
    ("eff", Align::Right),
    ("overhead", Align::Right),
    ("L1 ovh", Align::Right),
    ("wavefronts", Align::Right),
];

/// The per-access columns of a kernel: for SASS input (rows with an
/// offset) an `offset` column first and `line` (of the listing) for `PTX`.
pub(crate) fn access_columns(rows: &[AccessRow]) -> Vec<(&'static str, Align)> {
    if rows.iter().any(|r| r.sass_offset.is_some()) {
        let mut v = vec![("offset", Align::Right), ("line", Align::Right)];
        v.extend_from_slice(&ACCESS_COLUMNS[1..]);
        v
    } else {
        ACCESS_COLUMNS.to_vec()
    }
}

/// The cells of the accesses of one kernel, in [`access_columns`] order.
pub(crate) fn access_rows(rows: &[AccessRow]) -> Vec<Vec<String>> {
    let sass = rows.iter().any(|r| r.sass_offset.is_some());
    rows.iter()
        .map(|r| {
            let mut c = access_cells(r);
            if sass {
                c.insert(
                    0,
                    r.sass_offset
                        .map_or_else(|| "-".to_string(), |o| format!("{o:04x}")),
                );
            }
            c
        })
        .collect()
}

/// The cells of one access, in [`ACCESS_COLUMNS`] order.
pub(crate) fn access_cells(r: &AccessRow) -> Vec<String> {
    let mut pattern = r.pattern.as_str().to_string();
    if r.pattern == crate::analysis::Pattern::Strided {
        if let Some(s) = r.stride_bytes {
            pattern = format!("strided {s}B");
        }
    }
    vec![
        r.ptx_line.to_string(),
        r.cuda
            .as_ref()
            .map_or_else(|| "-".to_string(), |c| c.to_string()),
        r.instruction.clone(),
        r.space.as_str().to_string(),
        r.bits.to_string(),
        pattern,
        count(r.requests),
        fixed(r.lanes, 2),
        fixed(Some(r.l1_lines), 2),
        fixed(Some(r.sectors), 2),
        fixed(Some(r.ideal_sectors), 2),
        percent(r.efficiency),
        fixed(r.overhead, 2),
        fixed(r.l1_overhead, 2),
        fixed(r.shared_wavefronts, 2),
    ]
}

/// Lays rows out in space-separated columns (two spaces between columns, no
/// trailing spaces), each line prefixed by `indent`.
pub(crate) fn columns(indent: &str, header: &[(&str, Align)], rows: &[Vec<String>]) -> String {
    let n = header.len();
    let mut width: Vec<usize> = header.iter().map(|(h, _)| h.chars().count()).collect();
    for row in rows {
        for (i, cell) in row.iter().enumerate().take(n) {
            width[i] = width[i].max(cell.chars().count());
        }
    }
    let mut out = String::new();
    let head: Vec<String> = header.iter().map(|(h, _)| h.to_string()).collect();
    for row in std::iter::once(&head).chain(rows.iter()) {
        let mut line = String::from(indent);
        for (i, (_, align)) in header.iter().enumerate() {
            let cell = row.get(i).map(String::as_str).unwrap_or("");
            let pad = width[i].saturating_sub(cell.chars().count());
            if i > 0 {
                line.push_str("  ");
            }
            match align {
                Align::Left => {
                    line.push_str(cell);
                    line.push_str(&" ".repeat(pad));
                }
                Align::Right => {
                    line.push_str(&" ".repeat(pad));
                    line.push_str(cell);
                }
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// A Markdown pipe table (cells' `|` escaped).
pub(crate) fn markdown_table(header: &[(&str, Align)], rows: &[Vec<String>]) -> String {
    let esc = |s: &str| s.replace('|', "\\|");
    let mut out = String::from("|");
    for (h, _) in header {
        out.push_str(&format!(" {} |", esc(h)));
    }
    out.push_str("\n|");
    for (_, a) in header {
        out.push_str(match a {
            Align::Left => " --- |",
            Align::Right => " ---: |",
        });
    }
    out.push('\n');
    for row in rows {
        out.push('|');
        for i in 0..header.len() {
            out.push_str(&format!(
                " {} |",
                esc(row.get(i).map(String::as_str).unwrap_or(""))
            ));
        }
        out.push('\n');
    }
    out
}

/// `128x1x1`.
pub(crate) fn dim3(d: [u32; 3]) -> String {
    format!("{}x{}x{}", d[0], d[1], d[2])
}
