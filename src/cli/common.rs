//! Options and input handling shared by `check`, `report`, `parse` and `cfg`.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use warpscope::analysis::{Arch, LaunchConfig, ParamKey, ParamValue};
use warpscope::config::{ConfigSource, Overrides};
use warpscope::source::SourceFile;
use warpscope::triton::TritonMetadata;

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
    /// Value of a scalar kernel parameter, by index from 0 or by PTX name
    /// (repeatable); `INDEX+OFFSET=VALUE` gives the field at byte OFFSET of a
    /// by-value (struct) parameter. A `.f32`/`.f64` parameter takes a number
    /// (`beta=0`, `alpha=1.5`); fields take integers.
    #[arg(long = "param", value_name = "INDEX|NAME[+OFFSET]=VALUE", value_parser = parse_param)]
    pub params: Vec<(ParamKey, ParamValue)>,
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

    /// The launch facts and analysis knobs as configuration overrides.
    pub fn overrides(&self) -> Overrides {
        Overrides {
            levels: Vec::new(),
            kernel_filter: self.kernel.clone(),
            launch: self.launch(),
            arch: self.arch.map(|a| a.model),
            pointer_align: self.pointer_align,
        }
    }
}

/// Where the configuration comes from (`check` and `report`).
#[derive(clap::Args, Debug, Clone, Default)]
pub struct ConfigArgs {
    /// Use this configuration file instead of searching for warpscope.toml.
    #[arg(long, value_name = "FILE", conflicts_with = "no_config")]
    pub config: Option<PathBuf>,
    /// Ignore configuration files.
    #[arg(long)]
    pub no_config: bool,
}

impl ConfigArgs {
    /// The configuration source the flags ask for.
    pub fn source(&self) -> ConfigSource {
        match (&self.config, self.no_config) {
            (Some(p), _) => ConfigSource::File(p.clone()),
            (None, true) => ConfigSource::Defaults,
            (None, false) => ConfigSource::Discover,
        }
    }
}

/// How a subcommand reports the error it stops on: `error: …` on stderr,
/// exit code 2 (a usage or input error, as opposed to findings).
pub fn fail(msg: impl std::fmt::Display) -> super::ExitCode {
    eprintln!("error: {msg}");
    super::ExitCode::from(2)
}

/// The directory to search configuration from: the file's own, or the
/// current directory for stdin.
pub fn input_dir(path: &Path) -> PathBuf {
    if path.as_os_str() == "-" {
        return PathBuf::from(".");
    }
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Triton's metadata for a PTX file of its cache layout: `<kernel>.json`
/// beside `<kernel>.ptx`. `None` when there is no such file or it is not
/// Triton metadata (other JSON beside PTX files is left alone).
pub fn triton_metadata(ptx: &Path) -> Option<TritonMetadata> {
    if ptx.as_os_str() == "-" {
        return None;
    }
    let json = ptx.with_extension("json");
    let meta = std::fs::metadata(&json).ok()?;
    if !meta.is_file() || meta.len() > 1 << 20 {
        return None;
    }
    TritonMetadata::from_json(&std::fs::read_to_string(&json).ok()?).ok()
}

/// Largest CUDA or Python source read for snippets and suppressions.
const MAX_SOURCE_BYTES: u64 = 16 << 20;

/// Reads a regular file of at most [`MAX_SOURCE_BYTES`]: a `.file` name is
/// input, and `/dev/zero` or a FIFO must not hang the check.
fn read_source(path: &Path) -> Option<Vec<u8>> {
    let meta = std::fs::metadata(path).ok()?;
    if !meta.is_file() || meta.len() > MAX_SOURCE_BYTES {
        return None;
    }
    std::fs::read(path).ok()
}

/// Reads the sources that `.loc` names: an absolute name as is, a relative
/// one next to the PTX file, then from the current directory. Files that
/// cannot be read are left out (the renderer names them in a note instead
/// of quoting them, and their suppression comments are not seen).
pub fn read_sources<'a>(
    ptx: &Path,
    names: impl IntoIterator<Item = &'a String>,
) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for file in names {
        if out.contains_key(file) {
            continue;
        }
        let name = Path::new(file);
        let mut candidates = vec![];
        if name.is_absolute() {
            candidates.push(name.to_path_buf());
        } else {
            if ptx.as_os_str() != "-" {
                if let Some(dir) = ptx.parent() {
                    candidates.push(dir.join(name));
                }
            }
            candidates.push(name.to_path_buf());
        }
        if let Some(text) = candidates.iter().find_map(|c| read_source(c)) {
            out.insert(file.clone(), String::from_utf8_lossy(&text).into_owned());
        }
    }
    out
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

/// Parses `INDEX=VALUE` or `NAME=VALUE` (VALUE decimal or 0x hex, may be
/// negative, or a number with a fraction or exponent: `0.5`, `1e-3`). A key with a byte offset (`0+104`, a field of a by-value
/// parameter) is kept as a name; the launch resolution splits it.
pub fn parse_param(s: &str) -> Result<(ParamKey, ParamValue), String> {
    let (k, v) = s
        .split_once('=')
        .ok_or_else(|| format!("expected INDEX=VALUE or NAME=VALUE, got `{s}`"))?;
    let k = k.trim();
    let key = match k.parse::<usize>() {
        Ok(i) => ParamKey::Index(i),
        Err(_) if !k.is_empty() => ParamKey::Name(k.to_string()),
        Err(_) => return Err("empty parameter name".into()),
    };
    let v = v.trim();
    let value = match parse_int(v) {
        Some(i) => ParamValue::Int(i),
        None => match v.parse::<f64>() {
            Ok(f) if f.is_finite() => ParamValue::Float(f),
            _ => return Err(format!("`{v}` is not a number")),
        },
    };
    Ok((key, value))
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

/// The inputs one path gives, in order (`check`, `report` and `diff` call
/// this, so a path that holds several modules only needs to change it): a
/// text file (PTX or a SASS listing) is one input; a binary (cubin, fatbin,
/// object, shared library, executable) is one input per embedded PTX module
/// and, when `nvdisasm` is on `PATH`, one per SASS listing of the selected
/// architecture (`sm`, default the newest). What the user should know (no
/// disassembler, damage) is printed on stderr as notes.
pub fn inputs_of(path: &Path, sm: Option<u32>) -> Result<Vec<Input>, String> {
    let (display, bytes) = read_bytes(path)?;
    if !warpscope::binary::is_binary(&bytes) {
        let file = SourceFile::new(display.clone(), bytes).map_err(|e| e.to_string())?;
        return Ok(vec![Input { display, file }]);
    }
    let mut notes = Vec::new();
    let r = super::binary_input::inputs_of_binary(&display, &bytes, sm, &mut notes);
    for n in notes {
        eprintln!("note: {n}");
    }
    r
}

/// Reads one input (a path or `-`) as text (PTX or a SASS listing).
pub fn read_input(path: &Path) -> Result<Input, String> {
    let (display, bytes) = read_bytes(path)?;
    let file = SourceFile::new(display.clone(), bytes).map_err(|e| e.to_string())?;
    Ok(Input { display, file })
}

fn read_bytes(path: &Path) -> Result<(String, Vec<u8>), String> {
    // Read at most one byte past what a span can address, so a device such as
    // /dev/zero or a runaway pipe is refused instead of exhausting memory.
    const LIMIT: u64 = u32::MAX as u64 - 1;
    if path.as_os_str() == "-" {
        let mut buf = Vec::new();
        std::io::stdin()
            .take(LIMIT + 1)
            .read_to_end(&mut buf)
            .map_err(|e| format!("<stdin>: {e}"))?;
        return Ok(("<stdin>".to_string(), buf));
    }
    let shown = path.display().to_string();
    let meta = std::fs::metadata(path).map_err(|e| format!("{shown}: {e}"))?;
    if !meta.is_file() {
        return Err(format!("{shown}: not a regular file"));
    }
    if meta.len() > LIMIT {
        // Refused before reading: nothing is allocated for it.
        return Err(format!(
            "{shown}: file of {} bytes is larger than the 4 GiB warpscope can address",
            meta.len()
        ));
    }
    // Sized from the metadata: grown by doubling, the buffer of a 60 MB
    // file was copied into one of 67 MB, both alive for the copy.
    let mut buf = Vec::with_capacity(meta.len() as usize);
    std::fs::File::open(path)
        .and_then(|f| f.take(LIMIT + 1).read_to_end(&mut buf))
        .map_err(|e| format!("{shown}: {e}"))?;
    Ok((shown, buf))
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
        assert_eq!(
            parse_param("2=10").unwrap(),
            (ParamKey::Index(2), 10.into())
        );
        assert_eq!(
            parse_param("n=-0x10").unwrap(),
            (ParamKey::Name("n".into()), (-16).into())
        );
        assert_eq!(
            parse_param("beta=0.5").unwrap(),
            (ParamKey::Name("beta".into()), ParamValue::Float(0.5))
        );
        assert_eq!(parse_param("3=1e-3").unwrap().1, ParamValue::Float(1e-3));
        assert!(parse_param("n").is_err());
        assert!(parse_param("n=abc").is_err());
        assert!(parse_param("n=inf").is_err());
    }
}

/// What writing to standard output came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Written {
    /// Everything was written.
    All,
    /// The reader went away (`warpscope rules | head`): a normal end, the
    /// caller stops writing and succeeds.
    Closed,
}

/// Writes `text` to standard output and flushes it. A closed pipe is not an
/// error ([`Written::Closed`]); other write errors are returned.
pub fn write_stdout(text: &str) -> std::io::Result<Written> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(Written::All),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(Written::Closed),
        Err(e) => Err(e),
    }
}

/// [`write_stdout`] for a command's whole output: its exit status (0 for a
/// closed pipe, 2 with a message for another write error).
pub fn emit(text: &str) -> super::ExitCode {
    match write_stdout(text) {
        Ok(_) => super::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: writing the output: {e}");
            super::ExitCode::from(2)
        }
    }
}
