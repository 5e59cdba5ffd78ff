//! Weights, ProbCut models and the WTHOR lines self-play games may leave travel through the
//! JetStream object store, named by checksum (`weights-<hex>.wts`, `probcut-<hex>.txt`,
//! `wthor-lines-<hex>.bin`), so a worker machine needs only the binary. A
//! worker keeps what it fetched in a local cache directory and checks every file, fetched or
//! cached, against the checksum the unit names before playing with it.

use super::error::{nats, DistribError, ObjectError};
use crate::train::selfplay::{Model, WthorLines};
use async_nats::jetstream::object_store::{self, ObjectStore};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use tokio::io::AsyncReadExt;
use wedge_core::eval::Weights;
use wedge_core::framing::fnv1a64;
use wedge_core::search::ProbCutModel;

/// The object name of the weights with `checksum`.
pub fn weights_name(checksum: u64) -> String {
    format!("weights-{checksum:016x}.wts")
}

/// The object name of the ProbCut model with `checksum`.
pub fn probcut_name(checksum: u64) -> String {
    format!("probcut-{checksum:016x}.txt")
}

/// The object name of the WTHOR lines with `checksum`.
pub fn wthor_name(checksum: u64) -> String {
    format!("wthor-lines-{checksum:016x}.bin")
}

/// Uploads WTHOR lines (none when empty); whether the object was new.
pub async fn upload_lines(store: &ObjectStore, lines: &WthorLines) -> Result<bool, DistribError> {
    if lines.is_empty() {
        return Ok(false);
    }
    put_once(store, &wthor_name(lines.checksum()), lines.to_bytes()).await
}

/// The lines in `bytes` if they replay and their checksum is `checksum`.
fn check_lines(bytes: &[u8], checksum: u64) -> Result<WthorLines, ObjectError> {
    let computed = fnv1a64(bytes);
    if computed != checksum {
        return Err(ObjectError::Checksum {
            found: computed,
            expected: checksum,
        });
    }
    WthorLines::from_bytes(bytes).map_err(ObjectError::Lines)
}

/// Stores `bytes` as `name` unless an object of that name is there (names are checksums; a
/// deleted object leaves its name behind, marked deleted, and is stored again).
async fn put_once(store: &ObjectStore, name: &str, bytes: &[u8]) -> Result<bool, DistribError> {
    if store.info(name).await.is_ok_and(|info| !info.deleted) {
        return Ok(false);
    }
    let mut reader = bytes;
    store
        .put(name, &mut reader)
        .await
        .map_err(nats(format!("uploading {name}")))?;
    Ok(true)
}

/// Uploads the weights (their canonical bytes) and the ProbCut model (its canonical text) of
/// `model`; returns how many objects were new.
pub async fn upload(
    store: &ObjectStore,
    weights: &Weights,
    model: &Model,
) -> Result<usize, DistribError> {
    let bytes = weights.to_bytes().map_err(|k| DistribError::Object {
        name: weights_name(model.weights_checksum),
        source: k.into(),
    })?;
    let mut new = 0;
    new += usize::from(put_once(store, &weights_name(model.weights_checksum), &bytes).await?);
    let text = model.probcut.to_text();
    new += usize::from(
        put_once(
            store,
            &probcut_name(model.probcut_checksum),
            text.as_bytes(),
        )
        .await?,
    );
    Ok(new)
}

/// The weights in `bytes` if they are valid and their checksum is `checksum`.
fn check_weights(bytes: &[u8], checksum: u64) -> Result<Weights, ObjectError> {
    let weights = Weights::from_bytes(bytes)?;
    let tail = bytes.len().saturating_sub(8);
    let stored = bytes[tail..].try_into().map_or(0, u64::from_le_bytes);
    if stored != checksum {
        return Err(ObjectError::Checksum {
            found: stored,
            expected: checksum,
        });
    }
    Ok(weights)
}

/// The ProbCut model in `bytes` if it parses and its checksum is `checksum`.
fn check_probcut(bytes: &[u8], checksum: u64, name: &str) -> Result<ProbCutModel, ObjectError> {
    let text = std::str::from_utf8(bytes).map_err(|_| ObjectError::NotText)?;
    let model = ProbCutModel::parse(text, name)?;
    let computed = fnv1a64(model.to_text().as_bytes());
    if computed != checksum {
        return Err(ObjectError::Checksum {
            found: computed,
            expected: checksum,
        });
    }
    Ok(model)
}

/// The default cache: `$XDG_CACHE_HOME/wedge/objects`, else `~/.cache/wedge/objects`.
pub fn default_cache_dir() -> PathBuf {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .unwrap_or_else(std::env::temp_dir);
    base.join("wedge").join("objects")
}

/// A worker's view of the object store: fetched files cached on disk, loaded models in memory.
pub struct Files {
    store: ObjectStore,
    cache: PathBuf,
    models: HashMap<(u64, u64), Model>,
    lines: HashMap<u64, WthorLines>,
}

impl Files {
    pub fn new(store: ObjectStore, cache: PathBuf) -> Files {
        Files {
            store,
            cache,
            models: HashMap::new(),
            lines: HashMap::new(),
        }
    }

    /// The bytes of object `name`: from the cache when there and `check` accepts them, else
    /// fetched, checked and cached.
    async fn bytes<T>(
        &self,
        name: &str,
        check: impl Fn(&[u8]) -> Result<T, ObjectError>,
    ) -> Result<T, DistribError> {
        let path = self.cache.join(name);
        if let Ok(bytes) = wedge_core::paths::read_file(&path) {
            match check(&bytes) {
                Ok(value) => return Ok(value),
                Err(e) => eprintln!(
                    "wedge worker: cached {} is damaged ({e}); fetching it again",
                    path.display()
                ),
            }
        }
        let mut object = self.store.get(name).await.map_err(|e| {
            if e.kind() == object_store::GetErrorKind::NotFound {
                DistribError::MissingObject {
                    name: name.to_string(),
                }
            } else {
                nats(format!("fetching {name} from the object store"))(e)
            }
        })?;
        let mut bytes = Vec::new();
        object
            .read_to_end(&mut bytes)
            .await
            .map_err(nats(format!("reading {name} from the object store")))?;
        let value = check(&bytes).map_err(|source| DistribError::Object {
            name: name.to_string(),
            source,
        })?;
        write_cache(&self.cache, &path, &bytes)?;
        Ok(value)
    }

    /// The model with these checksums, fetched (or taken from the cache) and verified.
    pub async fn model(&mut self, weights: u64, probcut: u64) -> Result<Model, DistribError> {
        if let Some(m) = self.models.get(&(weights, probcut)) {
            return Ok(m.clone());
        }
        let wname = weights_name(weights);
        let w = self.bytes(&wname, |b| check_weights(b, weights)).await?;
        let pname = probcut_name(probcut);
        let p = self
            .bytes(&pname, |b| check_probcut(b, probcut, &pname))
            .await?;
        let model = Model::new(&w, p).map_err(|k| DistribError::Object {
            name: wname.clone(),
            source: k.into(),
        })?;
        if model.weights_checksum != weights || model.probcut_checksum != probcut {
            return Err(DistribError::Object {
                name: wname,
                source: ObjectError::ModelChecksums,
            });
        }
        self.models.insert((weights, probcut), model.clone());
        Ok(model)
    }
}

impl Files {
    /// The WTHOR lines with `checksum`, fetched (or taken from the cache) and replayed.
    pub async fn wthor(&mut self, checksum: u64) -> Result<WthorLines, DistribError> {
        if let Some(lines) = self.lines.get(&checksum) {
            return Ok(lines.clone());
        }
        let lines = self
            .bytes(&wthor_name(checksum), |b| check_lines(b, checksum))
            .await?;
        self.lines.insert(checksum, lines.clone());
        Ok(lines)
    }

    /// The cached files of the model with these checksums (fetched and verified first): the
    /// weights and the ProbCut model, for an engine process started with them.
    pub async fn model_files(
        &mut self,
        weights: u64,
        probcut: u64,
    ) -> Result<(PathBuf, PathBuf), DistribError> {
        self.model(weights, probcut).await?;
        let (w, p) = (
            self.cache.join(weights_name(weights)),
            self.cache.join(probcut_name(probcut)),
        );
        if !w.is_file() || !p.is_file() {
            // Loaded before from files since removed: fetch them again.
            self.models.remove(&(weights, probcut));
            self.model(weights, probcut).await?;
        }
        Ok((w, p))
    }
}

fn write_cache(dir: &Path, path: &Path, bytes: &[u8]) -> Result<(), DistribError> {
    std::fs::create_dir_all(dir).map_err(|source| DistribError::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    wedge_core::paths::write_atomic(path, bytes).map_err(|source| DistribError::Io {
        path: path.to_path_buf(),
        source,
    })
}
