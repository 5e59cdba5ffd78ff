//! The fit: regularised least squares of the pattern model on labelled positions, by
//! mini-batch Adam over the folded weights, the gradient of each batch computed on several
//! threads. Positions are encoded once into compact rows of folded indices; the model's
//! parameter layout is exactly the weights file's (phase, table, folded entry).

use super::checkpoint::Checkpoint;
use super::dataset::LabelledPosition;
use super::error::{StartWeightsError, TrainError};
use super::progress::Progress;
use std::path::Path;
use wedge_core::eval::expected_tables;
use wedge_core::eval::patterns::{
    folded, indices, layout, phase, scalar_indices, N_INSTANCES, N_PATTERN_TYPES, N_SCALAR_TABLES,
    N_TABLES,
};
use wedge_core::eval::Weights;
use wedge_core::framing::fnv1a64;
use wedge_core::rng::Rng;

/// Weight units per disc in the written file.
pub const SCALE: u32 = 64;

/// One encoded position: folded pattern indices, scalar entries, phase, label, empties.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Row {
    pub idx: [u16; N_INSTANCES],
    pub scalars: [u8; N_SCALAR_TABLES],
    pub phase: u8,
    pub label: i8,
    pub empties: u8,
}

/// Encodes a sample for a model with `n_phases` phases.
pub fn encode(s: &LabelledPosition, n_phases: usize) -> Row {
    let raw = indices(&s.board);
    let l = layout();
    let mut idx = [0u16; N_INSTANCES];
    for ((o, &r), inst) in idx.iter_mut().zip(raw.iter()).zip(l.instances.iter()) {
        *o = folded(inst.pattern as usize, r) as u16;
    }
    let e = s.board.empty_count();
    Row {
        idx,
        scalars: scalar_indices(&s.board),
        phase: phase(e, n_phases) as u8,
        label: s.label,
        empties: e as u8,
    }
}

/// The phases a position with `empties` empties trains when each phase also learns from the
/// positions up to `window` plies outside its own range (sorted, without repeats; just its
/// own phase for a window of 0). Sharing neighbours' positions multiplies the data each
/// phase sees and smooths the tables across phases, as Logistello's and Edax's trainers do.
pub fn training_phases(empties: u32, n_phases: usize, window: u32) -> Vec<usize> {
    let lo = empties.saturating_sub(window);
    let hi = (empties + window).min(60);
    let mut phases: Vec<usize> = (lo..=hi).map(|e| phase(e, n_phases)).collect();
    phases.sort_unstable();
    phases.dedup();
    phases
}

/// Encodes a sample once for every phase it trains (see [`training_phases`]).
pub fn encode_windowed(s: &LabelledPosition, n_phases: usize, window: u32) -> Vec<Row> {
    let own = encode(s, n_phases);
    training_phases(u32::from(own.empties), n_phases, window)
        .into_iter()
        .map(|p| {
            let mut row = own;
            row.phase = p as u8;
            row
        })
        .collect()
}

/// Encodes samples on `threads` threads, keeping their order; each sample gives one row per
/// phase it trains (`window` plies; 0 = its own phase only).
pub fn encode_all(
    samples: &[LabelledPosition],
    n_phases: usize,
    window: u32,
    threads: usize,
) -> Vec<Row> {
    let threads = threads.max(1);
    let chunk = samples.len().div_ceil(threads).max(1);
    std::thread::scope(|s| {
        let handles: Vec<_> = samples
            .chunks(chunk)
            .map(|c| {
                s.spawn(move || {
                    c.iter()
                        .flat_map(|x| encode_windowed(x, n_phases, window))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    })
}

/// The linear pattern model in discs (f32), laid out like the weights file.
#[derive(Clone, Debug)]
pub struct Model {
    pub n_phases: usize,
    pub per_phase: usize,
    /// Offset of each instance's table within a phase.
    instance_offset: [u32; N_INSTANCES],
    scalar_offset: [u32; N_SCALAR_TABLES],
    pub w: Vec<f32>,
}

impl Model {
    pub fn new(n_phases: usize) -> Model {
        let l = layout();
        let mut table_offset = [0u32; N_TABLES];
        let mut off = 0u32;
        for (t, o) in table_offset.iter_mut().enumerate() {
            *o = off;
            off += l.specs[t].entries;
        }
        let mut instance_offset = [0u32; N_INSTANCES];
        for (o, inst) in instance_offset.iter_mut().zip(l.instances.iter()) {
            *o = table_offset[inst.pattern as usize];
        }
        let mut scalar_offset = [0u32; N_SCALAR_TABLES];
        for (s, o) in scalar_offset.iter_mut().enumerate() {
            *o = table_offset[N_PATTERN_TYPES + s];
        }
        Model {
            n_phases,
            per_phase: off as usize,
            instance_offset,
            scalar_offset,
            w: vec![0.0; n_phases * off as usize],
        }
    }

    /// The parameter indices a row uses.
    #[inline(always)]
    fn for_each_param(&self, row: &Row, mut f: impl FnMut(usize)) {
        let base = row.phase as usize * self.per_phase;
        for (o, &i) in self.instance_offset.iter().zip(row.idx.iter()) {
            f(base + *o as usize + i as usize);
        }
        for (o, &i) in self.scalar_offset.iter().zip(row.scalars.iter()) {
            f(base + *o as usize + i as usize);
        }
    }

    /// The model of a weights file with this trainer's layout, to start a fit from (an error
    /// says what does not match).
    pub fn from_weights(w: &Weights) -> Result<Model, StartWeightsError> {
        let mut model = Model::new(w.n_phases);
        if w.tables != expected_tables() {
            return Err(StartWeightsError::Tables);
        }
        if w.data.len() != model.w.len() || w.scale == 0 {
            return Err(StartWeightsError::Size {
                found: w.data.len(),
                scale: w.scale,
                expected: model.w.len(),
                phases: w.n_phases,
            });
        }
        let scale = w.scale as f32;
        for (x, &v) in model.w.iter_mut().zip(&w.data) {
            *x = f32::from(v) / scale;
        }
        Ok(model)
    }

    /// Prediction in discs.
    #[inline]
    pub fn predict(&self, row: &Row) -> f32 {
        let mut sum = 0.0f32;
        self.for_each_param(row, |p| sum += self.w[p]);
        sum
    }

    /// The weights file for this model (weights rounded to 1/[`SCALE`] disc).
    pub fn to_weights(&self, description: &str, created: u64) -> Weights {
        let data = self
            .w
            .iter()
            .map(|&x| (x * SCALE as f32).round().clamp(-32767.0, 32767.0) as i16)
            .collect();
        Weights {
            description: description.to_string(),
            created,
            scale: SCALE,
            n_phases: self.n_phases,
            tables: expected_tables(),
            data,
        }
    }
}

/// Fit settings.
#[derive(Clone, Copy, Debug)]
pub struct FitConfig {
    pub n_phases: usize,
    pub epochs: u32,
    /// Adam step size (discs), decayed linearly to a tenth over the run.
    pub lr: f32,
    /// L2 penalty: the weight of a zero "pseudo-observation" per parameter.
    pub l2: f32,
    /// Mini-batches per epoch.
    pub batches: usize,
    pub threads: usize,
    pub seed: u64,
}

/// Error measures of the model on a set of rows.
#[derive(Clone, Copy, Debug, Default)]
pub struct Metrics {
    pub n: usize,
    pub mse: f64,
    pub mae: f64,
    /// Rows with 20-24 empties.
    pub n_2024: usize,
    pub mae_2024: f64,
}

/// Error measures of `model` on `rows`, computed on `threads` threads.
pub fn metrics(model: &Model, rows: &[Row], threads: usize) -> Metrics {
    if rows.is_empty() {
        return Metrics::default();
    }
    let chunk = rows.len().div_ceil(threads.max(1)).max(1);
    let parts: Vec<(f64, f64, usize, f64)> = std::thread::scope(|s| {
        let hs: Vec<_> = rows
            .chunks(chunk)
            .map(|c| {
                s.spawn(move || {
                    let (mut se, mut ae, mut n2, mut ae2) = (0.0f64, 0.0f64, 0usize, 0.0f64);
                    for r in c {
                        let e = (model.predict(r) - f32::from(r.label)) as f64;
                        se += e * e;
                        ae += e.abs();
                        if (20..=24).contains(&r.empties) {
                            n2 += 1;
                            ae2 += e.abs();
                        }
                    }
                    (se, ae, n2, ae2)
                })
            })
            .collect();
        hs.into_iter()
            .map(|h| h.join().unwrap_or((0.0, 0.0, 0, 0.0)))
            .collect()
    });
    let n = rows.len();
    let (se, ae, n2, ae2) = parts.iter().fold((0.0, 0.0, 0, 0.0), |a, p| {
        (a.0 + p.0, a.1 + p.1, a.2 + p.2, a.3 + p.3)
    });
    Metrics {
        n,
        mse: se / n as f64,
        mae: ae / n as f64,
        n_2024: n2,
        mae_2024: if n2 > 0 { ae2 / n2 as f64 } else { 0.0 },
    }
}

/// A hash of the configuration and the training rows (a checkpoint resumes only on a match).
pub fn config_hash(cfg: &FitConfig, train: &[Row]) -> u64 {
    let mut bytes = Vec::new();
    for v in [
        cfg.n_phases as u64,
        u64::from(cfg.epochs),
        u64::from(cfg.lr.to_bits()),
        u64::from(cfg.l2.to_bits()),
        cfg.batches as u64,
        cfg.seed,
        train.len() as u64,
    ] {
        bytes.extend_from_slice(&v.to_le_bytes());
    }
    for r in train.iter().step_by(997) {
        for i in r.idx {
            bytes.extend_from_slice(&i.to_le_bytes());
        }
        bytes.push(r.label as u8);
        bytes.push(r.phase);
    }
    fnv1a64(&bytes)
}

/// Per-epoch report.
#[derive(Clone, Copy, Debug)]
pub struct EpochReport {
    pub epoch: u32,
    pub train_mse: f64,
    pub validation: Metrics,
}

/// Fits a model on `train`, reporting on `validation` after every epoch and checkpointing to
/// `checkpoint` (if given) so that a rerun resumes. Returns the model and the epoch reports of
/// this run.
///
/// With `init`, the fit starts from that model and the L2 penalty pulls toward it instead of
/// toward zero, so a round of training builds on the last one.
pub fn fit(
    cfg: &FitConfig,
    train: &[Row],
    validation: &[Row],
    init: Option<&Model>,
    checkpoint: Option<&Path>,
    quiet: bool,
) -> Result<(Model, Vec<EpochReport>), TrainError> {
    let mut model = Model::new(cfg.n_phases);
    if let Some(init) = init {
        if init.w.len() != model.w.len() {
            return Err(format!(
                "the initial weights have {} phases, the fit {}",
                init.n_phases, cfg.n_phases
            )
            .into());
        }
        model.w.clone_from(&init.w);
    }
    let anchor = model.w.clone();
    let n_params = model.w.len();
    let mut m = vec![0.0f32; n_params];
    let mut v = vec![0.0f32; n_params];
    let mut start_epoch = 0u32;
    let mut step = 0u64;
    let mut hash = config_hash(cfg, train);
    if init.is_some() {
        let bytes: Vec<u8> = anchor.iter().flat_map(|x| x.to_le_bytes()).collect();
        hash ^= fnv1a64(&bytes).rotate_left(1);
    }
    let log = |msg: &str| {
        if !quiet {
            eprintln!("{msg}");
        }
    };
    if let Some(path) = checkpoint {
        match Checkpoint::load(path) {
            Ok(Some(c)) if c.config_hash == hash && c.w.len() == n_params => {
                log(&format!(
                    "resuming from {} after epoch {}",
                    path.display(),
                    c.epoch
                ));
                model.w = c.w;
                m = c.m;
                v = c.v;
                start_epoch = c.epoch;
                step = c.step;
            }
            Ok(Some(_)) => log(&format!(
                "checkpoint {} is for another configuration or dataset: starting afresh",
                path.display()
            )),
            Ok(None) => {}
            Err(e) => log(&format!("ignoring unreadable checkpoint: {e}")),
        }
    }
    let threads = cfg.threads.max(1);
    let mut grads: Vec<Vec<f32>> = (0..threads).map(|_| vec![0.0f32; n_params]).collect();
    let mut order: Vec<u32> = (0..train.len() as u32).collect();
    let batches = cfg.batches.max(1);
    let mut reports = Vec::new();
    let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    let mut progress = Progress::new("epochs", u64::from(cfg.epochs), quiet);
    progress.set(u64::from(start_epoch));
    for epoch in start_epoch..cfg.epochs {
        let mut rng = Rng::new(cfg.seed ^ (u64::from(epoch) + 1).wrapping_mul(0x9E37_79B9));
        for i in (1..order.len()).rev() {
            let j = rng.below(i as u64 + 1) as usize;
            order.swap(i, j);
        }
        let frac = 1.0 - epoch as f32 / cfg.epochs.max(1) as f32;
        let lr = cfg.lr * (0.1 + 0.9 * frac);
        let mut sse = 0.0f64;
        let batch_len = order.len().div_ceil(batches).max(1);
        for batch in order.chunks(batch_len) {
            let chunk = batch.len().div_ceil(threads).max(1);
            let model_ref = &model;
            let part_sse: f64 = std::thread::scope(|s| {
                let hs: Vec<_> = batch
                    .chunks(chunk)
                    .zip(grads.iter_mut())
                    .map(|(rows, g)| {
                        s.spawn(move || {
                            g.iter_mut().for_each(|x| *x = 0.0);
                            let mut se = 0.0f64;
                            for &ri in rows {
                                let r = &train[ri as usize];
                                let e = model_ref.predict(r) - f32::from(r.label);
                                se += f64::from(e * e);
                                model_ref.for_each_param(r, |p| g[p] += e);
                            }
                            se
                        })
                    })
                    .collect();
                hs.into_iter().map(|h| h.join().unwrap_or(0.0)).sum()
            });
            // Only the threads that had rows this batch hold a fresh gradient.
            let used = batch.chunks(chunk).count();
            sse += part_sse;
            step += 1;
            let l2 = cfg.l2 * batch.len() as f32 / train.len().max(1) as f32;
            let bc1 = 1.0 - b1.powi(step.min(1 << 20) as i32);
            let bc2 = 1.0 - b2.powi(step.min(1 << 20) as i32);
            let step_size = lr * bc2.sqrt() / bc1;
            for p in 0..n_params {
                let mut g = l2 * (model.w[p] - anchor[p]);
                for gr in grads.iter().take(used) {
                    g += gr[p];
                }
                let mp = b1 * m[p] + (1.0 - b1) * g;
                let vp = b2 * v[p] + (1.0 - b2) * g * g;
                m[p] = mp;
                v[p] = vp;
                model.w[p] -= step_size * mp / (vp.sqrt() + eps);
            }
        }
        let val = metrics(&model, validation, threads);
        let report = EpochReport {
            epoch: epoch + 1,
            train_mse: sse / train.len().max(1) as f64,
            validation: val,
        };
        progress.println(&format!(
            "epoch {:>3}/{}: lr {:.4}, train MSE {:.3} (RMSE {:.3}), validation MAE {:.3} \
             (20-24 empties: {:.3} on {}), validation MSE {:.3}",
            report.epoch,
            cfg.epochs,
            lr,
            report.train_mse,
            report.train_mse.sqrt(),
            val.mae,
            val.mae_2024,
            val.n_2024,
            val.mse
        ));
        reports.push(report);
        if let Some(path) = checkpoint {
            Checkpoint {
                config_hash: hash,
                epoch: epoch + 1,
                step,
                w: model.w.clone(),
                m: m.clone(),
                v: v.clone(),
            }
            .save(path)
            .map_err(|e| e.to_string())?;
        }
        progress.set(u64::from(epoch + 1));
    }
    progress.finish(u64::from(cfg.epochs));
    Ok((model, reports))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phase_window_reaches_exactly_the_neighbouring_plies() {
        for n_phases in [1usize, 15, 30, 61] {
            for e in 0..=60u32 {
                assert_eq!(training_phases(e, n_phases, 0), vec![phase(e, n_phases)]);
                for window in [1u32, 2, 4] {
                    let got = training_phases(e, n_phases, window);
                    let lo = e.saturating_sub(window);
                    let hi = (e + window).min(60);
                    let mut want: Vec<usize> = (lo..=hi).map(|x| phase(x, n_phases)).collect();
                    want.dedup();
                    assert_eq!(got, {
                        want.sort_unstable();
                        want.dedup();
                        want
                    });
                    assert!(got.contains(&phase(e, n_phases)));
                }
            }
        }
        // One ply per phase: a window of 2 gives five phases in mid-game.
        assert_eq!(training_phases(30, 61, 2), vec![28, 29, 30, 31, 32]);
        // 15 phases of about four plies: ply 26 is in phase 6, ply 34 in phase 8.
        assert_eq!(training_phases(30, 15, 4), vec![6, 7, 8]);
    }
}
