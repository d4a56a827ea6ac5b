//! Binaries on the command line: the embedded PTX (extracted by the library,
//! no tool needed) and the embedded SASS (disassembled here by `nvdisasm`,
//! or `cuobjdump -sass`, when one is on `PATH`).

use super::common::Input;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU32, Ordering};
use warpscope::binary::{read_binary, BinaryKind};
use warpscope::source::SourceFile;

/// The inputs a binary holds for the selected architecture.
pub fn inputs_of_binary(
    display: &str,
    bytes: &[u8],
    arch: Option<u32>,
    notes: &mut Vec<String>,
) -> Result<Vec<Input>, String> {
    let contents = read_binary(bytes);
    for p in &contents.problems {
        notes.push(format!("{display}: {p}"));
    }
    let archs = contents.archs();
    if archs.is_empty() {
        return Err(format!(
            "{display}: no GPU code found (no fatbin container, PTX or cubin)"
        ));
    }
    let sel = contents.select(arch);
    let shown: Vec<String> = archs.iter().map(|a| format!("sm_{a}")).collect();
    let Some(chosen) = sel.arch else {
        return Err(format!("{display}: no GPU code found"));
    };
    if sel.ptx.is_empty() && sel.cubins.is_empty() {
        return Err(format!(
            "{display}: no code for sm_{chosen} (the file holds {})",
            shown.join(", ")
        ));
    }
    let mut out = Vec::new();
    for p in &sel.ptx {
        let name = format!("{display}#{}.sm_{}.ptx", p.index, p.arch);
        let file = SourceFile::new(name.clone(), p.text.clone()).map_err(|e| e.to_string())?;
        out.push(Input {
            display: name,
            file,
        });
    }
    if !sel.cubins.is_empty() {
        match disassembler() {
            None => notes.push(format!(
                "{display}: the sm_{chosen} SASS is not analysed: neither nvdisasm nor cuobjdump is on PATH (the CUDA binary utilities install from the nvidia-cuda-nvdisasm wheel)"
            )),
            Some(tool) => {
                for c in &sel.cubins {
                    match disassemble(&tool, &c.bytes) {
                        Ok(text) => {
                            let name = if contents.kind == BinaryKind::Cubin {
                                format!("{display}#sm_{}.sass", c.arch)
                            } else {
                                format!("{display}#{}.sm_{}.sass", c.index, c.arch)
                            };
                            let file = SourceFile::new(name.clone(), text.into_bytes())
                                .map_err(|e| e.to_string())?;
                            out.push(Input {
                                display: name,
                                file,
                            });
                        }
                        Err(e) => notes.push(format!(
                            "{display}: cubin {} (sm_{}) not disassembled: {e}",
                            c.index, c.arch
                        )),
                    }
                }
            }
        }
    }
    if out.is_empty() {
        return Err(format!("{display}: nothing to analyse for sm_{chosen}"));
    }
    Ok(out)
}

/// A disassembler found on `PATH`.
#[derive(Clone, Debug)]
pub struct Tool {
    path: PathBuf,
    nvdisasm: bool,
}

/// `nvdisasm`, else `cuobjdump`, from `PATH`.
pub fn disassembler() -> Option<Tool> {
    let find = |name: &str| -> Option<PathBuf> {
        let path = std::env::var_os("PATH")?;
        std::env::split_paths(&path)
            .map(|d| d.join(name))
            .find(|p| p.is_file())
    };
    if let Some(p) = find("nvdisasm") {
        return Some(Tool {
            path: p,
            nvdisasm: true,
        });
    }
    find("cuobjdump").map(|p| Tool {
        path: p,
        nvdisasm: false,
    })
}

/// Disassembles a cubin: `nvdisasm -g` (SASS with line information and the
/// `.nv.info` sections, whose parameter layout the lowering reads), or
/// `cuobjdump -sass`.
fn disassemble(tool: &Tool, cubin: &[u8]) -> Result<String, String> {
    static COUNTER: AtomicU32 = AtomicU32::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let tmp = std::env::temp_dir().join(format!("warpscope-{}-{n}.cubin", std::process::id()));
    std::fs::write(&tmp, cubin).map_err(|e| format!("writing {}: {e}", tmp.display()))?;
    let result = run_tool(tool, &tmp);
    let _ = std::fs::remove_file(&tmp);
    result
}

fn run_tool(tool: &Tool, cubin: &Path) -> Result<String, String> {
    let mut cmd = Command::new(&tool.path);
    if tool.nvdisasm {
        cmd.arg("-g");
    } else {
        cmd.arg("-sass");
    }
    let out = cmd
        .arg(cubin)
        .output()
        .map_err(|e| format!("running {}: {e}", tool.path.display()))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        return Err(format!("{} failed: {}", tool.path.display(), err.trim()));
    }
    String::from_utf8(out.stdout).map_err(|_| "the disassembly is not UTF-8".to_string())
}
