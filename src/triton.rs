//! Triton's metadata as launch facts.
//!
//! Triton compiles each kernel specialisation into a cache entry: a folder
//! (named by a hash) holding `<kernel>.ptx` beside `<kernel>.json`, the
//! metadata the runtime launches it with. The same metadata is the
//! `.metadata` of what `kernel[grid](...)` and `triton.compile` return. The
//! fields warpscope reads (Triton 3.x):
//!
//! | field | meaning | used as |
//! | --- | --- | --- |
//! | `name` | the kernel's PTX name | which kernel the facts are for |
//! | `num_warps` | warps per program (CTA) | block = `num_warps * warp_size` threads, 1-D |
//! | `warp_size` or `target.warp_size` | 32 on NVIDIA | (default 32) |
//! | `target.arch` | compute capability (`90`) or `"sm90"` | memory model |
//! | `shared` | bytes of dynamic shared memory | reported, not modelled |
//! | `num_ctas` | CTAs per cluster | reported |
//!
//! The facts become a per-kernel entry of [`Options::kernels`] (the same
//! place a `[[kernel]]` table of `warpscope.toml` goes), placed after the
//! configuration's own entries: a `[[kernel]]` written by hand wins over the
//! metadata, and the metadata wins over the `[launch]` defaults and
//! `--block` (per-kernel facts always win over global ones).
//!
//! The library does not read files: callers pass the JSON text.

use crate::analysis::model::{Arch, LaunchConfig, Options};
use serde::Deserialize;

/// The parts of Triton's kernel metadata that warpscope uses.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct TritonMetadata {
    /// The kernel's name (its `.entry` in the PTX).
    pub name: String,
    /// Warps per program.
    pub num_warps: u32,
    /// CTAs per cluster.
    #[serde(default)]
    pub num_ctas: Option<u32>,
    /// Dynamic shared memory, in bytes.
    #[serde(default)]
    pub shared: Option<u64>,
    /// Threads per warp (top level in Triton 3.x).
    #[serde(default)]
    pub warp_size: Option<u32>,
    /// The target the kernel was compiled for.
    #[serde(default)]
    pub target: Option<TritonTarget>,
    /// The Triton version that compiled it.
    #[serde(default)]
    pub triton_version: Option<String>,
}

/// Triton's `GPUTarget`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct TritonTarget {
    /// `cuda` (or `hip`, which warpscope does not model).
    pub backend: String,
    /// Compute capability: `90`, or a name such as `"sm90a"`/`"gfx942"`.
    pub arch: serde_json::Value,
    /// Threads per warp.
    #[serde(default)]
    pub warp_size: Option<u32>,
}

impl TritonMetadata {
    /// Parses a cache entry's `<kernel>.json` (or the JSON form of a
    /// compiled kernel's `.metadata`). Errors say what is missing; a JSON
    /// file that is not Triton metadata is an error too.
    pub fn from_json(text: &str) -> Result<TritonMetadata, String> {
        let m: TritonMetadata =
            serde_json::from_str(text).map_err(|e| format!("not Triton kernel metadata: {e}"))?;
        if m.num_warps == 0 || m.num_warps > 32 {
            return Err(format!("num_warps must be 1 to 32, got {}", m.num_warps));
        }
        if let Some(t) = &m.target {
            if t.backend != "cuda" {
                return Err(format!(
                    "backend `{}`: warpscope analyses NVIDIA (cuda) kernels",
                    t.backend
                ));
            }
        }
        Ok(m)
    }

    /// Threads per warp: the metadata's, else 32.
    pub fn warp_size(&self) -> u32 {
        self.warp_size
            .or(self.target.as_ref().and_then(|t| t.warp_size))
            .unwrap_or(32)
    }

    /// The block Triton launches: `num_warps` warps, 1-D.
    pub fn block(&self) -> [u32; 3] {
        [self.num_warps * self.warp_size(), 1, 1]
    }

    /// The memory model for the target's compute capability, when given.
    pub fn arch(&self) -> Option<Arch> {
        let a = &self.target.as_ref()?.arch;
        let name = match a {
            serde_json::Value::Number(n) => format!("sm{n}"),
            serde_json::Value::String(s) => s.clone(),
            _ => return None,
        };
        crate::config::parse_arch(&name)
    }

    /// The compute capability as people write it (`sm_90`), when given.
    pub fn target_name(&self) -> Option<String> {
        match &self.target.as_ref()?.arch {
            serde_json::Value::Number(n) => Some(format!("sm_{n}")),
            serde_json::Value::String(s) => Some(s.clone()),
            _ => None,
        }
    }

    /// Adds the launch facts to `options` as a per-kernel entry for this
    /// kernel (after the entries already there), and the target's memory
    /// model when `set_arch`.
    pub fn apply(&self, options: &mut Options, set_arch: bool) {
        options.kernels.push((
            globset::escape(&self.name),
            LaunchConfig {
                block: Some(self.block()),
                grid: None,
                params: Vec::new(),
            },
        ));
        if set_arch {
            if let Some(a) = self.arch() {
                options.arch = a;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const META: &str = include_str!(
        "../tests/fixtures/triton/cache/TIZWQ2KPUJBEUHMTD5RATZRNBGEF4U2BQ2ET4ATD5STAANXJYXOQ/strided_copy.json"
    );

    #[test]
    fn reads_what_triton_wrote() {
        let m = TritonMetadata::from_json(META).unwrap();
        assert_eq!(m.name, "strided_copy");
        assert_eq!(m.num_warps, 2);
        assert_eq!(m.block(), [64, 1, 1]);
        assert_eq!(m.shared, Some(0));
        assert_eq!(m.target_name().as_deref(), Some("sm_90"));
        assert_eq!(m.arch(), Some(Arch::Sm70));
        assert_eq!(m.triton_version.as_deref(), Some("3.9.0"));
        let mut o = Options::default();
        m.apply(&mut o, true);
        assert_eq!(o.kernels[0].0, "strided_copy");
        assert_eq!(o.kernels[0].1.block, Some([64, 1, 1]));
    }

    #[test]
    fn other_json_is_refused() {
        assert!(TritonMetadata::from_json("{\"version\": 1}").is_err());
        assert!(TritonMetadata::from_json("[").is_err());
        let amd = r#"{"name": "k", "num_warps": 4, "target": {"backend": "hip", "arch": "gfx942", "warp_size": 64}}"#;
        assert!(TritonMetadata::from_json(amd).unwrap_err().contains("hip"));
        let zero = r#"{"name": "k", "num_warps": 0}"#;
        assert!(TritonMetadata::from_json(zero).is_err());
    }
}
