//! Where shipped data files are found (`weights/`, `books/` under `$WEDGE_HOME`, beside the
//! executable, in `../share/wedge` from it, in the source tree, or in the user's data
//! directory, where `wedge install` puts them), where the user's own files go (the XDG data
//! directory), and how every file we write is written: atomically.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The first existing `dir/name` under `$WEDGE_HOME`, beside the executable, in
/// `../share/wedge` from it (an installed layout), two and three levels up from it (for
/// `target/release/wedge` in a source tree), in the user's data directory, then in this
/// source tree.
pub fn find_data_file(dir: &str, name: &str) -> Option<PathBuf> {
    data_file_locations(dir, name).into_iter().next()
}

/// Every existing `dir/name` where [`find_data_file`] looks, in its order (the shipped copies
/// that play must never write).
pub fn data_file_locations(dir: &str, name: &str) -> Vec<PathBuf> {
    let exe_dir = std::env::current_exe()
        .ok()
        .and_then(|e| e.parent().map(Path::to_path_buf));
    let home = std::env::var_os("WEDGE_HOME").map(PathBuf::from);
    data_file_candidates(
        &Path::new(dir).join(name),
        home.as_deref(),
        exe_dir.as_deref(),
        user_data_dir().as_deref(),
    )
    .into_iter()
    .filter(|p| p.is_file())
    .collect()
}

/// Where [`find_data_file`] looks for `rel`, in order: an explicit `$WEDGE_HOME` wins over the
/// places found from the executable, then the user's data directory, and the source tree the
/// binary was built from comes last.
fn data_file_candidates(
    rel: &Path,
    home: Option<&Path>,
    exe_dir: Option<&Path>,
    user_data: Option<&Path>,
) -> Vec<PathBuf> {
    let mut candidates = Vec::new();
    if let Some(home) = home {
        candidates.push(home.join(rel));
    }
    if let Some(exe_dir) = exe_dir {
        candidates.push(exe_dir.join(rel));
        if let Some(prefix) = exe_dir.parent() {
            candidates.push(prefix.join(INSTALLED_DATA).join(rel));
        }
        let mut up = exe_dir.parent().and_then(Path::parent);
        for _ in 0..2 {
            if let Some(u) = up {
                candidates.push(u.join(rel));
                up = u.parent();
            }
        }
    }
    if let Some(user_data) = user_data {
        candidates.push(user_data.join(rel));
    }
    candidates.push(Path::new(env!("CARGO_MANIFEST_DIR")).join(rel));
    candidates
}

/// Where an installed layout keeps the shipped data, from the prefix that holds `bin/wedge`.
pub const INSTALLED_DATA: &str = "share/wedge";

/// Wedge's directory for the user's own data (the XDG base directory rule):
/// `$XDG_DATA_HOME/wedge` when that is an absolute path, else `$HOME/.local/share/wedge`.
pub fn user_data_dir() -> Option<PathBuf> {
    user_data_dir_from(
        std::env::var_os("XDG_DATA_HOME").as_deref().map(Path::new),
        std::env::var_os("HOME").as_deref().map(Path::new),
    )
}

fn user_data_dir_from(xdg_data_home: Option<&Path>, home: Option<&Path>) -> Option<PathBuf> {
    // The specification says relative values are to be ignored.
    match xdg_data_home.filter(|p| p.is_absolute()) {
        Some(xdg) => Some(xdg.join("wedge")),
        None => home
            .filter(|h| !h.as_os_str().is_empty())
            .map(|h| h.join(".local/share/wedge")),
    }
}

/// The user's book of learned games: `learned.book` in [`user_data_dir`].
pub fn default_user_book() -> Option<PathBuf> {
    user_data_dir().map(|d| d.join("learned.book"))
}

/// Writes `bytes` to `path` atomically: a temporary file beside it, fsync, rename, then a
/// best-effort sync of the directory. Readers see the old file or the new one, never a mix.
/// Temporary files of `path` left by writers that died (killed mid-write) are removed.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_atomic_with(path, bytes, false)
}

/// As [`write_atomic`], the file made executable (mode 755 on Unix) before it is renamed into
/// place.
pub fn write_atomic_executable(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_atomic_with(path, bytes, true)
}

fn write_atomic_with(path: &Path, bytes: &[u8], executable: bool) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "file".into());
    remove_stale_temporaries(&dir, &name);
    let tmp = dir.join(format!(".{name}.tmp.{}", std::process::id()));
    let result = (|| {
        let mut f = File::create(&tmp)?;
        f.write_all(bytes)?;
        #[cfg(unix)]
        if executable {
            use std::os::unix::fs::PermissionsExt;
            f.set_permissions(std::fs::Permissions::from_mode(0o755))?;
        }
        #[cfg(not(unix))]
        let _ = executable;
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

/// Removes `.NAME.tmp.PID` files in `dir` whose process no longer runs (best effort: a
/// file that cannot be removed stays).
fn remove_stale_temporaries(dir: &Path, name: &str) {
    let prefix = format!(".{name}.tmp.");
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let Some(pid) = file_name
            .to_str()
            .and_then(|n| n.strip_prefix(&prefix))
            .and_then(|p| p.parse::<u32>().ok())
        else {
            continue;
        };
        if pid != std::process::id() && process_is_gone(pid) {
            match std::fs::remove_file(entry.path()) {
                Ok(()) => tracing::info!(
                    "removed {}, left by process {pid} which no longer runs",
                    entry.path().display()
                ),
                Err(e) => tracing::debug!("cannot remove {}: {e}", entry.path().display()),
            }
        }
    }
}

/// True when no process `pid` runs. Where that cannot be told (no `/proc`), a process is
/// taken to be running, so nothing of a live writer is ever removed.
fn process_is_gone(pid: u32) -> bool {
    let proc = Path::new("/proc");
    proc.join("self").exists() && !proc.join(pid.to_string()).exists()
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

    #[cfg(unix)]
    #[test]
    fn stale_temporaries_of_dead_writers_are_removed() {
        let dir = std::env::temp_dir().join(format!("wedge-stale-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // A process that has exited and been waited for; and one that runs (our parent).
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let dead = child.id();
        child.wait().unwrap();
        let alive = std::os::unix::process::parent_id();
        let stale = dir.join(format!(".x.book.tmp.{dead}"));
        let live = dir.join(format!(".x.book.tmp.{alive}"));
        let other = dir.join(format!(".y.book.tmp.{dead}"));
        for f in [&stale, &live, &other] {
            std::fs::write(f, b"partial").unwrap();
        }
        write_atomic(&dir.join("x.book"), b"whole").unwrap();
        assert!(!stale.exists(), "the dead writer's file is removed");
        assert!(live.exists(), "a running writer's file stays");
        assert!(
            other.exists(),
            "another file's temporaries are not ours to judge"
        );
        assert_eq!(std::fs::read(dir.join("x.book")).unwrap(), b"whole");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn wedge_home_is_looked_at_first_and_the_source_tree_last() {
        let rel = Path::new("books/default.book");
        let c = data_file_candidates(
            rel,
            Some(Path::new("/home/me/wedge")),
            Some(Path::new("/opt/w/target/release")),
            Some(Path::new("/home/me/.local/share/wedge")),
        );
        let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join(rel);
        assert_eq!(
            c,
            vec![
                PathBuf::from("/home/me/wedge/books/default.book"),
                PathBuf::from("/opt/w/target/release/books/default.book"),
                PathBuf::from("/opt/w/target/share/wedge/books/default.book"),
                PathBuf::from("/opt/w/books/default.book"),
                PathBuf::from("/opt/books/default.book"),
                PathBuf::from("/home/me/.local/share/wedge/books/default.book"),
                manifest.clone(),
            ]
        );
        assert_eq!(data_file_candidates(rel, None, None, None), vec![manifest]);
    }

    #[test]
    fn the_user_data_directory_follows_xdg() {
        let home = Some(Path::new("/home/me"));
        assert_eq!(
            user_data_dir_from(Some(Path::new("/data")), home),
            Some(PathBuf::from("/data/wedge"))
        );
        // A relative XDG_DATA_HOME is ignored, as the specification asks.
        assert_eq!(
            user_data_dir_from(Some(Path::new("rel")), home),
            Some(PathBuf::from("/home/me/.local/share/wedge"))
        );
        assert_eq!(
            user_data_dir_from(None, home),
            Some(PathBuf::from("/home/me/.local/share/wedge"))
        );
        assert_eq!(user_data_dir_from(None, Some(Path::new(""))), None);
        assert_eq!(user_data_dir_from(None, None), None);
    }

    #[test]
    fn finds_files_of_the_source_tree() {
        assert!(find_data_file("weights", "README.md").is_some());
        assert!(find_data_file("weights", "no-such-file").is_none());
    }
}
