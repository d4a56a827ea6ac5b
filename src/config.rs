//! Configuration: `warpscope.toml`, or `[tool.warpscope]` in `pyproject.toml`.
//!
//! [`Config::discover`] walks from a directory upward and takes the first
//! `warpscope.toml`, or the first `pyproject.toml` that has a
//! `[tool.warpscope]` table (a `pyproject.toml` without one is skipped). The
//! format is documented in `docs/config.md`:
//!
//! ```toml
//! arch = "sm90"            # sm60 (Pascal) or sm70 and later
//! pointer-align = 256      # bytes assumed for pointer parameters
//!
//! [lints]                  # by name or code: allow | warn | deny
//! uncoalesced-access = "deny"
//! W103 = "allow"
//! warnings = "deny"        # every remaining warning is an error
//!
//! [thresholds]
//! uncoalesced-factor = 2.0
//!
//! [launch]                 # defaults for every kernel
//! block = [256]
//!
//! [[kernel]]               # per kernel, by glob on the mangled or demangled name
//! match = "transpose*"
//! block = [32, 8]
//! grid = [64, 64]
//! params = { 2 = 2048, 3 = 1 }
//! allow = ["uncoalesced-access"]   # rules allowed in these kernels
//! ```
//!
//! Unknown keys and wrong types are errors whose [`ConfigError::span`] points
//! at the key or value in the file (the `toml` crate's serde errors carry
//! spans).

use crate::analysis::model::{Arch, LaunchConfig, Options, ParamKey, ParamValue};
use crate::lints::{find_rule, Level};
use crate::source::Span;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use toml::Spanned;

/// Thresholds of the lints.
#[derive(Clone, Debug, PartialEq)]
pub struct Thresholds {
    /// `uncoalesced-access` fires when sectors per request exceed the ideal
    /// times this factor.
    pub uncoalesced_factor: f64,
}

impl Default for Thresholds {
    fn default() -> Thresholds {
        Thresholds {
            uncoalesced_factor: 1.5,
        }
    }
}

/// Everything that configures a check: lint levels, thresholds, and the
/// analysis options (arch, pointer alignment, launch configurations).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Config {
    /// Level overrides by rule code.
    pub levels: BTreeMap<&'static str, Level>,
    /// Lint thresholds.
    pub thresholds: Thresholds,
    /// Analysis options.
    pub options: Options,
    /// Every `warn` becomes `deny` (`-D warnings`).
    pub deny_warnings: bool,
    /// Every `warn` becomes `allow` (`-A warnings`).
    pub allow_warnings: bool,
    /// Rules allowed per kernel (`[[kernel]] allow = [...]`): the glob on
    /// the mangled or demangled name, and rule codes.
    pub kernel_allows: Vec<(String, Vec<&'static str>)>,
}

/// A configuration file that could not be read or understood.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{path}: {message}")]
pub struct ConfigError {
    /// The file, as found.
    pub path: PathBuf,
    /// Its text (empty when it could not be read), for rendering the span.
    pub text: String,
    /// Where in the text, when known.
    pub span: Option<Span>,
    /// What is wrong.
    pub message: String,
}

impl Config {
    /// The level of a rule: its override, else `default`; `deny_warnings`
    /// (`allow_warnings`) turns a resulting `warn` into `deny` (`allow`).
    pub fn level_of(&self, code: &str, default: Level) -> Level {
        let level = self.levels.get(code).copied().unwrap_or(default);
        match level {
            Level::Warn if self.deny_warnings => Level::Deny,
            Level::Warn if self.allow_warnings => Level::Allow,
            l => l,
        }
    }

    /// The rule codes allowed for a kernel by `[[kernel]] allow = [...]`.
    pub fn kernel_allows<'a>(
        &'a self,
        name: &'a str,
        demangled: &'a str,
    ) -> impl Iterator<Item = &'static str> + 'a {
        self.kernel_allows
            .iter()
            .filter(move |(glob, _)| {
                globset::Glob::new(glob)
                    .map(|g| {
                        let m = g.compile_matcher();
                        m.is_match(name) || m.is_match(demangled)
                    })
                    .unwrap_or(false)
            })
            .flat_map(|(_, codes)| codes.iter().copied())
    }

    /// Sets the level of a rule named by code or name. The name `warnings`
    /// stands for every rule whose level ends up `warn`: `deny` sets
    /// [`Config::deny_warnings`], `allow` sets [`Config::allow_warnings`],
    /// `warn` clears both.
    pub fn set_level(&mut self, code_or_name: &str, level: Level) -> Result<(), String> {
        if code_or_name == "warnings" {
            self.deny_warnings = level == Level::Deny;
            self.allow_warnings = level == Level::Allow;
            return Ok(());
        }
        let rule = find_rule(code_or_name).ok_or_else(|| {
            format!("unknown lint `{code_or_name}` (`warpscope rules` lists them)")
        })?;
        self.levels.insert(rule.code, level);
        Ok(())
    }

    /// Finds the configuration for files in `start_dir`: the first
    /// `warpscope.toml`, or `pyproject.toml` with `[tool.warpscope]`, from
    /// `start_dir` upward. `Ok(None)` when there is none.
    pub fn discover(start_dir: &Path) -> Result<Option<(PathBuf, Config)>, ConfigError> {
        let abs = std::path::absolute(start_dir).unwrap_or_else(|_| start_dir.to_path_buf());
        for dir in abs.ancestors() {
            let w = dir.join("warpscope.toml");
            if w.is_file() {
                let c = Config::from_file(&w)?.unwrap_or_default();
                return Ok(Some((w, c)));
            }
            let p = dir.join("pyproject.toml");
            if p.is_file() {
                if let Some(c) = Config::from_file(&p)? {
                    return Ok(Some((p, c)));
                }
            }
        }
        Ok(None)
    }

    /// Reads a `warpscope.toml` or a `pyproject.toml` (by file name); `None`
    /// for a `pyproject.toml` without `[tool.warpscope]`.
    pub fn from_file(path: &Path) -> Result<Option<Config>, ConfigError> {
        let fail = |message: String| ConfigError {
            path: path.to_path_buf(),
            text: String::new(),
            span: None,
            message,
        };
        match std::fs::metadata(path) {
            Ok(m) if !m.is_file() => return Err(fail("not a regular file".into())),
            Ok(m) if m.len() > 1 << 20 => {
                return Err(fail("larger than 1 MiB: not a configuration file".into()))
            }
            _ => {}
        }
        let text = std::fs::read_to_string(path).map_err(|e| fail(e.to_string()))?;
        if path.file_name().is_some_and(|n| n == "pyproject.toml") {
            Config::from_pyproject(path, &text)
        } else {
            Config::from_toml(path, &text).map(Some)
        }
    }

    /// Parses the text of a `warpscope.toml`.
    pub fn from_toml(path: &Path, text: &str) -> Result<Config, ConfigError> {
        let raw: RawConfig = toml::from_str(text).map_err(|e| de_error(path, text, e))?;
        raw.into_config(path, text)
    }

    /// Parses the text of a `pyproject.toml`; `None` without `[tool.warpscope]`.
    pub fn from_pyproject(path: &Path, text: &str) -> Result<Option<Config>, ConfigError> {
        let raw: Pyproject = toml::from_str(text).map_err(|e| de_error(path, text, e))?;
        match raw.tool.and_then(|t| t.warpscope) {
            Some(raw) => raw.into_config(path, text).map(Some),
            None => Ok(None),
        }
    }
}

/// Where an input's configuration comes from.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum ConfigSource {
    /// Search from the input's directory upward ([`Config::discover`]).
    #[default]
    Discover,
    /// This file (`--config FILE`).
    File(PathBuf),
    /// No file: the defaults (`--no-config`).
    Defaults,
}

/// Settings given beside the configuration file (command-line flags, the
/// Python module's keyword arguments), applied on top of it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Overrides {
    /// Lint levels by code or name, in order (`-A`/`-W`/`-D`; `warnings`
    /// stands for every warning, as in [`Config::set_level`]).
    pub levels: Vec<(String, Level)>,
    /// Only kernels whose name matches this glob.
    pub kernel_filter: Option<String>,
    /// Block and grid replace the file's `[launch]`; parameters are added.
    pub launch: LaunchConfig,
    /// Memory model.
    pub arch: Option<Arch>,
    /// Alignment assumed for pointer parameters (a power of two).
    pub pointer_align: Option<u32>,
}

impl Overrides {
    /// Applies the overrides to a configuration read from a file (or the
    /// defaults). Errors name the offending setting.
    pub fn apply(&self, mut c: Config) -> Result<Config, String> {
        for (name, level) in &self.levels {
            c.set_level(name, *level)?;
        }
        if let Some(k) = &self.kernel_filter {
            globset::Glob::new(k).map_err(|e| format!("kernel glob `{k}`: {}", e.kind()))?;
            c.options.kernel_filter = Some(k.clone());
        }
        if self.launch.block.is_some() {
            c.options.launch.block = self.launch.block;
        }
        if self.launch.grid.is_some() {
            c.options.launch.grid = self.launch.grid;
        }
        c.options
            .launch
            .params
            .extend(self.launch.params.iter().cloned());
        if let Some(arch) = self.arch {
            c.options.arch = arch;
        }
        if let Some(p) = self.pointer_align {
            if p == 0 || !p.is_power_of_two() {
                return Err(format!("pointer alignment must be a power of two, got {p}"));
            }
            c.options.pointer_align = p;
        }
        Ok(c)
    }
}

/// Why no configuration could be made for an input.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ResolveError {
    /// The configuration file is unreadable or invalid (with its span).
    #[error(transparent)]
    File(#[from] ConfigError),
    /// An override is invalid (unknown lint, bad glob, ...).
    #[error("{0}")]
    Override(String),
}

/// The configuration in force for one input, and the file it came from.
#[derive(Clone, Debug, PartialEq)]
pub struct Resolved {
    /// The file that was read, if any.
    pub path: Option<PathBuf>,
    /// The configuration, overrides applied.
    pub config: Config,
}

/// The configuration for an input in `input_dir`: the file `source` names
/// (or the one discovered from `input_dir` upward, or none), with
/// `overrides` applied on top.
///
/// This is the one place where configuration is assembled: `warpscope
/// check`, `warpscope report`, the language server and the Python module all
/// call it (through [`Resolver`] when they have many inputs), so the same
/// `warpscope.toml` means the same thing everywhere.
pub fn resolve(
    source: &ConfigSource,
    input_dir: &Path,
    overrides: &Overrides,
) -> Result<Resolved, ResolveError> {
    let (path, base) = match source {
        ConfigSource::Defaults => (None, Config::default()),
        ConfigSource::File(path) => match Config::from_file(path)? {
            Some(c) => (Some(path.clone()), c),
            None => {
                return Err(ResolveError::File(ConfigError {
                    path: path.clone(),
                    text: String::new(),
                    span: None,
                    message: "no [tool.warpscope] table".into(),
                }))
            }
        },
        ConfigSource::Discover => match Config::discover(input_dir)? {
            Some((p, c)) => (Some(p), c),
            None => (None, Config::default()),
        },
    };
    let config = overrides.apply(base).map_err(ResolveError::Override)?;
    Ok(Resolved { path, config })
}

/// [`resolve`] for many inputs: remembers the result per directory, so a
/// directory tree of thousands of files reads each configuration file once.
#[derive(Debug, Default)]
pub struct Resolver {
    source: ConfigSource,
    overrides: Overrides,
    by_dir: std::collections::HashMap<PathBuf, Resolved>,
}

impl Resolver {
    /// A resolver for this source and these overrides.
    pub fn new(source: ConfigSource, overrides: Overrides) -> Resolver {
        Resolver {
            source,
            overrides,
            by_dir: Default::default(),
        }
    }

    /// The configuration for an input in `input_dir` (see [`resolve`]).
    pub fn for_dir(&mut self, input_dir: &Path) -> Result<Resolved, ResolveError> {
        // Only discovery depends on the directory.
        let key = match self.source {
            ConfigSource::Discover => input_dir.to_path_buf(),
            _ => PathBuf::new(),
        };
        if let Some(r) = self.by_dir.get(&key) {
            return Ok(r.clone());
        }
        let r = resolve(&self.source, input_dir, &self.overrides)?;
        self.by_dir.insert(key, r.clone());
        Ok(r)
    }
}

fn de_error(path: &Path, text: &str, e: toml::de::Error) -> ConfigError {
    ConfigError {
        path: path.to_path_buf(),
        text: text.to_string(),
        span: e.span().map(|r| Span::new(r.start as u32, r.end as u32)),
        message: e.message().trim().to_string(),
    }
}

#[derive(Deserialize)]
struct Pyproject {
    tool: Option<PyTool>,
}

#[derive(Deserialize)]
struct PyTool {
    warpscope: Option<RawConfig>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawConfig {
    arch: Option<Spanned<String>>,
    pointer_align: Option<Spanned<u32>>,
    lints: Option<BTreeMap<Spanned<String>, Level>>,
    thresholds: Option<RawThresholds>,
    launch: Option<RawLaunch>,
    kernel: Option<Vec<RawKernel>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawThresholds {
    uncoalesced_factor: Option<Spanned<f64>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLaunch {
    block: Option<Spanned<Vec<u32>>>,
    grid: Option<Spanned<Vec<u32>>>,
    params: Option<BTreeMap<Spanned<String>, ParamValue>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawKernel {
    #[serde(rename = "match")]
    pattern: Spanned<String>,
    block: Option<Spanned<Vec<u32>>>,
    grid: Option<Spanned<Vec<u32>>>,
    params: Option<BTreeMap<Spanned<String>, ParamValue>>,
    allow: Option<Vec<Spanned<String>>>,
}

struct Ctx<'a> {
    path: &'a Path,
    text: &'a str,
}

impl Ctx<'_> {
    fn err<T>(
        &self,
        span: std::ops::Range<usize>,
        message: impl Into<String>,
    ) -> Result<T, ConfigError> {
        Err(ConfigError {
            path: self.path.to_path_buf(),
            text: self.text.to_string(),
            span: Some(Span::new(span.start as u32, span.end as u32)),
            message: message.into(),
        })
    }

    fn dim3(&self, v: &Option<Spanned<Vec<u32>>>) -> Result<Option<[u32; 3]>, ConfigError> {
        let Some(v) = v else { return Ok(None) };
        let dims = v.get_ref();
        if dims.is_empty() || dims.len() > 3 {
            return self.err(
                v.span(),
                "expected 1 to 3 dimensions, such as [256] or [32, 8]",
            );
        }
        if dims.contains(&0) {
            return self.err(v.span(), "dimensions must be at least 1");
        }
        let mut d = [1u32; 3];
        d[..dims.len()].copy_from_slice(dims);
        Ok(Some(d))
    }

    fn params(
        &self,
        p: &Option<BTreeMap<Spanned<String>, ParamValue>>,
    ) -> Vec<(ParamKey, ParamValue)> {
        let Some(p) = p else { return Vec::new() };
        p.iter()
            .map(|(k, &v)| {
                let k = k.get_ref();
                let key = match k.parse::<usize>() {
                    Ok(i) => ParamKey::Index(i),
                    Err(_) => ParamKey::Name(k.clone()),
                };
                (key, v)
            })
            .collect()
    }

    fn launch(
        &self,
        block: &Option<Spanned<Vec<u32>>>,
        grid: &Option<Spanned<Vec<u32>>>,
        params: &Option<BTreeMap<Spanned<String>, ParamValue>>,
    ) -> Result<LaunchConfig, ConfigError> {
        Ok(LaunchConfig {
            block: self.dim3(block)?,
            grid: self.dim3(grid)?,
            params: self.params(params),
        })
    }
}

/// Parses an architecture name: `sm60`/`sm_61`/`pascal` or any later `sm_XX`.
pub fn parse_arch(s: &str) -> Option<Arch> {
    let t = s.to_ascii_lowercase().replace('_', "");
    match t.as_str() {
        "sm60" | "sm61" | "sm62" | "pascal" => Some(Arch::Sm60),
        "volta" | "turing" | "ampere" | "ada" | "hopper" | "blackwell" => Some(Arch::Sm70),
        _ => {
            let n: u32 = t
                .strip_prefix("sm")?
                .trim_end_matches(['a', 'f'])
                .parse()
                .ok()?;
            (n >= 70).then_some(Arch::Sm70)
        }
    }
}

impl RawConfig {
    fn into_config(self, path: &Path, text: &str) -> Result<Config, ConfigError> {
        let cx = Ctx { path, text };
        let mut c = Config::default();
        if let Some(a) = &self.arch {
            c.options.arch = match parse_arch(a.get_ref()) {
                Some(arch) => arch,
                None => {
                    return cx.err(
                        a.span(),
                        format!(
                            "unknown architecture `{}`: expected sm60 or sm70 (or any later sm_XX)",
                            a.get_ref()
                        ),
                    )
                }
            };
        }
        if let Some(p) = &self.pointer_align {
            let v = *p.get_ref();
            if v == 0 || !v.is_power_of_two() {
                return cx.err(
                    p.span(),
                    format!("pointer-align must be a power of two, got {v}"),
                );
            }
            c.options.pointer_align = v;
        }
        if let Some(lints) = &self.lints {
            for (name, &level) in lints {
                if let Err(msg) = c.set_level(name.get_ref(), level) {
                    return cx.err(name.span(), msg);
                }
            }
        }
        if let Some(t) = &self.thresholds {
            if let Some(f) = &t.uncoalesced_factor {
                let v = *f.get_ref();
                if !(v.is_finite() && v >= 1.0) {
                    return cx.err(
                        f.span(),
                        format!("uncoalesced-factor must be at least 1.0, got {v}"),
                    );
                }
                c.thresholds.uncoalesced_factor = v;
            }
        }
        if let Some(l) = &self.launch {
            c.options.launch = cx.launch(&l.block, &l.grid, &l.params)?;
        }
        for k in self.kernel.iter().flatten() {
            if let Err(e) = globset::Glob::new(k.pattern.get_ref()) {
                return cx.err(k.pattern.span(), format!("invalid glob: {}", e.kind()));
            }
            // An entry with only `allow` sets no launch facts: it must not
            // shadow a later entry's (the first matching entry wins).
            if k.block.is_some() || k.grid.is_some() || k.params.is_some() {
                c.options.kernels.push((
                    k.pattern.get_ref().clone(),
                    cx.launch(&k.block, &k.grid, &k.params)?,
                ));
            }
            if let Some(allow) = &k.allow {
                let mut codes = Vec::new();
                for r in allow {
                    match find_rule(r.get_ref()) {
                        Some(rule) => codes.push(rule.code),
                        None => {
                            return cx.err(
                                r.span(),
                                format!(
                                    "unknown rule `{}` (`warpscope rules` lists them)",
                                    r.get_ref()
                                ),
                            )
                        }
                    }
                }
                c.kernel_allows.push((k.pattern.get_ref().clone(), codes));
            }
        }
        Ok(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Config, ConfigError> {
        Config::from_toml(Path::new("warpscope.toml"), text)
    }

    #[test]
    fn full_example_parses() {
        let c = parse(
            r#"
arch = "sm_90a"
pointer-align = 16
[lints]
uncoalesced-access = "deny"
W103 = "allow"
[thresholds]
uncoalesced-factor = 2.0
[launch]
block = [256]
[[kernel]]
match = "transpose*"
block = [32, 8]
grid = [64, 64]
params = { transpose_param_2 = 2048, 3 = 1 }
"#,
        )
        .unwrap();
        assert_eq!(c.options.arch, Arch::Sm70);
        assert_eq!(c.options.pointer_align, 16);
        assert_eq!(c.levels.get("W101"), Some(&Level::Deny));
        assert_eq!(c.levels.get("W103"), Some(&Level::Allow));
        assert_eq!(c.thresholds.uncoalesced_factor, 2.0);
        assert_eq!(c.options.launch.block, Some([256, 1, 1]));
        let (glob, l) = &c.options.kernels[0];
        assert_eq!(glob, "transpose*");
        assert_eq!(l.block, Some([32, 8, 1]));
        assert_eq!(
            l.params,
            vec![
                (ParamKey::Index(3), 1.into()),
                (ParamKey::Name("transpose_param_2".into()), 2048.into())
            ]
        );
    }

    #[test]
    fn kernel_allow_lists_rules_without_shadowing_launch_facts() {
        let c = parse(
            "[[kernel]]\nmatch = \"trans*\"\nallow = [\"uncoalesced-access\", \"W103\"]\n[[kernel]]\nmatch = \"transpose\"\nblock = [64]\n",
        )
        .unwrap();
        assert_eq!(
            c.kernel_allows("transpose", "transpose")
                .collect::<Vec<_>>(),
            vec!["W101", "W103"]
        );
        assert_eq!(c.kernel_allows("copy", "copy").count(), 0);
        assert_eq!(
            c.options.kernels.len(),
            1,
            "allow-only entry sets no launch"
        );
        let text = "[[kernel]]\nmatch = \"k\"\nallow = [\"uncoalesced\"]\n";
        let e = parse(text).unwrap_err();
        assert_eq!(&text[e.span.unwrap().range()], "\"uncoalesced\"");
    }

    #[test]
    fn resolve_applies_overrides_on_the_file() {
        let dir = std::env::temp_dir().join(format!("warpscope-resolve-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        std::fs::write(
            dir.join("warpscope.toml"),
            "[launch]\nblock = [128]\ngrid = [4]\n",
        )
        .unwrap();
        let none = Overrides::default();
        let r = resolve(&ConfigSource::Discover, &dir.join("sub"), &none).unwrap();
        assert_eq!(
            r.path.as_deref(),
            Some(dir.join("warpscope.toml").as_path())
        );
        assert_eq!(r.config.options.launch.block, Some([128, 1, 1]));
        let o = Overrides {
            launch: LaunchConfig {
                block: Some([64, 1, 1]),
                ..LaunchConfig::default()
            },
            levels: vec![("narrow-access".into(), Level::Deny)],
            ..Overrides::default()
        };
        let r = resolve(&ConfigSource::Discover, &dir, &o).unwrap();
        assert_eq!(r.config.options.launch.block, Some([64, 1, 1]));
        assert_eq!(
            r.config.options.launch.grid,
            Some([4, 1, 1]),
            "kept from the file"
        );
        assert_eq!(r.config.levels.get("W103"), Some(&Level::Deny));
        let r = resolve(&ConfigSource::Defaults, &dir, &none).unwrap();
        assert_eq!((r.path, r.config), (None, Config::default()));
        let bad = Overrides {
            levels: vec![("nope".into(), Level::Deny)],
            ..Overrides::default()
        };
        assert!(matches!(
            resolve(&ConfigSource::Defaults, &dir, &bad),
            Err(ResolveError::Override(_))
        ));
        let mut cached = Resolver::new(ConfigSource::Discover, none);
        assert_eq!(
            cached.for_dir(&dir).unwrap().config.options.launch.block,
            Some([128, 1, 1])
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn unknown_key_points_at_it() {
        let text = "arch = \"sm70\"\nblok = 3\n";
        let e = parse(text).unwrap_err();
        assert!(e.message.contains("unknown field `blok`"), "{}", e.message);
        assert_eq!(&text[e.span.unwrap().range()], "blok");
    }

    #[test]
    fn unknown_lint_points_at_its_key() {
        let text = "[lints]\nuncoalesced = \"deny\"\n";
        let e = parse(text).unwrap_err();
        assert_eq!(&text[e.span.unwrap().range()], "uncoalesced");
    }

    #[test]
    fn wrong_type_points_at_value() {
        let text = "pointer-align = \"big\"\n";
        let e = parse(text).unwrap_err();
        assert_eq!(&text[e.span.unwrap().range()], "\"big\"");
        let text = "[lints]\nnarrow-access = \"error\"\n";
        let e = parse(text).unwrap_err();
        assert!(
            e.message.contains("unknown variant `error`"),
            "{}",
            e.message
        );
    }

    #[test]
    fn pyproject_without_table_is_none() {
        let p = Path::new("pyproject.toml");
        assert_eq!(
            Config::from_pyproject(p, "[project]\nname = \"x\"\n").unwrap(),
            None
        );
        let c = Config::from_pyproject(p, "[tool.warpscope.lints]\nnarrow-access = \"allow\"\n")
            .unwrap()
            .unwrap();
        assert_eq!(c.levels.get("W103"), Some(&Level::Allow));
        let text = "[tool.warpscope]\nbogus = 1\n";
        let e = Config::from_pyproject(p, text).unwrap_err();
        assert_eq!(&text[e.span.unwrap().range()], "bogus");
    }

    #[test]
    fn deny_warnings_escalates_warn_only() {
        let mut c = Config::default();
        c.set_level("warnings", Level::Deny).unwrap();
        assert_eq!(c.level_of("W101", Level::Warn), Level::Deny);
        assert_eq!(c.level_of("W101", Level::Allow), Level::Allow);
        c.set_level("warnings", Level::Allow).unwrap();
        assert_eq!(c.level_of("W101", Level::Warn), Level::Allow);
        assert_eq!(c.level_of("E0001", Level::Deny), Level::Deny);
        c.set_level("warnings", Level::Warn).unwrap();
        assert_eq!(c.level_of("W101", Level::Warn), Level::Warn);
    }
}
