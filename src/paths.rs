//! Where shipped data files are found (`weights/`, `books/` beside the executable, in the
//! source tree, or under `$WEDGE_HOME`) and how every file we write is written: atomically.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The first existing `dir/name` beside the executable (or two and three levels up, for
/// `target/release/wedge` in a source tree), in this source tree, then under `$WEDGE_HOME`.
pub fn find_data_file(dir: &str, name: &str) -> Option<PathBuf> {
    let rel = Path::new(dir).join(name);
    let mut candidates = Vec::new();
    if let Some(exe_dir) = std::env::current_exe()
        .ok()
        .and_then(|e| e.parent().map(Path::to_path_buf))
    {
        candidates.push(exe_dir.join(&rel));
        let mut up = exe_dir.parent().and_then(Path::parent);
        for _ in 0..2 {
            if let Some(u) = up {
                candidates.push(u.join(&rel));
                up = u.parent();
            }
        }
    }
    candidates.push(Path::new(env!("CARGO_MANIFEST_DIR")).join(&rel));
    if let Some(home) = std::env::var_os("WEDGE_HOME") {
        candidates.push(PathBuf::from(home).join(&rel));
    }
    candidates.into_iter().find(|p| p.is_file())
}

/// Writes `bytes` to `path` atomically: a temporary file beside it, fsync, rename, then a
/// best-effort sync of the directory. Readers see the old file or the new one, never a mix.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "file".into());
    let tmp = dir.join(format!(".{name}.tmp.{}", std::process::id()));
    let result = (|| {
        let mut f = File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, path)?;
        if let Ok(d) = File::open(&dir) {
            let _ = d.sync_all();
        }
        Ok(())
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_write_replaces_and_leaves_no_temporary() {
        let dir = std::env::temp_dir().join(format!("wedge-paths-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("x.txt");
        write_atomic(&f, b"one").unwrap();
        write_atomic(&f, b"two").unwrap();
        assert_eq!(std::fs::read(&f).unwrap(), b"two");
        let names: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), 1, "{names:?}");
        assert!(write_atomic(&dir.join("missing/sub/y"), b"z").is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn finds_files_of_the_source_tree() {
        assert!(find_data_file("weights", "README.md").is_some());
        assert!(find_data_file("weights", "no-such-file").is_none());
    }
}
