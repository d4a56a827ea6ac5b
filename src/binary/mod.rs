//! Binaries as input: cubins, fatbins, host objects, shared libraries and
//! executables that carry GPU code.
//!
//! [`read_binary`] finds the GPU code in a binary without any NVIDIA tool:
//!
//! - a **cubin** is an ELF file for machine `EM_CUDA` (190): its SASS, for
//!   the architecture in its `e_flags` (bits 0–7 for ELF ABI version 7,
//!   bits 8–15 from ABI version 8, CUDA 12 and later);
//! - a **fatbin** (`.fatbin`, magic `0xBA55ED50`) holds PTX and cubin
//!   entries, possibly compressed ([`fatbin`]);
//! - a **host ELF** (object, `.so`, executable) holds fatbin containers in
//!   its `.nv_fatbin` section (read with the `object` crate); when it has no
//!   such section, the file is searched for containers at 8-byte
//!   boundaries (static archives, unusual linkers).
//!
//! The result is the embedded PTX as text (analysed like any PTX file) and
//! the embedded cubins, whose SASS the command line disassembles with
//! `nvdisasm` when it is on `PATH`: the library does no IO and runs no tool.
//! [`nv_info`] reads a cubin's `.nv.info.<kernel>` attributes (where the
//! parameters sit in constant bank 0), which the SASS lowering uses.
//!
//! Nothing here panics on damaged input: ELF parsing is the `object`
//! crate's, bounds-checked; the fatbin walk checks every offset; problems
//! become messages in [`Contents::problems`].

pub mod fatbin;

use crate::sass::ast::NvInfo;
use std::collections::BTreeMap;

/// ELF machine number of CUDA cubins.
pub const EM_CUDA: u16 = 190;

/// What kind of binary the input is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum BinaryKind {
    /// An ELF file for `EM_CUDA`.
    Cubin,
    /// A fatbin container.
    Fatbin,
    /// A host ELF file (object, shared library, executable).
    HostElf,
    /// A static archive (`!<arch>`).
    Archive,
}

/// Embedded PTX.
#[derive(Clone, Debug)]
pub struct EmbeddedPtx {
    /// Architecture of the entry (`90`).
    pub arch: u32,
    /// Its position among the PTX entries of the binary (from 1).
    pub index: usize,
    /// The PTX text (bytes; invalid UTF-8 is the front end's business).
    pub text: Vec<u8>,
    /// How the entry was stored (`none`, `lz4`, `zstd`).
    pub compression: &'static str,
}

/// An embedded (or the input) cubin.
#[derive(Clone, Debug)]
pub struct EmbeddedCubin {
    /// Architecture (`90`).
    pub arch: u32,
    /// Its position among the cubins of the binary (from 1).
    pub index: usize,
    /// The ELF bytes.
    pub bytes: Vec<u8>,
}

/// The GPU code found in a binary.
#[derive(Clone, Debug)]
pub struct Contents {
    /// What the input is.
    pub kind: BinaryKind,
    /// Embedded PTX, in container order.
    pub ptx: Vec<EmbeddedPtx>,
    /// Embedded cubins, in container order.
    pub cubins: Vec<EmbeddedCubin>,
    /// Damage found on the way (offset and message).
    pub problems: Vec<String>,
}

impl Contents {
    /// Every architecture present (PTX or SASS), ascending.
    pub fn archs(&self) -> Vec<u32> {
        let mut a: Vec<u32> = self
            .ptx
            .iter()
            .map(|p| p.arch)
            .chain(self.cubins.iter().map(|c| c.arch))
            .collect();
        a.sort_unstable();
        a.dedup();
        a
    }
    /// The architecture to analyse: `wanted` when given, else the newest.
    /// PTX of an older architecture serves a newer `wanted` (it is compiled
    /// for it just in time), so for PTX the newest entry not above `wanted`
    /// is taken; SASS must match exactly.
    pub fn select(&self, wanted: Option<u32>) -> Selection<'_> {
        let newest = self.archs().last().copied();
        let want = wanted.or(newest);
        let ptx = want.and_then(|w| {
            self.ptx
                .iter()
                .filter(|p| p.arch <= w)
                .max_by_key(|p| (p.arch, std::cmp::Reverse(p.index)))
        });
        let cubins = match want {
            Some(w) => self.cubins.iter().filter(|c| c.arch == w).collect(),
            None => Vec::new(),
        };
        Selection {
            arch: want,
            ptx: ptx.into_iter().chain(self.ptx_same_arch(ptx)).collect(),
            cubins,
        }
    }
    /// Every other PTX entry of the same architecture as `first` (a linked
    /// program has one per translation unit).
    fn ptx_same_arch<'a>(&'a self, first: Option<&'a EmbeddedPtx>) -> Vec<&'a EmbeddedPtx> {
        match first {
            Some(f) => self
                .ptx
                .iter()
                .filter(|p| p.arch == f.arch && p.index != f.index)
                .collect(),
            None => Vec::new(),
        }
    }
}

/// What [`Contents::select`] chose.
#[derive(Clone, Debug)]
pub struct Selection<'a> {
    /// The architecture analysed.
    pub arch: Option<u32>,
    /// The PTX entries to analyse.
    pub ptx: Vec<&'a EmbeddedPtx>,
    /// The cubins to disassemble and analyse.
    pub cubins: Vec<&'a EmbeddedCubin>,
}

/// True when the bytes are a binary warpscope reads (ELF, fatbin or archive)
/// rather than text.
pub fn is_binary(b: &[u8]) -> bool {
    b.starts_with(b"\x7fELF") || fatbin::is_fatbin(b) || b.starts_with(b"!<arch>\n")
}

/// The architecture of a cubin, from its ELF header.
pub fn cubin_arch(b: &[u8]) -> Option<u32> {
    if !b.starts_with(b"\x7fELF") || b.len() < 0x34 {
        return None;
    }
    let class64 = b.get(4)? == &2;
    let machine = u16::from_le_bytes(b.get(0x12..0x14)?.try_into().ok()?);
    if machine != EM_CUDA {
        return None;
    }
    let flags_at = if class64 { 0x30 } else { 0x24 };
    let flags = u32::from_le_bytes(b.get(flags_at..flags_at + 4)?.try_into().ok()?);
    let abi_version = *b.get(8)?;
    Some(if abi_version >= 8 {
        (flags >> 8) & 0xff
    } else {
        flags & 0xff
    })
}

/// Finds the GPU code in a binary. Never fails: damage is reported in
/// [`Contents::problems`] and what could be read is returned.
pub fn read_binary(b: &[u8]) -> Contents {
    let mut c = Contents {
        kind: BinaryKind::HostElf,
        ptx: Vec::new(),
        cubins: Vec::new(),
        problems: Vec::new(),
    };
    if let Some(arch) = cubin_arch(b) {
        c.kind = BinaryKind::Cubin;
        c.cubins.push(EmbeddedCubin {
            arch,
            index: 1,
            bytes: b.to_vec(),
        });
        return c;
    }
    if fatbin::is_fatbin(b) {
        c.kind = BinaryKind::Fatbin;
        add_containers(&mut c, b, 0);
        return c;
    }
    if b.starts_with(b"!<arch>\n") {
        c.kind = BinaryKind::Archive;
        add_containers(&mut c, b, 0);
        return c;
    }
    if !b.starts_with(b"\x7fELF") {
        c.problems
            .push("not an ELF file, a fatbin or an archive".to_string());
        return c;
    }
    match fatbin_sections(b) {
        Ok(sections) if !sections.is_empty() => {
            for (offset, data) in sections {
                add_containers(&mut c, data, offset);
            }
        }
        Ok(_) => add_containers(&mut c, b, 0),
        Err(e) => {
            c.problems.push(format!("ELF: {e}"));
            add_containers(&mut c, b, 0);
        }
    }
    c
}

/// The `.nv_fatbin` sections of a host ELF file: (file offset, bytes).
fn fatbin_sections(b: &[u8]) -> Result<Vec<(usize, &[u8])>, String> {
    use object::{Object, ObjectSection};
    let file = object::File::parse(b).map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    for s in file.sections() {
        if s.name()
            .is_ok_and(|n| n == ".nv_fatbin" || n == "__nv_fatbin")
        {
            let data = s.data().map_err(|e| e.to_string())?;
            let offset = s.file_range().map_or(0, |(o, _)| o as usize);
            out.push((offset, data));
        }
    }
    Ok(out)
}

fn add_containers(c: &mut Contents, data: &[u8], base: usize) {
    let (entries, errors) = fatbin::read_containers(data, base);
    for e in errors {
        c.problems
            .push(format!("byte {:#x}: {}", e.offset, e.message));
    }
    for e in entries {
        match e.kind {
            fatbin::EntryKind::Ptx => {
                let index = c.ptx.len() + 1;
                c.ptx.push(EmbeddedPtx {
                    arch: e.arch,
                    index,
                    text: e.data,
                    compression: e.compression,
                });
            }
            fatbin::EntryKind::Elf => {
                let index = c.cubins.len() + 1;
                let arch = cubin_arch(&e.data).unwrap_or(e.arch);
                c.cubins.push(EmbeddedCubin {
                    arch,
                    index,
                    bytes: e.data,
                });
            }
        }
    }
}

/// `EIATTR_PARAM_CBANK`: where the parameters start in constant bank 0.
const EIATTR_PARAM_CBANK: u8 = 0x0a;
/// `EIATTR_KPARAM_INFO`: one parameter's ordinal, offset and size.
const EIATTR_KPARAM_INFO: u8 = 0x17;

/// The `.nv.info.<function>` attributes of a cubin that tell where kernel
/// parameters live, keyed by function name.
///
/// Each section is a list of records `[format: u8][attribute: u8]
/// [value or size: u16][payload]`, where format 4 has a payload of `size`
/// bytes and formats 1–3 none. `EIATTR_PARAM_CBANK` (0x0a): `[symbol: u32]
/// [offset: u16][size: u16]`; `EIATTR_KPARAM_INFO` (0x17): `[index: u32]
/// [ordinal: u16][offset: u16][flags: u32]` with the parameter's size in
/// bits 18–31 of the flags (as nvdisasm prints them for the fixtures).
pub fn nv_info(cubin: &[u8]) -> BTreeMap<String, NvInfo> {
    use object::{Object, ObjectSection};
    let mut out = BTreeMap::new();
    let Ok(file) = object::File::parse(cubin) else {
        return out;
    };
    for s in file.sections() {
        let Ok(name) = s.name() else { continue };
        let Some(func) = name.strip_prefix(".nv.info.") else {
            continue;
        };
        let Ok(data) = s.data() else { continue };
        out.insert(func.to_string(), parse_nv_info(data));
    }
    out
}

fn parse_nv_info(d: &[u8]) -> NvInfo {
    let mut info = NvInfo::default();
    let mut p = 0usize;
    while p + 4 <= d.len() {
        let fmt = d[p];
        let attr = d[p + 1];
        let val = u16::from_le_bytes([d[p + 2], d[p + 3]]) as usize;
        p += 4;
        if fmt != 4 {
            continue;
        }
        let Some(payload) = d.get(p..p + val) else {
            break;
        };
        p += val;
        let u16_at = |o: usize| {
            payload
                .get(o..o + 2)
                .map(|b| u16::from_le_bytes([b[0], b[1]]))
        };
        let u32_at = |o: usize| {
            payload
                .get(o..o + 4)
                .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        };
        match attr {
            EIATTR_PARAM_CBANK => {
                info.param_base = u16_at(4).map(u32::from);
                info.param_size = u16_at(6).map(u32::from);
            }
            EIATTR_KPARAM_INFO => {
                if let (Some(ord), Some(off), Some(flags)) = (u16_at(4), u16_at(6), u32_at(8)) {
                    info.params
                        .push((ord, off, ((flags >> 18) & 0x3fff) as u16));
                }
            }
            _ => {}
        }
    }
    info.params.sort_unstable();
    info
}
