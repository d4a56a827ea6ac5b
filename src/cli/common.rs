//! Options and input handling shared by `check`, `report`, `parse` and `cfg`.

use std::io::Read;
use std::path::{Path, PathBuf};
use warpscope::analysis::{Arch, LaunchConfig, ParamKey};
use warpscope::source::SourceFile;

/// Launch facts and analysis knobs given on the command line.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct LaunchArgs {
    /// Only kernels whose mangled or demangled name matches this glob.
    #[arg(long, value_name = "GLOB")]
    pub kernel: Option<String>,
    /// Threads per block: X[,Y[,Z]].
    #[arg(long, value_name = "X[,Y[,Z]]", value_parser = parse_dim3)]
    pub block: Option<[u32; 3]>,
    /// Blocks per grid: X[,Y[,Z]].
    #[arg(long, value_name = "X[,Y[,Z]]", value_parser = parse_dim3)]
    pub grid: Option<[u32; 3]>,
    /// Value of a scalar kernel parameter, by index from 0 or by PTX name (repeatable).
    #[arg(long = "param", value_name = "INDEX|NAME=VALUE", value_parser = parse_param)]
    pub params: Vec<(ParamKey, i64)>,
    /// Architecture: the memory model (sm60 Pascal: global loads cached in L2
    /// only; sm70 and later) and, for binaries, which embedded code to analyse
    /// (sm_90: the sm_90 SASS and the newest PTX not above it; default: the
    /// newest architecture in the file).
    #[arg(long, value_parser = parse_arch_arg, value_name = "sm_XX")]
    pub arch: Option<ArchArg>,
    /// Alignment assumed for pointer parameters, in bytes (default 256, what cudaMalloc gives).
    #[arg(long, value_name = "BYTES")]
    pub pointer_align: Option<u32>,
}

impl LaunchArgs {
    /// The command line's launch facts.
    pub fn launch(&self) -> LaunchConfig {
        LaunchConfig {
            block: self.block,
            grid: self.grid,
            params: self.params.clone(),
        }
    }
}

/// Parses `X`, `X,Y` or `X,Y,Z` (missing dimensions are 1).
pub fn parse_dim3(s: &str) -> Result<[u32; 3], String> {
    let parts: Vec<&str> = s.split([',', 'x']).map(str::trim).collect();
    if parts.is_empty() || parts.len() > 3 {
        return Err(format!("expected X[,Y[,Z]], got `{s}`"));
    }
    let mut d = [1u32; 3];
    for (i, p) in parts.iter().enumerate() {
        d[i] = p
            .parse()
            .map_err(|_| format!("`{p}` is not a positive integer"))?;
        if d[i] == 0 {
            return Err("dimensions must be at least 1".into());
        }
    }
    Ok(d)
}

/// Parses `INDEX=VALUE` or `NAME=VALUE` (VALUE decimal or 0x hex, may be negative).
pub fn parse_param(s: &str) -> Result<(ParamKey, i64), String> {
    let (k, v) = s
        .split_once('=')
        .ok_or_else(|| format!("expected INDEX=VALUE or NAME=VALUE, got `{s}`"))?;
    let k = k.trim();
    let key = match k.parse::<usize>() {
        Ok(i) => ParamKey::Index(i),
        Err(_) if !k.is_empty() => ParamKey::Name(k.to_string()),
        Err(_) => return Err("empty parameter name".into()),
    };
    Ok((
        key,
        parse_int(v.trim()).ok_or_else(|| format!("`{v}` is not an integer"))?,
    ))
}

fn parse_int(v: &str) -> Option<i64> {
    let (neg, body) = match v.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, v),
    };
    let n = match body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        Some(h) => i64::from_str_radix(h, 16).ok()?,
        None => body.parse::<i64>().ok()?,
    };
    Some(if neg { -n } else { n })
}

/// `--arch`: the memory model and the architecture number, when one was named.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArchArg {
    /// The memory model.
    pub model: Arch,
    /// `90` for `sm_90`/`sm90a`; `None` for family names (`hopper`).
    pub sm: Option<u32>,
}

/// Parses `--arch`: an `sm_XX` name or a family name.
pub fn parse_arch_arg(s: &str) -> Result<ArchArg, String> {
    let model = parse_arch(s)?;
    Ok(ArchArg {
        model,
        sm: warpscope::sass::ast::sm_number(s),
    })
}

/// Parses `sm70`/`sm_70`/`volta`/... and `sm60`/`pascal`.
pub fn parse_arch(s: &str) -> Result<Arch, String> {
    let t = s.to_ascii_lowercase().replace('_', "");
    match t.as_str() {
        "sm60" | "sm61" | "sm62" | "pascal" => Ok(Arch::Sm60),
        "sm70" | "sm72" | "sm75" | "sm80" | "sm86" | "sm87" | "sm89" | "sm90" | "sm90a"
        | "sm100" | "sm100a" | "sm100f" | "sm101" | "sm103" | "sm110" | "sm120" | "sm120a"
        | "sm121" | "volta" | "turing" | "ampere" | "ada" | "hopper" | "blackwell" => {
            Ok(Arch::Sm70)
        }
        _ => Err(format!(
            "unknown architecture `{s}`: expected sm60 or sm70 (or any later sm_XX)"
        )),
    }
}

/// An input read from disk or stdin.
pub struct Input {
    /// Path as shown to the user (`<stdin>` for `-`).
    pub display: String,
    /// The file.
    pub file: SourceFile,
}

/// Expands paths (files, directories searched recursively for `*.ptx`,
/// `*.sass`, `*.cubin` and `*.fatbin`, `-` for stdin) into a sorted list of
/// files. Errors name the path.
pub fn expand_paths(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    for p in paths {
        if p.as_os_str() == "-" {
            out.push(p.clone());
        } else if p.is_dir() {
            let mut found = Vec::new();
            walk(p, &mut found).map_err(|e| format!("{}: {e}", p.display()))?;
            found.sort();
            out.extend(found);
        } else if p.exists() {
            out.push(p.clone());
        } else {
            return Err(format!("{}: no such file or directory", p.display()));
        }
    }
    Ok(out)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let ty = entry.file_type()?;
        let path = entry.path();
        if ty.is_dir() {
            walk(&path, out)?;
        } else if ty.is_file()
            && path
                .extension()
                .is_some_and(|e| e == "ptx" || e == "sass" || e == "cubin" || e == "fatbin")
        {
            out.push(path);
        }
    }
    Ok(())
}

/// Reads one input (a path or `-`) as text (PTX or a SASS listing).
pub fn read_input(path: &Path) -> Result<Input, String> {
    let (display, bytes) = read_bytes(path)?;
    let file = SourceFile::new(display.clone(), bytes).map_err(|e| e.to_string())?;
    Ok(Input { display, file })
}

/// Reads one input (a path or `-`): a text file is one input; a binary
/// (cubin, fatbin, object, shared library, executable) becomes one input per
/// embedded PTX module and, when `nvdisasm` is on `PATH`, one per SASS
/// listing of the selected architecture (`--arch`, default the newest).
/// `notes` receives what the user should know (no `nvdisasm`, damage).
pub fn read_inputs(
    path: &Path,
    arch: Option<u32>,
    notes: &mut Vec<String>,
) -> Result<Vec<Input>, String> {
    let (display, bytes) = read_bytes(path)?;
    if !warpscope::binary::is_binary(&bytes) {
        let file = SourceFile::new(display.clone(), bytes).map_err(|e| e.to_string())?;
        return Ok(vec![Input { display, file }]);
    }
    super::binary_input::inputs_of_binary(&display, &bytes, arch, notes)
}

fn read_bytes(path: &Path) -> Result<(String, Vec<u8>), String> {
    // Read at most one byte past what a span can address, so a device such as
    // /dev/zero or a runaway pipe is refused instead of exhausting memory.
    const LIMIT: u64 = u32::MAX as u64 - 1;
    let (display, bytes) = if path.as_os_str() == "-" {
        let mut buf = Vec::new();
        std::io::stdin()
            .take(LIMIT + 1)
            .read_to_end(&mut buf)
            .map_err(|e| format!("<stdin>: {e}"))?;
        ("<stdin>".to_string(), buf)
    } else {
        let shown = path.display().to_string();
        let meta = std::fs::metadata(path).map_err(|e| format!("{shown}: {e}"))?;
        if !meta.is_file() {
            return Err(format!("{shown}: not a regular file"));
        }
        let mut buf = Vec::new();
        std::fs::File::open(path)
            .and_then(|f| f.take(LIMIT + 1).read_to_end(&mut buf))
            .map_err(|e| format!("{shown}: {e}"))?;
        (shown, buf)
    };
    Ok((display, bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dim3_fills_missing_dimensions() {
        assert_eq!(parse_dim3("16,16").unwrap(), [16, 16, 1]);
        assert_eq!(parse_dim3("256").unwrap(), [256, 1, 1]);
        assert!(parse_dim3("0").is_err());
        assert!(parse_dim3("1,2,3,4").is_err());
    }

    #[test]
    fn params_by_index_or_name() {
        assert_eq!(parse_param("2=10").unwrap(), (ParamKey::Index(2), 10));
        assert_eq!(
            parse_param("n=-0x10").unwrap(),
            (ParamKey::Name("n".into()), -16)
        );
        assert!(parse_param("n").is_err());
    }
}
