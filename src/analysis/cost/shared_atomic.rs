//! The cost of one shared-memory atomic request (`atom.shared`,
//! `red.shared`), as ptxas compiles it for sm_90 and the H100 counts it.
//!
//! # Model (measured: `tests/hw/README.md`, finding 14; launch `shatom`)
//!
//! ptxas carries a shared atomic out in one of three forms
//! ([`SharedAtomicForm`]):
//!
//! * **native** `ATOMS.<op>`: the 32-bit integer operations (`add`, `min`,
//!   `max`, `inc`, `dec`, `and`, `or`, `xor`, `exch`) and `exch.b64`. Lanes on
//!   one word are served one by one: per group of lanes, the largest number
//!   of lanes' words in one bank ([`super::async_copy::unshared_wavefronts`]):
//!   32 distinct words 1, one address 32, stride 2 words 2, stride 32 words 32.
//! * **aggregated** `ATOMS.POPC.INC`: an `add` of the immediate 1 on a
//!   32-bit integer (`atomicAdd(p, 1)`, `atom`/`red`); ptxas counts the
//!   lanes on each word with a vote and a population count, so the lanes on
//!   one word are served as one: the native rule over one lane per distinct
//!   word. Measured: one address 1 wavefront (launch `shatom`, line 659);
//!   32 lanes on 256 words drawn from loaded bytes 3.15–3.16 per request,
//!   the expected largest number of distinct words in one bank (blind
//!   `histogram_bytes`, blind2 `radix_digit_hist`, blind4
//!   `radix_upsweep_warp`; `cost::ranged_samples` gives the expectation).
//! * **reduced** `REDUX` and one lane's `ATOMS.<op>`: an atomic whose
//!   result no instruction reads (`red`, or an `atom` into an unread
//!   register), of a 32-bit integer `add`, `min`, `max`, `and`, `or` or
//!   `xor` (the operations of `redux.sync`), at an address every lane
//!   shares: ptxas reduces the warp's values in the uniform datapath and
//!   the lowest active lane (`VOTEU.ANY`, `UFLO`) carries the atomic out,
//!   so the request costs one lane's wavefront (measured:
//!   `tests/hw/blind16` `smith_waterman_antidiag` line 507,
//!   `atomicMax(&best_s, best)`: `REDUX.MAX.S32` and `@P0 ATOMS.MAX.S32`,
//!   1.000 wavefront per request over 2,048 requests, where the native rule
//!   gives 32). Lanes on several addresses keep the native rule; an `atom`
//!   whose result is read keeps it at one address too (launch `shatom`,
//!   line 667: `ATOMS.MAX.S32` on one word, 32). The PTX lowering marks
//!   such atomics ([`crate::ir::MemExt::reduces_warp`]); a SASS listing
//!   shows the single-lane `ATOMS` itself.
//! * **compare-and-swap** `ATOMS.CAS`: the request carries the compare value
//!   and the new value, twice the data of the native form: twice its
//!   wavefronts (32 distinct words: 2).
//! * **emulated**: every other operation, i.e. floating-point atomics and
//!   64-bit arithmetic and logic (`atom.shared.add.f32`, `.add.u64`), is a
//!   loop of a plain shared load of the old value (`LDS`, `LDS.64`) and a
//!   compare-and-swap (`ATOMS.CAST.SPIN`, `.64`) that retries until no other
//!   lane changed the word: the atomic's request costs what a
//!   compare-and-swap of its width costs (32-bit on distinct words: 2;
//!   64-bit: 4), and the load is a request of its own with the wavefronts of
//!   a plain shared load (1 and 2).
//!
//! # Limits
//!
//! The emulation loop runs once per warp when no two lanes hit one word (the
//! measured case); lanes on one word retry, which depends on timing: the
//! model counts one pass. The load of the emulation is not a PTX
//! instruction: the access carries a caveat
//! (`Caveat::EmulatedSharedAtomic`) that says so, and Nsight's `ld` row on
//! the same line is listed in `tests/hw_agreement_known.txt`.
//! Which 64-bit and narrow forms are native was not measured beyond
//! `add.u64` (emulated) and is taken from the same rule.

use super::async_copy::unshared_wavefronts;
use crate::analysis::domain::Lanes;

/// How ptxas carries out a shared-memory atomic on sm_90.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SharedAtomicForm {
    /// One `ATOMS.<op>` instruction.
    Native,
    /// `ATOMS.CAS`: compare and new value per lane.
    CompareAndSwap,
    /// A load and an `ATOMS.CAST.SPIN` compare-and-swap loop.
    Emulated,
    /// `ATOMS.POPC.INC`: an `add` of the immediate 1 (`atomicAdd(p, 1)`),
    /// which ptxas aggregates: the lanes on one word are served as one.
    Aggregated,
    /// `REDUX` and one lane's `ATOMS.<op>` where every lane's address is
    /// the same; [`SharedAtomicForm::Native`] otherwise.
    Reduced,
}

/// The form of the shared atomic `info` ([`shared_atomic_form`], and
/// [`SharedAtomicForm::Aggregated`] for an `add` of the immediate 1).
pub fn shared_atomic_form_of(info: &crate::ir::MemOp) -> SharedAtomicForm {
    if info.adds_one() {
        SharedAtomicForm::Aggregated
    } else if info.reduces_warp() {
        SharedAtomicForm::Reduced
    } else {
        shared_atomic_form(info.atomic_op(), info.bits, info.elem_float)
    }
}

/// The form of an atomic `op` (`add`, `cas`, …; `None` when unknown, taken
/// as native) on `bits`-wide elements, floating point or not.
pub fn shared_atomic_form(op: Option<&str>, bits: u32, float: bool) -> SharedAtomicForm {
    match op {
        Some("cas") => SharedAtomicForm::CompareAndSwap,
        Some("exch") if bits <= 64 => SharedAtomicForm::Native,
        Some(_) if float || bits > 32 => SharedAtomicForm::Emulated,
        _ => SharedAtomicForm::Native,
    }
}

/// Wavefronts of one atomic request of `bytes` per lane at `addrs` over the
/// lanes in `active`.
pub fn wavefronts(addrs: &Lanes, active: u32, bytes: u32, form: SharedAtomicForm) -> u32 {
    if form == SharedAtomicForm::Aggregated {
        // One lane per distinct word.
        let mut first = 0u32;
        let mut m = active;
        while m != 0 {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            let w = addrs[l].div_euclid(4);
            if !(0..l).any(|k| first & (1 << k) != 0 && addrs[k].div_euclid(4) == w) {
                first |= 1 << l;
            }
        }
        return unshared_wavefronts(addrs, first, bytes);
    }
    if form == SharedAtomicForm::Reduced && active != 0 {
        let first = active.trailing_zeros() as usize;
        let one = 1u32 << first;
        if (0..32).all(|l| active & (1 << l) == 0 || addrs[l] == addrs[first]) {
            return unshared_wavefronts(addrs, one, bytes);
        }
    }
    let native = unshared_wavefronts(addrs, active, bytes);
    match form {
        SharedAtomicForm::Native | SharedAtomicForm::Aggregated | SharedAtomicForm::Reduced => {
            native
        }
        SharedAtomicForm::CompareAndSwap | SharedAtomicForm::Emulated => 2 * native,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lanes(stride: i64) -> Lanes {
        std::array::from_fn(|l| stride * l as i64)
    }

    /// `tests/hw/measured.json`, launch `shatom` (lines 658-667): per request
    /// wavefronts of `ATOMS.ADD` (distinct words 1, stride 2 words 2,
    /// stride 32 words 32), `ATOMS.CAST.SPIN` for `add.f32` 2,
    /// `ATOMS.CAST.SPIN.64` for `add.u64` 4, `ATOMS.CAS` 2, `ATOMS.EXCH` at
    /// stride 32 words 32, `ATOMS.MAX` on one word 32.
    /// `tests/hw/measured.json`, launch `shatom` line 659: `atom.shared.add.u32
    /// [sb], 1` from every lane, one wavefront (`ATOMS.POPC.INC`); the
    /// distinct-word strides of the same form keep the native figures.
    #[test]
    fn an_add_of_one_serves_the_lanes_on_one_word_as_one() {
        let all = u32::MAX;
        let form = SharedAtomicForm::Aggregated;
        assert_eq!(wavefronts(&lanes(0), all, 4, form), 1);
        assert_eq!(wavefronts(&lanes(4), all, 4, form), 1);
        assert_eq!(wavefronts(&lanes(8), all, 4, form), 2);
        assert_eq!(wavefronts(&lanes(128), all, 4, form), 32);
        // two words in one bank, 16 lanes each: 2
        let two: Lanes = std::array::from_fn(|l| if l < 16 { 0 } else { 128 });
        assert_eq!(wavefronts(&two, all, 4, form), 2);
        assert_eq!(wavefronts(&two, all, 4, SharedAtomicForm::Native), 32);
    }

    /// `tests/hw/blind16/measured_sass.json`, `smith_waterman_antidiag`
    /// line 507: `atomicMax(&best_s, best)`, result unread, every lane on
    /// one word: `REDUX.MAX.S32` and one lane's `ATOMS.MAX.S32`, 1.000
    /// wavefront per request. Lanes on several words keep the native rule.
    #[test]
    fn an_unread_reduction_at_one_address_is_one_lane() {
        let form = SharedAtomicForm::Reduced;
        assert_eq!(wavefronts(&lanes(0), u32::MAX, 4, form), 1);
        assert_eq!(wavefronts(&lanes(0), 0xffff_0000, 4, form), 1);
        assert_eq!(wavefronts(&lanes(128), u32::MAX, 4, form), 32);
        assert_eq!(wavefronts(&lanes(4), u32::MAX, 4, form), 1);
        let two: Lanes = std::array::from_fn(|l| if l < 16 { 0 } else { 128 });
        assert_eq!(wavefronts(&two, u32::MAX, 4, form), 32);
        assert_eq!(wavefronts(&lanes(0), 0, 4, form), 0);
    }

    #[test]
    fn shatom_matches_the_h100() {
        let all = u32::MAX;
        let rows: &[(&str, u32, bool, i64, u32)] = &[
            ("add", 32, false, 4, 1),
            ("add", 32, false, 8, 2),
            ("add", 32, false, 128, 32),
            ("add", 32, true, 4, 2),
            ("add", 64, false, 8, 4),
            ("cas", 32, false, 4, 2),
            ("exch", 32, false, 128, 32),
            ("max", 32, false, 0, 32),
        ];
        for &(op, bits, float, stride, want) in rows {
            let form = shared_atomic_form(Some(op), bits, float);
            assert_eq!(
                wavefronts(&lanes(stride), all, bits / 8, form),
                want,
                "{op} {bits}-bit float {float} stride {stride}"
            );
        }
        assert_eq!(
            shared_atomic_form(Some("add"), 32, true),
            SharedAtomicForm::Emulated
        );
        assert_eq!(
            shared_atomic_form(Some("add"), 32, false),
            SharedAtomicForm::Native
        );
    }
}
