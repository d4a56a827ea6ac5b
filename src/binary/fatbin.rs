//! The fatbin container: NVIDIA's wrapper around the PTX and cubins of one
//! compilation unit, found as a `.fatbin` file or in the `.nv_fatbin`
//! section of a host object, shared library or executable.
//!
//! # Layout (little-endian)
//!
//! Learned from public descriptions of the format and checked byte by byte
//! on the containers `nvcc 13.5 -fatbin` writes here (the fixtures under
//! `tests/binary/`).
//!
//! A container is a 16-byte header followed by entries:
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 4 | magic `0xBA55ED50` |
//! | 4 | 2 | version (1) |
//! | 6 | 2 | header size (16): where the first entry starts |
//! | 8 | 8 | size of the entries that follow |
//!
//! Each entry is a header of `header_size` bytes (64; 80 for PTX and 112 for
//! some sm_100 cubins, the extra bytes unused here) followed by its payload:
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 2 | kind: 1 PTX, 2 ELF (cubin), 0x10 ELF |
//! | 2 | 2 | (0x0101) |
//! | 4 | 4 | header size: where the payload starts |
//! | 8 | 8 | payload size (padded to 8): where the next entry starts |
//! | 16 | 4 | compressed size (0 when not compressed) |
//! | 20 | 4 | (0, 64 for PTX) |
//! | 24 | 2 | minor version (PTX ISA or ELF) |
//! | 26 | 2 | major version |
//! | 28 | 4 | architecture (`90` for sm_90) |
//! | 32 | 4 | offset of the entry's name/options string (0: none) |
//! | 36 | 4 | its length |
//! | 40 | 8 | flags: 0x1 64-bit, 0x10 Linux host, 0x2000 LZ4, 0x8000 zstd |
//! | 48 | 8 | (0) |
//! | 56 | 8 | uncompressed size (when compressed) |
//!
//! A compressed payload is an LZ4 *block* (`nvcc --compress-mode=speed`,
//! CUDA 12's default) or a zstd *frame* (CUDA 13's default), of
//! `compressed size` bytes that expand to `uncompressed size`. PTX payloads
//! end in NUL padding.
//!
//! # Safety against bad input
//!
//! Every read is bounds-checked; a truncated container or entry ends the
//! walk with a diagnostic. Decompression is capped at [`MAX_ENTRY_BYTES`]
//! and at the size the entry declares, so a hostile size cannot exhaust
//! memory.

use std::io::Read;

/// Magic number of a fatbin container.
pub const FATBIN_MAGIC: u32 = 0xBA55_ED50;

/// The most bytes one decompressed entry may have (1 GiB).
pub const MAX_ENTRY_BYTES: u64 = 1 << 30;

/// Flag: the payload is an LZ4 block.
pub const FLAG_LZ4: u64 = 0x2000;
/// Flag: the payload is a zstd frame.
pub const FLAG_ZSTD: u64 = 0x8000;

/// What an entry holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum EntryKind {
    /// PTX text.
    Ptx,
    /// A cubin (ELF with SASS).
    Elf,
}

/// One decoded entry of a container.
#[derive(Clone, Debug)]
pub struct Entry {
    /// PTX or cubin.
    pub kind: EntryKind,
    /// Architecture number (`90` for sm_90).
    pub arch: u32,
    /// Version (PTX ISA for PTX entries).
    pub version: (u16, u16),
    /// The flags word.
    pub flags: u64,
    /// How the payload was stored: `none`, `lz4` or `zstd`.
    pub compression: &'static str,
    /// The payload, decompressed (NUL padding of PTX removed).
    pub data: Vec<u8>,
    /// Byte offset of the entry's header in the input.
    pub offset: usize,
}

/// A problem found while walking containers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FatbinError {
    /// Byte offset in the input where it was found.
    pub offset: usize,
    /// What is wrong.
    pub message: String,
}

fn u16_at(b: &[u8], o: usize) -> Option<u16> {
    Some(u16::from_le_bytes(b.get(o..o + 2)?.try_into().ok()?))
}
fn u32_at(b: &[u8], o: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(o..o + 4)?.try_into().ok()?))
}
fn u64_at(b: &[u8], o: usize) -> Option<u64> {
    Some(u64::from_le_bytes(b.get(o..o + 8)?.try_into().ok()?))
}

/// True when `b` starts with a fatbin container.
pub fn is_fatbin(b: &[u8]) -> bool {
    u32_at(b, 0) == Some(FATBIN_MAGIC)
}

/// Reads every container found in `b`: at offset 0 and after each one (at
/// the next 8-byte boundary holding the magic), as the `.nv_fatbin` section
/// of a linked program stacks them. `base` is added to reported offsets.
pub fn read_containers(b: &[u8], base: usize) -> (Vec<Entry>, Vec<FatbinError>) {
    let mut entries = Vec::new();
    let mut errors = Vec::new();
    let mut pos = 0usize;
    while pos + 16 <= b.len() {
        if u32_at(b, pos) != Some(FATBIN_MAGIC) {
            // Padding between containers: move to the next 8-byte slot.
            pos = (pos + 8) & !7;
            continue;
        }
        match read_container(&b[pos..], base + pos, &mut entries, &mut errors) {
            Some(len) => pos += len.max(16),
            None => break,
        }
    }
    (entries, errors)
}

/// Reads one container at the start of `b`; returns its length, or `None`
/// when it is truncated (an error is recorded).
fn read_container(
    b: &[u8],
    base: usize,
    entries: &mut Vec<Entry>,
    errors: &mut Vec<FatbinError>,
) -> Option<usize> {
    let header_size = u16_at(b, 6)? as usize;
    let fat_size = u64_at(b, 8)?;
    let total = (header_size as u64).checked_add(fat_size);
    let total = match total {
        Some(t) if t <= b.len() as u64 && header_size >= 16 => t as usize,
        _ => {
            errors.push(FatbinError {
                offset: base,
                message: format!(
                    "fatbin container declares {fat_size} bytes of entries but only {} remain",
                    b.len().saturating_sub(header_size)
                ),
            });
            return None;
        }
    };
    let mut pos = header_size;
    while pos + 64 <= total {
        let Some(e) = read_entry(&b[..total], pos, base, errors) else {
            break;
        };
        let (entry, next) = e;
        if let Some(entry) = entry {
            entries.push(entry);
        }
        if next <= pos {
            break;
        }
        pos = next;
    }
    Some(total)
}

/// Reads the entry at `pos`; returns it (when its kind is known) and the
/// offset of the next entry.
fn read_entry(
    b: &[u8],
    pos: usize,
    base: usize,
    errors: &mut Vec<FatbinError>,
) -> Option<(Option<Entry>, usize)> {
    let kind = u16_at(b, pos)?;
    let ehs = u32_at(b, pos + 4)? as usize;
    let size = u64_at(b, pos + 8)?;
    let csize = u32_at(b, pos + 16)? as u64;
    let minor = u16_at(b, pos + 24)?;
    let major = u16_at(b, pos + 26)?;
    let arch = u32_at(b, pos + 28)?;
    let flags = u64_at(b, pos + 40)?;
    let usize_ = u64_at(b, pos + 56)?;
    let err = |errors: &mut Vec<FatbinError>, m: String| {
        errors.push(FatbinError {
            offset: base + pos,
            message: m,
        })
    };
    if ehs < 64 {
        err(
            errors,
            format!("fatbin entry header of {ehs} bytes (at least 64 expected)"),
        );
        return None;
    }
    let start = pos.checked_add(ehs)?;
    let next = (start as u64).checked_add(size);
    let next = match next {
        Some(n) if n <= b.len() as u64 => n as usize,
        _ => {
            err(
                errors,
                format!("fatbin entry of {size} bytes runs past its container"),
            );
            return None;
        }
    };
    let kind = match kind {
        1 => EntryKind::Ptx,
        2 | 0x10 => EntryKind::Elf,
        _ => return Some((None, next)), // unknown kinds are skipped
    };
    let compressed = flags & (FLAG_LZ4 | FLAG_ZSTD) != 0;
    let stored = if compressed { csize.min(size) } else { size } as usize;
    let payload = &b[start..start + stored];
    let (data, compression) = if flags & FLAG_ZSTD != 0 {
        (decompress_zstd(payload, usize_), "zstd")
    } else if flags & FLAG_LZ4 != 0 {
        (decompress_lz4(payload, usize_), "lz4")
    } else {
        (Ok(payload.to_vec()), "none")
    };
    let mut data = match data {
        Ok(d) => d,
        Err(m) => {
            err(
                errors,
                format!(
                    "{compression}-compressed {} entry for sm_{arch}: {m}",
                    kind_name(kind)
                ),
            );
            return Some((None, next));
        }
    };
    if kind == EntryKind::Ptx {
        while data.last() == Some(&0) {
            data.pop();
        }
    }
    Some((
        Some(Entry {
            kind,
            arch,
            version: (major, minor),
            flags,
            compression,
            data,
            offset: base + pos,
        }),
        next,
    ))
}

fn kind_name(k: EntryKind) -> &'static str {
    match k {
        EntryKind::Ptx => "PTX",
        EntryKind::Elf => "ELF",
    }
}

fn check_size(declared: u64) -> Result<usize, String> {
    if declared > MAX_ENTRY_BYTES {
        return Err(format!(
            "declares {declared} bytes uncompressed, more than the {MAX_ENTRY_BYTES} warpscope reads"
        ));
    }
    Ok(declared as usize)
}

/// An LZ4 block of `declared` bytes uncompressed.
fn decompress_lz4(payload: &[u8], declared: u64) -> Result<Vec<u8>, String> {
    let n = check_size(declared)?;
    lz4_flex::block::decompress(payload, n).map_err(|e| format!("LZ4: {e}"))
}

/// A zstd frame of `declared` bytes uncompressed (read at most that many).
fn decompress_zstd(payload: &[u8], declared: u64) -> Result<Vec<u8>, String> {
    let n = check_size(declared)?;
    let decoder =
        ruzstd::decoding::StreamingDecoder::new(payload).map_err(|e| format!("zstd: {e}"))?;
    let mut out = Vec::with_capacity(n.min(64 << 20));
    decoder
        .take(n as u64)
        .read_to_end(&mut out)
        .map_err(|e| format!("zstd: {e}"))?;
    if out.len() != n {
        return Err(format!(
            "zstd: {} bytes decompressed, {n} declared",
            out.len()
        ));
    }
    Ok(out)
}
