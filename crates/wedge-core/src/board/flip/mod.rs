//! Flipped discs of a move: a portable ray kernel that is always compiled, a BMI2 kernel
//! (PEXT/PDEP line lookups), an AVX2 and an AVX-512 kernel (eight rays in two vectors), the
//! fastest the build enables selected at compile time (AVX-512, then AVX2, then BMI2); and a
//! portable and a BMI2 kernel for counting the flips of the final move of a game without
//! making them. All are tested against each other and against the naive reference.

mod portable;
pub use portable::flips as flips_portable;
pub use portable::last_flip_count as last_flip_count_portable;

#[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
mod bmi2;
#[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
pub use bmi2::flips as flips_bmi2;
#[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
pub use bmi2::last_flip_count as last_flip_count_bmi2;

#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
mod avx2;
#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
mod rays;
#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
pub use avx2::flips as flips_avx2;

#[cfg(all(
    target_arch = "x86_64",
    target_feature = "avx512vl",
    target_feature = "avx512cd"
))]
mod avx512;
#[cfg(all(
    target_arch = "x86_64",
    target_feature = "avx512vl",
    target_feature = "avx512cd"
))]
pub use avx512::flips as flips_avx512;

/// Discs of `opponent` flipped when `player` plays on the empty square `sq`
/// (0 when the move flips nothing, i.e. is illegal).
#[inline(always)]
pub fn flips(sq: usize, player: u64, opponent: u64) -> u64 {
    #[cfg(all(
        target_arch = "x86_64",
        target_feature = "avx512vl",
        target_feature = "avx512cd"
    ))]
    {
        avx512::flips(sq, player, opponent)
    }
    #[cfg(all(
        target_arch = "x86_64",
        target_feature = "avx2",
        not(all(target_feature = "avx512vl", target_feature = "avx512cd"))
    ))]
    {
        avx2::flips(sq, player, opponent)
    }
    #[cfg(all(
        target_arch = "x86_64",
        target_feature = "bmi2",
        not(target_feature = "avx2")
    ))]
    {
        bmi2::flips(sq, player, opponent)
    }
    #[cfg(not(all(
        target_arch = "x86_64",
        any(target_feature = "bmi2", target_feature = "avx2")
    )))]
    {
        portable::flips(sq, player, opponent)
    }
}

/// Number of discs `player` flips by playing `sq` when `sq` is the only empty square (the
/// opponent holds every other square): the final move of a game, counted without flipping.
#[inline(always)]
pub fn last_flip_count(sq: usize, player: u64) -> u32 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        bmi2::last_flip_count(sq, player)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    {
        portable::last_flip_count(sq, player)
    }
}

/// Name of the flip kernel selected at compile time.
pub const KERNEL: &str = if cfg!(all(
    target_arch = "x86_64",
    target_feature = "avx512vl",
    target_feature = "avx512cd"
)) {
    "avx512"
} else if cfg!(all(target_arch = "x86_64", target_feature = "avx2")) {
    "avx2"
} else if cfg!(all(target_arch = "x86_64", target_feature = "bmi2")) {
    "bmi2"
} else {
    "portable"
};
